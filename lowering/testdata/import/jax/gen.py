# Generates the JAX samples of lowering's importer tests: for each program
# NAME, NAME.mlir is jax.jit(f).lower(*args).as_text() and NAME.npz holds
# its inputs (inK) and the outputs JAX computed on CPU (outK), uncompressed.
#
# Run from this directory with jaxlib 0.10.2:
#   PYTHONPATH=/root/.cache/stela-ci/py python3 gen.py
# Programs whose text only is kept (no outputs: they need several devices or
# hold ops Stela does not import) are written as NAME.mlir alone.
import os
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=4")
import numpy as np
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

# GSPMD's mhlo.sharding annotations, not Shardy's sdy dialect (which
# Stela's StableHLO parser does not read).
jax.config.update("jax_use_shardy_partitioner", False)

rng = np.random.default_rng(0)

def f32(*s):
    return rng.standard_normal(s).astype(np.float32)

def save(name, f, *args, run=True, lowered=None, runner=None):
    text = (lowered or jax.jit(f).lower(*args)).as_text()
    with open(name + ".mlir", "w") as fh:
        fh.write(text)
    if not run:
        return
    outs = jax.tree_util.tree_leaves((runner or jax.jit(f))(*args))
    arrays = {f"in{i}": np.asarray(a) for i, a in enumerate(args)}
    arrays.update({f"out{i}": np.asarray(o) for i, o in enumerate(outs)})
    np.savez(name + ".npz", **arrays)

# Dense layers, softmax, reductions.
def mlp(x, w1, b1, w2):
    h = jax.nn.relu(x @ w1 + b1)
    return jnp.tanh(h @ w2), jnp.sum(h, axis=1)
save("mlp", mlp, f32(4, 8), f32(8, 16), f32(16), f32(16, 3))

def softmax(x):
    return jax.nn.softmax(x, axis=-1), jnp.max(x, axis=0), jnp.mean(x)
save("softmax", softmax, f32(3, 5))

def argmax(x):
    return jnp.argmax(x, axis=1), jnp.argmin(x, axis=0)
save("argmax", argmax, f32(4, 6))

# Control flow: loops thread their constants through the carry, branches
# capture values from above.
def loop(x, n):
    def body(i, c):
        return c * x + jnp.float32(i)
    return lax.fori_loop(0, n, body, x)
save("loop", loop, f32(3), np.int32(4))

def while_loop(x):
    return lax.while_loop(lambda c: c[0] < 10.0, lambda c: (c[0] * 2.0 + 1.0, c[1] + 1), (x, jnp.int32(0)))
save("while_loop", while_loop, np.float32(0.5))

def switch(i, x, y):
    return lax.switch(i, [lambda: x + y, lambda: x * 2.0, lambda: jnp.sin(y)])
save("switch", switch, np.int32(2), f32(3), f32(3))

def cond(p, x):
    return lax.cond(p, lambda v: jnp.exp(v), lambda v: -v, x)
save("cond", cond, np.bool_(False), f32(2, 2))

# Convolution and pooling.
def conv(x, k):
    y = lax.conv_general_dilated(x, k, (1, 2), [(1, 1), (0, 1)], rhs_dilation=(1, 1),
                                 dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return y, lax.reduce_window(y, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 1, 1, 1), "VALID")
save("conv", conv, f32(2, 5, 6, 3), f32(3, 2, 3, 4))

def grouped_conv(x, k):
    return lax.conv_general_dilated(x, k, (1,), [(2, 1)], lhs_dilation=(2,),
                                    dimension_numbers=("NCH", "OIH", "NCH"), feature_group_count=2)
save("grouped_conv", grouped_conv, f32(1, 4, 5), f32(6, 2, 3))

def avg_pool(x):
    s = lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 2), [(0, 1), (1, 0)])
    return s / 4.0, jnp.cumsum(x, axis=1)
save("avg_pool", avg_pool, f32(4, 6))

# Indexing: gather, scatter, dynamic slices.
def gather(x, idx):
    return x[idx], x[:, idx], jnp.take_along_axis(x, jnp.argsort(x, axis=1), axis=1)
save("gather", gather, f32(5, 4), np.array([3, 0, 4], np.int32))

def scatter(x, idx, v):
    return x.at[idx].add(v), x.at[idx].set(v), x.at[idx].max(v)
save("scatter", scatter, f32(5, 3), np.array([1, 3], np.int32), f32(2, 3))

def dyn(x, i, u):
    s = lax.dynamic_slice(x, (i, 1), (2, 2))
    return s, lax.dynamic_update_slice(x, u, (1, i))
save("dyn", dyn, f32(4, 5), np.int32(1), f32(2, 3))

def sort(x, y):
    return jnp.sort(x), lax.sort((x, y), dimension=0, num_keys=1), jnp.argsort(-x, stable=True)
save("sort", sort, f32(4), np.arange(4, dtype=np.int32))

# Shape ops.
def shapes(x):
    a = jnp.concatenate([x, x * 2], axis=0)
    b = jnp.pad(x, ((1, 0), (0, 2)))
    c = lax.pad(x, 0.0, ((0, 0, 1), (1, -1, 0)))
    d = jnp.flip(x, axis=1)[::2, 1:]
    e = jnp.arange(6, dtype=jnp.float32).reshape(2, 3) + x.T[:2]
    f = jnp.broadcast_to(x[0], (2, 3, 3))
    return a, b, c, d, e, f
save("shapes", shapes, f32(3, 3))

def einsum(a, b):
    return (jnp.einsum("bij,bjk->bik", a, b, precision=lax.Precision.HIGHEST),
            jnp.einsum("ij,kj->ik", a[0], b[0].T))
save("einsum", einsum, f32(2, 3, 4), f32(2, 4, 5))

# Element types and elementwise ops.
def ints(a, b, c):
    return (a << (b & 7), lax.shift_right_arithmetic(a, b & 3), lax.shift_right_logical(a, b & 3),
            lax.population_count(a), lax.clz(c), a // (b | 1), a % (b | 1), jnp.clip(a, -3, 3),
            c.astype(jnp.uint8) ^ jnp.uint8(0xF0), (a > b) & (c != 0), ~a, jnp.abs(a), jnp.sign(b),
            lax.max(a, b), lax.min(c, jnp.uint32(5)), a.astype(jnp.float32))
save("ints", ints, np.array([-7, 5, 100, -2**31], np.int32), np.array([1, -2, 3, 4], np.int32),
     np.array([0, 1, 2**31, 7], np.uint32))

def floats(x, y):
    return (jnp.exp(x), jnp.expm1(x), jnp.log1p(jnp.abs(x)), jnp.log(jnp.abs(y) + 1), jax.nn.sigmoid(x),
            lax.rsqrt(jnp.abs(y) + 1), jnp.cbrt(x), jnp.floor(x), jnp.ceil(x), jnp.round(x), lax.round(x),
            jnp.arctan2(x, y), jnp.power(jnp.abs(x), y), jnp.isfinite(x / y), jnp.sin(x), jnp.cos(x),
            jnp.tan(x), jnp.remainder(x, y), jnp.where(x > y, x, y), jnp.sqrt(jnp.abs(x)), jnp.sign(x),
            lax.reduce_precision(x, 5, 10), lax.bitcast_convert_type(x, jnp.int32))
save("floats", floats, f32(6), f32(6))

def halfs(x, y):
    return x.astype(jnp.bfloat16) * y.astype(jnp.bfloat16), (x.astype(jnp.float16) + 1).astype(jnp.float32)
save("halfs", halfs, f32(4), f32(4))

def complexes(x, y):
    z = lax.complex(x, y)
    return z * z, jnp.abs(z), jnp.real(z + 1j), jnp.imag(z), jnp.exp(z)
save("complexes", complexes, f32(3), f32(3))

def f64s(x):
    return jnp.sum(x.astype(jnp.float64) ** 2), x.astype(jnp.int64) + jnp.int64(2**40)
jax.config.update("jax_enable_x64", True)
save("f64s", f64s, np.array([1.5, -2.25, 3e10], np.float32))
jax.config.update("jax_enable_x64", False)

# Called functions (nested jit) and random numbers (threefry in plain ops).
@jax.jit
def inner(x):
    return jnp.tanh(x) * 2

def calls(x):
    return inner(x) + inner(x * 3)
save("calls", calls, f32(3))

def rand(key):
    return jax.random.uniform(jax.random.wrap_key_data(key), (5,)), jax.random.bits(jax.random.wrap_key_data(key), (3,))
save("rand", rand, np.array([0, 42], np.uint32))

# Composites (lax.composite): each call gets its own decomposition.
def scaled_tanh(x, *, scale=2.0, axis=1):
    return jnp.tanh(x) * scale
stanh = lax.composite(scaled_tanh, name="my.tanh")
def composite(x):
    return stanh(x, scale=3.0, axis=1) + stanh(x * 2, scale=3.0, axis=1)
save("composite", composite, f32(3))

# Autodiff, with remat (optimization_barrier).
def loss(w, x):
    return jnp.sum(jax.checkpoint(lambda w: jnp.tanh(x @ w))(w) ** 2)
save("grad", jax.grad(loss), f32(3, 2), f32(4, 3))

# Sharding: argument and result shardings, with_sharding_constraint.
mesh = Mesh(np.array(jax.devices()[:4]).reshape(2, 2), ("data", "model"))
def sharded(x, w):
    y = x @ w
    y = lax.with_sharding_constraint(y, NamedSharding(mesh, P("data", None)))
    return jnp.tanh(y)
sf = jax.jit(sharded, in_shardings=(NamedSharding(mesh, P("data", None)), NamedSharding(mesh, P(None, "model"))),
             out_shardings=NamedSharding(mesh, P(None, "model")))
x, w = f32(4, 3), f32(3, 2)
save("sharded", sharded, x, w, lowered=sf.lower(x, w))

# Collectives: pmap over 4 devices, which JAX lowers through shard_map.
# The outputs stack the devices' results along the first dimension.
def pm(x):
    return (lax.psum(x, "i"), lax.all_gather(x, "i"), lax.ppermute(x, "i", [(0, 1), (1, 2), (2, 3), (3, 0)]),
            lax.axis_index("i"), lax.psum_scatter(x, "i", tiled=True), lax.pmax(x, "i"))
x = f32(4, 8)
save("pmap", None, x, lowered=jax.pmap(pm, axis_name="i").lower(x), runner=jax.pmap(pm, axis_name="i"))

def a2a(x):
    return lax.all_to_all(x, "i", 0, 0, tiled=True)
x = f32(4, 8)
save("all_to_all", None, x, lowered=jax.pmap(a2a, axis_name="i").lower(x), runner=jax.pmap(a2a, axis_name="i"))

# Not importable: ops the IR lacks (text only, for the error tests).
save("erf", lambda x: jax.lax.erf(x), f32(3), run=False)
save("top_k", lambda x: lax.top_k(x, 2), f32(5), run=False)
save("rng_bit_generator", lambda k: lax.rng_bit_generator(k, (3,), dtype=jnp.uint32), np.zeros(4, np.uint32), run=False)
