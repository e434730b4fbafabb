#!/usr/bin/env python3
"""Compute jax.random outputs for random_jax_test.go, the JAX cross-check of
Stela's PRNG (frontend/tensor/random.go).

Usage:
    jax_random.py CASES.json OUTDIR

CASES.json is a list of cases, each {"name", "fn", "seed", ...} with the
arguments fn needs (see run below); the output of case NAME is written to
OUTDIR/NAME.npy. Floats are written as the unsigned integers of their bits
(bfloat16 too), so that the Go side compares bit patterns. JAX runs as a
user calls it: eagerly, on the CPU, with jax_enable_x64 (for f64 and for
64-bit seeds; every dtype is given explicitly, so x64 changes nothing
else) and JAX's default PRNG settings (threefry2x32, partitionable).

Exit status: 0 on success, 3 when jax cannot be imported (the test skips).
"""
import json
import os
import sys


def main(argv):
    try:
        import numpy as np
        import jax
        import jax.numpy as jnp
        import ml_dtypes  # noqa: F401  (bfloat16)
    except Exception as e:  # ImportError, or a broken install
        print("jax_random.py: cannot import jax: %r" % (e,), file=sys.stderr)
        return 3
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    dtypes = {"f16": jnp.float16, "bf16": jnp.bfloat16, "f32": jnp.float32, "f64": jnp.float64,
              "ui8": jnp.uint8, "ui16": jnp.uint16, "ui32": jnp.uint32, "ui64": jnp.uint64}
    with open(argv[1]) as f:
        cases = json.load(f)
    for c in cases:
        # Seeds travel as the key's two words: JAX's PRNGKey takes an int64.
        seed = c["seed"]
        if seed >= 1 << 63:
            seed -= 1 << 64
        key = jax.random.PRNGKey(seed)
        shape = tuple(c.get("shape", ()))
        dt = dtypes.get(c.get("dtype"))
        fn = c["fn"]
        if fn == "key":
            out = key
        elif fn == "split":
            out = jax.random.split(key, c["n"])
        elif fn == "fold_in":
            out = jax.random.fold_in(key, np.uint32(c.get("data", 0)))
        elif fn == "split_fold":  # a chain: split, take one, fold in
            out = jax.random.fold_in(jax.random.split(key, 3)[2], np.uint32(c.get("data", 0)))
        elif fn == "bits":
            out = jax.random.bits(key, shape, dt)
        elif fn == "uniform":
            out = jax.random.uniform(key, shape, dt, float(c["lo"]), float(c["hi"]))
        elif fn == "normal":
            out = jax.random.normal(key, shape, dt)
        elif fn == "truncated_normal":
            out = jax.random.truncated_normal(key, float(c["lo"]), float(c["hi"]), shape, dt)
        elif fn == "bernoulli":
            out = jax.random.bernoulli(key, jnp.float32(c.get("p", 0.0)), shape)
        elif fn == "categorical":
            logits = np.asarray(c["logits"], dtype=np.float64).reshape(c["logits_shape"]).astype(dt)
            out = jax.random.categorical(key, logits, axis=c.get("axis", 0)).astype(jnp.int32)
        else:
            print("jax_random.py: case %s: unknown fn %r" % (c["name"], fn), file=sys.stderr)
            return 2
        a = np.asarray(out)
        if a.dtype.kind == "f" or a.dtype == jnp.bfloat16:
            a = a.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])
        np.save(os.path.join(argv[2], c["name"] + ".npy"), a)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
