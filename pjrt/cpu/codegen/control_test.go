package codegen_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// Control flow (while, case, if): differential tests against ir.Eval on
// every element type, hand-written StableHLO for what ir's lowering never
// produces (captured values, swapped loop state, nested loops capturing
// from two levels up, calls in loop bodies, if), and random programs that
// mix loops, branches, reductions and dynamic slices.

// compileAndRun compiles f once and compares it with the evaluator on each
// of the argument sets.
func compileAndRun(t *testing.T, f *ir.Func, names []checked, argSets ...[]*ir.Literal) {
	t.Helper()
	p := compile(t, lowerText(t, f))
	for k, args := range argSets {
		want, err := ir.Eval(f, args...)
		if err != nil {
			t.Fatal(err)
		}
		got, rc, msg := p.run(t, args...)
		if rc != 0 {
			t.Fatalf("run %d: stela_entry returned %d: %s", k, rc, msg)
		}
		if len(got) != len(want) {
			t.Fatalf("%d results, want %d", len(got), len(want))
		}
		for i := range want {
			name, ulp := fmt.Sprintf("result #%d", i), -1
			if i < len(names) {
				name, ulp = names[i].name, names[i].ulp
			}
			if _, err := diff(got[i], want[i], ulp); err != nil {
				t.Errorf("run %d: %s: %v\n  args: %v", k, name, err, fmtArgs(args))
			}
		}
	}
}

func scalarI32(v int64) *ir.Literal { return ir.LiteralFromInt64s(ir.Scalar(ir.S32), []int64{v}) }

// constOf emits a scalar constant of type d (v converted).
func (b *builder) constOf(d ir.DType, v float64) *ir.Value {
	return b.emit(ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarLiteral(d, v)})
}

// step is an elementwise update that changes values of any element type
// and stays in range: x*0.5+1 on floats, x*3+1 (wrapping) on integers,
// not x on i1.
func (b *builder) step(x *ir.Value) *ir.Value {
	t := x.Type
	d := t.DType
	bc := func(v *ir.Value) *ir.Value {
		return b.emit(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: t.Shape, Dims: []int{}}, v)
	}
	switch {
	case d == ir.Bool:
		return b.emit(ir.OpNot, nil, x)
	case d.IsFloat():
		return b.emit(ir.OpAdd, nil, b.emit(ir.OpMultiply, nil, x, bc(b.constOf(d, 0.5))), bc(b.constOf(d, 1)))
	}
	return b.emit(ir.OpAdd, nil, b.emit(ir.OpMultiply, nil, x, bc(b.constOf(d, 3))), bc(b.constOf(d, 1)))
}

// sumRegion is the scalar region (a, b) → a + b (or on i1).
func sumRegion(t testing.TB, d ir.DType) *ir.Func {
	r := newBuilder(t, "sum", ir.Scalar(d), ir.Scalar(d))
	r.f.Return(r.emit(ir.OpAdd, nil, r.f.Params[0], r.f.Params[1]))
	return r.f
}

// reduceSum reduces x over dims with add.
func (b *builder) reduceSum(x *ir.Value, dims ...int) *ir.Value {
	d := x.Type.DType
	return b.emitN(ir.OpReduce, ir.ReduceAttr{Dims: dims}, []*ir.Func{sumRegion(b.t, d)}, x, b.constOf(d, 0))[0]
}

// countedLoop builds while (i, state...) { i < n } { i+1, body(state) }
// with n an si32 value of the enclosing function.
func (b *builder) countedLoop(n *ir.Value, init []*ir.Value, body func(rb *builder, i *ir.Value, st []*ir.Value) []*ir.Value) []*ir.Value {
	types := []ir.Type{ir.Scalar(ir.S32), n.Type}
	for _, v := range init {
		types = append(types, v.Type)
	}
	cond := newBuilder(b.t, "cond", types...)
	cond.f.Return(cond.emit(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpLT}, cond.f.Params[0], cond.f.Params[1]))
	bb := newBuilder(b.t, "body", types...)
	i := bb.f.Params[0]
	next := bb.emit(ir.OpAdd, nil, i, bb.constOf(ir.S32, 1))
	outs := append([]*ir.Value{next, bb.f.Params[1]}, body(bb, i, bb.f.Params[2:])...)
	bb.f.Return(outs...)
	args := append([]*ir.Value{b.constOf(ir.S32, 0), n}, init...)
	return b.emitN(ir.OpWhile, nil, []*ir.Func{cond.f, bb.f}, args...)[2:]
}

// TestWhileDifferential: a loop with a run-time trip count whose body
// updates a tensor and accumulates its reduction, on every element type
// (one loop per type in one module), run for 0, 1 and 7 iterations.
func TestWhileDifferential(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 3))
	params := []ir.Type{ir.Scalar(ir.S32)}
	for _, d := range dtypes {
		params = append(params, ir.TensorOf(d, 3, 4))
	}
	b := newBuilder(t, "loop", params...)
	n := b.f.Params[0]
	var outs []*ir.Value
	var names []checked
	xs := []*ir.Literal{nil}
	for k, d := range dtypes {
		x := b.f.Params[1+k]
		res := b.countedLoop(n, []*ir.Value{x, b.reduceSum(x, 0)}, func(rb *builder, i *ir.Value, st []*ir.Value) []*ir.Value {
			nx := rb.step(st[0])
			return []*ir.Value{nx, rb.emit(ir.OpAdd, nil, st[1], rb.reduceSum(nx, 0))}
		})
		outs = append(outs, res...)
		names = append(names, checked{d.String() + " x", -1}, checked{d.String() + " acc", -1})
		if d.IsFloat() {
			xs = append(xs, smallIntFloats(r, params[1+k]))
		} else {
			xs = append(xs, randLiteral(r, params[1+k]))
		}
	}
	b.f.Return(outs...)
	var sets [][]*ir.Literal
	for _, trips := range []int64{0, 1, 7} {
		sets = append(sets, append([]*ir.Literal{scalarI32(trips)}, xs[1:]...))
	}
	compileAndRun(t, b.f, names, sets...)
}

// TestCaseDifferential: three branches over captured operands, with
// in-range and out-of-range indices (negative and too large run the last
// branch), on every element type (one case per type in one module).
func TestCaseDifferential(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(4, 4))
	params := []ir.Type{ir.Scalar(ir.S32)}
	for _, d := range dtypes {
		params = append(params, ir.TensorOf(d, 2, 3), ir.TensorOf(d, 2, 3))
	}
	b := newBuilder(t, "case", params...)
	var outs []*ir.Value
	var names []checked
	var xs []*ir.Literal
	for k, d := range dtypes {
		xt := params[1+2*k]
		rt := ir.TensorOf(d, 3)
		br0 := newBuilder(t, "b0", xt, xt)
		br0.f.Return(br0.reduceSum(br0.emit(ir.OpAdd, nil, br0.f.Params[0], br0.f.Params[1]), 0), br0.f.Params[0])
		br1 := newBuilder(t, "b1", xt, xt)
		br1.f.Return(br1.reduceSum(br1.step(br1.f.Params[1]), 0), br1.f.Params[1])
		br2 := newBuilder(t, "b2", xt, xt)
		c := br2.emit(ir.OpConstant, ir.ConstantAttr{Value: randLiteral(r, rt)})
		br2.f.Return(c, br2.step(br2.f.Params[0]))
		res := b.emitN(ir.OpCase, nil, []*ir.Func{br0.f, br1.f, br2.f}, b.f.Params[0], b.f.Params[1+2*k], b.f.Params[2+2*k])
		outs = append(outs, res...)
		names = append(names, checked{d.String() + " r", -1}, checked{d.String() + " x", -1})
		xs = append(xs, randLiteral(r, xt), randLiteral(r, xt))
	}
	b.f.Return(outs...)
	var sets [][]*ir.Literal
	for _, i := range []int64{0, 1, 2, 3, -1, 1 << 30} {
		sets = append(sets, append([]*ir.Literal{scalarI32(i)}, xs...))
	}
	compileAndRun(t, b.f, names, sets...)
}

// TestNestedControlDifferential: a loop whose body holds a case (on the
// iteration number mod 3) and an inner loop that accumulates a reduction,
// with dynamic_update_slice writing one row per iteration (a scan).
func TestNestedControlDifferential(t *testing.T) {
	t.Parallel()
	d := ir.F64
	xt := ir.TensorOf(d, 4, 3)
	b := newBuilder(t, "nested", ir.Scalar(ir.S32), xt)
	n, x := b.f.Params[0], b.f.Params[1]
	outs := b.countedLoop(n, []*ir.Value{x, b.constOf(d, 0)}, func(rb *builder, i *ir.Value, st []*ir.Value) []*ir.Value {
		three := rb.constOf(ir.S32, 3)
		sel := rb.emit(ir.OpRemainder, nil, i, three)
		brs := make([]*ir.Func, 3)
		for k := range brs {
			bk := newBuilder(t, fmt.Sprintf("b%d", k), xt)
			v := bk.f.Params[0]
			for range k + 1 {
				v = bk.step(v)
			}
			bk.f.Return(v)
			brs[k] = bk.f
		}
		nx := rb.emitN(ir.OpCase, nil, brs, sel, st[0])[0]
		// Inner loop: i+1 times, add the sum of nx to the accumulator.
		lim := rb.emit(ir.OpAdd, nil, i, rb.constOf(ir.S32, 1))
		acc := rb.countedLoop(lim, []*ir.Value{st[1], nx}, func(ib *builder, j *ir.Value, s []*ir.Value) []*ir.Value {
			return []*ir.Value{ib.emit(ir.OpAdd, nil, s[0], ib.reduceSum(s[1], 0, 1)), s[1]}
		})[0]
		// Row i%4 of the state becomes the column sums of nx.
		row := rb.emit(ir.OpReshape, ir.ReshapeAttr{Shape: []int{1, 3}}, rb.reduceSum(nx, 0))
		ri := rb.emit(ir.OpRemainder, nil, i, rb.constOf(ir.S32, 4))
		nx = rb.emit(ir.OpDynamicUpdateSlice, nil, nx, row, ri, rb.constOf(ir.S32, 0))
		return []*ir.Value{nx, acc}
	})
	b.f.Return(outs...)
	r := rand.New(rand.NewPCG(5, 5))
	x0 := smallIntFloats(r, xt)
	compileAndRun(t, b.f, []checked{{"x", -1}, {"acc", -1}}, []*ir.Literal{scalarI32(0), x0}, []*ir.Literal{scalarI32(5), x0})
}

// runText compiles StableHLO text and runs it on args, failing on a
// non-zero return.
func runText(t *testing.T, src string, args ...*ir.Literal) []*ir.Literal {
	t.Helper()
	p := compile(t, src)
	got, rc, msg := p.run(t, args...)
	if rc != 0 {
		t.Fatalf("stela_entry returned %d: %s", rc, msg)
	}
	return got
}

func wantInts(t *testing.T, what string, got *ir.Literal, want ...int64) {
	t.Helper()
	g := got.Int64s()
	if fmt.Sprint(g) != fmt.Sprint(want) {
		t.Errorf("%s = %v, want %v", what, g, want)
	}
}

func wantFloats(t *testing.T, what string, got *ir.Literal, want ...float64) {
	t.Helper()
	g := got.Float64s()
	if fmt.Sprint(g) != fmt.Sprint(want) {
		t.Errorf("%s = %v, want %v", what, g, want)
	}
}

// TestWhileCapturesAndSwaps: loop bodies and conditions that use values
// from outside (one and two levels up), state that the body permutes
// (every result is another parameter: the copies must not clobber each
// other), a cond that returns a parameter directly, and a call in a body.
func TestWhileCapturesAndSwaps(t *testing.T) {
	src := `module {
  func.func private @twice(%x: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.add %x, %x : tensor<3xf32>
    return %0 : tensor<3xf32>
  }
  func.func @main(%n: tensor<i32>, %a: tensor<3xf32>, %b: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<i32>) {
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %k = stablehlo.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
    %0:4 = stablehlo.while(%i = %zero, %x = %a, %y = %b, %z = %c) : tensor<i32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
     cond {
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %one : tensor<i32>
      %s = stablehlo.add %x, %k : tensor<3xf32>
      stablehlo.return %i1, %y, %z, %s : tensor<i32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
    }
    %1:2 = stablehlo.while(%i = %zero, %acc = %a) : tensor<i32>, tensor<3xf32>
     cond {
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %one : tensor<i32>
      %2:2 = stablehlo.while(%j = %zero, %in = %acc) : tensor<i32>, tensor<3xf32>
       cond {
        %p = stablehlo.compare LT, %j, %i1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %p : tensor<i1>
      } do {
        %j1 = stablehlo.add %j, %one : tensor<i32>
        %t = stablehlo.add %in, %k : tensor<3xf32>
        stablehlo.return %j1, %t : tensor<i32>, tensor<3xf32>
      }
      %d = func.call @twice(%2#1) : (tensor<3xf32>) -> tensor<3xf32>
      stablehlo.return %i1, %d : tensor<i32>, tensor<3xf32>
    }
    %f = stablehlo.constant dense<false> : tensor<i1>
    %t = stablehlo.constant dense<true> : tensor<i1>
    %3:2 = stablehlo.while(%go = %t, %m = %n) : tensor<i1>, tensor<i32>
     cond {
      stablehlo.return %go : tensor<i1>
    } do {
      %m1 = stablehlo.add %m, %m : tensor<i32>
      stablehlo.return %f, %m1 : tensor<i1>, tensor<i32>
    }
    return %0#0, %0#1, %0#2, %0#3, %1#1, %3#1 : tensor<i32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<i32>
  }
}`
	f32 := func(v ...float64) *ir.Literal { return ir.LiteralFromFloat64s(ir.TensorOf(ir.F32, 3), v) }
	a, b, c := f32(1, 2, 3), f32(4, 5, 6), f32(7, 8, 9)
	p := compile(t, src)
	for _, n := range []int64{0, 1, 2, 4} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			got, rc, msg := p.run(t, scalarI32(n), a, b, c)
			if rc != 0 {
				t.Fatal(msg)
			}
			// The rotation (x, y, z) → (y, z, x + k), n times.
			x, y, z := []float64{1, 2, 3}, []float64{4, 5, 6}, []float64{7, 8, 9}
			acc := []float64{1, 2, 3}
			for i := range n {
				s := make([]float64, 3)
				for j := range s {
					s[j] = x[j] + float64(10*(j+1))
				}
				x, y, z = y, z, s
				for range i + 1 {
					for j := range acc {
						acc[j] += float64(10 * (j + 1))
					}
				}
				for j := range acc {
					acc[j] *= 2
				}
			}
			wantInts(t, "i", got[0], n)
			wantFloats(t, "x", got[1], x...)
			wantFloats(t, "y", got[2], y...)
			wantFloats(t, "z", got[3], z...)
			wantFloats(t, "nested", got[4], acc...)
			wantInts(t, "m", got[5], 2*n)
		})
	}
}

// TestIfAndCaseCaptures: stablehlo.if on a predicate and a case whose
// branches return captured values, constants and arguments.
func TestIfAndCaseCaptures(t *testing.T) {
	src := `func.func @main(%p: tensor<i1>, %i: tensor<i64>, %x: tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>, tensor<i64>) {
  %c = stablehlo.constant dense<[5, 6]> : tensor<2xi64>
  %0 = "stablehlo.if"(%p) ({
    %s = stablehlo.add %x, %c : tensor<2xi64>
    stablehlo.return %s : tensor<2xi64>
  }, {
    stablehlo.return %c : tensor<2xi64>
  }) : (tensor<i1>) -> tensor<2xi64>
  %1:2 = "stablehlo.case"(%i) ({
    stablehlo.return %x, %i : tensor<2xi64>, tensor<i64>
  }, {
    %m = stablehlo.multiply %x, %x : tensor<2xi64>
    %k = stablehlo.constant dense<-1> : tensor<i64>
    stablehlo.return %m, %k : tensor<2xi64>, tensor<i64>
  }) : (tensor<i64>) -> (tensor<2xi64>, tensor<i64>)
  return %0, %1#0, %1#1 : tensor<2xi64>, tensor<2xi64>, tensor<i64>
}`
	x := ir.LiteralFromInt64s(ir.TensorOf(ir.S64, 2), []int64{3, -4})
	i64s := func(v int64) *ir.Literal { return ir.LiteralFromInt64s(ir.Scalar(ir.S64), []int64{v}) }
	p := compile(t, src)
	for _, c := range []struct {
		p      bool
		i      int64
		if0    []int64
		c0, c1 []int64
	}{
		{true, 0, []int64{8, 2}, []int64{3, -4}, []int64{0}},
		{false, 1, []int64{5, 6}, []int64{9, 16}, []int64{-1}},
		{true, -5, []int64{8, 2}, []int64{9, 16}, []int64{-1}},
		{false, 1 << 40, []int64{5, 6}, []int64{9, 16}, []int64{-1}},
	} {
		got, rc, msg := p.run(t, ir.LiteralFromBools(ir.Scalar(ir.Bool), []bool{c.p}), i64s(c.i), x)
		if rc != 0 {
			t.Fatal(msg)
		}
		wantInts(t, fmt.Sprintf("if(%v)", c.p), got[0], c.if0...)
		wantInts(t, fmt.Sprintf("case(%d)#0", c.i), got[1], c.c0...)
		wantInts(t, fmt.Sprintf("case(%d)#1", c.i), got[2], c.c1...)
	}
}

// randTransform appends a random shape-preserving computation on x to
// rb's function: elementwise steps, a reduction broadcast back, a
// dynamic_update_slice at a run-time row, and (while depth > 0) a case on
// i mod 3 or a nested loop running i mod 3 times, whose bodies are random
// transforms too. i is an si32 scalar of rb's function.
func randTransform(r *rand.Rand, rb *builder, depth int, i, x *ir.Value) *ir.Value {
	xt := x.Type
	d := xt.DType
	choices := 3
	if depth > 0 {
		choices = 5
	}
	switch r.IntN(choices) {
	case 0:
		return rb.step(x)
	case 1:
		all := make([]int, xt.Rank())
		for k := range all {
			all[k] = k
		}
		s := rb.reduceSum(x, all...)
		return rb.emit(ir.OpAdd, nil, x, rb.emit(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: xt.Shape, Dims: []int{}}, s))
	case 2:
		rows := rb.constOf(ir.S32, float64(xt.Shape[0]))
		at := rb.emit(ir.OpRemainder, nil, i, rows)
		lim := append([]int{1}, xt.Shape[1:]...)
		one := make([]int, xt.Rank())
		for k := range one {
			one[k] = 1
		}
		row := rb.emit(ir.OpSlice, ir.SliceAttr{Start: make([]int, xt.Rank()), Limit: lim, Stride: one}, x)
		if d != ir.Bool {
			row = rb.emit(ir.OpNegate, nil, row)
		} else {
			row = rb.emit(ir.OpNot, nil, row)
		}
		starts := []*ir.Value{at}
		for range xt.Rank() - 1 {
			starts = append(starts, rb.constOf(ir.S32, 0))
		}
		return rb.emit(ir.OpDynamicUpdateSlice, nil, append([]*ir.Value{x, row}, starts...)...)
	case 3:
		sel := rb.emit(ir.OpRemainder, nil, i, rb.constOf(ir.S32, 3))
		var brs []*ir.Func
		for k := range 3 {
			bk := newBuilder(rb.t, fmt.Sprintf("b%d", k), ir.Scalar(ir.S32), xt)
			bk.f.Return(randTransform(r, bk, depth-1, bk.f.Params[0], bk.f.Params[1]))
			brs = append(brs, bk.f)
		}
		return rb.emitN(ir.OpCase, nil, brs, sel, i, x)[0]
	}
	n := rb.emit(ir.OpRemainder, nil, i, rb.constOf(ir.S32, 3))
	return rb.countedLoop(n, []*ir.Value{i, x}, func(ib *builder, j *ir.Value, st []*ir.Value) []*ir.Value {
		k := ib.emit(ir.OpAdd, nil, st[0], j)
		return []*ir.Value{st[0], randTransform(r, ib, depth-1, k, st[1])}
	})[1]
}

// TestRandomControlPrograms: random programs of loops, branches,
// reductions and dynamic updates (two levels of nesting), on every
// element type, each run for several trip counts, bit-exact against the
// evaluator.
func TestRandomControlPrograms(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(21, 21))
	params := []ir.Type{ir.Scalar(ir.S32)}
	for _, d := range dtypes {
		params = append(params, ir.TensorOf(d, 1+r.IntN(4), 1+r.IntN(3)))
	}
	b := newBuilder(t, "random", params...)
	n := b.f.Params[0]
	var outs []*ir.Value
	var names []checked
	var xs []*ir.Literal
	for k, d := range dtypes {
		x := b.f.Params[1+k]
		y := randTransform(r, b, 0, n, x)
		res := b.countedLoop(n, []*ir.Value{y}, func(rb *builder, i *ir.Value, st []*ir.Value) []*ir.Value {
			v := st[0]
			for range 2 {
				v = randTransform(r, rb, 2, i, v)
			}
			return []*ir.Value{v}
		})
		outs = append(outs, res[0], randTransform(r, b, 1, n, res[0]))
		names = append(names, checked{d.String() + " loop", -1}, checked{d.String() + " after", -1})
		if d.IsFloat() {
			xs = append(xs, smallIntFloats(r, params[1+k]))
		} else {
			xs = append(xs, randLiteral(r, params[1+k]))
		}
	}
	b.f.Return(outs...)
	var sets [][]*ir.Literal
	for _, k := range []int64{0, 1, 4} {
		sets = append(sets, append([]*ir.Literal{scalarI32(k)}, xs...))
	}
	compileAndRun(t, b.f, names, sets...)
}

// TestLoopWithDot: a loop body with a dot_general, whose kernel calls the
// runtime's GEMM: the loop's kernel takes the runtime table and passes it
// on. Small integers keep every sum exact.
func TestLoopWithDot(t *testing.T) {
	t.Parallel()
	for _, d := range []ir.DType{ir.F32, ir.F64} {
		xt := ir.TensorOf(d, 3, 4)
		wt := ir.TensorOf(d, 4, 4)
		b := newBuilder(t, "dot", ir.Scalar(ir.S32), xt, wt)
		n, x, w := b.f.Params[0], b.f.Params[1], b.f.Params[2]
		outs := b.countedLoop(n, []*ir.Value{x, w}, func(rb *builder, i *ir.Value, st []*ir.Value) []*ir.Value {
			dg := ir.DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{0}}
			return []*ir.Value{rb.emit(ir.OpDotGeneral, dg, st[0], st[1]), st[1]}
		})
		b.f.Return(outs[0])
		r := rand.New(rand.NewPCG(2, 2))
		wv := make([]float64, 16)
		for k := range wv {
			wv[k] = float64(r.IntN(2))
		}
		compileAndRun(t, b.f, []checked{{"x", -1}},
			[]*ir.Literal{scalarI32(3), smallIntFloats(r, xt), ir.LiteralFromFloat64s(wt, wv)},
			[]*ir.Literal{scalarI32(0), smallIntFloats(r, xt), ir.LiteralFromFloat64s(wt, wv)})
	}
}
