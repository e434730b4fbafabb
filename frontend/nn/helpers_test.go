package nn_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// jarr is an array in the JSON the Python scripts read and write.
type jarr struct {
	Shape []int     `json:"shape"`
	Data  []float64 `json:"data"`
}

// toJ is t's values as a jarr.
func toJ(t *tensor.Tensor) jarr {
	s := t.Shape()
	if s == nil {
		s = []int{}
	}
	return jarr{s, f64s(t)}
}

// f64s is t's values, converted to float64.
func f64s(t *tensor.Tensor) []float64 {
	if t.DType() == ir.F64 {
		return t.Float64s()
	}
	return tensor.Convert(t, ir.F64).Float64s()
}

// randn returns f32 normal samples from r with standard deviation std.
func randn(r *rand.Rand, std float64, shape ...int) *tensor.Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64() * std)
	}
	return tensor.FromSlice(v, shape...)
}

// randn64 is randn in f64.
func randn64(r *rand.Rand, std float64, shape ...int) *tensor.Tensor {
	return tensor.Convert(randn(r, std, shape...), ir.F64)
}

// close reports the largest |got-want| and whether every element is
// within atol + rtol·|want|.
func closeTo(got []float64, want []float64, atol, rtol float64) (maxDiff float64, ok bool) {
	if len(got) != len(want) {
		return math.Inf(1), false
	}
	ok = true
	for i := range got {
		d := math.Abs(got[i] - want[i])
		if math.IsNaN(d) {
			return math.Inf(1), false
		}
		maxDiff = max(maxDiff, d)
		if d > atol+rtol*math.Abs(want[i]) {
			ok = false
		}
	}
	return maxDiff, ok
}

// expectError runs fn and checks that it fails with a located error whose
// text contains each of wants.
func expectError(t *testing.T, what string, fn func(), wants ...string) {
	t.Helper()
	err := tensor.Catch(fn)
	if err == nil {
		t.Errorf("%s: no error", what)
		return
	}
	msg := err.Error()
	for _, w := range wants {
		if !strings.Contains(msg, w) {
			t.Errorf("%s: error %q does not contain %q", what, msg, w)
		}
	}
}
