"""Cross-check of package npy against numpy (run by npy_test.go).

Usage: crosscheck.py DIR. For every DIR/go_*.npy that Go wrote, load it with
numpy, check it against what its name says (dtype and shape live in
DIR/manifest.json), and save it again as DIR/py_resaved_*.npy with numpy's own
writer. Then write arrays of its own in forms Go does not write: big-endian,
Fortran order, format version 2.0 and 3.0, as DIR/py_*.npy. Exit status 3 means numpy is missing.
"""
import json
import os
import sys

try:
    import numpy as np
except ImportError:
    print("numpy is not importable")
    sys.exit(3)  # the test skips

try:
    import ml_dtypes
except ImportError:  # bf16 is then checked only as raw '<V2' bits
    ml_dtypes = None

d = sys.argv[1]
with open(os.path.join(d, "manifest.json")) as f:
    manifest = json.load(f)

problems = []
for name, want in manifest.items():
    a = np.load(os.path.join(d, name))
    descr = a.dtype.str
    if descr == "|V2":
        descr = "<V2"  # numpy reads ml_dtypes' '<V2' as a plain void
    if descr != want["descr"] or list(a.shape) != want["shape"]:
        problems.append(f"{name}: numpy reads {a.dtype.str} {a.shape}, want {want}")
    if want.get("bits") is not None:
        raw = a.reshape(-1).view(np.uint8)
        if raw.tobytes().hex() != want["bits"]:
            problems.append(f"{name}: bytes {raw.tobytes().hex()}, want {want['bits']}")
    if descr == "<V2" and ml_dtypes is not None:
        a = a.view(ml_dtypes.bfloat16)
    np.save(os.path.join(d, "py_resaved_" + name[len("go_"):]), a)

x = np.arange(24).reshape(2, 3, 4)
forms = {
    "big_f4": x.astype(">f4"),
    "big_i8": x.astype(">i8"),
    "big_u2": x.astype(">u2"),
    "big_c8": (x + 1j * x).astype(">c8"),
    "big_c16": (x - 2j * x).astype(">c16"),
    "big_f2": x.astype(">f2"),
    "fortran_f8": np.asfortranarray(x.astype("<f8")),
    "fortran_i4": np.asfortranarray(x.astype("<i4")),
    "fortran_b1": np.asfortranarray((x % 3) == 0),
}
for name, a in forms.items():
    np.save(os.path.join(d, "py_" + name + ".npy"), a)
for v in [(2, 0), (3, 0)]:
    with open(os.path.join(d, "py_v%d.npy" % v[0]), "wb") as f:
        np.lib.format.write_array(f, x.astype("<i2"), version=v)
if ml_dtypes is not None:
    np.save(os.path.join(d, "py_bf16.npy"), (x / 8).astype(ml_dtypes.bfloat16))

if problems:
    print("\n".join(problems))
    sys.exit(1)
