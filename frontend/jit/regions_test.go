package jit_test

import (
	"sync"
	"testing"

	"github.com/stela-ml/stela/frontend/jit"
	T "github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes"
)

// count counts the instructions of op directly in f (not in its regions).
func count(f *ir.Func, op ir.Op) int {
	n := 0
	for _, in := range f.Body {
		if in.Op == op {
			n++
		}
	}
	return n
}

func find(f *ir.Func, op ir.Op) *ir.Instr {
	for _, in := range f.Body {
		if in.Op == op {
			return in
		}
	}
	return nil
}

// A branch that uses only tensors from outside it is recorded before the
// case (ops record where their operands are), and the pipeline moves it
// into the branch: only the branch taken does the work.
func TestBranchOpsStayInBranches(t *testing.T) {
	f, err := jit.Trace(func(x, p *T.Tensor) *T.Tensor {
		return T.Cond(p,
			func() []*T.Tensor { return []*T.Tensor{T.Exp(x)} },
			func() []*T.Tensor { return []*T.Tensor{T.MatMul(x, x)} })[0]
	}, ir.TensorOf(ir.F32, 3, 3), ir.Scalar(ir.Bool))
	if err != nil {
		t.Fatal(err)
	}
	m := &ir.Module{Funcs: []*ir.Func{f}}
	if _, err := passes.Run(m, passes.Default, passes.Options{VerifyEach: true}); err != nil {
		t.Fatal(err)
	}
	if count(f, ir.OpExp) != 0 || count(f, ir.OpDotGeneral) != 0 {
		t.Fatalf("branch ops were hoisted out of the case:\n%v", f)
	}
	c := find(f, ir.OpCase)
	if c == nil || count(c.Regions[0], ir.OpExp) != 1 || count(c.Regions[1], ir.OpDotGeneral) != 1 {
		t.Fatalf("want exponential in branch 0 and dot_general in branch 1:\n%v", f)
	}
	if err := ir.Verify(f); err != nil {
		t.Fatal(err)
	}
}

// Inside a traced function, an op on concrete tensors only runs when it
// is called, as it would outside (the trace is carried by tensors, not
// by the goroutine): its result is what the program captures.
func TestConcreteOpsInsideTraceRunAtTraceTime(t *testing.T) {
	var w2 *T.Tensor
	r, err := jit.TraceFull(func(x *T.Tensor) *T.Tensor {
		w2 = T.Add(weight, weight)
		return T.MatMul(x, w2)
	}, ir.TensorOf(ir.F32, 2, 3))
	if err != nil {
		t.Fatal(err)
	}
	if count(r.Func, ir.OpAdd) != 0 || len(r.Captured) != 1 || r.Captured[0] != w2 || w2.Traced() {
		t.Fatalf("want the concrete sum captured; captured %v:\n%v", r.Captured, r.Func)
	}
}

// Traces on different goroutines do not see each other.
func TestConcurrentTraces(t *testing.T) {
	fn := func(x, p *T.Tensor) []*T.Tensor {
		y := T.Cond(p,
			func() []*T.Tensor { return []*T.Tensor{T.Tanh(x)} },
			func() []*T.Tensor { return []*T.Tensor{T.Neg(x)} })
		return T.While(
			func(s []*T.Tensor) *T.Tensor { return T.Less(T.Sum(s[0]), T.ScalarLike(s[0], 100)) },
			func(s []*T.Tensor) []*T.Tensor { return []*T.Tensor{T.Add(T.Abs(s[0]), T.OnesLike(x))} },
			y[0])
	}
	in := []*T.Tensor{ramp(4), T.Scalar(true)}
	want, err := jit.Call(fn, in...)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				r, err := jit.TraceFull(fn, typesOf(in)...)
				if err == nil {
					err = ir.Verify(r.Func)
				}
				if err != nil {
					errs <- err
					return
				}
				got, err := r.Call(in...)
				if err != nil {
					errs <- err
					return
				}
				if !ir.LiteralEqual(got[0].Literal(), want[0].Literal()) {
					t.Errorf("traced on a goroutine: %v, want %v", got[0], want[0])
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
