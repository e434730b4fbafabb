package stablehlo

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestDenseConstructorsAndAccessors(t *testing.T) {
	d := MustDense(DenseFromInt64s(Tensor(I8, 4), []int64{-1, 127, -128, 255}))
	if ints, _ := d.Int64s(); !reflect.DeepEqual(ints, []int64{-1, 127, -128, -1}) {
		t.Errorf("Int64s = %v", ints)
	}
	if u, _ := d.Uint64s(); !reflect.DeepEqual(u, []uint64{255, 127, 128, 255}) {
		t.Errorf("Uint64s = %v", u)
	}
	if got := d.String(); got != "dense<[-1, 127, -128, -1]> : tensor<4xi8>" {
		t.Errorf("String = %s", got)
	}
	if got := d.Bytes(); !reflect.DeepEqual(got, []byte{0xFF, 0x7F, 0x80, 0xFF}) {
		t.Errorf("Bytes = %v", got)
	}

	u := MustDense(DenseFromUint64s(Tensor(UI64, 2), []uint64{math.MaxUint64, 0}))
	if got := u.String(); got != "dense<[18446744073709551615, 0]> : tensor<2xui64>" {
		t.Errorf("String = %s", got)
	}

	s := MustDense(DenseFromFloat64s(Tensor(BF16, 2, 2), []float64{0.5}))
	if !s.IsSplat() || s.NumElements() != 4 {
		t.Errorf("splat: IsSplat %v NumElements %d", s.IsSplat(), s.NumElements())
	}
	if f, _ := s.Float64s(); !reflect.DeepEqual(f, []float64{0.5, 0.5, 0.5, 0.5}) {
		t.Errorf("Float64s = %v", f)
	}
	if got := s.Bytes(); !reflect.DeepEqual(got, []byte{0, 0x3F, 0, 0x3F, 0, 0x3F, 0, 0x3F}) {
		t.Errorf("Bytes = %x", got)
	}
	if got := s.String(); got != "dense<5.000000e-01> : tensor<2x2xbf16>" {
		t.Errorf("String = %s", got)
	}

	b := MustDense(DenseFromBools(Tensor(I1, 3), []bool{true, false, true}))
	if bs, _ := b.Bools(); !reflect.DeepEqual(bs, []bool{true, false, true}) {
		t.Errorf("Bools = %v", bs)
	}
	if got := b.String(); got != "dense<[true, false, true]> : tensor<3xi1>" {
		t.Errorf("String = %s", got)
	}

	c := MustDense(DenseFromComplex128s(Tensor(Complex64, 2), []complex128{1 + 2i, complex(math.Inf(1), -0.5)}))
	if cs, _ := c.Complex128s(); !reflect.DeepEqual(cs, []complex128{1 + 2i, complex(math.Inf(1), -0.5)}) {
		t.Errorf("Complex128s = %v", cs)
	}
	if got := c.String(); got != "dense<[(1.000000e+00,2.000000e+00), (0x7F800000,-5.000000e-01)]> : tensor<2xcomplex<f32>>" {
		t.Errorf("String = %s", got)
	}

	f := MustDense(DenseFromFloat32s(Tensor(F32, 3), []float32{1, float32(math.NaN()), -0}))
	if got := f.String(); got != "dense<[1.000000e+00, 0x7FC00000, 0.000000e+00]> : tensor<3xf32>" {
		t.Errorf("String = %s", got)
	}

	raw, err := NewDense(Tensor(I32, 2), []byte{1, 0, 0, 0, 2, 0, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	if ints, _ := raw.Int64s(); !reflect.DeepEqual(ints, []int64{1, 2}) {
		t.Errorf("Int64s = %v", ints)
	}

	empty := MustDense(DenseFromFloat64s(Tensor(F32, 0, 3), nil))
	if got := empty.String(); got != "dense<> : tensor<0x3xf32>" {
		t.Errorf("String = %s", got)
	}
}

func TestDenseErrors(t *testing.T) {
	if _, err := DenseFromInt64s(Tensor(I32, 3), []int64{1, 2}); err == nil {
		t.Error("wrong count accepted")
	}
	if _, err := DenseFromInt64s(Tensor(F32, 1), []int64{1}); err == nil {
		t.Error("ints for f32 accepted")
	}
	if _, err := DenseFromFloat64s(Tensor(F32, Dynamic), []float64{1}); err == nil {
		t.Error("dynamic shape accepted")
	}
	if _, err := NewDense(Tensor(F32, 2), []byte{1, 2, 3}); err == nil {
		t.Error("bad byte count accepted")
	}
	if _, err := NewDense(Tensor("tf32", 2), []byte{1, 2}); err == nil {
		t.Error("tf32 raw data accepted")
	}
	d := MustDense(DenseFromFloat64s(Tensor(F32), []float64{1}))
	if _, err := d.Int64s(); err == nil {
		t.Error("Int64s of f32 succeeded")
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "values for") {
			t.Errorf("MustDense panic = %v", r)
		}
	}()
	MustDense(DenseFromInt64s(Tensor(I32, 3), []int64{1, 2}))
}

func TestDenseParsed(t *testing.T) {
	m, err := Parse([]byte(wrapMain("", `
  %0 = stablehlo.constant dense<"0x05"> : tensor<3xi1>
  %1 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf8E4M3FN>
  %2 = stablehlo.constant dense<"0xFFFFFFFFFFFFFFFF"> : tensor<ui64>`)))
	if err != nil {
		t.Fatal(err)
	}
	ops := m.Funcs[0].Entry().Ops
	packed := ops[0].Attr("value").(*DenseElements)
	if bs, _ := packed.Bools(); !reflect.DeepEqual(bs, []bool{true, false, true}) {
		t.Errorf("packed i1 hex = %v", bs)
	}
	f8 := ops[1].Attr("value").(*DenseElements)
	if v, err := f8.Float64s(); err != nil || !reflect.DeepEqual(v, []float64{1, 2}) {
		t.Errorf("f8 Float64s = %v, %v", v, err)
	}
	if b := f8.Bytes(); !reflect.DeepEqual(b, []byte{0x38, 0x40}) {
		t.Errorf("f8 bytes = %x, want 3840", b)
	}
	max := ops[2].Attr("value").(*DenseElements)
	if u, _ := max.Uint64s(); u[0] != math.MaxUint64 {
		t.Errorf("ui64 max = %v", u)
	}
}
