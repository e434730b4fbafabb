package runtime

import (
	"strings"
	"testing"
)

// TestTPUAbortGuard: a real×complex product (which libtpu aborts the
// process on) is refused before libtpu, naming the op; a complex×complex
// one goes through.
func TestTPUAbortGuard(t *testing.T) {
	const mixed = `func.func @main(%r: tensor<2xf32>, %c: tensor<2xcomplex<f32>>) -> tensor<complex<f32>> {
  %0 = stablehlo.dot_general %r, %c, contracting_dims = [0] x [0] : (tensor<2xf32>, tensor<2xcomplex<f32>>) -> tensor<complex<f32>>
  return %0 : tensor<complex<f32>>
}`
	err := tpuAbortGuard(mixed)
	if err == nil || !strings.Contains(err.Error(), "stablehlo.dot_general") || !strings.Contains(err.Error(), "f32 and complex<f32>") {
		t.Errorf("mixed product: %v, want a refusal naming dot_general and both element types", err)
	}
	same := strings.ReplaceAll(strings.ReplaceAll(mixed, "%r: tensor<2xf32>", "%r: tensor<2xcomplex<f32>>"), "(tensor<2xf32>,", "(tensor<2xcomplex<f32>>,")
	if err := tpuAbortGuard(same); err != nil {
		t.Errorf("complex×complex product: %v, want nil", err)
	}
}

// TestTPUAbortGuardF6: a program with an f6 value (which libtpu aborts the
// process on) is refused before libtpu, naming the op and the type; f8
// goes through.
func TestTPUAbortGuardF6(t *testing.T) {
	const f6 = `func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.convert %x : (tensor<2xf32>) -> tensor<2xf6E2M3FN>
  %1 = stablehlo.convert %0 : (tensor<2xf6E2M3FN>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}`
	err := tpuAbortGuard(f6)
	if err == nil || !strings.Contains(err.Error(), "stablehlo.convert") || !strings.Contains(err.Error(), "f6E2M3FN") {
		t.Errorf("f6 program: %v, want a refusal naming convert and f6E2M3FN", err)
	}
	if err := tpuAbortGuard(strings.ReplaceAll(f6, "f6E2M3FN", "f8E4M3FN")); err != nil {
		t.Errorf("f8 program: %v, want nil", err)
	}
}
