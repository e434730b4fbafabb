package codegen_test

import (
	"strings"
	"testing"

	"github.com/stela-ml/stela/pjrt/cpu/codegen"
	"github.com/stela-ml/stela/stablehlo"
)

// Errors of the code generator name the op's location when the program
// carries one (Stela prints each op's Go line), so that a user reads the
// line of the op that failed.
func TestPlanErrorsNameTheLocation(t *testing.T) {
	cases := []struct{ src, want string }{
		{`func.func @main(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [0, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32> loc(#loc1)
  return %0 : tensor<1x2x2x4xf32>
}
#loc1 = loc("/src/model.go":7:0)
`, `stablehlo.convolution in @main at "/src/model.go":7:0: window strides [0 1]`},
		{`func.func @main(%x: tensor<1x4x4x2xi32>, %w: tensor<3x3x2x4xi32>) -> tensor<1x2x2x4xi8> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xi32>, tensor<3x3x2x4xi32>) -> tensor<1x2x2x4xi8> loc("/src/model.go":8:0)
  return %0 : tensor<1x2x2x4xi8>
}`, `unsupported: convolution of i32 and i32 into i8 (mixed element types) (stablehlo.convolution in @main at "/src/model.go":8:0)`},
		{`func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @stela.nope(%x) : (tensor<4xf32>) -> tensor<4xf32> loc("/src/model.go":9:0)
  return %0 : tensor<4xf32>
}`, `unsupported: stablehlo.custom_call @stela.nope (in @main at "/src/model.go":9:0)`},
	}
	for i, c := range cases {
		m, err := stablehlo.Parse([]byte(c.src))
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		_, err = codegen.Plan(m, codegen.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("case %d: error %v, want %q", i, err, c.want)
		}
	}
}
