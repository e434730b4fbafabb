package ir_test

import (
	"path/filepath"
	"reflect"
	goruntime "runtime"
	"sync"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// here is the test's own location: the line that calls it.
func here() ir.Loc {
	_, file, line, _ := goruntime.Caller(1)
	return ir.Loc{File: file, Line: line}
}

// bothLocs finds the caller's location both ways CallerLoc can.
type bothLocs struct{ fp, callers ir.Loc }

func (b bothLocs) check(t *testing.T, name string, want ir.Loc) {
	t.Helper()
	if !b.fp.Equal(b.callers) {
		t.Errorf("%s: the frame pointer walk found %v, runtime.Callers %v", name, b.fp, b.callers)
	}
	if want.IsKnown() && (filepath.Base(b.fp.File) != filepath.Base(want.File) || b.fp.Line != want.Line) {
		t.Errorf("%s: found %v, want %v", name, b.fp, want)
	}
}

// TestCallerLocWalk: on amd64 CallerLoc follows the frame pointers; it
// must find the frame runtime.Callers finds, through closures, reflect,
// goroutines, deferred calls during a panic, inlined helpers and deep
// recursion.
func TestCallerLocWalk(t *testing.T) {
	var b bothLocs
	b.fp, b.callers = ir.FPCallerLocForTest(), ir.CallersLocForTest()
	want := here()
	want.Line--
	b.check(t, "direct", want)

	var at ir.Loc
	f := func() bothLocs {
		at = here()
		at.Line += 2 // the return's
		return bothLocs{ir.FPCallerLocForTest(), ir.CallersLocForTest()}
	}
	b = f()
	b.check(t, "closure", at)

	out := reflect.ValueOf(f).Call(nil)
	out[0].Interface().(bothLocs).check(t, "reflect.Value.Call", at)

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		b = f()
	}()
	wg.Wait()
	b.check(t, "goroutine", at)

	func() {
		defer func() {
			recover()
			b = f()
		}()
		var m map[string]int
		m["x"] = 1 // panics
	}()
	b.check(t, "deferred during a panic", at)

	b = inlined()
	b.check(t, "inlined helper", ir.Loc{})

	b = deep(40)
	b.check(t, "deep recursion", ir.Loc{})
}

func inlined() bothLocs { return bothLocs{ir.FPCallerLocForTest(), ir.CallersLocForTest()} }

func deep(n int) bothLocs {
	if n == 0 {
		return bothLocs{ir.FPCallerLocForTest(), ir.CallersLocForTest()}
	}
	return deep(n - 1)
}
