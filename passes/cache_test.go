package passes

import (
	"strings"
	"testing"

	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/ir"
)

func fullText(m *ir.Module) string {
	var b strings.Builder
	ir.PrintModule(&b, m, ir.PrintOptions{Locations: true, StableNames: true})
	return b.String()
}

// TestRunCache: running a pipeline on a module with the text of one it
// ran on gives the same output, from the cache, in the caller's own
// function objects; a copy that differs only in a sharding or the mesh is
// not served by it; what a caller does to its output does not reach the
// cache; runs that verify or print run the passes.
func TestRunCache(t *testing.T) {
	if env.Debug().Verify || env.Debug().Shuffle || env.Log().Remarks {
		t.Skip("STELA_DEBUG=verify/shuffle or STELA_LOG=remarks turn the run cache off")
	}
	const src = `func @mlp(%0: f32[8,16], %1: f32[16,32] sharding [{}, {"model"}], %2: f32[32,16] sharding [{"model"}, {}]) -> f32[8,16] mesh ["model"=4] {
  %3 = dot_general %0, %1 {lhs_batch = [], rhs_batch = [], lhs_contract = [1], rhs_contract = [0]} : f32[8,32]
  %4 = tanh %3 : f32[8,32]
  %5 = tanh %3 : f32[8,32]
  %6 = add %4, %5 : f32[8,32]
  %7 = dot_general %6, %2 {lhs_batch = [], rhs_batch = [], lhs_contract = [1], rhs_contract = [0]} : f32[8,16]
  return %7
}`
	pipeline := []*Pass{CSE, ShardingPropagation, DCE}
	run := func(src string, opts Options) (*ir.Module, *ir.Func, *Result) {
		t.Helper()
		f := mustParse(t, src)
		m := &ir.Module{Funcs: []*ir.Func{f}}
		res, err := Run(m, pipeline, opts)
		if err != nil {
			t.Fatal(err)
		}
		if m.Funcs[0] != f {
			t.Fatalf("the module's function was replaced, not rewritten in place")
		}
		if err := m.Verify(); err != nil {
			t.Fatalf("output does not verify: %v", err)
		}
		return m, f, res
	}
	// A module this test alone uses (a name of its own): the first run
	// fills the cache.
	mine := strings.Replace(src, "@mlp", "@run_cache_test", 1)
	m1, _, r1 := run(mine, Options{})
	if r1.Cached {
		t.Fatalf("first run was served by the cache")
	}
	want := fullText(m1)
	if !strings.Contains(want, `sharded [{}, {"model"}]`) || strings.Count(want, "tanh") != 1 {
		t.Fatalf("the pipeline did not run as expected:\n%s", want)
	}
	m2, f2, r2 := run(mine, Options{})
	if !r2.Cached {
		t.Errorf("second run on the same text was not served by the cache")
	}
	if got := fullText(m2); got != want {
		t.Errorf("cached output:\n%s\nwant\n%s", got, want)
	}
	// Changing the output changes no later run's.
	f2.Name = "changed"
	f2.Body = f2.Body[:0]
	if m3, _, _ := run(mine, Options{}); fullText(m3) != want {
		t.Errorf("a caller's change to its output reached the cache:\n%s", fullText(m3))
	}
	// Other shardings, another mesh: not the cached program.
	for _, other := range []string{
		strings.Replace(mine, `%1: f32[16,32] sharding [{}, {"model"}]`, `%1: f32[16,32] sharding [{"model"}, {}]`, 1),
		strings.Replace(mine, `mesh ["model"=4]`, `mesh ["model"=2]`, 1),
	} {
		m, _, r := run(other, Options{})
		if r.Cached || fullText(m) == want {
			t.Errorf("a module with other shardings was served the cached output (cached %v):\n%s", r.Cached, other)
		}
	}
	// Runs that check or print run the passes.
	if _, _, r := run(mine, Options{VerifyEach: true}); r.Cached {
		t.Errorf("a run with VerifyEach was served by the cache")
	}
	var out strings.Builder
	if _, _, r := run(mine, Options{PrintAfter: []string{"all"}, Out: &out}); r.Cached || out.Len() == 0 {
		t.Errorf("a run that prints was served by the cache (cached %v, printed %d bytes)", r.Cached, out.Len())
	}
}
