package nn

import (
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Linear is a dense layer: y = x·W + B, torch.nn.Linear and Flax's Dense.
type Linear struct {
	W *tensor.Tensor // [in, out] (torch.nn.Linear's weight transposed)
	B *tensor.Tensor // [out]; nil without a bias
}

// NewLinear makes a Linear layer from in to out features. W is drawn with
// LeCunNormal (Flax's default) from key, B is zeros. Options: WithDType,
// WithKernelInit, WithBiasInit, WithoutBias.
func NewLinear(key *tensor.Tensor, in, out int, opts ...Option) Linear {
	const op = "nn.NewLinear"
	defer named(op)
	c := config{dtype: ir.F32, kernelInit: LeCunNormal, biasInit: Zeros}
	c.apply(op, opts, "WithDType", "WithKernelInit", "WithBiasInit", "WithoutBias")
	positive(op, "sizes in, out", in, out)
	k := splitKey(op, key, 2)
	l := Linear{W: c.kernelInit(k[0], c.dtype, in, out)}
	if !c.noBias {
		l.B = c.biasInit(k[1], c.dtype, out)
	}
	return l
}

// Forward returns x·W + B for x of shape [..., in]: [..., out].
func (l Linear) Forward(x *tensor.Tensor) *tensor.Tensor {
	const op = "nn.Linear"
	defer named(op)
	checkParam(op, "W", l.W)
	checkInput(op, x, 1)
	in := l.W.Shape()[0]
	if s := x.Shape(); s[len(s)-1] != in {
		panic(fail(op, "the input is %v, want %d features in its last dimension (W is %v)", x.Type(), in, l.W.Type()))
	}
	var y *tensor.Tensor
	if x.Rank() == 1 {
		y = tensor.Squeeze(tensor.MatMul(tensor.ExpandDims(x, 0), l.W), 0)
	} else {
		y = tensor.MatMul(x, l.W)
	}
	if l.B != nil {
		y = tensor.Add(y, l.B)
	}
	return y
}

// Activation is an elementwise nonlinearity, by name. Its names are
// static leaves of a parameter tree (an MLP's Activation field), so they
// are part of a compiled function's signature and of a checkpoint's
// structure, never a tensor. An Activation is also a Layer, for
// Sequential.
type Activation string

// The activations.
const (
	Identity Activation = "identity" // x
	ReLU     Activation = "relu"     // max(x, 0)
	GELU     Activation = "gelu"     // tensor.GELU: the tanh approximation (Flax's default; torch's approximate="tanh")
	Tanh     Activation = "tanh"
	Sigmoid  Activation = "sigmoid" // 1/(1+e⁻ˣ)
	SiLU     Activation = "silu"    // x·sigmoid(x), also called swish
)

// Forward applies the activation to x. An unknown name is an error.
func (a Activation) Forward(x *tensor.Tensor) *tensor.Tensor {
	const op = "nn.Activation"
	defer named(op)
	switch a {
	case Identity:
		return x
	case ReLU:
		return tensor.Relu(x)
	case GELU:
		return tensor.GELU(x)
	case Tanh:
		return tensor.Tanh(x)
	case Sigmoid:
		return tensor.Sigmoid(x)
	case SiLU:
		return tensor.Mul(x, tensor.Sigmoid(x))
	}
	panic(fail(op, "unknown activation %q: want identity, relu, gelu, tanh, sigmoid or silu", string(a)))
}

// MLP is a multilayer perceptron: Linear layers with Activation between
// them (not after the last, whose outputs are logits or regression
// values).
type MLP struct {
	Layers     []Linear
	Activation Activation
}

// NewMLP makes an MLP whose layers map sizes[0] features to sizes[1], then
// to sizes[2], and so on: NewMLP(key, []int{784, 256, 256, 10}) has three
// layers. Options: WithActivation (default ReLU), and NewLinear's
// (WithDType, WithKernelInit, WithBiasInit, WithoutBias), which apply to
// every layer.
func NewMLP(key *tensor.Tensor, sizes []int, opts ...Option) MLP {
	const op = "nn.NewMLP"
	defer named(op)
	c := config{dtype: ir.F32, activation: ReLU}
	var linearOpts []Option
	for _, o := range opts {
		if o.name == "WithActivation" {
			c.apply(op, []Option{o}, "WithActivation")
		} else {
			linearOpts = append(linearOpts, o)
		}
	}
	if len(sizes) < 2 {
		panic(fail(op, "sizes %v: want at least two (inputs, outputs)", sizes))
	}
	positive(op, "sizes", sizes...)
	keys := splitKey(op, key, len(sizes)-1)
	m := MLP{Activation: c.activation}
	for i := range len(sizes) - 1 {
		m.Layers = append(m.Layers, NewLinear(keys[i], sizes[i], sizes[i+1], linearOpts...))
	}
	return m
}

// Forward runs x [..., sizes[0]] through the layers: [..., sizes[last]].
func (m MLP) Forward(x *tensor.Tensor) *tensor.Tensor {
	defer named("nn.MLP")
	for i, l := range m.Layers {
		x = l.Forward(x)
		if i < len(m.Layers)-1 {
			x = m.Activation.Forward(x)
		}
	}
	return x
}

// Layer is a layer with one input and one output and no randomness:
// Linear, Conv2D, LayerNorm, RMSNorm, MLP, MultiHeadAttention (self
// attention), an Activation, Flatten, MaxPool2D, AvgPool2D, Sequential.
// Dropout, which needs a key, is not one.
type Layer interface {
	Forward(x *tensor.Tensor) *tensor.Tensor
}

// Sequential applies its layers in order. It is a parameter tree (the
// layers' own parameters, in order: "0.W", "0.B", "2.W", ...); its
// layers' types are part of its structure, so a checkpoint of it loads
// into a Sequential of the same layers.
type Sequential []Layer

// Forward applies the layers to x in order.
func (s Sequential) Forward(x *tensor.Tensor) *tensor.Tensor {
	const op = "nn.Sequential"
	defer named(op)
	for i, l := range s {
		if l == nil {
			panic(fail(op, "layer %d is nil", i))
		}
		x = l.Forward(x)
	}
	return x
}

// Flatten reshapes [b, d1, d2, ...] to [b, d1·d2·...]: between
// convolutions and dense layers.
type Flatten struct{}

// Forward flattens all dimensions of x but the first.
func (Flatten) Forward(x *tensor.Tensor) *tensor.Tensor {
	const op = "nn.Flatten"
	defer named(op)
	if x == nil || x.Rank() < 1 {
		panic(fail(op, "want an input of rank 1 or more"))
	}
	s := x.Shape()
	n := 1
	for _, d := range s[1:] {
		n *= d
	}
	return tensor.Reshape(x, s[0], n)
}
