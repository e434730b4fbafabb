package codegen_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/internal/env/envtest"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/lowering"
	"github.com/stela-ml/stela/passes"
	"github.com/stela-ml/stela/pjrt/cpu"
	"github.com/stela-ml/stela/pjrt/cpu/codegen"
	"github.com/stela-ml/stela/stablehlo"
)

// exampleStableHLO traces an example, runs the default pass pipeline
// (as jit does) and returns its StableHLO text.
func exampleStableHLO(t testing.TB, ex examples.Example) string {
	t.Helper()
	r, err := examples.Trace(ex)
	if err != nil {
		t.Fatal(err)
	}
	m := &ir.Module{Funcs: []*ir.Func{r.Func}}
	if _, err := passes.Run(m, passes.Default, passes.Options{}); err != nil {
		t.Fatal(err)
	}
	sm, err := lowering.Lower(m.Funcs[0], lowering.Options{Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	return string(stablehlo.Format(sm, stablehlo.PrintOptions{}))
}

// planText plans StableHLO text.
func planText(t testing.TB, src string, opts codegen.Options) *codegen.Program {
	t.Helper()
	m, err := stablehlo.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := codegen.Plan(m, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFusionKernelCount: fusion gives the transformer example far fewer
// kernels (each elementwise chain, broadcast and reduction input becomes
// part of one loop).
func TestFusionKernelCount(t *testing.T) {
	src := exampleStableHLO(t, examples.SmallTransformer())
	p := planText(t, src, codegen.Options{})
	fused := p.Kernels()
	unfused := planText(t, src, codegen.Options{NoFusion: true}).Kernels()
	t.Logf("transformer: %d kernels fused, %d unfused", fused, unfused)
	if testing.Verbose() {
		t.Logf("kernels:\n  %s", strings.Join(p.KernelList(), "\n  "))
	}
	if 2*fused > unfused {
		t.Errorf("%d kernels with fusion, %d without: want at most half", fused, unfused)
	}
}

// fuseGen makes random programs for fusion: chains of elementwise ops
// (exact ones, or with transcendental functions), broadcasts (also
// transposing ones), transposes, reshapes that split and merge dimensions or add
// unit ones, slices, reverses, iotas, converts, compare and select,
// clamps, splat and non-splat constants, and reductions of any of them,
// with values used several times and intermediate values returned.
type fuseGen struct {
	t       *testing.T
	r       *rand.Rand
	b       *builder
	A, B, C int
	trans   bool // use transcendental functions
	vals    []*ir.Value
}

func (g *fuseGen) pick(ok func(*ir.Value) bool) *ir.Value {
	var c []*ir.Value
	for _, v := range g.vals {
		if ok(v) {
			c = append(c, v)
		}
	}
	if len(c) == 0 {
		return nil
	}
	return c[g.r.IntN(len(c))]
}

func shaped(s ...int) func(*ir.Value) bool {
	return func(v *ir.Value) bool { return slices.Equal(v.Type.Shape, s) && v.Type.DType == ir.F32 }
}

func (g *fuseGen) push(v *ir.Value) { g.vals = append(g.vals, v) }

func (g *fuseGen) scalar(v float64) *ir.Value {
	return g.b.emit(ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarOf(float32(v))})
}

func (g *fuseGen) step() {
	b, r := g.b, g.r
	A, B, C := g.A, g.B, g.C
	f32 := func(v *ir.Value) bool { return v.Type.DType == ir.F32 }
	switch r.IntN(15) {
	case 0, 1, 2: // binary
		x := g.pick(f32)
		y := g.pick(shaped(x.Type.Shape...))
		ops := []ir.Op{ir.OpAdd, ir.OpSubtract, ir.OpMultiply, ir.OpMaximum, ir.OpMinimum, ir.OpDivide}
		g.push(b.emit(ops[r.IntN(len(ops))], nil, x, y))
	case 3, 4: // unary
		x := g.pick(f32)
		ops := []ir.Op{ir.OpNegate, ir.OpAbs, ir.OpFloor, ir.OpSign}
		if g.trans {
			ops = []ir.Op{ir.OpExp, ir.OpLog, ir.OpTanh, ir.OpLogistic, ir.OpExpm1, ir.OpLog1p, ir.OpSqrt, ir.OpRsqrt, ir.OpNegate}
		}
		g.push(b.emit(ops[r.IntN(len(ops))], nil, x))
	case 5, 6: // broadcast
		type bc struct {
			from, to, dims []int
		}
		cases := []bc{{[]int{A}, []int{A, B}, []int{0}}, {[]int{A}, []int{A, B, C}, []int{0}},
			{[]int{B}, []int{A, B}, []int{1}}, {[]int{B, C}, []int{A, B, C}, []int{1, 2}},
			{[]int{A, B}, []int{A, B, C}, []int{0, 1}}, {[]int{A, B}, []int{B, A, C}, []int{1, 0}},
			{[]int{C}, []int{A, B, C}, []int{2}}, {[]int{}, []int{A, B}, []int{}}, {[]int{}, []int{A, B, C}, []int{}},
			{[]int{A, 1}, []int{A, B}, []int{0, 1}}}
		c := cases[r.IntN(len(cases))]
		x := g.pick(shaped(c.from...))
		if x == nil {
			return
		}
		g.push(b.emit(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: c.to, Dims: c.dims}, x))
	case 7: // reshape
		pairs := [][2][]int{{{A, B}, {A * B}}, {{A * B}, {B, A}}, {{A, B, C}, {A, B * C}}, {{A, B * C}, {A * B, C}},
			{{A * B, C}, {A, B, C}}, {{A, B}, {A, 1, B}}, {{A, 1, B}, {A, B}}, {{A}, {A, 1}}, {{B, A}, {A, B}}}
		p := pairs[r.IntN(len(pairs))]
		x := g.pick(shaped(p[0]...))
		if x == nil {
			return
		}
		g.push(b.emit(ir.OpReshape, ir.ReshapeAttr{Shape: p[1]}, x))
	case 8: // slice or reverse
		x := g.pick(func(v *ir.Value) bool { return f32(v) && v.Type.Rank() >= 1 })
		s := x.Type.Shape
		if r.IntN(2) == 0 {
			g.push(b.emit(ir.OpReverse, ir.ReverseAttr{Dims: []int{r.IntN(len(s))}}, x))
			return
		}
		var start, limit, stride []int
		for _, n := range s {
			lo := r.IntN(n)
			start, limit, stride = append(start, lo), append(limit, lo+1+r.IntN(n-lo)), append(stride, 1+r.IntN(2))
		}
		g.push(b.emit(ir.OpSlice, ir.SliceAttr{Start: start, Limit: limit, Stride: stride}, x))
	case 9: // iota, constants
		shapes := [][]int{{A, B}, {A, B, C}, {B}, {A}}
		s := shapes[r.IntN(len(shapes))]
		switch r.IntN(3) {
		case 0:
			g.push(b.emit(ir.OpIota, ir.IotaAttr{Type: ir.TensorOf(ir.F32, s...), Dim: r.IntN(len(s))}))
		case 1:
			g.push(b.emit(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: s, Dims: []int{}}, g.scalar(float64(r.IntN(7)-3)/2)))
		default:
			n := 1
			for _, d := range s {
				n *= d
			}
			v := make([]float64, n)
			for i := range v {
				v[i] = float64(r.IntN(9)-4) / 4
			}
			g.push(b.emit(ir.OpConstant, ir.ConstantAttr{Value: ir.LiteralFromFloat64s(ir.TensorOf(ir.F32, s...), v)}))
		}
	case 10: // convert round trip
		x := g.pick(f32)
		to := []ir.DType{ir.F64, ir.S32, ir.Bool}[r.IntN(3)]
		c := b.emit(ir.OpConvert, ir.ConvertAttr{To: to}, x)
		g.push(b.emit(ir.OpConvert, ir.ConvertAttr{To: ir.F32}, c))
	case 11: // compare and select
		x := g.pick(f32)
		y := g.pick(shaped(x.Type.Shape...))
		p := b.emit(ir.OpCompare, ir.CompareAttr{Direction: dirs[r.IntN(len(dirs))]}, x, y)
		g.push(b.emit(ir.OpSelect, nil, p, y, x))
	case 12: // clamp
		x := g.pick(f32)
		lo, hi := g.scalar(-1.5), g.scalar(2)
		if r.IntN(2) == 0 {
			if y := g.pick(shaped(x.Type.Shape...)); y != nil && y != x {
				lo = b.emit(ir.OpNegate, nil, b.emit(ir.OpAbs, nil, y))
				hi = b.emit(ir.OpAbs, nil, y)
			}
		}
		g.push(b.emit(ir.OpClamp, nil, lo, x, hi))
	case 14: // transpose
		x := g.pick(func(v *ir.Value) bool { return f32(v) && v.Type.Rank() >= 2 })
		if x == nil {
			return
		}
		g.push(b.emit(ir.OpTranspose, ir.TransposeAttr{Perm: r.Perm(x.Type.Rank())}, x))
	case 13: // reduce over some dimensions
		x := g.pick(func(v *ir.Value) bool { return f32(v) && v.Type.Rank() >= 1 })
		var dims []int
		for d := range x.Type.Rank() {
			if r.IntN(2) == 0 {
				dims = append(dims, d)
			}
		}
		if dims == nil {
			dims = []int{r.IntN(x.Type.Rank())}
		}
		op := []ir.Op{ir.OpAdd, ir.OpMaximum, ir.OpMinimum}[r.IntN(3)]
		body := region(g.t, ir.F32, 1, func(b *builder, acc, x []*ir.Value) []*ir.Value {
			return []*ir.Value{b.emit(op, nil, acc[0], x[0])}
		})
		init := g.scalar(0)
		if op != ir.OpAdd {
			init = g.scalar(float64(r.IntN(5) - 2))
		}
		g.push(b.emitN(ir.OpReduce, ir.ReduceAttr{Dims: dims}, []*ir.Func{body}, x, init)[0])
	}
}

// fusionProgram makes one random program and its arguments.
// With big, the dimensions are tens to hundreds, so that loops run on
// several threads.
func fusionProgram(t *testing.T, seed int, trans, big bool) (*ir.Func, []*ir.Literal) {
	r := rand.New(rand.NewPCG(uint64(seed), 17))
	A, B, C := 1+r.IntN(5), 1+r.IntN(5), 1+r.IntN(4)
	if big {
		A, B, C = 40+r.IntN(80), 100+r.IntN(200), 8+r.IntN(8)
	}
	params := []ir.Type{ir.TensorOf(ir.F32, A, B, C), ir.TensorOf(ir.F32, A, B), ir.TensorOf(ir.F32, B, C),
		ir.TensorOf(ir.F32, A), ir.TensorOf(ir.F32, B), ir.TensorOf(ir.F32, C), ir.TensorOf(ir.F32)}
	g := &fuseGen{t: t, r: r, b: newBuilder(t, "fusion", params...), A: A, B: B, C: C, trans: trans}
	g.vals = append(g.vals, g.b.f.Params...)
	for range 40 {
		g.step()
	}
	var outs []*ir.Value
	for i := max(len(params), len(g.vals)-3); i < len(g.vals); i++ {
		outs = append(outs, g.vals[i])
	}
	for range 3 {
		outs = append(outs, g.vals[len(params)+r.IntN(len(g.vals)-len(params))])
	}
	g.b.f.Return(outs...)
	var args []*ir.Literal
	for _, p := range params {
		args = append(args, randLiteral(r, p))
	}
	return g.b.f, args
}

// fusionSeeds is the number of random programs per kind; raise it to
// hunt for bugs: go test ./pjrt/cpu/codegen -run FusionRandom -fusion 300.
var fusionSeeds = 4

func init() {
	flag.IntVar(&fusionSeeds, "fusion", fusionSeeds, "number of random fusion programs to test")
}

// TestFusionRandomExact: random programs of correctly rounded ops, fused,
// are bit-identical to the reference evaluator; the last one has shapes
// big enough for the thread pool.
func TestFusionRandomExact(t *testing.T) {
	for seed := range fusionSeeds + 1 {
		big := seed == fusionSeeds // one with big shapes
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			f, args := fusionProgram(t, seed, false, big)
			evalAndCompare(t, f, nil, args...)
		})
	}
}

// TestFusionRandomBitIdentical: random programs with transcendental
// functions give bit-identical results fused and unfused
// (STELA_DEBUG=nofusion). Not parallel: it sets the environment.
func TestFusionRandomBitIdentical(t *testing.T) {
	type prog struct {
		src              string
		args             []*ir.Literal
		fused, unfused   string
		errFused, errUnf error
	}
	progs := make([]*prog, fusionSeeds)
	for i := range progs {
		f, args := fusionProgram(t, 1000+i, true, false)
		progs[i] = &prog{src: lowerText(t, f), args: args}
	}
	build := func(unfused bool) {
		var wg sync.WaitGroup
		for _, p := range progs {
			wg.Go(func() {
				so, _, err := cpu.Compile([]byte(p.src), cpu.CompileConfig{})
				if unfused {
					p.unfused, p.errUnf = so, err
				} else {
					p.fused, p.errFused = so, err
				}
			})
		}
		wg.Wait()
	}
	envtest.Setenv(t, "STELA_DEBUG", "nofusion")
	build(true)
	envtest.Setenv(t, "STELA_DEBUG", "")
	build(false)
	for i, p := range progs {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			for _, so := range []string{p.fused, p.unfused} {
				if so != "" {
					t.Cleanup(func() { os.Remove(so) })
				}
			}
			if p.errFused != nil || p.errUnf != nil {
				t.Fatalf("compile: %v, %v\n%s", p.errFused, p.errUnf, p.src)
			}
			run := func(so string) []*ir.Literal {
				prog := load(t, so)
				got, rc, msg := prog.run(t, p.args...)
				if rc != 0 {
					t.Fatalf("stela_entry returned %d: %s", rc, msg)
				}
				return got
			}
			fused, unfused := run(p.fused), run(p.unfused)
			for j := range fused {
				if _, err := diff(fused[j], unfused[j], -1); err != nil {
					t.Errorf("result #%d fused vs unfused: %v\n%s", j, err, p.src)
				}
			}
		})
	}
}

// TestFusionEdgeCases: fused chains over empty tensors and scalars,
// reductions over an empty dimension with a fused input, a two-output
// reduce (argmax) whose index input is a fused iota, integer and i1
// chains, a fused root returned through a reshape, and an inline
// candidate that is also a result (materialized); bit-exact with the
// evaluator.
func TestFusionEdgeCases(t *testing.T) {
	t.Parallel()
	f32 := func(s ...int) ir.Type { return ir.TensorOf(ir.F32, s...) }
	b := newBuilder(t, "edges", f32(0, 3), f32(), f32(4, 5), ir.TensorOf(ir.S32, 4, 5))
	e, s, x, k := b.f.Params[0], b.f.Params[1], b.f.Params[2], b.f.Params[3]
	bc := func(v *ir.Value, shape []int, dims ...int) *ir.Value {
		if dims == nil {
			dims = []int{}
		}
		return b.emit(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: shape, Dims: dims}, v)
	}
	scalar := func(v *ir.Literal) *ir.Value { return b.emit(ir.OpConstant, ir.ConstantAttr{Value: v}) }
	reduce := func(op ir.Op, d ir.DType, v, init *ir.Value, dims ...int) *ir.Value {
		body := region(t, d, 1, func(b *builder, acc, x []*ir.Value) []*ir.Value {
			return []*ir.Value{b.emit(op, nil, acc[0], x[0])}
		})
		return b.emitN(ir.OpReduce, ir.ReduceAttr{Dims: dims}, []*ir.Func{body}, v, init)[0]
	}
	var outs []*ir.Value
	// Empty: a fused chain and reductions over the empty dimension.
	ee := b.emit(ir.OpMultiply, nil, b.emit(ir.OpAdd, nil, e, bc(s, []int{0, 3})), e)
	outs = append(outs, ee, reduce(ir.OpAdd, ir.F32, b.emit(ir.OpNegate, nil, ee), scalar(ir.ScalarOf(float32(1.5))), 0))
	// Scalars.
	s2 := b.emit(ir.OpMultiply, nil, b.emit(ir.OpAdd, nil, s, scalar(ir.ScalarOf(float32(2)))), s)
	outs = append(outs, s2)
	// argmax over dim 1 with a fused iota as the index input.
	iota := b.emit(ir.OpIota, ir.IotaAttr{Type: ir.TensorOf(ir.S32, 4, 5), Dim: 1})
	xa := b.emit(ir.OpAbs, nil, b.emit(ir.OpSubtract, nil, x, bc(s, []int{4, 5})))
	am := b.emitN(ir.OpReduce, ir.ReduceAttr{Dims: []int{1}}, []*ir.Func{region2(t, ir.F32, ir.S32)},
		xa, iota, scalar(ir.ScalarOf(float32(math.Inf(-1)))), scalar(ir.ScalarOf(int32(0))))
	outs = append(outs, am...)
	// Integer and i1 chains, an i1 reduce.
	ki := b.emit(ir.OpAnd, nil, b.emit(ir.OpMultiply, nil, k, k), bc(scalar(ir.ScalarOf(int32(0xff))), []int{4, 5}))
	p := b.emit(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpGT}, ki, bc(scalar(ir.ScalarOf(int32(9))), []int{4, 5}))
	outs = append(outs, b.emit(ir.OpSelect, nil, p, ki, b.emit(ir.OpNegate, nil, ki)))
	outs = append(outs, reduce(ir.OpOr, ir.Bool, p, scalar(ir.ScalarOf(false)), 0))
	// A fused root returned through a reshape; an elementwise value that
	// is a result and also feeds a fused chain.
	y := b.emit(ir.OpAdd, nil, x, x)
	z := b.emit(ir.OpMultiply, nil, y, b.emit(ir.OpConvert, ir.ConvertAttr{To: ir.F32}, k))
	outs = append(outs, y, b.emit(ir.OpReshape, ir.ReshapeAttr{Shape: []int{20}}, z))
	b.f.Return(outs...)
	r := rand.New(rand.NewPCG(7, 8))
	var args []*ir.Literal
	for _, p := range b.f.Params {
		args = append(args, randLiteral(r, p.Type))
	}
	evalAndCompare(t, b.f, nil, args...)
}

// A bitcast_convert is a view that reads its bytes as another type: a
// fused chain around it reads it as a leaf of its own type and count.
func TestFusionThroughBitcast(t *testing.T) {
	t.Parallel()
	b := newBuilder(t, "bitcasts", ir.TensorOf(ir.U32, 6))
	x := b.f.Params[0]
	one := func(d ir.DType) *ir.Value {
		c := b.emit(ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarLiteral(d, 1)})
		return c
	}
	bc := func(v *ir.Value, shape ...int) *ir.Value {
		return b.emit(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: shape, Dims: []int{}}, v)
	}
	// Same width, after and before elementwise ops.
	x1 := b.emit(ir.OpAdd, nil, x, bc(one(ir.U32), 6))
	f := b.emit(ir.OpBitcastConvert, ir.BitcastConvertAttr{To: ir.F32}, x1)
	y := b.emit(ir.OpMultiply, nil, b.emit(ir.OpSubtract, nil, f, bc(one(ir.F32), 6)), f)
	// Narrower: one more dimension.
	u8 := b.emit(ir.OpBitcastConvert, ir.BitcastConvertAttr{To: ir.U8}, x)
	z := b.emit(ir.OpXor, nil, u8, bc(one(ir.U8), 6, 4))
	// Wider: one less.
	w := b.emit(ir.OpBitcastConvert, ir.BitcastConvertAttr{To: ir.U64}, b.emit(ir.OpReshape, ir.ReshapeAttr{Shape: []int{3, 2}}, x1))
	w2 := b.emit(ir.OpAdd, nil, w, bc(one(ir.U64), 3))
	b.f.Return(y, z, w2)
	r := rand.New(rand.NewPCG(9, 10))
	evalAndCompare(t, b.f, nil, randLiteral(r, b.f.Params[0].Type))
}

// An update w ± c·dot(a, b) is one GEMM accumulating into w (gemmacc.go):
// one kernel, and results equal to the evaluator's where the products
// are exact (small integers); a dot used elsewhere too stays a dot.
func TestGemmAccumulate(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(11, 12))
	for _, c := range []struct {
		name    string
		dt      ir.DType
		op      ir.Op
		scale   float64 // 0: no multiply
		reuse   bool    // the dot is also a result
		kernels int
	}{
		{"sub scaled f32", ir.F32, ir.OpSubtract, 0.5, false, 1},
		{"add scaled f64", ir.F64, ir.OpAdd, 2, false, 1},
		{"sub plain", ir.F32, ir.OpSubtract, 0, false, 1},
		{"dot reused", ir.F32, ir.OpSubtract, 0.5, true, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, a, x := ir.TensorOf(c.dt, 5, 7), ir.TensorOf(c.dt, 5, 3), ir.TensorOf(c.dt, 3, 7)
			b := newBuilder(t, "acc", w, a, x)
			d := b.emit(ir.OpDotGeneral, ir.DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{0}}, b.f.Params[1], b.f.Params[2])
			u := d
			if c.scale != 0 {
				k := b.emit(ir.OpConstant, ir.ConstantAttr{Value: ir.FullLiteral(w, c.scale)})
				u = b.emit(ir.OpMultiply, nil, k, d)
			}
			outs := []*ir.Value{b.emit(c.op, nil, b.f.Params[0], u)}
			if c.reuse {
				outs = append(outs, d)
			}
			b.f.Return(outs...)
			args := []*ir.Literal{
				smallInts(r, ir.TensorOf(ir.S64, 5, 7), -8, 8), smallInts(r, ir.TensorOf(ir.S64, 5, 3), -8, 8), smallInts(r, ir.TensorOf(ir.S64, 3, 7), -8, 8),
			}
			for i, l := range args {
				args[i] = ir.LiteralFromFloat64s(b.f.Params[i].Type, l.Float64s())
			}
			sm, err := lowering.Lower(b.f, lowering.Options{Verify: true})
			if err != nil {
				t.Fatal(err)
			}
			prog := planText(t, string(stablehlo.Format(sm, stablehlo.PrintOptions{})), codegen.Options{})
			if got := prog.Kernels(); got != c.kernels {
				t.Errorf("%d kernels, want %d:\n%s", got, c.kernels, strings.Join(prog.KernelList(), "\n"))
			}
			evalAndCompare(t, b.f, nil, args...)
		})
	}
	// A bias broadcast to the dot's shape is not an argument: it stays a
	// dot and an add (the add fused with the broadcast).
	t.Run("bias", func(t *testing.T) {
		a, x, bias := ir.TensorOf(ir.F32, 5, 3), ir.TensorOf(ir.F32, 3, 7), ir.TensorOf(ir.F32, 7)
		b := newBuilder(t, "bias", a, x, bias)
		d := b.emit(ir.OpDotGeneral, ir.DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{0}}, b.f.Params[0], b.f.Params[1])
		bb := b.emit(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: []int{5, 7}, Dims: []int{1}}, b.f.Params[2])
		b.f.Return(b.emit(ir.OpAdd, nil, d, bb))
		sm, err := lowering.Lower(b.f, lowering.Options{Verify: true})
		if err != nil {
			t.Fatal(err)
		}
		prog := planText(t, string(stablehlo.Format(sm, stablehlo.PrintOptions{})), codegen.Options{})
		if got := prog.Kernels(); got != 2 {
			t.Errorf("%d kernels, want 2 (a dot, a fused add):\n%s", got, strings.Join(prog.KernelList(), "\n"))
		}
	})
}

// TestFusionCompileTime (with -transformer) reports the GPT-2-small
// example's kernel count and cold compile time per stage with and
// without fusion. Not parallel: it sets the environment.
func TestFusionCompileTime(t *testing.T) {
	if !*transformer {
		t.Skip("run with -transformer")
	}
	src := exampleStableHLO(t, examples.GPT2Small())
	for _, off := range []bool{false, true} {
		env := ""
		if off {
			env = "nofusion"
		}
		envtest.Setenv(t, "STELA_DEBUG", env)
		kernels := planText(t, src, codegen.Options{}).Kernels()
		so, tm, err := cpu.Compile([]byte(src), cpu.CompileConfig{})
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(so)
		t.Logf("fusion %-5v: %3d kernels, %v", !off, kernels, tm)
	}
}

// TestFusionDecisions: which values fuse and which are materialized, by
// the number of kernels of small programs.
func TestFusionDecisions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		kernels    int
	}{
		{"chain with broadcasts and splats is one loop", `
  %a = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
  %c = stablehlo.constant dense<0.5> : tensor<8x16xf32>
  %0 = stablehlo.multiply %x, %a : tensor<8x16xf32>
  %1 = stablehlo.add %0, %c : tensor<8x16xf32>
  %2 = stablehlo.tanh %1 : tensor<8x16xf32>
  %3 = stablehlo.multiply %1, %2 : tensor<8x16xf32>
  return %3 : tensor<8x16xf32>`, 1},
		{"a value used by two kernels is materialized", `
  %0 = stablehlo.exponential %x : tensor<8x16xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<16xf32>
  %2 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
  %3 = stablehlo.divide %0, %2 : tensor<8x16xf32>
  return %3 : tensor<8x16xf32>`, 3},
		{"an expensive op under a broadcast is materialized", `
  %0 = stablehlo.exponential %v : tensor<16xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.add %x, %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>`, 2},
		{"a cheap op under a broadcast is recomputed", `
  %0 = stablehlo.negate %v : tensor<16xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.add %x, %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>`, 1},
		{"a reduction fuses its input and its consumer", `
  %0 = stablehlo.multiply %x, %x : tensor<8x16xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %d = stablehlo.constant dense<16.0> : tensor<8xf32>
  %2 = stablehlo.divide %1, %d : tensor<8xf32>
  %3 = stablehlo.sqrt %2 : tensor<8xf32>
  %4 = stablehlo.reshape %3 : (tensor<8xf32>) -> tensor<8x1xf32>
  %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x16xf32>
  %6 = stablehlo.divide %x, %5 : tensor<8x16xf32>
  return %6 : tensor<8x16xf32>`, 2},
		{"a reduction over leading dimensions keeps its kernel", `
  %0 = stablehlo.multiply %x, %x : tensor<8x16xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<16xf32>
  %2 = stablehlo.sqrt %1 : tensor<16xf32>
  return %2 : tensor<16xf32>`, 2},
		{"a result is materialized even when a chain uses it", `
  %0 = stablehlo.negate %x : tensor<8x16xf32>
  %1 = stablehlo.abs %0 : tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>`, 2},
		{"a chain and a slice feed a transpose in one kernel", `
  %0 = stablehlo.add %x, %x : tensor<8x16xf32>
  %1 = stablehlo.slice %0 [0:8, 0:8] : (tensor<8x16xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = stablehlo.dot_general %2, %2, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %3 : tensor<8x8xf32>`, 2},
		{"a slice that a dot reads is materialized", `
  %0 = stablehlo.add %x, %x : tensor<8x16xf32>
  %1 = stablehlo.slice %0 [0:8, 0:8] : (tensor<8x16xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = stablehlo.dot_general %2, %1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %3 : tensor<8x8xf32>`, 3},
	}
	for _, tc := range tests {
		res := "(" + strings.TrimSpace(tc.body[strings.LastIndex(tc.body, " : ")+3:]) + ")"
		src := "func.func public @main(%x: tensor<8x16xf32>, %v: tensor<16xf32>, %s: tensor<f32>) -> " + res + " {" + tc.body + "\n}"
		p := planText(t, src, codegen.Options{})
		if got := p.Kernels(); got != tc.kernels {
			t.Errorf("%s: %d kernels, want %d:\n  %s", tc.name, got, tc.kernels, strings.Join(p.KernelList(), "\n  "))
		}
	}
}

// Long map loops ask LLVM's vectorizer for a 4x interleave (loopmd.go);
// short ones, and loops that carry a value (a reduction), keep its choice.
func TestInterleaveHint(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      bool
	}{
		{"tanh", `func.func public @main(%a: tensor<4096xf32>) -> tensor<4096xf32> {
  %0 = stablehlo.tanh %a : tensor<4096xf32>
  return %0 : tensor<4096xf32>
}`, true},
		{"add", `func.func public @main(%a: tensor<4096xf32>, %b: tensor<4096xf32>) -> tensor<4096xf32> {
  %0 = stablehlo.add %a, %b : tensor<4096xf32>
  return %0 : tensor<4096xf32>
}`, false},
		{"reduce", `func.func public @main(%a: tensor<4096xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %e = stablehlo.exponential %a : tensor<4096xf32>
  %t = stablehlo.tanh %e : tensor<4096xf32>
  %0 = stablehlo.reduce(%t init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4096xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text, err := planText(t, tc.src, codegen.Options{}).LLVM()
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(text), `!"llvm.loop.interleave.count", i32 4`); got != tc.want {
				t.Errorf("interleave hint %v, want %v", got, tc.want)
			}
		})
	}
}

// chainProgram is n chained transcendental functions (tanh, exp, log in
// turn) on a vector: issue 20's 31 KB program of 600 ops fused into one
// kernel whose loop body took llc 35 s.
func chainProgram(n int) string {
	var b strings.Builder
	b.WriteString("func.func @main(%a: tensor<1024xf32>) -> tensor<1024xf32> {\n")
	prev := "%a"
	for i := range n {
		fmt.Fprintf(&b, "  %%v%d = stablehlo.%s %s : tensor<1024xf32>\n", i, []string{"tanh", "exponential", "log"}[i%3], prev)
		prev = fmt.Sprintf("%%v%d", i)
	}
	fmt.Fprintf(&b, "  return %s : tensor<1024xf32>\n}\n", prev)
	return b.String()
}

// TestFusionBoundsKernelSize: a chain of elementwise ops is cut into
// kernels of at most MaxFusedExpensive expensive ops each, so that no
// kernel's code (and llc's time on it) grows with the program; short
// chains stay one kernel.
func TestFusionBoundsKernelSize(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 10, codegen.MaxFusedExpensive, codegen.MaxFusedExpensive + 1, 600} {
		p := planText(t, chainProgram(n), codegen.Options{})
		want := (n + codegen.MaxFusedExpensive - 1) / codegen.MaxFusedExpensive
		if got := p.Kernels(); got != want {
			t.Errorf("%d chained transcendental ops: %d kernels, want %d (at most %d such ops a kernel)", n, got, want, codegen.MaxFusedExpensive)
		}
	}
}
