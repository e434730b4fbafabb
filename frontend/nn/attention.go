package nn

import (
	"math"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// MultiHeadAttention is multi-head scaled dot-product attention with
// query, key, value and output projections (Vaswani et al.;
// torch.nn.MultiheadAttention with batch_first, Flax's
// nn.MultiHeadDotProductAttention). Heads and Causal are static leaves.
type MultiHeadAttention struct {
	Q, K, V, Out Linear // [dim, dim] each
	Heads        int    // dim is a multiple of Heads
	Causal       bool   // position i attends to positions up to i only
}

// NewMultiHeadAttention makes attention over dim features in heads heads
// (each of dim/heads features). The projections are NewLinear's, from
// keys split from key. Options: WithCausalMask, and NewLinear's
// (WithDType, WithKernelInit, WithBiasInit, WithoutBias), which apply to
// the four projections.
func NewMultiHeadAttention(key *tensor.Tensor, dim, heads int, opts ...Option) MultiHeadAttention {
	const op = "nn.NewMultiHeadAttention"
	defer named(op)
	var c config
	c.dtype = ir.F32
	var linearOpts []Option
	for _, o := range opts {
		if o.name == "WithCausalMask" {
			c.apply(op, []Option{o}, "WithCausalMask")
		} else {
			linearOpts = append(linearOpts, o)
		}
	}
	positive(op, "sizes dim, heads", dim, heads)
	if dim%heads != 0 {
		panic(fail(op, "dim %d is not a multiple of heads %d", dim, heads))
	}
	k := splitKey(op, key, 4)
	return MultiHeadAttention{
		Q:     NewLinear(k[0], dim, dim, linearOpts...),
		K:     NewLinear(k[1], dim, dim, linearOpts...),
		V:     NewLinear(k[2], dim, dim, linearOpts...),
		Out:   NewLinear(k[3], dim, dim, linearOpts...),
		Heads: heads, Causal: c.causal,
	}
}

// Forward is self-attention: Attend(x, x, nil) for x [b, t, dim].
func (m MultiHeadAttention) Forward(x *tensor.Tensor) *tensor.Tensor {
	defer named("nn.MultiHeadAttention")
	return m.Attend(x, x, nil)
}

// Attend lets the positions of q [b, tq, dim] attend to those of kv
// [b, tk, dim]: softmax(q'·k'ᵀ/√(dim/heads))·v' per head, where q', k',
// v' are the projections split into heads, then the heads joined and
// projected by Out: [b, tq, dim]. mask, if not nil, is a boolean tensor
// that broadcasts to [b, heads, tq, tk], true where a query may attend to
// a key; Causal adds the causal mask (then tq must equal tk). Masked
// scores become the type's lowest finite value, as in Flax, so that a
// query with nothing to attend to gets an average rather than NaNs.
func (m MultiHeadAttention) Attend(q, kv, mask *tensor.Tensor) *tensor.Tensor {
	const op = "nn.MultiHeadAttention"
	defer named(op)
	checkParam(op, "Q.W", m.Q.W)
	checkInput(op, q, 3)
	checkInput(op, kv, 3)
	if q.Rank() != 3 || kv.Rank() != 3 {
		panic(fail(op, "queries %v and keys %v: want [batch, positions, features]", q.Type(), kv.Type()))
	}
	dim := m.Q.W.Shape()[0]
	if m.Heads < 1 || dim%m.Heads != 0 {
		panic(fail(op, "%d heads for %d features: want a divisor", m.Heads, dim))
	}
	b, tq, tk := q.Shape()[0], q.Shape()[1], kv.Shape()[1]
	hd := dim / m.Heads
	// [b, t, dim] → [b, heads, t, hd]
	split := func(x *tensor.Tensor, t int) *tensor.Tensor {
		return tensor.Transpose(tensor.Reshape(x, b, t, m.Heads, hd), 0, 2, 1, 3)
	}
	qh := split(m.Q.Forward(q), tq)
	kh := split(m.K.Forward(kv), tk)
	vh := split(m.V.Forward(kv), tk)
	// Scale the queries before the product, as Flax and PyTorch do.
	qh = tensor.Div(qh, tensor.ScalarLike(qh, math.Sqrt(float64(hd))))
	scores := tensor.MatMul(qh, tensor.Transpose(kh, 0, 1, 3, 2)) // [b, heads, tq, tk]
	if m.Causal {
		if tq != tk {
			panic(fail(op, "a causal mask needs as many queries as keys, got %d and %d", tq, tk))
		}
		shape := []int{tq, tk}
		causal := tensor.GreaterEqual(tensor.IotaLike(scores, ir.S32, shape, 0), tensor.IotaLike(scores, ir.S32, shape, 1))
		if mask == nil {
			mask = causal
		} else {
			mask = tensor.And(mask, causal)
		}
	}
	if mask != nil {
		if mask.DType() != ir.Bool {
			panic(fail(op, "the mask is %v: want a boolean (i1) tensor", mask.Type()))
		}
		scores = tensor.Where(tensor.BroadcastTo(mask, scores.Shape()...), scores, tensor.ScalarLike(scores, lowest(scores.DType())))
	}
	out := tensor.MatMul(tensor.Softmax(scores, -1), vh)                // [b, heads, tq, hd]
	out = tensor.Reshape(tensor.Transpose(out, 0, 2, 1, 3), b, tq, dim) // [b, tq, dim]
	return m.Out.Forward(out)
}
