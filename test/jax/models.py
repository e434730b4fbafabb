"""The examples of the autodiff and inference issues written in JAX: the
MLP training loop of frontend/examples/mlp_train.go (W4's shapes, batch
256, 784 -> 1024 -> 1024 -> 10, relu, softmax cross-entropy against
one-hot labels, plain SGD at 0.01) and a GPT-2 (frontend/gpt2: Hugging
Face's GPT2LMHeadModel, gelu_new, tied head) of a small config that
generates greedily with a KV cache (a prefill program, then one step
program per token that writes the cache in place, donated), then trains
a few SGD steps on its own output.

    JAX_PLATFORMS=stela python3 models.py OUT.json

writes the losses, the generated tokens, each generation step's margin
between the best and second-best logit, and the tokens that a full
recompute (no cache) picks, so that the caller compares two platforms'
files (jax_test.go's TestJAXModels).
"""
import functools
import json
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


# ---- MLP training (frontend/examples/mlp_train.go) ----

MLP = dict(batch=256, inp=784, h1=1024, h2=1024, out=10, lr=0.01, steps=8)


def mlp_data(r):
    m = MLP
    he = lambda n: np.sqrt(2.0 / n)
    params = [
        (r.standard_normal((m["inp"], m["h1"])) * he(m["inp"]), r.standard_normal(m["h1"]) * 0.01),
        (r.standard_normal((m["h1"], m["h2"])) * he(m["h1"]), r.standard_normal(m["h2"]) * 0.01),
        (r.standard_normal((m["h2"], m["out"])) * he(m["h2"]), r.standard_normal(m["out"]) * 0.01),
    ]
    params = [(w.astype(np.float32), b.astype(np.float32)) for w, b in params]
    batches = []
    for _ in range(2):  # two batches, alternated
        x = r.uniform(size=(m["batch"], m["inp"])).astype(np.float32)
        y = np.zeros((m["batch"], m["out"]), np.float32)
        y[np.arange(m["batch"]), r.integers(0, m["out"], m["batch"])] = 1
        batches.append((x, y))
    return params, batches


def mlp_loss(p, x, y):
    h = x
    for i, (w, b) in enumerate(p):
        h = h @ w + b
        if i < len(p) - 1:
            h = jax.nn.relu(h)
    return -jnp.mean(jnp.sum(y * jax.nn.log_softmax(h, -1), -1))


@jax.jit
def mlp_step(p, x, y):
    loss, g = jax.value_and_grad(mlp_loss)(p, x, y)
    return loss, jax.tree_util.tree_map(lambda a, b: a - MLP["lr"] * b, p, g)


def mlp_train(dev):
    params, batches = mlp_data(np.random.default_rng(1))
    p = jax.device_put(params, dev)
    batches = jax.device_put(batches, dev)
    losses = []
    for i in range(MLP["steps"]):
        x, y = batches[i % len(batches)]
        loss, p = mlp_step(p, x, y)
        losses.append(float(loss))
    return losses


# ---- GPT-2 (frontend/gpt2) ----

CFG = dict(vocab=96, positions=48, d=64, layers=2, heads=4, eps=1e-5)


def gpt_params(r):
    c = CFG
    d = c["d"]
    n = lambda *s, std=0.2: (r.standard_normal(s) * std).astype(np.float32)
    blocks = []
    for _ in range(c["layers"]):
        blocks.append({
            "ln_1": {"g": 1 + n(d, std=0.1), "b": n(d, std=0.1)},
            "c_attn": {"w": n(d, 3 * d), "b": n(3 * d, std=0.05)},
            "attn_proj": {"w": n(d, d), "b": n(d, std=0.05)},
            "ln_2": {"g": 1 + n(d, std=0.1), "b": n(d, std=0.1)},
            "c_fc": {"w": n(d, 4 * d), "b": n(4 * d, std=0.05)},
            "mlp_proj": {"w": n(4 * d, d), "b": n(d, std=0.05)},
        })
    return {"wte": n(c["vocab"], d, std=0.5), "wpe": n(c["positions"], d, std=0.5),
            "h": blocks, "ln_f": {"g": 1 + n(d, std=0.1), "b": n(d, std=0.1)}}


def layer_norm(x, p):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / jnp.sqrt(v + CFG["eps"]) * p["g"] + p["b"]


def gelu_new(x):
    return 0.5 * x * (1 + jnp.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def heads(t):  # [B, S, D] -> [B, H, S, Dh]
    b, s, _ = t.shape
    return t.reshape(b, s, CFG["heads"], -1).transpose(0, 2, 1, 3)


def attend(q, k, v, mask):
    att = q @ k.transpose(0, 1, 3, 2) / np.sqrt(q.shape[-1])
    att = jax.nn.softmax(jnp.where(mask, att, jnp.finfo(att.dtype).min), -1)
    o = att @ v  # [B, H, S, Dh]
    b, _, s, _ = o.shape
    return o.transpose(0, 2, 1, 3).reshape(b, s, -1)


def block(p, x, k_all, v_all, mask):
    """One GPT-2 block; k_all, v_all: the keys and values attended to (the
    cache, with this call's written in), or None: this call's own."""
    h = layer_norm(x, p["ln_1"])
    q, k, v = jnp.split(h @ p["c_attn"]["w"] + p["c_attn"]["b"], 3, -1)
    q, k, v = heads(q), heads(k), heads(v)
    kk = k if k_all is None else k_all(k)
    vv = v if v_all is None else v_all(v)
    x = x + attend(q, kk, vv, mask) @ p["attn_proj"]["w"] + p["attn_proj"]["b"]
    h = gelu_new(layer_norm(x, p["ln_2"]) @ p["c_fc"]["w"] + p["c_fc"]["b"])
    return x + h @ p["mlp_proj"]["w"] + p["mlp_proj"]["b"], k, v


def logits_of(p, x):
    return layer_norm(x, p["ln_f"]) @ p["wte"].T


def forward(p, ids):
    """Full recompute: logits [B, S, V] of ids [B, S]."""
    s = ids.shape[1]
    x = p["wte"][ids] + p["wpe"][:s]
    mask = jnp.tril(jnp.ones((s, s), bool))
    for bp in p["h"]:
        x, _, _ = block(bp, x, None, None, mask)
    return logits_of(p, x)


@jax.jit
def prefill(p, ids):
    """Logits of the prompt's last position and the KV cache
    [layers, B, H, positions, Dh] with the prompt's keys and values."""
    b, s = ids.shape
    x = p["wte"][ids] + p["wpe"][:s]
    mask = jnp.tril(jnp.ones((s, s), bool))
    shape = (CFG["layers"], b, CFG["heads"], CFG["positions"], CFG["d"] // CFG["heads"])
    kc, vc = jnp.zeros(shape, x.dtype), jnp.zeros(shape, x.dtype)
    for i, bp in enumerate(p["h"]):
        x, k, v = block(bp, x, None, None, mask)
        kc = lax.dynamic_update_slice(kc, k[None], (i, 0, 0, 0, 0))
        vc = lax.dynamic_update_slice(vc, v[None], (i, 0, 0, 0, 0))
    return logits_of(p, x)[:, -1], kc, vc


@functools.partial(jax.jit, donate_argnums=(1, 2))
def decode(p, kc, vc, tok, pos):
    """One token [B] at position pos: its logits and the cache with its
    keys and values written at pos (in place: the cache is donated)."""
    x = (p["wte"][tok] + p["wpe"][pos])[:, None]
    mask = (jnp.arange(CFG["positions"]) <= pos)[None, :]
    for i, bp in enumerate(p["h"]):
        def write(c, i=i):
            def f(new):
                return lax.dynamic_update_slice(c[i], new, (0, 0, pos, 0))
            return f
        kw, vw = write(kc), write(vc)
        x, k, v = block(bp, x, kw, vw, mask)
        kc = kc.at[i].set(kw(k))
        vc = vc.at[i].set(vw(v))
    return logits_of(p, x)[:, 0], kc, vc


def margin(lg):
    top = np.sort(np.asarray(lg, np.float64), -1)
    return float((top[:, -1] - top[:, -2]).min())


def gpt_generate(dev, p, prompts, new):
    lg, kc, vc = prefill(p, jax.device_put(prompts, dev))
    toks, margins = [], []
    pos = prompts.shape[1]
    for _ in range(new):
        margins.append(margin(lg))
        t = jnp.argmax(lg, -1).astype(jnp.int32)
        toks.append(np.asarray(t))
        lg, kc, vc = decode(p, kc, vc, t, jnp.int32(pos))
        pos += 1
    return np.stack(toks, 1), margins


def gpt_lm_loss(p, ids):
    lg = jax.nn.log_softmax(forward(p, ids[:, :-1]), -1)
    return -jnp.mean(jnp.take_along_axis(lg, ids[:, 1:, None], -1))


@jax.jit
def gpt_sgd(p, ids):
    loss, g = jax.value_and_grad(gpt_lm_loss)(p, ids)
    return loss, jax.tree_util.tree_map(lambda a, b: a - 0.05 * b, p, g)


def gpt(dev):
    r = np.random.default_rng(2)
    p = jax.device_put(gpt_params(r), dev)
    prompts = r.integers(0, CFG["vocab"], (2, 6)).astype(np.int32)
    gen, margins = gpt_generate(dev, p, prompts, 24)
    seq = np.concatenate([prompts, gen], 1)
    # The cache is right: a full recompute of the whole sequence picks
    # the same tokens at every generated position.
    full = np.asarray(jnp.argmax(jax.jit(forward)(p, jax.device_put(seq, dev)), -1))
    recompute = full[:, prompts.shape[1] - 1:-1]
    losses = []
    ids = jax.device_put(seq, dev)
    for _ in range(4):
        loss, p = gpt_sgd(p, ids)
        losses.append(float(loss))
    return {"gpt_tokens": gen.tolist(), "gpt_recompute_tokens": recompute.tolist(),
            "gpt_min_margin": min(margins), "gpt_train_losses": losses}


def main():
    dev = jax.devices()[0]
    if os.environ.get("JAX_PLATFORMS") == "stela":
        assert "Stela" in repr(dev), "JAX_PLATFORMS=stela runs on %r" % dev
    out = {"device": repr(dev), "mlp_losses": mlp_train(dev)}
    out.update(gpt(dev))
    with open(sys.argv[1], "w") as f:
        json.dump(out, f, indent=1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
