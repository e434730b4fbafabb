# Writes types_subbyte_int.mlir: python3 subbyte_ints.py test/check/testdata (numpy only).
import numpy as np, sys
T = [("i2", 2, True), ("i4", 4, True), ("ui2", 2, False), ("ui4", 4, False)]
def wrap(v, n, s):
    v = int(v) & ((1 << n) - 1)
    if s and v >= 1 << (n - 1): v -= 1 << n
    return v
lines = []
k = [0]
def v():
    k[0] += 1; return "%%v%d" % k[0]
def L(s): lines.append("  " + s)
for name, n, s in T:
    vals = list(range(-(1 << (n-1)), 1 << (n-1))) if s else list(range(1 << n))
    xs = [a for a in vals for b in vals]; ys = [b for a in vals for b in vals]
    N = len(xs)
    L("// %s: every pair of values" % name)
    x = v(); L("%s = stablehlo.constant dense<[%s]> : tensor<%dx%s>" % (x, ", ".join(map(str, xs)), N, name))
    y = v(); L("%s = stablehlo.constant dense<[%s]> : tensor<%dx%s>" % (y, ", ".join(map(str, ys)), N, name))
    def out(z, want, comment):
        L("// " + comment)
        w = v(); L("%s = stablehlo.convert %s : (tensor<%dx%s>) -> tensor<%dxi32>" % (w, z, len(want), name, len(want)))
        L("check.expect_eq_const %s, dense<[%s]> : tensor<%dxi32>" % (w, ", ".join(map(str, want)), len(want)))
    mask = (1 << n) - 1
    def tdiv(a, b):
        if b == 0: return -1 if s else mask
        q = abs(a) // abs(b); q = q if (a >= 0) == (b >= 0) else -q
        return wrap(q, n, s)
    def trem(a, b):
        if b == 0: return a
        r = abs(a) % abs(b); return r if a >= 0 else -r
    def shl(a, b):
        c = b & 0xFF if s else b
        return wrap(a << b, n, s) if 0 <= b < n else 0
    def sra(a, b):
        a2 = wrap(a, n, True)
        return wrap(a2 >> b, n, s) if 0 <= b < n else wrap(-1 if a2 < 0 else 0, n, s)
    def srl(a, b):
        return wrap((a & mask) >> b, n, s) if 0 <= b < n else 0
    def pw(a, b):
        if b < 0:
            return {1: 1, -1: (-1 if b % 2 else 1)}.get(a, 0) if s else 0
        return wrap(a ** b, n, s)
    ops = [("add", lambda a, b: wrap(a + b, n, s), "wraps modulo 2^%d" % n),
           ("subtract", lambda a, b: wrap(a - b, n, s), "wraps"),
           ("multiply", lambda a, b: wrap(a * b, n, s), "wraps"),
           ("divide", tdiv, "truncates; x/0 is all ones, INT_MIN/-1 is INT_MIN"),
           ("remainder", trem, "sign of x; x%0 is x"),
           ("maximum", max, ""), ("minimum", min, ""),
           ("and", lambda a, b: wrap(a & b, n, s), ""), ("xor", lambda a, b: wrap(a ^ b, n, s), ""),
           ("shift_left", shl, "counts past the width (or negative) give 0"),
           ("shift_right_arithmetic", sra, "past the width: the sign"),
           ("shift_right_logical", srl, "past the width: 0"),
           ("power", pw, "negative exponents: 1, -1 alternating, else 0")]
    for op, fn, why in ops:
        z = v(); L("%s = stablehlo.%s %s, %s : tensor<%dx%s>" % (z, op, x, y, N, name))
        out(z, [fn(a, b) for a, b in zip(xs, ys)], "%s %s" % (op, why))
    c = v(); L("%s = stablehlo.compare  LT, %s, %s : (tensor<%dx%s>, tensor<%dx%s>) -> tensor<%dxi1>" % (c, x, y, N, name, N, name, N))
    L("check.expect_eq_const %s, dense<[%s]> : tensor<%dxi1>" % (c, ", ".join("true" if a < b else "false" for a, b in zip(xs, ys)), N))
    z = v(); L("%s = stablehlo.popcnt %s : tensor<%dx%s>" % (z, x, N, name)); out(z, [wrap(bin(a & mask).count("1"), n, s) for a in xs], "popcnt counts the %d bits" % n)
    z = v(); L("%s = stablehlo.count_leading_zeros %s : tensor<%dx%s>" % (z, x, N, name)); out(z, [wrap(n - (a & mask).bit_length(), n, s) for a in xs], "count_leading_zeros in %d bits" % n)
    z = v(); L("%s = stablehlo.not %s : tensor<%dx%s>" % (z, x, N, name)); out(z, [wrap(~a, n, s) for a in xs], "not")
    if s:
        z = v(); L("%s = stablehlo.negate %s : tensor<%dx%s>" % (z, x, N, name)); out(z, [wrap(-a, n, s) for a in xs], "negate: -INT_MIN is INT_MIN")
    # conversions
    fl = [0.0, -0.5, 1.9, -2.5, 3.99, -8.5, 7.5, 100.0, -100.0, float("nan"), float("inf"), float("-inf")]
    lo, hi = (-(1 << (n-1)), (1 << (n-1)) - 1) if s else (0, mask)
    def sat(f):
        if f != f: return 0
        t = np.trunc(f) if abs(f) != float("inf") else f
        return int(max(min(t, hi), lo))
    fc = v(); L("%s = stablehlo.constant dense<[%s]> : tensor<12xf32>" % (fc, ", ".join("0x%08X" % u for u in np.array(fl, np.float32).view(np.uint32))))
    z = v(); L("%s = stablehlo.convert %s : (tensor<12xf32>) -> tensor<12x%s>" % (z, fc, name)); out(z, [sat(f) for f in fl], "f32 -> %s truncates and saturates, NaN -> 0" % name)
    ints = [0, 1, -1, 5, -5, 9, 17, -129, 1 << 30]
    ic = v(); L("%s = stablehlo.constant dense<[%s]> : tensor<9xi32>" % (ic, ", ".join(map(str, ints))))
    z = v(); L("%s = stablehlo.convert %s : (tensor<9xi32>) -> tensor<9x%s>" % (z, ic, name)); out(z, [wrap(i, n, s) for i in ints], "i32 -> %s wraps" % name)
    f = v(); L("%s = stablehlo.convert %s : (tensor<%dx%s>) -> tensor<%dxf32>" % (f, x, N, name, N))
    L("check.expect_eq_const %s, dense<[%s]> : tensor<%dxf32>" % (f, ", ".join("%d.0" % a for a in xs), N))
    other = {"i2": "ui2", "ui2": "i2", "i4": "ui4", "ui4": "i4"}[name]
    ob = v(); L("%s = stablehlo.bitcast_convert %s : (tensor<%dx%s>) -> tensor<%dx%s>" % (ob, x, N, name, N, other))
    L("// bitcast_convert to %s: the same %d bits" % (other, n))
    w = v(); L("%s = stablehlo.convert %s : (tensor<%dx%s>) -> tensor<%dxi32>" % (w, ob, N, other, N))
    L("check.expect_eq_const %s, dense<[%s]> : tensor<%dxi32>" % (w, ", ".join(str(wrap(a, n, not s)) for a in xs), N))
    # data movement
    side = 1 << n
    m = v(); L("%s = stablehlo.reshape %s : (tensor<%dx%s>) -> tensor<%dx%dx%s>" % (m, x, N, name, side, side, name))
    tr = v(); L("%s = stablehlo.transpose %s, dims = [1, 0] : (tensor<%dx%dx%s>) -> tensor<%dx%dx%s>" % (tr, m, side, side, name, side, side, name))
    sl = v(); L("%s = stablehlo.slice %s [0:%d, 1:2] : (tensor<%dx%dx%s>) -> tensor<%dx1x%s>" % (sl, tr, side, side, side, name, side, name))
    bc = v(); L("%s = stablehlo.broadcast_in_dim %s, dims = [0, 1] : (tensor<%dx1x%s>) -> tensor<%dx2x%s>" % (bc, sl, side, name, side, name))
    fl2 = v(); L("%s = stablehlo.reshape %s : (tensor<%dx2x%s>) -> tensor<%dx%s>" % (fl2, bc, side, name, 2 * side, name))
    rv = v(); L("%s = stablehlo.reverse %s, dims = [0] : tensor<%dx%s>" % (rv, fl2, 2 * side, name))
    arr = np.array(xs).reshape(side, side).T[:, 1:2]
    want = list(np.repeat(arr, 2, axis=1).reshape(-1)[::-1])
    out(rv, [int(a) for a in want], "reshape, transpose, slice, broadcast_in_dim, reverse")
hdr = """// The sub-byte integers i2, i4 (signed) and ui2, ui4: every elementwise
// op on every pair of values (wrapping arithmetic, division by zero and
// INT_MIN / -1, shifts past the width, popcnt and count_leading_zeros in the
// type's width, power with negative exponents), conversions (from f32
// truncating and saturating into the narrow range with NaN -> 0, from i32
// wrapping, to f32), bitcast_convert between the signed and unsigned type
// of a width, and data movement. Results are checked as i32. Expected
// values: Python integers.
"""
open(sys.argv[1] + "/types_subbyte_int.mlir", "w").write(hdr + "func.func @main() {\n" + "\n".join(lines) + "\n  return\n}\n")
