package tensor_test

import (
	"testing"

	"github.com/stela-ml/stela/frontend/internal/wanttest"
	. "github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Go numbers take the type of the tensor they meet, exactly or not at all.
func TestWeakScalarErrors(t *testing.T) {
	x := f32([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	i := FromSlice([]int32{1, 2, 3})
	cases := []func(){
		func() { Add(i, Scalar(3.5)) },                            // want `^weak_errors_test.go:\d+: add: float constant 3.5 meets an si32 operand: Stela does not promote integers to floats \(write an integer constant, or Convert the operand\)$`
		func() { Mul(i, Scalar(3.0)) },                            // want `^weak_errors_test.go:\d+: multiply: float constant 3 meets an si32 operand`
		func() { Add(FromSlice([]uint8{1}), Scalar(-1)) },         // want `^weak_errors_test.go:\d+: add: integer constant -1 overflows ui8$`
		func() { Add(FromSlice([]int8{1}), Scalar(300)) },         // want `^weak_errors_test.go:\d+: add: integer constant 300 overflows si8$`
		func() { Add(x, Scalar(16777217)) },                       // want `^weak_errors_test.go:\d+: add: integer constant 16777217 is not exactly representable in f32$`
		func() { Add(FromSlice([]ir.Float16{0}), Scalar(1e300)) }, // want `^weak_errors_test.go:\d+: add: float constant 1e\+300 overflows f16$`
		func() { Add(FromSlice([]bool{true}), Scalar(1)) },        // want `^weak_errors_test.go:\d+: add: integer constant 1 meets an i1 operand`
		func() { Add(x, Scalar(1i)) },                             // want `^weak_errors_test.go:\d+: add: complex constant \(0\+1i\) meets an f32 operand`
		func() { Less(i, Scalar(2.5)) },                           // want `^weak_errors_test.go:\d+: compare: float constant 2.5 meets an si32 operand`
		func() { Where(Less(i, i), i, Scalar(0.5)) },              // want `^weak_errors_test.go:\d+: where: float constant 0.5 meets an si32 operand`
		func() { Clamp(i, Scalar(0.5), Scalar(2)) },               // want `^weak_errors_test.go:\d+: clamp: float constant 0.5 meets an si32 operand`
		func() { Pad(i, Scalar(0.5), []int{1}, []int{1}, nil) },   // want `^weak_errors_test.go:\d+: pad: float constant 0.5 meets an si32 operand`
		func() { Add(x, Convert(Scalar(3.0), ir.F64)) },           // want `^weak_errors_test.go:\d+: add: operand types f32\[2,3\] and f64\[\] differ: element types must match`
		func() { Add(x, Scalar(float64(3)).To("cpu")) },           // want `^weak_errors_test.go:\d+: add: operand types f32\[2,3\] and f64\[\] differ`
	}
	errs := make([]error, len(cases))
	for k, c := range cases {
		errs[k] = Catch(c)
	}
	wanttest.Check(t, "weak_errors_test.go", errs)
}
