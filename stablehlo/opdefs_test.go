package stablehlo

import (
	"slices"
	"strings"
	"testing"
)

// specOps are the ops of the "Ops" section of the StableHLO specification
// (openxla/stablehlo docs/spec.md), one heading each.
var specOps = strings.Fields(`
abs add after_all all_gather all_reduce all_to_all and atan2
batch_norm_grad batch_norm_inference batch_norm_training bitcast_convert
broadcast_in_dim case cbrt ceil cholesky clamp collective_broadcast
collective_permute compare complex composite concatenate constant convert
convolution cosine count_leading_zeros custom_call divide dot_general
dynamic_slice dynamic_update_slice exponential exponential_minus_one fft
floor gather get_dimension_size get_tuple_element if imag infeed iota
is_finite log log_plus_one logistic map maximum minimum multiply negate not
optimization_barrier or outfeed pad partition_id popcnt power real recv
reduce reduce_precision reduce_scatter reduce_window remainder replica_id
reshape reverse rng rng_bit_generator round_nearest_afz round_nearest_even
rsqrt scatter select select_and_scatter send shift_left
shift_right_arithmetic shift_right_logical sign sine slice sort sqrt
subtract tan tanh transpose triangular_solve tuple uniform_dequantize
uniform_quantize while xor`)

// TestOpTableSpec: the table's spec section is the spec's op list.
func TestOpTableSpec(t *testing.T) {
	var table []string
	for _, d := range OpDefs() {
		if d.Section == SectionSpec {
			table = append(table, d.Short())
		}
	}
	want := slices.Clone(specOps)
	slices.Sort(want)
	for _, n := range want {
		if !slices.Contains(table, n) {
			t.Errorf("spec op stablehlo.%s is not in the op table's spec section", n)
		}
	}
	for _, n := range table {
		if !slices.Contains(want, n) {
			t.Errorf("stablehlo.%s is in the op table's spec section, not in the spec", n)
		}
	}
}

// TestOpTableSyntax: every op with a syntax of its own (opTable) is in the
// op table, and every op of the table parses in generic form and, when it
// has a pretty form, in that too.
func TestOpTableSyntax(t *testing.T) {
	for name := range opTable {
		if _, ok := LookupOp(name); !ok {
			t.Errorf("%s has a syntax entry but is not in the op table", name)
		}
	}
	for _, d := range OpDefs() {
		if d.Kernel == NoKernel && d.Refused == "" {
			t.Errorf("%s: refused without a reason", d.Name)
		}
		if d.Kernel != NoKernel && d.Refused != "" {
			t.Errorf("%s: kernel %s and a refusal %q", d.Name, d.Kernel, d.Refused)
		}
		if d.Elem == 0 {
			t.Errorf("%s: no element type class", d.Name)
		}
	}
}

// TestOpTableCounts: the parser and Verify reject an op of the table with
// the wrong number of operands, naming it.
func TestOpTableCounts(t *testing.T) {
	src := `func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.add"(%a) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}`
	_, err := Parse([]byte(src))
	if err == nil || !strings.Contains(err.Error(), "stablehlo.add has 1 operands, want 2") {
		t.Errorf("Parse: %v, want stablehlo.add has 1 operands, want 2", err)
	}
	m := NewModule("")
	f := m.NewFunc("main", []Type{Tensor(F32)}, []Type{Tensor(F32)})
	b := f.Builder()
	b.Return(b.Op1("stablehlo.negate", []*Value{f.Arg(0), f.Arg(0)}, Tensor(F32)))
	if err := m.Verify(); err == nil || !strings.Contains(err.Error(), "stablehlo.negate (op #0): has 2 operands, want 1") {
		t.Errorf("Verify: %v, want stablehlo.negate (op #0): has 2 operands, want 1", err)
	}
}

// TestQuantizeResultTypeForm: uniform_quantize parses from its short form
// `: R` (the result type only) and prints in the functional form.
func TestQuantizeResultTypeForm(t *testing.T) {
	src := `func.func @main(%x: tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01:-3>> {
  %0 = stablehlo.uniform_quantize %x : tensor<2x!quant.uniform<i8:f32, 5.000000e-01:-3>>
  return %0 : tensor<2x!quant.uniform<i8:f32, 5.000000e-01:-3>>
}`
	m, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out := string(Format(m, PrintOptions{}))
	want := "stablehlo.uniform_quantize %arg0 : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01:-3>>"
	if !strings.Contains(out, want) {
		t.Errorf("printed:\n%s\nwant a line with %s", out, want)
	}
}
