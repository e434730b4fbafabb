package codegen_test

import (
	"math"
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt/cpu/codegen"
	"github.com/stela-ml/stela/stablehlo"
)

// dotLayout is a dot_general form and how many operand transposes its f32
// and f64 kernels may need: the GEMM takes operands whose batch, free and
// contracting groups are each contiguous and in order as they are (with
// cblas's transpose flags, leading dimensions and batch strides).
type dotLayout struct {
	lhs, rhs   []int
	attr       ir.DotGeneralAttr
	transposes int
}

func dotLayouts() []dotLayout {
	c := func(l, r []int) ir.DotGeneralAttr { return ir.DotGeneralAttr{LhsContract: l, RhsContract: r} }
	bc := func(lb, rb, l, r []int) ir.DotGeneralAttr {
		return ir.DotGeneralAttr{LhsBatch: lb, RhsBatch: rb, LhsContract: l, RhsContract: r}
	}
	return []dotLayout{
		{[]int{5, 7}, []int{7, 3}, c([]int{1}, []int{0}), 0},                                        // x·y
		{[]int{7, 5}, []int{7, 3}, c([]int{0}, []int{0}), 0},                                        // xᵀ·y
		{[]int{5, 7}, []int{3, 7}, c([]int{1}, []int{1}), 0},                                        // x·yᵀ
		{[]int{7, 5}, []int{3, 7}, c([]int{0}, []int{1}), 0},                                        // xᵀ·yᵀ
		{[]int{4, 5, 7}, []int{4, 7, 3}, bc([]int{0}, []int{0}, []int{2}, []int{1}), 0},             // batched
		{[]int{5, 4, 7}, []int{4, 7, 3}, bc([]int{1}, []int{0}, []int{2}, []int{1}), 0},             // batch in the middle
		{[]int{4, 7, 5}, []int{7, 4, 3}, bc([]int{0}, []int{1}, []int{1}, []int{0}), 0},             // both transposed, batch strides
		{[]int{5, 7, 4}, []int{4, 7, 3}, bc([]int{2}, []int{0}, []int{1}, []int{1}), 1},             // batch innermost: transposed
		{[]int{5, 2, 3}, []int{2, 3, 4}, c([]int{1, 2}, []int{0, 1}), 0},                            // two contracting dims
		{[]int{5, 2, 3}, []int{3, 2, 4}, c([]int{1, 2}, []int{1, 0}), 1},                            // out of order: transposed
		{[]int{2, 3, 6, 8}, []int{2, 3, 6, 8}, bc([]int{0, 1}, []int{0, 1}, []int{3}, []int{3}), 0}, // q·kᵀ
		{[]int{2, 3, 6, 6}, []int{2, 3, 6, 8}, bc([]int{0, 1}, []int{0, 1}, []int{3}, []int{2}), 0}, // p·v
		{[]int{7}, []int{7, 3}, c([]int{0}, []int{0}), 0},                                           // vector · matrix
		{[]int{5, 7}, []int{7}, c([]int{1}, []int{0}), 0},                                           // matrix · vector
		{[]int{7}, []int{7}, c([]int{0}, []int{0}), 0},                                              // inner product
		{[]int{3}, []int{4}, c(nil, nil), 0},                                                        // outer product
		{[]int{1, 5, 1, 7}, []int{7, 1, 3}, c([]int{3}, []int{0}), 0},                               // size-1 dims
		{[]int{3, 0}, []int{0, 4}, c([]int{1}, []int{0}), 0},                                        // K = 0: zeros
		{[]int{0, 3}, []int{3, 2}, c([]int{1}, []int{0}), 0},                                        // M = 0
		{[]int{2, 40, 300}, []int{2, 300, 50}, bc([]int{0}, []int{0}, []int{2}, []int{1}), 0},       // several K blocks
		// Decode attention: 24 small products, which sgemm_batch runs in
		// parallel across the batch (rt_attn.h).
		{[]int{2, 12, 1, 64}, []int{2, 12, 300, 64}, bc([]int{0, 1}, []int{0, 1}, []int{3}, []int{3}), 0},  // q·kᵀ
		{[]int{2, 12, 1, 300}, []int{2, 12, 300, 64}, bc([]int{0, 1}, []int{0, 1}, []int{3}, []int{2}), 0}, // p·v
	}
}

var transposeKernel = regexp.MustCompile(`(?m)^define internal void @"?k\d+\.transpose`)

// TestDotLayoutTransposes checks how many transposes each layout's f32
// kernel needs.
func TestDotLayoutTransposes(t *testing.T) {
	for _, c := range dotLayouts() {
		b := newBuilder(t, "dot", ir.TensorOf(ir.F32, c.lhs...), ir.TensorOf(ir.F32, c.rhs...))
		b.f.Return(b.emit(ir.OpDotGeneral, c.attr, b.f.Params[0], b.f.Params[1]))
		m, err := stablehlo.Parse([]byte(lowerText(t, b.f)))
		if err != nil {
			t.Fatal(err)
		}
		prog, err := codegen.Plan(m, codegen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ll, err := prog.LLVM()
		if err != nil {
			t.Fatal(err)
		}
		if n := len(transposeKernel.FindAll(ll, -1)); n != c.transposes {
			t.Errorf("%v·%v %v: %d transpose kernels, want %d", c.lhs, c.rhs, c.attr, n, c.transposes)
		}
	}
}

// TestDotLayouts runs every layout in f32 and f64 on random values (one
// program per type) and compares with the evaluator within the bound of
// a sum in the element type, (K+1)·u·Σ|a·b| + u·|result| (u = 2⁻²⁴ or
// 2⁻⁵³; the GEMM's blocked, fused order is one such sum).
func TestDotLayouts(t *testing.T) {
	for _, d := range []ir.DType{ir.F32, ir.F64} {
		t.Run(d.String(), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(uint64(d), 9))
			cases := dotLayouts()
			var params []ir.Type
			for _, c := range cases {
				params = append(params, ir.TensorOf(d, c.lhs...), ir.TensorOf(d, c.rhs...))
			}
			b := newBuilder(t, "dots", params...)
			var outs []*ir.Value
			for i, c := range cases {
				outs = append(outs, b.emit(ir.OpDotGeneral, c.attr, b.f.Params[2*i], b.f.Params[2*i+1]))
			}
			b.f.Return(outs...)
			var args, absArgs []*ir.Literal
			for _, p := range params {
				v := make([]float64, p.NumElements())
				a := make([]float64, len(v))
				for i := range v {
					v[i] = r.NormFloat64()
					a[i] = math.Abs(v[i])
				}
				args = append(args, ir.LiteralFromFloat64s(p, v))
				absArgs = append(absArgs, ir.LiteralFromFloat64s(p, a))
			}
			want, err := ir.Eval(b.f, args...)
			if err != nil {
				t.Fatal(err)
			}
			mag, err := ir.Eval(b.f, absArgs...) // Σ|a·b| per element
			if err != nil {
				t.Fatal(err)
			}
			got, rc, msg := compile(t, lowerText(t, b.f)).run(t, args...)
			if rc != 0 {
				t.Fatal(msg)
			}
			u := 0x1p-24
			if d == ir.F64 {
				u = 0x1p-53
			}
			for i, c := range cases {
				K := 1
				for _, k := range c.attr.LhsContract {
					K *= c.lhs[k]
				}
				g, w, s := got[i].Float64s(), want[i].Float64s(), mag[i].Float64s()
				for j := range w {
					bound := float64(K+1)*u*s[j] + u*math.Abs(w[j])
					if e := math.Abs(g[j] - w[j]); !(e <= bound) {
						t.Errorf("%v·%v %v: element %d: got %v, want %v: error %g > bound %g", c.lhs, c.rhs, c.attr, j, g[j], w[j], e, bound)
						break
					}
				}
			}
		})
	}
}
