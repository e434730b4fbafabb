# Writes batch_norm.mlir and batch_norm_quant.mlir: python3 batch_norm.py test/check/testdata
# Expected values of stablehlo.batch_norm_{inference,training,grad} from
# numpy over the spec's formulas, computed in float64 and rounded to the
# element type (not from Stela).
import numpy as np, sys
rng = np.random.default_rng(19)
def lit(a, t):
    a = np.asarray(a)
    fmt = (lambda v: repr(float(np.float32(v)))) if t == "f32" else (lambda v: repr(float(v)))
    def rec(x):
        if x.ndim == 0: return fmt(x)
        return "[" + ", ".join(rec(y) for y in x) + "]"
    return rec(a)
def ty(shape, t): return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), t)
def stats(x, fi):
    dims = tuple(d for d in range(x.ndim) if d != fi)
    return dims
def bc(v, fi, nd):
    shape = [1] * nd; shape[fi] = -1; return v.reshape(shape)
lines = ["// stablehlo.batch_norm_inference, batch_norm_training and batch_norm_grad",
         "// (rewritten by Module.LowerChlo into reductions and arithmetic). Expected",
         "// values from numpy over the spec's formulas in float64 (gen/batch_norm.py),",
         "// not from Stela.",
         "func.func @main() {"]
n = [0]
def v():
    n[0] += 1; return "%%v%d" % n[0]
def const(a, t):
    r = v(); lines.append("  %s = stablehlo.constant dense<%s> : %s" % (r, lit(a, t), ty(a.shape, t))); return r
def expect(r, a, t):
    lines.append("  check.expect_almost_eq_const %s, dense<%s> : %s" % (r, lit(a, t), ty(a.shape, t)))
for t, npt in [("f32", np.float32), ("f64", np.float64)]:
    for shape, fi, eps in [((2, 3, 4), 1, 1e-3), ((5, 2), 0, 0.25), ((3, 2, 2, 3), 3, 1e-5)]:
        C = shape[fi]; nd = len(shape)
        x = rng.uniform(-3, 3, shape).astype(npt).astype(np.float64)
        scale = rng.uniform(0.5, 2, C).astype(npt).astype(np.float64)
        offset = rng.uniform(-1, 1, C).astype(npt).astype(np.float64)
        mean = rng.uniform(-1, 1, C).astype(npt).astype(np.float64)
        var = rng.uniform(0.5, 2, C).astype(npt).astype(np.float64)
        gy = rng.uniform(-2, 2, shape).astype(npt).astype(np.float64)
        e = float(np.float32(eps))  # the attribute is f32
        dims = stats(x, fi)
        X, S, O, M, V, G = [const(a, t) for a in (x, scale, offset, mean, var, gy)]
        xt, ft = ty(shape, t), ty((C,), t)
        attrs = "{epsilon = %s : f32, feature_index = %d : i64}" % (repr(float(np.float32(eps))), fi)
        # inference
        out = bc(scale, fi, nd) * (x - bc(mean, fi, nd)) / np.sqrt(bc(var, fi, nd) + e) + bc(offset, fi, nd)
        r = v()
        lines.append('  %s = "stablehlo.batch_norm_inference"(%s, %s, %s, %s, %s) %s : (%s, %s, %s, %s, %s) -> %s' % (r, X, S, O, M, V, attrs, xt, ft, ft, ft, ft, xt))
        expect(r, out, t)
        # training
        bm = x.mean(axis=dims)
        bv = ((x - bc(bm, fi, nd)) ** 2).mean(axis=dims)
        out = bc(scale, fi, nd) * (x - bc(bm, fi, nd)) / np.sqrt(bc(bv, fi, nd) + e) + bc(offset, fi, nd)
        r = v()
        lines.append('  %s:3 = "stablehlo.batch_norm_training"(%s, %s, %s) %s : (%s, %s, %s) -> (%s, %s, %s)' % (r, X, S, O, attrs, xt, ft, ft, xt, ft, ft))
        expect(r + "#0", out, t); expect(r + "#1", bm, t); expect(r + "#2", bv, t)
        # grad (the spec's formulas, as XLA's BatchNormExpander)
        N = x.size / C
        c = x - bc(mean, fi, nd)
        ve = bc(var, fi, nd) + e
        sd = np.sqrt(ve)
        i6 = gy * N - bc(gy.sum(axis=dims), fi, nd) - bc((gy * c).sum(axis=dims), fi, nd) * c / ve
        gx = bc(scale, fi, nd) / sd / N * i6
        gs = (gy * c / sd).sum(axis=dims)
        go = gy.sum(axis=dims)
        r = v()
        lines.append('  %s:3 = "stablehlo.batch_norm_grad"(%s, %s, %s, %s, %s) %s : (%s, %s, %s, %s, %s) -> (%s, %s, %s)' % (r, X, S, M, V, G, attrs, xt, ft, ft, ft, xt, xt, ft, ft))
        expect(r + "#0", gx, t); expect(r + "#1", gs, t); expect(r + "#2", go, t)
lines.append("  func.return")
lines.append("}")
open(sys.argv[1] + "/batch_norm.mlir", "w").write("\n".join(lines) + "\n")

# batch_norm_quant.mlir: per-tensor quantized operands and results, the
# spec's dequantize-op-quantize: stored = clamp(round_half_even(v / scale) +
# zero_point). Values chosen away from rounding ties (checked below).
Q, QS, QZ = "!quant.uniform<i8:f32, 0.0625:-3>", 0.0625, -3
def quant(v):
    r = v / QS
    assert np.all(np.abs(np.abs(r - np.floor(r)) - 0.5) > 1e-3), "a rounding tie; pick another seed"
    return np.clip(np.round(r) + QZ, -128, 127).astype(np.int64)
def deq(q): return (q - QZ) * QS
rq = np.random.default_rng(7)
lines = ["// stablehlo.batch_norm_* on per-tensor quantized types: dequantize, the",
         "// float op, quantize (the spec). Expected stored integers from numpy over",
         "// the spec's formulas in float64 (gen/batch_norm.py), not from Stela.",
         "func.func @main() {"]
n[0] = 0
shape, fi, C = (4, 2), 1, 2
xt, ft = ty(shape, Q), ty((C,), Q)
def qconst(a):
    f = const(a, "f32"); r = v()
    lines.append("  %s = stablehlo.uniform_quantize %s : (%s) -> %s" % (r, f, ty(a.shape, "f32"), ty(a.shape, Q)))
    return r
def qexpect(r, a):
    s = v()
    lines.append("  %s = stablehlo.bitcast_convert %s : (%s) -> %s" % (s, r, ty(a.shape, Q), ty(a.shape, "i8")))
    lines.append("  check.expect_eq_const %s, dense<%s> : %s" % (s, lit(quant(a), "i8").replace(".0", ""), ty(a.shape, "i8")))
for attempt in range(100):
    x = deq(rq.integers(-40, 40, shape)); scale = deq(rq.integers(8, 30, C)); offset = deq(rq.integers(-10, 10, C))
    mean = deq(rq.integers(-10, 10, C)); var = deq(rq.integers(8, 30, C)); gy = deq(rq.integers(-20, 20, shape))
    e = float(np.float32(0.01)); dims = (0,); N = 4
    bm = x.mean(axis=dims); bv = ((x - bm) ** 2).mean(axis=dims)
    outs = [scale * (x - mean) / np.sqrt(var + e) + offset,
            scale * (x - bm) / np.sqrt(bv + e) + offset, bm, bv]
    c = x - mean; ve = var + e; sd = np.sqrt(ve)
    i6 = gy * N - gy.sum(axis=dims) - (gy * c).sum(axis=dims) * c / ve
    outs += [scale / sd / N * i6, (gy * c / sd).sum(axis=dims), gy.sum(axis=dims)]
    try:
        [quant(o) for o in outs] + [quant(a) for a in (x, scale, offset, mean, var, gy)]
        break
    except AssertionError:
        continue
X, S, O, M, V, G = [qconst(a) for a in (x, scale, offset, mean, var, gy)]
attrs = "{epsilon = %s : f32, feature_index = %d : i64}" % (repr(e), fi)
r = v()
lines.append('  %s = "stablehlo.batch_norm_inference"(%s, %s, %s, %s, %s) %s : (%s, %s, %s, %s, %s) -> %s' % (r, X, S, O, M, V, attrs, xt, ft, ft, ft, ft, xt))
qexpect(r, outs[0])
r = v()
lines.append('  %s:3 = "stablehlo.batch_norm_training"(%s, %s, %s) %s : (%s, %s, %s) -> (%s, %s, %s)' % (r, X, S, O, attrs, xt, ft, ft, xt, ft, ft))
qexpect(r + "#0", outs[1]); qexpect(r + "#1", outs[2]); qexpect(r + "#2", outs[3])
r = v()
lines.append('  %s:3 = "stablehlo.batch_norm_grad"(%s, %s, %s, %s, %s) %s : (%s, %s, %s, %s, %s) -> (%s, %s, %s)' % (r, X, S, M, V, G, attrs, xt, ft, ft, ft, xt, xt, ft, ft))
qexpect(r + "#0", outs[4]); qexpect(r + "#1", outs[5]); qexpect(r + "#2", outs[6])
lines.append("  func.return")
lines.append("}")
open(sys.argv[1] + "/batch_norm_quant.mlir", "w").write("\n".join(lines) + "\n")
