package codegen_test

import (
	"math"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt/cpu/codegen"
	"github.com/stela-ml/stela/stablehlo"
)

// TestResultPlacement: results that are arguments, constants, views of
// other values, or the same value twice are all copied into their own
// result buffers; computed values are written in place.
func TestResultPlacement(t *testing.T) {
	src := `module @m {
  func.func private @twice(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<6xf32>) {
    %0 = stablehlo.add %x, %x : tensor<2x3xf32>
    %1 = stablehlo.reshape %0 : (tensor<2x3xf32>) -> tensor<6xf32>
    return %0, %1 : tensor<2x3xf32>, tensor<6xf32>
  }
  func.func public @main(%a: tensor<2x3xf32>, %s: tensor<f32>) -> (tensor<2x3xf32>, tensor<6xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x2xf32>, tensor<i32>, tensor<f32>, tensor<0x3xf32>, tensor<2x3xf32>) {
    %0:2 = call @twice(%a) : (tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<6xf32>)
    %c = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %r = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %k = stablehlo.constant dense<7> : tensor<i32>
    %e = stablehlo.constant dense<> : tensor<0x3xf32>
    %big = stablehlo.constant dense<0.25> : tensor<2x3xf32>
    %sb = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %m = stablehlo.multiply %sb, %big : tensor<2x3xf32>
    return %0#0, %0#1, %0#0, %c, %r, %k, %s, %e, %m : tensor<2x3xf32>, tensor<6xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x2xf32>, tensor<i32>, tensor<f32>, tensor<0x3xf32>, tensor<2x3xf32>
  }
}`
	p := compile(t, src)
	a := ir.LiteralFromFloat64s(ir.TensorOf(ir.F32, 2, 3), []float64{1, 2, 3, 4, 5, 6})
	got, rc, msg := p.run(t, a, ir.ScalarOf(float32(2)))
	if rc != 0 {
		t.Fatal(msg)
	}
	twice := []float64{2, 4, 6, 8, 10, 12}
	want := [][]float64{twice, twice, twice, {1, 2, 3, 4, 5, 6}, {1, 2, 3, 4, 5, 6}, {7}, {2}, {}, {0.5, 0.5, 0.5, 0.5, 0.5, 0.5}}
	for i, w := range want {
		var g []float64
		if got[i].Type.DType == ir.S32 {
			for _, v := range got[i].Int64s() {
				g = append(g, float64(v))
			}
		} else {
			g = got[i].Float64s()
		}
		if len(g) != len(w) {
			t.Errorf("result %d: %v, want %v", i, g, w)
			continue
		}
		for j := range w {
			if g[j] != w[j] {
				t.Errorf("result %d: %v, want %v", i, g, w)
				break
			}
		}
	}
}

// TestLargeSplatAndScalars covers a splat constant filled at run time, a
// program of scalars only, and zero-size tensors flowing through ops.
func TestLargeSplatAndScalars(t *testing.T) {
	src := `func.func @main(%x: tensor<f64>, %z: tensor<0x4xf32>) -> (tensor<100x3xf64>, tensor<f64>, tensor<4xf32>, tensor<0x4xf32>) {
  %c = stablehlo.constant dense<1.5> : tensor<100x3xf64>
  %b = stablehlo.broadcast_in_dim %x, dims = [] : (tensor<f64>) -> tensor<100x3xf64>
  %s = stablehlo.add %c, %b : tensor<100x3xf64>
  %t = stablehlo.multiply %x, %x : tensor<f64>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%z init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<0x4xf32>, tensor<f32>) -> tensor<4xf32>
  %n = stablehlo.negate %z : tensor<0x4xf32>
  return %s, %t, %r, %n : tensor<100x3xf64>, tensor<f64>, tensor<4xf32>, tensor<0x4xf32>
}`
	p := compile(t, src)
	got, rc, msg := p.run(t, ir.ScalarOf(float64(0.25)), ir.Zeros(ir.TensorOf(ir.F32, 0, 4)))
	if rc != 0 {
		t.Fatal(msg)
	}
	for i, v := range got[0].Float64s() {
		if v != 1.75 {
			t.Fatalf("splat sum [%d] = %v, want 1.75", i, v)
		}
	}
	if v := got[1].Float64s()[0]; v != 0.0625 {
		t.Errorf("scalar product %v, want 0.0625", v)
	}
	for _, v := range got[2].Float64s() {
		if v != 0 {
			t.Errorf("sum over an empty dimension %v, want 0", got[2].Float64s())
		}
	}
}

// TestInexactFloatConstants: constants that are not exact decimals in the
// type (0.1 in f32), NaN payloads, -0 and infinities reach the program
// bit-exactly, in tensors and inside region bodies.
func TestInexactFloatConstants(t *testing.T) {
	src := `func.func @main(%x: tensor<3xf32>) -> (tensor<5xf32>, tensor<f32>, tensor<2xf64>) {
  %c = stablehlo.constant dense<[0.1, 0x7FC00123, -0.0, 0x7F800000, 1.0e-45]> : tensor<5xf32>
  %init = stablehlo.constant dense<0.1> : tensor<f32>
  %r = stablehlo.reduce(%x init: %init) across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %k = stablehlo.constant dense<0.3> : tensor<f32>
    %m = stablehlo.multiply %b, %k : tensor<f32>
    %s = stablehlo.add %a, %m : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  %d = stablehlo.constant dense<[0.1, 0x7FF0000000000001]> : tensor<2xf64>
  return %c, %r, %d : tensor<5xf32>, tensor<f32>, tensor<2xf64>
}`
	p := compile(t, src)
	got, rc, msg := p.run(t, ir.LiteralFromFloat64s(ir.TensorOf(ir.F32, 3), []float64{1, 2, 3}))
	if rc != 0 {
		t.Fatal(msg)
	}
	wantBits := []uint32{0x3DCCCCCD, 0x7FC00123, 0x80000000, 0x7F800000, 0x00000001}
	for i, v := range got[0].Data.([]float32) {
		if math.Float32bits(v) != wantBits[i] {
			t.Errorf("constant [%d] = %#x, want %#x", i, math.Float32bits(v), wantBits[i])
		}
	}
	acc := float32(0.1)
	for _, v := range []float32{1, 2, 3} {
		acc += v * float32(0.3)
	}
	if g := got[1].Data.([]float32)[0]; g != acc {
		t.Errorf("reduce with constants in the body = %v, want %v", g, acc)
	}
	if g := got[2].Data.([]float64); g[0] != 0.1 || math.Float64bits(g[1]) != 0x7FF0000000000001 {
		t.Errorf("f64 constants %v (%#x)", g, math.Float64bits(g[1]))
	}
}

// TestGenericFormAndEntry: ops in MLIR's generic form, a module without
// @main whose only public function is the entry, and the signature text.
func TestGenericFormAndEntry(t *testing.T) {
	src := `module @m {
  func.func private @helper(%x: tensor<2xi64>) -> tensor<2xi64> {
    %0 = "stablehlo.multiply"(%x, %x) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
    "func.return"(%0) : (tensor<2xi64>) -> ()
  }
  func.func public @compute(%x: tensor<2xi64>, %p: tensor<2xi1>) -> (tensor<2xi64>, tensor<2xi1>) {
    %0 = "func.call"(%x) <{callee = @helper}> : (tensor<2xi64>) -> tensor<2xi64>
    %1 = "stablehlo.compare"(%0, %x) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi1>
    %2 = "stablehlo.xor"(%1, %p) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
    return %0, %2 : tensor<2xi64>, tensor<2xi1>
  }
}`
	p := compile(t, src)
	if want := "arg si64 2\narg i1 2\nres si64 2\nres i1 2\n"; p.lib.Signature != want {
		t.Errorf("signature %q, want %q", p.lib.Signature, want)
	}
	got, rc, msg := p.run(t, ir.LiteralFromInt64s(ir.TensorOf(ir.S64, 2), []int64{3, 1}), ir.LiteralFromBools(ir.TensorOf(ir.Bool, 2), []bool{true, true}))
	if rc != 0 {
		t.Fatal(msg)
	}
	if g := got[0].Int64s(); g[0] != 9 || g[1] != 1 {
		t.Errorf("squares %v", g)
	}
	if g := got[1].Bools(); g[0] || !g[1] {
		t.Errorf("xor %v, want [false true]", g)
	}
}

func TestSignatureOfScalars(t *testing.T) {
	m, err := stablehlo.Parse([]byte(`func.func @main(%x: tensor<f32>, %y: tensor<2x0x3xi32>) -> tensor<f32> {
  return %x : tensor<f32>
}`))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := codegen.Plan(m, codegen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := prog.Signature(), "arg f32 \narg si32 2x0x3\nres f32 \n"; got != want {
		t.Errorf("signature %q, want %q", got, want)
	}
}

// TestPlanErrors: what the planner rejects, and how (unsupported or not).
func TestPlanErrors(t *testing.T) {
	cases := []struct {
		src, want   string
		unsupported bool
	}{
		{`func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}`, "unsupported: dynamic shape tensor<?xf32>", true},
		{`func.func @main(%x: tensor<4xtf32>) -> tensor<4xtf32> {
  return %x : tensor<4xtf32>
}`, "unsupported: element type tf32", true},
		{`func.func @main(%x: tensor<4xf32>) -> tensor<4xi32> {
  %0 = stablehlo.popcnt %x : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}`, "stablehlo.popcnt in @main: element type f32 is not allowed", false},
		{`func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @foo(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}`, "unsupported: stablehlo.custom_call @foo (in @main)", true},
		{`func.func @main(%x: tensor<4xf32>, %y: tensor<4xf64>) -> tensor<f32> {
  %0 = stablehlo.dot_general %x, %y, contracting_dims = [0] x [0] : (tensor<4xf32>, tensor<4xf64>) -> tensor<f32>
  return %0 : tensor<f32>
}`, "unsupported: dot of f32 and f64 into f32 (mixed element types) (stablehlo.dot_general in @main)", true},
		{`func.func @main(%x: tensor<4xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %t = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<2xf32>
    stablehlo.return %a : tensor<f32>
  }
  return %0 : tensor<f32>
}`, "unsupported: non-scalar tensor<2xf32> in a region", true},
	}
	for i, c := range cases {
		m, err := stablehlo.Parse([]byte(c.src))
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		_, err = codegen.Plan(m, codegen.Options{})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || codegen.IsUnsupported(err) != c.unsupported {
			t.Errorf("case %d: error %v (unsupported %v), want %q (unsupported %v)", i, err, codegen.IsUnsupported(err), c.want, c.unsupported)
		}
	}
}
