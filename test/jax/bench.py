"""W1-W6 (docs/performance.md's workloads) written in JAX, timed on the
Stela plugin and on XLA's CPU backend in one process, runs alternating
(A B B A ...) so that both see the same machine:

    PYTHONPATH=<stela>/python:<jax> JAX_PLATFORMS=stela,cpu python3 bench.py [--runs 7] [--workload W2]

Prints one line per workload: the median time on each backend and their
ratio (stela / xla; below 1 is Stela faster). W6 (W5's compile latency)
runs fresh child processes, one platform each: `jax.jit(block).lower()`
and `.compile()` with an empty cache and again with the cache the first
child filled (Stela's STELA_CACHE_DIR; JAX's persistent compilation cache
for XLA, which does not store Stela executables).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import jax
import jax.numpy as jnp
import numpy as np


def w1(dev):
    # Dispatch: 10,000 chained adds of two f32[16], each a jitted call.
    add = jax.jit(lambda a, b: a + b)
    y = jax.device_put(np.ones(16, np.float32), dev)
    z0 = jax.device_put(np.zeros(16, np.float32), dev)
    add(z0, y).block_until_ready()

    def run():
        z = z0
        for _ in range(10000):
            z = add(z, y)
        z.block_until_ready()
    return run, lambda t: "%.2f us/op" % (t * 1e6 / 10000)


def w2(dev):
    f = jax.jit(lambda x, a, b: jax.nn.gelu(x * a + b, approximate=True))
    x = jax.device_put(np.random.default_rng(0).standard_normal(4194304).astype(np.float32), dev)
    a, b = jax.device_put(np.float32(1.5), dev), jax.device_put(np.float32(0.25), dev)
    f(x, a, b).block_until_ready()
    return (lambda: f(x, a, b).block_until_ready()), lambda t: "%.2f ms" % (t * 1e3)


def w3(dev, n=1024):
    f = jax.jit(jnp.matmul)
    r = np.random.default_rng(0)
    x = jax.device_put(r.standard_normal((n, n)).astype(np.float32), dev)
    y = jax.device_put(r.standard_normal((n, n)).astype(np.float32), dev)
    f(x, y).block_until_ready()
    return (lambda: f(x, y).block_until_ready()), lambda t: "%.1f GFLOP/s" % (2 * n ** 3 / t / 1e9)


def w4(dev):
    r = np.random.default_rng(0)
    sizes = [784, 1024, 1024, 10]
    params = [(jax.device_put((r.standard_normal((i, o)) * 0.05).astype(np.float32), dev),
               jax.device_put(np.zeros(o, np.float32), dev)) for i, o in zip(sizes, sizes[1:])]
    x = jax.device_put(r.standard_normal((256, 784)).astype(np.float32), dev)
    y = jax.device_put(r.integers(0, 10, 256).astype(np.int32), dev)

    def loss(p, x, y):
        h = x
        for i, (w, b) in enumerate(p):
            h = h @ w + b
            if i < len(p) - 1:
                h = jax.nn.relu(h)
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(h), y[:, None], 1))

    step = jax.jit(lambda p, x, y: jax.tree_util.tree_map(lambda a, g: a - 0.01 * g, p, jax.grad(loss)(p, x, y)))
    jax.block_until_ready(step(params, x, y))
    return (lambda: jax.block_until_ready(step(params, x, y))), lambda t: "%.2f ms" % (t * 1e3)


def w5_block(dev):
    """W5's GPT-2-small block and its inputs on dev."""
    r = np.random.default_rng(0)
    d, h, s, b = 768, 12, 256, 4
    p = {k: jax.device_put((r.standard_normal(shape) * 0.02).astype(np.float32), dev) for k, shape in {
        "wqkv": (d, 3 * d), "wo": (d, d), "w1": (d, 4 * d), "w2": (4 * d, d), "g1": (d,), "g2": (d,)}.items()}
    x = jax.device_put(r.standard_normal((b, s, d)).astype(np.float32), dev)

    def ln(v, g):
        m = v.mean(-1, keepdims=True)
        return (v - m) / jnp.sqrt(((v - m) ** 2).mean(-1, keepdims=True) + 1e-5) * (1 + g)

    def block(p, x):
        q, k, v = jnp.split(ln(x, p["g1"]) @ p["wqkv"], 3, -1)
        split = lambda t: t.reshape(b, s, h, d // h).transpose(0, 2, 1, 3)
        q, k, v = split(q), split(k), split(v)
        att = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d // h)
        att = jnp.where(jnp.tril(jnp.ones((s, s), bool)), att, -1e9)
        o = (jax.nn.softmax(att) @ v).transpose(0, 2, 1, 3).reshape(b, s, d)
        x = x + o @ p["wo"]
        return x + jax.nn.gelu(ln(x, p["g2"]) @ p["w1"], approximate=True) @ p["w2"]

    return block, p, x


def w5(dev):
    block, p, x = w5_block(dev)
    f = jax.jit(block)
    f(p, x).block_until_ready()
    return (lambda: f(p, x).block_until_ready()), lambda t: "%.1f ms" % (t * 1e3)


def compile_child(platform):
    """W6's child: a fresh process that opens the device, makes W5's
    inputs, then times jax.jit(block).lower(...) and .compile(); prints
    the two times in seconds."""
    dev = jax.devices(platform)[0]
    block, p, x = w5_block(dev)
    jax.block_until_ready((p, x))
    t0 = time.perf_counter()
    low = jax.jit(block).lower(p, x)
    t1 = time.perf_counter()
    low.compile()
    t2 = time.perf_counter()
    print("%.6f %.6f" % (t1 - t0, t2 - t1))


def w6_run(platform, cache):
    """One W6 child on platform with cache dir cache (Stela's own compile
    cache for stela; JAX's persistent compilation cache for cpu)."""
    env = dict(os.environ, JAX_PLATFORMS=platform)
    if platform == "stela":
        env["STELA_CACHE_DIR"] = cache
    else:
        env.update(JAX_COMPILATION_CACHE_DIR=cache, JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS="0",
                   JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES="0")
    out = subprocess.run([sys.executable, __file__, "--compile-child", platform], env=env,
                         check=True, capture_output=True, text=True).stdout
    lower, comp = map(float, out.split()[-2:])
    return lower + comp, lower, comp


def w6(runs):
    """W6: compile latency of W5 in fresh processes, empty and warm cache,
    alternating stela and XLA; prints one line per cache state."""
    res = {}
    for i in range(runs):
        for platform in (("stela", "cpu") if i % 2 == 0 else ("cpu", "stela")):
            with tempfile.TemporaryDirectory() as d:
                for state in ("empty", "warm"):
                    res.setdefault((platform, state), []).append(w6_run(platform, d))
    for state in ("empty", "warm"):
        med = {pl: [statistics.median(t[k] for t in res[(pl, state)]) for k in range(3)] for pl in ("stela", "cpu")}
        fmt = lambda m: "%.0f ms (lower %.0f, compile %.0f)" % tuple(v * 1e3 for v in m)
        print("| W6 (%s cache) | %s | %s | %.2fx |" % (state, fmt(med["stela"]), fmt(med["cpu"]),
                                                      med["stela"][0] / med["cpu"][0]), flush=True)


WORKLOADS = {"W1": w1, "W2": w2, "W3": w3, "W4": w4, "W5": w5, "W6": None}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--workload", default=",".join(WORKLOADS))
    ap.add_argument("--compile-child", metavar="PLATFORM", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.compile_child:
        return compile_child(args.compile_child)
    stela, xla = jax.devices("stela")[0], jax.devices("cpu")[0]
    print("| workload | JAX on Stela | JAX on XLA CPU | Stela / XLA |")
    print("| --- | --- | --- | --- |")
    for name in args.workload.split(","):
        if name == "W6":
            w6(args.runs)
            continue
        runs = {}
        for dev in (stela, xla):
            runs[dev] = WORKLOADS[name](dev)
        fmt = runs[stela][1]
        times = {stela: [], xla: []}
        for i in range(args.runs):
            order = (stela, xla) if i % 2 == 0 else (xla, stela)
            for dev in order:
                t0 = time.perf_counter()
                runs[dev][0]()
                times[dev].append(time.perf_counter() - t0)
        ms, mx = statistics.median(times[stela]), statistics.median(times[xla])
        print("| %s | %s | %s | %.2fx |" % (name, fmt(ms), fmt(mx), ms / mx), flush=True)


if __name__ == "__main__":
    main()
