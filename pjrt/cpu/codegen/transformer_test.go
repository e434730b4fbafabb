package codegen_test

import (
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt/cpu"
)

var transformer = flag.Bool("transformer", false, "also compile and time a transformer-sized module (seq 128, d_model 512, 2 layers)")

// transformerConfig sizes a stack of pre-norm transformer blocks.
type transformerConfig struct {
	S, D, H, F, Layers int
}

// buildTransformer builds the forward pass of cfg.Layers transformer
// blocks (layer norm, multi-head self-attention with softmax, tanh-GELU
// MLP, residuals) on x [S, D]. Parameters: x, then per layer ln1 γ, β,
// Wqkv [D, 3D], Wo [D, D], ln2 γ, β, W1 [D, F], W2 [F, D].
func buildTransformer(t testing.TB, c transformerConfig) *ir.Func {
	f32 := func(dims ...int) ir.Type { return ir.TensorOf(ir.F32, dims...) }
	params := []ir.Type{f32(c.S, c.D)}
	for range c.Layers {
		params = append(params, f32(c.D), f32(c.D), f32(c.D, 3*c.D), f32(c.D, c.D), f32(c.D), f32(c.D), f32(c.D, c.F), f32(c.F, c.D))
	}
	b := newBuilder(t, "transformer", params...)
	scalar := func(v float64) *ir.Value {
		return b.emit(ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarOf(float32(v))})
	}
	bcast := func(x *ir.Value, shape []int, dims ...int) *ir.Value {
		if dims == nil {
			dims = []int{}
		}
		return b.emit(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: shape, Dims: dims}, x)
	}
	full := func(v float64, shape ...int) *ir.Value { return bcast(scalar(v), shape) }
	reduce := func(op ir.Op, x *ir.Value, init float64, dim int) *ir.Value {
		body := region(t.(*testing.T), ir.F32, 1, func(b *builder, acc, x []*ir.Value) []*ir.Value {
			return []*ir.Value{b.emit(op, nil, acc[0], x[0])}
		})
		return b.emitN(ir.OpReduce, ir.ReduceAttr{Dims: []int{dim}}, []*ir.Func{body}, x, scalar(init))[0]
	}
	bin := func(op ir.Op, x, y *ir.Value) *ir.Value { return b.emit(op, nil, x, y) }
	dot := func(x, y *ir.Value, lb, rb, lc, rc []int) *ir.Value {
		return b.emit(ir.OpDotGeneral, ir.DotGeneralAttr{LhsBatch: lb, RhsBatch: rb, LhsContract: lc, RhsContract: rc}, x, y)
	}
	S, D, H, F := c.S, c.D, c.H, c.F
	Dh := D / H
	layerNorm := func(x, g, beta *ir.Value) *ir.Value {
		sd := []int{S, D}
		mean := bin(ir.OpDivide, reduce(ir.OpAdd, x, 0, 1), full(float64(D), S))
		xc := bin(ir.OpSubtract, x, bcast(mean, sd, 0))
		v := bin(ir.OpDivide, reduce(ir.OpAdd, bin(ir.OpMultiply, xc, xc), 0, 1), full(float64(D), S))
		inv := b.emit(ir.OpRsqrt, nil, bin(ir.OpAdd, v, full(1e-5, S)))
		y := bin(ir.OpMultiply, xc, bcast(inv, sd, 0))
		return bin(ir.OpAdd, bin(ir.OpMultiply, y, bcast(g, sd, 1)), bcast(beta, sd, 1))
	}
	slice := func(x *ir.Value, from, to int) *ir.Value {
		return b.emit(ir.OpSlice, ir.SliceAttr{Start: []int{0, from}, Limit: []int{S, to}, Stride: []int{1, 1}}, x)
	}
	heads := func(x *ir.Value) *ir.Value { // [S, D] → [H, S, Dh]
		r := b.emit(ir.OpReshape, ir.ReshapeAttr{Shape: []int{S, H, Dh}}, x)
		return b.emit(ir.OpTranspose, ir.TransposeAttr{Perm: []int{1, 0, 2}}, r)
	}
	x := b.f.Params[0]
	for l := range c.Layers {
		p := b.f.Params[1+8*l : 9+8*l]
		h := layerNorm(x, p[0], p[1])
		qkv := dot(h, p[2], nil, nil, []int{1}, []int{0})
		q, k, v := heads(slice(qkv, 0, D)), heads(slice(qkv, D, 2*D)), heads(slice(qkv, 2*D, 3*D))
		scores := dot(q, k, []int{0}, []int{0}, []int{2}, []int{2}) // [H, S, S]
		scores = bin(ir.OpMultiply, scores, full(1/math.Sqrt(float64(Dh)), H, S, S))
		m := reduce(ir.OpMaximum, scores, math.Inf(-1), 2)
		e := b.emit(ir.OpExp, nil, bin(ir.OpSubtract, scores, bcast(m, []int{H, S, S}, 0, 1)))
		sum := reduce(ir.OpAdd, e, 0, 2)
		probs := bin(ir.OpDivide, e, bcast(sum, []int{H, S, S}, 0, 1))
		ctx := dot(probs, v, []int{0}, []int{0}, []int{2}, []int{1}) // [H, S, Dh]
		ctx = b.emit(ir.OpTranspose, ir.TransposeAttr{Perm: []int{1, 0, 2}}, ctx)
		ctx = b.emit(ir.OpReshape, ir.ReshapeAttr{Shape: []int{S, D}}, ctx)
		x = bin(ir.OpAdd, x, dot(ctx, p[3], nil, nil, []int{1}, []int{0}))
		h = dot(layerNorm(x, p[4], p[5]), p[6], nil, nil, []int{1}, []int{0}) // [S, F]
		sf := []int{S, F}
		cube := bin(ir.OpMultiply, bin(ir.OpMultiply, h, h), h)
		inner := bin(ir.OpMultiply, full(0.7978845608, sf...), bin(ir.OpAdd, h, bin(ir.OpMultiply, full(0.044715, sf...), cube)))
		gelu := bin(ir.OpMultiply, bin(ir.OpMultiply, full(0.5, sf...), h), bin(ir.OpAdd, full(1, sf...), b.emit(ir.OpTanh, nil, inner)))
		x = bin(ir.OpAdd, x, dot(gelu, p[7], nil, nil, []int{1}, []int{0}))
	}
	b.f.Return(x)
	return b.f
}

func transformerArgs(r *rand.Rand, f *ir.Func) []*ir.Literal {
	var args []*ir.Literal
	for i, p := range f.Params {
		v := make([]float64, p.Type.NumElements())
		scale := 1.0
		if i > 0 && p.Type.Rank() == 2 {
			scale = 1 / math.Sqrt(float64(p.Type.Shape[0]))
		}
		for j := range v {
			v[j] = r.NormFloat64() * scale
		}
		args = append(args, ir.LiteralFromFloat64s(p.Type, v))
	}
	return args
}

// TestTransformerBlock compiles a small two-layer transformer and compares
// it with the reference evaluator (relative tolerance: dot products sum
// in f32 here, in f64 there, and exp/tanh are within 2 ULP).
func TestTransformerBlock(t *testing.T) {
	f := buildTransformer(t, transformerConfig{S: 8, D: 32, H: 4, F: 64, Layers: 2})
	args := transformerArgs(rand.New(rand.NewPCG(1, 2)), f)
	want, err := ir.Eval(f, args...)
	if err != nil {
		t.Fatal(err)
	}
	p := compile(t, lowerText(t, f))
	got, rc, msg := p.run(t, args...)
	if rc != 0 {
		t.Fatal(msg)
	}
	if err := ir.LiteralsAllClose(got[0], want[0], 1e-4, 1e-4); err != nil {
		t.Error(err)
	}
}

// TestTransformerCompileTime (with -transformer) reports the compile time
// per stage of a transformer-sized module and one run's time.
func TestTransformerCompileTime(t *testing.T) {
	if !*transformer {
		t.Skip("run with -transformer")
	}
	f := buildTransformer(t, transformerConfig{S: 128, D: 512, H: 8, F: 2048, Layers: 2})
	src := lowerText(t, f)
	ops := 0
	f.Walk(func(*ir.Instr) { ops++ })
	so, tm, err := cpu.Compile([]byte(src), cpu.CompileConfig{})
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(so)
	t.Logf("%d ops, %d bytes of StableHLO: %v", ops, len(src), tm)
	p := compile(t, src)
	var raw [][]byte
	for _, a := range transformerArgs(rand.New(rand.NewPCG(1, 2)), f) {
		raw = append(raw, a.Bytes())
	}
	size := []int{p.results[0].NumElements() * 4}
	d, err := p.lib.Time(raw, size, 10)
	if err != nil {
		t.Fatal(err)
	}
	flops := 2 * (2*128*512*(3*512+512+2*2048) + 2*2*8*128*128*64)
	t.Logf("run: %v (fastest of 10), %.1f GFLOP/s in dot_general", d, float64(flops)/d.Seconds()/1e9)
}
