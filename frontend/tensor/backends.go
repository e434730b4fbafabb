package tensor

import (
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/lowering"
	"github.com/stela-ml/stela/runtime"
	_ "github.com/stela-ml/stela/runtime/stelacpu" // the default device, "cpu"
	"github.com/stela-ml/stela/stablehlo"
)

// The frontend wires the runtime: it registers Stela's CPU plugin as the
// "cpu" family (the import of runtime/stelacpu above, for its effect) and
// gives the runtime package lowering's Lower, which the runtime may not
// import (docs/runtime.md, "Backends").
func init() { runtime.SetLowering(lowerForRuntime) }

// lowerForRuntime is lowering.Lower with the options the runtime's
// compile driver decides.
func lowerForRuntime(f *ir.Func, o runtime.LowerOptions) (*stablehlo.Module, error) {
	return lowering.Lower(f, lowering.Options{NumReplicas: o.NumReplicas, NumPartitions: o.NumPartitions, Aliases: o.Aliases, Annotate: o.Annotate})
}
