package codegen_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// reduce_window against the evaluator (random windows, strides, base and
// window dilations, padding including negative, several bodies and init
// values that are not the body's identity, so that padding shows), and
// select_and_scatter against a Go transcription of its semantics (XLA's:
// first selected element, padding skipped).

// randWindow makes a random reduce_window attribute for an input of the
// given shape.
func randWindow(r *rand.Rand, shape []int) ir.ReduceWindowAttr {
	var a ir.ReduceWindowAttr
	for range shape {
		w := 1 + r.IntN(3)
		lo, hi := r.IntN(4)-1, r.IntN(4)-1
		a.WindowDims = append(a.WindowDims, w)
		a.Strides = append(a.Strides, 1+r.IntN(3))
		a.BaseDilations = append(a.BaseDilations, 1+r.IntN(2))
		a.WindowDilations = append(a.WindowDilations, 1+r.IntN(2))
		a.Padding = append(a.Padding, [2]int{lo, hi})
	}
	return a
}

// TestReduceWindowDifferential: per element type, one module of random
// reduce_windows with add, max and min bodies (or/and on i1) and a
// two-result argmax body, each compared bit for bit with the evaluator
// (both fold each window sequentially in row-major order, padding as the
// init value).
func TestReduceWindowDifferential(t *testing.T) {
	for seed, d := range dtypes {
		t.Run(d.String(), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(77, uint64(seed)))
			ops := []ir.Op{ir.OpAdd, ir.OpMaximum, ir.OpMinimum}
			if d.IsBool() {
				ops = []ir.Op{ir.OpOr, ir.OpAnd, ir.OpXor}
			}
			type rcase struct {
				x    ir.Type
				a    ir.ReduceWindowAttr
				op   ir.Op
				pair bool // argmax with an index input
			}
			var cases []rcase
			var params []ir.Type
			for i := range 8 {
				shape := randShape(r, 3)
				if i%6 == 0 {
					shape = []int{2, 1 + r.IntN(9), 1 + r.IntN(9), 3} // NHWC pooling
				}
				c := rcase{x: ir.TensorOf(d, shape...), a: randWindow(r, shape), op: ops[i%len(ops)]}
				if i%5 == 4 && !d.IsBool() {
					c.pair = true
				}
				cases = append(cases, c)
				params = append(params, c.x, ir.TensorOf(d))
				if c.pair {
					params = append(params, ir.TensorOf(ir.S32, shape...), ir.TensorOf(ir.S32))
				}
			}
			b := newBuilder(t, "rw", params...)
			var outs []*ir.Value
			var names []checked
			pi := 0
			for i, c := range cases {
				x, init := b.f.Params[pi], b.f.Params[pi+1]
				pi += 2
				name := fmt.Sprintf("case %d: %v %v window %v strides %v bdil %v wdil %v pad %v", i, c.op, c.x,
					c.a.WindowDims, c.a.Strides, c.a.BaseDilations, c.a.WindowDilations, c.a.Padding)
				if c.pair {
					idx, iinit := b.f.Params[pi], b.f.Params[pi+1]
					pi += 2
					vs := b.emitN(ir.OpReduceWindow, c.a, []*ir.Func{region2(t, d, ir.S32)}, x, idx, init, iinit)
					outs = append(outs, vs...)
					names = append(names, checked{name + " argmax (value)", -1}, checked{name + " argmax (index)", -1})
					continue
				}
				body := region(t, d, 1, func(b *builder, acc, x []*ir.Value) []*ir.Value {
					return []*ir.Value{b.emit(c.op, nil, acc[0], x[0])}
				})
				outs = append(outs, b.emitN(ir.OpReduceWindow, c.a, []*ir.Func{body}, x, init)...)
				names = append(names, checked{name, -1})
			}
			b.f.Return(outs...)
			var args []*ir.Literal
			for _, p := range params {
				if p.DType == ir.S32 && !d.IsInteger() && p.Rank() > 0 {
					// argmax indices: distinct
					v := make([]int64, p.NumElements())
					for j := range v {
						v[j] = int64(j)
					}
					args = append(args, ir.LiteralFromInt64s(p, v))
					continue
				}
				args = append(args, randLiteral(r, p))
			}
			evalAndCompare(t, b.f, names, args...)
		})
	}
}

// sasCase is one select_and_scatter.
type sasCase struct {
	shape, window, strides []int
	pad                    [][2]int
	dir                    string // the select body's comparison: GE (first max) or GT (last max)...
}

// sourceShape is the shape of the source (and of the windows).
func (c sasCase) sourceShape() []int {
	s := make([]int, len(c.shape))
	for d, n := range c.shape {
		p := c.pad[d][0] + n + c.pad[d][1]
		if p <= 0 || c.window[d] > p {
			s[d] = 0
			continue
		}
		s[d] = (p-c.window[d])/c.strides[d] + 1
	}
	return s
}

// mlirType is tensor<AxBxT>.
func mlirType(shape []int, elem string) string {
	var sb strings.Builder
	sb.WriteString("tensor<")
	for _, n := range shape {
		fmt.Fprintf(&sb, "%dx", n)
	}
	return sb.String() + elem + ">"
}

func i64List(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// sasProgram is a module with one select_and_scatter per case, each on
// its own (operand, source, init) arguments, in the generic form.
func sasProgram(cases []sasCase, elem string) string {
	var args, res, body []string
	for i, c := range cases {
		xt, st, it := mlirType(c.shape, elem), mlirType(c.sourceShape(), elem), mlirType(nil, elem)
		args = append(args, fmt.Sprintf("%%x%d: %s, %%s%d: %s, %%i%d: %s", i, xt, i, st, i, it))
		res = append(res, xt)
		var pads []string
		for _, p := range c.pad {
			pads = append(pads, fmt.Sprintf("[%d, %d]", p[0], p[1]))
		}
		ct := "FLOAT"
		switch elem {
		case "i1":
			ct = "UNSIGNED"
		case "i32", "i64":
			ct = "SIGNED"
		}
		body = append(body, fmt.Sprintf(`  %%r%d = "stablehlo.select_and_scatter"(%%x%d, %%s%d, %%i%d) ({
  ^bb0(%%a: %s, %%b: %s):
    %%c = stablehlo.compare %s, %%a, %%b, %s : (%s, %s) -> tensor<i1>
    stablehlo.return %%c : tensor<i1>
  }, {
  ^bb0(%%a: %s, %%b: %s):
    %%c = stablehlo.add %%a, %%b : %s
    stablehlo.return %%c : %s
  }) {window_dimensions = array<i64: %s>, window_strides = array<i64: %s>, padding = dense<[%s]> : tensor<%dx2xi64>} : (%s, %s, %s) -> %s`,
			i, i, i, i, it, it, c.dir, ct, it, it, it, it, it, it,
			i64List(c.window), i64List(c.strides), strings.Join(pads, ", "), len(c.pad), xt, st, it, xt))
	}
	var rets []string
	for i := range cases {
		rets = append(rets, fmt.Sprintf("%%r%d", i))
	}
	return fmt.Sprintf("func.func public @main(%s) -> (%s) {\n%s\n  return %s : %s\n}\n",
		strings.Join(args, ", "), strings.Join(res, ", "), strings.Join(body, "\n"),
		strings.Join(rets, ", "), strings.Join(res, ", "))
}

// sasRef computes select_and_scatter on float64 images of the values
// (exact for the test's data), with add as scatter: add is folded in the
// element type by fold.
func sasRef(c sasCase, x, src []float64, init float64, fold func(a, b float64) float64) []float64 {
	out := make([]float64, len(x))
	for i := range out {
		out[i] = init
	}
	rank := len(c.shape)
	xs := make([]int, rank)
	acc := 1
	for d := rank - 1; d >= 0; d-- {
		xs[d] = acc
		acc *= c.shape[d]
	}
	sshape := c.sourceShape()
	sel := func(a, b float64) bool {
		switch c.dir {
		case "GE":
			return a >= b
		case "GT":
			return a > b
		case "LE":
			return a <= b
		}
		return a < b
	}
	each(sshape, func(si int, s []int) {
		best, have := 0, false
		each(c.window, func(_ int, w []int) {
			off := 0
			for d := range rank {
				p := s[d]*c.strides[d] + w[d] - c.pad[d][0]
				if p < 0 || p >= c.shape[d] {
					return
				}
				off += p * xs[d]
			}
			if !have || !sel(x[best], x[off]) {
				best, have = off, true
			}
		})
		if have {
			out[best] = fold(out[best], src[si])
		}
	})
	return out
}

// each calls f for every index of shape in row-major order, with the flat
// index.
func each(shape []int, f func(flat int, idx []int)) {
	n := 1
	for _, s := range shape {
		n *= s
	}
	idx := make([]int, len(shape))
	for i := range n {
		f(i, idx)
		for d := len(shape) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
}

// TestSelectAndScatter runs max-pool gradients (NHWC 3×3 stride 2 with
// SAME padding, 2×2 stride 2, overlapping windows that select the same
// element several times) and random windows with negative padding, with
// GE (the first maximum wins) and GT (the last) and LE/LT (minimum)
// selects, on each element type.
func TestSelectAndScatter(t *testing.T) {
	types := []struct {
		elem string
		d    ir.DType
	}{{"f32", ir.F32}, {"i64", ir.S64}} // (f64 and i32 take the same paths)
	for seed, ty := range types {
		t.Run(ty.elem, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(5, uint64(seed)))
			cases := []sasCase{
				{shape: []int{2, 7, 7, 3}, window: []int{1, 3, 3, 1}, strides: []int{1, 2, 2, 1}, pad: [][2]int{{0, 0}, {1, 1}, {1, 1}, {0, 0}}, dir: "GE"},
				{shape: []int{2, 8, 6, 2}, window: []int{1, 2, 2, 1}, strides: []int{1, 2, 2, 1}, pad: [][2]int{{0, 0}, {0, 0}, {0, 0}, {0, 0}}, dir: "GE"},
				{shape: []int{4, 4}, window: []int{3, 3}, strides: []int{1, 1}, pad: [][2]int{{1, 1}, {1, 1}}, dir: "GT"},
				{shape: []int{4, 2}, window: []int{3, 1}, strides: []int{2, 1}, pad: [][2]int{{0, 1}, {0, 0}}, dir: "GE"}, // the spec's example
			}
			dirs := []string{"GE", "GT", "LE", "LT"}
			for range 5 {
				rank := 1 + r.IntN(3)
				c := sasCase{dir: dirs[r.IntN(4)]}
				for range rank {
					c.shape = append(c.shape, 1+r.IntN(6))
					c.window = append(c.window, 1+r.IntN(3))
					c.strides = append(c.strides, 1+r.IntN(3))
					c.pad = append(c.pad, [2]int{r.IntN(4) - 1, r.IntN(4) - 1})
				}
				cases = append(cases, c)
			}
			p := compile(t, sasProgram(cases, ty.elem))
			var args []*ir.Literal
			var want [][]float64
			for _, c := range cases {
				xt, st := ir.TensorOf(ty.d, c.shape...), ir.TensorOf(ty.d, c.sourceShape()...)
				// Few distinct values, so that windows hold ties.
				xv := make([]float64, xt.NumElements())
				for i := range xv {
					xv[i] = float64(r.IntN(5) - 2)
				}
				if ty.d.IsFloat() && len(xv) > 2 {
					xv[r.IntN(len(xv))] = math.Copysign(0, -1)
				}
				sv := make([]float64, st.NumElements())
				for i := range sv {
					sv[i] = float64(r.IntN(200)-100) / 8
					if !ty.d.IsFloat() {
						sv[i] = math.Round(sv[i] * 8)
					}
				}
				init := float64(r.IntN(3))
				args = append(args, ir.LiteralFromFloat64s(xt, xv), ir.LiteralFromFloat64s(st, sv), ir.LiteralFromFloat64s(ir.TensorOf(ty.d), []float64{init}))
				fold := func(a, b float64) float64 { return a + b }
				if ty.d == ir.F32 {
					fold = func(a, b float64) float64 { return float64(float32(a) + float32(b)) }
				}
				want = append(want, sasRef(c, xv, sv, init, fold))
			}
			got, rc, msg := p.run(t, args...)
			if rc != 0 {
				t.Fatalf("stela_entry returned %d: %s", rc, msg)
			}
			for i, c := range cases {
				w := ir.LiteralFromFloat64s(ir.TensorOf(ty.d, c.shape...), want[i])
				if _, err := diff(got[i], w, -1); err != nil {
					t.Errorf("case %d %+v: %v", i, c, err)
				}
			}
		})
	}
}
