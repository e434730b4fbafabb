package xla

import (
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// The check that grad_xla.py's interpreter computes what XLA computes:
// TestXLA's programs, every op on every element type it runs, go through
// the interpreter's eval (jax.lax primitives, jitted by jax onto the same
// XLA) at the same time as through run_xla.py, and the subtest
// TestXLA/jax_interpreter compares the two. The interpreter's derivatives
// are JAX's derivatives of the program only if its forward program is the
// one Stela ran.
//
// Bounds: bit for bit where TestXLA compares bit for bit (data movement,
// NaN payloads included), integers and i1 exactly, floats exactly but for
// NaN payloads (the interpreter lowers each op to the StableHLO op of the
// same name; grad_xla.py overrides jax's lowering where it makes another
// program, see _native_lowerings), and sums (dot_general, convolution,
// reduce and reduce_window with add, scatter-add) within TestXLA's
// sumTerms·u·Σ|terms|: the interpreter's program may sum in another order
// (lax's reductions start from the identity and add the init value after;
// window_reversal becomes lax.rev of the kernel).

// interpOffSpec lists the cases where XLA departs from the StableHLO spec
// (known_test.go's entries of kind "semantics" for them) and the
// interpreter follows the spec, as ir.Eval and Stela's derivatives do: they
// compare with ir.Eval, within TestXLA's bounds. An entry that matches no
// case fails the test.
var interpOffSpec = []*struct {
	cases *regexp.Regexp
	mode  string // as in caseDiff: "fast", "default" or "" for both
	// skip, when set, exempts the elements it is true for, where the
	// interpreter (that is, JAX) departs from the spec too.
	skip func(e elemDiff) bool
	why  string
	hits int
}{
	{cases: regexp.MustCompile(`^reduce/[^/]+/add_none$`),
		why: "reduce over no dimensions with an init value that is not an identity: XLA returns the operand; " +
			"the interpreter combines the init value with each element, as the spec does (and lax.reduce_sum " +
			"cannot take another init value)"},
	{cases: regexp.MustCompile(`^reduce_window/[^/]+/sum_dilated$`),
		why: "reduce_window with padding and an init value that is not an identity: the spec pads with the init " +
			"value, XLA skips padded positions; the interpreter pads explicitly with it"},
	{cases: regexp.MustCompile(`^(maximum|minimum|clamp|compare)/c(64|128)`), mode: "default", skip: nanOperand,
		why: "XLA's fusion emitters order complex numbers by their real parts only (known_test.go's xla-bug entry); " +
			"lax's maximum and minimum, and the interpreter's ordered compare and complex clamp built on them, " +
			"order them lexicographically, as the spec does; but for operands with a NaN part, which lax's " +
			"maximum and minimum do not propagate (they select by comparisons), where ir.Eval does"},
}

// interpRun is grad_xla.py's eval of a batch of units, started in the
// background.
type interpRun struct {
	jobs []*job
	done chan error
	once sync.Once
	err  error
}

// wait waits for the batch to end and returns its error.
func (r *interpRun) wait() error {
	r.once.Do(func() { r.err = <-r.done })
	return r.err
}

// startInterpreter starts grad_xla.py's eval of the units' programs.
func startInterpreter(t *testing.T, units []unit) *interpRun {
	r := &interpRun{done: make(chan error, 1)}
	o, err := findGradOracle()
	if err != nil {
		r.done <- err
		return r
	}
	for _, u := range units {
		r.jobs = append(r.jobs, &job{name: u.job.name, kind: jobEval, mlir: u.job.mlir, args: u.job.args, nOuts: u.job.nOuts})
	}
	dir := t.TempDir()
	if keep := os.Getenv("STELA_XLA_KEEP"); keep != "" {
		dir, _ = os.MkdirTemp(keep, "interp")
		t.Logf("interpreter batch in %s", dir)
	}
	go func() { r.done <- o.run(dir, r.jobs) }()
	// Should TestXLA end early, the process must end before its
	// directory goes (cleanups run last registered first).
	t.Cleanup(func() { r.wait() })
	return r
}

// interpUntestable are the ops whose TestXLA cases the interpreter does
// not run, with the reason.
var interpUntestable = map[ir.Op]string{
	ir.OpSort: "lax.sort takes no comparator: grad_xla.py maps the a < b comparator only, and TestXLA's sort cases use the frontend's NaN-aware orders (TestGradientsMatchJAX compares sort's derivatives on an a < b sort)",
	// jax.lax's collectives need a named axis (shard_map, pmap), which
	// grad_xla.py's interpreter does not set up; TestXLASPMD compares them
	// with XLA across devices.
	ir.OpAllReduce:         "jax.lax's collectives need a named axis",
	ir.OpAllGather:         "jax.lax's collectives need a named axis",
	ir.OpReduceScatter:     "jax.lax's collectives need a named axis",
	ir.OpAllToAll:          "jax.lax's collectives need a named axis",
	ir.OpCollectivePermute: "jax.lax's collectives need a named axis",
	ir.OpReplicaID:         "jax.lax's collectives need a named axis",
	ir.OpPartitionID:       "jax.lax's collectives need a named axis",
}

// check waits for the interpreter and compares its results with XLA's.
func (r *interpRun) check(t *testing.T, units []unit) {
	if err := r.wait(); err != nil {
		if errors.Is(err, errNoJaxlib) {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	compared := map[ir.Op]int{}
	var notRun int
	var compileS, runS float64
	for i, u := range units {
		xj, ij := u.job, r.jobs[i]
		compileS += ij.result.compileS
		runS += ij.result.runS
		if len(u.cases) > 0 {
			if _, ok := interpUntestable[u.cases[0].op]; ok {
				continue
			}
		}
		if !xj.result.ok {
			notRun += len(u.cases) // TestXLA reports it, or lists it in caseDiffs
			continue
		}
		if !ij.result.ok {
			t.Errorf("%s: grad_xla.py: %s", u.job.name, firstLines(ij.result.err, 6))
			continue
		}
		off := 0
		for _, c := range u.cases {
			n := len(c.want)
			if off+n > len(ij.result.outs) || off+n > len(xj.result.outs) {
				t.Errorf("%s: grad_xla.py gave %d results, XLA %d", c.name, len(ij.result.outs), len(xj.result.outs))
				break
			}
			if checkInterpCase(t, c, xj.result.outs[off:off+n], ij.result.outs[off:off+n]) {
				compared[c.op]++
			}
			off += n
		}
	}
	for _, e := range interpOffSpec {
		if e.hits == 0 && inMode(e.mode) {
			t.Errorf("interpOffSpec entry %q matched no case that ran: remove it or fix its pattern", e.cases)
		}
	}
	for _, op := range ir.AllOps() {
		_, no := untestable[op]
		_, noInterp := interpUntestable[op]
		if !no && !noInterp && compared[op] == 0 {
			t.Errorf("op %v has no case that ran on both XLA and the interpreter", op)
		}
	}
	t.Logf("%d programs through grad_xla.py's interpreter (compile %.1fs, run %.1fs); %d cases not compared (XLA does not run them)",
		len(r.jobs), compileS, runS, notRun)
}

// checkInterpCase compares one case's results from the interpreter (got)
// with XLA's (xla), or with ir.Eval's for the cases of interpOffSpec. It
// reports whether they were compared at all.
func checkInterpCase(t *testing.T, c *tcase, xla, got []*ir.Literal) bool {
	t.Helper()
	ref, refName, bound := xla, "XLA", 0
	var skip func(elemDiff) bool
	for _, e := range interpOffSpec {
		if inMode(e.mode) && e.cases.MatchString(c.name) {
			ref, refName, bound, skip = c.want, "ir.Eval", c.ulp, e.skip
			e.hits++
			break
		}
	}
	if c.allClose != nil {
		for k := range ref {
			if err := ir.LiteralsAllClose(got[k], ref[k], c.allClose[0], c.allClose[1]); err != nil {
				t.Errorf("%s: result #%d: interpreter vs %s: %v", c.name, k, refName, err)
			}
		}
		return true
	}
	var scale []*ir.Literal
	if c.sumTerms > 0 {
		abs := make([]*ir.Literal, len(c.in))
		for i, l := range c.in {
			abs[i] = absLit(l)
		}
		var err error
		if scale, err = ir.Eval(c.fn, abs...); err != nil {
			t.Errorf("%s: ir.Eval on |inputs|: %v", c.name, err)
			return false
		}
	}
	cc := *c
	cc.want, cc.got, cc.ulp = ref, got, bound
	diffs, err := compare(&cc, scale)
	if err != nil {
		t.Errorf("%s: interpreter vs %s: %v", c.name, refName, strings.NewReplacer("XLA", "the interpreter", "ir.Eval", refName).Replace(err.Error()))
		return false
	}
	var lines []string
	for _, e := range diffs {
		if e.within || skip != nil && skip(e) {
			continue
		}
		if len(lines) == *show {
			lines = append(lines, "...")
			break
		}
		d := ref[e.result].Type.DType
		lines = append(lines, fmt.Sprintf("result #%d[%d]: %s %s, interpreter %s", e.result, e.index,
			refName, ir.FormatElem(d, e.stela), ir.FormatElem(d, e.xla)))
	}
	if len(lines) > 0 {
		t.Errorf("%s: the interpreter disagrees with %s (bound %s):\n  %s", c.name, refName, boundWords(&cc), strings.Join(lines, "\n  "))
	}
	return true
}

// nanOperand reports whether an operand of an elementwise case has a NaN
// (part) at the element.
func nanOperand(e elemDiff) bool {
	for k := range e.in {
		z := e.inC(k)
		if math.IsNaN(real(z)) || math.IsNaN(imag(z)) {
			return true
		}
	}
	return false
}
