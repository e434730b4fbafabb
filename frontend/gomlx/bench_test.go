package gomlx_test

import (
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
)

// BenchmarkExecuteOneOp is W1's backend part: Execute of a one-op program
// on a device buffer, and the host read of its result.
func BenchmarkExecuteOneOp(b *testing.B) {
	be, err := compute.NewWithConfig("stela")
	if err != nil {
		b.Fatal(err)
	}
	s := shapes.Make(dtypes.Float32, 4)
	bl := be.Builder("w1")
	f := bl.Main()
	p, _ := f.Parameter("x", s, nil)
	y, _ := f.Neg(p)
	_ = f.Return([]compute.Value{y}, nil)
	exe, err := bl.Compile()
	if err != nil {
		b.Fatal(err)
	}
	buf, _ := be.BufferFromFlatData(0, []float32{1, 2, 3, 4}, s)
	got := make([]float32, 4)
	b.ResetTimer()
	for range b.N {
		o, err := exe.Execute([]compute.Buffer{buf}, nil, 0)
		if err != nil {
			b.Fatal(err)
		}
		if err := o[0].ToFlatData(got); err != nil {
			b.Fatal(err)
		}
		_ = o[0].Finalize()
	}
}
