package codegen_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt/cpu/codegen"
)

// attnCase is one attention program: q [B, H, M, D] (transposed: [B, H,
// D, M]), k [B, H, L, D] (kT: [B, H, D, L]), v [B, H, L, Dv] (vT: [B, H,
// Dv, L]), scores scaled (scale != 0), masked by mask with fill, softmax
// along L, times v.
type attnCase struct {
	B, H, M, L, D, Dv int
	qT, kT, vT        bool
	scale             float64 // 0: no multiply
	mask              string  // "", "causal" (iota compare, [M, L] broadcast), "param" ([B, 1, M, L] argument), "full" ([B, H, M, L] argument)
	fill              float64
	deadRows          bool // with a mask argument: some rows masked entirely
	scoresToo         bool // the scores are a second result (no fusion then)
	prefix            bool // with a mask argument: every row's mask is a prefix (a length)
}

func (c attnCase) String() string {
	return fmt.Sprintf("B%d H%d M%d L%d D%d Dv%d qT=%v kT=%v vT=%v scale=%g mask=%q fill=%g dead=%v",
		c.B, c.H, c.M, c.L, c.D, c.Dv, c.qT, c.kT, c.vT, c.scale, c.mask, c.fill, c.deadRows)
}

// build returns the program and its parameter types.
func (c attnCase) build(t testing.TB) (*ir.Func, []ir.Type) {
	f32 := func(dims ...int) ir.Type { return ir.TensorOf(ir.F32, dims...) }
	q, k, v := f32(c.B, c.H, c.M, c.D), f32(c.B, c.H, c.L, c.D), f32(c.B, c.H, c.L, c.Dv)
	if c.qT {
		q = f32(c.B, c.H, c.D, c.M)
	}
	if c.kT {
		k = f32(c.B, c.H, c.D, c.L)
	}
	if c.vT {
		v = f32(c.B, c.H, c.Dv, c.L)
	}
	params := []ir.Type{q, k, v}
	switch c.mask {
	case "param":
		params = append(params, ir.TensorOf(ir.Bool, c.B, 1, c.M, c.L))
	case "full":
		params = append(params, ir.TensorOf(ir.Bool, c.B, c.H, c.M, c.L))
	}
	b := newBuilder(t, "attention", params...)
	full := []int{c.B, c.H, c.M, c.L}
	scalar := func(v float64) *ir.Value {
		return b.emit(ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarOf(float32(v))})
	}
	bcast := func(x *ir.Value, shape []int, dims ...int) *ir.Value {
		if dims == nil {
			dims = []int{}
		}
		return b.emit(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: shape, Dims: dims}, x)
	}
	reduce := func(op ir.Op, x *ir.Value, init float64) *ir.Value {
		body := region(t, ir.F32, 1, func(b *builder, acc, x []*ir.Value) []*ir.Value {
			return []*ir.Value{b.emit(op, nil, acc[0], x[0])}
		})
		return b.emitN(ir.OpReduce, ir.ReduceAttr{Dims: []int{3}}, []*ir.Func{body}, x, scalar(init))[0]
	}
	bin := func(op ir.Op, x, y *ir.Value) *ir.Value { return b.emit(op, nil, x, y) }
	qc, kc, vc := 3, 3, 2
	if c.qT {
		qc = 2
	}
	if c.kT {
		kc = 2
	}
	if c.vT {
		vc = 3
	}
	bd := []int{0, 1}
	s := b.emit(ir.OpDotGeneral, ir.DotGeneralAttr{LhsBatch: bd, RhsBatch: bd, LhsContract: []int{qc}, RhsContract: []int{kc}}, b.f.Params[0], b.f.Params[1])
	if c.scale != 0 {
		s = bin(ir.OpMultiply, s, bcast(scalar(c.scale), full))
	}
	var pred *ir.Value
	switch c.mask {
	case "causal": // query i is at position i + L - M and sees keys up to it
		ml := ir.TensorOf(ir.S32, c.M, c.L)
		row := b.emit(ir.OpIota, ir.IotaAttr{Type: ml, Dim: 0}, nil...)
		col := b.emit(ir.OpIota, ir.IotaAttr{Type: ml, Dim: 1}, nil...)
		off := bcast(b.emit(ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarOf(int32(c.L - c.M))}), []int{c.M, c.L})
		m := b.emit(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpGE}, bin(ir.OpAdd, row, off), col)
		pred = bcast(m, full, 2, 3)
	case "param":
		pred = bcast(b.f.Params[3], full, 0, 1, 2, 3)
	case "full":
		pred = b.f.Params[3]
	}
	if pred != nil {
		s = b.emit(ir.OpSelect, nil, pred, s, bcast(scalar(c.fill), full))
	}
	mx := reduce(ir.OpMaximum, s, math.Inf(-1))
	mx = b.emit(ir.OpReshape, ir.ReshapeAttr{Shape: []int{c.B, c.H, c.M, 1}}, mx)
	e := b.emit(ir.OpExp, nil, bin(ir.OpSubtract, s, bcast(mx, full, 0, 1, 2, 3)))
	sum := reduce(ir.OpAdd, e, 0)
	p := bin(ir.OpDivide, e, bcast(sum, full, 0, 1, 2))
	o := b.emit(ir.OpDotGeneral, ir.DotGeneralAttr{LhsBatch: bd, RhsBatch: bd, LhsContract: []int{3}, RhsContract: []int{vc}}, p, b.f.Params[2])
	if c.scoresToo {
		b.f.Return(o, s)
	} else {
		b.f.Return(o)
	}
	return b.f, params
}

var attentionKernel = regexp.MustCompile(`(?m)^define internal void @"?k\d+\.attention`)

func attnCases(r *rand.Rand) []attnCase {
	cases := []attnCase{
		// GPT-2's prefill (smaller): causal, scaled, -1e9.
		{B: 2, H: 3, M: 70, L: 70, D: 64, Dv: 64, kT: true, scale: 0.125, mask: "causal", fill: -1e9},
		// The W5 layout: kᵀ materialized, [B, H, D, L].
		{B: 1, H: 2, M: 130, L: 130, D: 64, Dv: 64, scale: 0.125, mask: "causal", fill: -1e9},
		// Decode: one query over a cache with a length mask per sequence.
		{B: 3, H: 4, M: 1, L: 200, D: 64, Dv: 64, kT: false, scale: 0.125, mask: "param", fill: -math.MaxFloat32},
		{B: 3, H: 4, M: 1, L: 200, D: 64, Dv: 64, kT: true, scale: 0.125, mask: "param", fill: -math.MaxFloat32, deadRows: true},
		// Fully masked rows: -inf gives NaN rows, -1e9 uniform weights.
		{B: 2, H: 2, M: 40, L: 90, D: 17, Dv: 9, kT: true, mask: "full", fill: math.Inf(-1), deadRows: true},
		{B: 2, H: 2, M: 40, L: 90, D: 17, Dv: 9, kT: true, vT: true, mask: "param", fill: -1e9, deadRows: true},
		// Left-padded prefill with GPT-2's fill -FLT_MAX: rows masked
		// entirely next to rows that are not, and key blocks masked for
		// every row of a task (skipped).
		{B: 2, H: 2, M: 40, L: 150, D: 16, Dv: 8, mask: "param", fill: -math.MaxFloat32, deadRows: true, prefix: true},
		// No mask, no scale, odd sizes, transposed operands.
		{B: 1, H: 5, M: 33, L: 65, D: 3, Dv: 31, qT: true, vT: true},
		{B: 2, H: 1, M: 7, L: 2, D: 1, Dv: 1, scale: 2},
	}
	for range 10 {
		c := attnCase{
			B: 1 + r.IntN(3), H: 1 + r.IntN(4), M: 1 + r.IntN(80), L: 2 + r.IntN(160),
			D: 1 + r.IntN(80), Dv: 1 + r.IntN(80),
			qT: r.IntN(4) == 0, kT: r.IntN(2) == 0, vT: r.IntN(4) == 0,
			mask: []string{"", "causal", "param", "full"}[r.IntN(4)],
			fill: []float64{-1e9, math.Inf(-1), -math.MaxFloat32, -30}[r.IntN(4)],
		}
		if r.IntN(3) > 0 {
			c.scale = 1 / math.Sqrt(float64(c.D))
		}
		if c.mask == "causal" && c.L < c.M {
			c.L = c.M
		}
		c.deadRows = r.IntN(2) == 0
		cases = append(cases, c)
	}
	return cases
}

// TestAttentionFused compiles the attention pattern, checks that it
// became one attention kernel, and compares the results with the
// evaluator's (the ops one by one, in f32).
//
// The bound: both sides compute each score as a dot product of D terms
// then a multiply, within δ_j = (D+2)·u·A_j of the exact score (A_j =
// |scale|·Σ_d |q_d k_jd|, u = 2⁻²⁴); a change of at most δ = max δ_j in
// the scores changes each softmax weight p_j by a factor within
// exp(±2δ); the exponentials, the sums of L positive terms (in any
// order) and the divisions add at most (2L + 16)·u relative; so each
// output Σ_j p_j v_j is within (2δ + (2L+16)·u)·Σ_j p_j |v_j| of the
// exact value, and the two sides within twice that (plus u·|o| for the
// final rounding). Rows that are NaN on one side must be NaN on the
// other.
func TestAttentionFused(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 7))
	for _, c := range attnCases(r) {
		t.Run(c.String(), func(t *testing.T) {
			f, params := c.build(t)
			src := lowerText(t, f)
			prog := planText(t, src, codegen.Options{})
			ll, err := prog.LLVM()
			if err != nil {
				t.Fatal(err)
			}
			if n := len(attentionKernel.FindAll(ll, -1)); n != 1 {
				t.Fatalf("%d attention kernels, want 1", n)
			}
			args := make([]*ir.Literal, len(params))
			for i, p := range params[:3] {
				v := make([]float64, p.NumElements())
				for j := range v {
					v[j] = r.NormFloat64() * 2
				}
				args[i] = ir.LiteralFromFloat64s(p, v)
			}
			var maskBits []bool
			if len(params) > 3 {
				maskBits = make([]bool, params[3].NumElements())
				rows := len(maskBits) / c.L
				for row := range rows {
					dead := c.deadRows && row%5 == 1
					valid := 1 + r.IntN(min(c.L, 60)) // a length mask (a prefix)
					random := !c.prefix && r.IntN(2) == 0
					for j := range c.L {
						switch {
						case dead:
						case random:
							maskBits[row*c.L+j] = r.IntN(3) > 0
						default:
							maskBits[row*c.L+j] = j < valid
						}
					}
				}
				args[3] = ir.LiteralFromBools(params[3], maskBits)
			}
			want, err := ir.Eval(f, args...)
			if err != nil {
				t.Fatal(err)
			}
			bin := compile(t, src)
			// The runtime's kernel for each instruction set (rt_attn.h):
			// the best the CPU has, then capped at AVX2 and at SSE.
			for _, isa := range []string{"", "avx2", "base"} {
				t.Setenv("STELA_CPU_ATTENTION_ISA", isa)
				got, rc, msg := bin.run(t, args...)
				if rc != 0 {
					t.Fatal(msg)
				}
				checkAttention(t, c, args, maskBits, got[0].Float64s(), want[0].Float64s())
			}
		})
	}
}

// checkAttention compares got and want within the bound of
// TestAttentionFused, computed in float64 from the arguments.
func checkAttention(t *testing.T, c attnCase, args []*ir.Literal, maskBits []bool, got, want []float64) {
	t.Helper()
	q, k, v := args[0].Float64s(), args[1].Float64s(), args[2].Float64s()
	u := 0x1p-24
	scale := c.scale
	if scale == 0 {
		scale = 1
	}
	fill := float64(float32(c.fill))
	bad := 0
	for bi := range c.B {
		for h := range c.H {
			g := bi*c.H + h
			for i := range c.M {
				x := make([]float64, c.L)
				mx, delta := math.Inf(-1), 0.0
				for j := range c.L {
					s, a := 0.0, 0.0
					for d := range c.D {
						qi := g*c.M*c.D + i*c.D + d
						if c.qT {
							qi = g*c.M*c.D + d*c.M + i
						}
						ki := g*c.L*c.D + j*c.D + d
						if c.kT {
							ki = g*c.L*c.D + d*c.L + j
						}
						s += q[qi] * k[ki]
						a += math.Abs(q[qi] * k[ki])
					}
					x[j] = s * scale
					delta = max(delta, float64(c.D+2)*u*a*math.Abs(scale))
					masked := false
					switch c.mask {
					case "causal":
						masked = !(i+c.L-c.M >= j)
					case "param":
						masked = !maskBits[(bi*c.M+i)*c.L+j]
					case "full":
						masked = !maskBits[(g*c.M+i)*c.L+j]
					}
					if masked {
						x[j] = fill
					}
					mx = max(mx, x[j])
				}
				sum := 0.0
				for j := range x {
					x[j] = math.Exp(x[j] - mx)
					sum += x[j]
				}
				for cc := range c.Dv {
					mag := 0.0
					for j := range c.L {
						vi := g*c.L*c.Dv + j*c.Dv + cc
						if c.vT {
							vi = g*c.L*c.Dv + cc*c.L + j
						}
						mag += x[j] / sum * math.Abs(v[vi])
					}
					o := (g*c.M+i)*c.Dv + cc
					gv, wv := got[o], want[o]
					if math.IsNaN(gv) || math.IsNaN(wv) {
						if math.IsNaN(gv) != math.IsNaN(wv) && bad < 5 {
							t.Errorf("batch %d head %d row %d col %d: got %v, want %v", bi, h, i, cc, gv, wv)
							bad++
						}
						continue
					}
					bound := 2*(2*delta+float64(2*c.L+16)*u)*mag + u*math.Abs(wv)
					if e := math.Abs(gv - wv); !(e <= bound) && bad < 5 {
						t.Errorf("batch %d head %d row %d col %d: got %v, want %v: error %g > bound %g", bi, h, i, cc, gv, wv, e, bound)
						bad++
					}
				}
			}
		}
	}
}

// TestAttentionNoMatch: programs that differ from the pattern in one
// place keep their ops (and stay correct: the dot tests cover them).
func TestAttentionNoMatch(t *testing.T) {
	base := attnCase{B: 1, H: 2, M: 8, L: 8, D: 4, Dv: 4, scale: 0.5, mask: "causal", fill: -1e9, scoresToo: true}
	f, _ := base.build(t)
	prog := planText(t, lowerText(t, f), codegen.Options{})
	ll, err := prog.LLVM()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(attentionKernel.FindAll(ll, -1)); n != 0 {
		t.Fatalf("%d attention kernels, want 0 (the scores are a result)", n)
	}
}

// BenchmarkAttention: the fused attention kernel on W5's shapes (GPT-2
// small, batch 4, 256 tokens, causal: half the blocks skipped) and on a
// batch-8 decode step's (one query over a 256-slot cache, 200 filled).
// GFLOP/s counts the unmasked work only: 4·D per (query, visible key).
// Compare with STELA_DEBUG=noattention, which runs the ops one by one
// (a different process: the switch is read once).
func BenchmarkAttention(b *testing.B) {
	for _, c := range []struct {
		name    string
		c       attnCase
		visible float64 // (query, key) pairs per head
	}{
		{"W5-b4-t256", attnCase{B: 4, H: 12, M: 256, L: 256, D: 64, Dv: 64, scale: 0.125, mask: "causal", fill: -1e9}, 256 * 257 / 2},
		{"decode-b8-l256", attnCase{B: 8, H: 12, M: 1, L: 256, D: 64, Dv: 64, kT: false, scale: 0.125, mask: "param", fill: -math.MaxFloat32}, 200},
	} {
		b.Run(c.name, func(b *testing.B) {
			f, params := c.c.build(b)
			src := lowerText(b, f)
			var argSizes []int
			for _, p := range params {
				argSizes = append(argSizes, p.NumElements()*p.DType.Size())
			}
			flops := 4 * float64(c.c.D) * c.visible * float64(c.c.B*c.c.H)
			p := compile(b, src)
			args := make([][]byte, len(argSizes))
			for i, n := range argSizes {
				args[i] = make([]byte, n)
			}
			if len(params) > 3 { // a length mask: the first 200 slots
				for i := range args[3] {
					if i%c.c.L < 200 {
						args[3][i] = 1
					}
				}
			}
			b.ResetTimer()
			d, err := p.lib.Time(args, []int{c.c.B * c.c.H * c.c.M * c.c.Dv * 4}, b.N)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(flops/d.Seconds()/1e9, "GFLOP/s(best)")
			b.ReportMetric(float64(d.Nanoseconds()), "ns/op(best)")
		})
	}
}
