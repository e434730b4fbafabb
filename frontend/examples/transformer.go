package examples

import (
	"fmt"
	"math"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Transformer is one GPT-2 block: pre-LayerNorm causal multi-head
// self-attention and a tanh-GELU MLP, each with a residual connection.
type Transformer struct {
	name                      string
	Batch, Seq, DModel, Heads int
	MLP                       int     // hidden width of the MLP (4·DModel in GPT-2)
	Eps                       float64 // layer-norm epsilon
}

// SmallTransformer is the config for dumps and tests: batch 2, sequence
// 16, d_model 64, 4 heads, MLP 256.
func SmallTransformer() *Transformer {
	return &Transformer{name: "transformer", Batch: 2, Seq: 16, DModel: 64, Heads: 4, MLP: 256, Eps: 1e-5}
}

// GPT2Small is one block of GPT-2 small (d_model 768, 12 heads, MLP 3072)
// at batch 4, sequence 256: the config for benchmarks.
func GPT2Small() *Transformer {
	return &Transformer{name: "gpt2-small", Batch: 4, Seq: 256, DModel: 768, Heads: 12, MLP: 3072, Eps: 1e-5}
}

// Name implements Example.
func (t *Transformer) Name() string {
	if t.name == "" {
		return "transformer"
	}
	return t.name
}

// Doc implements Example.
func (t *Transformer) Doc() string {
	return fmt.Sprintf("GPT-2 block: pre-LN causal attention (%d heads) and GELU MLP; batch %d, seq %d, d_model %d, mlp %d",
		t.Heads, t.Batch, t.Seq, t.DModel, t.MLP)
}

// Func implements Example.
func (t *Transformer) Func() any { return t.Forward }

// Specs implements Example: x, then ln1 scale and bias, qkv weight and
// bias, attention output weight and bias, ln2 scale and bias, MLP in
// weight and bias, MLP out weight and bias.
func (t *Transformer) Specs() []ir.Type {
	d, m := t.DModel, t.MLP
	return []ir.Type{
		f32(t.Batch, t.Seq, d),
		f32(d), f32(d),
		f32(d, 3*d), f32(3 * d),
		f32(d, d), f32(d),
		f32(d), f32(d),
		f32(d, m), f32(m),
		f32(m, d), f32(d),
	}
}

// Inputs implements Example, with GPT-2's initialization: weights from
// N(0, 0.02²), the two residual projections scaled down by √2 (GPT-2's
// 1/√(2·layers) for one layer), layer-norm scales one. GPT-2 starts biases
// and layer-norm shifts at zero; here they get the same small noise, so
// that a test notices when one is dropped.
func (t *Transformer) Inputs(seed uint64) []*tensor.Tensor {
	r := rng(seed)
	d, m := t.DModel, t.MLP
	const std = 0.02
	return []*tensor.Tensor{
		normal(r, 1, t.Batch, t.Seq, d),
		ones(d), normal(r, std, d),
		normal(r, std, d, 3*d), normal(r, std, 3*d),
		normal(r, std/math.Sqrt2, d, d), normal(r, std, d),
		ones(d), normal(r, std, d),
		normal(r, std, d, m), normal(r, std, m),
		normal(r, std/math.Sqrt2, m, d), normal(r, std, d),
	}
}

// Forward returns the block's output [batch, seq, d_model] for x of the
// same shape.
func (t *Transformer) Forward(x, ln1g, ln1b, wqkv, bqkv, wo, bo, ln2g, ln2b, wfc, bfc, wproj, bproj *tensor.Tensor) *tensor.Tensor {
	x = tensor.Add(x, t.attention(tensor.LayerNorm(x, ln1g, ln1b, -1, t.Eps), wqkv, bqkv, wo, bo))
	h := tensor.LayerNorm(x, ln2g, ln2b, -1, t.Eps)
	return tensor.Add(x, dense(tensor.GELU(dense(h, wfc, bfc)), wproj, bproj))
}

// attention is causal multi-head self-attention of h [b, s, d].
func (t *Transformer) attention(h, wqkv, bqkv, wo, bo *tensor.Tensor) *tensor.Tensor {
	shape := h.Shape()
	b, s, d := shape[0], shape[1], shape[2]
	nh := t.Heads
	dh := d / nh
	qkv := dense(h, wqkv, bqkv) // [b, s, 3d]
	// split takes q, k or v as [b, heads, s, dh].
	split := func(i int) *tensor.Tensor {
		part := tensor.SliceAxis(qkv, -1, i*d, (i+1)*d)
		return tensor.Transpose(tensor.Reshape(part, b, s, nh, dh), 0, 2, 1, 3)
	}
	q, k, v := split(0), split(1), split(2)
	scores := tensor.MatMul(q, tensor.Transpose(k, 0, 1, 3, 2)) // [b, heads, s, s]
	scores = tensor.Mul(scores, tensor.ScalarLike(scores, 1/math.Sqrt(float64(dh))))
	// Causal mask: query i sees keys j <= i.
	row := tensor.IotaLike(scores, ir.S32, []int{s, s}, 0)
	col := tensor.IotaLike(scores, ir.S32, []int{s, s}, 1)
	scores = tensor.Where(tensor.GreaterEqual(row, col), scores, tensor.ScalarLike(scores, -1e9))
	a := tensor.MatMul(tensor.Softmax(scores, -1), v)            // [b, heads, s, dh]
	a = tensor.Reshape(tensor.Transpose(a, 0, 2, 1, 3), b, s, d) // [b, s, d]
	return dense(a, wo, bo)
}
