package stablehlo

import (
	"strings"
	"testing"
)

// TestLowerChloErrors: malformed chlo.scan, chlo.ragged_dot and i1
// bitcasts are errors naming the op and the problem, not panics.
func TestLowerChloErrors(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"scan body arity", `func.func @main(%x: tensor<4xf32>, %c: tensor<f32>) -> (tensor<4xf32>, tensor<f32>) {
  %r:2 = chlo.scan(%x) inits (%c) dimension=0 {
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a, %a : tensor<f32>, tensor<f32>
  } : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<f32>
}`, "chlo.scan (line 2): body has 1 arguments, want 2"},
		{"scan dimension", `func.func @main(%x: tensor<4xf32>, %c: tensor<f32>) -> (tensor<4xf32>, tensor<f32>) {
  %r:2 = chlo.scan(%x) inits (%c) dimension=1 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a, %b : tensor<f32>, tensor<f32>
  } : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<f32>
}`, "dimension 1 is out of range for tensor<4xf32>"},
		{"ragged dims", `func.func @main(%l: tensor<4x2xf32>, %r: tensor<2x2x3xf32>, %g: tensor<2xi32>) -> tensor<4x3xf32> {
  %0 = "chlo.ragged_dot"(%l, %r, %g) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = []>}> : (tensor<4x2xf32>, tensor<2x2x3xf32>, tensor<2xi32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}`, "a ragged non-contracting dimension needs one rhs group dimension"},
		{"ragged group sizes", `func.func @main(%l: tensor<4x2xf32>, %r: tensor<2x2x3xf32>, %g: tensor<2xf32>) -> tensor<4x3xf32> {
  %0 = "chlo.ragged_dot"(%l, %r, %g) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<4x2xf32>, tensor<2x2x3xf32>, tensor<2xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}`, "group_sizes tensor<2xf32>: want an integer tensor"},
		{"ragged result", `func.func @main(%l: tensor<4x2xf32>, %r: tensor<2x2x3xf32>, %g: tensor<2xi32>) -> tensor<4x2xf32> {
  %0 = "chlo.ragged_dot"(%l, %r, %g) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<4x2xf32>, tensor<2x2x3xf32>, tensor<2xi32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}`, "result tensor<4x2xf32>: mode 1 gives shape [4 3]"},
		{"ragged contracting", `func.func @main(%l: tensor<4x2xf32>, %r: tensor<2x5x3xf32>, %g: tensor<2xi32>) -> tensor<4x3xf32> {
  %0 = "chlo.ragged_dot"(%l, %r, %g) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<4x2xf32>, tensor<2x5x3xf32>, tensor<2xi32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}`, "contracting dimensions 1 of tensor<4x2xf32> and 1 of tensor<2x5x3xf32> differ in size"},
		{"bitcast i1 shape", `func.func @main(%x: tensor<2xi8>) -> tensor<2x4xi1> {
  %0 = stablehlo.bitcast_convert %x : (tensor<2xi8>) -> tensor<2x4xi1>
  return %0 : tensor<2x4xi1>
}`, "converting tensor<2xi8> to i1 gives shape [2 8]"},
		{"bitcast i1 complex", `func.func @main(%x: tensor<64xi1>) -> tensor<complex<f32>> {
  %0 = stablehlo.bitcast_convert %x : (tensor<64xi1>) -> tensor<complex<f32>>
  return %0 : tensor<complex<f32>>
}`, "bitcast between i1 and complex<f32> is not allowed"},
		{"batch norm feature index", `func.func @main(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-3 : f32, feature_index = 2 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}`, "stablehlo.batch_norm_inference (line 2): feature_index 2: want an integer in [0, 2)"},
		{"batch norm scale size", `func.func @main(%x: tensor<2x3xf32>, %s: tensor<2xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0:3 = "stablehlo.batch_norm_training"(%x, %s, %s) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>
}`, "scale has type tensor<2xf32>, want tensor<3xf32>"},
		{"batch norm integer", `func.func @main(%x: tensor<2x3xi32>, %s: tensor<3xi32>) -> tensor<2x3xi32> {
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}`, "element type i32: want a floating-point or quantized operand"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Parse([]byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			err = m.LowerChlo()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("LowerChlo: %v, want an error containing %q", err, c.want)
			}
		})
	}
}

// TestScanRoundTrip: chlo.scan's pretty form prints in generic form
// (with its operand and result segments), which parses back to the same
// text.
func TestScanRoundTrip(t *testing.T) {
	src := `func.func @main(%x: tensor<4x3xf32>, %c: tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>) {
  %r:2 = chlo.scan(%x) inits (%c) dimension=0 attributes {is_reverse = true} {
  ^bb0(%a: tensor<3xf32>, %b: tensor<3xf32>):
    %s = stablehlo.add %a, %b : tensor<3xf32>
    stablehlo.return %s, %s : tensor<3xf32>, tensor<3xf32>
  } : (tensor<4x3xf32>, tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<4x3xf32>, tensor<3xf32>
}`
	m, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	once := string(Format(m, PrintOptions{}))
	if !strings.Contains(once, "operandSegmentSizes = array<i32: 1, 1>") || !strings.Contains(once, "resultSegmentSizes = array<i32: 1, 1>") {
		t.Errorf("printed scan lacks its segments:\n%s", once)
	}
	m2, err := Parse([]byte(once))
	if err != nil {
		t.Fatalf("%v\n%s", err, once)
	}
	if twice := string(Format(m2, PrintOptions{})); twice != once {
		t.Errorf("round trip differs:\n%s\n---\n%s", once, twice)
	}
	if err := m2.LowerChlo(); err != nil {
		t.Fatal(err)
	}
}
