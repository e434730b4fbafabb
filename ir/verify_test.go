package ir

import (
	"errors"
	"strings"
	"testing"
)

func at(line int) Loc { return Loc{File: "/src/model.go", Line: line} }

// raw appends an instruction to f without any check, the way a buggy pass
// or parser could: results get fresh IDs of the given types.
func raw(f *Func, loc Loc, op Op, args []*Value, attr any, results []Type, regions ...*Func) *Instr {
	in := &Instr{Op: op, Args: args, Attr: attr, Regions: regions, Loc: loc, Func: f}
	for i, t := range results {
		in.Results = append(in.Results, &Value{ID: f.nextID, Type: t, Def: in, Index: i, Func: f})
		f.nextID++
	}
	for _, r := range regions {
		if r != nil {
			r.Parent = in
		}
	}
	f.Body = append(f.Body, in)
	return in
}

func emit1(t *testing.T, f *Func, loc Loc, op Op, args []*Value, attr any, regions ...*Func) *Value {
	t.Helper()
	v, err := f.Emit1(loc, op, args, attr, regions...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// goodFunc uses ops with and without attributes and regions, nested.
func goodFunc(t *testing.T) *Func {
	f := NewFunc("main", ty("f32[2,3]"), ty("f32[3,4]"), ty("si32[]"))
	x, w, idx := f.Params[0], f.Params[1], f.Params[2]
	y := emit1(t, f, at(1), OpDotGeneral, []*Value{x, w}, DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{0}})
	z := emit1(t, f, at(2), OpExp, []*Value{y}, nil)
	zero := emit1(t, f, at(3), OpConstant, nil, ConstantAttr{Value: MustLiteral(Scalar(F32), []float32{0})})
	sum := emit1(t, f, at(4), OpReduce, []*Value{z, zero}, ReduceAttr{Dims: []int{1}}, adder(F32))
	// while (i) { i + 1 } with an inner case in the body.
	body := NewFunc("body", ty("si32[]"))
	one := emit1(t, body, at(5), OpConstant, nil, ConstantAttr{Value: MustLiteral(Scalar(S32), []int32{1})})
	next := emit1(t, body, at(6), OpAdd, []*Value{body.Params[0], one}, nil)
	picked := emit1(t, body, at(7), OpCase, []*Value{next, next}, nil, passThrough(ty("si32[]")), passThrough(ty("si32[]")))
	body.Return(picked)
	loop := emit1(t, f, at(8), OpWhile, []*Value{idx}, nil, constTrue(ty("si32[]")), body)
	f.Return(sum, loop)
	return f
}

func verifyMessages(err error) []string {
	if err == nil {
		return nil
	}
	var l ErrorList
	if !errors.As(err, &l) {
		return []string{"not an ErrorList: " + err.Error()}
	}
	out := make([]string, len(l))
	for i, e := range l {
		out[i] = e.Error()
	}
	return out
}

func TestVerifyGood(t *testing.T) {
	f := goodFunc(t)
	if err := Verify(f); err != nil {
		t.Fatalf("good func: %v", err)
	}
	f.Renumber()
	if err := Verify(f); err != nil {
		t.Fatalf("after Renumber: %v", err)
	}
	m := &Module{Funcs: []*Func{f, NewFunc("helper", ty("f32[]"))}}
	if err := m.Verify(); err != nil {
		t.Fatalf("module: %v", err)
	}
}

func TestVerifyBroken(t *testing.T) {
	f32x2 := ty("f32[2]")
	tests := []struct {
		name  string
		build func() *Func
		want  []string // each error, in order, must contain the string
	}{
		{"operand used before its definition", func() *Func {
			f := NewFunc("f", f32x2)
			later := &Value{}
			raw(f, at(10), OpAdd, []*Value{f.Params[0], later}, nil, tys("f32[2]"))
			in := raw(f, at(11), OpNegate, []*Value{f.Params[0]}, nil, tys("f32[2]"))
			*later = *in.Results[0]
			in.Results[0] = later
			later.Def = in
			f.Return(later)
			return f
		}, []string{"model.go:10: add: operand #1 (%2) is used before it is defined"}},

		{"operand whose instruction was removed", func() *Func {
			f := NewFunc("f", f32x2)
			gone := raw(f, at(37), OpNegate, f.Params, nil, tys("f32[2]"))
			r := raw(f, at(38), OpNegate, gone.Results, nil, tys("f32[2]"))
			f.Body = f.Body[1:]
			f.Return(r.Result())
			return f
		}, []string{"model.go:38: negate: operand #0 (%1) is not defined: its instruction is not in the body of @f"}},

		{"operand claiming to be a parameter", func() *Func {
			f := NewFunc("f", f32x2)
			stray := &Value{ID: 9, Type: f32x2, Func: f}
			f.Return(raw(f, at(39), OpNegate, []*Value{stray}, nil, tys("f32[2]")).Result())
			return f
		}, []string{"model.go:39: negate: operand #0 (%9) is not a parameter of @f"}},

		{"operand from another function", func() *Func {
			f, g := NewFunc("f", f32x2), NewFunc("g", f32x2)
			r := raw(f, at(12), OpAdd, []*Value{f.Params[0], g.Params[0]}, nil, tys("f32[2]"))
			f.Return(r.Result())
			return f
		}, []string{"model.go:12: add: operand #1 (%0) belongs to function @g, not @f (regions are isolated from above: pass values in as parameters)"}},

		{"instruction of another function", func() *Func {
			f := NewFunc("f", f32x2)
			r := raw(f, at(13), OpNegate, f.Params, nil, tys("f32[2]"))
			r.Func = NewFunc("g")
			f.Return(r.Result())
			return f
		}, []string{"model.go:13: negate: instruction's Func is @g, but it is in the body of @f"}},

		{"operand count", func() *Func {
			f := NewFunc("f", f32x2)
			f.Return(raw(f, at(14), OpAdd, f.Params, nil, tys("f32[2]")).Result())
			return f
		}, []string{"model.go:14: add: has 1 operands, want 2"}},

		{"attribute type", func() *Func {
			f := NewFunc("f", f32x2)
			f.Return(raw(f, at(15), OpTranspose, f.Params, ReshapeAttr{Shape: []int{2}}, tys("f32[2]")).Result())
			return f
		}, []string{"model.go:15: transpose: attribute is ir.ReshapeAttr, want ir.TransposeAttr"}},

		{"region count", func() *Func {
			f := NewFunc("f", f32x2, ty("f32[]"))
			f.Return(raw(f, at(16), OpReduce, f.Params, ReduceAttr{Dims: []int{0}}, tys("f32[]")).Result())
			return f
		}, []string{"model.go:16: reduce: has 0 regions, want 1"}},

		{"unknown op", func() *Func {
			f := NewFunc("f", f32x2)
			f.Return(raw(f, at(17), Op(999), f.Params, nil, tys("f32[2]")).Result())
			return f
		}, []string{"model.go:17: op(999): unknown op"}},

		{"type rule rejects the operands", func() *Func {
			f := NewFunc("f", f32x2, ty("f32[3]"))
			f.Return(raw(f, at(18), OpAdd, f.Params, nil, tys("f32[2]")).Result())
			return f
		}, []string{"model.go:18: add: operand types f32[2] and f32[3] differ"}},

		{"recorded result type differs", func() *Func {
			f := NewFunc("f", f32x2)
			f.Return(raw(f, at(19), OpAdd, []*Value{f.Params[0], f.Params[0]}, nil, tys("f32[3]")).Result())
			return f
		}, []string{"model.go:19: add: result #0 (%1) has type f32[3], want f32[2]"}},

		{"recorded result count differs", func() *Func {
			f := NewFunc("f", f32x2)
			f.Return(raw(f, at(20), OpAdd, []*Value{f.Params[0], f.Params[0]}, nil, tys("f32[2]", "f32[2]")).Result())
			return f
		}, []string{"model.go:20: add: has 2 results, want 1 (f32[2])"}},

		{"result Def, Index and Func", func() *Func {
			f := NewFunc("f", f32x2)
			a := raw(f, at(21), OpNegate, f.Params, nil, tys("f32[2]"))
			b := raw(f, at(22), OpNegate, f.Params, nil, tys("f32[2]"))
			c := raw(f, at(23), OpNegate, f.Params, nil, tys("f32[2]"))
			a.Results[0].Def = b
			b.Results[0].Index = 1
			c.Results[0].Func = NewFunc("g")
			f.Return(c.Result())
			return f
		}, []string{
			"model.go:21: negate: result #0 (%1) has a different defining instruction",
			"model.go:22: negate: result #0 (%2) has index 1",
			"model.go:23: negate: result #0 (%3) belongs to function @g, not @f",
			"model.go:23: func @f: result #0 (%3) belongs to function @g",
		}},

		{"function results", func() *Func {
			f := NewFunc("f", f32x2)
			g := NewFunc("g", f32x2)
			dropped := &Value{ID: 7, Type: f32x2, Func: f, Def: &Instr{Loc: at(24)}}
			f.Return(nil, g.Params[0], dropped, f.Params[0])
			return f
		}, []string{
			"?: func @f: result #0 is nil",
			"?: func @f: result #1 (%0) belongs to function @g",
			"model.go:24: func @f: result #2 (%7) is not defined in the function",
		}},

		{"dynamic and invalid parameter types", func() *Func {
			f := NewFunc("f", ty("f32[?,3]"), Type{Shape: []int{}})
			f.Params[0].SetParamLoc(at(25))
			f.Return(f.Params[0])
			return f
		}, []string{
			"model.go:25: func @f: parameter #0 (%0): type f32[?,3]: dynamic dimensions are not supported yet",
			"?: func @f: parameter #1 (%1): type invalid[] has an invalid element type",
		}},

		{"parameter bookkeeping", func() *Func {
			f := NewFunc("f", f32x2, f32x2, f32x2)
			f.Params[0].Index = 5
			f.Params[1].Func = NewFunc("g")
			f.Params[2].Def = &Instr{Op: OpAdd}
			return f
		}, []string{
			"?: func @f: parameter #0 (%0) has index 5",
			"?: func @f: parameter #1 (%1) belongs to function @g",
			"?: func @f: parameter #2 (%2) has a defining instruction (add)",
		}},

		{"duplicate value IDs", func() *Func {
			f := NewFunc("f", f32x2)
			r := raw(f, at(26), OpNegate, f.Params, nil, tys("f32[2]"))
			r.Results[0].ID = 0
			f.Return(r.Result())
			return f
		}, []string{"model.go:26: negate: result #0 of negate has ID %0, already used by parameter #0"}},

		{"instruction listed twice", func() *Func {
			f := NewFunc("f", f32x2)
			r := raw(f, at(27), OpNegate, f.Params, nil, tys("f32[2]"))
			f.Body = append(f.Body, r)
			f.Return(r.Result())
			return f
		}, []string{"model.go:27: negate: instruction appears twice in @f"}},

		{"nil instruction and nil operand", func() *Func {
			f := NewFunc("f", f32x2)
			f.Body = append(f.Body, nil)
			r := raw(f, at(28), OpAdd, []*Value{f.Params[0], nil}, nil, tys("f32[2]"))
			f.Return(r.Result())
			return f
		}, []string{"?: func @f: instruction #0 is nil", "model.go:28: add: operand #1 is nil"}},

		{"every broken instruction is reported", func() *Func {
			f := NewFunc("f", f32x2, ty("f32[3]"))
			a := raw(f, at(29), OpAdd, f.Params, nil, tys("f32[2]"))
			b := raw(f, at(30), OpNegate, a.Results, nil, tys("f32[2]")) // fine
			c := raw(f, at(31), OpReshape, b.Results, ReshapeAttr{Shape: []int{3}}, tys("f32[3]"))
			d := raw(f, at(32), OpAdd, []*Value{b.Result(), c.Result()}, nil, tys("f32[2]"))
			f.Return(d.Result())
			return f
		}, []string{
			"model.go:29: add: operand types f32[2] and f32[3] differ",
			"model.go:31: reshape: operand f32[2] has 2 elements, shape [3] has 3",
			"model.go:32: add: operand types f32[2] and f32[3] differ",
		}},

		{"errors inside a region", func() *Func {
			f := NewFunc("f", f32x2, ty("f32[]"))
			body := NewFunc("sum", ty("f32[]"), ty("f32[]"))
			s := raw(body, at(33), OpAdd, body.Params, nil, tys("f64[]"))
			body.Return(s.Result())
			r := raw(f, at(34), OpReduce, f.Params, ReduceAttr{Dims: []int{0}}, tys("f32[]"), body)
			f.Return(r.Result())
			return f
		}, []string{
			"model.go:33: add: result #0 (%2) has type f64[], want f32[]\nmodel.go:34: note: in region #0 of reduce",
			"model.go:34: reduce: body region returns (f64[]), want (f32[])",
		}},

		{"region with another parent", func() *Func {
			f := NewFunc("f", f32x2, ty("f32[]"))
			r := raw(f, at(35), OpReduce, f.Params, ReduceAttr{Dims: []int{0}}, tys("f32[]"), adder(F32))
			r.Regions[0].Parent = nil
			f.Return(r.Result())
			return f
		}, []string{"model.go:35: reduce: region #0 (@add) has a Parent other than this instruction"}},

		{"region nested in itself", func() *Func {
			f := NewFunc("f", ty("f32[]"), ty("f32[]"))
			r := raw(f, at(36), OpReduce, f.Params, ReduceAttr{}, tys("f32[]"))
			r.Regions = []*Func{f}
			f.Return(r.Result())
			return f
		}, []string{
			"model.go:36: reduce: region #0 (@f) has a Parent other than this instruction",
			"?: func @f: function is reached twice (a region shared by two instructions, or nested in itself)\nmodel.go:36: note: in region #0 of reduce",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := verifyMessages(Verify(tc.build()))
			if len(got) != len(tc.want) {
				t.Fatalf("got %d errors, want %d:\n%s", len(got), len(tc.want), strings.Join(got, "\n"))
			}
			for i := range got {
				if !strings.Contains(got[i], tc.want[i]) {
					t.Errorf("error #%d:\n got %q\nwant %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestVerifyNil(t *testing.T) {
	got := verifyMessages(Verify(nil))
	if len(got) != 1 || got[0] != "?: function is nil" {
		t.Fatalf("got %q", got)
	}
}

func TestModuleVerify(t *testing.T) {
	bad := NewFunc("bad", ty("f32[?]"))
	m := &Module{Funcs: []*Func{NewFunc("f"), nil, NewFunc("f"), NewFunc(""), bad}}
	want := []string{
		"?: module: function #1 is nil",
		"?: module: function @f is defined twice",
		"?: module: function #3 has no name",
		"?: func @bad: parameter #0 (%0): type f32[?]: dynamic dimensions are not supported yet",
	}
	got := verifyMessages(m.Verify())
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
