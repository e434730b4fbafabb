package stablehlo

import (
	"strings"
	"testing"
)

// TestSelectOnI1PrintsBothTypes: MLIR's select syntax needs the predicate
// and the result type even when both are i1 (XLA rejects a single type).
func TestSelectOnI1PrintsBothTypes(t *testing.T) {
	src := `func.func @main(%arg0: tensor<3xi1>, %arg1: tensor<3xi1>) -> tensor<3xi1> {
  %0 = stablehlo.select %arg0, %arg1, %arg0 : tensor<3xi1>, tensor<3xi1>
  return %0 : tensor<3xi1>
}
`
	m, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := string(Format(m, PrintOptions{}))
	if !strings.Contains(got, ": tensor<3xi1>, tensor<3xi1>\n") {
		t.Errorf("select printed without both types:\n%s", got)
	}
	if got != src {
		t.Errorf("print(parse(x)) != x:\n%s", got)
	}
}
