// Package nn is Stela's neural-network layers, initializers and losses.
//
// A layer is a plain Go struct whose exported *tensor.Tensor fields are
// its parameters, so a model made of layers is a parameter tree
// (frontend/tree): jit.ValueAndGradTree differentiates with respect to it,
// jit.Compile takes it as an argument and returns it as a result,
// frontend/optim updates it, and frontend/safetensors saves and loads it.
// Static configuration (strides, padding, eps, an activation's name, a
// number of heads) sits in non-tensor fields: static leaves, part of the
// tree's structure and of a compiled function's signature.
//
//	type Model struct {
//		Conv  nn.Conv2D
//		Dense nn.Linear
//	}
//
//	func (m Model) Forward(x *tensor.Tensor) *tensor.Tensor {
//		h := tensor.Relu(m.Conv.Forward(x))
//		return m.Dense.Forward(nn.Flatten{}.Forward(h))
//	}
//
//	keys := tensor.SplitKey(tensor.RandomKey(0), 2)
//	m := Model{
//		Conv:  nn.NewConv2D(keys[0], 1, 8, 3, 3),
//		Dense: nn.NewLinear(keys[1], 28*28*8, 10),
//	}
//
// Constructors take a PRNG key (tensor.RandomKey; they split it, one key
// per parameter), the sizes, and options (WithoutBias, WithKernelInit,
// WithStrides, ...; each constructor lists those it takes). Forward
// methods have value receivers and no side effects: a layer's forward
// pass is a function of its parameters and its input. Dropout, the one
// layer with randomness, takes a key per call and a training flag.
//
// The layers: Linear, Conv2D (NHWC input, HWIO kernel), LayerNorm,
// RMSNorm, Embedding, Dropout, MLP, MultiHeadAttention; the parameterless
// MaxPool2D, AvgPool2D, Flatten and Activation (ReLU, GELU, ...); and
// Sequential, a slice of Layers applied in order, for models that are a
// plain chain.
//
// Initializers are jax.nn.initializers' (fans computed from the shape as
// JAX's _compute_fans does, the same distributions and constants, so the
// same key gives JAX's values): GlorotUniform, GlorotNormal, HeNormal,
// HeUniform, LeCunNormal, LeCunUniform, Normal(std), TruncatedNormal(std),
// Uniform(scale), Zeros, Ones, Constant(v), and VarianceScaling for the
// rest. Defaults follow Flax: LeCunNormal kernels, zero biases, unit
// scales.
//
// Losses return the mean over the examples, as PyTorch's losses do by
// default: SoftmaxCrossEntropy (one-hot or soft targets),
// SparseSoftmaxCrossEntropy (integer labels), MSE,
// BinaryCrossEntropyWithLogits; Accuracy is the fraction of argmax hits.
//
// Errors: shape and type mistakes panic with a located *ir.Error naming
// the nn function and the user's line, as tensor's ops do
// ("model.go:12: nn.Linear: the input is f32[2,3], want 784 features in
// its last dimension"); jit.Compile and tensor.Catch turn them into
// errors.
package nn
