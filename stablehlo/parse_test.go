package stablehlo

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// wrapMain puts ops in a bare function body for the table tests.
func wrapMain(args, body string) string {
	return "func.func @main(" + args + ") {\n" + body + "\n  return\n}\n"
}

// TestParseCanonical checks inputs that are not in printer form: each
// parses and prints as the expected canonical text.
func TestParseCanonical(t *testing.T) {
	for _, tt := range canonicalTests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse([]byte(wrapMain(tt.args, tt.in)))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			got := m.String()
			wantM, err := Parse([]byte(wrapMain(tt.args, tt.want)))
			if err != nil {
				t.Fatalf("parse want: %v", err)
			}
			want := wantM.String()
			if got != want {
				t.Errorf("got:\n%s\nwant:\n%s\n%s", got, want, lineDiff(want, got))
			}
			if !strings.Contains(want, strings.TrimSpace(tt.want)) {
				t.Errorf("want text is not canonical:\n%s", want)
			}
		})
	}
}

// canonicalTests are inputs not in printer form and the canonical text
// each prints as (also fuzz seeds).
var canonicalTests = []struct {
	name, args, in, want string
}{
	{"long func forms", "%arg0: tensor<f32>", `
  %0 = func.call @f(%arg0) : (tensor<f32>) -> tensor<f32>`, `
  %0 = call @f(%arg0) : (tensor<f32>) -> tensor<f32>`},
	{"result lists", "%arg0: tensor<f32>", `
  %a, %b = "stablehlo.optimization_barrier"(%arg0, %arg0) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  %c = stablehlo.add %a, %b : tensor<f32>`, `
  %0:2 = stablehlo.optimization_barrier %arg0, %arg0 : tensor<f32>, tensor<f32>
  %1 = stablehlo.add %0#0, %0#1 : tensor<f32>`},
	{"named values and comments", "%arg0: tensor<f32>", `
  // a comment
  %sum = stablehlo.add %arg0, %arg0 : tensor<f32> // trailing
  %prod = stablehlo.multiply %sum, %arg0 : tensor<f32>
  stablehlo.negate %prod : tensor<f32>`, `
  %0 = stablehlo.add %arg0, %arg0 : tensor<f32>
  %1 = stablehlo.multiply %0, %arg0 : tensor<f32>
  %2 = stablehlo.negate %1 : tensor<f32>`},
	{"generic to pretty", "%arg0: tensor<2x3xf32>, %arg1: tensor<i32>", `
  %0 = "stablehlo.transpose"(%arg0) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = "stablehlo.compare"(%arg0, %arg0) {comparison_direction = #stablehlo<comparison_direction GE>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %2 = "stablehlo.slice"(%arg0) <{start_indices = array<i64: 0, 1>, limit_indices = array<i64: 2, 3>, strides = array<i64: 1, 2>}> : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %3 = "stablehlo.bitcast_convert"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %4 = "stablehlo.reduce"(%arg0, %arg0) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<3xf32>
  %5 = "stablehlo.dot_general"(%arg0, %arg0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  %t = "stablehlo.tuple"(%arg1) : (tensor<i32>) -> tuple<tensor<i32>>
  %7 = "stablehlo.get_tuple_element"(%t) {index = 0 : i32} : (tuple<tensor<i32>>) -> tensor<i32>`, `
  %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = stablehlo.compare  GE, %arg0, %arg0,  FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %2 = stablehlo.slice %arg0 [0:2, 1:3:2] : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %3 = stablehlo.bitcast_convert %arg0 : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %4 = stablehlo.reduce(%arg0 init: %arg0) applies stablehlo.add across dimensions = [0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<3xf32>
  %5 = stablehlo.dot_general %arg0, %arg0, contracting_dims = [1] x [1] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  %6 = stablehlo.tuple %arg1 : tuple<tensor<i32>>
  %7 = stablehlo.get_tuple_element %6[0] : (tuple<tensor<i32>>) -> tensor<i32>`},
	{"spacing variants", "%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>", `
  %0 = stablehlo.compare GT,%arg0,%arg0,FLOAT:(tensor<1x4x4x1xf32>,tensor<1x4x4x1xf32>)->tensor<1x4x4x1xi1>
  %1 = stablehlo.convolution(%arg0, %arg1)
      dim_numbers = [b, 0, 1, f] x [0, 1, i, o] -> [b, 0, 1, f],
      window = {
        stride = [4, 4],
        lhs_dilate = [2, 2]
      } {
        feature_group_count = 1 : i64,
        batch_group_count = 1 : i64
      }
    : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  %2 = stablehlo.reduce (%arg0 init: %arg0) across dimensions = [0]
      : (tensor<1x4x4x1xf32>, tensor<1x4x4x1xf32>) -> tensor<4x4x1xf32>
      reducer(%a: tensor<f32>, %b: tensor<f32>) {
        %r = stablehlo.maximum %a, %b : tensor<f32>
        stablehlo.return %r : tensor<f32>
      }`, `
  %0 = stablehlo.compare  GT, %arg0, %arg0,  FLOAT : (tensor<1x4x4x1xf32>, tensor<1x4x4x1xf32>) -> tensor<1x4x4x1xi1>
  %1 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [4, 4], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  %2 = stablehlo.reduce(%arg0 init: %arg0) applies stablehlo.maximum across dimensions = [0] : (tensor<1x4x4x1xf32>, tensor<1x4x4x1xf32>) -> tensor<4x4x1xf32>`},
	{"dense normalization", "", `
  %0 = stablehlo.constant dense<[1, 1, 1]> : tensor<3xi32>
  %1 = stablehlo.constant dense<[[1.5, 2.0]]> : tensor<1x2xf32>
  %2 = stablehlo.constant dense<"0x0000803F0000803F"> : tensor<2xf32>
  %3 = stablehlo.constant dense<"0x0000803F"> : tensor<4xf32>
  %4 = stablehlo.constant dense<[]> : tensor<0xi64>
  %5 = stablehlo.constant dense<[[], []]> : tensor<2x0xf32>
  %6 = stablehlo.constant dense<[(1.5, 2.5), (0x7FC00000, -0.0)]> : tensor<2xcomplex<f32>>
  %7 = stablehlo.constant dense<[1, 0, 1]> : tensor<3xi1>
  %8 = stablehlo.constant dense<0.1> : tensor<bf16>
  %9 = stablehlo.constant dense<[255, 128]> : tensor<2xi8>
  %10 = stablehlo.constant dense<2> : tensor<f32>
  %11 = stablehlo.constant dense<"0x0100000001000000"> : tensor<2xi32>`, `
  %c = stablehlo.constant dense<1> : tensor<3xi32>
  %cst = stablehlo.constant dense<[[1.500000e+00, 2.000000e+00]]> : tensor<1x2xf32>
  %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<2xf32>
  %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
  %c_2 = stablehlo.constant dense<> : tensor<0xi64>
  %cst_3 = stablehlo.constant dense<> : tensor<2x0xf32>
  %cst_4 = stablehlo.constant dense<[(1.500000e+00,2.500000e+00), (0x7FC00000,-0.000000e+00)]> : tensor<2xcomplex<f32>>
  %c_5 = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
  %cst_6 = stablehlo.constant dense<1.000980e-01> : tensor<bf16>
  %c_7 = stablehlo.constant dense<[-1, -128]> : tensor<2xi8>
  %cst_8 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
  %c_9 = stablehlo.constant dense<1> : tensor<2xi32>`},
	{"check forms", "%arg0: tensor<2xf32>", `
  check.expect_almost_eq %arg0, %arg0, tolerance = 1.0e-3 : tensor<2xf32>
  check.expect_close %arg0, %arg0, max_ulp_difference = 3 : tensor<2xf32>
  "check.expect_eq_const"(%arg0) {value = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<2xf32>) -> ()
  "check.expect_almost_eq"(%arg0, %arg0) <{tolerance = 1.000000e-03 : f64}> : (tensor<2xf32>, tensor<2xf32>) -> ()`, `
  check.expect_almost_eq %arg0, %arg0, tolerance = 1.000000e-03 : tensor<2xf32>
  check.expect_close %arg0, %arg0, max_ulp_difference = 3 : tensor<2xf32>, tensor<2xf32>
  check.expect_eq_const %arg0, dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  check.expect_almost_eq %arg0, %arg0, tolerance = 1.000000e-03 : tensor<2xf32>`},
	{"chlo pretty", "%arg0: tensor<16x16xf32>, %arg1: tensor<16xf32>", `
  %0 = chlo.erf %arg0 : tensor<16x16xf32> -> tensor<16x16xf32>
  %1:2 = chlo.top_k(%arg0, k = 2) : tensor<16x16xf32> -> (tensor<16x2xf32>, tensor<16x2xi32>)
  %2 = chlo.broadcast_add %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<16x16xf32>, tensor<16xf32>) -> tensor<16x16xf32>
  %3 = chlo.tan %arg0 : tensor<16x16xf32>`, `
  %0 = "chlo.erf"(%arg0) : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %1:2 = "chlo.top_k"(%arg0) {k = 2 : i64} : (tensor<16x16xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>)
  %2 = "chlo.broadcast_add"(%arg0, %arg1) {broadcast_dimensions = array<i64: 1>} : (tensor<16x16xf32>, tensor<16xf32>) -> tensor<16x16xf32>
  %3 = "chlo.tan"(%arg0) : (tensor<16x16xf32>) -> tensor<16x16xf32>`},
	{"locations dropped", "%arg0: tensor<f32> loc(\"x\")", `
  %0 = stablehlo.negate %arg0 : tensor<f32> loc(fused["a":1:2, callsite("f"("b":3:4) at unknown)])`, `
  %0 = stablehlo.negate %arg0 : tensor<f32>`},
	{"attribute forms", "%arg0: tensor<f32>", `
  "x.y"() {b = [1, 2.5, "s", @f], a = {z, y = unit}, c = 0x10 : i32, d = -0.0, e = array<f32: 1.5, 0x7FC00000>, f = array<i1>, g = array<i1: true, false>, "quoted key" = true, h = 1.0 : bf16, i = complex<f32>, j = #stablehlo<precision HIGHEST>, k = #stablehlo.dot<>} : () -> ()`, `
  "x.y"() {a = {y, z}, b = [1, 2.500000e+00, "s", @f], c = 16 : i32, d = -0.000000e+00, e = array<f32: 1.500000e+00, 0x7FC00000>, f = array<i1>, g = array<i1: true, false>, h = 1.000000e+00 : bf16, i = complex<f32>, j = #stablehlo<precision HIGHEST>, k = #stablehlo.dot<>, "quoted key" = true} : () -> ()`},
	{"types", "%arg0: tensor<*xf32>, %arg1: tensor<?x?xi32>, %arg2: tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>, %arg3: !stablehlo.token, %arg4: tuple<tensor<f32>, tuple<>>, %arg5: tensor<4xf8E5M2>", `
  "x.use"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5) : (tensor<*xf32>, tensor<?x?xi32>, tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>, !stablehlo.token, tuple<tensor<f32>, tuple<>>, tensor<4xf8E5M2>) -> ()`, `
  "x.use"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5) : (tensor<*xf32>, tensor<?x?xi32>, tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>, !stablehlo.token, tuple<tensor<f32>, tuple<>>, tensor<4xf8E5M2>) -> ()`},
}

// TestParseModuleForms covers top-level shapes: bare funcs, module
// attributes, location aliases before the module.
func TestParseModuleForms(t *testing.T) {
	src := `#loc = loc("a.py":1:2)
module attributes {jax.uses_shape_polymorphism = true} {
  func.func public @main() -> tensor<i32> {
    %c = stablehlo.constant dense<1> : tensor<i32> loc(#loc)
    return %c : tensor<i32>
  }
}
`
	m, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "" || len(m.Attrs) != 1 || m.Bare {
		t.Errorf("module = %+v", m)
	}
	if l, ok := m.Funcs[0].Entry().Ops[0].Loc.(FileLineColLoc); !ok || l.File != "a.py" || l.Line != 1 || l.Col != 2 {
		t.Errorf("loc = %#v", m.Funcs[0].Entry().Ops[0].Loc)
	}
	bare, err := Parse([]byte("func.func @f() {\n  return\n}\nfunc.func @g() {\n  return\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !bare.Bare || len(bare.Funcs) != 2 {
		t.Errorf("bare module = %+v", bare)
	}
	if got := (&Module{Bare: true}).String(); got != "module {\n}\n" {
		t.Errorf("empty bare module prints as %q", got)
	}
	bare.Name = "named"
	if got := bare.String(); !strings.HasPrefix(got, "module @named {\n  func.func @f() {") {
		t.Errorf("named bare module prints as\n%s", got)
	}
}

// TestParseGenericModule reads a module printed entirely in generic form
// (mlir-opt --mlir-print-op-generic).
func TestParseGenericModule(t *testing.T) {
	m, err := Parse([]byte(genericModuleText))
	if err != nil {
		t.Fatal(err)
	}
	want := `module @jit_f attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<2xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<2xf32>) -> (tensor<2xf32> {jax.result_info = ""}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<2xf32>
    %1 = "interpreter.probe"(%0) <{probe_id = "p"}> : (tensor<2xf32>) -> tensor<2xf32>
    check.expect_serialized_eq %1, probe_id = "p" : tensor<2xf32>
    return %1 : tensor<2xf32>
  }
  func.func private @decl(tensor<i32>)
}
`
	if got := m.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if l, ok := m.Funcs[0].Loc.(FileLineColLoc); !ok || l.File != "f.py" {
		t.Errorf("func loc = %#v", m.Funcs[0].Loc)
	}
	// The pretty form of an unknown op with keyword arguments.
	m2, err := Parse([]byte(wrapMain("%arg0: tensor<2xf32>", "  %0 = interpreter.probe %arg0, probe_id = \"p\" : tensor<2xf32>")))
	if err != nil {
		t.Fatal(err)
	}
	if got := m2.Funcs[0].Entry().Ops[0].String(); got != `%0 = "interpreter.probe"(%<?>) {probe_id = "p"} : (tensor<2xf32>) -> tensor<2xf32>` {
		t.Errorf("probe = %s", got)
	}
}

// genericModuleText is a module in MLIR's generic form.
const genericModuleText = `"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{replicated}"}, {}], function_type = (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>, res_attrs = [{jax.result_info = ""}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<2xf32> loc("x"), %arg1: tensor<2xf32>):
    %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %1 = "interpreter.probe"(%0) <{probe_id = "p"}> : (tensor<2xf32>) -> tensor<2xf32>
    "check.expect_serialized_eq"(%1) <{probe_id = "p"}> : (tensor<2xf32>) -> ()
    "func.return"(%1) : (tensor<2xf32>) -> ()
  }) : () -> () loc("f.py":3:0)
  "func.func"() <{function_type = (tensor<i32>) -> (), sym_name = "decl", sym_visibility = "private"}> ({
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32} : () -> ()
`

func TestParseErrors(t *testing.T) {
	for _, tt := range errorTests {
		_, err := Parse([]byte(tt.src))
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want error %q", tt.src, tt.want)
			continue
		}
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) error %T is not a *ParseError", tt.src, err)
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) error = %q, want it to contain %q", tt.src, err, tt.want)
		}
	}
}

// errorTests are malformed inputs and the error each must give.
var errorTests = []struct{ src, want string }{
	{"", "1:1: empty input"},
	{"module {", "1:9: unterminated module"},
	{"func.func @f() {\n  %0 = stablehlo.add %1, %1 : tensor<f32>\n}", "2:22: use of undefined value %1"},
	{"func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.add %a, %a : tensor<i32>\n}", "2:31: stablehlo.add: operand #0 has type tensor<f32>, but tensor<i32> is declared"},
	{"func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.negate %a : tensor<f32>\n  %0 = stablehlo.negate %a : tensor<f32>\n}", "3:3: redefinition of value %0"},
	{"func.func @f() {\n  %0:2 = stablehlo.constant dense<1> : tensor<i32>\n}", "2:10: stablehlo.constant has 1 results, but 2 names are defined"},
	{"func.func @f() {\n  %0 = stablehlo.constant dense<[1, 2]> : tensor<3xi32>\n}", "2:33: dense literal does not match shape of tensor<3xi32>"},
	{"func.func @f() {\n  %0 = stablehlo.constant dense<256> : tensor<ui8>\n}", "2:33: integer literal 256 out of range for 8 bits"},
	{"func.func @f() {\n  %0 = stablehlo.constant dense<-1> : tensor<ui8>\n}", "2:33: negative value -1 for unsigned type"},
	{"func.func @f() {\n  %0 = stablehlo.constant dense<0x1FFFF> : tensor<f16>\n}", "2:33: hexadecimal float constant 0x1FFFF out of range for f16"},
	{"func.func @f() {\n  %0 = stablehlo.constant dense<1e999> : tensor<f32>\n}", "2:33: floating point value 1e999 too large"},
	{"func.func @f() {\n  %0 = stablehlo.constant dense<\"0x0102\"> : tensor<3xi8>\n}", "dense elements of tensor<3xi8> need 3 bytes"},
	{"func.func @f() {\n  %0 = stablehlo.constant dense<1> : tensor<?xi8>\n}", "2:38: dense elements need a static shape"},
	{"func.func @f() {\n  \"x.y\"() {a = 1, a = 2} : () -> ()\n}", "2:19: duplicate attribute \"a\""},
	{"func.func @f() {\n  \"x.y\"() {a = #foo} : () -> ()\n}", "2:16: undefined attribute alias #foo"},
	{"func.func @f() {\n  return\n} loc(#loc9)", "3:6: undefined location alias #loc9"},
	{"#loc1 = loc(#loc2)\n#loc2 = loc(#loc1)\nfunc.func @f() {\n  return\n} loc(#loc1)", "location alias #loc1 refers to itself"},
	{"func.func @f() {\n  \"x.y\"() : () -> tensor<3x?>\n}", "2:29: expected 'x' in dimension list"},
	{"func.func @f() {\n  \"x.y\"() : () -> tensor<3xf32\n}", "3:1: expected '>', found \"}\""},
	{"func.func @f() {\n  \"x.y\"() {a = \"unterminated} : () -> ()\n}", "2:16: unterminated string"},
	{"func.func @f() {\n  stablehlo.bogus_op_without_type\n}", "3:1: expected ':'"},
	{"func.func @f() {\n  frob\n}", "2:3: unknown operation \"frob\""},
	{"func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.compare  XX, %a, %a : (tensor<f32>) -> tensor<i1>\n}", "2:40: stablehlo.compare: 1 operand types for 2 operands"},
	{"func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.iota dim = 0 : tensor<4xi32>, extra\n}", "2:46: expected operation, found \",\""},
	{"func.func @f() {\n  " + strings.Repeat("\"x.y\"() ({\n", 600) + "\n}", "nesting too deep"},
	{"func.func @f() {\n  \"x.y\"() {a = " + strings.Repeat("[", 2000) + "} : () -> ()\n}", "nesting too deep"},
	{"func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.convolution(%a, %a) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, 0], window = {} : (tensor<f32>, tensor<f32>) -> tensor<f32>\n}", "2:80: bad spatial dimension 0"},
	{"func.func @f(%a: tensor<f32>) {\n  %0:2 = \"x.y\"(%a) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)\n  %1 = stablehlo.negate %0 : tensor<f32>\n}", "3:25: value %0 has 2 results; use %0#N"},
}

// TestParseOpLines: every parsed op records the line it starts on, ops in
// regions and ops after multi-line ones and comments included.
func TestParseOpLines(t *testing.T) {
	src := `// a comment
func.func @main(%a: tensor<4xf32>) -> tensor<f32> {
  %0 = stablehlo.add %a,
         %a : tensor<4xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>

  %1 = stablehlo.reduce(%0 init: %c) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
   reducer(%x: tensor<f32>, %y: tensor<f32>) {
    %2 = stablehlo.maximum %x, %y : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }
  return %1 : tensor<f32>
}
`
	m, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var walk func(ops []*Op)
	walk = func(ops []*Op) {
		for _, op := range ops {
			got = append(got, fmt.Sprintf("%d %s", op.Line, op.Name))
			for _, r := range op.Regions {
				for _, b := range r.Blocks {
					walk(b.Ops)
				}
			}
		}
	}
	walk(m.Funcs[0].Entry().Ops)
	want := []string{"3 stablehlo.add", "5 stablehlo.constant", "7 stablehlo.reduce", "9 stablehlo.maximum", "10 stablehlo.return", "12 func.return"}
	if g, w := strings.Join(got, "; "), strings.Join(want, "; "); g != w {
		t.Errorf("op lines:\n got %s\nwant %s", g, w)
	}
}
