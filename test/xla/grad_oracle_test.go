package xla

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// JAX as the oracle for Stela's derivatives: grad_xla.py interprets a
// lowered Stela function with jax.lax primitives and runs it under jax.vjp
// or jax.jvp, so that JAX differentiates exactly the program Stela runs.
//
// Jobs are collected in a jaxBatch and run by one Python process (starting
// jax costs seconds, a job milliseconds):
//
//	var b jaxBatch
//	v := b.vjp("mlp", f, args, cts)      // cotangents of f's results
//	j := b.jvp("mlp", f, args, tangents) // tangents of f's arguments
//	b.run(t)                             // skips t when jaxlib is missing
//	v.outs, v.derivs                     // f's results, one cotangent per argument
//	j.outs, j.derivs                     // f's results, one tangent per result
//
// A value whose element type is not inexact (integers, i1) has no
// derivative in JAX: its seed is ignored (it may be nil) and its derivative
// comes back nil. jaxVJP and jaxJVP run a batch of one.

// Job kinds of grad_xla.py.
const (
	jobEval = "eval"
	jobVJP  = "vjp"
	jobJVP  = "jvp"
)

// findGradOracle returns the oracle that runs grad_xla.py, or an error
// wrapping errNoJaxlib.
func findGradOracle() (*oracle, error) {
	o, err := findOracle()
	if err != nil {
		return nil, err
	}
	if o.script, err = filepath.Abs("grad_xla.py"); err != nil {
		return nil, err
	}
	return o, nil
}

// jaxBatch collects jobs for grad_xla.py. Its zero value is empty.
type jaxBatch struct {
	jobs []*job
}

// inexact reports whether JAX differentiates values of type t.
func inexact(t ir.Type) bool { return t.DType.IsFloat() || t.DType.IsComplex() }

// add lowers f and appends a job of the given kind. A job that cannot be
// built (f does not lower, a seed is missing or of the wrong type) comes
// back failed, with its error, and is not run.
func (b *jaxBatch) add(kind, name string, f *ir.Func, args, seeds []*ir.Literal) *job {
	j := &job{name: name, kind: kind, args: args}
	fail := func(err error) *job {
		j.result = jobResult{err: fmt.Sprintf("%s: %v", name, err)}
		return j
	}
	if f == nil {
		return fail(fmt.Errorf("nil function"))
	}
	j.nOuts = len(f.Results)
	if len(args) != len(f.Params) {
		return fail(fmt.Errorf("%d arguments for %d parameters", len(args), len(f.Params)))
	}
	for i, a := range args {
		if a == nil || !a.Type.Equal(f.Params[i].Type) {
			return fail(fmt.Errorf("argument #%d is %v, parameter has type %v", i, litType(a), f.Params[i].Type))
		}
	}
	var want []ir.Type // the types of the seeds
	switch kind {
	case jobEval:
	case jobVJP:
		for _, r := range f.Results {
			want = append(want, r.Type)
		}
		j.nDerivs = len(f.Params)
	case jobJVP:
		for _, p := range f.Params {
			want = append(want, p.Type)
		}
		j.nDerivs = len(f.Results)
	default:
		return fail(fmt.Errorf("unknown job kind %q", kind))
	}
	if kind != jobEval {
		what := map[string]string{jobVJP: "cotangents for %d results", jobJVP: "tangents for %d arguments"}[kind]
		if len(seeds) != len(want) {
			return fail(fmt.Errorf("%d "+what, len(seeds), len(want)))
		}
		j.seeds = make([]*ir.Literal, len(seeds))
		for i, s := range seeds {
			if !inexact(want[i]) {
				continue // no derivative; JAX's seed is float0
			}
			if s == nil || !s.Type.Equal(want[i]) {
				return fail(fmt.Errorf("seed #%d is %v, want %v", i, litType(s), want[i]))
			}
			j.seeds[i] = s
		}
	}
	text, err := lowerText(f)
	if err != nil {
		return fail(err)
	}
	j.mlir = text
	b.jobs = append(b.jobs, j)
	return j
}

func litType(l *ir.Literal) any {
	if l == nil {
		return "nil"
	}
	return l.Type
}

// eval adds a job that runs f on args: outs are its results.
func (b *jaxBatch) eval(name string, f *ir.Func, args []*ir.Literal) *job {
	return b.add(jobEval, name, f, args, nil)
}

// vjp adds a job for jax.vjp of f at args with cts, one cotangent per
// result of f: outs are f's results, derivs the cotangents of its
// arguments.
func (b *jaxBatch) vjp(name string, f *ir.Func, args, cts []*ir.Literal) *job {
	return b.add(jobVJP, name, f, args, cts)
}

// jvp adds a job for jax.jvp of f at args with tangents, one per argument
// of f: outs are f's results, derivs the tangents of its results.
func (b *jaxBatch) jvp(name string, f *ir.Func, args, tangents []*ir.Literal) *job {
	return b.add(jobJVP, name, f, args, tangents)
}

// run runs the batch's jobs in one Python process and stores each job's
// result in it (result.ok, result.err, result.outs, result.derivs). It
// skips t when no Python with jaxlib is found and fails it when the batch
// cannot run at all; a job's own failure (an op the interpreter does not
// map, a program JAX cannot differentiate) stays in its result.
func (b *jaxBatch) run(t testing.TB) {
	t.Helper()
	if len(b.jobs) == 0 {
		return
	}
	o, err := findGradOracle()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	if keep := os.Getenv("STELA_XLA_KEEP"); keep != "" {
		dir, _ = os.MkdirTemp(keep, "grad")
		t.Logf("grad batch in %s", dir)
	}
	if err := o.run(dir, b.jobs); err != nil {
		if errors.Is(err, errNoJaxlib) {
			t.Skip(err)
		}
		t.Fatal(err)
	}
}

// jaxVJP returns f's results at args and JAX's cotangents of f's arguments
// for the cotangents cts of its results (nil for an argument whose type is
// not inexact). It runs a batch of its own; tests with several functions
// should batch them with jaxBatch, as each batch starts jax anew.
func jaxVJP(t *testing.T, f *ir.Func, args, cts []*ir.Literal) (outs, grads []*ir.Literal) {
	t.Helper()
	var b jaxBatch
	j := b.vjp(f.Name, f, args, cts)
	b.run(t)
	if !j.result.ok {
		t.Fatalf("jax.vjp of %s: %s", f.Name, j.result.err)
	}
	return j.result.outs, j.result.derivs
}

// jaxJVP returns f's results at args and JAX's tangents of its results for
// the tangents of its arguments (nil for a result whose type is not
// inexact). Like jaxVJP, it runs a batch of its own.
func jaxJVP(t *testing.T, f *ir.Func, args, tangents []*ir.Literal) (outs, tangentsOut []*ir.Literal) {
	t.Helper()
	var b jaxBatch
	j := b.jvp(f.Name, f, args, tangents)
	b.run(t)
	if !j.result.ok {
		t.Fatalf("jax.jvp of %s: %s", f.Name, j.result.err)
	}
	return j.result.outs, j.result.derivs
}
