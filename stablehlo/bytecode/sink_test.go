package bytecode

import (
	"strings"
	"testing"

	"github.com/stela-ml/stela/stablehlo"
)

// The sort XLA's client sends for jnp.sort: the comparator's constants
// hoisted into the function. sinkConstants copies them back in.
const hoisted = `func.func @main(%arg0: tensor<5xf32>) -> tensor<5xf32> {
  %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %1 = stablehlo.compare  EQ, %arg1, %cst_0,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %cst_0, %arg1 : tensor<i1>, tensor<f32>
    %3 = stablehlo.compare  NE, %arg1, %arg1,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.select %3, %cst, %2 : tensor<i1>, tensor<f32>
    %5 = stablehlo.compare  LT, %4, %arg2,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %5 : tensor<i1>
  }) : (tensor<5xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
`

func TestSinkConstants(t *testing.T) {
	m, err := stablehlo.Parse([]byte(hoisted))
	if err != nil {
		t.Fatal(err)
	}
	sinkConstants(m)
	if err := m.Verify(); err != nil {
		t.Fatal(err)
	}
	txt := m.String()
	region := txt[strings.Index(txt, "^bb0"):]
	for _, want := range []string{"stablehlo.constant dense<0x7FC00000>", "stablehlo.constant dense<0.000000e+00>"} {
		if !strings.Contains(region, want) {
			t.Errorf("the comparator lacks %s:\n%s", want, txt)
		}
	}
	if n := strings.Count(region, "stablehlo.constant"); n != 2 {
		t.Errorf("%d constants in the comparator, want 2 (one copy each):\n%s", n, txt)
	}
}
