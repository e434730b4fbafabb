"""PyTorch's side of frontend/nn's TestLayersMatchPyTorch.

Usage: torch_layers.py CASES.json OUT.json. Each case names an op, its
attributes and its inputs (float32 arrays in Stela's layouts: NHWC images,
HWIO kernels, [in, out] weights); the script computes the op with
torch.nn.functional (or torch.nn.MultiheadAttention) on the same numbers,
converting the layouts, and writes each case's outputs. Exit status 3:
torch is not importable.
"""
import json
import math
import sys

try:
    import torch
    import torch.nn.functional as F
except ImportError as e:
    print(e)
    sys.exit(3)


def arr(a, dtype=torch.float32):
    return torch.tensor(a["data"], dtype=dtype).reshape(a["shape"])


def out(t):
    t = t.detach()
    return {"shape": list(t.shape), "data": [float(v) for v in t.reshape(-1).tolist()]}


def same_pads(size, k, stride, dil):
    # TensorFlow's SAME: out = ceil(size/stride), the odd pad goes high.
    n = -(-size // stride)
    total = max((n - 1) * stride + (k - 1) * dil + 1 - size, 0)
    return total // 2, total - total // 2


def conv(c, i):
    x = arr(i["x"]).permute(0, 3, 1, 2)  # NHWC -> NCHW
    w = arr(i["w"]).permute(3, 2, 0, 1)  # HWIO -> OIHW
    b = arr(i["b"]) if "b" in i else None
    s, d = c["attrs"]["strides"], c["attrs"]["dilation"]
    if c["attrs"]["padding"] == "SAME":
        ph = same_pads(x.shape[2], w.shape[2], s[0], d[0])
        pw = same_pads(x.shape[3], w.shape[3], s[1], d[1])
        x = F.pad(x, (pw[0], pw[1], ph[0], ph[1]))
    y = F.conv2d(x, w, b, stride=s, dilation=d)
    return {"y": out(y.permute(0, 2, 3, 1))}


def mha(c, i):
    q = arr(i["q"])
    kv = arr(i["kv"]) if "kv" in i else q
    dim, heads = q.shape[-1], c["attrs"]["heads"]
    m = torch.nn.MultiheadAttention(dim, heads, batch_first=True)
    with torch.no_grad():
        m.in_proj_weight.copy_(torch.cat([arr(i["qw"]).T, arr(i["kw"]).T, arr(i["vw"]).T]))
        m.in_proj_bias.copy_(torch.cat([arr(i["qb"]), arr(i["kb"]), arr(i["vb"])]))
        m.out_proj.weight.copy_(arr(i["ow"]).T)
        m.out_proj.bias.copy_(arr(i["ob"]))
    attn_mask = None
    if c["attrs"].get("causal"):
        t = q.shape[1]
        # torch's boolean mask is true where attending is NOT allowed.
        attn_mask = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)
    kpm = None
    if "keep" in i:
        kpm = arr(i["keep"]) == 0
    y, _ = m(q, kv, kv, need_weights=False, attn_mask=attn_mask, key_padding_mask=kpm)
    return {"y": out(y)}


def small_cnn(c, i):
    # conv 3x3 SAME -> relu -> 2x2 max pool -> flatten (NHWC order) -> linear -> cross-entropy
    x = arr(i["x"]).permute(0, 3, 1, 2)
    w1 = arr(i["w1"]).permute(3, 2, 0, 1).requires_grad_()
    b1 = arr(i["b1"]).requires_grad_()
    w2 = arr(i["w2"]).requires_grad_()
    b2 = arr(i["b2"]).requires_grad_()
    h = F.relu(F.conv2d(x, w1, b1, padding=1))
    h = F.max_pool2d(h, 2)
    h = h.permute(0, 2, 3, 1).reshape(h.shape[0], -1)
    loss = F.cross_entropy(h @ w2 + b2, arr(i["labels"], torch.long))
    loss.backward()
    return {"loss": out(loss), "w1": out(w1.grad.permute(2, 3, 1, 0)), "b1": out(b1.grad),
            "w2": out(w2.grad), "b2": out(b2.grad)}


def compute(c):
    i, a, op = c["inputs"], c.get("attrs") or {}, c["op"]
    if op == "linear":
        b = arr(i["b"]) if "b" in i else None
        return {"y": out(F.linear(arr(i["x"]), arr(i["w"]).T, b))}
    if op == "conv2d":
        return conv(c, i)
    if op == "layer_norm":
        x = arr(i["x"])
        b = arr(i["bias"]) if "bias" in i else None
        return {"y": out(F.layer_norm(x, [x.shape[-1]], arr(i["scale"]), b, a["eps"]))}
    if op == "rms_norm":
        # torch 1.13 has no RMSNorm: the definition, in float64.
        x = arr(i["x"], torch.float64)
        y = x / torch.sqrt((x * x).mean(-1, keepdim=True) + a["eps"]) * arr(i["scale"], torch.float64)
        return {"y": out(y)}
    if op == "embedding":
        return {"y": out(F.embedding(arr(i["ids"], torch.long), arr(i["w"])))}
    if op == "mha":
        return mha(c, i)
    if op == "activation":
        x = arr(i["x"])
        f = {"relu": F.relu, "gelu": lambda v: F.gelu(v, approximate="tanh"), "tanh": torch.tanh,
             "sigmoid": torch.sigmoid, "silu": F.silu}[a["name"]]
        return {"y": out(f(x))}
    if op == "softmax_cross_entropy":
        return {"loss": out(F.cross_entropy(arr(i["logits"]), arr(i["targets"])))}
    if op == "sparse_softmax_cross_entropy":
        return {"loss": out(F.cross_entropy(arr(i["logits"]), arr(i["labels"], torch.long)))}
    if op == "mse":
        return {"loss": out(F.mse_loss(arr(i["x"]), arr(i["y"])))}
    if op == "bce_with_logits":
        return {"loss": out(F.binary_cross_entropy_with_logits(arr(i["x"]), arr(i["y"])))}
    if op == "small_cnn":
        return small_cnn(c, i)
    raise ValueError("unknown op " + op)


def main():
    torch.set_num_threads(1)
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    res = {c["name"]: compute(c) for c in cases}
    with open(sys.argv[2], "w") as f:
        json.dump(res, f)


main()
