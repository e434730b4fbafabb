"""Cross-check of package safetensors against Hugging Face's safetensors
(run by python_test.go).

Usage: crosscheck.py DIR. DIR/manifest.json describes the files Go wrote:
per file, its metadata and per tensor its dtype, shape and data bytes (hex).

1. Read each Go file with the reference parser (safetensors.deserialize,
   which validates the header as the Rust crate does) and check every tensor
   and the metadata against the manifest; read the files without bf16 with
   safetensors.numpy.load_file too.
2. Write the same tensors again with safetensors.numpy.save_file, as
   DIR/py_resaved_NAME (bf16 through ml_dtypes; skipped without it), for Go
   to compare byte for byte.
3. Write DIR/py.safetensors with tensors of its own, and DIR/py_values.json
   with their dtypes, shapes and values, for Go to read.

Exit status 3 means numpy or safetensors is missing (the test skips).
"""
import json
import os
import sys

try:
    import numpy as np
    import safetensors
    import safetensors.numpy as stnp
except ImportError as e:
    print(f"not importable: {e}")
    sys.exit(3)

try:
    import ml_dtypes
except ImportError:
    ml_dtypes = None

NP = {
    "BOOL": np.bool_, "U8": np.uint8, "I8": np.int8, "I16": np.int16, "U16": np.uint16,
    "F16": np.float16, "I32": np.int32, "U32": np.uint32, "F32": np.float32,
    "F64": np.float64, "I64": np.int64, "U64": np.uint64,
}
if ml_dtypes is not None:
    NP["BF16"] = ml_dtypes.bfloat16

d = sys.argv[1]
with open(os.path.join(d, "manifest.json")) as f:
    manifest = json.load(f)

problems = []
for fname, want in manifest.items():
    path = os.path.join(d, fname)
    with open(path, "rb") as f:
        raw = f.read()
    got = dict(safetensors.deserialize(raw))
    if sorted(got) != sorted(want["tensors"]):
        problems.append(f"{fname}: deserialize names {sorted(got)}, want {sorted(want['tensors'])}")
    for name, w in want["tensors"].items():
        g = got.get(name)
        if g is None:
            continue
        if g["dtype"] != w["dtype"] or list(g["shape"]) != w["shape"] or bytes(g["data"]).hex() != w["hex"]:
            problems.append(f"{fname}: {name!r}: deserialize gives {g['dtype']} {g['shape']} {bytes(g['data']).hex()}, want {w}")
    with safetensors.safe_open(path, framework="np") as f:
        md = f.metadata() or {}
        if md != want["metadata"]:
            problems.append(f"{fname}: metadata {md}, want {want['metadata']}")
        if sorted(f.keys()) != sorted(want["tensors"]):
            problems.append(f"{fname}: safe_open keys {sorted(f.keys())}")
    has_bf16 = any(w["dtype"] == "BF16" for w in want["tensors"].values())
    if not has_bf16:
        arrays = stnp.load_file(path)
        for name, w in want["tensors"].items():
            a = arrays[name]
            if a.dtype != np.dtype(NP[w["dtype"]]) or list(a.shape) != w["shape"] or a.tobytes().hex() != w["hex"]:
                problems.append(f"{fname}: {name!r}: load_file gives {a.dtype} {a.shape} {a.tobytes().hex()}, want {w}")
    # Write the same tensors with the reference writer.
    if all(w["dtype"] in NP for w in want["tensors"].values()):
        arrays = {
            name: np.frombuffer(bytes.fromhex(w["hex"]), dtype=NP[w["dtype"]]).reshape(w["shape"])
            for name, w in want["tensors"].items()
        }
        stnp.save_file(arrays, os.path.join(d, "py_resaved_" + fname), metadata=want["metadata"] or None)

# Tensors of Python's own, with values Go checks.
values = {
    "bool": (np.bool_, [[True, False, True], [False, False, True]]),
    "u8": (np.uint8, [0, 1, 255]),
    "i8": (np.int8, [-128, -1, 0, 127]),
    "i16": (np.int16, [-32768, 12345, 32767]),
    "u16": (np.uint16, [0, 40000, 65535]),
    "i32": (np.int32, [[-(2**31), 7], [2**31 - 1, -7]]),
    "u32": (np.uint32, [0, 2**32 - 1]),
    "i64": (np.int64, [-(2**63), -3, 2**63 - 1]),
    "u64": (np.uint64, [0, 2**64 - 1, 12345678901234567890]),
    "f16": (np.float16, [0.5, -2.0, 65504.0, 2.0**-24, 0.1]),
    "f32": (np.float32, [[3.14159265, -1e-30], [1e30, 0.1]]),
    "f64": (np.float64, 2.718281828459045),
    "layers.0.weight": (np.float32, [[1.0, 2.0, 3.0]]),
    "empty": (np.float32, np.zeros((2, 0))),
}
arrays = {name: np.array(v, dtype=t) for name, (t, v) in values.items()}
if ml_dtypes is not None:
    arrays["bf16"] = np.array([1.0, -3.5, 3.3895313892515355e38, 0.1, 1e-40], dtype=ml_dtypes.bfloat16)
stnp.save_file(arrays, os.path.join(d, "py.safetensors"), metadata={"format": "np", "source": "python"})
if ml_dtypes is None:
    # bf16 through the reference's raw interface: the bits as uint16.
    bits = np.array([0x3F80, 0xC060], dtype=np.uint16)
    safetensors.serialize_file(
        {"bf16": {"dtype": "bfloat16", "shape": [2], "data": bits.tobytes()}},
        os.path.join(d, "py_bf16.safetensors"))
out = {}
for name, a in arrays.items():
    if a.dtype.kind == "f" or a.dtype.name == "bfloat16":
        vals = a.astype(np.float64).reshape(-1).tolist()
    else:
        vals = [int(x) for x in a.reshape(-1).tolist()]
    out[name] = {"shape": list(a.shape), "values": vals}
with open(os.path.join(d, "py_values.json"), "w") as f:
    json.dump({"ml_dtypes": ml_dtypes is not None, "tensors": out}, f)

if problems:
    print("\n".join(problems))
    sys.exit(1)
