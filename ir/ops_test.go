package ir_test

import (
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
)

func TestCompareTypeMustSuitElementType(t *testing.T) {
	cases := []struct {
		d    ir.DType
		ct   ir.ComparisonType
		want string // "" for valid
	}{
		{ir.F32, ir.CmpFloat, ""},
		{ir.F32, ir.CmpTotalOrder, ""},
		{ir.F32, ir.CmpSigned, "comparison type SIGNED does not apply to element type f32"},
		{ir.S32, ir.CmpSigned, ""},
		{ir.S32, ir.CmpUnsigned, "comparison type UNSIGNED does not apply to element type si32"},
		{ir.U8, ir.CmpUnsigned, ""},
		{ir.Bool, ir.CmpUnsigned, ""},
		{ir.C64, ir.CmpFloat, ""},
		{ir.C64, ir.CmpTotalOrder, "does not apply to element type c64"},
		{ir.S64, ir.CmpNoType, ""},
	}
	for _, c := range cases {
		f := ir.NewFunc("f", ir.TensorOf(c.d, 2), ir.TensorOf(c.d, 2))
		_, err := f.Emit(ir.UnknownLoc, ir.OpCompare, f.Params, ir.CompareAttr{Direction: ir.CmpLT, Type: c.ct})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v %v: unexpected error %v", c.d, c.ct, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v %v: error %v, want %q", c.d, c.ct, err, c.want)
		}
	}
}

func TestAbsOfComplexIsReal(t *testing.T) {
	for d, want := range map[ir.DType]ir.DType{ir.C64: ir.F32, ir.C128: ir.F64, ir.F16: ir.F16, ir.S8: ir.S8} {
		f := ir.NewFunc("f", ir.TensorOf(d, 3))
		v, err := f.Emit1(ir.UnknownLoc, ir.OpAbs, f.Params, nil)
		if err != nil {
			t.Fatal(err)
		}
		if v.Type.DType != want {
			t.Errorf("abs(%v) has type %v, want %v", d, v.Type.DType, want)
		}
		f.Return(v)
		x := ir.Zeros(ir.TensorOf(d, 3))
		if _, err := ir.Eval(f, x); err != nil {
			t.Errorf("eval abs(%v): %v", d, err)
		}
	}
}

// TestOpTableComplete: every op has a name, a doc line, a type rule and an
// evaluation rule, and its name maps back to it.
func TestOpTableComplete(t *testing.T) {
	for _, op := range ir.AllOps() {
		info := op.Info()
		if info.Doc == "" || info.Infer == nil || info.Eval == nil {
			t.Errorf("op %s: doc %q, type rule %v, evaluator %v", info.Name, info.Doc, info.Infer != nil, info.Eval != nil)
		}
		if back, ok := ir.OpByName(info.Name); !ok || back != op {
			t.Errorf("op %s does not map back by name", info.Name)
		}
	}
}
