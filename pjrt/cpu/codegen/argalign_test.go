package codegen_test

import (
	"regexp"
	"testing"

	"github.com/stela-ml/stela/pjrt/cpu/codegen"
)

// TestArgumentsNeedOnlyElementAlignment: kernels promise 64-byte alignment
// (align 64) only for buffers the program places (the arena, results),
// and element alignment for the program's arguments, which may be views
// of caller memory (a tensor in a memory-mapped safetensors file); the
// object says so with stela_args_any_align, which lets the plugin read
// such views in place.
func TestArgumentsNeedOnlyElementAlignment(t *testing.T) {
	src := `func.func @main(%a: tensor<4x8xf32>, %b: tensor<8xf64>) -> (tensor<4x8xf32>, tensor<8xf64>) {
  %e = stablehlo.exponential %a : tensor<4x8xf32>
  %t = stablehlo.transpose %e, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %n = stablehlo.negate %t : tensor<8x4xf32>
  %r = stablehlo.reshape %n : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %m = stablehlo.multiply %b, %b : tensor<8xf64>
  return %r, %m : tensor<4x8xf32>, tensor<8xf64>
}`
	llb, err := planText(t, src, codegen.Options{}).LLVM()
	ll := string(llb)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`@stela_args_any_align = (\w+ )*constant i32 1`).MatchString(ll) {
		t.Error("the object does not export stela_args_any_align = 1")
	}
	// Every kernel parameter: its element type and alignment.
	params := regexp.MustCompile(`(float|double)\* noalias align (\d+) %(in|out)\d+`).FindAllStringSubmatch(ll, -1)
	var arg4, arg8, placed int
	for _, p := range params {
		switch {
		case p[2] == "64":
			placed++
		case p[1] == "float" && p[2] == "4":
			arg4++
		case p[1] == "double" && p[2] == "8":
			arg8++
		default:
			t.Errorf("kernel parameter %q: want align 64, or the element's size", p[0])
		}
	}
	if arg4 == 0 || arg8 == 0 || placed == 0 {
		t.Errorf("%d f32 argument, %d f64 argument and %d placed kernel parameters; want some of each:\n%s", arg4, arg8, placed, ll)
	}
}
