package runtime_test

import (
	"testing"

	"github.com/stela-ml/stela/frontend/tensor"
)

// BenchmarkEagerAdd is W1 of `stela bench`: one eager add of two f32[16]
// on the default device per iteration, each using the previous result.
func BenchmarkEagerAdd(b *testing.B) {
	x := tensor.FromSlice(make([]float32, 16), 16)
	y := tensor.FromSlice(make([]float32, 16), 16)
	x = tensor.Add(x, y)
	b.ResetTimer()
	for range b.N {
		x = tensor.Add(x, y)
	}
	_ = x.Float32s()
}

// BenchmarkEagerAddWeakScalar adds a Go number (a weak scalar, converted
// to f32 on the device) to an f32[16] per iteration; next to
// BenchmarkEagerAddScalarLike, which makes the f32 scalar directly, it
// measures what the weak type's conversion costs eagerly.
func BenchmarkEagerAddWeakScalar(b *testing.B) {
	x := tensor.FromSlice(make([]float32, 16), 16)
	x = tensor.Add(x, tensor.Scalar(1.0))
	b.ResetTimer()
	for range b.N {
		x = tensor.Add(x, tensor.Scalar(1.0))
	}
	_ = x.Float32s()
}

// BenchmarkEagerAddScalarLike is BenchmarkEagerAddWeakScalar with the
// scalar made in x's type (tensor.ScalarLike).
func BenchmarkEagerAddScalarLike(b *testing.B) {
	x := tensor.FromSlice(make([]float32, 16), 16)
	x = tensor.Add(x, tensor.ScalarLike(x, 1))
	b.ResetTimer()
	for range b.N {
		x = tensor.Add(x, tensor.ScalarLike(x, 1))
	}
	_ = x.Float32s()
}
