"""JAX's runtime API on the Stela plugin: devices, memories, transfers,
donation, compiled-executable queries, errors, and several devices.

Run with JAX_PLATFORMS=stela and STELA_CPU_DEVICES=2 (jax_test.go's
TestJAXAPI does); prints one line per check and exits 1 if one fails.
"""
import sys

import jax
import jax.numpy as jnp
import numpy as np

failed = []


def check(name, fn, want=None):
    try:
        got = fn()
        if isinstance(want, tuple):
            assert got == want, "got %r, want %r" % (got, want)
        elif want is not None:
            np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
        print("ok   %s" % name)
    except Exception as e:  # noqa: BLE001
        failed.append(name)
        print("FAIL %s: %s: %s" % (name, type(e).__name__, str(e).splitlines()[0] if str(e) else ""))


def expect_error(name, fn, text):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        if text in str(e):
            print("ok   %s (error: %s)" % (name, text))
            return
        failed.append(name)
        print("FAIL %s: wrong error: %s" % (name, str(e).splitlines()[0]))
        return
    failed.append(name)
    print("FAIL %s: no error" % name)


ds = jax.devices()
d = ds[0]
assert "Stela" in repr(d), ds
host = np.arange(6, dtype=np.float32).reshape(2, 3)
x = jax.device_put(host, d)

check("two devices", lambda: len(ds), 2)
check("device fields", lambda: (d.id, d.process_index, d.platform, d.device_kind), (0, 0, "cpu", "cpu"))
check("default memory", lambda: d.default_memory().kind, "device")
check("addressable memories", lambda: [m.kind for m in d.addressable_memories()], ["device"])
check("array fields", lambda: (x.shape, str(x.dtype), x.devices() == {d}), ((2, 3), "float32", True))
check("block_until_ready", lambda: x.block_until_ready() is x, True)
check("is_ready", lambda: x.is_ready(), True)
check("copy_to_host_async", lambda: (x.copy_to_host_async(), np.asarray(x))[1], host)
f = jax.jit(lambda a: a * 2 + 1)
check("jit", lambda: f(x), host * 2 + 1)
compiled = f.lower(x).compile()
check("compiled.as_text", lambda: "HloModule" in compiled.as_text(), True)
check("output layout", lambda: compiled.output_formats.layout.major_to_minor, (0, 1))
check("input layout", lambda: compiled.input_formats[0][0].layout.major_to_minor, (0, 1))
check("array layout", lambda: x.format.layout.major_to_minor, (0, 1))
check("memory_analysis", lambda: compiled.memory_analysis().output_size_in_bytes, 24)
check("fingerprint", lambda: len(compiled.runtime_executable().fingerprint) > 0, True)


def donate():
    y = jax.device_put(np.ones(4, np.float32), d)
    z = jax.jit(lambda a: a + 1, donate_argnums=0)(y)
    return np.asarray(z).tolist(), y.is_deleted()


check("donation", donate, ([2.0] * 4, True))
check("delete", lambda: (lambda y: (y.delete(), y.is_deleted())[1])(jax.device_put(np.ones(2), d)), True)
check("dlpack", lambda: np.from_dlpack(x), host)
check("bfloat16 transfer", lambda: np.asarray(jax.device_put(np.arange(3).astype(jnp.bfloat16), d)).astype(np.float32), [0, 1, 2])
check("eager jnp", lambda: jnp.sin(x) + jnp.arange(3.0, dtype=jnp.float32), np.sin(host) + np.arange(3.0, dtype=np.float32))
check("eager random", lambda: jax.random.normal(jax.random.key(0), (3,)).shape, (3,))
check("grad", lambda: jax.grad(lambda a: (a ** 2).sum())(x), 2 * host)
check("empty array", lambda: jax.jit(lambda a: a * 2)(np.zeros((0, 3), np.float32)).shape, (0, 3))
check("large reduce", lambda: float(jax.jit(lambda a: a.sum())(np.ones((1000, 1000), np.float32))), 1e6)
check("weak-typed scalar", lambda: jax.jit(lambda a: a + 1)(3), 4)
check("copy to device 1", lambda: (lambda y: (y.devices() == {ds[1]}, np.asarray(y)))(jax.device_put(x, ds[1]))[1], host)
check("jit on device 1", lambda: jax.jit(lambda a: a * 2)(jax.device_put(x, ds[1])).devices() == {ds[1]}, True)
check("pmap", lambda: jax.pmap(lambda a: a * 2)(np.arange(4, dtype=np.float32).reshape(2, 2)), [[0, 2], [4, 6]])
check("pmap psum", lambda: jax.pmap(lambda a: jax.lax.psum(a, "i"), axis_name="i")(np.arange(4, dtype=np.float32).reshape(2, 2)),
      [[2, 4], [2, 4]])
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

mesh = Mesh(np.array(ds), ("x",))
xs = jax.device_put(np.arange(8, dtype=np.float32), NamedSharding(mesh, P("x")))
check("sharded put", lambda: [s.data.shape for s in xs.addressable_shards], [(4,), (4,)])
check("sharded jit", lambda: jax.jit(lambda a: a * 2)(xs), np.arange(8) * 2)
check("sharded jit keeps sharding", lambda: jax.jit(lambda a: a * 2)(xs).sharding.spec, P("x"))
check("sharded sum (all-reduce)", lambda: float(jax.jit(lambda a: a.sum())(xs)), 28.0)
m = jax.device_put(np.arange(16, dtype=np.float32).reshape(4, 4), NamedSharding(mesh, P("x", None)))
check("sharded matmul", lambda: jax.jit(lambda a: a @ a.T)(m), np.arange(16.0).reshape(4, 4) @ np.arange(16.0).reshape(4, 4).T)
check("out_shardings replicated", lambda: jax.jit(lambda a: a + 1, out_shardings=NamedSharding(mesh, P()))(xs), np.arange(8) + 1)
expect_error("pure_callback", lambda: jax.jit(lambda a: jax.pure_callback(
    lambda v: np.asarray(v), jax.ShapeDtypeStruct((2, 3), jnp.float32), a))(x), "custom_call @xla_ffi_python_cpu_callback")

if failed:
    print("%d checks failed: %s" % (len(failed), ", ".join(failed)))
    sys.exit(1)
