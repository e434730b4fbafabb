package tensor

import "math"

// Activations and normalizations, composed from the ops above. Each
// constant they need is made with ScalarLike, so in a trace it is a
// constant op rather than a captured parameter.

// Relu is max(x, 0).
func Relu(x *Tensor) *Tensor {
	defer named(opRelu)
	checkNotNil(opRelu, x)
	return Maximum(x, ScalarLike(x, 0))
}

// GELU is the tanh approximation of the Gaussian error linear unit, as in
// GPT-2: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))). It is computed as
// x·σ(2√(2/π)·(x + 0.044715·x³)), the same function (0.5·(1 + tanh u) is
// σ(2u)) in fewer, cheaper ops: the logistic costs less than tanh (no
// separate small-argument polynomial), and for large negative x the sum
// 1 + tanh u no longer cancels to 0 where the true value is merely tiny.
func GELU(x *Tensor) *Tensor {
	defer named(opGELU)
	checkNotNil(opGELU, x)
	x3 := Mul(Mul(x, x), x)
	inner := Mul(ScalarLike(x, 2*math.Sqrt(2/math.Pi)), Add(x, Mul(ScalarLike(x, 0.044715), x3)))
	return Mul(x, Sigmoid(inner))
}

// Softmax is exp(x) / sum(exp(x)) along axis, computed as
// exp(x - max) / sum(exp(x - max)) so that large inputs do not overflow
// (the max is a constant for gradients: its derivative is zero).
func Softmax(x *Tensor, axis int) *Tensor {
	defer named(opSoftmax)
	checkNotNil(opSoftmax, x)
	e := Exp(Sub(x, StopGradient(KeepDims(Max, x, axis))))
	return Div(e, KeepDims(Sum, e, axis))
}

// LogSoftmax is log(Softmax(x, axis)), computed as
// (x - max) - log(sum(exp(x - max))).
func LogSoftmax(x *Tensor, axis int) *Tensor {
	defer named(opLogSoftmax)
	checkNotNil(opLogSoftmax, x)
	s := Sub(x, StopGradient(KeepDims(Max, x, axis)))
	return Sub(s, Log(KeepDims(Sum, Exp(s), axis)))
}

// LayerNorm normalizes x to zero mean and unit variance along axis, then
// scales by gamma and shifts by beta (either may be nil; both broadcast
// against x, so for axis -1 they have shape [x.Shape()[-1]]):
// (x - mean) / sqrt(var + eps) · gamma + beta.
func LayerNorm(x, gamma, beta *Tensor, axis int, eps float64) *Tensor {
	defer named(opLayerNorm)
	checkNotNil(opLayerNorm, x)
	c := Sub(x, KeepDims(Mean, x, axis))
	v := KeepDims(Mean, Mul(c, c), axis)
	y := Mul(c, Rsqrt(Add(v, ScalarLike(v, eps))))
	if gamma != nil {
		y = Mul(y, gamma)
	}
	if beta != nil {
		y = Add(y, beta)
	}
	return y
}

// RMSNorm scales x by the reciprocal root mean square along axis, then by
// gamma (may be nil): x / sqrt(mean(x²) + eps) · gamma.
func RMSNorm(x, gamma *Tensor, axis int, eps float64) *Tensor {
	defer named(opRMSNorm)
	checkNotNil(opRMSNorm, x)
	ms := KeepDims(Mean, Mul(x, x), axis)
	y := Mul(x, Rsqrt(Add(ms, ScalarLike(ms, eps))))
	if gamma != nil {
		y = Mul(y, gamma)
	}
	return y
}
