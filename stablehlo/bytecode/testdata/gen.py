"""Writes the bytecode samples of stablehlo/bytecode's tests.

For each small JAX program: NAME.mlir, its StableHLO text as JAX prints
it, and NAME.V.mlirbc, the StableHLO portable artifact (MLIR bytecode of
the VHLO dialect) that jaxlib serializes at StableHLO version V, what
XLA's PJRT C-API client sends a plugin. Run with jax/jaxlib 0.10.2:

  PYTHONPATH=/root/.cache/stela-ci/py python3 gen.py
"""
import io
import os

import jax
import jax.numpy as jnp
from jax import lax
from jaxlib.mlir.dialects import stablehlo

jax.config.update("jax_enable_x64", True)
HERE = os.path.dirname(os.path.abspath(__file__))
VERSIONS = ["1.17.0", "1.0.0", "0.9.0"]

f32 = lambda *s: jnp.zeros(s, jnp.float32)


def conv(x, w):
    return lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))


def fori(x):
    return lax.fori_loop(0, 5, lambda i, c: c * 2 + i, x)


def scan(x):
    return lax.scan(lambda c, v: (c + v, c * v), 0.0, x)


def cond(p, x):
    return lax.cond(p, lambda v: v + 1, lambda v: v * 2, x)


def random(key):
    return jax.random.uniform(jax.random.wrap_key_data(key), (3,))


PROGRAMS = {
    "sin": (lambda x: jnp.sin(x) + 1, (f32(4),)),
    "matmul": (lambda a, b: a @ b, (f32(2, 3), f32(3, 4))),
    "conv": (conv, (f32(1, 5, 5, 2), f32(3, 3, 2, 4))),
    "reduce": (lambda x: (x.sum(0), x.max(1), jnp.argmax(x, 1)), (f32(3, 4),)),
    "fori": (fori, (f32(3),)),
    "scan": (scan, (f32(5),)),
    "cond": (cond, (jnp.bool_(True), f32(2))),
    "sort": (lambda x: jnp.sort(x), (f32(6),)),
    "at_set": (lambda x, i: x.at[i].set(7.0), (f32(5), jnp.int32(2))),
    "gather": (lambda x, i: x[i], (f32(5, 3), jnp.zeros((2,), jnp.int32))),
    "random": (random, (jnp.zeros((2,), jnp.uint32),)),
    "dtypes": (lambda a, b, c, d, e: (a.astype(jnp.int8) + 1, b * 2, c.astype(jnp.bfloat16), d + 1j, e & 3),
               (f32(3), jnp.zeros((2,), jnp.float16), jnp.zeros((2,), jnp.float64), jnp.zeros((2,), jnp.complex64),
                jnp.zeros((2,), jnp.uint32))),
    "consts": (lambda x: (x + jnp.array([1.5, -2.0, 3.25], jnp.float32), jnp.array([True, False, True, True]),
                          jnp.array([[1, 2], [3, 4]], jnp.int64)), (f32(3),)),
    "shapes": (lambda x: (jnp.concatenate([x, x]), jnp.pad(x, 1), x[1:3], x.reshape(2, 2).T, jnp.flip(x)), (f32(4),)),
    "pool": (lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID"), (f32(1, 4, 4, 1),)),
    "dynslice": (lambda x, i: lax.dynamic_slice(x, (i,), (2,)), (f32(5), jnp.int32(1))),
    "cumsum": (lambda x: jnp.cumsum(x), (f32(5),)),
    "grad": (jax.grad(lambda w, x: jnp.tanh(x @ w).sum()), (f32(3, 2), f32(4, 3))),
    "compare": (lambda a, b: (a < b, jnp.where(a == b, a, b), jnp.maximum(a, b)), (f32(3), f32(3))),
}


def main():
    for name, (fn, args) in sorted(PROGRAMS.items()):
        lowered = jax.jit(fn).lower(*args)
        text = lowered.as_text()
        with open(os.path.join(HERE, name + ".mlir"), "w") as f:
            f.write(text)
        for v in VERSIONS:
            bc = stablehlo.serialize_portable_artifact_str(text, v)
            with open(os.path.join(HERE, "%s.%s.mlirbc" % (name, v)), "wb") as f:
                f.write(bc)
    # One with locations (as_text(debug_info=True) keeps them).
    lowered = jax.jit(lambda x: jnp.cos(x) * 2).lower(f32(3))
    text = lowered.as_text(debug_info=True)
    with open(os.path.join(HERE, "locs.mlir"), "w") as f:
        f.write(text)
    with open(os.path.join(HERE, "locs.1.17.0.mlirbc"), "wb") as f:
        f.write(stablehlo.serialize_portable_artifact_str(text, "1.17.0"))
    # Plain bytecode of the stablehlo dialect (not a portable artifact).
    buf = io.BytesIO()
    jax.jit(lambda x: jnp.sin(x) + 1).lower(f32(4)).compiler_ir("stablehlo").operation.write_bytecode(buf)
    with open(os.path.join(HERE, "plain_sin.bin"), "wb") as f:
        f.write(buf.getvalue())


if __name__ == "__main__":
    main()
