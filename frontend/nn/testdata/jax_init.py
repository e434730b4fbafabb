#!/usr/bin/env python3
"""Compute jax.nn.initializers outputs for init_test.go's
TestInitializersMatchJAX.

Usage:
    jax_init.py CASES.json OUTDIR

Each case is {"name", "init", "args", "seed", "shape", "dtype"}: the
initializer jax.nn.initializers.<init>(*args) applied to
jax.random.PRNGKey(seed), the shape and the dtype (f32 or f64), written to
OUTDIR/<name>.npy. Exit status 3: jax is not importable (the test skips).
"""
import json
import os
import sys


def main(argv):
    try:
        import numpy as np
        import jax
        import jax.numpy as jnp
    except Exception as e:
        print("jax_init.py: cannot import jax: %r" % (e,), file=sys.stderr)
        return 3
    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    init = jax.nn.initializers
    with open(argv[1]) as f:
        cases = json.load(f)
    for c in cases:
        dt = {"f32": jnp.float32, "f64": jnp.float64}[c["dtype"]]
        args = c.get("args") or []
        kwargs = c.get("kwargs") or {}
        fn = getattr(init, c["init"])(*args, **kwargs)
        out = fn(jax.random.PRNGKey(c["seed"]), tuple(c["shape"]), dt)
        np.save(os.path.join(argv[2], c["name"] + ".npy"), np.asarray(out))
    return 0


sys.exit(main(sys.argv))
