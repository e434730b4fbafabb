package stablehlo

import (
	"strings"
	"testing"
)

// buildSample builds a module that uses every builder feature.
func buildSample(t *testing.T) *Module {
	t.Helper()
	f32 := Tensor(F32)
	m := NewModule("jit_sample")
	m.Attrs = []NamedAttr{NA("mhlo.num_replicas", I32Attr(1)), NA("mhlo.num_partitions", I32Attr(1))}

	helper := m.NewFunc("square", []Type{Tensor(F32, 2, 3)}, []Type{Tensor(F32, 2, 3)})
	helper.Visibility = "private"
	hb := helper.Builder()
	hb.Return(hb.Op1("stablehlo.multiply", []*Value{helper.Arg(0), helper.Arg(0)}, Tensor(F32, 2, 3)))

	x, w := Tensor(F32, 2, 3), Tensor(F32, 3, 4)
	f := m.NewFunc("main", []Type{x, w}, []Type{Tensor(F32, 2), Tensor(F32, 2, 4)})
	m.Funcs[0], m.Funcs[1] = m.Funcs[1], m.Funcs[0] // main first, as JAX prints
	f.Visibility = "public"
	f.SetArgAttr(0, "mhlo.layout_mode", StringAttr("default"))
	f.SetResultAttr(0, "jax.result_info", StringAttr(""))
	f.SetResultAttr(1, "jax.result_info", StringAttr("[1]"))
	b := f.Builder()
	b.Loc = FileLoc("model.go", 10, 0)

	one := b.Constant(MustDense(DenseFromFloat64s(x, []float64{1})))
	sum := b.Op1("stablehlo.add", []*Value{f.Arg(0), one}, x)
	sq := b.Call(helper, sum)[0]
	dot := b.Op1("stablehlo.dot_general", []*Value{sq, f.Arg(1)}, Tensor(F32, 2, 4),
		NA("dot_dimension_numbers", DotDims{LhsContractingDims: []int64{1}, RhsContractingDims: []int64{0}}),
		NA("precision_config", PrecisionConfig("DEFAULT", "DEFAULT")))
	zero := b.Constant(MustDense(DenseFromFloat64s(f32, []float64{0})))
	red := b.Op("stablehlo.reduce", []*Value{sq, zero}, []Type{Tensor(F32, 2)}, NA("dimensions", I64Array(1)))
	rb := red.NewRegion(f32, f32)
	rb.Return(rb.Op1("stablehlo.add", []*Value{rb.Arg(0), rb.Arg(1)}, f32))
	// A reduce whose body is not a single op prints in region form.
	red2 := b.Op("stablehlo.reduce", []*Value{sq, zero}, []Type{Tensor(F32, 2)}, NA("dimensions", I64Array(1)))
	rb2 := red2.NewRegion(f32, f32)
	m2 := rb2.Op1("stablehlo.multiply", []*Value{rb2.Arg(0), rb2.Arg(1)}, f32)
	rb2.Return(rb2.Op1("stablehlo.add", []*Value{m2, rb2.Arg(1)}, f32))

	i32 := Tensor(I32)
	start := b.Constant(MustDense(DenseFromInt64s(i32, []int64{0})))
	loop := b.Op("stablehlo.while", []*Value{start, red.Results[0]}, []Type{i32, Tensor(F32, 2)})
	cb := loop.NewRegion(i32, Tensor(F32, 2))
	ten := cb.Constant(MustDense(DenseFromInt64s(i32, []int64{10})))
	cb.Return(cb.Op1("stablehlo.compare", []*Value{cb.Arg(0), ten}, Tensor(I1),
		NA("comparison_direction", ComparisonDirection("LT")), NA("compare_type", ComparisonType("SIGNED"))))
	bb := loop.NewRegion(i32, Tensor(F32, 2))
	inc := bb.Op1("stablehlo.add", []*Value{bb.Arg(0), bb.Constant(MustDense(DenseFromInt64s(i32, []int64{1})))}, i32)
	bb.Return(inc, bb.Op1("stablehlo.sine", []*Value{bb.Arg(1)}, Tensor(F32, 2)))

	idx := b.Constant(MustDense(DenseFromInt64s(Tensor(I64, 1, 1), []int64{0})))
	sc := b.Op1("stablehlo.scatter", []*Value{dot, idx, b.Op1("stablehlo.slice", []*Value{dot}, Tensor(F32, 1, 4),
		NA("start_indices", I64Array(0, 0)), NA("limit_indices", I64Array(1, 4)), NA("strides", I64Array(1, 1)))}, Tensor(F32, 2, 4),
		NA("scatter_dimension_numbers", ScatterDims{UpdateWindowDims: []int64{1}, InsertedWindowDims: []int64{0}, ScatterDimsToOperandDims: []int64{0}, IndexVectorDim: 1}),
		NA("indices_are_sorted", BoolAttr(true)))
	sb := sc.Def.NewRegion(f32, f32)
	sb.Return(sb.Arg(1))
	b.Return(loop.Results[1], sc)
	return m
}

const sampleText = `module @jit_sample attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<3x4xf32>) -> (tensor<2xf32> {jax.result_info = ""}, tensor<2x4xf32> {jax.result_info = "[1]"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<2x3xf32>
    %0 = stablehlo.add %arg0, %cst : tensor<2x3xf32>
    %1 = call @square(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %2 = stablehlo.dot_general %1, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%1 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %4 = stablehlo.reduce(%1 init: %cst_0) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
     reducer(%arg2: tensor<f32>, %arg3: tensor<f32>)  {
      %8 = stablehlo.multiply %arg2, %arg3 : tensor<f32>
      %9 = stablehlo.add %8, %arg3 : tensor<f32>
      stablehlo.return %9 : tensor<f32>
    }
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5:2 = stablehlo.while(%iterArg = %c, %iterArg_2 = %3) : tensor<i32>, tensor<2xf32>
     cond {
      %c_3 = stablehlo.constant dense<10> : tensor<i32>
      %8 = stablehlo.compare  LT, %iterArg, %c_3,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %8 : tensor<i1>
    } do {
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %8 = stablehlo.add %iterArg, %c_3 : tensor<i32>
      %9 = stablehlo.sine %iterArg_2 : tensor<2xf32>
      stablehlo.return %8, %9 : tensor<i32>, tensor<2xf32>
    }
    %c_1 = stablehlo.constant dense<0> : tensor<1x1xi64>
    %6 = stablehlo.slice %2 [0:1, 0:4] : (tensor<2x4xf32>) -> tensor<1x4xf32>
    %7 = "stablehlo.scatter"(%2, %c_1, %6) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      stablehlo.return %arg3 : tensor<f32>
    }) : (tensor<2x4xf32>, tensor<1x1xi64>, tensor<1x4xf32>) -> tensor<2x4xf32>
    return %5#1, %7 : tensor<2xf32>, tensor<2x4xf32>
  }
  func.func private @square(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
`

func TestBuilderPrints(t *testing.T) {
	m := buildSample(t)
	if got := m.String(); got != sampleText {
		t.Errorf("built module prints differently:\n%s\nfull:\n%s", lineDiff(sampleText, got), got)
	}
}

// TestBuilderParsePrint checks parse(print(m)) prints as m, with and
// without locations.
func TestBuilderParsePrint(t *testing.T) {
	m := buildSample(t)
	for _, opts := range []PrintOptions{{}, {Locations: true}} {
		text := string(Format(m, opts))
		m2, err := Parse([]byte(text))
		if err != nil {
			t.Fatalf("parse(print(m)) with %+v: %v\n%s", opts, err, text)
		}
		if text2 := string(Format(m2, opts)); text2 != text {
			t.Errorf("parse(print(m)) prints differently with %+v:\n%s", opts, lineDiff(text, text2))
		}
	}
	withLocs := string(Format(m, PrintOptions{Locations: true}))
	for _, want := range []string{`#loc1 = loc("model.go":10:0)`, `%0 = stablehlo.add %arg0, %cst : tensor<2x3xf32> loc(#loc1)`, `} loc(#loc)`} {
		if !strings.Contains(withLocs, want) {
			t.Errorf("printing with locations: missing %q in\n%s", want, withLocs)
		}
	}
}

func TestOpString(t *testing.T) {
	m := buildSample(t)
	op := m.Funcs[0].Entry().Ops[1]
	if got, want := op.String(), `%0 = stablehlo.add %<?>, %<?> : tensor<2x3xf32>`; got != want {
		t.Errorf("Op.String() = %q, want %q", got, want)
	}
}
