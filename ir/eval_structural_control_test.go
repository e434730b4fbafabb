package ir

import (
	"errors"
	"strings"
	"testing"
)

// sxCountdownLoop builds the regions of a while over (i: si32, acc: f32):
// cond i < limit, body (i+1, acc*2).
func sxCountdownLoop(t *testing.T, limit float64) (cond, body *Func) {
	t.Helper()
	state := []Type{Scalar(S32), Scalar(F32)}
	cond = NewFunc("cond", state...)
	lim := sxBuild(t, cond, OpConstant, nil, ConstantAttr{Value: sxScalarLit(S32, limit)}, []Type{Scalar(S32)})[0]
	cond.Return(sxBuild(t, cond, OpCompare, []*Value{cond.Params[0], lim}, CompareAttr{Direction: CmpLT}, []Type{Scalar(Bool)})...)
	body = NewFunc("body", state...)
	one := sxBuild(t, body, OpConstant, nil, ConstantAttr{Value: sxScalarLit(S32, 1)}, []Type{Scalar(S32)})[0]
	i := sxBuild(t, body, OpAdd, []*Value{body.Params[0], one}, nil, []Type{Scalar(S32)})[0]
	acc := sxBuild(t, body, OpAdd, []*Value{body.Params[1], body.Params[1]}, nil, []Type{Scalar(F32)})[0]
	body.Return(i, acc)
	return cond, body
}

func TestEvalWhile(t *testing.T) {
	types := []Type{Scalar(S32), Scalar(F32)}
	t.Run("five iterations", func(t *testing.T) {
		cond, body := sxCountdownLoop(t, 5)
		got := sxRun(t, OpWhile, nil, types, []*Literal{sxScalarLit(S32, 0), sxScalarLit(F32, 1)}, cond, body)
		sxExpect(t, got[0], sxScalarLit(S32, 5))
		sxExpect(t, got[1], sxScalarLit(F32, 32))
	})
	t.Run("no iterations", func(t *testing.T) {
		cond, body := sxCountdownLoop(t, 5)
		got := sxRun(t, OpWhile, nil, types, []*Literal{sxScalarLit(S32, 7), sxScalarLit(F32, 3)}, cond, body)
		sxExpect(t, got[0], sxScalarLit(S32, 7))
		sxExpect(t, got[1], sxScalarLit(F32, 3))
	})
	t.Run("no state", func(t *testing.T) {
		cond := NewFunc("cond")
		cond.Return(sxBuild(t, cond, OpConstant, nil, ConstantAttr{Value: MustLiteral(Scalar(Bool), []bool{false})}, []Type{Scalar(Bool)})...)
		got := sxRun(t, OpWhile, nil, nil, nil, cond, NewFunc("body"))
		if len(got) != 0 {
			t.Fatalf("got %d results, want none", len(got))
		}
	})
	t.Run("tensor state of every element type", func(t *testing.T) {
		// A loop that runs once (cond: the i1 flag) and reverses the tensor.
		for _, dt := range AllDTypes {
			x := sxSeq(dt, 1, 3)
			st := []Type{Scalar(Bool), x.Type}
			cond := NewFunc("cond", st...)
			cond.Return(cond.Params[0])
			body := NewFunc("body", st...)
			f := sxBuild(t, body, OpConstant, nil, ConstantAttr{Value: MustLiteral(Scalar(Bool), []bool{false})}, []Type{Scalar(Bool)})[0]
			r := sxBuild(t, body, OpReverse, []*Value{body.Params[1]}, ReverseAttr{Dims: []int{0}}, []Type{x.Type})[0]
			body.Return(f, r)
			got := sxRun(t, OpWhile, nil, st, []*Literal{MustLiteral(Scalar(Bool), []bool{true}), x}, cond, body)
			sxExpect(t, got[1], sxPick(x.Type, x, nil, []int{2, 1, 0}))
		}
	})
}

func TestEvalCase(t *testing.T) {
	vt := TensorOf(F32, 2)
	x, y := sxNums(F32, sxShape(2), 1, 2), sxNums(F32, sxShape(2), 10, 20)
	branches := func() []*Func {
		b0 := NewFunc("b0", vt, vt)
		b0.Return(b0.Params[0])
		b1 := NewFunc("b1", vt, vt)
		b1.Return(sxBuild(t, b1, OpAdd, b1.Params, nil, []Type{vt})...)
		b2 := NewFunc("b2", vt, vt)
		b2.Return(b2.Params[1])
		return []*Func{b0, b1, b2}
	}
	cases := []struct {
		index float64
		want  *Literal
	}{
		{0, x},
		{1, sxNums(F32, sxShape(2), 11, 22)},
		{2, y},
		{3, y},  // out of range: the last branch
		{-1, y}, // negative: the last branch
		{1 << 30, y},
	}
	for _, c := range cases {
		got := sxRun(t, OpCase, nil, []Type{vt}, []*Literal{sxScalarLit(S32, c.index), x, y}, branches()...)
		sxExpect(t, got[0], c.want)
	}
	t.Run("unsigned index", func(t *testing.T) {
		bs := branches()
		f := NewFunc("raw")
		in := &Instr{Op: OpCase, Regions: bs, Func: f, Results: []*Value{{Type: vt}}}
		outs, err := OpCase.Info().Eval(in, []*Literal{sxScalarLit(U8, 255), x, y})
		if err != nil {
			t.Fatal(err)
		}
		sxExpect(t, outs[0], y)
	})
	t.Run("single branch", func(t *testing.T) {
		b := NewFunc("only", vt, vt)
		b.Return(b.Params[0])
		got := sxRun(t, OpCase, nil, []Type{vt}, []*Literal{sxScalarLit(S32, 0), x, y}, b)
		sxExpect(t, got[0], x)
	})
}

func TestEvalCustomCallRefuses(t *testing.T) {
	x := sxNums(F32, sxShape(2), 1, 2)
	f := NewFunc("f", x.Type)
	r := sxBuildRaw(f, OpCustomCall, f.Params, CustomCallAttr{Target: "my.target", ResultTypes: []Type{x.Type}}, []Type{x.Type})
	r[0].Def.Loc = Loc{File: "user.go", Line: 12}
	f.Return(r...)
	_, err := Eval(f, x)
	sxWantErr(t, err, `user.go:12: custom_call: target "my.target" has no reference evaluation`)
}

func TestEvalComposite(t *testing.T) {
	vt := TensorOf(S32, 3)
	dec := NewFunc("decomposition", vt, vt)
	m := sxBuild(t, dec, OpMultiply, dec.Params, nil, []Type{vt})[0]
	dec.Return(sxBuild(t, dec, OpAdd, []*Value{m, dec.Params[0]}, nil, []Type{vt})...)
	x, y := sxNums(S32, sxShape(3), 1, 2, 3), sxNums(S32, sxShape(3), 4, 5, 6)
	got := sxRun(t, OpComposite, CompositeAttr{Name: "test.fma", Version: 1}, []Type{vt}, []*Literal{x, y}, dec)
	sxExpect(t, got[0], sxNums(S32, sxShape(3), 5, 12, 21))
}

func TestEvalRegionErrorKeepsItsLocation(t *testing.T) {
	// An error inside a region names the op and line inside the region,
	// not the enclosing while.
	st := []Type{Scalar(S32)}
	cond := NewFunc("cond", st...)
	cond.Return(sxBuild(t, cond, OpConstant, nil, ConstantAttr{Value: MustLiteral(Scalar(Bool), []bool{true})}, []Type{Scalar(Bool)})...)
	body := NewFunc("body", st...)
	r := sxBuildRaw(body, OpCustomCall, body.Params, CustomCallAttr{Target: "inner", ResultTypes: st}, st)
	r[0].Def.Loc = Loc{File: "inner.go", Line: 7}
	body.Return(r...)
	f := NewFunc("f", st...)
	w := sxBuildRaw(f, OpWhile, f.Params, nil, st, cond, body)
	w[0].Def.Loc = Loc{File: "outer.go", Line: 3}
	f.Return(w...)
	_, err := Eval(f, sxScalarLit(S32, 0))
	var e *Error
	if !errors.As(err, &e) || e.Loc.Line != 7 || !strings.Contains(err.Error(), "inner.go:7: custom_call") {
		t.Fatalf("got %v, want the custom_call's location inner.go:7", err)
	}
}

func TestEvalControlErrors(t *testing.T) {
	st := []Type{Scalar(S32)}
	cond := NewFunc("cond", st...)
	cond.Return(cond.Params[0]) // si32, not i1
	err := sxRawErr(OpWhile, nil, st, []*Literal{sxScalarLit(S32, 1)}, cond, NewFunc("body", st...))
	sxWantErr(t, err, "cond region must return one i1 scalar")
	err = sxRawErr(OpCase, nil, nil, []*Literal{sxScalarLit(F32, 0)}, NewFunc("b"))
	sxWantErr(t, err, "want an integer scalar")
}
