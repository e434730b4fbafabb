package cpu

import (
	"os"
	"strings"
	"testing"
)

// A splat constant of 10¹² elements stays a splat through the code
// generator (issue 20: the worker expanded it, died of out-of-memory with
// Go's fatal exit status 2, and the plugin reported that as UNIMPLEMENTED
// with a 7.8 KB stack dump).
func TestWorkerHugeSplatConstant(t *testing.T) {
	needLLVM(t)
	t.Parallel()
	code, _, stderr, out := runWorker(t, `func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %c = stablehlo.constant dense<1.000000e+00> : tensor<1000000x1000000xf32>
  %s = stablehlo.reduce(%c init: %a) applies stablehlo.add across dimensions = [0, 1] : (tensor<1000000x1000000xf32>, tensor<f32>) -> tensor<f32>
  return %s : tensor<f32>
}`)
	if code != 0 {
		t.Fatalf("exit %d, want 0; stderr (%d bytes):\n%.600s", code, len(stderr), stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Error(err)
	}
	if strings.Contains(stderr, "goroutine") {
		t.Errorf("stderr has a stack dump:\n%.600s", stderr)
	}
}
