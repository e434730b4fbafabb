package nn

import (
	"fmt"
	"math"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Initializer makes a parameter's initial value: a tensor of element type
// dt and the given shape, drawn with key (a PRNG key, tensor.RandomKey;
// Zeros, Ones and Constant ignore it). It is jax.nn.initializers'
// init(key, shape, dtype) in Stela's argument order (that of
// tensor.RandomNormal). The functions below are Initializers, and
// VarianceScaling, Normal, TruncatedNormal, Uniform and Constant make
// them.
type Initializer func(key *tensor.Tensor, dt ir.DType, shape ...int) *tensor.Tensor

// FanMode is what VarianceScaling divides its scale by.
type FanMode string

// The fan modes of VarianceScaling.
const (
	FanIn  FanMode = "fan_in"  // the number of inputs of a unit
	FanOut FanMode = "fan_out" // the number of outputs
	FanAvg FanMode = "fan_avg" // their mean
	// FanGeoAvg is their geometric mean.
	FanGeoAvg FanMode = "fan_geo_avg"
)

// Distribution is what VarianceScaling draws from.
type Distribution string

// The distributions of VarianceScaling.
const (
	// DistTruncatedNormal is a normal distribution truncated to two
	// standard deviations, rescaled so that its variance is the one asked
	// for.
	DistTruncatedNormal Distribution = "truncated_normal"
	DistNormal          Distribution = "normal"
	DistUniform         Distribution = "uniform" // symmetric around 0
)

// truncatedStd is the standard deviation of a standard normal variable
// truncated to (-2, 2): VarianceScaling divides by it so that its
// truncated samples have the variance asked for (JAX's constant).
const truncatedStd = .87962566103423978

// Fans returns the fan in and fan out of a weight of the given shape, as
// jax.nn.initializers computes them (_compute_fans): the sizes of
// dimensions inAxis and outAxis (negative axes count from the end), each
// multiplied by the receptive field, the product of the other
// dimensions. For a Linear kernel [in, out] they are in and out; for a
// Conv2D kernel [h, w, in, out] (HWIO) they are h·w·in and h·w·out.
func Fans(shape []int, inAxis, outAxis int) (fanIn, fanOut float64, err error) {
	n := len(shape)
	in, out := inAxis, outAxis
	if in < 0 {
		in += n
	}
	if out < 0 {
		out += n
	}
	if in < 0 || in >= n || out < 0 || out >= n {
		return 0, 0, fmt.Errorf("shape %v has rank %d: no axes %d (in) and %d (out); fans need a weight of rank 2 or more", shape, n, inAxis, outAxis)
	}
	size := 1.0
	for _, d := range shape {
		size *= float64(d)
	}
	inSize, outSize := float64(shape[in]), float64(shape[out])
	if inSize == 0 || outSize == 0 {
		return 0, 0, fmt.Errorf("shape %v has a zero fan", shape)
	}
	receptive := size / inSize / outSize
	return inSize * receptive, outSize * receptive, nil
}

// VarianceScaling is jax.nn.initializers.variance_scaling: samples whose
// variance is scale divided by the fan that mode names (Fans, along axes
// in and out, -2 and -1 when axes is empty), from dist: a truncated
// normal (rescaled by 0.8796..., JAX's constant, to have that variance),
// a normal, or a uniform distribution on ±√(3·variance). The named
// initializers below are its common cases.
func VarianceScaling(scale float64, mode FanMode, dist Distribution, axes ...int) Initializer {
	return varianceScaling("nn.VarianceScaling", scale, mode, dist, axes...)
}

func varianceScaling(name string, scale float64, mode FanMode, dist Distribution, axes ...int) Initializer {
	return func(key *tensor.Tensor, dt ir.DType, shape ...int) *tensor.Tensor {
		defer named(name)
		inAxis, outAxis := -2, -1
		switch len(axes) {
		case 0:
		case 2:
			inAxis, outAxis = axes[0], axes[1]
		default:
			panic(fail(name, "axes %v: want none or two (in, out)", axes))
		}
		fanIn, fanOut, err := Fans(shape, inAxis, outAxis)
		if err != nil {
			panic(fail(name, "%v", err))
		}
		var fan float64
		switch mode {
		case FanIn:
			fan = fanIn
		case FanOut:
			fan = fanOut
		case FanAvg:
			fan = (fanIn + fanOut) / 2
		case FanGeoAvg:
			fan = math.Sqrt(fanIn * fanOut)
		default:
			panic(fail(name, "fan mode %q: want %q, %q, %q or %q", mode, FanIn, FanOut, FanAvg, FanGeoAvg))
		}
		if !(scale > 0) || math.IsInf(scale, 0) {
			panic(fail(name, "scale %v: want a positive number", scale))
		}
		// JAX computes the variance and the factors below in dt, rounding
		// each step; so does this for f32 and f64, to draw JAX's numbers.
		r := rounder(dt)
		variance := r(scale / fan)
		var x *tensor.Tensor
		var mul float64
		switch dist {
		case DistTruncatedNormal:
			x, mul = tensor.RandomTruncatedNormal(key, dt, -2, 2, shape...), r(r(math.Sqrt(variance))/r(truncatedStd))
		case DistNormal:
			x, mul = tensor.RandomNormal(key, dt, shape...), r(math.Sqrt(variance))
		case DistUniform:
			x, mul = tensor.RandomUniform(key, dt, shape, -1, 1), r(math.Sqrt(r(3*variance)))
		default:
			panic(fail(name, "distribution %q: want %q, %q or %q", dist, DistTruncatedNormal, DistNormal, DistUniform))
		}
		return tensor.Mul(x, tensor.ScalarLike(x, mul))
	}
}

// rounder returns the function that rounds a float64 to dt: exactly for
// f32 and f64 (the square root of a float32 computed in float64 and
// rounded to float32 is correctly rounded), the identity for other types,
// whose constants are rounded once when they become tensors.
func rounder(dt ir.DType) func(float64) float64 {
	if dt == ir.F32 {
		return func(v float64) float64 { return float64(float32(v)) }
	}
	return func(v float64) float64 { return v }
}

// GlorotUniform is jax.nn.initializers.glorot_uniform (Xavier uniform,
// torch.nn.init.xavier_uniform_): uniform with variance 1/fan_avg.
func GlorotUniform(key *tensor.Tensor, dt ir.DType, shape ...int) *tensor.Tensor {
	return varianceScaling("nn.GlorotUniform", 1, FanAvg, DistUniform)(key, dt, shape...)
}

// GlorotNormal is jax.nn.initializers.glorot_normal: truncated normal
// with variance 1/fan_avg.
func GlorotNormal(key *tensor.Tensor, dt ir.DType, shape ...int) *tensor.Tensor {
	return varianceScaling("nn.GlorotNormal", 1, FanAvg, DistTruncatedNormal)(key, dt, shape...)
}

// HeNormal is jax.nn.initializers.he_normal (Kaiming): truncated normal
// with variance 2/fan_in, for ReLU networks.
func HeNormal(key *tensor.Tensor, dt ir.DType, shape ...int) *tensor.Tensor {
	return varianceScaling("nn.HeNormal", 2, FanIn, DistTruncatedNormal)(key, dt, shape...)
}

// HeUniform is jax.nn.initializers.he_uniform: uniform with variance
// 2/fan_in.
func HeUniform(key *tensor.Tensor, dt ir.DType, shape ...int) *tensor.Tensor {
	return varianceScaling("nn.HeUniform", 2, FanIn, DistUniform)(key, dt, shape...)
}

// LeCunNormal is jax.nn.initializers.lecun_normal: truncated normal with
// variance 1/fan_in. It is the default of Linear and Conv2D kernels, as
// in Flax.
func LeCunNormal(key *tensor.Tensor, dt ir.DType, shape ...int) *tensor.Tensor {
	return varianceScaling("nn.LeCunNormal", 1, FanIn, DistTruncatedNormal)(key, dt, shape...)
}

// LeCunUniform is jax.nn.initializers.lecun_uniform: uniform with
// variance 1/fan_in.
func LeCunUniform(key *tensor.Tensor, dt ir.DType, shape ...int) *tensor.Tensor {
	return varianceScaling("nn.LeCunUniform", 1, FanIn, DistUniform)(key, dt, shape...)
}

// Normal is jax.nn.initializers.normal(std): normal samples with standard
// deviation std and mean 0.
func Normal(std float64) Initializer {
	return func(key *tensor.Tensor, dt ir.DType, shape ...int) *tensor.Tensor {
		defer named("nn.Normal")
		x := tensor.RandomNormal(key, dt, shape...)
		return tensor.Mul(x, tensor.ScalarLike(x, std))
	}
}

// TruncatedNormal is jax.nn.initializers.truncated_normal(std): std times
// a standard normal truncated to (-2, 2). Unlike VarianceScaling's, the
// samples are not rescaled: their standard deviation is about 0.88·std.
func TruncatedNormal(std float64) Initializer {
	return func(key *tensor.Tensor, dt ir.DType, shape ...int) *tensor.Tensor {
		defer named("nn.TruncatedNormal")
		x := tensor.RandomTruncatedNormal(key, dt, -2, 2, shape...)
		return tensor.Mul(x, tensor.ScalarLike(x, std))
	}
}

// Uniform is jax.nn.initializers.uniform(scale): uniform samples in
// [0, scale).
func Uniform(scale float64) Initializer {
	return func(key *tensor.Tensor, dt ir.DType, shape ...int) *tensor.Tensor {
		defer named("nn.Uniform")
		return tensor.RandomUniform(key, dt, shape, 0, scale)
	}
}

// Zeros is jax.nn.initializers.zeros; it ignores the key, which may be
// nil. It is the default of biases.
func Zeros(_ *tensor.Tensor, dt ir.DType, shape ...int) *tensor.Tensor {
	defer named("nn.Zeros")
	return tensor.Zeros(dt, shape...)
}

// Ones is jax.nn.initializers.ones; it ignores the key, which may be nil.
// It is the default of normalization scales.
func Ones(_ *tensor.Tensor, dt ir.DType, shape ...int) *tensor.Tensor {
	defer named("nn.Ones")
	return tensor.Ones(dt, shape...)
}

// Constant is jax.nn.initializers.constant(v): every element v. It
// ignores the key, which may be nil.
func Constant(v float64) Initializer {
	return func(_ *tensor.Tensor, dt ir.DType, shape ...int) *tensor.Tensor {
		defer named("nn.Constant")
		return tensor.Full(dt, v, shape...)
	}
}
