# Writes types_f8.mlir, types_f6.mlir and types_f4.mlir: python3 narrow_floats.py test/check/testdata
# (with ml_dtypes importable, e.g. PYTHONPATH=$STELA_JAXLIB_PYTHONPATH).
import numpy as np, ml_dtypes, struct, sys
np.seterr(all='ignore')
F8 = [("f8E4M3FN","float8_e4m3fn"),("f8E5M2","float8_e5m2"),("f8E4M3FNUZ","float8_e4m3fnuz"),("f8E5M2FNUZ","float8_e5m2fnuz"),
      ("f8E4M3B11FNUZ","float8_e4m3b11fnuz"),("f8E4M3","float8_e4m3"),("f8E3M4","float8_e3m4"),("f8E8M0FNU","float8_e8m0fnu")]
F6 = [("f6E2M3FN","float6_e2m3fn"),("f6E3M2FN","float6_e3m2fn")]
F4 = [("f4E2M1FN","float4_e2m1fn")]
def f32hex(a): return ", ".join("0x%08X" % v for v in np.asarray(a, np.float32).view(np.uint32))
def codes(a): return ", ".join(str(int(v)) for v in a)
def hexcodes(a): return ", ".join("0x%02X" % int(v) for v in a)
class W:
    def __init__(s): s.lines=[]; s.n=0
    def v(s): s.n+=1; return "%%v%d" % s.n
    def add(s, l): s.lines.append("  "+l)
def finite_vals(T):
    n = 256 if T in [x[1] for x in F8] else (64 if 'float6' in T else 16)
    t = getattr(ml_dtypes, T)
    v = np.arange(n, dtype=np.uint8).view(t).astype(np.float32)
    return t, n, v
def block(w, name, T, eight):
    t, n, allv = finite_vals(T)
    fin = allv[np.isfinite(allv)]
    pos = np.unique(fin[fin > 0])
    mx, mn = pos.max(), pos.min()
    N = len(allv)
    def bitsof(x, ty):  # x: array of T -> checked value
        if eight:
            r = w.v(); w.add("%s = stablehlo.bitcast_convert %s : (tensor<%dx%s>) -> tensor<%dxui8>" % (r, x, len(ty), name, len(ty))); return r, "ui8"
        f = w.v(); w.add("%s = stablehlo.convert %s : (tensor<%dx%s>) -> tensor<%dxf32>" % (f, x, len(ty), name, len(ty)))
        r = w.v(); w.add("%s = stablehlo.bitcast_convert %s : (tensor<%dxf32>) -> tensor<%dxi32>" % (r, f, len(ty), len(ty))); return r, "i32"
    def expect_bits(r, kind, arr_T):
        if kind == "ui8":
            w.add("check.expect_eq_const %s, dense<[%s]> : tensor<%dxui8>" % (r, codes(arr_T.view(np.uint8)), len(arr_T)))
        else:
            w.add("check.expect_eq_const %s, dense<[%s]> : tensor<%dxi32>" % (r, ", ".join(str(int(v)) for v in arr_T.astype(np.float32).view(np.int32)), len(arr_T)))
    # 1. f32 -> T on edge values
    edges = [mx, mx*1.0625, mx*1.125, mx*2, mn, mn*0.5, mn*0.75, mn*1.5, -0.0, 1.0, 0.3, -2.5, np.inf, -np.inf, 3e38]
    if eight: edges.append(np.nan)
    e = np.array(edges, np.float32)
    w.add("// %s: f32 -> %s on edge values: the largest finite value, beyond it (ties and overflow), the smallest subnormal and halves of it, -0, Inf%s" % (name, name, ", NaN" if eight else ""))
    a = w.v(); w.add("%s = stablehlo.constant dense<[%s]> : tensor<%dxf32>" % (a, f32hex(e), len(e)))
    b = w.v(); w.add("%s = stablehlo.convert %s : (tensor<%dxf32>) -> tensor<%dx%s>" % (b, a, len(e), len(e), name))
    r, k = bitsof(b, e); expect_bits(r, k, e.astype(t))
    # 2. every code -> f32 (hex constant)
    w.add("// every %s code -> f32 (exact)" % name)
    c = w.v(); w.add("%s = stablehlo.constant dense<[%s]> : tensor<%dx%s>" % (c, hexcodes(range(N)), N, name))
    f = w.v(); w.add("%s = stablehlo.convert %s : (tensor<%dx%s>) -> tensor<%dxf32>" % (f, c, N, name, N))
    w.add("check.expect_eq_const %s, dense<[%s]> : tensor<%dxf32>" % (f, f32hex(allv), N))
    # 3. arithmetic: f32 compute, one rounding (ml_dtypes)
    rng = np.random.default_rng(len(name) * 7 + N)
    xs = rng.choice(fin, 12); ys = rng.choice(fin[fin != 0], 12)
    xs[0], ys[0] = mx, mx; xs[1], ys[1] = mn, mn
    X = xs.astype(t); Y = ys.astype(t)
    cx = w.v(); w.add("%s = stablehlo.constant dense<[%s]> : tensor<12x%s>" % (cx, hexcodes(X.view(np.uint8)), name))
    cy = w.v(); w.add("%s = stablehlo.constant dense<[%s]> : tensor<12x%s>" % (cy, hexcodes(Y.view(np.uint8)), name))
    xf, yf = X.astype(np.float32), Y.astype(np.float32)
    for op, fn in [("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply), ("divide", np.divide), ("maximum", np.maximum)]:
        want = fn(xf, yf).astype(np.float32).astype(t)
        if eight and np.isnan(want.astype(np.float32)).any():
            continue
        w.add("// %s: in f32, rounded once to %s" % (op, name))
        z = w.v(); w.add("%s = stablehlo.%s %s, %s : tensor<12x%s>" % (z, op, cx, cy, name))
        r, k = bitsof(z, want); expect_bits(r, k, want)
    # 4. compare and select (NaN where the type has one)
    w.add("// compare LT / EQ (a NaN is unordered) and select")
    cv = [1.0, -1.0, 0.0, mx, mn, 2.0]
    dv = [2.0, -1.0, -0.0, mx, 0.0, np.nan if eight and name != "f8E8M0FNU" else 1.0]
    if name == "f8E8M0FNU":
        cv = [1.0, 0.5, 2.0, mx, mn, 4.0]; dv = [2.0, 0.5, 1.0, mx, 0.25, np.nan]
    C = np.array(cv, np.float32).astype(t); D = np.array(dv, np.float32).astype(t)
    p = w.v(); w.add("%s = stablehlo.constant dense<[%s]> : tensor<6x%s>" % (p, hexcodes(C.view(np.uint8)), name))
    q = w.v(); w.add("%s = stablehlo.constant dense<[%s]> : tensor<6x%s>" % (q, hexcodes(D.view(np.uint8)), name))
    cf, df = C.astype(np.float32), D.astype(np.float32)
    for d, fn in [("LT", np.less), ("EQ", np.equal)]:
        o = w.v(); w.add("%s = stablehlo.compare  %s, %s, %s,  FLOAT : (tensor<6x%s>, tensor<6x%s>) -> tensor<6xi1>" % (o, d, p, q, name, name))
        w.add("check.expect_eq_const %s, dense<[%s]> : tensor<6xi1>" % (o, ", ".join("true" if v else "false" for v in fn(cf, df))))
        if d == "LT":
            s = w.v(); w.add("%s = stablehlo.select %s, %s, %s : tensor<6xi1>, tensor<6x%s>" % (s, o, p, q, name))
            want = np.where(np.less(cf, df), C, D)
            r, k = bitsof(s, want); expect_bits(r, k, want)
    # 5. convert to and from i32 (truncate and saturate; NaN -> 0)
    w.add("// %s -> i32 truncates toward zero; i32 -> %s rounds once" % (name, name))
    ci = w.v(); w.add("%s = stablehlo.convert %s : (tensor<12x%s>) -> tensor<12xi32>" % (ci, cx, name))
    def sat(v):
        if np.isnan(v): return 0
        return int(max(min(np.trunc(float(v)), 2**31 - 1), -2**31))
    w.add("check.expect_eq_const %s, dense<[%s]> : tensor<12xi32>" % (ci, ", ".join(str(sat(v)) for v in xf)))
    ints = np.array([0, 1, -1, 3, 7, -9, 17, 100, -300, 1000, 5000, 123456], np.int64)
    if name == "f8E8M0FNU": ints = np.abs(ints) + 1
    ii = w.v(); w.add("%s = stablehlo.constant dense<[%s]> : tensor<12xi32>" % (ii, codes(ints)))
    it_ = w.v(); w.add("%s = stablehlo.convert %s : (tensor<12xi32>) -> tensor<12x%s>" % (it_, ii, name))
    want = ints.astype(np.float64).astype(t)
    r, k = bitsof(it_, want); expect_bits(r, k, want)
    # 6. data movement on all codes
    w.add("// data movement: reshape, transpose, reverse, slice, concatenate, broadcast_in_dim")
    rows = N // 16 if N >= 16 else 4
    cols = N // rows
    m = w.v(); w.add("%s = stablehlo.reshape %s : (tensor<%dx%s>) -> tensor<%dx%dx%s>" % (m, c, N, name, rows, cols, name))
    tr = w.v(); w.add("%s = stablehlo.transpose %s, dims = [1, 0] : (tensor<%dx%dx%s>) -> tensor<%dx%dx%s>" % (tr, m, rows, cols, name, cols, rows, name))
    rv = w.v(); w.add("%s = stablehlo.reverse %s, dims = [0] : tensor<%dx%dx%s>" % (rv, tr, cols, rows, name))
    sl = w.v(); w.add("%s = stablehlo.slice %s [1:%d:2, 0:%d] : (tensor<%dx%dx%s>) -> tensor<%dx%dx%s>" % (sl, rv, cols, rows, cols, rows, name, (cols-1+1)//2, rows, name))
    fl = w.v(); ns = ((cols)//2) * rows
    w.add("%s = stablehlo.reshape %s : (tensor<%dx%dx%s>) -> tensor<%dx%s>" % (fl, sl, cols//2, rows, name, ns, name))
    bc = w.v(); w.add("%s = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<12x%s>) -> tensor<12x2x%s>" % (bc, cx, name, name))
    bf = w.v(); w.add("%s = stablehlo.reshape %s : (tensor<12x2x%s>) -> tensor<24x%s>" % (bf, bc, name, name))
    cc = w.v(); w.add("%s = stablehlo.concatenate %s, %s, dim = 0 : (tensor<%dx%s>, tensor<24x%s>) -> tensor<%dx%s>" % (cc, fl, bf, ns, name, name, ns + 24, name))
    codes_all = np.arange(N, dtype=np.uint8).view(t)
    mm = codes_all.reshape(rows, cols).T[::-1][1::2].reshape(-1)
    want = np.concatenate([mm, np.repeat(X, 2)])
    if eight:
        r = w.v(); w.add("%s = stablehlo.bitcast_convert %s : (tensor<%dx%s>) -> tensor<%dxui8>" % (r, cc, ns + 24, name, ns + 24))
        w.add("check.expect_eq_const %s, dense<[%s]> : tensor<%dxui8>" % (r, codes(want.view(np.uint8)), ns + 24))
    else:
        f = w.v(); w.add("%s = stablehlo.convert %s : (tensor<%dx%s>) -> tensor<%dxf32>" % (f, cc, ns + 24, name, ns + 24))
        r = w.v(); w.add("%s = stablehlo.bitcast_convert %s : (tensor<%dxf32>) -> tensor<%dxi32>" % (r, f, ns + 24, ns + 24))
        w.add("check.expect_eq_const %s, dense<[%s]> : tensor<%dxi32>" % (r, ", ".join(str(int(v)) for v in want.astype(np.float32).view(np.int32)), ns + 24))

def file(types, eight, header):
    w = W()
    for name, T in types:
        block(w, name, T, eight)
    return header + "func.func @main() {\n" + "\n".join(w.lines) + "\n  return\n}\n"

H8 = """// The f8 types (f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ, f8E4M3B11FNUZ,
// f8E4M3, f8E3M4, f8E8M0FNU): conversion from f32 on the edge values
// (largest finite value, ties and overflow beyond it: Inf for the IEEE-like
// types, NaN for FN and FNUZ, NaN for E8M0; the smallest subnormal and the
// ties below it; -0, which FNUZ types do not have; NaN), every code to f32,
// arithmetic in f32 rounded once, compare and select, conversion to and
// from i32, and the data movement ops. Results are checked bit for bit
// through bitcast_convert to ui8. Expected values: ml_dtypes 0.7.0 (numpy
// astype, f32 arithmetic then one rounding), generated by a script over
// each type's codes.
"""
H46 = """// The %s: no Inf and no NaN;
// overflow and Inf saturate to the largest finite value. Conversion from
// f32 on the edge values, every code to f32, arithmetic in f32 rounded
// once, compare and select, conversion to and from i32, data movement.
// Results are checked bit for bit as the f32 they widen to (bitcast to
// i32, so -0 counts). Expected values: ml_dtypes 0.7.0 (numpy astype, f32
// arithmetic then one rounding).
"""
open(sys.argv[1] + "/types_f8.mlir", "w").write(file(F8, True, H8))
open(sys.argv[1] + "/types_f6.mlir", "w").write(file(F6, False, H46 % "f6 types (f6E2M3FN, f6E3M2FN)"))
open(sys.argv[1] + "/types_f4.mlir", "w").write(file(F4, False, H46 % "f4 type f4E2M1FN"))
