package passes

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// randomFunc builds a small random program from elementwise ops, constants
// (with the interesting values 0, -0, 1, NaN), broadcasts, reshapes,
// transposes, selects and reduces. Ill-typed picks are skipped (Emit checks
// them), so every program verifies.
func randomFunc(r *rand.Rand) *ir.Func {
	f32 := func(dims ...int) ir.Type { return ir.TensorOf(ir.F32, dims...) }
	f := ir.NewFunc("rand", f32(2, 3), f32(2, 3), f32(3, 2))
	pool := append([]*ir.Value(nil), f.Params...)
	pick := func() *ir.Value { return pool[r.IntN(len(pool))] }
	loc := func(i int) ir.Loc { return ir.Loc{File: "rand.go", Line: i + 1} }
	specials := []float64{0, math.Copysign(0, -1), 1, -1, 2.5, math.NaN(), math.Inf(1)}
	shapes := [][]int{{2, 3}, {3, 2}, {6}, {}}
	for i := 0; i < 30; i++ {
		var v *ir.Value
		var err error
		switch k := r.IntN(10); k {
		case 0: // scalar constant broadcast to a shape
			c, _ := f.Emit1(loc(i), ir.OpConstant, nil, ir.ConstantAttr{Value: ir.ScalarLiteral(ir.F32, specials[r.IntN(len(specials))])})
			s := shapes[r.IntN(len(shapes))]
			v, err = f.Emit1(loc(i), ir.OpBroadcastInDim, []*ir.Value{c}, ir.BroadcastInDimAttr{Shape: s, Dims: []int{}})
		case 1, 2:
			op := []ir.Op{ir.OpNegate, ir.OpExp, ir.OpTanh, ir.OpAbs}[r.IntN(4)]
			v, err = f.Emit1(loc(i), op, []*ir.Value{pick()}, nil)
		case 3, 4, 5:
			op := []ir.Op{ir.OpAdd, ir.OpSubtract, ir.OpMultiply, ir.OpDivide, ir.OpMaximum}[r.IntN(5)]
			a, b := pick(), pick()
			if r.IntN(3) == 0 {
				b = a
			}
			v, err = f.Emit1(loc(i), op, []*ir.Value{a, b}, nil)
		case 6:
			x := pick()
			s := shapes[r.IntN(3)]
			v, err = f.Emit1(loc(i), ir.OpReshape, []*ir.Value{x}, ir.ReshapeAttr{Shape: s})
		case 7:
			x := pick()
			perm := []int{1, 0}
			if r.IntN(2) == 0 {
				perm = []int{0, 1}
			}
			v, err = f.Emit1(loc(i), ir.OpTranspose, []*ir.Value{x}, ir.TransposeAttr{Perm: perm})
		case 8:
			x := pick()
			if x.Type.Rank() == 0 {
				continue
			}
			init, _ := f.Emit1(loc(i), ir.OpConstant, nil, ir.ConstantAttr{Value: ir.ScalarLiteral(ir.F32, 0)})
			body := ir.NewFunc("add", ir.Scalar(ir.F32), ir.Scalar(ir.F32))
			s, _ := body.Emit1(loc(i), ir.OpAdd, []*ir.Value{body.Params[0], body.Params[1]}, nil)
			body.Return(s)
			v, err = f.Emit1(loc(i), ir.OpReduce, []*ir.Value{x, init}, ir.ReduceAttr{Dims: []int{0}}, body)
		case 9:
			p, _ := f.Emit1(loc(i), ir.OpConstant, nil, ir.ConstantAttr{Value: ir.LiteralFromBools(ir.Scalar(ir.Bool), []bool{r.IntN(2) == 0})})
			v, err = f.Emit1(loc(i), ir.OpSelect, []*ir.Value{p, pick(), pick()}, nil)
		}
		if err == nil && v != nil {
			pool = append(pool, v)
		}
	}
	f.Return(pool[len(pool)-1], pool[len(pool)-2], pool[len(pool)-3])
	return f
}

func randomArgs(r *rand.Rand, f *ir.Func) []*ir.Literal {
	var args []*ir.Literal
	for _, p := range f.Params {
		vals := make([]float64, p.Type.NumElements())
		for i := range vals {
			vals[i] = []float64{0, math.Copysign(0, -1), r.NormFloat64(), math.NaN(), -1}[r.IntN(5)]
		}
		args = append(args, ir.LiteralFromFloat64s(p.Type, vals))
	}
	return args
}

// checkSame runs f with and without the Default pipeline and compares the
// results bitwise (NaN matching any NaN): every rewrite in Default is exact.
func checkSame(t *testing.T, f *ir.Func, args []*ir.Literal) {
	checkSameOpts(t, f, args, Options{VerifyEach: true, ReproDir: t.TempDir()})
}

func checkSameOpts(t *testing.T, f *ir.Func, args []*ir.Literal, opts Options) {
	t.Helper()
	want, err := ir.Eval(f, args...)
	if err != nil {
		t.Fatalf("eval before: %v\n%s", err, f)
	}
	before := f.String()
	m := &ir.Module{Funcs: []*ir.Func{f}}
	if _, err := Run(m, Default, opts); err != nil {
		t.Fatal(err)
	}
	got, err := ir.Eval(f, args...)
	if err != nil {
		t.Fatalf("eval after: %v\n%s", err, f)
	}
	for i := range want {
		if !ir.LiteralEqual(got[i], want[i]) {
			t.Fatalf("result %d differs:\nbefore: %v\nafter:  %v\nprogram before:\n%s\nafter:\n%s", i, ir.FormatLiteral(want[i]), ir.FormatLiteral(got[i]), before, f)
		}
	}
}

func TestDifferentialRandom(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		f := randomFunc(r)
		checkSame(t, f, randomArgs(r, f))
	}
}

// TestDifferentialShuffled: passes give correct results whatever the order
// of independent instructions (STELA_DEBUG=shuffle mode).
func TestDifferentialShuffled(t *testing.T) {
	for seed := uint64(0); seed < 100; seed++ {
		r := rand.New(rand.NewPCG(seed, 11))
		f := randomFunc(r)
		checkSameOpts(t, f, randomArgs(r, f), Options{VerifyEach: true, Shuffle: true, CheckDeterminism: true, ReproDir: t.TempDir()})
	}
}

func countOps(f *ir.Func) int {
	n := 0
	f.Walk(func(*ir.Instr) { n++ })
	return n
}
