package nn

import (
	"slices"
	"strings"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Option configures a layer's constructor: nn.NewLinear(key, 784, 256,
// nn.WithoutBias()). Each constructor documents the options it takes; an
// option it does not take is an error naming both, rather than being
// ignored.
type Option struct {
	name  string
	apply func(*config)
}

// config is what the options set; each constructor starts from its own
// defaults.
type config struct {
	dtype      ir.DType
	kernelInit Initializer
	biasInit   Initializer
	scaleInit  Initializer
	noBias     bool
	strides    [2]int
	padding    tensor.Padding
	dilation   [2]int
	eps        float64
	activation Activation
	causal     bool
}

// WithDType makes the layer's parameters of element type dt (default
// f32).
func WithDType(dt ir.DType) Option {
	return Option{"WithDType", func(c *config) { c.dtype = dt }}
}

// WithKernelInit sets the initializer of the layer's weight (kernel,
// embedding table, projections).
func WithKernelInit(init Initializer) Option {
	return Option{"WithKernelInit", func(c *config) { c.kernelInit = init }}
}

// WithBiasInit sets the initializer of the layer's bias (default Zeros).
func WithBiasInit(init Initializer) Option {
	return Option{"WithBiasInit", func(c *config) { c.biasInit = init }}
}

// WithScaleInit sets the initializer of a normalization's scale (default
// Ones).
func WithScaleInit(init Initializer) Option {
	return Option{"WithScaleInit", func(c *config) { c.scaleInit = init }}
}

// WithoutBias leaves the bias out: the layer's B (or Bias) field is nil,
// an absent leaf of the parameter tree.
func WithoutBias() Option {
	return Option{"WithoutBias", func(c *config) { c.noBias = true }}
}

// WithStrides sets a convolution's strides (default 1, 1).
func WithStrides(h, w int) Option {
	return Option{"WithStrides", func(c *config) { c.strides = [2]int{h, w} }}
}

// WithPadding sets a convolution's padding: tensor.Same (the default, as
// in Flax), tensor.Valid or tensor.ExplicitPadding.
func WithPadding(p tensor.Padding) Option {
	return Option{"WithPadding", func(c *config) { c.padding = p }}
}

// WithDilation sets a convolution's kernel dilation (default 1, 1).
func WithDilation(h, w int) Option {
	return Option{"WithDilation", func(c *config) { c.dilation = [2]int{h, w} }}
}

// WithEps sets a normalization's epsilon, added to the variance (or mean
// square) before the square root.
func WithEps(eps float64) Option {
	return Option{"WithEps", func(c *config) { c.eps = eps }}
}

// WithActivation sets an MLP's activation (default ReLU).
func WithActivation(a Activation) Option {
	return Option{"WithActivation", func(c *config) { c.activation = a }}
}

// WithCausalMask makes an attention layer causal: position i attends to
// positions 0 to i only.
func WithCausalMask() Option {
	return Option{"WithCausalMask", func(c *config) { c.causal = true }}
}

// apply applies opts to c, panicking on an option op does not take.
func (c *config) apply(op string, opts []Option, takes ...string) {
	for _, o := range opts {
		if o.apply == nil {
			panic(fail(op, "a zero Option: make options with the nn.With functions"))
		}
		if !slices.Contains(takes, o.name) {
			panic(fail(op, "option %s does not apply; it takes %s", o.name, strings.Join(takes, ", ")))
		}
		o.apply(c)
	}
	if !c.dtype.IsFloat() {
		panic(fail(op, "parameter element type %v: want a floating-point type", c.dtype))
	}
}

// splitKey splits key into n keys, with a clear error for a missing or
// malformed key.
func splitKey(op string, key *tensor.Tensor, n int) []*tensor.Tensor {
	if key == nil {
		panic(fail(op, "the key is nil: make one with tensor.RandomKey"))
	}
	if t := key.Type(); !t.Equal(ir.TensorOf(ir.U32, 2)) {
		panic(fail(op, "the key is %v, want ui32[2] (tensor.RandomKey)", t))
	}
	return tensor.SplitKey(key, n)
}

// positive panics unless every size is positive.
func positive(op string, names string, sizes ...int) {
	for _, s := range sizes {
		if s < 1 {
			panic(fail(op, "%s %v: want positive sizes", names, sizes))
		}
	}
}
