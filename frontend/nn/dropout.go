package nn

import (
	"math"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Dropout zeroes each element of its input with probability Rate while
// training and scales the others by 1/(1-Rate), so that the expected
// value is unchanged (inverted dropout, as torch.nn.Dropout and Flax's
// nn.Dropout do); at evaluation it is the identity. It has no parameters:
// Rate is a static leaf.
type Dropout struct {
	Rate float64 // in [0, 1]
}

// Forward applies dropout to x with the randomness of key (a PRNG key,
// one per call: split or fold the step number into a training key) when
// training, and returns x unchanged (key may be nil) when not. With a
// Rate of 1 every element is dropped. The mask is Flax's:
// jax.random.bernoulli(key, 1-Rate, x.shape), so the same key drops the
// same elements as Flax does.
func (d Dropout) Forward(key, x *tensor.Tensor, training bool) *tensor.Tensor {
	const op = "nn.Dropout"
	defer named(op)
	if !(d.Rate >= 0 && d.Rate <= 1) {
		panic(fail(op, "rate %v: want a probability in [0, 1]", d.Rate))
	}
	checkInput(op, x, 0)
	if !training || d.Rate == 0 {
		return x
	}
	if d.Rate == 1 {
		return tensor.ZerosLike(x)
	}
	if key == nil || !key.Type().Equal(ir.TensorOf(ir.U32, 2)) {
		panic(fail(op, "the key is %v, want ui32[2] (tensor.RandomKey) when training", typeOf(key)))
	}
	keep := 1 - d.Rate
	mask := tensor.RandomBernoulli(key, keep, x.Shape()...)
	return tensor.Where(mask, tensor.Div(x, tensor.ScalarLike(x, keep)), tensor.ScalarLike(x, 0))
}

// lowest is the most negative finite value of a float type: what masked
// attention scores become (Flax's big_neg), so that a row with every
// position masked stays finite.
func lowest(dt ir.DType) float64 {
	switch dt {
	case ir.F16:
		return -65504
	case ir.BF16:
		return -3.3895313892515355e38
	case ir.F32:
		return -math.MaxFloat32
	}
	return -math.MaxFloat64
}
