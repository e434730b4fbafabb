package ir

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// The blocked dot_general and convolution must give the spec loops'
// results bit for bit: on random shapes (batch dimensions, several
// contracting dimensions, dimensions in any order, odd and zero sizes,
// groups, padding, dilation, reversal) and random values of every element
// type the ops take, specials included.

var sxContractTypes = []DType{Bool, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128}

// sxRandomFloat is a float of random sign and magnitude (so that sums
// round), now and then a special value when specials is set.
func sxRandomFloat(r *rand.Rand, specials bool) float64 {
	if specials {
		switch r.IntN(24) {
		case 0:
			return math.Inf(1)
		case 1:
			return math.Inf(-1)
		case 2:
			return math.NaN()
		case 3:
			return math.Copysign(0, -1)
		case 4:
			return 0
		}
	}
	return r.NormFloat64() * math.Ldexp(1, r.IntN(17)-8)
}

// sxRandomLiteral fills a literal of type t with random elements: full-width
// bit patterns for integers (so that sums wrap), random floats otherwise.
func sxRandomLiteral(r *rand.Rand, t Type, specials bool) *Literal {
	l := Zeros(t)
	d := t.DType
	for i := range t.NumElements() {
		switch {
		case d.IsFloat():
			l.SetElem(i, FromFloat64(d, sxRandomFloat(r, specials)))
		case d == C64:
			l.SetElem(i, complex64(complex(sxRandomFloat(r, specials), sxRandomFloat(r, specials))))
		case d == C128:
			l.SetElem(i, complex(sxRandomFloat(r, specials), sxRandomFloat(r, specials)))
		default:
			l.SetElem(i, ElemFromBits(d, r.Uint64()))
		}
	}
	return l
}

// sxOneOf returns one of vs at random.
func sxOneOf(r *rand.Rand, vs ...int) int { return vs[r.IntN(len(vs))] }

// sxInstrFor makes an instruction of op with the result types its type
// rule gives for args, or reports that the rule rejects them.
func sxInstrFor(op Op, attr any, regions []*Func, args ...*Literal) (*Instr, error) {
	ts := make([]Type, len(args))
	for i, a := range args {
		ts[i] = a.Type
	}
	rts, err := op.Info().Infer(ts, attr, regions)
	if err != nil {
		return nil, err
	}
	in := &Instr{Op: op, Attr: attr, Regions: regions}
	for i, t := range rts {
		in.Results = append(in.Results, &Value{ID: i, Type: t, Def: in, Index: i})
	}
	return in, nil
}

// sxSameBits fails unless spec and blocked hold the same bits, except
// that any two NaNs match: which NaN an operation on NaNs yields depends
// on the order the compiler puts the operands of a commutative add in,
// and the evaluator promises a NaN there, not its sign or payload.
func sxSameBits(t *testing.T, what string, spec, blocked *Literal) {
	t.Helper()
	if !spec.Type.Equal(blocked.Type) {
		t.Fatalf("%s: blocked result is %v, spec %v", what, blocked.Type, spec.Type)
	}
	d := spec.Type.DType
	isNaN := func(v any) bool {
		switch {
		case d.IsFloat():
			return math.IsNaN(ToFloat64(d, v))
		case d.IsComplex():
			c := ToComplex128(d, v)
			return math.IsNaN(real(c)) || math.IsNaN(imag(c))
		}
		return false
	}
	sb, bb := spec.Bytes(), blocked.Bytes()
	sz := d.Size()
	for i := 0; i < len(sb); i += sz {
		if bytes.Equal(sb[i:i+sz], bb[i:i+sz]) {
			continue
		}
		s, b := spec.Elem(i/sz), blocked.Elem(i/sz)
		if d.IsComplex() {
			// Each part on its own: NaN or the same bits.
			sc, bc := ToComplex128(d, s), ToComplex128(d, b)
			same := func(x, y float64) bool {
				return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
			}
			if same(real(sc), real(bc)) && same(imag(sc), imag(bc)) {
				continue
			}
		} else if isNaN(s) && isNaN(b) {
			continue
		}
		show := func(v any) any {
			switch {
			case d.IsComplex():
				return ToComplex128(d, v)
			case d.IsFloat():
				return ToFloat64(d, v)
			}
			return v
		}
		t.Fatalf("%s: element %d: blocked %v, spec %v", what, i/sz, show(b), show(s))
	}
}

// sxRandomDot makes a random dot_general: batch, contracting and free
// dimensions of random sizes, each operand's dimensions in a random order.
func sxRandomDot(r *rand.Rand, dt DType, specials bool) (*Instr, []*Literal, string) {
	nb, nc, nlf, nrf := r.IntN(3), r.IntN(3), r.IntN(3), r.IntN(3)
	batch := make([]int, nb)
	for i := range batch {
		batch[i] = sxOneOf(r, 1, 2, 3)
	}
	contract := make([]int, nc)
	for i := range contract {
		contract[i] = sxOneOf(r, 0, 1, 2, 3, 5, 7, 16, 33)
	}
	free := func(n int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = sxOneOf(r, 1, 2, 3, 5, 9, 17)
		}
		return s
	}
	lfree, rfree := free(nlf), free(nrf)
	// place lays the groups out in a random dimension order and returns
	// the shape and where each batch and contracting dimension went.
	place := func(fr []int) (shape, bpos, cpos []int) {
		n := nb + nc + len(fr)
		perm := r.Perm(n)
		shape = make([]int, n)
		for i, s := range batch {
			shape[perm[i]] = s
			bpos = append(bpos, perm[i])
		}
		for i, s := range contract {
			shape[perm[nb+i]] = s
			cpos = append(cpos, perm[nb+i])
		}
		for i, s := range fr {
			shape[perm[nb+nc+i]] = s
		}
		return shape, bpos, cpos
	}
	ls, lb, lc := place(lfree)
	rs, rb, rc := place(rfree)
	a := DotGeneralAttr{LhsBatch: lb, RhsBatch: rb, LhsContract: lc, RhsContract: rc}
	if lb == nil {
		a.LhsBatch, a.RhsBatch = []int{}, []int{}
	}
	if lc == nil {
		a.LhsContract, a.RhsContract = []int{}, []int{}
	}
	x, y := sxRandomLiteral(r, TensorOf(dt, ls...), specials), sxRandomLiteral(r, TensorOf(dt, rs...), specials)
	in, err := sxInstrFor(OpDotGeneral, a, nil, x, y)
	if err != nil {
		panic(fmt.Sprintf("random dot_general %v × %v %+v: %v", x.Type, y.Type, a, err))
	}
	return in, []*Literal{x, y}, fmt.Sprintf("%v × %v %+v", x.Type, y.Type, a)
}

func TestEvalDotGeneralBlockedMatchesSpec(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, dt := range sxContractTypes {
		t.Run(dt.String(), func(t *testing.T) {
			for trial := range 60 {
				in, args, what := sxRandomDot(r, dt, trial%3 == 0)
				spec, err := sxNewDot(in, args)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				blocked, _ := sxNewDot(in, args)
				spec.spec()
				blocked.blocked()
				sxSameBits(t, what, spec.out, blocked.out)
			}
		})
	}
}

// sxRandomConv makes a random convolution with 1 or 2 spatial dimensions,
// every dimension list in a random order, and random strides, dilations,
// padding (negative too), reversal and group counts. It returns nil when
// the type rule rejects the draw (a window larger than the padded input).
func sxRandomConv(r *rand.Rand, dt DType, specials bool) (*Instr, []*Literal, string) {
	ns := 1 + r.IntN(2)
	groups := sxOneOf(r, 1, 1, 2, 3)
	fgc, bgc := 1, 1
	if groups > 1 {
		if r.IntN(2) == 0 {
			fgc = groups
		} else {
			bgc = groups
		}
	}
	kin := sxOneOf(r, 1, 2, 3)
	kout := groups * sxOneOf(r, 1, 2, 3)
	batch := bgc * sxOneOf(r, 0, 1, 2, 3)
	layout := func() (b, f int, sp []int) {
		p := r.Perm(ns + 2)
		return p[0], p[1], p[2:]
	}
	var a ConvolutionAttr
	a.InputBatchDim, a.InputFeatureDim, a.InputSpatialDims = layout()
	a.KernelInputFeatureDim, a.KernelOutputFeatureDim, a.KernelSpatialDims = layout()
	a.OutputBatchDim, a.OutputFeatureDim, a.OutputSpatialDims = layout()
	a.FeatureGroupCount, a.BatchGroupCount = fgc, bgc
	xs, ks := make([]int, ns+2), make([]int, ns+2)
	xs[a.InputBatchDim], xs[a.InputFeatureDim] = batch, kin*fgc
	ks[a.KernelInputFeatureDim], ks[a.KernelOutputFeatureDim] = kin, kout
	for d := range ns {
		xs[a.InputSpatialDims[d]] = sxOneOf(r, 1, 2, 4, 5, 7)
		ks[a.KernelSpatialDims[d]] = sxOneOf(r, 1, 2, 3)
		a.WindowStrides = append(a.WindowStrides, sxOneOf(r, 1, 1, 2, 3))
		a.LhsDilation = append(a.LhsDilation, sxOneOf(r, 1, 1, 2))
		a.RhsDilation = append(a.RhsDilation, sxOneOf(r, 1, 1, 2))
		a.Padding = append(a.Padding, [2]int{r.IntN(4) - 1, r.IntN(4) - 1})
		a.WindowReversal = append(a.WindowReversal, r.IntN(2) == 0)
	}
	x, k := sxRandomLiteral(r, TensorOf(dt, xs...), specials), sxRandomLiteral(r, TensorOf(dt, ks...), specials)
	in, err := sxInstrFor(OpConvolution, a, nil, x, k)
	if err != nil {
		return nil, nil, ""
	}
	return in, []*Literal{x, k}, fmt.Sprintf("%v ⊛ %v %+v", x.Type, k.Type, a)
}

func TestEvalConvolutionBlockedMatchesSpec(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, dt := range sxContractTypes {
		t.Run(dt.String(), func(t *testing.T) {
			done := 0
			for trial := 0; done < 60; trial++ {
				in, args, what := sxRandomConv(r, dt, trial%3 == 0)
				if in == nil {
					continue
				}
				done++
				spec, err := sxNewConv(in, args)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				blocked, _ := sxNewConv(in, args)
				spec.spec()
				blocked.blocked()
				sxSameBits(t, what, spec.out, blocked.out)
			}
		})
	}
}

// TestEvalContractionsTakeBlockedPath runs model-sized contractions
// through the op's evaluation rule, which takes the blocked path at these
// sizes, and checks them against the spec loops.
func TestEvalContractionsTakeBlockedPath(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	x, y := sxRandomLiteral(r, TensorOf(F32, 2, 37, 70), false), sxRandomLiteral(r, TensorOf(F32, 2, 70, 45), false)
	a := DotGeneralAttr{LhsBatch: []int{0}, RhsBatch: []int{0}, LhsContract: []int{2}, RhsContract: []int{1}}
	in, err := sxInstrFor(OpDotGeneral, a, nil, x, y)
	if err != nil {
		t.Fatal(err)
	}
	got, err := evalDotGeneral(in, []*Literal{x, y})
	if err != nil {
		t.Fatal(err)
	}
	d, _ := sxNewDot(in, []*Literal{x, y})
	if d.work() < sxBlockedMinWork {
		t.Fatalf("%d products: too few for the blocked path", d.work())
	}
	d.spec()
	sxSameBits(t, "dot_general", d.out, got[0])

	img, ker := sxRandomLiteral(r, TensorOf(F32, 2, 9, 9, 3), false), sxRandomLiteral(r, TensorOf(F32, 3, 3, 3, 8), false)
	ca := ConvolutionAttr{InputBatchDim: 0, InputFeatureDim: 3, InputSpatialDims: []int{1, 2},
		KernelInputFeatureDim: 2, KernelOutputFeatureDim: 3, KernelSpatialDims: []int{0, 1},
		OutputBatchDim: 0, OutputFeatureDim: 3, OutputSpatialDims: []int{1, 2},
		Padding: [][2]int{{1, 1}, {1, 1}}, FeatureGroupCount: 1, BatchGroupCount: 1}
	in, err = sxInstrFor(OpConvolution, ca, nil, img, ker)
	if err != nil {
		t.Fatal(err)
	}
	got, err = evalConvolution(in, []*Literal{img, ker})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := sxNewConv(in, []*Literal{img, ker})
	if c.work() < sxBlockedMinWork {
		t.Fatalf("%d products: too few for the blocked path", c.work())
	}
	c.spec()
	sxSameBits(t, "convolution", c.out, got[0])
}

// Benchmarks at the sizes of the built-in examples' contractions: the spec
// loop on its own ("spec", the straightforward definition) and the op's
// evaluation rule ("eval", which takes the blocked path at these sizes).

func sxBenchContraction(b *testing.B, op Op, attr any, x, y *Literal) {
	in, err := sxInstrFor(op, attr, nil, x, y)
	if err != nil {
		b.Fatal(err)
	}
	args := []*Literal{x, y}
	b.Run("spec", func(b *testing.B) {
		for b.Loop() {
			if op == OpDotGeneral {
				d, _ := sxNewDot(in, args)
				d.spec()
			} else {
				c, _ := sxNewConv(in, args)
				c.spec()
			}
		}
	})
	b.Run("eval", func(b *testing.B) {
		for b.Loop() {
			if _, err := op.Info().Eval(in, args); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkEvalDotGeneral(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	f32 := func(shape ...int) *Literal { return sxRandomLiteral(r, TensorOf(F32, shape...), false) }
	matmul := DotGeneralAttr{LhsBatch: []int{}, RhsBatch: []int{}, LhsContract: []int{1}, RhsContract: []int{0}}
	// A dense layer of GPT-2 small on 128 tokens: [128,768]·[768,768].
	b.Run("dense-128x768x768", func(b *testing.B) { sxBenchContraction(b, OpDotGeneral, matmul, f32(128, 768), f32(768, 768)) })
	// Attention scores of 12 heads over 128 tokens: [12,128,64]·[12,128,64] contracting the head dim.
	scores := DotGeneralAttr{LhsBatch: []int{0}, RhsBatch: []int{0}, LhsContract: []int{2}, RhsContract: []int{2}}
	b.Run("attention-12x128x128x64", func(b *testing.B) {
		sxBenchContraction(b, OpDotGeneral, scores, f32(12, 128, 64), f32(12, 128, 64))
	})
}

func BenchmarkEvalConvolution(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	f32 := func(shape ...int) *Literal { return sxRandomLiteral(r, TensorOf(F32, shape...), false) }
	// The cnn example's second layer: NHWC [8,14,14,16] ⊛ HWIO [3,3,16,32], same padding.
	nhwc := ConvolutionAttr{InputBatchDim: 0, InputFeatureDim: 3, InputSpatialDims: []int{1, 2},
		KernelInputFeatureDim: 2, KernelOutputFeatureDim: 3, KernelSpatialDims: []int{0, 1},
		OutputBatchDim: 0, OutputFeatureDim: 3, OutputSpatialDims: []int{1, 2},
		Padding: [][2]int{{1, 1}, {1, 1}}, FeatureGroupCount: 1, BatchGroupCount: 1}
	b.Run("nhwc-8x14x14x16-3x3x32", func(b *testing.B) { sxBenchContraction(b, OpConvolution, nhwc, f32(8, 14, 14, 16), f32(3, 3, 16, 32)) })
}

// TestSxParallelPanicReachesGuard: a panic in a worker of the parallel
// loop becomes the rule's internal error, as one in the sequential loop
// does, instead of ending the process.
func TestSxParallelPanicReachesGuard(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	run := func() (err error) {
		defer sxGuard(&err)
		sxParallel(1000, func(i int) {
			if i == 17 {
				panic("kernel bug")
			}
		})
		return nil
	}
	err := run()
	if err == nil || !strings.Contains(err.Error(), "internal error in the reference evaluator: kernel bug") {
		t.Fatalf("error %v, want the internal error naming the panic", err)
	}
}
