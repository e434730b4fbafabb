# Writes chlo_narrow_floats.mlir and reduce_precision_narrow.mlir:
#   PYTHONPATH=$STELA_JAXLIB_PYTHONPATH python3 chlo_narrow_floats.py test/check/testdata
# (numpy, scipy and ml_dtypes importable). The chlo math functions on the
# f8, f6 and f4 types are computed as on bf16 and f16: the operand widened
# to f32 (exactly), the function, the result rounded once to the type. The
# expected values here are the function in f64 (numpy, scipy), rounded to
# f32 and then to the type (ml_dtypes); an operand is used only where every
# value within 8 f32 ULP of the f64 result rounds to the same code, so that
# a last-bit difference of a libm cannot change the expected code.
# next_after's expectations walk the type's values (the neighbour of x
# towards y by value; from ±0 the smallest subnormal with y's sign; -0
# from the smallest negative subnormal where the type has -0, else +0).
# A NaN's sign is unspecified: expectations avoid NaN results but for
# next_after of a positive NaN.
# reduce_precision: widened to f32, reduced there (the spec's rounding of
# the f32 bits), encoded back with the type's rules; f8 results are checked
# as their bits, f6 and f4 as the f32 they widen to.
import numpy as np, ml_dtypes, scipy.special as sp, sys
np.seterr(all='ignore')
TYPES = [("f8E4M3FN","float8_e4m3fn"),("f8E5M2","float8_e5m2"),("f8E4M3FNUZ","float8_e4m3fnuz"),("f8E5M2FNUZ","float8_e5m2fnuz"),
         ("f8E4M3B11FNUZ","float8_e4m3b11fnuz"),("f8E4M3","float8_e4m3"),("f8E3M4","float8_e3m4"),("f8E8M0FNU","float8_e8m0fnu"),
         ("f6E2M3FN","float6_e2m3fn"),("f6E3M2FN","float6_e3m2fn"),("f4E2M1FN","float4_e2m1fn")]
UNARY = [
    ("tan", np.tan, [0.0, 0.5, -1.0, 1.5, 3.0]), ("sinh", np.sinh, [0.0, 0.5, -2.0, 3.0]), ("cosh", np.cosh, [0.0, 0.5, -2.0, 3.0]),
    ("asin", np.arcsin, [0.0, 0.5, -0.75, 1.0, 2.0]), ("acos", np.arccos, [0.0, 0.5, -0.75, 1.0]), ("atan", np.arctan, [0.0, 0.5, -3.0, 10.0]),
    ("asinh", np.arcsinh, [0.0, 0.5, -3.0, 10.0]), ("acosh", np.arccosh, [1.0, 1.5, 3.0, 10.0]), ("atanh", np.arctanh, [0.0, 0.5, -0.75, 1.0]),
    ("erfc", sp.erfc, [0.0, 0.5, -1.25, 2.0]), ("lgamma", sp.gammaln, [0.5, 3.0, 10.0, -2.5]), ("digamma", sp.digamma, [0.5, 1.0, 3.0, -2.5]),
    ("erf_inv", sp.erfinv, [0.0, 0.5, -0.75, 0.875, 1.0]), ("bessel_i1e", sp.i1e, [0.0, 0.5, -2.0, 4.0]),
    ("square", lambda x: x * x, [0.0, 1.5, -3.0, 10.0]),
]
def lines_for(name, T):
    t = getattr(ml_dtypes, T)
    eight = name.startswith("f8")
    nb = 256 if eight else (64 if name.startswith("f6") else 16)
    allv = np.arange(nb, dtype=np.uint8).view(t).astype(np.float64)
    out = []
    n = [0]
    def v():
        n[0] += 1; return "%%%s_%d" % (name, n[0])
    def const(vals):
        codes = np.asarray(vals, np.float64).astype(np.float32).astype(t).view(np.uint8)
        c = v(); out.append("%s = stablehlo.constant dense<[%s]> : tensor<%dx%s>" % (c, ", ".join("0x%02X" % int(k) for k in codes), len(codes), name))
        return c, codes
    def expect(r, codes):
        k = len(codes)
        if eight:
            b = v(); out.append("%s = stablehlo.bitcast_convert %s : (tensor<%dx%s>) -> tensor<%dxui8>" % (b, r, k, name, k))
            out.append("check.expect_eq_const %s, dense<[%s]> : tensor<%dxui8>" % (b, ", ".join(str(int(c)) for c in codes), k))
        else:
            f = v(); out.append("%s = stablehlo.convert %s : (tensor<%dx%s>) -> tensor<%dxf32>" % (f, r, k, name, k))
            b = v(); out.append("%s = stablehlo.bitcast_convert %s : (tensor<%dxf32>) -> tensor<%dxi32>" % (b, f, k, k))
            vals = np.asarray(codes, np.uint8).view(t).astype(np.float32).view(np.int32)
            out.append("check.expect_eq_const %s, dense<[%s]> : tensor<%dxi32>" % (b, ", ".join(str(int(x)) for x in vals), k))
    def rnd(y):  # f64 -> f32 -> t, None where a few f32 ULP could change it (or NaN: its sign is unspecified)
        y32 = np.float32(y)
        if np.isnan(y32):
            return None
        code = np.array([y32]).astype(t).view(np.uint8)[0]
        if np.isfinite(y32):
            for d in range(-8, 9):
                z = np.array([y32], np.float32).view(np.int32) + d
                if z.view(np.float32).astype(t).view(np.uint8)[0] != code:
                    return None
        return code
    for fn, f, xs in UNARY:
        xs = [x for x in xs if not np.isnan(np.float64(np.float32(x).astype(t).astype(np.float64)))]
        xs = [float(np.float32(x).astype(t).astype(np.float64)) for x in xs]
        good = []
        for x in xs:
            c = rnd(f(np.float64(x)))
            if c is not None and x not in [g[0] for g in good]:
                good.append((x, c))
        if not good:
            continue
        out.append("// chlo.%s: in f32, rounded once to %s" % (fn, name))
        cx, _ = const([g[0] for g in good])
        r = v(); out.append("%s = chlo.%s %s : tensor<%dx%s> -> tensor<%dx%s>" % (r, fn, cx, len(good), name, len(good), name))
        expect(r, [g[1] for g in good])
    # conj of a real number is itself; is_inf, is_pos_inf, is_neg_inf (false where the type has no Inf)
    fin = allv[np.isfinite(allv)]
    mx = fin.max()
    xs = [1.0, mx, -mx, np.inf, -np.inf, 0.5]
    cx, codes = const(xs)
    vals = codes.view(t).astype(np.float64)
    out.append("// chlo.conj, is_inf, is_pos_inf, is_neg_inf on %s (Inf and -Inf encode as the type does)" % name)
    r = v(); out.append("%s = chlo.conj %s : tensor<6x%s> -> tensor<6x%s>" % (r, cx, name, name))
    expect(r, codes)
    for fn, f in [("is_inf", np.isinf), ("is_pos_inf", lambda a: a == np.inf), ("is_neg_inf", lambda a: a == -np.inf)]:
        r = v(); out.append("%s = chlo.%s %s : tensor<6x%s> -> tensor<6xi1>" % (r, fn, cx, name))
        out.append("check.expect_eq_const %s, dense<[%s]> : tensor<6xi1>" % (r, ", ".join("true" if b else "false" for b in f(vals))))
    # next_after
    codes_all = np.arange(nb, dtype=np.uint8)
    has_negzero = any(c != 0 and allv[c] == 0 for c in range(nb))
    ordered = sorted(set(float(a) for a in allv if not np.isnan(a)))
    nan_codes = [c for c in range(nb) if np.isnan(allv[c])]
    def nextafter(xc, yc):
        x, y = allv[xc], allv[yc]
        if np.isnan(x) or np.isnan(y):
            return int(np.array([np.float32(np.nan)]).astype(t).view(np.uint8)[0])
        if x == y:
            return yc
        i = ordered.index(x)
        nv = ordered[i + 1] if y > x else ordered[i - 1]
        if nv == 0:
            if x < 0 and has_negzero:
                return [c for c in range(nb) if allv[c] == 0 and c != 0][0]
            return 0
        return [c for c in range(nb) if allv[c] == nv][0]
    pos = sorted(set(float(a) for a in fin if a > 0))
    tiny = pos[0]
    pairs = [(1.0, 2.0), (1.0, 0.5), (mx, np.inf), (mx, 0.0), (pos[1], -np.inf)]
    if name != "f8E8M0FNU":
        pairs += [(0.0, 1.0), (0.0, -1.0), (-0.0, 1.0), (-tiny, 0.0), (tiny, 0.0), (-1.0, -1.0), (-1.5, 3.0), (0.0, -0.0)]
    enc = lambda a: np.array([np.float32(a)]).astype(t).view(np.uint8)[0]
    pairs = [p for p in pairs if not np.isnan(allv[enc(p[0])]) and not np.isnan(allv[enc(p[1])])]
    if nan_codes:  # a positive NaN operand: the type's NaN (its sign is the operand's)
        pairs += [(np.nan, 1.0), (1.0, np.nan)]
    cx, xc = const([p[0] for p in pairs])
    cy, yc = const([p[1] for p in pairs])
    out.append("// chlo.next_after on %s: one step in the type's own values" % name)
    k = len(pairs)
    r = v(); out.append("%s = chlo.next_after %s, %s : tensor<%dx%s>, tensor<%dx%s> -> tensor<%dx%s>" % (r, cx, cy, k, name, k, name, k, name))
    expect(r, [nextafter(int(a), int(b)) for a, b in zip(xc, yc)])
    # zeta, polygamma (positive orders and arguments)
    zs = [(2.0, 1.0), (3.0, 2.0), (4.0, 0.5)]
    ps = [(1.0, 1.0), (2.0, 2.0), (1.0, 0.5)]
    for fn, pairs2, f in [("zeta", zs, sp.zeta), ("polygamma", ps, lambda n, x: sp.polygamma(int(n), x))]:
        good = [(a, b, rnd(f(a, b))) for a, b in pairs2 if np.float32(a).astype(t).astype(np.float64) == a and np.float32(b).astype(t).astype(np.float64) == b]
        good = [g for g in good if g[2] is not None]
        if not good:
            continue
        out.append("// chlo.%s on %s: in f32 (computed in f64), rounded once" % (fn, name))
        ca, _ = const([g[0] for g in good]); cb, _ = const([g[1] for g in good])
        k = len(good)
        r = v(); out.append("%s = chlo.%s %s, %s : tensor<%dx%s>, tensor<%dx%s> -> tensor<%dx%s>" % (r, fn, ca, cb, k, name, k, name, k, name))
        expect(r, [g[2] for g in good])
    # chlo.broadcast_next_after: a scalar-shaped operand against a vector
    if name != "f8E8M0FNU":
        out.append("// chlo.broadcast_next_after: tensor<1> towards each of tensor<3>")
        ca, xa = const([1.0]); cb, yb = const([2.0, 0.0, 1.0])
        r = v(); out.append("%s = chlo.broadcast_next_after %s, %s : (tensor<1x%s>, tensor<3x%s>) -> tensor<3x%s>" % (r, ca, cb, name, name, name))
        expect(r, [nextafter(int(xa[0]), int(b)) for b in yb])
    return out

def rp_f32(x, e, m):  # stablehlo.reduce_precision on f32 bits (the spec's rounding)
    u = int(np.array([x], np.float32).view(np.uint32)[0])
    expmask = 0xFF << 23
    isnan = (u & 0x7FFFFFFF) > expmask
    if m < 23:
        sh = 23 - m; last = 1 << sh
        u = ((u + (last >> 1) - 1 + ((u & last) >> sh)) & ~(last - 1)) & 0xFFFFFFFF
    if e < 8:
        bias = 127; rb = (1 << (e - 1)) - 1
        ex = u & expmask
        if ex > (bias + rb) << 23: u = (u & 0x80000000) | expmask
        elif ex <= (bias - rb) << 23: u &= 0x80000000
    if isnan:
        return x if m > 0 else np.float32(np.inf)
    return np.array([u], np.uint32).view(np.float32)[0]

def rp_lines(name, T):
    t = getattr(ml_dtypes, T)
    eight = name.startswith("f8")
    nb = 256 if eight else (64 if name.startswith("f6") else 16)
    out = []
    codes = np.arange(nb, dtype=np.uint8)
    vals = codes.view(t).astype(np.float32)
    c = "%%%s_all" % name
    out.append("%s = stablehlo.constant dense<[%s]> : tensor<%dx%s>" % (c, ", ".join("0x%02X" % k for k in codes), nb, name))
    for i, (e, m) in enumerate([(2, 1), (3, 0), (8, 1), (4, 2)]):
        want = np.array([rp_f32(x, e, m) for x in vals], np.float32).astype(t)
        out.append("// reduce_precision to e%dm%d of every %s code" % (e, m, name))
        r = "%%%s_r%d" % (name, i)
        out.append("%s = stablehlo.reduce_precision %s, format = e%dm%d : tensor<%dx%s>" % (r, c, e, m, nb, name))
        b = "%%%s_b%d" % (name, i)
        if eight:  # bit for bit (the NaN code too)
            out.append("%s = stablehlo.bitcast_convert %s : (tensor<%dx%s>) -> tensor<%dxui8>" % (b, r, nb, name, nb))
            out.append("check.expect_eq_const %s, dense<[%s]> : tensor<%dxui8>" % (b, ", ".join(str(int(x)) for x in want.view(np.uint8)), nb))
            continue
        f = "%%%s_f%d" % (name, i)
        out.append("%s = stablehlo.convert %s : (tensor<%dx%s>) -> tensor<%dxf32>" % (f, r, nb, name, nb))
        out.append("%s = stablehlo.bitcast_convert %s : (tensor<%dxf32>) -> tensor<%dxi32>" % (b, f, nb, nb))
        out.append("check.expect_eq_const %s, dense<[%s]> : tensor<%dxi32>" % (b, ", ".join(str(int(x)) for x in want.astype(np.float32).view(np.int32)), nb))
    return out

H = """// chlo's math functions on the f8, f6 and f4 types: the operand widened
// to f32, the function, the result rounded once to the type with its rules
// (as on bf16 and f16); next_after steps in the type's own values, is_inf
// is false where the type has no Inf. Results checked bit for bit (f8:
// bitcast to ui8; f6, f4: as the f32 they widen to). Expected values:
// numpy/scipy in f64, rounded to f32 then to the type (ml_dtypes 0.7.0),
// only where a few f32 ULP cannot change the result; generated by
// gen/chlo_narrow_floats.py.
"""
HR = """// stablehlo.reduce_precision on the f8, f6 and f4 types, every code: the
// value widened to f32, reduced there as the spec rounds (mantissa to
// nearest even, then exponent range: overflow to Inf, underflow to zero),
// and encoded back with the type's rules (Inf becomes NaN or the largest
// value where the type has no Inf). Expected values: the spec's rounding
// on the f32 bits, ml_dtypes 0.7.0 for the encoding; generated by
// gen/chlo_narrow_floats.py.
"""
body = []
for name, T in TYPES:
    body += lines_for(name, T)
open(sys.argv[1] + "/chlo_narrow_floats.mlir", "w").write(H + "func.func @main() {\n" + "\n".join("  " + l for l in body) + "\n  return\n}\n")
body = []
for name, T in TYPES:
    body += rp_lines(name, T)
open(sys.argv[1] + "/reduce_precision_narrow.mlir", "w").write(HR + "func.func @main() {\n" + "\n".join("  " + l for l in body) + "\n  return\n}\n")
