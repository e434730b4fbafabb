package ir

import (
	"math"
	"testing"
)

// ---- dot_general ----

func sxDotAttr(lb, rb, lc, rc []int) DotGeneralAttr {
	if lb == nil {
		lb, rb = []int{}, []int{}
	}
	return DotGeneralAttr{LhsBatch: lb, RhsBatch: rb, LhsContract: lc, RhsContract: rc}
}

func TestEvalDotGeneralMatmul(t *testing.T) {
	// [[1,2,3],[4,5,6]] · [[7,8],[9,10],[11,12]] = [[58,64],[139,154]].
	for _, dt := range []DType{S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128} {
		t.Run(dt.String(), func(t *testing.T) {
			a := sxNums(dt, sxShape(2, 3), 1, 2, 3, 4, 5, 6)
			b := sxNums(dt, sxShape(3, 2), 7, 8, 9, 10, 11, 12)
			got := sxRun1(t, OpDotGeneral, sxDotAttr(nil, nil, []int{1}, []int{0}), TensorOf(dt, 2, 2), a, b)
			sxExpect(t, got, sxNums(dt, sxShape(2, 2), 58, 64, 139, 154))
		})
	}
}

// sxTestData is n deterministic small integers (exact in every float type
// used here), in [-4, 4].
func sxTestData(n, seed int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = float64((i*7+seed*3)%9 - 4)
	}
	return out
}

func TestEvalDotGeneralAgainstLoops(t *testing.T) {
	t.Run("matmul", func(t *testing.T) {
		x, y := sxTestData(12, 1), sxTestData(20, 2)
		var want []float64
		for i := range 3 {
			for j := range 5 {
				s := 0.0
				for k := range 4 {
					s += x[i*4+k] * y[k*5+j]
				}
				want = append(want, s)
			}
		}
		got := sxRun1(t, OpDotGeneral, sxDotAttr(nil, nil, []int{1}, []int{0}), TensorOf(F64, 3, 5),
			sxNums(F64, sxShape(3, 4), x...), sxNums(F64, sxShape(4, 5), y...))
		sxExpect(t, got, sxNums(F64, sxShape(3, 5), want...))
	})
	t.Run("batch dims and contracting dims anywhere", func(t *testing.T) {
		// lhs[b,k,m] (2x3x4), rhs[n,k,b] (5x3x2): result[b,m,n] = Σk lhs[b,k,m]·rhs[n,k,b].
		x, y := sxTestData(24, 3), sxTestData(30, 4)
		var want []float64
		for b := range 2 {
			for m := range 4 {
				for n := range 5 {
					s := 0.0
					for k := range 3 {
						s += x[b*12+k*4+m] * y[n*6+k*2+b]
					}
					want = append(want, s)
				}
			}
		}
		for _, dt := range []DType{S32, F32, F64} {
			got := sxRun1(t, OpDotGeneral, sxDotAttr([]int{0}, []int{2}, []int{1}, []int{1}), TensorOf(dt, 2, 4, 5),
				sxNums(dt, sxShape(2, 3, 4), x...), sxNums(dt, sxShape(5, 3, 2), y...))
			sxExpect(t, got, sxNums(dt, sxShape(2, 4, 5), want...))
		}
	})
	t.Run("two contracting dims in swapped order", func(t *testing.T) {
		// lhs[i,j,k] (2x3x4), rhs[k,j] (4x3): result[i] = Σj,k lhs[i,j,k]·rhs[k,j].
		x, y := sxTestData(24, 5), sxTestData(12, 6)
		var want []float64
		for i := range 2 {
			s := 0.0
			for j := range 3 {
				for k := range 4 {
					s += x[i*12+j*4+k] * y[k*3+j]
				}
			}
			want = append(want, s)
		}
		got := sxRun1(t, OpDotGeneral, sxDotAttr(nil, nil, []int{1, 2}, []int{1, 0}), TensorOf(F64, 2),
			sxNums(F64, sxShape(2, 3, 4), x...), sxNums(F64, sxShape(4, 3), y...))
		sxExpect(t, got, sxNums(F64, sxShape(2), want...))
	})
	t.Run("outer product", func(t *testing.T) {
		got := sxRun1(t, OpDotGeneral, sxDotAttr(nil, nil, []int{}, []int{}), TensorOf(S32, 2, 3),
			sxNums(S32, sxShape(2), 2, -3), sxNums(S32, sxShape(3), 1, 10, 100))
		sxExpect(t, got, sxNums(S32, sxShape(2, 3), 2, 20, 200, -3, -30, -300))
	})
	t.Run("batch only", func(t *testing.T) {
		got := sxRun1(t, OpDotGeneral, sxDotAttr([]int{0}, []int{0}, []int{}, []int{}), TensorOf(F32, 3),
			sxNums(F32, sxShape(3), 1, 2, 3), sxNums(F32, sxShape(3), 4, 5, 6))
		sxExpect(t, got, sxNums(F32, sxShape(3), 4, 10, 18))
	})
}

func TestEvalDotGeneralElementTypes(t *testing.T) {
	dot1 := func(t *testing.T, x, y, want *Literal) {
		t.Helper()
		got := sxRun1(t, OpDotGeneral, sxDotAttr(nil, nil, []int{0}, []int{0}), want.Type, x, y)
		sxExpect(t, got, want)
	}
	t.Run("si8 wraps", func(t *testing.T) {
		dot1(t, sxNums(S8, sxShape(2), 100, 100), sxNums(S8, sxShape(2), 2, 1), sxScalarLit(S8, 300-256))
	})
	t.Run("ui8 wraps", func(t *testing.T) {
		dot1(t, sxNums(U8, sxShape(1), 200), sxNums(U8, sxShape(1), 2), sxScalarLit(U8, 400-256))
	})
	t.Run("si32 wraps", func(t *testing.T) {
		dot1(t, sxNums(S32, sxShape(4), 1<<30, 1<<30, 1<<30, 3), sxNums(S32, sxShape(4), 1, 1, 1, 1), sxScalarLit(S32, -(1<<30)+3))
	})
	t.Run("si64 wraps", func(t *testing.T) {
		x := MustLiteral(TensorOf(S64, 1), []int64{math.MaxInt64})
		dot1(t, x, sxNums(S64, sxShape(1), 2), sxScalarLit(S64, -2))
	})
	t.Run("ui64 wraps", func(t *testing.T) {
		x := MustLiteral(TensorOf(U64, 2), []uint64{1 << 63, 5})
		dot1(t, x, MustLiteral(TensorOf(U64, 2), []uint64{2, 3}), MustLiteral(Scalar(U64), []uint64{15}))
	})
	t.Run("i1 is or of ands", func(t *testing.T) {
		a := MustLiteral(TensorOf(Bool, 2, 2), []bool{true, false, false, false})
		b := MustLiteral(TensorOf(Bool, 2, 2), []bool{true, true, false, true})
		got := sxRun1(t, OpDotGeneral, sxDotAttr(nil, nil, []int{1}, []int{0}), TensorOf(Bool, 2, 2), a, b)
		sxExpect(t, got, MustLiteral(TensorOf(Bool, 2, 2), []bool{true, true, false, false}))
		none := MustLiteral(TensorOf(Bool, 2), []bool{true, false})
		dot1(t, none, MustLiteral(TensorOf(Bool, 2), []bool{false, true}), MustLiteral(Scalar(Bool), []bool{false}))
	})
	t.Run("f16 accumulates wide and rounds once", func(t *testing.T) {
		// Summed in f16 step by step, 2048+1 rounds back to 2048 twice;
		// the exact sum 2050 is an f16 value.
		dot1(t, sxNums(F16, sxShape(3), 2048, 1, 1), sxNums(F16, sxShape(3), 1, 1, 1), sxScalarLit(F16, 2050))
	})
	t.Run("bf16 accumulates wide and rounds once", func(t *testing.T) {
		dot1(t, sxNums(BF16, sxShape(3), 256, 1, 1), sxNums(BF16, sxShape(3), 1, 1, 1), sxScalarLit(BF16, 258))
	})
	t.Run("f16 rounds once, not through f32", func(t *testing.T) {
		// The exact sum 1 + 2^-11 + 2^-24 lies just above the midpoint of
		// 1 and 1 + 2^-10. Through f32 it would first land on the midpoint
		// 1 + 2^-11, then tie to even down to 1.
		x := sxNums(F16, sxShape(3), 1, math.Ldexp(1, -11), math.Ldexp(1, -24))
		dot1(t, x, sxNums(F16, sxShape(3), 1, 1, 1), sxScalarLit(F16, 1+math.Ldexp(1, -10)))
	})
	t.Run("bf16 rounds once, not through f32", func(t *testing.T) {
		x := sxNums(BF16, sxShape(3), 1, math.Ldexp(1, -8), math.Ldexp(1, -24))
		dot1(t, x, sxNums(BF16, sxShape(3), 1, 1, 1), sxScalarLit(BF16, 1+math.Ldexp(1, -7)))
	})
	t.Run("f32 accumulates in f64", func(t *testing.T) {
		// 2^24 + 1 + 1: f32 steps lose both ones; the exact sum is an f32 value.
		dot1(t, sxNums(F32, sxShape(3), 1<<24, 1, 1), sxNums(F32, sxShape(3), 1, 1, 1), sxScalarLit(F32, 1<<24+2))
	})
	for _, dt := range []DType{C64, C128} {
		t.Run(dt.String(), func(t *testing.T) {
			// (1+2i)(1-i) + 3·2i = 3+i + 6i = 3+7i.
			x, y, want := Zeros(TensorOf(dt, 2)), Zeros(TensorOf(dt, 2)), Zeros(Scalar(dt))
			set := func(l *Literal, i int, v complex128) {
				if dt == C64 {
					l.SetElem(i, complex64(v))
				} else {
					l.SetElem(i, v)
				}
			}
			set(x, 0, 1+2i)
			set(x, 1, 3)
			set(y, 0, 1-1i)
			set(y, 1, 2i)
			set(want, 0, 3+7i)
			dot1(t, x, y, want)
		})
	}
	t.Run("zero-size contracting dim", func(t *testing.T) {
		got := sxRun1(t, OpDotGeneral, sxDotAttr(nil, nil, []int{1}, []int{0}), TensorOf(F32, 2, 3),
			Zeros(TensorOf(F32, 2, 0)), Zeros(TensorOf(F32, 0, 3)))
		sxExpect(t, got, Zeros(TensorOf(F32, 2, 3)))
	})
	err := sxRawErr(OpDotGeneral, sxDotAttr(nil, nil, []int{1}, []int{0}), []Type{TensorOf(F32, 2, 2)},
		[]*Literal{Zeros(TensorOf(F32, 2, 3)), Zeros(TensorOf(F32, 2, 2))})
	sxWantErr(t, err, "contracting dimension sizes differ")
}

// ---- convolution ----

// sxConv1D is the dimension numbering [batch, width, feature] for input,
// kernel [width, in, out] and output [batch, width, feature].
func sxConv1D() ConvolutionAttr {
	return ConvolutionAttr{
		InputBatchDim: 0, InputFeatureDim: 2, InputSpatialDims: []int{1},
		KernelInputFeatureDim: 1, KernelOutputFeatureDim: 2, KernelSpatialDims: []int{0},
		OutputBatchDim: 0, OutputFeatureDim: 2, OutputSpatialDims: []int{1},
		FeatureGroupCount: 1, BatchGroupCount: 1,
	}
}

func TestEvalConvolution1DByHand(t *testing.T) {
	// Input 1,2,3,4,5 and kernel 1,0,-1: without flips, out[j] = x[j] - x[j+2].
	cases := []struct {
		name string
		set  func(*ConvolutionAttr)
		want []float64
	}{
		{"valid", func(*ConvolutionAttr) {}, []float64{-2, -2, -2}},
		{"window reversal", func(a *ConvolutionAttr) { a.WindowReversal = []bool{true} }, []float64{2, 2, 2}},
		// Dilated input 1,0,2,0,3,0,4,0,5.
		{"lhs dilation", func(a *ConvolutionAttr) { a.LhsDilation = []int{2} }, []float64{-1, 0, -1, 0, -1, 0, -1}},
		// Kernel taps at 0, 2, 4: 1·x0 + 0·x2 - 1·x4.
		{"rhs dilation", func(a *ConvolutionAttr) { a.RhsDilation = []int{2} }, []float64{-4}},
		// Padded input 0,1,2,3,4,5,0.
		{"padding", func(a *ConvolutionAttr) { a.Padding = [][2]int{{1, 1}} }, []float64{-2, -2, -2, -2, 4}},
		// Cropped input 2,3,4,5.
		{"negative padding", func(a *ConvolutionAttr) { a.Padding = [][2]int{{-1, 0}} }, []float64{-2, -2}},
		{"stride", func(a *ConvolutionAttr) { a.WindowStrides = []int{2} }, []float64{-2, -2}},
		// Padded dilated input 0,0,1,0,2,0,3,0,4,0,5,0,0; reversed
		// dilated kernel -1,_,0,_,1; stride 2: out[j] = p[2j+4] - p[2j].
		{"everything", func(a *ConvolutionAttr) {
			a.LhsDilation, a.RhsDilation, a.WindowStrides = []int{2}, []int{2}, []int{2}
			a.Padding, a.WindowReversal = [][2]int{{2, 2}}, []bool{true}
		}, []float64{2, 2, 2, 2, -4}},
	}
	for _, dt := range []DType{S8, S32, S64, U8, U32, F16, BF16, F32, F64, C64, C128} {
		for _, c := range cases {
			t.Run(dt.String()+"/"+c.name, func(t *testing.T) {
				a := sxConv1D()
				c.set(&a)
				x := sxNums(dt, sxShape(1, 5, 1), 1, 2, 3, 4, 5)
				k := sxNums(dt, sxShape(3, 1, 1), 1, 0, -1)
				want := sxNums(dt, sxShape(1, len(c.want), 1), c.want...)
				got := sxRun1(t, OpConvolution, a, want.Type, x, k)
				sxExpect(t, got, want)
			})
		}
	}
}

// sxConvCase describes a 2-D NHWC × HWIO convolution for the naive oracle.
type sxConvCase struct {
	name     string
	x        [4]int // N, H, W, C
	k        [4]int // KH, KW, I, O
	stride   [2]int
	lhsDil   [2]int
	rhsDil   [2]int
	pad      [2][2]int
	fgc, bgc int
}

// sxNaiveConv2D computes the convolution the long way round: it
// materializes the dilated and padded input (negative padding crops), then
// runs a plain loop nest over output, window and input features. Groups
// are explicit: output feature o reads input features of feature group
// o/(O/fgc) and the batch slice of batch group o/(O/bgc).
func sxNaiveConv2D(c sxConvCase, x, k []float64) ([]float64, [4]int) {
	N, H, W, C := c.x[0], c.x[1], c.x[2], c.x[3]
	KH, KW, I, O := c.k[0], c.k[1], c.k[2], c.k[3]
	dil := func(n, d int) int {
		if n == 0 {
			return 0
		}
		return (n-1)*d + 1
	}
	HP := c.pad[0][0] + dil(H, c.lhsDil[0]) + c.pad[0][1]
	WP := c.pad[1][0] + dil(W, c.lhsDil[1]) + c.pad[1][1]
	P := make([]float64, N*HP*WP*C)
	for n := range N {
		for h := range H {
			for w := range W {
				hp, wp := c.pad[0][0]+h*c.lhsDil[0], c.pad[1][0]+w*c.lhsDil[1]
				if hp < 0 || hp >= HP || wp < 0 || wp >= WP {
					continue
				}
				for ch := range C {
					P[((n*HP+hp)*WP+wp)*C+ch] = x[((n*H+h)*W+w)*C+ch]
				}
			}
		}
	}
	OH := (HP-dil(KH, c.rhsDil[0]))/c.stride[0] + 1
	OW := (WP-dil(KW, c.rhsDil[1]))/c.stride[1] + 1
	ON := N / c.bgc
	out := make([]float64, 0, ON*OH*OW*O)
	for n := range ON {
		for oh := range OH {
			for ow := range OW {
				for o := range O {
					g, bg := o/(O/c.fgc), o/(O/c.bgc)
					s := 0.0
					for kh := range KH {
						for kw := range KW {
							for i := range I {
								hp, wp := oh*c.stride[0]+kh*c.rhsDil[0], ow*c.stride[1]+kw*c.rhsDil[1]
								s += P[(((bg*ON+n)*HP+hp)*WP+wp)*C+g*I+i] * k[((kh*KW+kw)*I+i)*O+o]
							}
						}
					}
					out = append(out, s)
				}
			}
		}
	}
	return out, [4]int{ON, OH, OW, O}
}

func sxConvCases() []sxConvCase {
	one := [2]int{1, 1}
	return []sxConvCase{
		{name: "plain", x: [4]int{2, 5, 4, 3}, k: [4]int{3, 2, 3, 2}, stride: one, lhsDil: one, rhsDil: one, fgc: 1, bgc: 1},
		{name: "strides and padding", x: [4]int{2, 5, 4, 3}, k: [4]int{3, 2, 3, 2}, stride: [2]int{2, 1}, lhsDil: one, rhsDil: one,
			pad: [2][2]int{{1, 1}, {0, 2}}, fgc: 1, bgc: 1},
		{name: "dilations", x: [4]int{1, 4, 5, 2}, k: [4]int{2, 2, 2, 3}, stride: one, lhsDil: [2]int{2, 1}, rhsDil: [2]int{1, 2},
			pad: [2][2]int{{1, 0}, {1, 1}}, fgc: 1, bgc: 1},
		{name: "negative padding", x: [4]int{1, 6, 5, 1}, k: [4]int{2, 2, 1, 1}, stride: [2]int{1, 2}, lhsDil: one, rhsDil: one,
			pad: [2][2]int{{-1, -2}, {-1, 1}}, fgc: 1, bgc: 1},
		{name: "feature groups", x: [4]int{2, 4, 4, 4}, k: [4]int{2, 2, 2, 6}, stride: one, lhsDil: one, rhsDil: one, fgc: 2, bgc: 1},
		{name: "depthwise", x: [4]int{1, 4, 3, 3}, k: [4]int{2, 2, 1, 3}, stride: one, lhsDil: one, rhsDil: one,
			pad: [2][2]int{{1, 0}, {0, 0}}, fgc: 3, bgc: 1},
		{name: "batch groups", x: [4]int{4, 4, 3, 2}, k: [4]int{2, 2, 2, 4}, stride: one, lhsDil: one, rhsDil: one, fgc: 1, bgc: 2},
		{name: "batch groups equal to output features", x: [4]int{3, 3, 3, 2}, k: [4]int{2, 1, 2, 3}, stride: [2]int{2, 1},
			lhsDil: one, rhsDil: one, fgc: 1, bgc: 3},
		{name: "empty batch", x: [4]int{0, 3, 3, 1}, k: [4]int{2, 2, 1, 1}, stride: one, lhsDil: one, rhsDil: one, fgc: 1, bgc: 1},
	}
}

func (c sxConvCase) attr() ConvolutionAttr {
	return ConvolutionAttr{
		WindowStrides: c.stride[:], LhsDilation: c.lhsDil[:], RhsDilation: c.rhsDil[:],
		Padding:       [][2]int{c.pad[0], c.pad[1]},
		InputBatchDim: 0, InputSpatialDims: []int{1, 2}, InputFeatureDim: 3,
		KernelSpatialDims: []int{0, 1}, KernelInputFeatureDim: 2, KernelOutputFeatureDim: 3,
		OutputBatchDim: 0, OutputSpatialDims: []int{1, 2}, OutputFeatureDim: 3,
		FeatureGroupCount: c.fgc, BatchGroupCount: c.bgc,
	}
}

func TestEvalConvolutionAgainstLoops(t *testing.T) {
	for _, c := range sxConvCases() {
		for _, dt := range []DType{F64, F32, S32} {
			t.Run(c.name+"/"+dt.String(), func(t *testing.T) {
				nx := c.x[0] * c.x[1] * c.x[2] * c.x[3]
				nk := c.k[0] * c.k[1] * c.k[2] * c.k[3]
				x, k := sxTestData(nx, 1), sxTestData(nk, 2)
				want, ws := sxNaiveConv2D(c, x, k)
				got := sxRun1(t, OpConvolution, c.attr(), TensorOf(dt, ws[:]...),
					sxNums(dt, c.x[:], x...), sxNums(dt, c.k[:], k...))
				sxExpect(t, got, sxNums(dt, ws[:], want...))
			})
		}
	}
}

// sxPermute transposes a row-major array: result dim i is source dim perm[i].
func sxPermute(src []float64, shape []int, perm []int) ([]float64, []int) {
	out := make([]float64, 0, len(src))
	rshape := make([]int, len(perm))
	for i, p := range perm {
		rshape[i] = shape[p]
	}
	ss := Strides(shape)
	from := make([]int, len(shape))
	sxEach(rshape, func(idx []int) error {
		for i, p := range perm {
			from[p] = idx[i]
		}
		out = append(out, src[sxOffset(from, ss)])
		return nil
	})
	return out, rshape
}

func TestEvalConvolutionDimensionNumbers(t *testing.T) {
	// The same convolution in NCHW × OIHW → NCHW layout (and a scrambled
	// output layout) must give the NHWC result with its dimensions moved.
	for _, c := range sxConvCases()[:5] {
		t.Run(c.name, func(t *testing.T) {
			nx := c.x[0] * c.x[1] * c.x[2] * c.x[3]
			nk := c.k[0] * c.k[1] * c.k[2] * c.k[3]
			x, k := sxTestData(nx, 3), sxTestData(nk, 4)
			want, ws := sxNaiveConv2D(c, x, k)
			xn, xs := sxPermute(x, c.x[:], []int{0, 3, 1, 2})    // NHWC → NCHW
			kn, ks := sxPermute(k, c.k[:], []int{3, 2, 0, 1})    // HWIO → OIHW
			wn, wsn := sxPermute(want, ws[:], []int{2, 3, 0, 1}) // NHWC → W C N H
			a := c.attr()
			a.InputBatchDim, a.InputFeatureDim, a.InputSpatialDims = 0, 1, []int{2, 3}
			a.KernelOutputFeatureDim, a.KernelInputFeatureDim, a.KernelSpatialDims = 0, 1, []int{2, 3}
			// Output layout [W, C, N, H]: batch 2, feature 1, spatial (H, W) = (3, 0).
			a.OutputBatchDim, a.OutputFeatureDim, a.OutputSpatialDims = 2, 1, []int{3, 0}
			got := sxRun1(t, OpConvolution, a, TensorOf(F64, wsn...), sxNums(F64, xs, xn...), sxNums(F64, ks, kn...))
			sxExpect(t, got, sxNums(F64, wsn, wn...))
		})
	}
}

func TestEvalConvolutionErrors(t *testing.T) {
	a := sxConv1D()
	a.FeatureGroupCount = 2
	err := sxRawErr(OpConvolution, a, []Type{TensorOf(F32, 1, 3, 1)},
		[]*Literal{Zeros(TensorOf(F32, 1, 5, 3)), Zeros(TensorOf(F32, 3, 1, 1))})
	sxWantErr(t, err, "input features 3 must be kernel input features 1 × feature_group_count 2")
}

// ---- reduce ----

func TestEvalReduce(t *testing.T) {
	x := sxNums(S32, sxShape(2, 3), 1, 2, 3, 4, 5, 6)
	add := sxBinaryRegion(t, OpAdd, S32)
	zero := sxScalarLit(S32, 0)
	run := func(t *testing.T, dims []int, init *Literal, body *Func, want *Literal, x *Literal) {
		t.Helper()
		got := sxRun(t, OpReduce, ReduceAttr{Dims: dims}, []Type{want.Type}, []*Literal{x, init}, body)
		sxExpect(t, got[0], want)
	}
	t.Run("rows", func(t *testing.T) { run(t, []int{1}, zero, add, sxNums(S32, sxShape(2), 6, 15), x) })
	t.Run("columns", func(t *testing.T) { run(t, []int{0}, zero, add, sxNums(S32, sxShape(3), 5, 7, 9), x) })
	t.Run("all", func(t *testing.T) { run(t, []int{1, 0}, zero, add, sxScalarLit(S32, 21), x) })
	t.Run("none applies the body once per element", func(t *testing.T) {
		run(t, []int{}, sxScalarLit(S32, 10), add, sxNums(S32, sxShape(2, 3), 11, 12, 13, 14, 15, 16), x)
	})
	t.Run("empty dims give the init", func(t *testing.T) {
		run(t, []int{1}, sxScalarLit(S32, 5), add, sxNums(S32, sxShape(2), 5, 5), Zeros(TensorOf(S32, 2, 0)))
	})
	t.Run("sequential row-major order", func(t *testing.T) {
		shift := sxShiftInRegion(t, S32)
		y := sxNums(S32, sxShape(2, 2), 1, 2, 3, 4)
		run(t, []int{0, 1}, zero, shift, sxScalarLit(S32, 1234), y)
		run(t, []int{1, 0}, zero, shift, sxScalarLit(S32, 1234), y)
		run(t, []int{1}, zero, shift, sxNums(S32, sxShape(2), 12, 34), y)
		run(t, []int{0}, zero, shift, sxNums(S32, sxShape(2), 13, 24), y)
	})
	t.Run("max f32", func(t *testing.T) {
		y := sxNums(F32, sxShape(2, 3), 3, -1, 2, -5, -7, -6)
		run(t, []int{1}, sxScalarLit(F32, math.Inf(-1)), sxBinaryRegion(t, OpMaximum, F32), sxNums(F32, sxShape(2), 3, -5), y)
	})
	t.Run("f16 sum", func(t *testing.T) {
		y := sxNums(F16, sxShape(4), 0.5, 0.25, 1, 2)
		run(t, []int{0}, sxScalarLit(F16, 0), sxBinaryRegion(t, OpAdd, F16), sxScalarLit(F16, 3.75), y)
	})
	t.Run("i1 any and all", func(t *testing.T) {
		y := MustLiteral(TensorOf(Bool, 2, 2), []bool{false, true, false, false})
		f := MustLiteral(Scalar(Bool), []bool{false})
		tr := MustLiteral(Scalar(Bool), []bool{true})
		run(t, []int{1}, f, sxBinaryRegion(t, OpOr, Bool), MustLiteral(TensorOf(Bool, 2), []bool{true, false}), y)
		run(t, []int{0}, tr, sxBinaryRegion(t, OpAnd, Bool), MustLiteral(TensorOf(Bool, 2), []bool{false, false}), y)
	})
	t.Run("every element type through a keep-last body", func(t *testing.T) {
		for _, dt := range AllDTypes {
			y := sxSeq(dt, 1, 2, 3)
			want := sxPick(TensorOf(dt, 2), y, nil, []int{2, 5})
			run(t, []int{1}, sxSeq(dt, 40), sxPickRegion(dt, 2, 1), want, y)
		}
	})
}

func TestEvalReducePromotesToTheBodyTypes(t *testing.T) {
	// StableHLO lets a reduction body work in a wider type than its
	// inputs; each element is converted to the body's parameter type, so
	// si8 values sum in si32 without wrapping. (Stela's type rule does not
	// accept this form yet, so the instruction is assembled by hand.)
	outs, err := sxRawEval(OpReduce, ReduceAttr{Dims: []int{0}}, []Type{Scalar(S32)},
		[]*Literal{sxNums(S8, sxShape(3), 100, 100, 100), sxScalarLit(S8, 0)}, sxBinaryRegion(t, OpAdd, S32))
	if err != nil {
		t.Fatal(err)
	}
	sxExpect(t, outs[0], sxScalarLit(S32, 300))
}

func TestEvalReduceArgmax(t *testing.T) {
	// Two operands reduced together: (value, index) pairs; ties keep the
	// first index because elements arrive in order.
	vals := sxNums(F32, sxShape(3, 4), 3, 1, 4, 1, 5, 9, 2, 6, 1, 7, 7, 2)
	idxs := sxNums(S32, sxShape(3, 4), 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3)
	got := sxRun(t, OpReduce, ReduceAttr{Dims: []int{1}}, []Type{TensorOf(F32, 3), TensorOf(S32, 3)},
		[]*Literal{vals, idxs, sxScalarLit(F32, math.Inf(-1)), sxScalarLit(S32, -1)}, sxArgmaxRegion(t, F32, S32))
	sxExpect(t, got[0], sxNums(F32, sxShape(3), 4, 9, 7))
	sxExpect(t, got[1], sxNums(S32, sxShape(3), 2, 1, 1))
}

// ---- reduce_window ----

func TestEvalReduceWindow1D(t *testing.T) {
	add := sxBinaryRegion(t, OpAdd, S32)
	cases := []struct {
		name string
		x    []float64
		init float64
		a    ReduceWindowAttr
		want []float64
	}{
		{"sliding pairs", []float64{1, 2, 3, 4}, 0, ReduceWindowAttr{WindowDims: []int{2}}, []float64{3, 5, 7}},
		{"stride", []float64{1, 2, 3, 4, 5}, 0, ReduceWindowAttr{WindowDims: []int{2}, Strides: []int{2}}, []float64{3, 7}},
		{"padding", []float64{1, 2, 3}, 0, ReduceWindowAttr{WindowDims: []int{3}, Padding: [][2]int{{1, 1}}}, []float64{3, 6, 5}},
		// The padding holds the init value, and the body sees it: with
		// init 1 each window adds 1 per padding element on top of the init.
		{"padding with a non-identity init", []float64{1, 2, 3}, 1, ReduceWindowAttr{WindowDims: []int{3}, Padding: [][2]int{{1, 1}}}, []float64{5, 7, 7}},
		{"negative padding", []float64{1, 2, 3, 4, 5}, 0, ReduceWindowAttr{WindowDims: []int{2}, Padding: [][2]int{{-1, 0}}}, []float64{5, 7, 9}},
		// Dilated input 1,_,2,_,3.
		{"base dilation", []float64{1, 2, 3}, 0, ReduceWindowAttr{WindowDims: []int{2}, BaseDilations: []int{2}}, []float64{1, 2, 2, 3}},
		{"window dilation", []float64{1, 2, 3, 4, 5}, 0, ReduceWindowAttr{WindowDims: []int{2}, WindowDilations: []int{2}}, []float64{4, 6, 8}},
		{"window larger than input", []float64{1, 2}, 0, ReduceWindowAttr{WindowDims: []int{3}}, []float64{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := sxNums(S32, sxShape(len(c.want)), c.want...)
			got := sxRun(t, OpReduceWindow, c.a, []Type{want.Type},
				[]*Literal{sxNums(S32, sxShape(len(c.x)), c.x...), sxScalarLit(S32, c.init)}, add)
			sxExpect(t, got[0], want)
		})
	}
}

func TestEvalReduceWindowMaxPool(t *testing.T) {
	x := sxNums(F32, sxShape(4, 4), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
	got := sxRun(t, OpReduceWindow, ReduceWindowAttr{WindowDims: []int{2, 2}, Strides: []int{2, 2}}, []Type{TensorOf(F32, 2, 2)},
		[]*Literal{x, sxScalarLit(F32, math.Inf(-1))}, sxBinaryRegion(t, OpMaximum, F32))
	sxExpect(t, got[0], sxNums(F32, sxShape(2, 2), 5, 7, 13, 15))
}

func TestEvalReduceWindowArgmax(t *testing.T) {
	vals := sxNums(F32, sxShape(6), 3, 1, 4, 1, 5, 9)
	idxs := sxNums(S32, sxShape(6), 0, 1, 2, 3, 4, 5)
	got := sxRun(t, OpReduceWindow, ReduceWindowAttr{WindowDims: []int{3}, Strides: []int{3}}, []Type{TensorOf(F32, 2), TensorOf(S32, 2)},
		[]*Literal{vals, idxs, sxScalarLit(F32, math.Inf(-1)), sxScalarLit(S32, -1)}, sxArgmaxRegion(t, F32, S32))
	sxExpect(t, got[0], sxNums(F32, sxShape(2), 4, 9))
	sxExpect(t, got[1], sxNums(S32, sxShape(2), 2, 5))
}

func TestEvalReduceWindowAgainstLoops(t *testing.T) {
	// 2-D with every attribute at once, against a loop nest over an
	// explicitly built padded, dilated input (holes and edges hold init).
	const H, W = 5, 6
	x := sxTestData(H*W, 7)
	win, str, bdil, wdil := [2]int{2, 3}, [2]int{2, 1}, [2]int{1, 2}, [2]int{2, 1}
	pad := [2][2]int{{1, 0}, {0, 2}}
	for _, init := range []float64{0, 3} {
		HP := pad[0][0] + (H-1)*bdil[0] + 1 + pad[0][1]
		WP := pad[1][0] + (W-1)*bdil[1] + 1 + pad[1][1]
		P := make([]float64, HP*WP)
		for i := range P {
			P[i] = init
		}
		for h := range H {
			for w := range W {
				P[(pad[0][0]+h*bdil[0])*WP+pad[1][0]+w*bdil[1]] = x[h*W+w]
			}
		}
		OH := (HP-((win[0]-1)*wdil[0]+1))/str[0] + 1
		OW := (WP-((win[1]-1)*wdil[1]+1))/str[1] + 1
		var want []float64
		for oh := range OH {
			for ow := range OW {
				s := init
				for i := range win[0] {
					for j := range win[1] {
						s += P[(oh*str[0]+i*wdil[0])*WP+ow*str[1]+j*wdil[1]]
					}
				}
				want = append(want, s)
			}
		}
		a := ReduceWindowAttr{WindowDims: win[:], Strides: str[:], BaseDilations: bdil[:], WindowDilations: wdil[:], Padding: pad[:]}
		got := sxRun(t, OpReduceWindow, a, []Type{TensorOf(F64, OH, OW)},
			[]*Literal{sxNums(F64, sxShape(H, W), x...), sxScalarLit(F64, init)}, sxBinaryRegion(t, OpAdd, F64))
		sxExpect(t, got[0], sxNums(F64, sxShape(OH, OW), want...))
	}
}

func TestEvalReduceWindowElementTypes(t *testing.T) {
	// A keep-last body moves data only, so it runs on every element type:
	// each window's last element (or init, where that is padding).
	for _, dt := range AllDTypes {
		t.Run(dt.String(), func(t *testing.T) {
			x := sxSeq(dt, 1, 4)
			init := sxSeq(dt, 50)
			a := ReduceWindowAttr{WindowDims: []int{2}, Strides: []int{2}, Padding: [][2]int{{0, 1}}}
			got := sxRun(t, OpReduceWindow, a, []Type{TensorOf(dt, 2)}, []*Literal{x, init}, sxPickRegion(dt, 2, 1))
			sxExpect(t, got[0], sxPick(TensorOf(dt, 2), x, nil, []int{1, 3}))
			a.Padding = [][2]int{{0, 2}}
			got = sxRun(t, OpReduceWindow, a, []Type{TensorOf(dt, 3)}, []*Literal{x, init}, sxPickRegion(dt, 2, 1))
			sxExpect(t, got[0], sxPick(TensorOf(dt, 3), x, init, []int{1, 3, -1}))
		})
	}
}
