package passes_test

// The examples are traced by the frontend, which imports passes (jit runs
// them), so this test lives in the external test package.

import (
	"testing"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes"
)

func TestDifferentialExamples(t *testing.T) {
	for _, ex := range examples.All() {
		t.Run(ex.Name(), func(t *testing.T) {
			tr, err := examples.Trace(ex)
			if err != nil {
				t.Fatal(err)
			}
			var args []*ir.Literal
			if ex.Name() != "gpt2-small" {
				for _, in := range ex.Inputs(1) {
					args = append(args, in.Literal())
				}
			}
			f := tr.Func
			n0 := passes.CountOps(f)
			if ex.Name() == "gpt2-small" {
				// The reference evaluator needs minutes for it: check that
				// the pipeline runs and verifies, and compare only the small configs.
				m := &ir.Module{Funcs: []*ir.Func{f}}
				if _, err := passes.Run(m, passes.Default, passes.Options{VerifyEach: true, ReproDir: t.TempDir()}); err != nil {
					t.Fatal(err)
				}
			} else {
				passes.CheckSame(t, f, args)
			}
			t.Logf("%s: %d ops before the default pipeline, %d after", ex.Name(), n0, passes.CountOps(f))
		})
	}
}
