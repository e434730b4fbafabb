# Generates the JAX shard_map samples of lowering's manual-computation
# import tests (TestImportManualJAX) and of the CPU plugin's SPMD tests
# (pjrt/cpu, TestSPMDShardMapJAX): for each program NAME, NAME.mlir is
# jax.jit(f).lower(*args).as_text() with GSPMD's annotations (not Shardy's)
# and NAME.npz holds its inputs (inK) and the outputs JAX computed on CPU
# (outK), uncompressed. Programs whose text only is kept (the error tests)
# are written as NAME.mlir alone.
#
# Run from this directory with jaxlib 0.10.2:
#   PYTHONPATH=/root/.cache/stela-ci/py python3 gen.py
import os
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
import numpy as np
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

jax.config.update("jax_use_shardy_partitioner", False)

rng = np.random.default_rng(1)

def f32(*s):
    return rng.standard_normal(s).astype(np.float32)

def save(name, f, *args, run=True, mesh=None, ins=None, outs=None):
    # With a mesh, ins and outs are the jit's in and out specs over it: the
    # entry's mhlo.sharding, which tells the plugin's test each device's
    # pieces.
    jf = jax.jit(f)
    if mesh is not None:
        jf = jax.jit(f, in_shardings=tuple(NamedSharding(mesh, s) for s in ins),
                     out_shardings=tuple(NamedSharding(mesh, s) for s in outs))
    text = jf.lower(*args).as_text()
    with open(name + ".mlir", "w") as fh:
        fh.write(text)
    if not run:
        return
    outs = jax.tree_util.tree_leaves(jf(*args))
    arrays = {f"in{i}": np.asarray(a) for i, a in enumerate(args)}
    arrays.update({f"out{i}": np.asarray(o) for i, o in enumerate(outs)})
    np.savez(name + ".npz", **arrays)

devs = jax.devices()
mesh4 = Mesh(np.array(devs[:4]).reshape(2, 2), ("x", "y"))
mesh8 = Mesh(np.array(devs[:8]).reshape(2, 4), ("a", "b"))
mesh2 = Mesh(np.array(devs[:2]), ("i",))

# A psum over one axis of a 2 × 2 mesh, an all_gather over the other, a
# constant and the device's position along an axis (partition_id).
def psum_gather(a, w):
    s = lax.psum(jnp.sum(a * w, axis=0), "x")
    g = lax.all_gather(a, "y", axis=1, tiled=True)
    return s, g * 2.0 + jnp.float32(1.5), lax.axis_index("y")
ins, outs = (P("x", "y"), P("y")), (P("y"), P("x", None), P())
save("psum_gather", jax.shard_map(psum_gather, mesh=mesh4, in_specs=ins, out_specs=outs, check_vma=False), f32(4, 8), f32(8),
     mesh=mesh4, ins=ins, outs=outs)

# 8 devices (a 2 × 4 mesh): a ring permute along b, a reduce-scatter
# along a, a max over everything, an all_to_all along b.
def ring(a):
    r = lax.ppermute(a, "b", [(i, (i + 1) % 4) for i in range(4)])
    s = lax.psum_scatter(a, "a", scatter_dimension=1, tiled=True)
    m = lax.pmax(jnp.max(a), ("a", "b"))
    t = lax.all_to_all(a, "b", 1, 1, tiled=True)
    return r, s, m, t
outs = (P("a", "b"), P("b", "a"), P(), P("a", "b"))
save("ring8", jax.shard_map(ring, mesh=mesh8, in_specs=P("a", "b"), out_specs=outs, check_vma=False), f32(4, 16),
     mesh=mesh8, ins=(P("a", "b"),), outs=outs)

# Global ops around two shard_maps, a captured constant array, and a
# shard_map body that ignores an operand.
table = np.linspace(-1, 1, 8, dtype=np.float32)
def around(x, w, b):
    h = jnp.tanh(x @ w)
    f = jax.shard_map(lambda h, b, unused: (lax.psum(h * table + b, "i"), h.sum(axis=1)), mesh=mesh2,
                      in_specs=(P("i"), P(), P("i")), out_specs=(P(), P("i")), check_vma=False)
    s, rows = f(h, b, x)
    g = jax.shard_map(lambda v: lax.all_gather(v, "i", tiled=True) * 3.0, mesh=mesh2, in_specs=P("i"), out_specs=P(),
                      check_vma=False)
    return jnp.exp(s) + 1.0, g(rows)
save("around2", around, f32(6, 4), f32(4, 8), f32(8), mesh=mesh2, ins=(P("i"), P(), P()), outs=(P(), P("i")))

# Not supported: a shard_map manual over some axes only (the others left to
# the automatic partitioner).
def partial(a):
    return jax.shard_map(lambda b: b * 2, mesh=mesh4, in_specs=P("x"), out_specs=P("x"), axis_names={"x"})(a)
save("partial", partial, f32(4, 8), run=False)
