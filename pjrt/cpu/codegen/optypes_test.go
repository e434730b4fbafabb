package codegen

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stela-ml/stela/stablehlo"
)

// TestCompilesOnClaims holds `stela ops`'s per-type claims to account:
// for every op of the table and every element type the spec allows for
// it on which CompilesOn says the code generator compiles it, a tiny
// program of that op on that type is parsed, planned and emitted as
// LLVM IR (Plan, Program.LLVM; no LLVM tools run, so the whole table
// takes seconds). A claim the code generator does not keep fails here.
// Ops without a program below are listed in opsWithoutProgram, with why;
// an op with a kernel missing from both fails the test too.
func TestCompilesOnClaims(t *testing.T) {
	var failed, planned []string
	covered := map[string]bool{}
	for _, d := range stablehlo.OpDefs() {
		mk := claimProgram(d)
		if mk == nil {
			continue
		}
		covered[d.Name] = true
		for _, e := range stablehlo.SpecElementTypes {
			if !d.Elem.Has(e) {
				continue
			}
			if ok, _ := CompilesOn(d.Name, e); !ok {
				continue
			}
			src := mk(e)
			if src == "" {
				continue // no program of this op on e (see claimProgram)
			}
			planned = append(planned, d.Name+" "+string(e))
			if err := planLLVM(src); err != nil {
				failed = append(failed, fmt.Sprintf("%s on %s: %v\n%s", d.Name, e, err, src))
			}
		}
	}
	for _, f := range failed {
		t.Error("`stela ops` says the code generator compiles " + f)
	}
	for _, d := range stablehlo.OpDefs() {
		why, listed := opsWithoutProgram[d.Name]
		switch {
		case covered[d.Name] && listed:
			t.Errorf("%s has a program: remove it from opsWithoutProgram", d.Name)
		case !covered[d.Name] && !listed && d.Kernel != stablehlo.NoKernel:
			t.Errorf("%s (kernel %s) has no program in claimProgram and is not in opsWithoutProgram", d.Name, d.Kernel)
		case listed && why == "":
			t.Errorf("%s: opsWithoutProgram gives no reason", d.Name)
		}
	}
	t.Logf("%d op × element type claims planned and emitted, %d ops covered", len(planned), len(covered))
}

// opsWithoutProgram are the ops with a kernel that TestCompilesOnClaims
// does not compile, with why (each has tests of its own).
var opsWithoutProgram = map[string]string{
	"stablehlo.custom_call":              "only the check.* targets and @Sharding compile (check_test.go, the check files)",
	"stablehlo.composite":                "inlined into its decomposition (composite_test.go)",
	"func.call":                          "inlined (program_test.go)",
	"func.return":                        "a terminator",
	"stablehlo.return":                   "a terminator",
	"check.expect_eq":                    "the check dialect (check_test.go, test/check)",
	"check.expect_eq_const":              "the check dialect (check_test.go, test/check)",
	"check.expect_almost_eq":             "the check dialect (check_test.go, test/check)",
	"check.expect_almost_eq_const":       "the check dialect (check_test.go, test/check)",
	"check.expect_close":                 "the check dialect (check_test.go, test/check)",
	"stablehlo.dynamic_broadcast_in_dim": "refined to broadcast_in_dim when its shape folds (test/check dynamic_shapes.mlir)",
	"stablehlo.dynamic_reshape":          "refined to reshape when its shape folds (test/check dynamic_shapes.mlir)",
	"stablehlo.dynamic_pad":              "refined to pad when its operands fold (test/check dynamic_shapes.mlir)",
	"stablehlo.dynamic_gather":           "refined to gather when its sizes fold (test/check dynamic_shapes.mlir)",
	"stablehlo.dynamic_conv":             "refined to convolution when its padding folds (test/check dynamic_shapes.mlir)",
	"stablehlo.real_dynamic_slice":       "refined to slice when its bounds fold (test/check dynamic_shapes.mlir)",
	"stablehlo.all_to_all":               "a collective whose single-device form needs split_count 1 (collective_test.go)",
	"stablehlo.collective_broadcast":     "a collective (collective_test.go)",
	"stablehlo.reduce_scatter":           "a collective (collective_test.go)",
	"stablehlo.select_and_scatter":       "windowed (window_test.go)",
}

// planLLVM parses src, plans it and emits its LLVM IR.
func planLLVM(src string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	m, err := stablehlo.Parse([]byte(src))
	if err != nil {
		return fmt.Errorf("parse: %v", err)
	}
	p, err := Plan(m, Options{})
	if err != nil {
		return fmt.Errorf("plan: %v", err)
	}
	_, err = p.LLVM()
	return err
}

// lit is a literal of element type e for a dense attribute.
func lit(e stablehlo.ElementType) string {
	switch {
	case e.IsBool():
		return "true"
	case e.IsComplex():
		return "(1.0, 0.0)"
	case e.IsFloat():
		return "1.0"
	}
	return "1"
}

// claimProgram returns the maker of a program of op d on element type e,
// or nil. A program has arguments %a, %b, %c of type T = tensor<4xE> and
// %p of type tensor<4xi1>.
func claimProgram(d *stablehlo.OpDef) func(e stablehlo.ElementType) string {
	name := d.Name
	short := d.Short()
	prog := func(e stablehlo.ElementType, body, ret, rt string) string {
		T := "tensor<4x" + string(e) + ">"
		body = strings.ReplaceAll(body, "$T", T)
		body = strings.ReplaceAll(body, "$E", string(e))
		rt = strings.ReplaceAll(strings.ReplaceAll(rt, "$T", T), "$E", string(e))
		return fmt.Sprintf("func.func @main(%%a: %s, %%b: %s, %%c: %s, %%p: tensor<4xi1>) -> (%s) {\n%s\n  return %s : %s\n}\n",
			T, T, T, rt, body, ret, rt)
	}
	simple := func(body, rt string) func(e stablehlo.ElementType) string {
		return func(e stablehlo.ElementType) string { return prog(e, body, "%r", rt) }
	}
	cmpDir := func(e stablehlo.ElementType) string {
		if e.IsComplex() {
			return "EQ"
		}
		return "LT"
	}
	scalar := "  %s0 = stablehlo.slice %a [0:1] : ($T) -> tensor<1x$E>\n  %s = stablehlo.reshape %s0 : (tensor<1x$E>) -> tensor<$E>\n"
	addBody := "({\n  ^bb0(%x: tensor<$E>, %y: tensor<$E>):\n    %z = stablehlo.add %x, %y : tensor<$E>\n    stablehlo.return %z : tensor<$E>\n  })"
	isChlo := strings.HasPrefix(name, "chlo.")
	// The elementwise ops, in generic form.
	if d.Has(stablehlo.Elementwise) && (d.Kernel == stablehlo.KernelUnary || d.Kernel == stablehlo.KernelBinary || isChlo) &&
		!strings.Contains(short, "compare") && !strings.Contains(short, "select") {
		return func(e stablehlo.ElementType) string {
			rt := "$T"
			part := "tensor<4x" + string(e.ComplexPart()) + ">"
			switch {
			case short == "is_finite" || strings.HasPrefix(short, "is_"):
				rt = "tensor<4xi1>"
			case (short == "abs" || short == "real" || short == "imag") && e.IsComplex():
				rt = part
			case strings.HasSuffix(short, "complex"):
				if e != stablehlo.F32 && e != stablehlo.F64 {
					rt = "tensor<4xcomplex<" + string(e) + ">>"
				} else {
					rt = "tensor<4xcomplex<" + string(e) + ">>"
				}
			}
			args := "%a"
			types := "$T"
			if d.Operands == 2 {
				args, types = "%a, %b", "$T, $T"
			}
			return prog(e, fmt.Sprintf("  %%r = \"%s\"(%s) : (%s) -> %s", name, args, types, rt), "%r", rt)
		}
	}
	switch name {
	case "stablehlo.compare":
		return func(e stablehlo.ElementType) string {
			return prog(e, "  %r = stablehlo.compare "+cmpDir(e)+", %a, %b : ($T, $T) -> tensor<4xi1>", "%r", "tensor<4xi1>")
		}
	case "chlo.broadcast_compare":
		return func(e stablehlo.ElementType) string {
			return prog(e, "  %r = \"chlo.broadcast_compare\"(%a, %b) {comparison_direction = #chlo<comparison_direction "+cmpDir(e)+">} : ($T, $T) -> tensor<4xi1>", "%r", "tensor<4xi1>")
		}
	case "stablehlo.select":
		return simple("  %r = stablehlo.select %p, %a, %b : tensor<4xi1>, $T", "$T")
	case "chlo.broadcast_select":
		return simple("  %r = \"chlo.broadcast_select\"(%p, %a, %b) : (tensor<4xi1>, $T, $T) -> $T", "$T")
	case "stablehlo.clamp":
		return simple("  %r = stablehlo.clamp %a, %b, %c : $T", "$T")
	case "stablehlo.convert":
		return func(e stablehlo.ElementType) string {
			return prog(e, "  %f = stablehlo.convert %a : ($T) -> tensor<4xf32>\n  %r = stablehlo.convert %f : (tensor<4xf32>) -> $T", "%r", "$T")
		}
	case "stablehlo.bitcast_convert":
		return simple("  %r = stablehlo.bitcast_convert %a : ($T) -> $T", "$T")
	case "stablehlo.reduce_precision":
		return simple("  %r = stablehlo.reduce_precision %a, format = e5m10 : $T", "$T")
	case "stablehlo.constant", "chlo.constant":
		return func(e stablehlo.ElementType) string {
			if e.IsQuantized() {
				return prog(e, "  %r = "+name+" dense<1> : $T", "%r", "$T")
			}
			return prog(e, "  %r = "+name+" dense<"+lit(e)+"> : $T", "%r", "$T")
		}
	case "chlo.constant_like":
		return func(e stablehlo.ElementType) string {
			v := lit(e) + " : " + string(e)
			switch {
			case e.IsBool():
				v = "true"
			case e.IsComplex():
				v = "dense<(1.0, 0.0)> : tensor<" + string(e) + ">"
			case e.IsQuantized():
				v = "dense<1> : tensor<" + string(e) + ">"
			}
			return prog(e, "  %r = \"chlo.constant_like\"(%a) {value = "+v+"} : ($T) -> $T", "%r", "$T")
		}
	case "stablehlo.iota":
		return simple("  %r = stablehlo.iota dim = 0 : $T", "$T")
	case "stablehlo.broadcast_in_dim":
		return simple("  %r = stablehlo.broadcast_in_dim %a, dims = [1] : ($T) -> tensor<2x4x$E>", "tensor<2x4x$E>")
	case "stablehlo.broadcast":
		return simple("  %r = \"stablehlo.broadcast\"(%a) {broadcast_sizes = array<i64: 2>} : ($T) -> tensor<2x4x$E>", "tensor<2x4x$E>")
	case "stablehlo.reshape":
		return simple("  %r = stablehlo.reshape %a : ($T) -> tensor<2x2x$E>", "tensor<2x2x$E>")
	case "stablehlo.transpose":
		return simple("  %m = stablehlo.reshape %a : ($T) -> tensor<2x2x$E>\n  %r = stablehlo.transpose %m, dims = [1, 0] : (tensor<2x2x$E>) -> tensor<2x2x$E>", "tensor<2x2x$E>")
	case "stablehlo.slice":
		return simple("  %r = stablehlo.slice %a [1:3] : ($T) -> tensor<2x$E>", "tensor<2x$E>")
	case "stablehlo.reverse":
		return simple("  %r = stablehlo.reverse %a, dims = [0] : $T", "$T")
	case "stablehlo.concatenate":
		return simple("  %r = stablehlo.concatenate %a, %b, dim = 0 : ($T, $T) -> tensor<8x$E>", "tensor<8x$E>")
	case "stablehlo.pad":
		return simple(scalar+"  %r = stablehlo.pad %a, %s, low = [1], high = [1], interior = [1] : ($T, tensor<$E>) -> tensor<9x$E>", "tensor<9x$E>")
	case "stablehlo.dot_general":
		return simple("  %r = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : ($T, $T) -> tensor<$E>", "tensor<$E>")
	case "stablehlo.dot":
		return simple("  %r = stablehlo.dot %a, %b : ($T, $T) -> tensor<$E>", "tensor<$E>")
	case "stablehlo.reduce":
		return simple(scalar+"  %r = stablehlo.reduce(%a init: %s) applies stablehlo.add across dimensions = [0] : ($T, tensor<$E>) -> tensor<$E>", "tensor<$E>")
	case "stablehlo.optimization_barrier":
		return simple("  %r = stablehlo.optimization_barrier %a : $T", "$T")
	case "stablehlo.dynamic_slice":
		return simple("  %i = stablehlo.constant dense<1> : tensor<i32>\n  %r = stablehlo.dynamic_slice %a, %i, sizes = [2] : ($T, tensor<i32>) -> tensor<2x$E>", "tensor<2x$E>")
	case "stablehlo.dynamic_update_slice":
		return simple("  %i = stablehlo.constant dense<1> : tensor<i32>\n  %u = stablehlo.slice %b [0:2] : ($T) -> tensor<2x$E>\n  %r = stablehlo.dynamic_update_slice %a, %u, %i : ($T, tensor<2x$E>, tensor<i32>) -> $T", "$T")
	case "stablehlo.gather":
		return simple("  %i = stablehlo.constant dense<[[0], [2]]> : tensor<2x1xi32>\n  %r = \"stablehlo.gather\"(%a, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2>, indices_are_sorted = false} : ($T, tensor<2x1xi32>) -> tensor<2x2x$E>", "tensor<2x2x$E>")
	case "stablehlo.scatter":
		return simple("  %i = stablehlo.constant dense<[[0], [2]]> : tensor<2x1xi32>\n  %u = stablehlo.slice %b [0:2] : ($T) -> tensor<2x$E>\n  %r = \"stablehlo.scatter\"(%a, %i, %u) "+addBody+" {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : ($T, tensor<2x1xi32>, tensor<2x$E>) -> $T", "$T")
	case "stablehlo.sort":
		return func(e stablehlo.ElementType) string {
			return prog(e, "  %r = \"stablehlo.sort\"(%a) ({\n  ^bb0(%x: tensor<$E>, %y: tensor<$E>):\n    %lt = stablehlo.compare "+cmpDir(e)+", %x, %y : (tensor<$E>, tensor<$E>) -> tensor<i1>\n    stablehlo.return %lt : tensor<i1>\n  }) {dimension = 0 : i64} : ($T) -> $T", "%r", "$T")
		}
	case "stablehlo.while":
		return simple("  %r = stablehlo.while(%it = %a) : $T\n  cond {\n    %f = stablehlo.constant dense<false> : tensor<i1>\n    stablehlo.return %f : tensor<i1>\n  } do {\n    stablehlo.return %it : $T\n  }", "$T")
	case "stablehlo.if":
		return func(e stablehlo.ElementType) string {
			return prog(stablehlo.F32, "  %q = stablehlo.constant dense<true> : tensor<i1>\n  %r = \"stablehlo.if\"(%q) ({\n    stablehlo.return %a : $T\n  }, {\n    stablehlo.return %b : $T\n  }) : (tensor<i1>) -> $T", "%r", "$T")
		}
	case "stablehlo.case":
		return func(e stablehlo.ElementType) string {
			return prog(stablehlo.F32, "  %q = stablehlo.constant dense<1> : tensor<"+string(e)+">\n  %r = \"stablehlo.case\"(%q) ({\n    stablehlo.return %a : $T\n  }, {\n    stablehlo.return %b : $T\n  }) : (tensor<"+string(e)+">) -> $T", "%r", "$T")
		}
	case "stablehlo.map":
		return simple("  %r = \"stablehlo.map\"(%a, %b) "+addBody+" {dimensions = array<i64: 0>} : ($T, $T) -> $T", "$T")
	case "stablehlo.tuple", "stablehlo.get_tuple_element":
		return simple("  %t = stablehlo.tuple %a, %b : tuple<$T, $T>\n  %r = stablehlo.get_tuple_element %t[1] : (tuple<$T, $T>) -> $T", "$T")
	case "stablehlo.get_dimension_size":
		return simple("  %r = stablehlo.get_dimension_size %a, dim = 0 : ($T) -> tensor<i32>", "tensor<i32>")
	case "stablehlo.rng_bit_generator":
		return func(e stablehlo.ElementType) string {
			return prog(e, "  %st = stablehlo.constant dense<[1, 2]> : tensor<2xui64>\n  %s2, %r = stablehlo.rng_bit_generator %st, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, $T)", "%r", "$T")
		}
	case "stablehlo.fft":
		return func(e stablehlo.ElementType) string {
			if e.IsComplex() {
				return prog(e, "  %r = stablehlo.fft %a, type = FFT, length = [4] : ($T) -> $T", "%r", "$T")
			}
			return prog(e, "  %r = stablehlo.fft %a, type = RFFT, length = [4] : ($T) -> tensor<3xcomplex<$E>>", "%r", "tensor<3xcomplex<$E>>")
		}
	case "stablehlo.cholesky":
		return simple("  %m = stablehlo.reshape %a : ($T) -> tensor<2x2x$E>\n  %r = \"stablehlo.cholesky\"(%m) {lower = true} : (tensor<2x2x$E>) -> tensor<2x2x$E>", "tensor<2x2x$E>")
	case "stablehlo.triangular_solve":
		return simple("  %m = stablehlo.reshape %a : ($T) -> tensor<2x2x$E>\n  %r = \"stablehlo.triangular_solve\"(%m, %m) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x2x$E>, tensor<2x2x$E>) -> tensor<2x2x$E>", "tensor<2x2x$E>")
	case "stablehlo.convolution":
		return simple("  %x = stablehlo.reshape %a : ($T) -> tensor<1x4x1x$E>\n  %w0 = stablehlo.slice %b [0:2] : ($T) -> tensor<2x$E>\n  %w = stablehlo.reshape %w0 : (tensor<2x$E>) -> tensor<2x1x1x$E>\n  %r = \"stablehlo.convolution\"(%x, %w) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x1x$E>, tensor<2x1x1x$E>) -> tensor<1x3x1x$E>", "tensor<1x3x1x$E>")
	case "stablehlo.reduce_window":
		return simple(scalar+"  %r = \"stablehlo.reduce_window\"(%a, %s) "+addBody+" {window_dimensions = array<i64: 2>} : ($T, tensor<$E>) -> tensor<3x$E>", "tensor<3x$E>")
	case "stablehlo.all_reduce":
		return simple("  %r = \"stablehlo.all_reduce\"(%a) "+addBody+" {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : ($T) -> $T", "$T")
	case "stablehlo.all_gather":
		return simple("  %r = \"stablehlo.all_gather\"(%a) {all_gather_dim = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : ($T) -> $T", "$T")
	case "stablehlo.collective_permute":
		return simple("  %r = \"stablehlo.collective_permute\"(%a) {source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64>} : ($T) -> $T", "$T")
	case "stablehlo.replica_id", "stablehlo.partition_id":
		return func(e stablehlo.ElementType) string {
			if e != stablehlo.UI32 {
				return "" // the spec's result type is tensor<ui32>
			}
			return prog(e, "  %r = "+name+" : tensor<ui32>", "%r", "tensor<ui32>")
		}
	case "stablehlo.uniform_quantize":
		return func(e stablehlo.ElementType) string {
			if e.IsQuantized() {
				return ""
			}
			return prog(e, "  %r = stablehlo.uniform_quantize %a : ($T) -> tensor<4x!quant.uniform<i8:$E, 1.0>>", "%r", "tensor<4x!quant.uniform<i8:$E, 1.0>>")
		}
	case "stablehlo.uniform_dequantize":
		return func(e stablehlo.ElementType) string {
			if !e.IsQuantized() {
				return ""
			}
			return prog(e, "  %r = stablehlo.uniform_dequantize %a : ($T) -> tensor<4xf32>", "%r", "tensor<4xf32>")
		}
	case "stablehlo.dynamic_iota":
		return simple("  %n = stablehlo.constant dense<4> : tensor<1xi64>\n  %r = stablehlo.dynamic_iota %n, dim = 0 : (tensor<1xi64>) -> $T", "$T")
	case "chlo.top_k":
		return simple("  %r, %i = chlo.top_k(%a, k = 2) : $T -> (tensor<2x$E>, tensor<2xi32>)", "tensor<2x$E>")
	case "chlo.ragged_dot":
		return simple("  %l = stablehlo.reshape %a : ($T) -> tensor<2x2x$E>\n  %w = stablehlo.reshape %b : ($T) -> tensor<2x2x1x$E>\n  %g = stablehlo.constant dense<[1, 1]> : tensor<2xi32>\n  %r = \"chlo.ragged_dot\"(%l, %w, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>} : (tensor<2x2x$E>, tensor<2x2x1x$E>, tensor<2xi32>) -> tensor<2x1x$E>", "tensor<2x1x$E>")
	case "stablehlo.batch_norm_inference", "stablehlo.batch_norm_training", "stablehlo.batch_norm_grad":
		// A 2x2 operand, features along dimension 1.
		pre := "  %x = stablehlo.reshape %a : ($T) -> tensor<2x2x$E>\n  %g = stablehlo.reshape %c : ($T) -> tensor<2x2x$E>\n" +
			"  %s = stablehlo.slice %b [0:2] : ($T) -> tensor<2x$E>\n  %o = stablehlo.slice %c [2:4] : ($T) -> tensor<2x$E>\n"
		attrs := " {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : "
		X, F := "tensor<2x2x$E>", "tensor<2x$E>"
		var call string
		switch short {
		case "batch_norm_inference":
			call = "  %r = \"stablehlo.batch_norm_inference\"(%x, %s, %o, %o, %s)" + attrs + "(" + X + ", " + F + ", " + F + ", " + F + ", " + F + ") -> " + X
		case "batch_norm_training":
			call = "  %r, %m, %v = \"stablehlo.batch_norm_training\"(%x, %s, %o)" + attrs + "(" + X + ", " + F + ", " + F + ") -> (" + X + ", " + F + ", " + F + ")"
		default:
			call = "  %r, %m, %v = \"stablehlo.batch_norm_grad\"(%x, %s, %o, %s, %g)" + attrs + "(" + X + ", " + F + ", " + F + ", " + F + ", " + X + ") -> (" + X + ", " + F + ", " + F + ")"
		}
		return simple(pre+call, X)
	case "chlo.scan":
		return simple(scalar+"  %r, %k = chlo.scan(%a) inits (%s) dimension=0 {\n  ^bb0(%x: tensor<$E>, %y: tensor<$E>):\n    %z = stablehlo.add %x, %y : tensor<$E>\n    stablehlo.return %z, %z : tensor<$E>, tensor<$E>\n  } : ($T, tensor<$E>) -> ($T, tensor<$E>)", "$T")
	}
	return nil
}

// sortedKeys is for messages.
func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
