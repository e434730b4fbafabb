#!/usr/bin/python3
"""JAX's side of `stela bench --jax` (docs/performance.md).

Runs the benchmark workloads in JAX on XLA's CPU compiler and prints one
JSON object per measurement, the objects `stela bench --json` prints, with
mode "jax-eager" (W1) or "jax-jit" (the others) and JAX's version:

    python3 internal/torchbench/jax_bench.py [--workload W1,...] [--runs N] [--small]

with jax and jaxlib importable (`.ci/run` installs 0.10.2 into the
directory $STELA_JAXLIB_PYTHONPATH names; `stela bench --jax` puts it on
PYTHONPATH). The stela binary carries this file (package torchbench embeds
it next to torch_bench.py). The workloads match Stela's:

  W1  jax-eager: 10,000 chained adds z = z + y of two f32[16] jax arrays,
      op by op (us per op), then block_until_ready
  W2  jax-jit: jax.jit(gelu_tanh(x*a+b)) on f32[4194304] (ms; GB/s counts
      one read of x and one write of y)
  W3  jax-jit: jax.jit(jnp.matmul), f32 n x n x n for n = 1024, 2048
  W4  jax-jit: one training step of the MLP 784-1024-1024-10 (ReLU),
      batch 256, softmax cross-entropy, SGD lr 0.01:
      jax.jit(value_and_grad + update, donate_argnums=0) on the parameters
  W5  jax-jit: the GPT-2-small block forward of frontend/examples/
      transformer.go, op for op as torch_bench.py's Block
  W6  jax-jit: W5's jax.jit(f).lower(...) (trace and lower) and
      .compile() in a fresh process (this script with --compile-child),
      without a compilation cache and with a warm jax_compilation_cache_dir
      (the warm-up fills it); ms, split in the derived values
  W7  jax-jit: GPT-2 small (124M parameters, f32, random weights; tanh
      GELU, pre-LayerNorm, tied head, as torch_bench.py's GPT2) with a
      key/value cache of prompt + new slots allocated once: prefill of a
      128-token prompt (ms, the last token's logits read to the host) and
      128 decode steps (ms/token), each a jax.jit step with the cache
      donated (donate_argnums) that writes the step's keys and values in
      place (dynamic_update_slice), masks the slots after it, and returns
      each row's argmax, fed back on the device; the tokens reach the host
      at the end. Batch 1 and 8.

--small runs every workload at tiny sizes (the metric names stay): the
bench tests use it to check the protocol and the JSON quickly.

--serve is how `stela bench --jax` runs it, with the protocol of
bench_common.py's serve(): "warmup", "run" and "result" commands, one JSON
answer a line. A measurement is named WORKLOAD/MODE there when its mode is
not jax-jit (W1/jax-eager). --list prints "WORKLOAD<TAB>METRIC" lines in
that naming. --check DIR runs the block on DIR/in*.npy and writes
DIR/out.npy, as torch_bench.py's --check does (before any --workload).
"""

import argparse
import atexit
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

import bench_common
from bench_common import median

jax = None
jnp = None
SMALL = False

W1_OPS = 10000
W1_METRIC = "add f32[16] x10000"
W2_METRIC = "gelu_tanh(x*a+b) f32[4194304]"
W3_SIZES = (1024, 2048)
W4_METRIC = "mlp train step b256 784-1024-1024-10"
W5_METRIC = "gpt2-small block forward f32[4,256,768]"
W6_FIRST = "W5 compile, fresh process, empty compile cache"
W6_WARM = "W5 compile, fresh process, warm disk cache"

W7_PROMPT, W7_NEW, W7_BATCHES = 128, 128, (1, 8)

JIT = "jax-jit"
EAGER = "jax-eager"


def w3_metric(n):
    return f"matmul f32 {n}x{n}x{n}"


def w7_metric(kind, batch):
    return f"gpt2-small {kind} {W7_PROMPT} tokens b{batch}"


METRICS = ([("W1", EAGER, W1_METRIC), ("W2", JIT, W2_METRIC)] + [("W3", JIT, w3_metric(n)) for n in W3_SIZES] +
           [("W4", JIT, W4_METRIC), ("W5", JIT, W5_METRIC), ("W6", JIT, W6_FIRST), ("W6", JIT, W6_WARM)] +
           [("W7", JIT, w7_metric(k, b)) for b in W7_BATCHES for k in ("prefill", "decode")])


def workload_id(workload, mode):
    return workload if mode == JIT else f"{workload}/{mode}"


def ready(v):
    return jax.block_until_ready(v)


class Measurement:
    """One metric: fn is one call, returning seconds (measured by call when
    fn returns None); sample turns seconds into the unit; derived gives
    the result's other units."""

    def __init__(self, workload, metric, unit, fn, sample, derived=None, mode=JIT, warmup=None, timed=False):
        self.workload, self.metric, self.unit, self.mode = workload, metric, unit, mode
        self.fn, self.sample, self.derived, self.timed = fn, sample, derived, timed
        self.warmup = warmup
        self.extra = []  # per-run extra values for derived (W6's split)

    def warm(self):
        """The warm-up call; a measurement whose warm-up would warm nothing
        (W6's fresh process without a cache) skips it."""
        if self.warmup is False:
            return 0.0
        return self.call()

    def call(self):
        if self.timed:  # fn times itself (W6)
            return self.fn(self)
        t = time.perf_counter()
        ready(self.fn())
        return time.perf_counter() - t

    def result(self, seconds):
        r = bench_common.result_fields(self, seconds)
        r["threads"] = os.cpu_count()
        r["jax_version"] = jax.__version__
        if self.derived:
            r["derived"] = self.derived(self, seconds)
        return r


def rand(key, *shape):
    return jax.random.uniform(jax.random.PRNGKey(key), shape, jnp.float32, -2, 2)


def w1():
    x, y = rand(1, 16), rand(2, 16)

    def rep():
        z = x
        for _ in range(W1_OPS):
            z = z + y
        return z

    return [Measurement("W1", W1_METRIC, "\u00b5s/op", rep, lambda t: t * 1e6 / W1_OPS, mode=EAGER)]


def gelu_chain(x, a, b):
    return jax.nn.gelu(x * a + b, approximate=True)


def w2():
    n = 4096 if SMALL else 4194304
    x = rand(3, n)
    a, b = jnp.float32(0.75), jnp.float32(0.25)
    f = jax.jit(gelu_chain)
    return [Measurement("W2", W2_METRIC, "ms", lambda: f(x, a, b), lambda t: t * 1e3,
                        lambda m, ts: {"GB/s": 2 * 4 * n / median(ts) / 1e9})]


def w3():
    out = []
    mm = jax.jit(jnp.matmul)
    for n in W3_SIZES:
        k = 32 if SMALL else n
        x, y = rand(4, k, k), rand(5, k, k)
        flops = 2.0 * k * k * k
        out.append(Measurement("W3", w3_metric(n), "GFLOP/s", lambda x=x, y=y: mm(x, y),
                               lambda t, flops=flops: flops / t / 1e9,
                               lambda m, ts: {"ms": median([t * 1e3 for t in ts])}))
    return out


def mlp_sizes():
    return (784, 64, 64, 10) if SMALL else (784, 1024, 1024, 10)


def mlp_init(sizes, key=4):
    keys = jax.random.split(jax.random.PRNGKey(key), len(sizes) - 1)
    params = []
    for k, (i, o) in zip(keys, zip(sizes, sizes[1:])):
        bound = 1 / math.sqrt(i)
        params.append(jax.random.uniform(k, (i, o), jnp.float32, -bound, bound))
        params.append(jnp.zeros((o,), jnp.float32))
    return tuple(params)


def mlp_loss(params, x, y):
    h = x
    for i in range(0, len(params), 2):
        h = h @ params[i] + params[i + 1]
        if i + 2 < len(params):
            h = jax.nn.relu(h)
    logp = jax.nn.log_softmax(h)
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))


def mlp_step(params, x, y, lr=0.01):
    loss, grads = jax.value_and_grad(mlp_loss)(params, x, y)
    return loss, tuple(p - lr * g for p, g in zip(params, grads))


def w4():
    sizes = mlp_sizes()
    batch = 8 if SMALL else 256
    x = jax.random.uniform(jax.random.PRNGKey(6), (batch, sizes[0]), jnp.float32)
    y = jax.random.randint(jax.random.PRNGKey(7), (batch,), 0, sizes[-1])
    step = jax.jit(mlp_step, donate_argnums=0)
    state = {"params": mlp_init(sizes)}

    def one():
        loss, state["params"] = step(state["params"], x, y)
        ready(state["params"])
        return loss

    return [Measurement("W4", W4_METRIC, "ms", one, lambda t: t * 1e3)]


class Block:
    """GPT-2 block as frontend/examples/transformer.go writes it (and
    torch_bench.py's Block)."""

    def __init__(self, batch=4, seq=256, d_model=768, heads=12, mlp=3072, eps=1e-5):
        self.batch, self.seq, self.d, self.heads, self.mlp, self.eps = batch, seq, d_model, heads, mlp, eps

    def inputs(self):
        d, m, std = self.d, self.mlp, 0.02
        keys = iter(jax.random.split(jax.random.PRNGKey(8), 16))
        g = lambda *s: jax.random.normal(next(keys), s, jnp.float32) * std
        return [
            jax.random.normal(next(keys), (self.batch, self.seq, d), jnp.float32),
            jnp.ones(d), g(d),
            g(d, 3 * d), g(3 * d),
            g(d, d) / math.sqrt(2), g(d),
            jnp.ones(d), g(d),
            g(d, m), g(m),
            g(m, d) / math.sqrt(2), g(d),
        ]

    def layer_norm(self, x, g, b):
        mu = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.mean(jnp.square(x - mu), axis=-1, keepdims=True)
        return (x - mu) / jnp.sqrt(var + self.eps) * g + b

    def forward(self, x, ln1g, ln1b, wqkv, bqkv, wo, bo, ln2g, ln2b, wfc, bfc, wproj, bproj):
        x = x + self.attention(self.layer_norm(x, ln1g, ln1b), wqkv, bqkv, wo, bo)
        h = self.layer_norm(x, ln2g, ln2b)
        return x + jax.nn.gelu(h @ wfc + bfc, approximate=True) @ wproj + bproj

    def attention(self, h, wqkv, bqkv, wo, bo):
        b, s, d = h.shape
        nh = self.heads
        dh = d // nh
        qkv = h @ wqkv + bqkv
        q, k, v = (p.reshape(b, s, nh, dh).transpose(0, 2, 1, 3) for p in jnp.split(qkv, 3, axis=-1))
        scores = (q @ k.transpose(0, 1, 3, 2)) * (1 / math.sqrt(dh))
        row = jnp.arange(s).reshape(s, 1)
        col = jnp.arange(s).reshape(1, s)
        scores = jnp.where(row >= col, scores, jnp.float32(-1e9))
        a = jax.nn.softmax(scores, axis=-1) @ v
        a = a.transpose(0, 2, 1, 3).reshape(b, s, d)
        return a @ wo + bo


def block():
    return Block(2, 8, 32, 4, 64) if SMALL else Block()


def w5():
    blk = block()
    args = blk.inputs()
    f = jax.jit(blk.forward)
    return [Measurement("W5", W5_METRIC, "ms", lambda: f(*args), lambda t: t * 1e3)]


def compile_child(cache_dir):
    """--compile-child: W5's lower and compile in this fresh process."""
    if cache_dir:
        jax.config.update("jax_compilation_cache_dir", cache_dir)
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
        jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)
    blk = block()
    args = ready(blk.inputs())
    jax.devices()
    t0 = time.perf_counter()
    lowered = jax.jit(blk.forward).lower(*args)
    t1 = time.perf_counter()
    lowered.compile()
    t2 = time.perf_counter()
    print(json.dumps({"trace_lower_ms": (t1 - t0) * 1e3, "compile_ms": (t2 - t1) * 1e3}), flush=True)


def run_child(cache_dir):
    cmd = [sys.executable, os.path.abspath(__file__), "--compile-child"]
    if SMALL:
        cmd.append("--small")
    if cache_dir:
        cmd += ["--cache-dir", cache_dir]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def w6():
    cache = tempfile.mkdtemp(prefix="stela-bench-jax-cache-")
    atexit.register(shutil.rmtree, cache, True)

    def timed(cache_dir):
        def fn(m):
            r = run_child(cache_dir)
            m.extra.append(r)
            return (r["trace_lower_ms"] + r["compile_ms"]) / 1e3

        return fn

    def split(m, ts):
        ex = m.extra[-len(ts):]
        return {"ms trace+lower": median([e["trace_lower_ms"] for e in ex]),
                "ms compile": median([e["compile_ms"] for e in ex])}

    ms = lambda t: t * 1e3
    return [Measurement("W6", W6_FIRST, "ms", timed(None), ms, split, timed=True, warmup=False),
            Measurement("W6", W6_WARM, "ms", timed(cache), ms, split, timed=True)]


class GPT2:
    """W7's model (torch_bench.py's GPT2 in jax.numpy), with a cache of
    [layers, 2, batch, heads, slots, head size] written in place."""

    def __init__(self, vocab=50257, npos=1024, d=768, layers=12, heads=12):
        keys = iter(jax.random.split(jax.random.PRNGKey(0), 16 * layers + 4))

        def n(*shape, std=0.02, mean=0.0):
            return jax.random.normal(next(keys), shape, jnp.float32) * std + mean

        self.d, self.heads, self.layers = d, heads, layers
        self.params = {
            "wte": n(vocab, d), "wpe": n(npos, d), "lnfg": n(d, mean=1), "lnfb": n(d),
            "blocks": [dict(ln1g=n(d, mean=1), ln1b=n(d), wqkv=n(d, 3 * d), bqkv=n(3 * d), wo=n(d, d), bo=n(d),
                            ln2g=n(d, mean=1), ln2b=n(d), wfc=n(d, 4 * d), bfc=n(4 * d), wproj=n(4 * d, d),
                            bproj=n(d)) for _ in range(layers)],
        }

    @staticmethod
    def layer_norm(x, g, b):
        mu = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.mean(jnp.square(x - mu), axis=-1, keepdims=True)
        return (x - mu) / jnp.sqrt(var + 1e-5) * g + b

    def forward(self, params, ids, cache, pos):
        """Logits of each row's last token [B, vocab] and the cache with
        the s tokens' keys and values written at slots pos..pos+s-1."""
        b, s = ids.shape
        d, nh = self.d, self.heads
        dh = d // nh
        slots = cache.shape[4]
        x = params["wte"][ids] + jax.lax.dynamic_slice_in_dim(params["wpe"], pos, s)
        row = pos + jnp.arange(s).reshape(s, 1)
        col = jnp.arange(slots).reshape(1, slots)
        for i, w in enumerate(params["blocks"]):
            h = self.layer_norm(x, w["ln1g"], w["ln1b"])
            q, k, v = (t.reshape(b, s, nh, dh).transpose(0, 2, 1, 3) for t in jnp.split(h @ w["wqkv"] + w["bqkv"], 3, axis=-1))
            cache = jax.lax.dynamic_update_slice(cache, jnp.stack([k, v])[None], (i, 0, 0, 0, pos, 0))
            k, v = cache[i, 0], cache[i, 1]
            scores = (q @ k.transpose(0, 1, 3, 2)) * (1 / math.sqrt(dh))
            scores = jnp.where(row >= col, scores, jnp.finfo(jnp.float32).min)
            a = (jax.nn.softmax(scores, axis=-1) @ v).transpose(0, 2, 1, 3).reshape(b, s, d)
            x = x + a @ w["wo"] + w["bo"]
            h = self.layer_norm(x, w["ln2g"], w["ln2b"])
            x = x + jax.nn.gelu(h @ w["wfc"] + w["bfc"], approximate=True) @ w["wproj"] + w["bproj"]
        x = self.layer_norm(x[:, -1], params["lnfg"], params["lnfb"])
        return x @ params["wte"].T, cache


def w7():
    prompt, new = (8, 8) if SMALL else (W7_PROMPT, W7_NEW)
    model = GPT2(64, 64, 32, 2, 4) if SMALL else GPT2()
    vocab = model.params["wte"].shape[0]
    dh = model.d // model.heads

    def prefill(params, ids):
        cache = jnp.zeros((model.layers, 2, ids.shape[0], model.heads, prompt + new, dh), jnp.float32)
        return model.forward(params, ids, cache, 0)

    def step(cache, params, nxt, pos):
        logits, cache = model.forward(params, nxt, cache, pos)
        return jnp.argmax(logits, axis=-1).reshape(-1, 1), cache

    prefill = jax.jit(prefill)
    step = jax.jit(step, donate_argnums=0)
    out = []
    for batch in W7_BATCHES:
        ids = jax.random.randint(jax.random.PRNGKey(7 + batch), (batch, prompt), 0, vocab)
        logits, cache = prefill(model.params, ids)
        first = jnp.argmax(logits, axis=-1).reshape(-1, 1)
        state = {"cache": cache}

        def decode(first=first, state=state):
            # The same slots after the prompt, every call, as Stela's.
            nxt, cache = first, state["cache"]
            for i in range(new):
                nxt, cache = step(cache, model.params, nxt, jnp.int32(prompt + i))
            state["cache"] = cache
            return nxt.tolist()  # the tokens reach the host, as Stela's do

        out.append(Measurement("W7", w7_metric("prefill", batch), "ms",
                               lambda ids=ids: jax.device_get(prefill(model.params, ids)[0]), lambda t: t * 1e3))
        out.append(Measurement("W7", w7_metric("decode", batch), "ms/token", decode, lambda t: t * 1e3 / new,
                               lambda m, ts, batch=batch: {"tokens_per_s": batch * new / median(ts)}))
    return out


WORKLOADS = {"W1": w1, "W2": w2, "W3": w3, "W4": w4, "W5": w5, "W6": w6, "W7": w7}


def serve():
    """bench_common.serve's loop (the protocol is described there)."""
    bench_common.serve({"ready": True, "jax_version": jax.__version__, "threads": os.cpu_count(),
                      "device": str(jax.devices()[0])}, WORKLOADS, JIT, workload_id)



def check(args):
    import numpy as np

    blk = Block(args.batch, args.seq, args.d_model, args.heads, args.mlp)
    ins = [jnp.asarray(np.load(os.path.join(args.check, f"in{i}.npy"))) for i in range(13)]
    out = jax.jit(blk.forward)(*ins)
    np.save(os.path.join(args.check, "out.npy"), np.asarray(out))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workload", help="comma-separated workloads (default all)")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--small", action="store_true", help="tiny sizes, for tests")
    p.add_argument("--serve", action="store_true")
    p.add_argument("--list", action="store_true")
    p.add_argument("--compile-child", action="store_true", help="W6's child: lower and compile W5 once")
    p.add_argument("--cache-dir", help="with --compile-child: jax_compilation_cache_dir")
    p.add_argument("--check", metavar="DIR")
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
    global jax, jnp, SMALL
    SMALL = args.small
    import jax
    import jax.numpy as jnp

    if args.compile_child:
        compile_child(args.cache_dir)
        return
    if args.serve:
        serve()
        return
    if args.check:
        check(args)
    workloads = args.workload if args.workload is not None else "" if args.check else ",".join(WORKLOADS)
    for w in filter(None, workloads.split(",")):
        w = w.strip().upper()
        if w not in WORKLOADS:
            sys.exit(f"jax_bench.py: unknown workload {w!r} (have {', '.join(WORKLOADS)})")
        for m in WORKLOADS[w]():
            m.warm()
            print(json.dumps(m.result([m.call() for _ in range(args.runs)])), flush=True)


if __name__ == "__main__":
    main()
