package tensor_test

import (
	"testing"

	"github.com/stela-ml/stela/frontend/internal/wanttest"
	. "github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// A composite op function names itself in every error raised inside it,
// before the IR op that failed, whichever of its parts raised it.
func TestErrorsNameTheFunctionCalled(t *testing.T) {
	x := f32([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	i := FromSlice([]int32{1, 2, 3})
	x4 := Reshape(x, 1, 2, 3, 1)
	c4 := FromSlice(make([]complex64, 4), 1, 2, 2, 1)
	cases := []func(){
		func() { Softmax(i, 0) },                                    // want `^names_test.go:\d+: softmax: exponential: element type si32 is not supported`
		func() { Softmax(x, 4) },                                    // want `^names_test.go:\d+: softmax: axis 4 is out of range for rank 2$`
		func() { LogSoftmax(i, 0) },                                 // want `^names_test.go:\d+: log_softmax: exponential: element type si32`
		func() { LayerNorm(i, nil, nil, -1, 1e-5) },                 // want `^names_test.go:\d+: layer_norm: rsqrt: element type si32`
		func() { LayerNorm(x, i, nil, -1, 1e-5) },                   // want `^names_test.go:\d+: layer_norm: multiply: operand types f32\[2,3\] and si32\[3\] differ`
		func() { RMSNorm(i, nil, -1, 1e-5) },                        // want `^names_test.go:\d+: rms_norm: rsqrt: element type si32`
		func() { GELU(i) },                                          // want `^names_test.go:\d+: gelu: logistic: element type si32`
		func() { Relu(nil) },                                        // want `^names_test.go:\d+: relu: operand #0 is nil$`
		func() { Mean(x, 5) },                                       // want `^names_test.go:\d+: mean: axis 5 is out of range for rank 2$`
		func() { Max(x, -3) },                                       // want `^names_test.go:\d+: max: axis -3 is out of range for rank 2$`
		func() { Min(x, 0, 0) },                                     // want `^names_test.go:\d+: min: axis 0 appears twice in \[0 0\]$`
		func() { Prod(x, 9) },                                       // want `^names_test.go:\d+: prod: axis 9 is out of range for rank 2$`
		func() { ArgMax(x, 2) },                                     // want `^names_test.go:\d+: argmax: axis 2 is out of range for rank 2$`
		func() { ArgMin(FromSlice([]complex64{1}), 0) },             // want `^names_test.go:\d+: argmin: element type c64 has no order$`
		func() { KeepDims(Max, x, 7) },                              // want `^names_test.go:\d+: keep_dims: axis 7 is out of range for rank 2$`
		func() { Conv2D(x4, Convert(x4, ir.F64), Conv2DOptions{}) }, // want `^names_test.go:\d+: conv2d: operand types f32\[1,2,3,1\] and f64\[1,2,3,1\] differ`
		func() { MaxPool2D(x, [2]int{2, 2}, [2]int{}, Valid) },      // want `^names_test.go:\d+: max_pool2d: pooling needs an NHWC input \(rank 4\), got f32\[2,3\]$`
		func() { AvgPool2D(Convert(x4, ir.Bool), [2]int{1, 1}, [2]int{}, Valid) }, // want `^names_test.go:\d+: avg_pool2d: divide: element type i1 is not supported`
		func() { MaxPool2D(c4, [2]int{1, 1}, [2]int{}, Valid) },                   // want `^names_test.go:\d+: max_pool2d: reduce_window: element type c64 has no order$`
		func() { Take(x, x, 0) },           // want `^names_test.go:\d+: take: indices are f32\[2,3\], want an integer element type$`
		func() { ScatterAdd(x, i, x, 0) },  // want `^names_test.go:\d+: scatter_add: updates f32\[2,3\] for operand f32\[2,3\] and indices si32\[3\] along axis 0: want shape \[3 3\]$`
		func() { ExpandDims(x, 5) },        // want `^names_test.go:\d+: expand_dims: axis 5 is out of range for rank 3$`
		func() { Squeeze(x, 0) },           // want `^names_test.go:\d+: squeeze: cannot squeeze dimension 0 of f32\[2,3\]: size is 2, not 1$`
		func() { SliceAxis(x, 4, 0, 1) },   // want `^names_test.go:\d+: slice_axis: axis 4 is out of range for rank 2$`
		func() { Mean(Softmax(i, 0)) },     // want `^names_test.go:\d+: softmax: exponential:`
		func() { MatMul(x, Transpose(i)) }, // want `^names_test.go:\d+: matmul: operands need rank >= 2, got f32\[2,3\] and si32\[3\]$`
	}
	errs := make([]error, len(cases))
	for k, c := range cases {
		errs[k] = Catch(c)
	}
	wanttest.Check(t, "names_test.go", errs)
}
