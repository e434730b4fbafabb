package lowering

import (
	"testing"

	"github.com/stela-ml/stela/stablehlo"
)

// TestOpTableImport: the ops StableHLO's op table says the evaluator runs
// (OpDef.Evaluator) are exactly those Import has a rule for, and every
// rule is for an op of the table.
func TestOpTableImport(t *testing.T) {
	for _, d := range stablehlo.OpDefs() {
		if d.Name == "func.return" || d.Name == "stablehlo.return" {
			continue // terminators end a body; they have no rule
		}
		if stablehlo.Refinable(d.Name) || d.Kernel == stablehlo.KernelRefined {
			// Import rewrites them first (Module.RefineKnownShapes,
			// LowerQuant).
			if !d.Evaluator || CanImport(d.Name) {
				t.Errorf("%s: refined before import: want Evaluator and no rule of its own", d.Name)
			}
			continue
		}
		if d.Evaluator != CanImport(d.Name) {
			t.Errorf("%s: the op table says Evaluator=%v, Import has a rule: %v", d.Name, d.Evaluator, CanImport(d.Name))
		}
	}
	for name := range importRules {
		if _, ok := stablehlo.LookupOp(name); !ok {
			t.Errorf("Import has a rule for %s, which is not in StableHLO's op table", name)
		}
	}
}
