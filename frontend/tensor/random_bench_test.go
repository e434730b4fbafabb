package tensor_test

import (
	"testing"

	"github.com/stela-ml/stela/frontend/jit"
	. "github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// The samplers on the CPU plugin, eagerly (each op a cached one-op
// program) and compiled by jit (one program), for 2^16 f32 numbers.
// The first call, outside the timer, compiles.

func benchRandom(b *testing.B, fn func(k *Tensor) *Tensor) {
	k := RandomKey(1)
	if err := Catch(func() { fn(k).Literal() }); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		fn(k).Literal()
	}
}

const benchN = 1 << 16

func BenchmarkRandomBitsEager(b *testing.B) {
	benchRandom(b, func(k *Tensor) *Tensor { return RandomBits(k, ir.U32, benchN) })
}

func BenchmarkRandomBitsJit(b *testing.B) {
	benchRandom(b, jit.Compile(func(k *Tensor) *Tensor { return RandomBits(k, ir.U32, benchN) }))
}

func BenchmarkRandomUniformEager(b *testing.B) {
	benchRandom(b, func(k *Tensor) *Tensor { return RandomUniform(k, ir.F32, []int{benchN}, 0, 1) })
}

func BenchmarkRandomNormalEager(b *testing.B) {
	benchRandom(b, func(k *Tensor) *Tensor { return RandomNormal(k, ir.F32, benchN) })
}
