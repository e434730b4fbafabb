package xla

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/ir"
)

var (
	verbose = flag.Bool("xla.v", false, "log the op/type pairs that agree and the measured ULP table")
	measure = flag.Bool("xla.measure", false, "ignore ulpBounds (accept any finite distance) and log the largest ULP distances measured")
	show    = flag.Int("xla.show", 8, "how many disagreeing elements to print per case")
)

// TestXLA is the differential test: every case on ir.Eval and on XLA.
func TestXLA(t *testing.T) {
	if testing.Short() {
		t.Skip("XLA's compiler takes about 20 s here; skipped in -short mode")
	}
	start := time.Now()
	o, err := findOracle()
	if err != nil {
		t.Skip(err)
	}
	all := append(opCases(), exampleCases(t)...)

	// Build and evaluate every case on its own.
	var cases []*tcase
	rejected := map[string]bool{}
	for _, c := range all {
		if _, ok := skipped[c.name]; ok {
			continue
		}
		if err := c.prepare(); err != nil {
			if c.rejected && c.sweep {
				if c.elementwise || c.op == ir.OpBitcastConvert || c.op == ir.OpConvert {
					rejected[strings.Join(strings.Split(c.name, "/")[:min(3, strings.Count(c.name, "/")+1)], " ")] = true
				}
				continue // the op does not take this element type
			}
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		cases = append(cases, c)
	}
	evalDone := time.Now()

	// Group cases into jobs: one per group, except the programs XLA is
	// known to refuse, which get one each so they cannot hide others.
	groups := map[string][]*tcase{}
	var order []string
	for _, c := range cases {
		g := c.op.String()
		if c.fixed != nil || caseDiffFor(c) != nil {
			g = c.name
		}
		if _, ok := groups[g]; !ok {
			order = append(order, g)
		}
		groups[g] = append(groups[g], c)
	}
	var units []unit
	for _, g := range order {
		cs := groups[g]
		j, err := makeJob(g, cs)
		if err != nil && len(cs) > 1 {
			// Find the case that breaks lowering.
			for _, c := range cs {
				if j, err := makeJob(c.name, []*tcase{c}); err != nil {
					t.Errorf("%s: %v", c.name, err)
				} else {
					units = append(units, unit{j, []*tcase{c}})
				}
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", g, err)
			continue
		}
		units = append(units, unit{j, cs})
	}
	lowerDone := time.Now()
	// The same programs through grad_xla.py's interpreter, at the same
	// time; the subtest jax_interpreter compares its results with XLA's.
	interp := startInterpreter(t, units)

	runBatch := func(us []unit) {
		jobs := make([]*job, len(us))
		for i, u := range us {
			jobs[i] = u.job
		}
		dir := t.TempDir()
		if keep := os.Getenv("STELA_XLA_KEEP"); keep != "" {
			// For debugging: the programs, inputs and outputs stay there.
			dir, _ = os.MkdirTemp(keep, "batch")
			t.Logf("batch in %s", dir)
		}
		if err := o.run(dir, jobs); err != nil {
			if errors.Is(err, errNoJaxlib) {
				t.Skip(err)
			}
			t.Fatal(err)
		}
	}
	runBatch(units)
	// A failed job of several cases is split, so that the failure names
	// its case and the others still run.
	var retry, final []unit
	for _, u := range units {
		if !u.job.result.ok && len(u.cases) > 1 {
			t.Logf("job %s (%d cases) failed, rerunning its cases one by one: %s", u.job.name, len(u.cases), firstLines(u.job.result.err, 2))
			for _, c := range u.cases {
				j, err := makeJob(c.name, []*tcase{c})
				if err != nil {
					t.Errorf("%s: %v", c.name, err)
					continue
				}
				retry = append(retry, unit{j, []*tcase{c}})
			}
			continue
		}
		final = append(final, u)
	}
	if len(retry) > 0 {
		t.Logf("%d cases rerun one by one after their jobs failed", len(retry))
		runBatch(retry)
		final = append(final, retry...)
	}
	xlaDone := time.Now()
	var compileS, runS float64
	for _, u := range final {
		compileS += u.job.result.compileS
		runS += u.job.result.runS
	}

	// Hand each case its outputs and compare.
	st := &stats{max: map[string]uint64{}, worst: map[string]string{}}
	ran := map[ir.Op]int{}
	agreeing := map[string]bool{}
	for _, u := range final {
		res := u.job.result
		off := 0
		for _, c := range u.cases {
			cd := caseDiffFor(c)
			if !res.ok {
				if cd != nil && cd.err.MatchString(res.err) {
					cd.hits++
				} else {
					t.Errorf("%s: XLA: %s", c.name, firstLines(res.err, 6))
				}
				continue
			}
			c.got = res.outs[off : off+len(c.want)]
			off += len(c.want)
			ran[c.op]++
			if checkCase(t, c, st, cd) && c.fixed == nil {
				agreeing[c.op.String()+" "+c.dtype.String()] = true
			}
		}
	}
	for _, k := range knownDiffs {
		if k.hits == 0 && inMode(k.mode) {
			t.Errorf("known difference %q (%s) matched nothing: remove it or fix its pattern", k.cases, k.why)
		}
	}
	for _, k := range caseDiffs {
		if k.hits == 0 && inMode(k.mode) {
			t.Errorf("case difference %q (%s) did not happen: remove the entry", k.cases, k.why)
		}
	}
	for _, op := range ir.AllOps() {
		if _, ok := untestable[op]; ok {
			if ran[op] > 0 {
				t.Errorf("%v is listed as untestable but has cases", op)
			}
			continue
		}
		if ran[op] == 0 {
			t.Errorf("op %v has no case that ran on XLA", op)
		}
	}
	if *verbose {
		var b strings.Builder
		for _, k := range knownDiffs {
			if len(k.seen) == 0 {
				continue
			}
			var names []string
			for n, c := range k.seen {
				names = append(names, fmt.Sprintf("%s(%d)", n, c))
			}
			sort.Strings(names)
			fmt.Fprintf(&b, "  [%s] %s\n      %s\n", k.kind, k.cases, strings.Join(names, " "))
		}
		t.Logf("known differences seen:\n%s", b.String())
	}
	if *verbose || *measure {
		var keys []string
		for k := range agreeing {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		t.Logf("op/element type pairs with every case agreeing (%d):\n%s", len(keys), strings.Join(keys, ", "))
		keys = keys[:0]
		for k := range rejected {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		t.Logf("op/element type pairs that ir's type rules reject (not run; %d):\n%s", len(keys), strings.Join(keys, ", "))
		t.Logf("largest ULP distances measured (outside known differences):\n%s", st.table())
	}
	t.Logf("%d cases in %d XLA programs; eval %.1fs, lower %.1fs, XLA batch %.1fs (compile %.1fs, run %.1fs), total %.1fs",
		len(cases), len(final), evalDone.Sub(start).Seconds(), lowerDone.Sub(evalDone).Seconds(),
		xlaDone.Sub(lowerDone).Seconds(), compileS, runS, time.Since(start).Seconds())
	t.Run("jax_interpreter", func(t *testing.T) { interp.check(t, units) })
}

// unit is a job of one or more cases: their programs in one, each case's
// parameters and results after the previous case's.
type unit struct {
	job   *job
	cases []*tcase
}

// caseDiffFor returns the caseDiffs entry for c, or nil.
func caseDiffFor(c *tcase) *caseDiff {
	for _, r := range caseDiffs {
		if inMode(r.mode) && r.cases.MatchString(c.name) {
			return r
		}
	}
	return nil
}

// checkCase compares one case and reports every disagreement that no known
// difference covers. It returns whether the case agreed fully. cd is the
// case's entry in caseDiffs, which a type mismatch may match.
func checkCase(t *testing.T, c *tcase, st *stats, cd *caseDiff) bool {
	t.Helper()

	if c.allClose != nil {
		for k := range c.want {
			if err := ir.LiteralsAllClose(c.got[k], c.want[k], c.allClose[0], c.allClose[1]); err != nil {
				t.Errorf("%s: result #%d: XLA vs ir.Eval: %v", c.name, k, err)
				return false
			}
			if *verbose {
				g, w := c.got[k].Float64s(), c.want[k].Float64s()
				var maxAbs, maxRel float64
				for i := range w {
					d := math.Abs(g[i] - w[i])
					maxAbs = max(maxAbs, d)
					if w[i] != 0 {
						maxRel = max(maxRel, d/math.Abs(w[i]))
					}
				}
				t.Logf("%s: %d elements, largest difference %.3g absolute, %.3g relative (tolerance atol %g, rtol %g)",
					c.name, len(w), maxAbs, maxRel, c.allClose[0], c.allClose[1])
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
	diffs, err := compare(c, scale)
	if err != nil {
		if cd != nil && cd.err.MatchString(err.Error()) {
			cd.hits++
			return false
		}
		t.Errorf("%s: %v", c.name, err)
		return false
	}
	if cd != nil {
		t.Errorf("%s: XLA now runs it and answers with the right type (listed in caseDiffs: %s); remove the entry", c.name, cd.why)
	}
	var unknown []elemDiff
	agree := true
	for _, e := range diffs {
		covered := false
		for _, k := range knownDiffs {
			if k.covers(e) {
				if !e.within {
					k.hits++
				}
				if k.seen == nil {
					k.seen = map[string]int{}
				}
				k.seen[c.name]++
				covered = true
				break
			}
		}
		switch {
		case covered:
			agree = agree && e.within
		case e.within:
			st.note(e)
		default:
			unknown = append(unknown, e)
		}
	}
	if len(unknown) > 0 {
		var lines []string
		for i, e := range unknown {
			if i == *show {
				lines = append(lines, fmt.Sprintf("... and %d more", len(unknown)-*show))
				break
			}
			lines = append(lines, e.String())
		}
		t.Errorf("%d elements disagree (bound %s):\n  %s", len(unknown), boundWords(c), strings.Join(lines, "\n  "))
	}
	return agree && len(unknown) == 0
}

func boundWords(c *tcase) string {
	switch {
	case c.bits:
		return "bit-identical"
	case c.sumTerms > 0:
		return fmt.Sprintf("%d·u·Σ|terms| + 1 ulp", c.sumTerms)
	case c.ulp >= 0:
		return fmt.Sprintf("%d ulp", c.ulp)
	}
	return fmt.Sprintf("%d ulp", ulpBound(c.op, c.dtype))
}

// absLit is |l| elementwise (per part for complex); other types unchanged.
func absLit(l *ir.Literal) *ir.Literal {
	d := l.Type.DType
	switch {
	case d.IsFloat():
		v := l.Float64s()
		for i := range v {
			v[i] = math.Abs(v[i])
		}
		return ir.LiteralFromFloat64s(l.Type, v)
	case d.IsComplex():
		v := l.Complex128s()
		for i := range v {
			v[i] = complex(math.Abs(real(v[i])), math.Abs(imag(v[i])))
		}
		return ir.LiteralFromComplex128s(l.Type, v)
	}
	return l
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, "\n")
}

// opCases lists every op's cases.
func opCases() []*tcase {
	var cs []*tcase
	cs = append(cs, elementwiseCases()...)
	cs = append(cs, structuralCases()...)
	cs = append(cs, collectiveCases()...)
	cs = append(cs, shardingConstraintCases()...)
	return cs
}

// exampleCases are the built-in examples, traced, on their deterministic
// inputs, in configs small enough for ir.Eval (those of the examples'
// own tests). Whole networks compare with a tolerance: XLA reorders and
// fuses their sums and uses its own transcendentals.
func exampleCases(t *testing.T) []*tcase {
	var cs []*tcase
	for _, ex := range []examples.Example{
		examples.DefaultMLP(),
		&examples.CNN{Batch: 2, Height: 12, Width: 10, Channels: 2, C1: 4, C2: 8, Classes: 10},
		examples.SmallTransformer(),
	} {
		r, err := examples.Trace(ex)
		if err != nil {
			t.Errorf("%s: %v", ex.Name(), err)
			continue
		}
		var in []*ir.Literal
		for _, x := range ex.Inputs(1) {
			in = append(in, x.Literal())
		}
		cs = append(cs, &tcase{name: "example/" + ex.Name(), op: ir.OpInvalid, in: in, fixed: r.Func,
			allClose: &[2]float64{exampleTol[ex.Name()][0], exampleTol[ex.Name()][1]}})
	}
	return cs
}
