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
