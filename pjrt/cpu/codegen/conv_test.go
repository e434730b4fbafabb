package codegen_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt/cpu/codegen"
	"github.com/stela-ml/stela/stablehlo"
)

// Convolution tests: random configurations (dimension numbers in every
// order, strides, padding including negative, lhs and rhs dilation,
// window reversal, feature and batch groups, empty windows and results)
// on every element type, compared with the reference evaluator.

// convCase is one convolution: its attribute and operand types.
type convCase struct {
	a    ir.ConvolutionAttr
	x, w ir.Type
}

func (c convCase) String() string {
	a := c.a
	return fmt.Sprintf("x%v w%v in[b%d f%d s%v] k[i%d o%d s%v] out[b%d f%d s%v] stride%v pad%v ldil%v rdil%v rev%v fgc%d bgc%d",
		c.x.Shape, c.w.Shape, a.InputBatchDim, a.InputFeatureDim, a.InputSpatialDims,
		a.KernelInputFeatureDim, a.KernelOutputFeatureDim, a.KernelSpatialDims,
		a.OutputBatchDim, a.OutputFeatureDim, a.OutputSpatialDims,
		a.WindowStrides, a.Padding, a.LhsDilation, a.RhsDilation, a.WindowReversal, a.FeatureGroupCount, a.BatchGroupCount)
}

// randConv makes a random valid convolution of element type d; wide
// ones have enough features per group for the GEMM form (f32, f64).
func randConv(r *rand.Rand, d ir.DType, wide bool) convCase {
	ns := []int{1, 1, 2, 2, 2, 2, 3}[r.IntN(7)]
	rank := ns + 2
	fgc, bgc := 1, 1
	switch r.IntN(8) {
	case 0, 1:
		fgc = 2 + r.IntN(2)
	case 2:
		bgc = 2 + r.IntN(2)
	}
	cg, og, bo := 1+r.IntN(3), 1+r.IntN(3), 1+r.IntN(2)
	if wide {
		cg, og = 2+r.IntN(5), 4+r.IntN(5)
	}
	if fgc > 1 && !wide && r.IntN(2) == 0 {
		cg = 1 // depthwise (channel multiplier og)
	}
	xp, wp, op := r.Perm(rank), r.Perm(rank), r.Perm(rank)
	a := ir.ConvolutionAttr{
		InputBatchDim: xp[0], InputFeatureDim: xp[1], InputSpatialDims: xp[2:],
		KernelInputFeatureDim: wp[0], KernelOutputFeatureDim: wp[1], KernelSpatialDims: wp[2:],
		OutputBatchDim: op[0], OutputFeatureDim: op[1], OutputSpatialDims: op[2:],
		FeatureGroupCount: fgc, BatchGroupCount: bgc,
	}
	xs, ws := make([]int, rank), make([]int, rank)
	xs[a.InputBatchDim], xs[a.InputFeatureDim] = bo*bgc, cg*fgc
	ws[a.KernelInputFeatureDim], ws[a.KernelOutputFeatureDim] = cg, og*max(fgc, bgc)
	small := ns == 3 // keep 3-d cases small
	for d := range ns {
		n, k := 1+r.IntN(6), 1+r.IntN(3)
		if small {
			n, k = 1+r.IntN(3), 1+r.IntN(2)
		}
		if r.IntN(20) == 0 {
			k = 0 // an empty window: the sums are 0
		}
		xs[a.InputSpatialDims[d]], ws[a.KernelSpatialDims[d]] = n, k
		a.WindowStrides = append(a.WindowStrides, 1+r.IntN(3))
		a.LhsDilation = append(a.LhsDilation, 1+r.IntN(2))
		a.RhsDilation = append(a.RhsDilation, 1+r.IntN(2))
		lo, hi := r.IntN(4)-1, r.IntN(4)-1
		if k == 0 {
			// ir.Eval counts one window where an empty window meets an
			// empty padded input; the spec and ir's shape rule count
			// none. Stay clear of that case.
			lo, hi = max(lo, 0), max(hi, 0)
		}
		a.Padding = append(a.Padding, [2]int{lo, hi})
		a.WindowReversal = append(a.WindowReversal, r.IntN(3) == 0)
	}
	return convCase{a: a, x: ir.TensorOf(d, xs...), w: ir.TensorOf(d, ws...)}
}

// exactData fills a literal of type t with values whose products and
// sums are exact in every element type (small integers), or with the
// full range of the type for integers (sums wrap on both sides alike).
func exactData(r *rand.Rand, t ir.Type, full bool) *ir.Literal {
	switch d := t.DType; {
	case d.IsBool():
		return randLiteral(r, t)
	case d.IsInteger() && full:
		return randLiteral(r, t)
	case d.IsInteger():
		return smallInts(r, t, -4, 4)
	case d.IsComplex():
		v := make([]complex128, t.NumElements())
		for i := range v {
			v[i] = complex(float64(r.IntN(7)-3), float64(r.IntN(7)-3))
		}
		return ir.LiteralFromComplex128s(t, v)
	}
	v := make([]float64, t.NumElements())
	for i := range v {
		v[i] = float64(r.IntN(9) - 4)
	}
	return ir.LiteralFromFloat64s(t, v)
}

// TestConvolutionDifferential compiles many random convolutions per
// element type in one module each and compares every result with the
// evaluator, bit for bit (the data make every sum exact for floats, in
// any order, so the GEMM form is held to bit-exactness too; integer data
// cover the whole range, so sums wrap).
func TestConvolutionDifferential(t *testing.T) {
	for seed, d := range dtypes {
		t.Run(d.String(), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(41, uint64(seed)))
			perType := 10 // (each case is 3-5 kernels to compile)
			if d != ir.F32 && d != ir.S32 {
				perType = 6
			}
			var cases []convCase
			var params []ir.Type
			for i := range perType {
				c := randConv(r, d, i%2 == 1)
				cases = append(cases, c)
				params = append(params, c.x, c.w)
			}
			b := newBuilder(t, "conv", params...)
			var outs []*ir.Value
			var names []checked
			for i, c := range cases {
				v, err := b.f.Emit1(ir.UnknownLoc, ir.OpConvolution, []*ir.Value{b.f.Params[2*i], b.f.Params[2*i+1]}, c.a)
				if err != nil {
					t.Fatalf("case %d %v: %v", i, c, err)
				}
				outs = append(outs, v)
				names = append(names, checked{fmt.Sprintf("case %d: %v", i, c), -1})
			}
			b.f.Return(outs...)
			var args []*ir.Literal
			for i, p := range params {
				args = append(args, exactData(r, p, i%4 == 0))
			}
			evalAndCompare(t, b.f, names, args...)
		})
	}
}

// TestConvolutionLayers runs the convolutions of real networks as JAX
// and PyTorch lower them: NHWC/HWIO and NCHW/OIHW 3×3 layers with
// padding, a strided 1×1, a depthwise layer (feature groups = channels),
// and the two gradients of a strided layer (input: lhs dilation and
// reversed kernel; kernel: batch groups... as JAX writes them), in f32
// and f64 with real-valued data. The float results are compared within
// a bound on the rounding error of any summation order,
// |got - want| <= K·2^-p·Σ|x·w|, so that the GEMM path (which sums in the
// element type, in its own order) is held to the same test.
func TestConvolutionLayers(t *testing.T) {
	nhwc := ir.ConvolutionAttr{InputBatchDim: 0, InputFeatureDim: 3, InputSpatialDims: []int{1, 2},
		KernelInputFeatureDim: 2, KernelOutputFeatureDim: 3, KernelSpatialDims: []int{0, 1},
		OutputBatchDim: 0, OutputFeatureDim: 3, OutputSpatialDims: []int{1, 2},
		FeatureGroupCount: 1, BatchGroupCount: 1}
	nchw := ir.ConvolutionAttr{InputBatchDim: 0, InputFeatureDim: 1, InputSpatialDims: []int{2, 3},
		KernelInputFeatureDim: 1, KernelOutputFeatureDim: 0, KernelSpatialDims: []int{2, 3},
		OutputBatchDim: 0, OutputFeatureDim: 1, OutputSpatialDims: []int{2, 3},
		FeatureGroupCount: 1, BatchGroupCount: 1}
	with := func(a ir.ConvolutionAttr, f func(*ir.ConvolutionAttr)) ir.ConvolutionAttr {
		f(&a)
		return a
	}
	type layer struct {
		name string
		a    ir.ConvolutionAttr
		x, w []int
	}
	layers := []layer{
		{"nhwc 3x3 pad 1", with(nhwc, func(a *ir.ConvolutionAttr) { a.Padding = [][2]int{{1, 1}, {1, 1}} }), []int{2, 9, 10, 16}, []int{3, 3, 16, 24}},
		{"nhwc 3x3 stride 2", with(nhwc, func(a *ir.ConvolutionAttr) {
			a.Padding, a.WindowStrides = [][2]int{{1, 1}, {0, 1}}, []int{2, 2}
		}), []int{3, 11, 8, 5}, []int{3, 3, 5, 7}},
		{"nchw 3x3 pad 1", with(nchw, func(a *ir.ConvolutionAttr) { a.Padding = [][2]int{{1, 1}, {1, 1}} }), []int{2, 6, 7, 9}, []int{10, 6, 3, 3}},
		{"nhwc 1x1 stride 2", with(nhwc, func(a *ir.ConvolutionAttr) { a.WindowStrides = []int{2, 2} }), []int{2, 7, 7, 12}, []int{1, 1, 12, 20}},
		{"nhwc depthwise", with(nhwc, func(a *ir.ConvolutionAttr) {
			a.Padding, a.FeatureGroupCount = [][2]int{{1, 1}, {1, 1}}, 8
		}), []int{2, 6, 6, 8}, []int{3, 3, 1, 16}},
		{"nhwc input gradient", with(nhwc, func(a *ir.ConvolutionAttr) {
			a.Padding, a.LhsDilation, a.WindowReversal = [][2]int{{1, 2}, {1, 2}}, []int{2, 2}, []bool{true, true}
		}), []int{2, 4, 4, 6}, []int{3, 3, 6, 5}},
		{"kernel gradient (batch groups)", ir.ConvolutionAttr{InputBatchDim: 3, InputFeatureDim: 0, InputSpatialDims: []int{1, 2},
			KernelInputFeatureDim: 0, KernelOutputFeatureDim: 3, KernelSpatialDims: []int{1, 2},
			OutputBatchDim: 2, OutputFeatureDim: 3, OutputSpatialDims: []int{0, 1},
			Padding: [][2]int{{1, 1}, {1, 1}}, FeatureGroupCount: 1, BatchGroupCount: 4}, []int{3, 6, 6, 8}, []int{3, 6, 6, 12}},
		// 576 result rows in im2col tiles of 455 (f32) or 256 (f64) rows
		// of 1152: several tiles, the last one partial.
		{"nhwc many tiles", with(nhwc, func(a *ir.ConvolutionAttr) { a.Padding = [][2]int{{1, 1}, {0, 0}} }), []int{2, 16, 20, 128}, []int{3, 3, 128, 4}},
		{"nhwc feature groups", with(nhwc, func(a *ir.ConvolutionAttr) {
			a.Padding, a.FeatureGroupCount, a.RhsDilation = [][2]int{{2, 2}, {2, 2}}, 2, []int{2, 2}
		}), []int{2, 7, 6, 16}, []int{3, 3, 8, 12}},
		{"batch groups", with(nchw, func(a *ir.ConvolutionAttr) { a.BatchGroupCount = 2 }), []int{4, 5, 6, 6}, []int{10, 5, 2, 3}},
		{"1-d causal", ir.ConvolutionAttr{InputBatchDim: 0, InputFeatureDim: 2, InputSpatialDims: []int{1},
			KernelInputFeatureDim: 1, KernelOutputFeatureDim: 2, KernelSpatialDims: []int{0},
			OutputBatchDim: 0, OutputFeatureDim: 2, OutputSpatialDims: []int{1},
			Padding: [][2]int{{4, 0}}, RhsDilation: []int{2}, FeatureGroupCount: 1, BatchGroupCount: 1}, []int{2, 17, 6}, []int{3, 6, 4}},
	}
	for _, d := range []ir.DType{ir.F32, ir.F64} {
		layers := layers
		if d == ir.F64 {
			// dgemm: a few layers suffice (the f32 ones cover the rest).
			layers = []layer{layers[2], layers[7]}
		}
		t.Run(d.String(), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(7, uint64(d)))
			var params []ir.Type
			for _, l := range layers {
				params = append(params, ir.TensorOf(d, l.x...), ir.TensorOf(d, l.w...))
			}
			b := newBuilder(t, "layers", params...)
			var outs []*ir.Value
			for i, l := range layers {
				outs = append(outs, b.emit(ir.OpConvolution, l.a, b.f.Params[2*i], b.f.Params[2*i+1]))
			}
			b.f.Return(outs...)
			var args, abs []*ir.Literal
			for _, p := range params {
				v := make([]float64, p.NumElements())
				a := make([]float64, len(v))
				for i := range v {
					v[i] = r.NormFloat64()
					if d == ir.F32 {
						v[i] = float64(float32(v[i]))
					}
					a[i] = math.Abs(v[i])
				}
				args = append(args, ir.LiteralFromFloat64s(p, v))
				abs = append(abs, ir.LiteralFromFloat64s(p, a))
			}
			want, err := ir.Eval(b.f, args...)
			if err != nil {
				t.Fatal(err)
			}
			mag, err := ir.Eval(b.f, abs...)
			if err != nil {
				t.Fatal(err)
			}
			p := compile(t, lowerText(t, b.f))
			got, rc, msg := p.run(t, args...)
			if rc != 0 {
				t.Fatalf("stela_entry returned %d: %s", rc, msg)
			}
			eps := math.Ldexp(1, -24)
			if d == ir.F64 {
				eps = math.Ldexp(1, -53)
			}
			for i, l := range layers {
				K := 1 // the length of each sum: all but the output features
				for _, s := range l.w {
					K *= s
				}
				K /= l.w[l.a.KernelOutputFeatureDim]
				g, w, m := got[i].Float64s(), want[i].Float64s(), mag[i].Float64s()
				bad := 0
				for j := range w {
					if tol := float64(K+2) * eps * m[j]; math.Abs(g[j]-w[j]) > tol {
						if bad++; bad <= 3 {
							t.Errorf("%s: element %d: got %v, want %v (tolerance %g)", l.name, j, g[j], w[j], tol)
						}
					}
				}
			}
		})
	}
}

// TestWindowPlanErrors: malformed convolutions and windows are errors
// that name the op and the problem; mixed element types are unsupported.
func TestWindowPlanErrors(t *testing.T) {
	conv := func(attrs, types string) string {
		return `func.func @main(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {` + attrs + `} ` + types + `
  return %0 : tensor<1x2x2x4xf32>
}`
	}
	std := `{batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>`
	cases := []struct {
		src, want   string
		unsupported bool
	}{
		{conv("stride = [0, 1]", std), "stablehlo.convolution in @main: window strides [0 1] and dilations [1 1], [1 1] must be positive", false},
		{conv("pad = [[1, 1], [1, 1]]", std), "stablehlo.convolution in @main: result tensor<1x2x2x4xf32>, want shape [1 4 4 4]", false},
		{conv("", `{batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>`),
			"stablehlo.convolution in @main: input features 2, kernel features 2 -> 4 and batch 1 do not fit the group counts (2, 1)", false},
		{`func.func @main(%x: tensor<1x4x4x2xi32>, %w: tensor<3x3x2x4xi32>) -> tensor<1x2x2x4xi8> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xi32>, tensor<3x3x2x4xi32>) -> tensor<1x2x2x4xi8>
  return %0 : tensor<1x2x2x4xi8>
}`, "unsupported: convolution of i32 and i32 into i8 (mixed element types)", true},
		{`func.func @main(%x: tensor<4xf32>) -> tensor<2xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 1>} : (tensor<4xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}`, "stablehlo.reduce_window in @main: input tensor<4xf32>, init tensor<f32> and result tensor<2xf32> do not fit (want result shape [3])", false},
		{`func.func @main(%x: tensor<4xf32>, %s: tensor<2xf32>) -> tensor<4xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.select_and_scatter"(%x, %s, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}`, "stablehlo.select_and_scatter in @main: select region: result #0 has element type f32, want i1", false},
	}
	for i, c := range cases {
		m, err := stablehlo.Parse([]byte(c.src))
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		_, err = codegen.Plan(m, codegen.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) || codegen.IsUnsupported(err) != c.unsupported {
			t.Errorf("case %d: error %v (unsupported %v), want %q (unsupported %v)", i, err, codegen.IsUnsupported(err), c.want, c.unsupported)
		}
	}
}
