package jit_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stela-ml/stela/frontend/jit"
	. "github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/internal/pyenv"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/ir/npy"
)

// TestSortMatchesJAX checks the sort functions against JAX itself, on
// every element type: jnp.sort, jnp.argsort (both ascending and
// descending), jax.lax.sort with two keys and jax.lax.top_k, on keys with
// many ties, NaNs of both signs, signed zeros and infinities, along both
// axes. A sort only moves elements, so results must match bit for bit
// (NaN payloads and the sign of zero included). It runs on the default
// device (the CPU plugin) and on the reference evaluator ("host"). It
// skips when Python has no jax (STELA_JAXLIB_PYTHONPATH, as test/xla).
func TestSortMatchesJAX(t *testing.T) {
	if testing.Short() {
		t.Skip("starting JAX takes seconds")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(17, 3))
	type input struct {
		d    ir.DType
		x, y *ir.Literal
	}
	var ins []input
	for _, d := range ir.AllDTypes {
		in := input{d: d, x: sortSample(r, ir.TensorOf(d, 4, 9)), y: sortSample(r, ir.TensorOf(d, 4, 9))}
		ins = append(ins, in)
		for name, l := range map[string]*ir.Literal{"x": in.x, "y": in.y} {
			if err := npy.WriteFile(filepath.Join(dir, fmt.Sprintf("%v_%s.npy", d, name)), l); err != nil {
				t.Fatal(err)
			}
		}
	}
	start := time.Now()
	cmd := exec.Command(py, "-c", sortJAXScript, dir)
	// XLA at -O0 compiles several times faster and computes the same
	// (test/xla's fastXLAFlags); a sort only compares and moves.
	cmd.Env = append(pyenv.Environ(), "XLA_FLAGS=--xla_backend_optimization_level=0")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// JAX runs while Stela computes; its results are read at the end.
	jaxDone := func() {
		if err := cmd.Wait(); err != nil {
			if bytes.Contains(out.Bytes(), []byte("ModuleNotFoundError")) {
				t.Skipf("python3 has no jax (set STELA_JAXLIB_PYTHONPATH): %s", lastLine(out.Bytes()))
			}
			t.Fatalf("JAX: %v\n%s", err, out.Bytes())
		}
		t.Logf("JAX: %v", time.Since(start))
	}
	// sortAll computes every result, for every element type, in one
	// function: run eagerly on the reference evaluator, and compiled once
	// for the CPU plugin.
	var names []string
	var from []*ir.Literal // the x of each result
	sortAll := func(in []*Tensor) []*Tensor {
		names, from = names[:0], from[:0]
		var outs []*Tensor
		for k, c := range ins {
			add := func(d ir.DType, name string, t *Tensor) {
				names = append(names, fmt.Sprintf("%v_%s", d, name))
				from = append(from, c.x)
				outs = append(outs, t)
			}
			x, y := in[2*k], in[2*k+1]
			for _, axis := range []int{0, -1} {
				add(c.d, fmt.Sprint("sort_", axis), Sort(x, axis))
				add(c.d, fmt.Sprint("argsort_", axis), ArgSort(x, axis))
				add(c.d, fmt.Sprint("sort_desc_", axis), SortDescending(x, axis))
				add(c.d, fmt.Sprint("argsort_desc_", axis), ArgSortDescending(x, axis))
				two := SortMany([]*Tensor{x, y, ArgSort(x, axis)}, axis, 2)
				for j, o := range two {
					add(c.d, fmt.Sprintf("lex%d_%d", j, axis), o)
				}
			}
			if !c.d.IsComplex() {
				v, i := TopK(x, 5)
				add(c.d, "topk_values", v)
				add(c.d, "topk_indices", i)
			}
		}
		return outs
	}
	var host, cpu []*Tensor
	for _, c := range ins {
		host = append(host, FromLiteral(c.x).To("host"), FromLiteral(c.y).To("host"))
		cpu = append(cpu, FromLiteral(c.x), FromLiteral(c.y))
	}
	type result struct {
		what string
		got  []*Tensor
	}
	var results []result
	for _, run := range []struct {
		what string
		fn   func([]*Tensor) []*Tensor
		in   []*Tensor
	}{{"eager on host", sortAll, host}, {"compiled for cpu", jit.Compile(sortAll), cpu}} {
		var got []*Tensor
		start := time.Now()
		if err := Catch(func() { got = run.fn(run.in) }); err != nil {
			cmd.Process.Kill()
			t.Fatalf("%s: %v", run.what, err)
		}
		t.Logf("%s: %v", run.what, time.Since(start))
		results = append(results, result{run.what, got})
	}
	jaxDone()
	for _, r := range results {
		for i, g := range r.got {
			want, err := npy.ReadFile(filepath.Join(dir, names[i]+".out.npy"))
			if err != nil {
				t.Fatal(err)
			}
			if err := sameBits(g.Literal(), want); err != nil {
				t.Errorf("%s: %s: %v\n  x = %v", r.what, names[i], err, from[i].Data)
			}
		}
	}
}

// sortJAXScript computes what TestSortMatchesJAX compares with, from
// DTYPE_x.npy and DTYPE_y.npy in the directory argv[1]. Indices are
// written as int32 (JAX's are int64 in x64 mode, which the 64-bit types
// need); bfloat16 travels as numpy's '<V2', as in test/xla.
const sortJAXScript = `
import glob, os, sys
import numpy as np
import ml_dtypes
import jax
jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")
import jax.numpy as jnp
from jax import lax

@jax.jit
def sorts(x, y):
    out = {}
    for axis in (0, -1):
        out["sort_%d" % axis] = jnp.sort(x, axis=axis)
        out["argsort_%d" % axis] = jnp.argsort(x, axis=axis).astype(np.int32)
        out["sort_desc_%d" % axis] = jnp.sort(x, axis=axis, descending=True)
        out["argsort_desc_%d" % axis] = jnp.argsort(x, axis=axis, descending=True).astype(np.int32)
        a, b, c = lax.sort((x, y, jnp.argsort(x, axis=axis).astype(np.int32)), dimension=axis, num_keys=2)
        out["lex0_%d" % axis], out["lex1_%d" % axis], out["lex2_%d" % axis] = a, b, c
    if not jnp.issubdtype(x.dtype, jnp.complexfloating):
        v, i = lax.top_k(x, 5)
        out["topk_values"], out["topk_indices"] = v, i.astype(np.int32)
    return out

d = sys.argv[1]
for path in sorted(glob.glob(os.path.join(d, "*_x.npy"))):
    dt = os.path.basename(path)[:-len("_x.npy")]
    load = lambda p: np.load(p).view(ml_dtypes.bfloat16) if dt == "bf16" else np.load(p)
    out = sorts(load(path), load(os.path.join(d, dt + "_y.npy")))
    for name, v in out.items():
        np.save(os.path.join(d, "%s_%s.out.npy" % (dt, name)), np.asarray(v))
`

// sortSample is a literal of type t drawn from a few values of the type,
// so that ties are common, with NaNs of both signs, signed zeros and
// infinities for floats (per part for complex) and the extremes for
// integers.
func sortSample(r *rand.Rand, t ir.Type) *ir.Literal {
	n := t.NumElements()
	d := t.DType
	floats := []float64{0, math.Copysign(0, -1), 1, -1, 2.5, -7, math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(math.NaN(), -1), 1e-3}
	switch {
	case d.IsComplex():
		v := make([]complex128, n)
		for i := range v {
			v[i] = complex(floats[r.IntN(len(floats))], floats[r.IntN(4)])
		}
		return ir.LiteralFromComplex128s(t, v)
	case d.IsFloat():
		v := make([]float64, n)
		for i := range v {
			v[i] = floats[r.IntN(len(floats))]
		}
		return ir.LiteralFromFloat64s(t, v)
	case d == ir.Bool:
		v := make([]bool, n)
		for i := range v {
			v[i] = r.IntN(2) == 0
		}
		return ir.LiteralFromBools(t, v)
	case d.IsUnsigned():
		v := make([]uint64, n)
		for i := range v {
			v[i] = []uint64{0, 1, 2, 200, math.MaxUint64}[r.IntN(5)] // wraps to the type
		}
		return ir.LiteralFromUint64s(t, v)
	}
	pool := []int64{0, 1, -1, 3, math.MinInt64 >> (64 - d.Bits()), math.MaxInt64 >> (64 - d.Bits())}
	v := make([]int64, n)
	for i := range v {
		v[i] = pool[r.IntN(len(pool))]
	}
	return ir.LiteralFromInt64s(t, v)
}

// sameBits compares two literals bit for bit, as their memory images.
func sameBits(got, want *ir.Literal) error {
	if !got.Type.Equal(want.Type) {
		return fmt.Errorf("type %v, want %v", got.Type, want.Type)
	}
	gb, wb := got.Bytes(), want.Bytes()
	sz := want.Type.DType.Size()
	for i := 0; i < len(wb); i += sz {
		if !bytes.Equal(gb[i:i+sz], wb[i:i+sz]) {
			return fmt.Errorf("element %d is %v (% x), want %v (% x)", i/sz, got.Elem(i/sz), gb[i:i+sz], want.Elem(i/sz), wb[i:i+sz])
		}
	}
	return nil
}

func lastLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	return s[strings.LastIndexByte(s, '\n')+1:]
}
