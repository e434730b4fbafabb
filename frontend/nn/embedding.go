package nn

import (
	"math"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Embedding maps integer ids to vectors: row id of W. torch.nn.Embedding,
// Flax's nn.Embed.
type Embedding struct {
	W *tensor.Tensor // [vocab, dim]
}

// NewEmbedding makes an embedding of vocab ids into dim features. W is
// drawn from a normal distribution with standard deviation 1/√dim (Flax's
// default, VarianceScaling(1, FanIn, DistNormal, 1, 0)) from key.
// Options: WithDType, WithKernelInit.
func NewEmbedding(key *tensor.Tensor, vocab, dim int, opts ...Option) Embedding {
	const op = "nn.NewEmbedding"
	defer named(op)
	c := config{dtype: ir.F32, kernelInit: varianceScaling(op, 1, FanIn, DistNormal, 1, 0)}
	c.apply(op, opts, "WithDType", "WithKernelInit")
	positive(op, "sizes vocab, dim", vocab, dim)
	k := splitKey(op, key, 1)
	return Embedding{W: c.kernelInit(k[0], c.dtype, vocab, dim)}
}

// Forward looks up ids (an integer tensor of any shape) and returns their
// rows: [ids..., dim]. An id outside [0, vocab) gives a row of NaNs (as
// jnp.take's default mode does), so that a bad id shows in the loss
// rather than silently reading a clamped row.
func (e Embedding) Forward(ids *tensor.Tensor) *tensor.Tensor {
	const op = "nn.Embedding"
	defer named(op)
	checkParam(op, "W", e.W)
	if ids == nil || !ids.DType().IsInteger() {
		panic(fail(op, "the ids are %v: want an integer tensor", typeOf(ids)))
	}
	vocab := e.W.Shape()[0]
	rows := tensor.Take(e.W, ids, 0)
	ok := tensor.And(tensor.GreaterEqual(ids, tensor.ScalarLike(ids, 0)), tensor.Less(ids, tensor.ScalarLike(ids, float64(vocab))))
	ok = tensor.BroadcastTo(tensor.ExpandDims(ok, ids.Rank()), rows.Shape()...)
	return tensor.Where(ok, rows, tensor.ScalarLike(rows, math.NaN()))
}

// Attend returns x·Wᵀ for x [..., dim]: [..., vocab], the logits of an
// output layer that shares the embedding's weights (Flax's Embed.attend).
func (e Embedding) Attend(x *tensor.Tensor) *tensor.Tensor {
	const op = "nn.Embedding.Attend"
	defer named(op)
	checkParam(op, "W", e.W)
	checkInput(op, x, 1)
	return Linear{W: tensor.Transpose(e.W, 1, 0)}.Forward(x)
}

func typeOf(x *tensor.Tensor) any {
	if x == nil {
		return "nil"
	}
	return x.Type()
}
