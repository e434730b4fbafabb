package jit_test

import (
	"fmt"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// dense is a layer written once; it runs eagerly or traces.
func dense(x, w, b *tensor.Tensor) *tensor.Tensor {
	return tensor.Relu(tensor.Add(tensor.MatMul(x, w), b))
}

func ExampleTrace() {
	f, err := jit.Trace(dense, ir.TensorOf(ir.F32, 2, 3), ir.TensorOf(ir.F32, 3, 4), ir.TensorOf(ir.F32, 4))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(f)
	// Output:
	// func @dense(%0: f32[2,3], %1: f32[3,4], %2: f32[4]) -> f32[2,4] {
	//   %3 = dot_general %0, %1 {lhs_batch = [], rhs_batch = [], lhs_contract = [1], rhs_contract = [0], precision = [HIGHEST, HIGHEST]} : f32[2,4]
	//   %4 = broadcast_in_dim %2 {shape = [2, 4], dims = [1]} : f32[2,4]
	//   %5 = add %3, %4 : f32[2,4]
	//   %6 = constant {value = dense<0.0> : f32[]} : f32[]
	//   %7 = broadcast_in_dim %6 {shape = [2, 4], dims = []} : f32[2,4]
	//   %8 = maximum %5, %7 : f32[2,4]
	//   return %8
	// }
}

func Example_eager() {
	x := tensor.FromSlice([]float32{1, -2, 3, -4, 5, -6}, 2, 3)
	w := tensor.FromSlice([]float32{1, 0, 0, 1, 1, 1}, 3, 2)
	b := tensor.FromSlice([]float32{0.5, -100}, 2)
	fmt.Println(dense(x, w, b).Float32s())
	// Output:
	// [4.5 0 0 0]
}

func ExampleTrace_shapeError() {
	_, err := jit.Trace(dense, ir.TensorOf(ir.F32, 2, 3), ir.TensorOf(ir.F32, 5, 4), ir.TensorOf(ir.F32, 4))
	fmt.Println(err != nil)
	// Output:
	// true
}
