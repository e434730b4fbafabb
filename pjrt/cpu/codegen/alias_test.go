package codegen_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/lowering"
	"github.com/stela-ml/stela/pjrt/cpu/codegen"
	"github.com/stela-ml/stela/stablehlo"
)

// Input/output aliasing (alias.go): a program whose arguments carry
// tf.aliasing_output runs with each aliased result in its argument's
// buffer, as the plugin calls it, and must compute what ir.Eval does
// however the aliased argument is read: element by element (in place),
// transposed, multiplied, read again later, returned as another result,
// or swapped with another donated argument.

// runAliased compiles f with the parameter → result pairs aliases,
// checks how many aliased results the planner writes in place (want;
// -1: any), runs it with the paired buffers shared and compares every
// result with ir.Eval bit for bit.
func runAliased(t *testing.T, f *ir.Func, aliases []int, want int, args ...*ir.Literal) {
	t.Helper()
	wantRes, err := ir.Eval(f, args...)
	if err != nil {
		t.Fatal(err)
	}
	m, err := lowering.Lower(f, lowering.Options{Verify: true, Aliases: aliases})
	if err != nil {
		t.Fatal(err)
	}
	text := string(stablehlo.Format(m, stablehlo.PrintOptions{}))
	pm, err := stablehlo.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := codegen.Plan(pm, codegen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want >= 0 && prog.InPlaceResults() != want {
		t.Errorf("%d aliased results computed in place, want %d\n%s", prog.InPlaceResults(), want, strings.Join(prog.KernelList(), "\n"))
	}
	resAlias := make([]int, len(f.Results))
	for j := range resAlias {
		resAlias[j] = -1
	}
	var wantText strings.Builder
	for i, j := range aliases {
		if j >= 0 {
			resAlias[j] = i
		}
	}
	for j, i := range resAlias {
		if i >= 0 {
			fmt.Fprintf(&wantText, "%d %d\n", j, i)
		}
	}
	p := compile(t, text)
	if p.lib.Aliases != wantText.String() {
		t.Errorf("stela_aliases = %q, want %q", p.lib.Aliases, wantText.String())
	}
	var raw [][]byte
	for _, a := range args {
		raw = append(raw, a.Bytes())
	}
	var sizes []int
	for _, r := range p.results {
		sizes = append(sizes, r.NumElements()*r.DType.Size())
	}
	outs, rc, msg := p.lib.CallAliased(raw, sizes, resAlias)
	if rc != 0 {
		t.Fatalf("stela_entry returned %d: %s", rc, msg)
	}
	for j, b := range outs {
		got, err := ir.LiteralFromBytes(p.results[j], b)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := diff(got, wantRes[j], -1); err != nil {
			t.Errorf("result #%d: %v", j, err)
		}
	}
}

func TestAliasedResults(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	m := ir.TensorOf(ir.F32, 4, 5)
	sq := ir.TensorOf(ir.F32, 8, 8)
	big := ir.TensorOf(ir.F32, 256, 1024) // a parallel fused loop
	lit := func(t ir.Type) *ir.Literal { return randLiteral(r, t) }
	// ints are small integers, whose sums and products are exact in any
	// order (a GEMM's order is not ir.Eval's).
	ints := func(d ir.DType, t ir.Type) *ir.Literal {
		return ir.LiteralFromFloat64s(ir.TensorOf(d, t.Shape...), smallInts(r, ir.TensorOf(ir.S64, t.Shape...), -8, 8).Float64s())
	}
	scalar := func(b *builder, v *ir.Value, t ir.Type) *ir.Value {
		return b.emit(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: t.Shape, Dims: []int{}}, v)
	}
	// sgd is w - lr*g, the update of a training step.
	sgd := func(t *testing.T, typ ir.Type) (*ir.Func, []*ir.Literal) {
		b := newBuilder(t, "sgd", typ, typ, ir.Scalar(typ.DType))
		w, g, lr := b.f.Params[0], b.f.Params[1], b.f.Params[2]
		b.f.Return(b.emit(ir.OpSubtract, nil, w, b.emit(ir.OpMultiply, nil, scalar(b, lr, typ), g)))
		return b.f, []*ir.Literal{lit(typ), lit(typ), ir.ScalarLiteral(typ.DType, 0.25)}
	}
	dot := ir.DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{0}}
	for _, c := range []struct {
		name    string
		build   func(t *testing.T) (*ir.Func, []*ir.Literal)
		aliases []int
		inPlace int
	}{
		{"sgd", func(t *testing.T) (*ir.Func, []*ir.Literal) { return sgd(t, m) }, []int{0}, 1},
		{"sgd parallel", func(t *testing.T) (*ir.Func, []*ir.Literal) { return sgd(t, big) }, []int{0}, 1},
		{"sgd unfused bf16", func(t *testing.T) (*ir.Func, []*ir.Literal) {
			typ := ir.TensorOf(ir.BF16, 4, 5)
			f, args := sgd(t, typ)
			args[0] = ir.LiteralFromFloat64s(typ, lit(ir.TensorOf(ir.F32, 4, 5)).Float64s())
			args[1] = ir.LiteralFromFloat64s(typ, lit(ir.TensorOf(ir.F32, 4, 5)).Float64s())
			return f, args
		}, []int{0}, 1},
		{"sgd on g", func(t *testing.T) (*ir.Func, []*ir.Literal) { return sgd(t, m) }, []int{-1, 0}, 1},
		{"identity", func(t *testing.T) (*ir.Func, []*ir.Literal) {
			b := newBuilder(t, "id", m, m)
			b.f.Return(b.f.Params[0], b.emit(ir.OpAdd, nil, b.f.Params[0], b.f.Params[1]))
			return b.f, []*ir.Literal{lit(m), lit(m)}
		}, []int{0}, 1},
		{"dynamic_update_slice", func(t *testing.T) (*ir.Func, []*ir.Literal) {
			// A key/value cache written at one position: in place, only
			// the update's elements are written; the result is read
			// after (by the add), from the argument's buffer.
			b := newBuilder(t, "dus", sq, ir.TensorOf(ir.F32, 1, 8), ir.Scalar(ir.S32))
			zero := b.emit(ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarLiteral(ir.S32, 0)})
			u := b.emit(ir.OpDynamicUpdateSlice, nil, b.f.Params[0], b.f.Params[1], b.f.Params[2], zero)
			b.f.Return(u, b.emit(ir.OpAdd, nil, u, u))
			return b.f, []*ir.Literal{lit(sq), lit(ir.TensorOf(ir.F32, 1, 8)), ir.ScalarLiteral(ir.S32, 3)}
		}, []int{0}, 1},
		{"dynamic_update_slice after a read", func(t *testing.T) (*ir.Func, []*ir.Literal) {
			// The cache is read (by the add) after the update: not in
			// place.
			b := newBuilder(t, "dus2", sq, ir.TensorOf(ir.F32, 1, 8), ir.Scalar(ir.S32))
			zero := b.emit(ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarLiteral(ir.S32, 0)})
			u := b.emit(ir.OpDynamicUpdateSlice, nil, b.f.Params[0], b.f.Params[1], b.f.Params[2], zero)
			b.f.Return(u, b.emit(ir.OpAdd, nil, u, b.f.Params[0]))
			return b.f, []*ir.Literal{lit(sq), lit(ir.TensorOf(ir.F32, 1, 8)), ir.ScalarLiteral(ir.S32, 5)}
		}, []int{0}, 0},
		{"transpose", func(t *testing.T) (*ir.Func, []*ir.Literal) {
			b := newBuilder(t, "tr", sq)
			b.f.Return(b.emit(ir.OpTranspose, ir.TransposeAttr{Perm: []int{1, 0}}, b.f.Params[0]))
			return b.f, []*ir.Literal{lit(sq)}
		}, []int{0}, 0},
		{"fused transpose", func(t *testing.T) (*ir.Func, []*ir.Literal) {
			// The transpose is a kernel of its own (into the arena): the
			// add that reads it is the last reader of w, at its element.
			b := newBuilder(t, "trf", sq)
			w := b.f.Params[0]
			b.f.Return(b.emit(ir.OpAdd, nil, w, b.emit(ir.OpTranspose, ir.TransposeAttr{Perm: []int{1, 0}}, b.emit(ir.OpNegate, nil, w))))
			return b.f, []*ir.Literal{lit(sq)}
		}, []int{0}, 1},
		{"reverse", func(t *testing.T) (*ir.Func, []*ir.Literal) {
			b := newBuilder(t, "rev", m)
			w := b.f.Params[0]
			b.f.Return(b.emit(ir.OpMultiply, nil, w, b.emit(ir.OpReverse, ir.ReverseAttr{Dims: []int{1}}, w)))
			return b.f, []*ir.Literal{lit(m)}
		}, []int{0}, 0},
		{"row sum", func(t *testing.T) (*ir.Func, []*ir.Literal) {
			// The reduce is a kernel of its own; the subtract reads w at
			// its element.
			b := newBuilder(t, "center", m)
			w := b.f.Params[0]
			sum := b.reduceSum(w, 1)
			b.f.Return(b.emit(ir.OpSubtract, nil, w, b.emit(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: m.Shape, Dims: []int{0}}, sum)))
			return b.f, []*ir.Literal{ints(sq.DType, m)}
		}, []int{0}, 1},
		{"row sum fused", func(t *testing.T) (*ir.Func, []*ir.Literal) {
			// A fused slice of w next to w: another element of w is read
			// in the loop that writes w.
			b := newBuilder(t, "shift", m)
			w := b.f.Params[0]
			sl := b.emit(ir.OpSlice, ir.SliceAttr{Start: []int{0, 0}, Limit: []int{1, 5}, Stride: []int{1, 1}}, w)
			b.f.Return(b.emit(ir.OpAdd, nil, w, b.emit(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: m.Shape, Dims: []int{0, 1}}, sl)))
			return b.f, []*ir.Literal{lit(m)}
		}, []int{0}, 0},
		{"matmul of the argument", func(t *testing.T) (*ir.Func, []*ir.Literal) {
			b := newBuilder(t, "mm", sq, sq)
			b.f.Return(b.emit(ir.OpDotGeneral, dot, b.f.Params[0], b.f.Params[1]))
			return b.f, []*ir.Literal{ints(ir.F32, sq), ints(ir.F32, sq)}
		}, []int{0}, 0},
		{"matmul after the last read", func(t *testing.T) (*ir.Func, []*ir.Literal) {
			b := newBuilder(t, "mm2", sq, sq)
			w, x := b.f.Params[0], b.f.Params[1]
			s := b.reduceSum(w, 0, 1)
			b.f.Return(b.emit(ir.OpDotGeneral, dot, x, x), s)
			return b.f, []*ir.Literal{ints(ir.F32, sq), ints(ir.F32, sq)}
		}, []int{0}, 1},
		{"read after the update", func(t *testing.T) (*ir.Func, []*ir.Literal) {
			b := newBuilder(t, "later", m, m)
			w, g := b.f.Params[0], b.f.Params[1]
			u := b.emit(ir.OpSubtract, nil, w, g)
			b.f.Return(u, b.reduceSum(b.emit(ir.OpMultiply, nil, w, u), 0, 1))
			return b.f, []*ir.Literal{ints(ir.F32, m), ints(ir.F32, m)}
		}, []int{0}, 0},
		{"returned again", func(t *testing.T) (*ir.Func, []*ir.Literal) {
			b := newBuilder(t, "again", m, m)
			w, g := b.f.Params[0], b.f.Params[1]
			b.f.Return(b.emit(ir.OpSubtract, nil, w, g), w)
			return b.f, []*ir.Literal{lit(m), lit(m)}
		}, []int{0}, 0},
		{"swap", func(t *testing.T) (*ir.Func, []*ir.Literal) {
			b := newBuilder(t, "swap", m, m)
			b.f.Return(b.f.Params[1], b.f.Params[0])
			return b.f, []*ir.Literal{lit(m), lit(m)}
		}, []int{0, 1}, 0},
		{"swap and sum", func(t *testing.T) (*ir.Func, []*ir.Literal) {
			b := newBuilder(t, "swap2", m, m)
			x, y := b.f.Params[0], b.f.Params[1]
			b.f.Return(b.emit(ir.OpAdd, nil, x, y), x, y)
			return b.f, []*ir.Literal{lit(m), lit(m)}
		}, []int{2, 1}, 0},
		{"jax example", func(t *testing.T) (*ir.Func, []*ir.Literal) {
			// JAX's pairing of f(w, g, x) = (w - 0.1g, sum(x), 2w) with
			// donate_argnums=(0, 1): w → result 0, g → result 2.
			v := ir.TensorOf(ir.F32, 3)
			b := newBuilder(t, "jaxf", m, m, v)
			w, g, x := b.f.Params[0], b.f.Params[1], b.f.Params[2]
			r0 := b.emit(ir.OpSubtract, nil, w, b.emit(ir.OpMultiply, nil, scalar(b, b.constOf(ir.F32, 0.1), m), g))
			r2 := b.emit(ir.OpMultiply, nil, w, scalar(b, b.constOf(ir.F32, 2), m))
			b.f.Return(r0, b.reduceSum(x, 0), r2)
			return b.f, []*ir.Literal{lit(m), lit(m), lit(v)}
		}, []int{0, 2}, -1},
		{"sgd on a dot", func(t *testing.T) (*ir.Func, []*ir.Literal) {
			// w - c·dot(xᵀ, g), one GEMM accumulating into w in place
			// (gemmacc.go).
			x, g := ir.TensorOf(ir.F32, 6, 8), ir.TensorOf(ir.F32, 6, 8)
			b := newBuilder(t, "sgddot", sq, x, g)
			w := b.f.Params[0]
			dw := b.emit(ir.OpDotGeneral, ir.DotGeneralAttr{LhsContract: []int{0}, RhsContract: []int{0}}, b.f.Params[1], b.f.Params[2])
			b.f.Return(b.emit(ir.OpSubtract, nil, w, b.emit(ir.OpMultiply, nil, dw, scalar(b, b.constOf(ir.F32, 0.25), sq))))
			return b.f, []*ir.Literal{ints(ir.F32, sq), ints(ir.F32, x), ints(ir.F32, g)}
		}, []int{0}, 1},
		{"sgd on a dot, not donated", func(t *testing.T) (*ir.Func, []*ir.Literal) {
			b := newBuilder(t, "sgddot2", sq, sq, sq)
			w := b.f.Params[0]
			dw := b.emit(ir.OpDotGeneral, dot, b.f.Params[1], b.f.Params[2])
			b.f.Return(b.emit(ir.OpAdd, nil, dw, w), w)
			return b.f, []*ir.Literal{ints(ir.F32, sq), ints(ir.F32, sq), ints(ir.F32, sq)}
		}, nil, -1},
		{"constant result", func(t *testing.T) (*ir.Func, []*ir.Literal) {
			b := newBuilder(t, "zero", m)
			b.f.Return(scalar(b, b.constOf(ir.F32, 3), m), b.reduceSum(b.f.Params[0], 0))
			return b.f, []*ir.Literal{lit(m)}
		}, []int{0}, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, args := c.build(t)
			runAliased(t, f, c.aliases, c.inPlace, args...)
		})
	}
}

// TestAliasErrors: tf.aliasing_output that cannot hold is a compile
// error naming the argument.
func TestAliasErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`func.func @main(%a: tensor<4xf32> {tf.aliasing_output = 1 : i32}) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}`, "argument #0 of @main: tf.aliasing_output = 1, but @main has 1 results"},
		{`func.func @main(%a: tensor<4xf32> {tf.aliasing_output = 0 : i32}) -> tensor<4xi32> {
  %0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}`, "argument #0 of @main has type tensor<4xf32> but its tf.aliasing_output, result #0, has type tensor<4xi32>"},
		{`func.func @main(%a: tensor<4xf32> {tf.aliasing_output = 0 : i32}, %b: tensor<4xf32> {tf.aliasing_output = 0 : i32}) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}`, "arguments #0 and #1 of @main both alias result #0"},
	} {
		m, err := stablehlo.Parse([]byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		_, err = codegen.Plan(m, codegen.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Plan: %v, want an error containing %q", err, c.want)
		}
	}
}
