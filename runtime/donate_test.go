package runtime_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

func TestAliases(t *testing.T) {
	m := ir.TensorOf(ir.F32, 2, 3)
	v := ir.TensorOf(ir.F32, 3)
	s := ir.Scalar(ir.F32)
	for _, c := range []struct {
		params, results []ir.Type
		donate          []bool
		want            string
	}{
		{[]ir.Type{m, m, s}, []ir.Type{m, s}, []bool{true}, "[0 -1 -1]"},
		// JAX's f(w, g, x) = (w - 0.1g, sum(x), 2w), donate_argnums=(0, 1).
		{[]ir.Type{m, m, v}, []ir.Type{m, s, m}, []bool{true, true, false}, "[0 2 -1]"},
		// The second donated m finds no m left; the scalar is not donated.
		{[]ir.Type{m, m, s}, []ir.Type{s, m}, []bool{true, true, false}, "[1 -1 -1]"},
		{[]ir.Type{v, m}, []ir.Type{m, v}, []bool{true, true}, "[1 0]"},
		{[]ir.Type{m}, nil, []bool{true}, "[-1]"},
	} {
		if got := fmt.Sprint(runtime.Aliases(c.params, c.results, c.donate)); got != c.want {
			t.Errorf("Aliases(%v, %v, %v) = %s, want %s", c.params, c.results, c.donate, got, c.want)
		}
	}
}

// sgdFunc is w - lr*g and sum(g), of w of type m.
func sgdFunc(t *testing.T, m ir.Type) *ir.Func {
	t.Helper()
	f := ir.NewFunc("sgd", m, m, ir.Scalar(m.DType))
	emit := func(op ir.Op, attr any, args ...*ir.Value) *ir.Value {
		v, err := f.Emit1(ir.UnknownLoc, op, args, attr)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	w, g, lr := f.Params[0], f.Params[1], f.Params[2]
	lrb := emit(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: m.Shape, Dims: []int{}}, lr)
	upd := emit(ir.OpSubtract, nil, w, emit(ir.OpMultiply, nil, lrb, g))
	f.Return(upd, emit(ir.OpNegate, nil, lr))
	return f
}

func TestRunDonated(t *testing.T) {
	d := lookup(t, "cpu:1")
	m := ir.TensorOf(ir.F32, 512, 512) // 1 MiB
	f := sgdFunc(t, m)
	params := []ir.Type{m, m, ir.Scalar(ir.F32)}
	aliases := runtime.Aliases(params, []ir.Type{m, ir.Scalar(ir.F32)}, []bool{true, false, false})
	exe, err := d.(runtime.AliasingCompiler).CompileAliased(f, aliases)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := d.(runtime.Compiler).Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	if exe.Hash() == plain.Hash() {
		t.Error("the aliased program has the hash of the plain one")
	}
	put := func(l *ir.Literal) runtime.Buffer {
		b, err := d.Put(l)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	n := m.NumElements()
	ws, gs := make([]float64, n), make([]float64, n)
	for i := range ws {
		ws[i], gs[i] = float64(i%101), float64(i%7)
	}
	g := put(ir.LiteralFromFloat64s(m, gs))
	lr := put(ir.ScalarLiteral(ir.F32, 0.5))
	check := func(what string, b runtime.Buffer, w []float64) {
		t.Helper()
		l, err := b.Literal()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		for i, x := range l.Float64s() {
			if want := float64(float32(w[i]) - 0.5*float32(gs[i])); x != want {
				t.Fatalf("%s: element %d is %v, want %v", what, i, x, want)
			}
		}
	}

	// Run without donation: the argument stays.
	w := put(ir.LiteralFromFloat64s(m, ws))
	outs, err := exe.Run([]runtime.Buffer{w, g, lr}, ir.UnknownLoc)
	if err != nil {
		t.Fatal(err)
	}
	check("not donated", outs[0], ws)
	if l, _ := w.Literal(); l.Float64s()[n-1] != ws[n-1] {
		t.Error("the argument changed without donation")
	}

	// Donated: no new buffer of w's size, and w is gone.
	before, ok := runtime.LiveBytes("cpu:1")
	if !ok {
		t.Fatal("no live byte count on cpu:1")
	}
	loc := ir.Loc{File: "/src/train.go", Line: 42}
	don := exe.(runtime.Donator)
	outs, err = don.RunDonated([]runtime.Buffer{w, g, lr}, []bool{true, false, false}, "jit @step", loc)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := runtime.LiveBytes("cpu:1")
	if grew := after - before; grew >= int64(m.NumElements()*4/2) {
		t.Errorf("a donated run grew live buffer bytes by %d: w was not reused", grew)
	}
	check("donated", outs[0], ws)
	if !w.(runtime.Freer).Freed() {
		t.Error("a donated buffer is not Freed")
	}
	_, err = w.Literal()
	var de *runtime.DonatedError
	if !errors.As(err, &de) || err.Error() != "buffer was donated to jit @step at train.go:42" {
		t.Errorf("reading a donated buffer: %v", err)
	}
	if runtime.DonatedTo(w) == nil || runtime.DonatedTo(g) != nil {
		t.Error("DonatedTo does not tell the donated buffer")
	}
	_, err = plain.Run([]runtime.Buffer{w, g, lr}, ir.UnknownLoc)
	if err == nil || !strings.Contains(err.Error(), "argument #0: buffer was donated to jit @step at train.go:42") {
		t.Errorf("running on a donated buffer: %v", err)
	}

	// Donated twice in one call: an error, nothing consumed.
	w2 := outs[0]
	_, err = don.RunDonated([]runtime.Buffer{w2, w2, lr}, []bool{true, false, false}, "", loc)
	if err == nil || !strings.Contains(err.Error(), "argument #0 is donated and also passed as argument #1") {
		t.Errorf("donating a buffer passed twice: %v", err)
	}
	if w2.(runtime.Freer).Freed() {
		t.Error("a refused donation consumed the buffer")
	}

	// A donated argument with no result of its type is released.
	outs2, err := don.RunDonated([]runtime.Buffer{w2, g, lr}, []bool{false, true, false}, "", loc)
	if err != nil {
		t.Fatal(err)
	}
	if !g.(runtime.Freer).Freed() || w2.(runtime.Freer).Freed() {
		t.Error("donating g: g should be released, w kept")
	}
	if _, err := g.Literal(); err == nil || !strings.Contains(err.Error(), "donated to @sgd at train.go:42") {
		t.Errorf("reading g donated with no name: %v", err)
	}
	outs2[0].(runtime.Freer).Free()
}
