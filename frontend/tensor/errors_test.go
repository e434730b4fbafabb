package tensor_test

import (
	"testing"

	"github.com/stela-ml/stela/frontend/internal/wanttest"
	. "github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Each case makes one error, which must be located at the line of this
// file that carries the matching want comment.
func TestErrorsAtCallSite(t *testing.T) {
	wanttest.Check(t, "errors_test.go", callSiteErrors())
}

// TestFusedErrorsAtCallSite: the same errors, at the same lines, in fused
// eager mode, where the ops record into a window instead of running.
func TestFusedErrorsAtCallSite(t *testing.T) {
	var errs []error
	WithEagerMode(EagerFused, func() { errs = callSiteErrors() })
	wanttest.Check(t, "errors_test.go", errs)
}

// callSiteErrors makes each error of TestErrorsAtCallSite.
func callSiteErrors() []error {
	x := f32([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	y := f32([]float32{1, 2, 3, 4, 5, 6}, 3, 2)
	i := FromSlice([]int32{1, 2, 3})
	cases := []func(){
		func() { Add(x, y) },                  // want `^errors_test.go:\d+: add: operand types f32\[2,3\] and f32\[3,2\] differ: shapes do not broadcast`
		func() { Mul(x, Convert(x, ir.F64)) }, // want `multiply: operand types f32\[2,3\] and f64\[2,3\] differ: element types must match`
		func() { MatMul(x, x) },               // want `^errors_test.go:\d+: matmul: f32\[2,3\] times f32\[2,3\]: contracting dimensions differ \(3 and 2\)$`
		func() { Reshape(x, 4, -1) },          // want `reshape: cannot reshape f32\[2,3\] \(6 elements\) to \[4 -1\]`
		func() { Sum(x, 2) },                  // want `^errors_test.go:\d+: sum: axis 2 is out of range for rank 2$`
		func() { Exp(i) },                     // want `exponential: element type si32 is not supported`
		func() { Concat(0, x, i) },            // want `concatenate: operand #1 has type si32\[3\], operand #0 has f32\[2,3\]`
		func() { Conv2D(Reshape(x, 1, 2, 3, 1), y, Conv2DOptions{}) }, // want `conv2d: needs an NHWC input and an HWIO kernel`
		func() { Where(x, x, x) },                                     // want `where: condition is f32\[2,3\], want i1 elements`
		func() {
			While(func(s []*Tensor) *Tensor { return Less(s[0], Scalar(int32(3))) },
				func(s []*Tensor) []*Tensor {
					return []*Tensor{Add(s[0], x)} // want `add: operand types si32\[\] and f32\[2,3\] differ`
				}, Scalar(int32(0)))
		},
		func() {
			While(func(s []*Tensor) *Tensor { return s[0] }, // want `while: cond returns si32\[\], want i1\[\]`
				func(s []*Tensor) []*Tensor { return s }, Scalar(int32(0)))
		},
		func() {
			h := x.To("host")
			CustomCall(ir.CustomCallAttr{Target: "stela.nope", ResultTypes: []ir.Type{x.Type()}}, h) // want `custom_call: target "stela.nope" has no reference evaluation`
		},
		func() { CustomCall(ir.CustomCallAttr{Target: "stela.nope", ResultTypes: []ir.Type{x.Type()}}, x) }, // want `custom_call: compile @custom_call on cpu: .*stela\.nope`
	}
	errs := make([]error, len(cases))
	for k, c := range cases {
		errs[k] = Catch(c)
	}
	return errs
}
