package codegen_test

import (
	"fmt"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// TestChecks runs programs that carry their own expectations (check.*
// ops and custom_call @check.*), as `stela check` will: a program whose
// expectations hold returns 0; one whose expectation fails returns 2 with
// a message naming the check, the first mismatching index, actual and
// expected; later checks still run (their i1 results are right) but the
// first failure's message is kept.
func TestChecks(t *testing.T) {
	src := `
module @checks {
  func.func private @helper(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %two = stablehlo.constant dense<2.0> : tensor<2x3xf32>
    %y = stablehlo.multiply %x, %two : tensor<2x3xf32>
    return %y : tensor<2x3xf32>
  }
  func.func public @main(%sel: tensor<i32>) -> tensor<i1> {
    %x = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %y = call @helper(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %want = stablehlo.constant dense<[[2.0, 4.0, 6.0], [8.0, 10.0, 12.0]]> : tensor<2x3xf32>
    check.expect_eq %y, %want : tensor<2x3xf32>
    check.expect_eq_const %y, dense<[[2.0, 4.0, 6.0], [8.0, 10.0, 12.0]]> : tensor<2x3xf32>
    check.expect_almost_eq_const %y, dense<[[2.00001, 4.0, 6.0], [8.0, 10.0, 12.0]]> : tensor<2x3xf32>
    %tenth = stablehlo.constant dense<0.1> : tensor<f32>
    check.expect_close %tenth, %tenth, max_ulp_difference = 0 : tensor<f32>, tensor<f32>
    %nan = stablehlo.constant dense<0x7FC00000> : tensor<2xf32>
    check.expect_eq_const %nan, dense<0x7FC00001> : tensor<2xf32>
    check.expect_almost_eq_const %nan, dense<0x7FC00000> : tensor<2xf32>
    %i = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
    check.expect_eq_const %i, dense<[1, 2, 3]> : tensor<3xi32>
    check.expect_close %i, %i, max_ulp_difference = 0 : tensor<3xi32>, tensor<3xi32>
    %b = stablehlo.constant dense<[true, false]> : tensor<2xi1>
    check.expect_eq_const %b, dense<[true, false]> : tensor<2xi1>
    stablehlo.custom_call @check.expect_eq(%y, %want) {has_side_effect = true} : (tensor<2x3xf32>, tensor<2x3xf32>) -> ()
    %near = stablehlo.constant dense<[[2.0005, 4.0, 6.0], [8.0, 10.0, 12.0]]> : tensor<2x3xf32>
    stablehlo.custom_call @check.expect_almost_eq(%y, %near) {has_side_effect = true} : (tensor<2x3xf32>, tensor<2x3xf32>) -> ()
    stablehlo.custom_call @check.expect_close(%y, %want) {has_side_effect = true} : (tensor<2x3xf32>, tensor<2x3xf32>) -> ()
    %ok = stablehlo.custom_call @check.eq(%want, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<i1>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %fail = stablehlo.compare NE, %sel, %zero, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %bad = stablehlo.select %fail, %near, %want : tensor<i1>, tensor<2x3xf32>
    check.expect_eq %y, %bad : tensor<2x3xf32>
    %ok2 = stablehlo.custom_call @check.eq(%bad, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<i1>
    %all = stablehlo.and %ok, %ok2 : tensor<i1>
    return %all : tensor<i1>
  }
}`
	p := compile(t, src)
	if n := p.lib.NumChecks; n != 15 {
		t.Errorf("stela_num_checks = %d, want 15", n)
	}
	res, rc, msg := p.run(t, ir.ScalarOf(int32(0)))
	if rc != 0 || msg != "" {
		t.Fatalf("passing run: rc %d, message %q", rc, msg)
	}
	if got := res[0].Bools()[0]; !got {
		t.Errorf("passing run: check.eq results and to false")
	}
	res, rc, msg = p.run(t, ir.ScalarOf(int32(1)))
	want := "check failed: check.expect_eq in @main: at index [0, 0] of tensor<2x3xf32>: actual 2, expected 2.00049996"
	if rc != 2 || msg != want {
		t.Errorf("failing run: rc %d, message\n%q, want rc 2 and\n%q", rc, msg, want)
	}
	if got := res[0].Bools()[0]; got {
		t.Errorf("failing run: check.eq results and to true")
	}
}

// TestCheckFailures: each kind of expectation fails with its message.
func TestCheckFailures(t *testing.T) {
	cases := []struct {
		body, want string
	}{
		{`%a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>
    check.expect_eq_const %a, dense<[1, 2, 4]> : tensor<3xi64>`,
			"check failed: check.expect_eq_const in @main: at index [2] of tensor<3xi64>: actual 3, expected 4"},
		{`%a = stablehlo.constant dense<1.5> : tensor<f64>
    check.expect_almost_eq_const %a, dense<1.6> : tensor<f64>, tolerance = 0.01`,
			"check failed: check.expect_almost_eq_const in @main: actual 1.5, expected 1.6000000000000001 (tolerance 0.01)"},
		{`%a = stablehlo.constant dense<[1.0, 0x7F800000]> : tensor<2xf32>
    check.expect_almost_eq_const %a, dense<[1.0, 3.0e38]> : tensor<2xf32>`,
			"check failed: check.expect_almost_eq_const in @main: at index [1] of tensor<2xf32>: actual inf, expected 3.00000001e+38 (tolerance 0.0001)"},
		{`%a = stablehlo.constant dense<[1.0, -0.0]> : tensor<2xf32>
    %b = stablehlo.constant dense<[1.0, 0x00000005]> : tensor<2xf32>
    check.expect_close %a, %b, max_ulp_difference = 4 : tensor<2xf32>, tensor<2xf32>`,
			"check failed: check.expect_close in @main: at index [1] of tensor<2xf32>: actual -0, expected 7.00649232e-45 (ULP distance not in [0, 4])"},
		{`%a = stablehlo.constant dense<[true, true]> : tensor<2xi1>
    check.expect_eq_const %a, dense<[true, false]> : tensor<2xi1>`,
			"check failed: check.expect_eq_const in @main: at index [1] of tensor<2xi1>: actual 1, expected 0"},
		{`%a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %b = stablehlo.constant dense<[1.0, 2.01]> : tensor<2xf32>
    stablehlo.custom_call @check.expect_almost_eq(%a, %b) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()`,
			"check failed: custom_call @check.expect_almost_eq in @main: at index [1] of tensor<2xf32>: actual 2, expected 2.00999999 (tolerance 0.001)"},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			src := "func.func public @main() {\n    " + c.body + "\n    return\n  }\n"
			p := compile(t, src)
			_, rc, msg := p.run(t)
			if rc != 2 || msg != c.want {
				t.Errorf("rc %d, message\n%q, want rc 2 and\n%q", rc, msg, c.want)
			}
		})
	}
}
