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
