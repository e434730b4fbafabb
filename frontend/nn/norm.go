package nn

import (
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// LayerNorm normalizes the last dimension of its input to zero mean and
// unit variance, then scales and shifts it: torch.nn.LayerNorm over the
// last dimension, Flax's nn.LayerNorm.
type LayerNorm struct {
	Scale *tensor.Tensor // [features]; torch's weight
	Bias  *tensor.Tensor // [features]; nil without one
	Eps   float64        // added to the variance
}

// NewLayerNorm makes a LayerNorm over features with Scale ones, Bias
// zeros and Eps 1e-5 (PyTorch's default; Flax's is 1e-6). Options:
// WithEps, WithDType, WithScaleInit, WithBiasInit, WithoutBias. The key
// may be nil unless an initializer needs it.
func NewLayerNorm(key *tensor.Tensor, features int, opts ...Option) LayerNorm {
	const op = "nn.NewLayerNorm"
	defer named(op)
	c := config{dtype: ir.F32, scaleInit: Ones, biasInit: Zeros, eps: 1e-5}
	c.apply(op, opts, "WithEps", "WithDType", "WithScaleInit", "WithBiasInit", "WithoutBias")
	positive(op, "features", features)
	var k [2]*tensor.Tensor
	if key != nil {
		copy(k[:], splitKey(op, key, 2))
	}
	l := LayerNorm{Scale: c.scaleInit(k[0], c.dtype, features), Eps: c.eps}
	if !c.noBias {
		l.Bias = c.biasInit(k[1], c.dtype, features)
	}
	return l
}

// Forward normalizes x [..., features] along its last dimension.
func (l LayerNorm) Forward(x *tensor.Tensor) *tensor.Tensor {
	const op = "nn.LayerNorm"
	defer named(op)
	checkInput(op, x, 1)
	checkFeatures(op, x, l.Scale, l.Bias)
	return tensor.LayerNorm(x, l.Scale, l.Bias, -1, l.Eps)
}

// RMSNorm scales the last dimension of its input by its reciprocal root
// mean square, then by Scale (no centering, no bias): torch.nn.RMSNorm,
// Flax's nn.RMSNorm.
type RMSNorm struct {
	Scale *tensor.Tensor // [features]
	Eps   float64        // added to the mean square
}

// NewRMSNorm makes an RMSNorm over features with Scale ones and Eps 1e-6
// (Flax's default). Options: WithEps, WithDType, WithScaleInit. The key
// may be nil unless an initializer needs it.
func NewRMSNorm(key *tensor.Tensor, features int, opts ...Option) RMSNorm {
	const op = "nn.NewRMSNorm"
	defer named(op)
	c := config{dtype: ir.F32, scaleInit: Ones, eps: 1e-6}
	c.apply(op, opts, "WithEps", "WithDType", "WithScaleInit")
	positive(op, "features", features)
	return RMSNorm{Scale: c.scaleInit(key, c.dtype, features), Eps: c.eps}
}

// Forward normalizes x [..., features] along its last dimension.
func (l RMSNorm) Forward(x *tensor.Tensor) *tensor.Tensor {
	const op = "nn.RMSNorm"
	defer named(op)
	checkInput(op, x, 1)
	checkFeatures(op, x, l.Scale)
	return tensor.RMSNorm(x, l.Scale, -1, l.Eps)
}

// checkFeatures panics unless each non-nil parameter is a vector as long
// as x's last dimension.
func checkFeatures(op string, x *tensor.Tensor, params ...*tensor.Tensor) {
	f := x.Shape()[x.Rank()-1]
	for _, p := range params {
		if p != nil && (p.Rank() != 1 || p.Shape()[0] != f) {
			panic(fail(op, "the input is %v: its last dimension %d does not match the parameter %v", x.Type(), f, p.Type()))
		}
	}
}
