"""PyTorch's side of frontend/optim's TestOptimizersMatchPyTorch.

Usage: torch_optim.py CASES.json OUT.json. Each case is an optimizer
(torch.optim.SGD, Adam or AdamW with its arguments), an optional
learning-rate schedule (a torch.optim.lr_scheduler), an optional
clip_grad_norm_ max norm, the initial float32 parameters, and the
gradients of each step. The script runs the steps as a PyTorch training
loop does (gradients, clip_grad_norm_, optimizer.step(), scheduler.step())
and writes the parameters after each step, the global norms, and the
optimizer's state at the end. Exit status 3: torch is not importable.
"""
import json
import math
import sys

try:
    import torch
except ImportError as e:
    print(e)
    sys.exit(3)


def arr(a):
    return torch.tensor(a["data"], dtype=torch.float32).reshape(a["shape"])


def out(t):
    t = t.detach()
    return {"shape": list(t.shape), "data": [float(v) for v in t.reshape(-1).tolist()]}


def make_opt(o, params):
    k = o["kind"]
    if k == "sgd":
        return torch.optim.SGD(params, lr=o["lr"], momentum=o.get("momentum", 0), dampening=o.get("dampening", 0),
                               nesterov=o.get("nesterov", False), weight_decay=o.get("weight_decay", 0))
    cls = {"adam": torch.optim.Adam, "adamw": torch.optim.AdamW}[k]
    return cls(params, lr=o["lr"], betas=(o["b1"], o["b2"]), eps=o["eps"], weight_decay=o.get("weight_decay", 0))


def make_sched(s, opt, lr):
    if not s:
        return None
    k = s["kind"]
    if k == "cosine":
        return torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=s["steps"], eta_min=s["final"] * lr)
    if k == "warmup":
        return torch.optim.lr_scheduler.LinearLR(opt, start_factor=s["start"], end_factor=1.0, total_iters=s["steps"])
    if k == "exponential":
        return torch.optim.lr_scheduler.ExponentialLR(opt, gamma=s["rate"])
    if k == "warmup_cosine":
        # optax.warmup_cosine_decay_schedule(0, 1, warmup, steps, final)
        w, n, f = s["warmup"], s["steps"], s["final"]

        def factor(t):
            if t < w:
                return t / w
            d = min(t - w, n - w)
            return (1 - f) * 0.5 * (1 + math.cos(math.pi * d / (n - w))) + f

        return torch.optim.lr_scheduler.LambdaLR(opt, factor)
    raise ValueError(k)


def run(c):
    params = [arr(p).requires_grad_() for p in c["params"]]
    opt = make_opt(c["opt"], params)
    sched = make_sched(c.get("schedule"), opt, c["opt"]["lr"])
    res = {"params": [], "norms": []}
    for grads in c["grads"]:
        for p, g in zip(params, grads):
            p.grad = arr(g)
        if c.get("clip"):
            res["norms"].append(float(torch.nn.utils.clip_grad_norm_(params, c["clip"])))
        opt.step()
        if sched is not None:
            sched.step()
        res["params"].append([out(p) for p in params])
    names = {"momentum_buffer": "momentum", "exp_avg": "m", "exp_avg_sq": "v"}
    res["state"] = {}
    for torch_name, name in names.items():
        if all(opt.state[p].get(torch_name) is not None for p in params):
            res["state"][name] = [out(opt.state[p][torch_name]) for p in params]
    return res


def main():
    torch.set_num_threads(1)
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    with open(sys.argv[2], "w") as f:
        json.dump({c["name"]: run(c) for c in cases}, f)


main()
