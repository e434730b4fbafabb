"""The JAX differential suite: small JAX programs run on one platform.

    python3 cases.py OUTDIR [REGEX]

runs every case (or those whose name matches REGEX) with jax.jit on the
first device of the platform JAX_PLATFORMS selects (stela or cpu) and
writes OUTDIR/results.npz (output i of case NAME under "NAME#i") and
OUTDIR/errors.json (NAME -> message, for cases that failed to compile or
run) and OUTDIR/cases.json (NAME -> tolerance). jax_test.go runs it on
both platforms and compares the results.

Cases run in groups of GROUP per jitted program to keep the number of
compiles (about a second each on Stela, on two cores) small; a group that
fails is rerun case by case, so that a failure names its case.
"""
import json
import math
import os
import re
import sys
import traceback
import zlib

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

jax.config.update("jax_enable_x64", True)

GROUP = 24

# Tolerances: a pair of results agrees when it is bitwise equal (NaNs of
# any payload equal), within `ulp` units in the last place, or within
# atol + rtol*|expected|.
EXACT = {"ulp": 0}
ULP = lambda n: {"ulp": n}
REL = lambda r, a=0.0: {"ulp": 2, "rtol": r, "atol": a}
TRANS = ULP(4)  # transcendental functions of the two compilers' own math libraries
SUM = REL(1e-5, 1e-6)  # sums in a different order (f32)

CASES = []  # (name, fn, args, tol)


def case(name, fn, args, tol=EXACT):
    CASES.append((name, fn, args, tol))


def rng_for(name):
    return np.random.default_rng(zlib.crc32(name.encode()))


FLOATS = ["float32", "float64", "float16", "bfloat16"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


def dt(name):
    return jnp.dtype(name)


def arr(rng, dtype, shape, lo=-3.0, hi=3.0):
    d = dt(dtype)
    if d == jnp.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if jnp.issubdtype(d, jnp.integer):
        info = jnp.iinfo(d)
        if lo <= -100 and hi >= 100:  # the whole range: random bits
            n = int(np.prod(shape))
            return np.frombuffer(rng.bytes(n * d.itemsize), dtype=d).reshape(shape).copy()
        lo_i, hi_i = max(int(info.min), int(lo)), min(int(info.max), int(hi))
        return rng.integers(lo_i, hi_i, shape, endpoint=True).astype(d)
    if jnp.issubdtype(d, jnp.complexfloating):
        return (rng.uniform(lo, hi, shape) + 1j * rng.uniform(lo, hi, shape)).astype(d)
    return np.asarray(rng.uniform(lo, hi, shape)).astype(d)


# ---- Elementwise, floating point ----
UNARY_F = {
    "neg": (jnp.negative, EXACT, None),
    "abs": (jnp.abs, EXACT, None),
    "sign": (jnp.sign, EXACT, None),
    "floor": (jnp.floor, EXACT, None),
    "ceil": (jnp.ceil, EXACT, None),
    "round": (jnp.round, EXACT, None),
    "square": (jnp.square, EXACT, None),
    "sqrt": (jnp.sqrt, ULP(1), (0.0, 9.0)),
    "rsqrt": (lax.rsqrt, ULP(2), (0.1, 9.0)),
    "cbrt": (jnp.cbrt, TRANS, None),
    "exp": (jnp.exp, TRANS, None),
    "expm1": (jnp.expm1, TRANS, None),
    "exp2": (jnp.exp2, TRANS, None),
    "log": (jnp.log, TRANS, (0.01, 9.0)),
    "log1p": (jnp.log1p, TRANS, (-0.9, 9.0)),
    "log2": (jnp.log2, TRANS, (0.01, 9.0)),
    "sin": (jnp.sin, TRANS, None),
    "cos": (jnp.cos, TRANS, None),
    "tan": (jnp.tan, TRANS, (-1.4, 1.4)),
    "tanh": (jnp.tanh, TRANS, None),
    "sinh": (jnp.sinh, TRANS, None),
    "cosh": (jnp.cosh, TRANS, None),
    "arctan": (jnp.arctan, TRANS, None),
    "arcsin": (jnp.arcsin, TRANS, (-0.99, 0.99)),
    "arccos": (jnp.arccos, TRANS, (-0.99, 0.99)),
    "arcsinh": (jnp.arcsinh, TRANS, None),
    "sigmoid": (jax.nn.sigmoid, TRANS, None),
    "erf": (lax.erf, TRANS, None),
    "reciprocal": (jnp.reciprocal, ULP(1), (0.1, 9.0)),
    "isfinite": (jnp.isfinite, EXACT, None),
    "relu": (jax.nn.relu, EXACT, None),
}
for op, (fn, tol, dom) in UNARY_F.items():
    for d in FLOATS:
        name = "unary_%s_%s" % (op, d)
        lo, hi = dom or (-3.0, 3.0)
        case(name, fn, (arr(rng_for(name), d, (7,), lo, hi),), tol)

BINARY_F = {
    "add": (jnp.add, EXACT),
    "sub": (jnp.subtract, EXACT),
    "mul": (jnp.multiply, EXACT),
    "div": (jnp.divide, EXACT),
    "max": (jnp.maximum, EXACT),
    "min": (jnp.minimum, EXACT),
    "pow": (jnp.power, TRANS),
    "atan2": (jnp.arctan2, TRANS),
    "fmod": (jnp.fmod, EXACT),
    "lt": (jnp.less, EXACT),
    "eq": (jnp.equal, EXACT),
    "ge": (jnp.greater_equal, EXACT),
}
for op, (fn, tol) in BINARY_F.items():
    for d in FLOATS:
        name = "binary_%s_%s" % (op, d)
        r = rng_for(name)
        a = arr(r, d, (2, 5), 0.1 if op == "pow" else -3.0, 3.0)
        b = arr(r, d, (2, 5), 0.5, 3.0) if op in ("div", "fmod", "pow") else arr(r, d, (2, 5))
        if op in ("lt", "eq", "ge"):
            b = np.where(r.integers(0, 2, (2, 5)) == 1, a, b).astype(a.dtype)
        case(name, fn, (a, b), tol)

# ---- Elementwise, integers ----
BINARY_I = {
    "add": jnp.add, "sub": jnp.subtract, "mul": jnp.multiply, "max": jnp.maximum, "min": jnp.minimum,
    "and": jnp.bitwise_and, "or": jnp.bitwise_or, "xor": jnp.bitwise_xor,
    "floordiv": jnp.floor_divide, "rem": jnp.remainder, "lt": jnp.less, "ne": jnp.not_equal,
    "shl": jnp.left_shift, "shr": jnp.right_shift,
}
for op, fn in BINARY_I.items():
    for d in INTS:
        name = "ibinary_%s_%s" % (op, d)
        r = rng_for(name)
        a = arr(r, d, (9,), -1e9, 1e9)
        bits = jnp.iinfo(dt(d)).bits
        if op in ("shl", "shr"):
            b = r.integers(0, bits, (9,)).astype(dt(d))
        elif op in ("floordiv", "rem"):
            b = arr(r, d, (9,), 1, 9)
        else:
            b = arr(r, d, (9,), -1e9, 1e9)
        case(name, fn, (a, b))
UNARY_I = {"neg": jnp.negative, "abs": jnp.abs, "not": jnp.invert, "sign": jnp.sign,
           "popcount": lax.population_count, "clz": lax.clz}
for op, fn in UNARY_I.items():
    for d in INTS:
        name = "iunary_%s_%s" % (op, d)
        case(name, fn, (arr(rng_for(name), d, (9,), -1e9, 1e9),))

# ---- Booleans, complex, conversions ----
for op, fn in {"and": jnp.logical_and, "or": jnp.logical_or, "xor": jnp.logical_xor,
               "not": lambda a, b: jnp.logical_not(a), "where": lambda a, b: jnp.where(a, 1.5, -2.0)}.items():
    name = "bool_%s" % op
    r = rng_for(name)
    case(name, fn, (arr(r, "bool", (8,)), arr(r, "bool", (8,))))
for d in ["complex64", "complex128"]:
    for op, (fn, tol) in {
        "add": (jnp.add, EXACT), "mul": (jnp.multiply, REL(1e-6)), "div": (jnp.divide, REL(1e-6, 1e-7)),
        "abs": (lambda a, b: jnp.abs(a), TRANS), "conj": (lambda a, b: jnp.conj(a), EXACT),
        "real": (lambda a, b: jnp.real(a) + jnp.imag(b), EXACT),
        "exp": (lambda a, b: jnp.exp(a), REL(1e-6, 1e-6)),
        "eq": (lambda a, b: a == b, EXACT), "sum": (lambda a, b: jnp.sum(a * b), REL(1e-6, 1e-6)),
        "make": (lambda a, b: lax.complex(jnp.real(a), jnp.imag(b)), EXACT),
    }.items():
        name = "complex_%s_%s" % (op, d)
        r = rng_for(name)
        case(name, fn, (arr(r, d, (5,)), arr(r, d, (5,))), tol)
CONVERT = [("float32", "int32"), ("int32", "float32"), ("float32", "float16"), ("float32", "bfloat16"),
           ("float64", "float32"), ("float16", "float32"), ("bfloat16", "float32"), ("uint8", "float32"),
           ("bool", "int32"), ("int64", "int8"), ("int32", "uint32"), ("uint32", "int64"), ("float32", "bool"),
           ("float64", "int64"), ("int8", "float64"), ("float32", "uint8"), ("uint64", "float32"),
           ("int16", "bfloat16"), ("float32", "complex64"), ("float16", "bfloat16")]
for src, dst in CONVERT:
    name = "convert_%s_%s" % (src, dst)
    lo, hi = (0.0, 200.0) if dst.startswith("uint") else (-100.0, 100.0)
    case(name, lambda x, dst=dst: x.astype(dt(dst)), (arr(rng_for(name), src, (8,), lo, hi),))
for d in ["float32", "int32", "float16", "uint16"]:
    name = "bitcast_%s" % d
    tgt = {"float32": "int32", "int32": "float32", "float16": "int16", "uint16": "bfloat16"}[d]
    case(name, lambda x, tgt=tgt: lax.bitcast_convert_type(x, dt(tgt)), (arr(rng_for(name), d, (6,)),))

# ---- Reductions ----
REDUCE = {
    "sum": (lambda x: jnp.sum(x), SUM), "sum0": (lambda x: jnp.sum(x, 0), SUM), "sum1": (lambda x: jnp.sum(x, 1), SUM),
    "prod": (lambda x: jnp.prod(x, 1), REL(1e-5)), "max": (lambda x: jnp.max(x, 0), EXACT),
    "min": (lambda x: jnp.min(x), EXACT), "mean": (lambda x: jnp.mean(x, 1), SUM),
    "argmax": (lambda x: jnp.argmax(x, 1), EXACT), "argmin": (lambda x: jnp.argmin(x, 0), EXACT),
    "var": (lambda x: jnp.var(x, 1), REL(1e-4, 1e-6)), "std": (lambda x: jnp.std(x), REL(1e-4, 1e-6)),
    "logsumexp": (lambda x: jax.nn.logsumexp(x, 1), REL(1e-5, 1e-6)), "cumsum": (lambda x: jnp.cumsum(x, 1), SUM),
    "cumprod": (lambda x: jnp.cumprod(x, 0), REL(1e-5)), "cummax": (lambda x: lax.cummax(x, 1), EXACT),
    "norm": (lambda x: jnp.linalg.norm(x), REL(1e-5)), "any": (lambda x: jnp.any(x > 1.0, 1), EXACT),
    "all": (lambda x: jnp.all(x > -2.0, 0), EXACT), "count": (lambda x: jnp.sum(x > 0), EXACT),
    "sum_keepdims": (lambda x: jnp.sum(x, 1, keepdims=True), SUM),
}
for op, (fn, tol) in REDUCE.items():
    for d in ["float32", "float64"]:
        name = "reduce_%s_%s" % (op, d)
        case(name, fn, (arr(rng_for(name), d, (4, 6)),), tol)
for op, fn in {"sum": lambda x: jnp.sum(x, 0), "max": lambda x: jnp.max(x, 1), "min": jnp.min,
               "prod": lambda x: jnp.prod(x, 1), "cumsum": lambda x: jnp.cumsum(x, 1)}.items():
    for d in ["int32", "int64", "uint8", "int8"]:
        name = "ireduce_%s_%s" % (op, d)
        case(name, fn, (arr(rng_for(name), d, (3, 5), -9, 9),))
for d in ["float16", "bfloat16"]:
    for op in ["sum", "max"]:
        name = "reduce_%s_%s" % (op, d)
        case(name, REDUCE[op][0], (arr(rng_for(name), d, (4, 6)),), REL(1e-2, 1e-2))

# ---- Indexing and .at[] ----
IDX = {
    "slice": lambda x, i: x[1:3], "stride": lambda x, i: x[::2], "reverse": lambda x, i: x[::-1],
    "scalar": lambda x, i: x[i[0]], "gather": lambda x, i: x[i], "newaxis": lambda x, i: x[:, None] * 2,
    "neg_index": lambda x, i: x[-1], "set": lambda x, i: x.at[i[0]].set(9), "add": lambda x, i: x.at[i].add(1),
    "mul": lambda x, i: x.at[i].mul(3), "amin": lambda x, i: x.at[i].min(0), "amax": lambda x, i: x.at[i].max(5),
    "take": lambda x, i: jnp.take(x, i, axis=0), "where": lambda x, i: jnp.where(x > 0, x, 0),
    "dyn_slice": lambda x, i: lax.dynamic_slice(x, (i[0],), (3,)),
    "dyn_update": lambda x, i: lax.dynamic_update_slice(x, jnp.full((2,), 7, x.dtype), (i[1],)),
    "set_slice": lambda x, i: x.at[2:5].set(0), "get_clamped": lambda x, i: x.at[i + 100].get(mode="clip"),
    "set_drop": lambda x, i: x.at[i + 100].set(1, mode="drop"), "bool_mask_sum": lambda x, i: jnp.sum(jnp.where(x > 1, x, 0)),
}
for op, fn in IDX.items():
    for d in ["float32", "int32"]:
        name = "index_%s_%s" % (op, d)
        r = rng_for(name)
        case(name, fn, (arr(r, d, (10,), -5, 5), r.integers(0, 10, (4,)).astype(np.int32)))
IDX2 = {
    "take_along": lambda x, i: jnp.take_along_axis(x, jnp.argsort(x, 1), 1),
    "row": lambda x, i: x[i[0]], "col": lambda x, i: x[:, i[1]], "fancy": lambda x, i: x[i[:2], i[2:]],
    "at_row_add": lambda x, i: x.at[i[0], :].add(1.0), "at_2d_set": lambda x, i: x.at[i[:2], i[2:]].set(-1.0),
    "diag": lambda x, i: jnp.diagonal(x), "triu": lambda x, i: jnp.triu(x), "tril": lambda x, i: jnp.tril(x, -1),
}
for op, fn in IDX2.items():
    name = "index2_%s" % op
    r = rng_for(name)
    case(name, fn, (arr(r, "float32", (4, 4)), r.integers(0, 4, (4,)).astype(np.int32)))

# ---- Shapes ----
SHAPE = {
    "reshape": lambda x: x.reshape(3, 4), "transpose": lambda x: x.T, "concat": lambda x: jnp.concatenate([x, x * 2], 0),
    "stack": lambda x: jnp.stack([x, x[::-1]], 2), "pad": lambda x: jnp.pad(x, ((1, 0), (2, 1))),
    "pad_edge": lambda x: jnp.pad(x, 1, mode="edge"), "pad_reflect": lambda x: jnp.pad(x, 1, mode="reflect"),
    "tile": lambda x: jnp.tile(x, (2, 1)), "repeat": lambda x: jnp.repeat(x, 2, 1), "flip": lambda x: jnp.flip(x, 1),
    "roll": lambda x: jnp.roll(x, 2, 1), "broadcast": lambda x: jnp.broadcast_to(x, (2, 4, 3)),
    "expand": lambda x: jnp.expand_dims(x, 1), "squeeze": lambda x: jnp.squeeze(x[:1]),
    "split": lambda x: jnp.split(x, 3, 1)[1], "swap": lambda x: jnp.swapaxes(x[None], 0, 2),
    "ravel": lambda x: jnp.ravel(x), "moveaxis": lambda x: jnp.moveaxis(x.reshape(2, 2, 3), 0, 2),
    "lax_pad_interior": lambda x: lax.pad(x, jnp.zeros((), x.dtype), ((0, 0, 1), (1, -1, 0))),
    "rev": lambda x: lax.rev(x, (0, 1)),
}
for op, fn in SHAPE.items():
    for d in ["float32", "int64", "bool"]:
        name = "shape_%s_%s" % (op, d)
        case(name, fn, (arr(rng_for(name), d, (4, 3)),))
GEN = {
    "arange": lambda x: jnp.arange(10, dtype=jnp.float32) * x, "eye": lambda x: jnp.eye(4) * x,
    "linspace": lambda x: jnp.linspace(0.0, 1.0, 7) + x, "iota2": lambda x: lax.broadcasted_iota(jnp.int32, (3, 4), 1) + x.astype(jnp.int32),
    "full": lambda x: jnp.full((2, 3), x), "meshgrid": lambda x: jnp.meshgrid(jnp.arange(3), jnp.arange(2))[0] * x,
    "tri": lambda x: jnp.tri(4, 5, 1) * x, "outer": lambda x: jnp.outer(jnp.arange(3.0), jnp.arange(4.0)) + x,
}
for op, fn in GEN.items():
    name = "gen_%s" % op
    # linspace: XLA computes start + i*step with an FMA (1 ULP).
    case(name, fn, (np.float32(1.5),), ULP(1) if op == "linspace" else EXACT)

# ---- Control flow ----
def _while(x):
    return lax.while_loop(lambda c: c[0] < 10, lambda c: (c[0] + 1, c[1] * 1.5), (0, x))


CONTROL = {
    "cond": lambda x, p: lax.cond(p > 0, lambda v: v + 1, lambda v: v * 2, x),
    "cond_false": lambda x, p: lax.cond(p < 0, lambda v: v + 1, lambda v: v * 2, x),
    "switch": lambda x, p: lax.switch(p % 3, [lambda v: v, lambda v: -v, lambda v: v * v], x),
    "while": lambda x, p: _while(x),
    "fori": lambda x, p: lax.fori_loop(0, 7, lambda i, c: c * 0.5 + i, x),
    "fori_int": lambda x, p: lax.fori_loop(0, p, lambda i, c: c + i, 0),
    "scan_cumsum": lambda x, p: lax.scan(lambda c, v: (c + v, c), 0.0, x),
    "scan_tuple": lambda x, p: lax.scan(lambda c, v: ((c[0] + v, c[1] * 2), c[0] - v), (0.0, 1.0), x),
    "scan_reverse": lambda x, p: lax.scan(lambda c, v: (c * v, c), 1.0, x, reverse=True),
    "map": lambda x, p: lax.map(lambda v: v * v + 1, x),  # XLA contracts v*v+1 into an FMA: 1 ULP
    "nested": lambda x, p: lax.fori_loop(0, 3, lambda i, c: lax.fori_loop(0, 2, lambda j, d: d + i * j, c), x),
    "select_n": lambda x, p: lax.select_n(p % 2, x, -x),
    "while_cond_on_value": lambda x, p: lax.while_loop(lambda v: jnp.sum(v) < 100.0, lambda v: v * 2 + 1, jnp.abs(x)),
}
for op, fn in CONTROL.items():
    name = "control_%s" % op
    case(name, fn, (arr(rng_for(name), "float32", (5,)), np.int32(4)), ULP(1) if op == "map" else EXACT)

# ---- Linear algebra, convolutions ----
MM = {
    "matmul": (lambda a, b: a @ b, (3, 4), (4, 5)), "matvec": (lambda a, b: a @ b[:, 0], (3, 4), (4, 2)),
    "batched": (lambda a, b: jnp.einsum("bij,bjk->bik", a, b), (2, 3, 4), (2, 4, 2)),
    "einsum_t": (lambda a, b: jnp.einsum("ij,kj->ik", a, b), (3, 4), (5, 4)),
    "tensordot": (lambda a, b: jnp.tensordot(a, b, 2), (2, 3, 4), (3, 4, 2)),
    "dot1d": (lambda a, b: jnp.dot(a[0], b[:, 0]), (3, 4), (4, 2)), "vdot": (lambda a, b: jnp.vdot(a, a), (3, 4), (1,)),
    "kron": (lambda a, b: jnp.kron(a, b), (2, 2), (2, 3)), "trace": (lambda a, b: jnp.trace(a @ b), (3, 4), (4, 3)),
}
for op, (fn, sa, sb) in MM.items():
    for d in ["float32", "float64", "int32"]:
        name = "linalg_%s_%s" % (op, d)
        r = rng_for(name)
        case(name, fn, (arr(r, d, sa, -3, 3), arr(r, d, sb, -3, 3)), EXACT if d == "int32" else REL(1e-5, 1e-5))


def conv(lhs, rhs, strides=(1, 1), padding="SAME", dil=(1, 1), groups=1, dn=("NHWC", "HWIO", "NHWC"), lhs_dil=None):
    return lax.conv_general_dilated(lhs, rhs, strides, padding, lhs_dilation=lhs_dil, rhs_dilation=dil,
                                    dimension_numbers=dn, feature_group_count=groups)


CONV = {
    "same": (lambda a, b: conv(a, b), (1, 6, 6, 2), (3, 3, 2, 4)),
    "valid": (lambda a, b: conv(a, b, padding="VALID"), (2, 5, 5, 2), (3, 3, 2, 3)),
    "stride2": (lambda a, b: conv(a, b, strides=(2, 2)), (1, 7, 7, 2), (3, 3, 2, 2)),
    "dilated": (lambda a, b: conv(a, b, dil=(2, 2)), (1, 7, 7, 1), (2, 2, 1, 2)),
    "depthwise": (lambda a, b: conv(a, b, groups=2), (1, 5, 5, 2), (3, 3, 1, 2)),
    "nchw": (lambda a, b: conv(a, b, dn=("NCHW", "OIHW", "NCHW")), (1, 2, 5, 5), (3, 2, 3, 3)),
    "conv1d": (lambda a, b: lax.conv_general_dilated(a, b, (1,), "SAME", dimension_numbers=("NWC", "WIO", "NWC")), (2, 8, 3), (3, 3, 2)),
    "transpose": (lambda a, b: lax.conv_transpose(a, b, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")), (1, 3, 3, 2), (3, 3, 2, 1)),
    "lhs_dilation": (lambda a, b: conv(a, b, padding=((1, 1), (1, 1)), lhs_dil=(2, 2)), (1, 3, 3, 1), (2, 2, 1, 1)),
    "pad_asym": (lambda a, b: conv(a, b, padding=((0, 2), (1, 0))), (1, 4, 4, 2), (2, 2, 2, 2)),
}
for op, (fn, sa, sb) in CONV.items():
    for d in ["float32", "float64"]:
        name = "conv_%s_%s" % (op, d)
        r = rng_for(name)
        case(name, fn, (arr(r, d, sa), arr(r, d, sb)), REL(1e-5, 1e-5))

# ---- Sorting ----
SORT = {
    "sort": lambda x: jnp.sort(x), "sort_desc": lambda x: -jnp.sort(-x), "argsort": lambda x: jnp.argsort(x, stable=True),
    "sort2d": lambda x: jnp.sort(x.reshape(3, 4), 0), "lax_sort_pair": lambda x: lax.sort((x, -x), num_keys=1)[1],
    "top_k": lambda x: lax.top_k(x, 3), "searchsorted": lambda x: jnp.searchsorted(jnp.sort(x), jnp.array([0.0, 1.0], x.dtype)),
    "median": lambda x: jnp.median(x), "msort_rows": lambda x: jnp.sort(x.reshape(3, 4), 1),
}
for op, fn in SORT.items():
    for d in ["float32", "int32", "uint8", "float64"]:
        name = "sort_%s_%s" % (op, d)
        r = rng_for(name)
        lo = 0 if d.startswith("uint") else -50
        case(name, fn, (arr(r, d, (12,), lo, 50),), REL(1e-6) if op == "median" else EXACT)

# ---- Random (threefry through integer ops) ----
RANDOM = {
    "uniform": (lambda s: jax.random.uniform(jax.random.key(s), (8,)), EXACT),
    "normal": (lambda s: jax.random.normal(jax.random.key(s), (8,)), TRANS),
    "randint": (lambda s: jax.random.randint(jax.random.key(s), (8,), 0, 100), EXACT),
    "bernoulli": (lambda s: jax.random.bernoulli(jax.random.key(s), 0.3, (8,)), EXACT),
    "split": (lambda s: jax.random.key_data(jax.random.split(jax.random.key(s), 3)), EXACT),
    "fold_in": (lambda s: jax.random.key_data(jax.random.fold_in(jax.random.key(s), 7)), EXACT),
    "permutation": (lambda s: jax.random.permutation(jax.random.key(s), 10), EXACT),
    "bits": (lambda s: jax.random.bits(jax.random.key(s), (6,), jnp.uint32), EXACT),
    "bits64": (lambda s: jax.random.bits(jax.random.key(s), (4,), jnp.uint64), EXACT),
    "uniform_f64": (lambda s: jax.random.uniform(jax.random.key(s), (4,), jnp.float64), EXACT),
    "choice": (lambda s: jax.random.choice(jax.random.key(s), 20, (5,), replace=False), EXACT),
    "gumbel": (lambda s: jax.random.gumbel(jax.random.key(s), (5,)), ULP(8)),  # -log(-log(u)): two logs' errors
}
for op, (fn, tol) in RANDOM.items():
    for seed in [0, 42]:
        name = "random_%s_%d" % (op, seed)
        case(name, fn, (np.uint32(seed),), tol)

# ---- Autodiff, vmap, models ----
def mlp(p, x):
    h = jnp.tanh(x @ p[0] + p[1])
    return h @ p[2]


def loss(p, x, y):
    return jnp.mean((mlp(p, x) - y) ** 2)


def init(name):
    r = rng_for(name)
    return ([arr(r, "float32", (3, 4)), arr(r, "float32", (4,)), arr(r, "float32", (4, 2))],
            arr(r, "float32", (5, 3)), arr(r, "float32", (5, 2)))


AD = {
    "grad_mlp": lambda p, x, y: jax.grad(loss)(p, x, y),
    "value_and_grad": lambda p, x, y: jax.value_and_grad(loss)(p, x, y),
    "vmap_mlp": lambda p, x, y: jax.vmap(lambda xi: mlp(p, xi))(x),
    "jvp": lambda p, x, y: jax.jvp(lambda xx: mlp(p, xx), (x,), (y[:, :1] * jnp.ones_like(x),)),
    "vjp": lambda p, x, y: jax.vjp(lambda xx: mlp(p, xx), x)[1](y),
    "jacfwd": lambda p, x, y: jax.jacfwd(lambda v: jnp.sin(v) * v.sum())(x[0]),
    "jacrev": lambda p, x, y: jax.jacrev(lambda v: jnp.tanh(v @ p[0]))(x[0]),
    "hessian": lambda p, x, y: jax.hessian(lambda v: jnp.sum(jnp.tanh(v) ** 3))(x[0]),
    "grad_scan": lambda p, x, y: jax.grad(lambda v: lax.scan(lambda c, e: (c * e + 1, None), 1.0, v)[0])(x[:, 0]),
    "grad_fori": lambda p, x, y: jax.grad(lambda v: lax.fori_loop(0, 3, lambda i, c: jnp.sin(c) * v, v).sum())(x[0]),
    "grad_cond": lambda p, x, y: jax.grad(lambda v: lax.cond(v.sum() > 0, jnp.sin, jnp.cos, v).sum())(x[0]),
    "vmap_grad": lambda p, x, y: jax.vmap(jax.grad(lambda v: jnp.sum(v ** 3)))(x),
    "softmax_xent": lambda p, x, y: jax.grad(lambda w: -jnp.mean(jnp.sum(jax.nn.log_softmax(x @ w) * jax.nn.softmax(y @ p[2].T), 1)))(p[0]),
    "sgd_step": lambda p, x, y: jax.tree_util.tree_map(lambda a, g: a - 0.1 * g, p, jax.grad(loss)(p, x, y)),
    "vmap_matmul": lambda p, x, y: jax.vmap(lambda a: a @ p[0], in_axes=0)(x),
}
for op, fn in AD.items():
    name = "ad_%s" % op
    p, x, y = init(name)
    case(name, fn, (p, x, y), REL(2e-5, 1e-5))

NN = {
    "softmax": lambda x: jax.nn.softmax(x, 1), "log_softmax": lambda x: jax.nn.log_softmax(x),
    "gelu": lambda x: jax.nn.gelu(x), "gelu_exact": lambda x: jax.nn.gelu(x, approximate=False),
    "silu": lambda x: jax.nn.silu(x), "softplus": lambda x: jax.nn.softplus(x),
    "layernorm": lambda x: (x - x.mean(1, keepdims=True)) / jnp.sqrt(x.var(1, keepdims=True) + 1e-5),
    "maxpool": lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (2, 2), (2, 2), "VALID"),
    "avgpool": lambda x: lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 1), "SAME") / 4,
    "attention": lambda x: jax.nn.softmax(x @ x.T / 2.0) @ x, "one_hot": lambda x: jax.nn.one_hot(jnp.argmax(x, 1), 4),
    "leaky_relu": lambda x: jax.nn.leaky_relu(x, 0.1), "elu": lambda x: jax.nn.elu(x), "clip": lambda x: jnp.clip(x, -1, 1),
    "normalize": lambda x: x / jnp.linalg.norm(x, axis=1, keepdims=True),
}
for op, fn in NN.items():
    name = "nn_%s" % op
    case(name, fn, (arr(rng_for(name), "float32", (4, 4)),), REL(1e-5, 1e-6))


# ---- Small models end to end: training losses, generated tokens ----
def mlp_train(p, x, y):
    losses = []
    for _ in range(5):
        l, g = jax.value_and_grad(loss)(p, x, y)
        p = jax.tree_util.tree_map(lambda a, b: a - 0.1 * b, p, g)
        losses.append(l)
    return jnp.stack(losses), p


def gpt_init(name, vocab=16, d=8, layers=2):
    r = rng_for(name)
    w = lambda *s: (r.standard_normal(s) * 0.5).astype(np.float32)
    return {"emb": w(vocab, d), "pos": w(12, d),
            "layers": [{"qkv": w(d, 3 * d), "o": w(d, d), "f1": w(d, 2 * d), "f2": w(2 * d, d)} for _ in range(layers)]}


def gpt_logits(p, toks):
    n = toks.shape[0]
    x = p["emb"][toks] + p["pos"][:n]
    mask = jnp.tril(jnp.ones((n, n), bool))
    for l in p["layers"]:
        h = (x - x.mean(-1, keepdims=True)) / jnp.sqrt(x.var(-1, keepdims=True) + 1e-5)
        q, k, v = jnp.split(h @ l["qkv"], 3, -1)
        a = jax.nn.softmax(jnp.where(mask, q @ k.T / np.sqrt(q.shape[-1]), -1e9))
        x = x + (a @ v) @ l["o"]
        x = x + jax.nn.gelu(x @ l["f1"]) @ l["f2"]
    return x @ p["emb"].T


def gpt_generate(p, prompt):
    toks = jnp.concatenate([prompt, jnp.zeros(8, jnp.int32)])

    def step(i, t):
        nxt = jnp.argmax(gpt_logits(p, t)[3 + i])  # greedy; causal, so later zeros do not matter
        return t.at[4 + i].set(nxt.astype(jnp.int32))
    return lax.fori_loop(0, 8, step, toks)


def gpt_train(p, toks):
    def lossf(p):
        lg = jax.nn.log_softmax(gpt_logits(p, toks[:-1]))
        return -jnp.mean(jnp.take_along_axis(lg, toks[1:, None], 1))
    losses = []
    for _ in range(3):
        l, g = jax.value_and_grad(lossf)(p)
        p = jax.tree_util.tree_map(lambda a, b: a - 0.005 * b, p, g)
        losses.append(l)
    return jnp.stack(losses)


p, x, y = init("model_mlp_train")
case("model_mlp_train", mlp_train, (p, x, y), REL(1e-4, 1e-5))
case("model_gpt_generate", gpt_generate, (gpt_init("model_gpt_generate"), np.array([1, 5, 7, 2], np.int32)))
case("model_gpt_train", gpt_train, (gpt_init("model_gpt_train"), rng_for("toks").integers(0, 16, 12).astype(np.int32)), REL(1e-4, 1e-5))


def to_numpy(x):
    return np.asarray(x)


def run_group(dev, group):
    """Runs cases together; returns {name: [outputs]}."""
    fns = [c[1] for c in group]

    def fused(*argss):
        return [fn(*args) for fn, args in zip(fns, argss)]

    argss = [jax.device_put(c[2], dev) for c in group]
    outs = jax.jit(fused)(*argss)
    res = {}
    for c, o in zip(group, outs):
        res[c[0]] = [to_numpy(leaf) for leaf in jax.tree_util.tree_leaves(o)]
    return res


def main():
    out = sys.argv[1]
    pat = re.compile(sys.argv[2]) if len(sys.argv) > 2 else None
    cases = [c for c in CASES if pat is None or pat.search(c[0])]
    names = [c[0] for c in cases]
    assert len(set(names)) == len(names), "duplicate case names"
    dev = jax.devices()[0]
    if os.environ.get("JAX_PLATFORMS") == "stela":
        assert "Stela" in repr(dev), "JAX_PLATFORMS=stela runs on %r" % dev
    results, errors = {}, {}
    for i in range(0, len(cases), GROUP):
        group = cases[i:i + GROUP]
        try:
            results.update(run_group(dev, group))
        except Exception:
            for c in group:
                try:
                    results.update(run_group(dev, [c]))
                except Exception as e:
                    msg = "%s: %s" % (type(e).__name__, e)
                    errors[c[0]] = msg.strip().splitlines()[0][:2000] if msg.strip() else traceback.format_exc()[-2000:]
    os.makedirs(out, exist_ok=True)
    flat = {}
    for name, outs in results.items():
        for j, o in enumerate(outs):
            flat["%s#%d" % (name, j)] = o
    np.savez(os.path.join(out, "results.npz"), **flat)
    with open(os.path.join(out, "errors.json"), "w") as f:
        json.dump(errors, f, indent=1, sort_keys=True)
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump({c[0]: c[3] for c in cases}, f, indent=1, sort_keys=True)
    print("%r: %d cases, %d failed" % (dev, len(cases), len(errors)))


if __name__ == "__main__":
    main()
