package main

import (
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	stelagomlx "github.com/stela-ml/stela/frontend/gomlx"
	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/tensor"
)

// The W1 rows as Go benchmarks, for profiling (go test -bench W1
// -cpuprofile): GoMLX's Exec.Call and the backend's Execute on each
// backend, and Stela's own jit call.

func benchBackend(b *testing.B, name string) compute.Backend {
	if name == "go" {
		return must(gobackend.New(""))
	}
	return must(stelagomlx.New(""))
}

func benchExecCall(b *testing.B, name string) {
	be := benchBackend(b, name)
	e := must(NewExec(be, func(x *Node) *Node { return Neg(x) }))
	x := tensors.FromFlatDataAndDimensions([]float32{1, 2, 3, 4}, 4)
	call(e, x)
	b.ResetTimer()
	for range b.N {
		call(e, x)
	}
}

func benchExecute(b *testing.B, name string) {
	be := benchBackend(b, name)
	bl := be.Builder("w1")
	f := bl.Main()
	p := must(f.Parameter("x", shapes.Make(dtypes.Float32, 4), nil))
	_ = f.Return([]compute.Value{must(f.Neg(p))}, nil)
	exe := must(bl.Compile())
	buf := must(be.BufferFromFlatData(0, []float32{1, 2, 3, 4}, shapes.Make(dtypes.Float32, 4)))
	got := make([]float32, 4)
	b.ResetTimer()
	for range b.N {
		o := must(exe.Execute([]compute.Buffer{buf}, nil, 0))
		_ = o[0].ToFlatData(got)
		_ = o[0].Finalize()
	}
}

func BenchmarkW1ExecCallStela(b *testing.B) { benchExecCall(b, "stela") }
func BenchmarkW1ExecCallGo(b *testing.B)    { benchExecCall(b, "go") }
func BenchmarkW1ExecuteStela(b *testing.B)  { benchExecute(b, "stela") }
func BenchmarkW1ExecuteGo(b *testing.B)     { benchExecute(b, "go") }

func BenchmarkW1Jit(b *testing.B) {
	f := jit.Compile(func(x *tensor.Tensor) *tensor.Tensor { return tensor.Neg(x) })
	x := tensor.FromSlice([]float32{1, 2, 3, 4}, 4)
	_ = f(x).Float32s()
	b.ResetTimer()
	for range b.N {
		_ = f(x).Float32s()
	}
}
