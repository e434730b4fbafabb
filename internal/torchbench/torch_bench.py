#!/usr/bin/python3
"""PyTorch's side of `stela bench` (docs/performance.md).

Runs the benchmark workloads W1 to W5 and W7 in PyTorch eager mode (W4 also with
torch.jit.trace) and prints one JSON object per measurement, the same
objects `stela bench --json` prints, with mode "torch-eager" (or
"torch-jit-trace") and the thread count PyTorch used:

    /usr/bin/python3 internal/torchbench/torch_bench.py [--workload W1,W2,W3,W4,W5,W7] [--runs N] [--threads N] [--device cpu|cuda]

The stela binary carries this file (package torchbench embeds it) and runs
it with the first python3 on PATH that can import torch: Debian's
python3-torch (/usr/bin/python3) where another python3 without torch (a
pyenv shim) comes first.

Every measurement is one warm-up call, then --runs timed calls; the median
is reported. With --device cuda the tensors live on the GPU and each timed
call ends with torch.cuda.synchronize(), as Stela's end at a sync point. The workloads are written to match Stela's exactly:

  W1  10,000 chained adds z = z + y of two f32[16] (us per op), under
      torch.inference_mode() (PyTorch's fastest eager dispatch); also, in
      mode "numpy", the same loop on two NumPy float32[16] arrays
  W2  gelu_tanh(x*a+b) on f32[4194304], a and b f32 scalars (0-d tensors);
      GB/s counts one read of x and one write of y
  W3  f32 matmul n x n x n for n = 1024, 2048 (GFLOP/s)
  W4  one training step of an MLP 784-1024-1024-10 (ReLU) on a batch of
      256: forward, softmax cross-entropy (mean over the batch), backward,
      SGD update (lr 0.01, no momentum) of the parameters in place; ms per
      step. Two modes: torch-eager (nn.Linear layers, F.cross_entropy,
      loss.backward(), torch.optim.SGD) and torch-jit-trace (the same
      step with the forward and the loss traced by torch.jit.trace into one
      TorchScript graph; backward runs through it by autograd, and the
      SGD update stays eager: a trace records no backward pass nor
      optimizer step). Each step ends with loss.item(), as a training loop
      that shows its loss does. Grads are set to None, not zeroed, between
      steps (zero_grad(set_to_none=True), the faster way and PyTorch 2's
      default). Runs with grad enabled (the others under no_grad).
  W5  one GPT-2-small block forward, f32, batch 4, seq 256, d_model 768,
      12 heads, MLP 3072: frontend/examples/transformer.go op for op
      (pre-LayerNorm, x @ w + b projections, causal mask by where(row >=
      col, scores, -1e9), softmax, tanh GELU, two residuals)
  W7  GPT-2 small (124M parameters, f32, random weights) as transformers'
      GPT2LMHeadModel computes it, with its concatenating key/value cache:
      prefill of a 128-token prompt (ms; the last token's logits read to
      the host), and 128 decode steps from the prefilled cache feeding back
      each row's argmax (ms per token), at batch 1 and 8

--serve is how `stela bench --torch` runs it: one process for the whole
invocation, taking "warmup", "run" and "result" commands on stdin (see
serve(); a measurement in a mode other than torch-eager is named
WORKLOAD/MODE there, as in --list), so that Stela's timed runs and PyTorch's can alternate one by one
and both sides of a comparison see the same machine conditions. Each "run"
is one timed call exactly as above; "result" prints the same object.

--list prints the metric names, one "WORKLOAD<TAB>METRIC" a line, the
workload written WORKLOAD/MODE for a mode other than torch-eager.

--w4-losses N prints the losses of N W4 steps in each mode, one JSON
object a line ({"mode": ..., "losses": [...]}): test/bench checks that
the step trains (the loss falls from about ln 10) and that both modes
compute the same steps.

--check DIR runs the block (before any --workload) on DIR/in0.npy ... DIR/in12.npy (the
example's parameters in order) with the config given by --batch, --seq,
--d-model, --heads, --mlp and writes DIR/out.npy: test/bench's Go test uses
it to check that this block computes what Stela's does.
"""

import argparse
import json
import math
import os
import sys
import time

import bench_common
from bench_common import median

# Imported by main after --list, which must work without torch.
torch = None
F = None
DEVICE = "cpu"

W1_OPS = 10000

# The metrics, as `stela bench` names them (test/bench/testdata/metrics.txt).
W1_METRIC = "add f32[16] x10000"
W2_METRIC = "gelu_tanh(x*a+b) f32[4194304]"
W3_SIZES = (1024, 2048)
W4_METRIC = "mlp train step b256 784-1024-1024-10"
W4_JIT = "torch-jit-trace"
W5_METRIC = "gpt2-small block forward f32[4,256,768]"
W7_PROMPT, W7_NEW, W7_BATCHES = 128, 128, (1, 8)


def w3_metric(n):
    return f"matmul f32 {n}x{n}x{n}"


def w7_metric(kind, batch):
    return f"gpt2-small {kind} {W7_PROMPT} tokens b{batch}"


EAGER = "torch-eager"
NUMPY = "numpy"

# (workload, mode, metric) of every measurement, in the order they run.
METRICS = ([("W1", EAGER, W1_METRIC), ("W1", NUMPY, W1_METRIC), ("W2", EAGER, W2_METRIC)] + [("W3", EAGER, w3_metric(n)) for n in W3_SIZES] +
           [("W4", EAGER, W4_METRIC), ("W4", W4_JIT, W4_METRIC), ("W5", EAGER, W5_METRIC)] +
           [("W7", EAGER, w7_metric(k, b)) for b in W7_BATCHES for k in ("prefill", "decode")])


def workload_id(workload, mode):
    """How --list and --serve name a workload in a mode: "W4", or
    "W4/torch-jit-trace" for a mode other than torch-eager."""
    return workload if mode == EAGER else f"{workload}/{mode}"


class Measurement:
    """One metric of a workload in a mode: fn is one call of it, sample
    turns a call's seconds into the metric's unit, derived(result, seconds)
    gives the result's "derived" values (other units of the median), if
    any."""

    def __init__(self, workload, metric, unit, fn, sample, derived=None, mode=EAGER):
        self.workload, self.metric, self.unit, self.mode = workload, metric, unit, mode
        self.fn, self.sample, self.derived = fn, sample, derived

    def call(self):
        """One call, ending at a sync point; returns its seconds."""
        t = time.perf_counter()
        self.fn()
        if DEVICE != "cpu":
            torch.cuda.synchronize()
        return time.perf_counter() - t

    def result(self, seconds):
        """The JSON object of `stela bench --json`, from the timed calls."""
        r = bench_common.result_fields(self, seconds)
        r["threads"] = torch.get_num_threads()
        r["torch_version"] = torch.__version__
        if DEVICE != "cpu":
            r["device"] = DEVICE
        if self.derived:
            r["derived"] = self.derived(r, seconds)
        return r


def measure(m, runs):
    """Seconds per call of m: one warm-up, then runs timed calls."""
    m.call()
    return [m.call() for _ in range(runs)]


def rand(*shape):
    return torch.rand(*shape, dtype=torch.float32, device=DEVICE) * 4 - 2


# Each workload function makes its inputs and returns its Measurements.


def w1():
    import numpy as np

    x, y = rand(16), rand(16)
    nx, ny = x.cpu().numpy().copy(), y.cpu().numpy().copy()

    def rep():
        with torch.inference_mode():
            z = x
            for _ in range(W1_OPS):
                z = z + y
            return z

    def rep_numpy():
        z = nx
        for _ in range(W1_OPS):
            z = z + ny
        return z

    us = lambda t: t * 1e6 / W1_OPS
    return [Measurement("W1", W1_METRIC, "\u00b5s/op", rep, us),
            Measurement("W1", W1_METRIC, "\u00b5s/op", rep_numpy, us, mode=NUMPY)]


def w2():
    n = 4194304
    x = rand(n)
    a = torch.tensor(0.75, dtype=torch.float32, device=DEVICE)
    b = torch.tensor(0.25, dtype=torch.float32, device=DEVICE)
    return [Measurement("W2", W2_METRIC, "ms", lambda: F.gelu(x * a + b, approximate="tanh"), lambda t: t * 1e3,
                        lambda r, _: {"GB/s": 2 * 4 * n / (r["median"] / 1e3) / 1e9})]


def w3():
    out = []
    for n in W3_SIZES:
        x, y = rand(n, n), rand(n, n)
        flops = 2.0 * n * n * n
        out.append(Measurement("W3", w3_metric(n), "GFLOP/s", lambda x=x, y=y: torch.matmul(x, y),
                               lambda t, flops=flops: flops / t / 1e9,
                               lambda r, ts: {"ms": median([t * 1e3 for t in ts])}))
    return out


class MLP:
    """W4's model and its training step."""

    sizes = (784, 1024, 1024, 10)
    batch = 256
    lr = 0.01

    def __init__(self):
        nn = torch.nn
        d = self.sizes
        # nn.Linear's own initialization (Kaiming uniform); timings do not
        # depend on the values, but the step must stay finite.
        self.model = nn.Sequential(nn.Linear(d[0], d[1]), nn.ReLU(), nn.Linear(d[1], d[2]), nn.ReLU(),
                                   nn.Linear(d[2], d[3])).to(DEVICE)
        self.x = torch.rand(self.batch, d[0], dtype=torch.float32, device=DEVICE)  # pixels in [0, 1)
        self.y = torch.randint(0, d[3], (self.batch,), device=DEVICE)

    def eager(self):
        """The step in eager mode; returns the loss before the update."""
        opt = torch.optim.SGD(self.model.parameters(), lr=self.lr)
        model, x, y = self.model, self.x, self.y

        def step():
            with torch.enable_grad():
                opt.zero_grad(set_to_none=True)
                loss = F.cross_entropy(model(x), y)
                loss.backward()
                opt.step()
                return loss.item()

        return step

    def traced(self):
        """The step with the forward and loss traced by torch.jit.trace:
        backward through the TorchScript graph by autograd, SGD eager."""
        model = self.model

        class WithLoss(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.model = model

            def forward(self, x, y):
                return F.cross_entropy(self.model(x), y)

        with torch.enable_grad():
            fn = torch.jit.trace(WithLoss(), (self.x, self.y))
        opt = torch.optim.SGD(fn.parameters(), lr=self.lr)
        x, y = self.x, self.y

        def step():
            with torch.enable_grad():
                opt.zero_grad(set_to_none=True)
                loss = fn(x, y)
                loss.backward()
                opt.step()
                return loss.item()

        return step


def w4():
    ms = lambda t: t * 1e3
    # Each mode trains a model of its own, from the same initial values.
    torch.manual_seed(4)
    eager = MLP().eager()
    torch.manual_seed(4)
    traced = MLP().traced()
    return [Measurement("W4", W4_METRIC, "ms", eager, ms),
            Measurement("W4", W4_METRIC, "ms", traced, ms, mode=W4_JIT)]


class Block:
    """GPT-2 block as frontend/examples/transformer.go writes it."""

    def __init__(self, batch=4, seq=256, d_model=768, heads=12, mlp=3072, eps=1e-5):
        self.batch, self.seq, self.d, self.heads, self.mlp, self.eps = batch, seq, d_model, heads, mlp, eps

    def inputs(self):
        d, m, std = self.d, self.mlp, 0.02
        g = lambda *s: torch.randn(*s, dtype=torch.float32) * std
        ins = [
            torch.randn(self.batch, self.seq, d, dtype=torch.float32),
            torch.ones(d), g(d),
            g(d, 3 * d), g(3 * d),
            g(d, d) / math.sqrt(2), g(d),
            torch.ones(d), g(d),
            g(d, m), g(m),
            g(m, d) / math.sqrt(2), g(d),
        ]
        return [t.to(DEVICE) for t in ins]

    def forward(self, x, ln1g, ln1b, wqkv, bqkv, wo, bo, ln2g, ln2b, wfc, bfc, wproj, bproj):
        d = self.d
        x = x + self.attention(F.layer_norm(x, (d,), ln1g, ln1b, self.eps), wqkv, bqkv, wo, bo)
        h = F.layer_norm(x, (d,), ln2g, ln2b, self.eps)
        return x + F.gelu(h @ wfc + bfc, approximate="tanh") @ wproj + bproj

    def attention(self, h, wqkv, bqkv, wo, bo):
        b, s, d = h.shape
        nh = self.heads
        dh = d // nh
        qkv = h @ wqkv + bqkv  # [b, s, 3d]
        q, k, v = (p.reshape(b, s, nh, dh).transpose(1, 2) for p in qkv.split(d, dim=-1))
        scores = (q @ k.transpose(-1, -2)) * (1 / math.sqrt(dh))  # [b, heads, s, s]
        row = torch.arange(s, device=h.device).reshape(s, 1)
        col = torch.arange(s, device=h.device).reshape(1, s)
        scores = torch.where(row >= col, scores, torch.tensor(-1e9, dtype=scores.dtype, device=h.device))
        a = torch.softmax(scores, dim=-1) @ v  # [b, heads, s, dh]
        a = a.transpose(1, 2).reshape(b, s, d)
        return a @ wo + bo


def w5():
    blk = Block()
    args = blk.inputs()
    return [Measurement("W5", W5_METRIC, "ms", lambda: blk.forward(*args), lambda t: t * 1e3)]


class GPT2:
    """W7's model: GPT-2 small (124M parameters, f32, random weights),
    written out in torch ops as transformers' GPT2LMHeadModel computes it
    (tanh GELU, pre-LayerNorm, tied head), with Hugging Face's key/value
    cache: each step concatenates its keys and values to the past ones."""

    def __init__(self, vocab=50257, npos=1024, d=768, layers=12, heads=12):
        g = torch.Generator().manual_seed(0)

        def n(*shape, std=0.02, mean=0.0):
            return (torch.randn(*shape, generator=g) * std + mean).to(DEVICE)

        self.d, self.heads = d, heads
        self.wte, self.wpe = n(vocab, d), n(npos, d)
        self.blocks = [dict(ln1g=n(d, mean=1), ln1b=n(d), wqkv=n(d, 3 * d), bqkv=n(3 * d), wo=n(d, d), bo=n(d),
                            ln2g=n(d, mean=1), ln2b=n(d), wfc=n(d, 4 * d), bfc=n(4 * d), wproj=n(4 * d, d), bproj=n(d))
                       for _ in range(layers)]
        self.lnfg, self.lnfb = n(d, mean=1), n(d)

    def forward(self, ids, past):
        """Logits of each row's last token [B, vocab] and the new cache."""
        b, s = ids.shape
        d, nh = self.d, self.heads
        dh = d // nh
        p = 0 if past is None else past[0][0].shape[2]
        x = self.wte[ids] + self.wpe[torch.arange(p, p + s, device=ids.device)]
        new = []
        for i, w in enumerate(self.blocks):
            h = F.layer_norm(x, (d,), w["ln1g"], w["ln1b"], 1e-5)
            q, k, v = (h @ w["wqkv"] + w["bqkv"]).split(d, dim=-1)
            q, k, v = (t.reshape(b, s, nh, dh).transpose(1, 2) for t in (q, k, v))
            if past is not None:
                k = torch.cat([past[i][0], k], dim=2)
                v = torch.cat([past[i][1], v], dim=2)
            new.append((k, v))
            scores = q @ k.transpose(-1, -2) / math.sqrt(dh)
            if s > 1:
                row = torch.arange(p, p + s, device=ids.device).reshape(s, 1)
                col = torch.arange(p + s, device=ids.device).reshape(1, p + s)
                scores = torch.where(row >= col, scores, torch.tensor(torch.finfo(scores.dtype).min, device=ids.device))
            a = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(b, s, d)
            x = x + a @ w["wo"] + w["bo"]
            h = F.layer_norm(x, (d,), w["ln2g"], w["ln2b"], 1e-5)
            x = x + F.gelu(h @ w["wfc"] + w["bfc"], approximate="tanh") @ w["wproj"] + w["bproj"]
        x = F.layer_norm(x[:, -1], (d,), self.lnfg, self.lnfb, 1e-5)
        return x @ self.wte.t(), new


def w7():
    model = GPT2()
    g = torch.Generator().manual_seed(7)
    out = []
    for batch in W7_BATCHES:
        ids = torch.randint(0, 50257, (batch, W7_PROMPT), generator=g).to(DEVICE)
        logits, past = model.forward(ids, None)
        first = logits.argmax(-1, keepdim=True)

        def decode(first=first, past=past):
            nxt, p = first, past
            for _ in range(W7_NEW):
                logits, p = model.forward(nxt, p)
                nxt = logits.argmax(-1, keepdim=True)
            nxt.tolist()  # the tokens reach the host, as Stela's do

        def prefill(ids=ids):
            model.forward(ids, None)[0].tolist()

        out.append(Measurement("W7", w7_metric("prefill", batch), "ms", prefill, lambda t: t * 1e3))
        out.append(Measurement("W7", w7_metric("decode", batch), "ms/token", decode, lambda t: t * 1e3 / W7_NEW,
                               derived=lambda r, secs, batch=batch: {"tokens_per_s": batch * 1e3 / r["median"]}))
    return out


WORKLOADS = {"W1": w1, "W2": w2, "W3": w3, "W4": w4, "W5": w5, "W7": w7}


def serve():
    """bench_common.serve's loop (the protocol is described there)."""
    bench_common.serve({"ready": True, "torch_version": torch.__version__, "threads": torch.get_num_threads(),
                      "device": DEVICE}, WORKLOADS, EAGER, workload_id)



def check(args):
    import numpy as np

    blk = Block(args.batch, args.seq, args.d_model, args.heads, args.mlp)
    ins = [torch.from_numpy(np.load(os.path.join(args.check, f"in{i}.npy"))) for i in range(13)]
    out = blk.forward(*ins)
    np.save(os.path.join(args.check, "out.npy"), out.numpy())


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workload", help="comma-separated workloads (default W1,W2,W3,W4,W5,W7; none with --check)")
    p.add_argument("--runs", type=int, default=5, help="timed runs after one warm-up")
    p.add_argument("--threads", type=int, default=0, help="torch.set_num_threads (default: PyTorch's own choice)")
    p.add_argument("--device", default="cpu", help="cpu or cuda (the workloads' tensors live there)")
    p.add_argument("--serve", action="store_true", help="take warmup/run/result commands on stdin (stela bench --torch)")
    p.add_argument("--check", metavar="DIR", help="run the block on DIR/in*.npy and write DIR/out.npy")
    p.add_argument("--list", action="store_true", help="print WORKLOAD<TAB>METRIC per measurement and exit")
    p.add_argument("--w4-losses", type=int, metavar="N", help="print the losses of N W4 steps in each mode and exit")
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--seq", type=int, default=256)
    p.add_argument("--d-model", type=int, default=768)
    p.add_argument("--heads", type=int, default=12)
    p.add_argument("--mlp", type=int, default=3072)
    args = p.parse_args()
    if args.list:
        for w, mode, m in METRICS:
            print(f"{workload_id(w, mode)}\t{m}")
        return
    global torch, F, DEVICE
    import torch
    import torch.nn.functional as F

    DEVICE = args.device
    if DEVICE != "cpu" and not (DEVICE.startswith("cuda") and torch.cuda.is_available()):
        sys.exit(f"torch_bench.py: device {DEVICE!r} is not available to torch {torch.__version__}")

    if args.threads > 0:
        torch.set_num_threads(args.threads)
    torch.manual_seed(1)
    if args.w4_losses:
        for m in w4():
            print(json.dumps({"mode": m.mode, "losses": [m.fn() for _ in range(args.w4_losses)]}), flush=True)
        return
    with torch.no_grad():
        if args.serve:
            serve()
            return
        if args.check:
            check(args)
        workloads = args.workload if args.workload is not None else "" if args.check else ",".join(WORKLOADS)
        for w in filter(None, workloads.split(",")):
            w = w.strip().upper()
            if w not in WORKLOADS:
                sys.exit(f"torch_bench.py: unknown workload {w!r} (have {', '.join(WORKLOADS)})")
            for m in WORKLOADS[w]():
                print(json.dumps(m.result(measure(m, args.runs))), flush=True)


if __name__ == "__main__":
    main()
