package codegen_test

import (
	"testing"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/pjrt/cpu/codegen"
)

// TestPeakTemporaryMemory reports the GPT-2 block's peak temporary memory
// (the arena) and checks that buffer planning reuses dead intermediates:
// the arena must be well below the sum of the intermediates it holds.
func TestPeakTemporaryMemory(t *testing.T) {
	for _, ex := range []examples.Example{examples.SmallTransformer(), examples.GPT2Small()} {
		src := exampleStableHLO(t, ex)
		for _, opts := range []codegen.Options{{}, {NoFusion: true}} {
			p := planText(t, src, opts)
			arena, all := p.ArenaBytes(), p.IntermediateBytes()
			t.Logf("%s (fusion %v): %d kernels, peak temporary memory %.2f MiB, %.2f MiB without reuse",
				ex.Name(), !opts.NoFusion, p.Kernels(), float64(arena)/(1<<20), float64(all)/(1<<20))
			if arena <= 0 || 2*arena > all {
				t.Errorf("%s: arena %d bytes for %d bytes of intermediates: want reuse to at least halve it", ex.Name(), arena, all)
			}
		}
	}
}
