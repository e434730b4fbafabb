package jit_test

import (
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/internal/env/envtest"
	"github.com/stela-ml/stela/ir"
)

// TestBuckets: sizes 1..40 of a bucketed axis compile one program per
// bucket; the function sees the zero-padded argument and the real
// length; past the largest bucket is an error; STELA_LOG=recompile logs
// the bucket of each call.
func TestBuckets(t *testing.T) {
	var log strings.Builder
	jit.LogOutput = &log
	defer func() { jit.LogOutput = nil }()
	envtest.Setenv(t, "STELA_LOG", "recompile")
	traces := 0
	// The sum of the row's first n elements (the padding adds zeros), and
	// n itself, and the padded width.
	f := jit.Compile(func(x, n *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor, *tensor.Tensor) {
		traces++
		w := tensor.FullLike(n, float64(x.Shape()[1]))
		return tensor.Sum(x, 1), n, w
	}, jit.Buckets(jit.BucketDim{Arg: 0, Axis: 1, LengthArg: 1}, 8, 16, 32))
	for n := 1; n <= 32; n++ {
		v := make([]float32, 2*n)
		want := []float32{0, 0}
		for i := range v {
			v[i] = float32(i + 1)
			want[i/n] += v[i]
		}
		sum, length, width := f(tensor.FromSlice(v, 2, n), nil)
		if got := sum.Float32s(); got[0] != want[0] || got[1] != want[1] {
			t.Fatalf("n=%d: sum %v, want %v", n, got, want)
		}
		if got := length.Int32s()[0]; got != int32(n) {
			t.Fatalf("n=%d: the length argument is %d", n, got)
		}
		bucket := 8
		for bucket < n {
			bucket *= 2
		}
		if got := width.Int32s()[0]; got != int32(bucket) {
			t.Fatalf("n=%d: fn saw width %d, want bucket %d", n, got, bucket)
		}
	}
	if traces != 3 {
		t.Errorf("sizes 1..32 traced %d times, want 3 (one per bucket)", traces)
	}
	if !strings.Contains(log.String(), "argument #0 axis 1 is 20: bucket 32") {
		t.Errorf("STELA_LOG=recompile does not show the bucket:\n%s", log.String())
	}
	_, _, _ = f(tensor.Zeros(ir.F32, 1, 8), nil)
	err := tensor.Catch(func() { f(tensor.Zeros(ir.F32, 1, 33), nil) })
	if err == nil || !strings.Contains(err.Error(), "past the largest bucket, 32") {
		t.Errorf("a size past the largest bucket: %v", err)
	}
}

// TestBucketsBadOptions: Buckets naming a parameter that is not a tensor
// is a panic of Compile that says so.
func TestBucketsBadOptions(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "LengthArg 1") {
			t.Errorf("recover() = %v", r)
		}
	}()
	jit.Compile(func(x *tensor.Tensor, n int) *tensor.Tensor { return x },
		jit.Buckets(jit.BucketDim{Arg: 0, Axis: 0, LengthArg: 1}, 4))
}
