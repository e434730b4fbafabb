"""fft_numpy.py DIR: numpy.fft's results for fft_test.go's TestFFTNumPy.

DIR/cases.json lists the cases: kind (FFT, IFFT, RFFT, IRFFT), dtype
(c128, c64, f64, f32: the operand's), shape (the operand's) and lens
(fft_length, of the trailing dimensions). DIR/in<i>.bin holds case i's
operand (little-endian, complex as re, im pairs). This writes
DIR/out<i>.bin, numpy.fft.fftn / ifftn / rfftn / irfftn over the trailing
len(lens) axes, in complex128 or float64 (NumPy 1.x computes in double
whatever the input), and prints {"numpy": version} as JSON.
"""
import json
import os
import sys

import numpy as np

d = sys.argv[1]
cases = json.load(open(os.path.join(d, "cases.json")))
dt = {"c128": np.complex128, "c64": np.complex64, "f64": np.float64, "f32": np.float32}
for i, c in enumerate(cases):
    x = np.fromfile(os.path.join(d, "in%d.bin" % i), dtype=dt[c["dtype"]]).reshape(c["shape"])
    lens = c["lens"]
    axes = list(range(-len(lens), 0))
    k = c["kind"]
    if k == "FFT":
        y = np.fft.fftn(x, s=lens, axes=axes)
    elif k == "IFFT":
        y = np.fft.ifftn(x, s=lens, axes=axes)
    elif k == "RFFT":
        y = np.fft.rfftn(x, s=lens, axes=axes)
    else:
        y = np.fft.irfftn(x, s=lens, axes=axes)
    y = np.ascontiguousarray(y, dtype=np.complex128 if k != "IRFFT" else np.float64)
    y.tofile(os.path.join(d, "out%d.bin" % i))
print(json.dumps({"numpy": np.__version__}))
