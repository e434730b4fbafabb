package passes

import (
	"github.com/stela-ml/stela/ir"
)

// DCE removes pure instructions none of whose results are used, walking
// backwards so that whole dead chains go in one run. Side-effecting
// instructions stay. Regions are cleaned too; their parameters and results
// are their interface and stay.
var DCE = &Pass{
	Name: "dce",
	Doc:  "remove pure instructions whose results are unused (dead code elimination)",
	Run:  dce,
}

func dce(m *ir.Module, cx *Context) error {
	for _, f := range m.Funcs {
		dceFunc(f, cx)
	}
	return nil
}

func dceFunc(f *ir.Func, cx *Context) {
	live := map[*ir.Value]bool{}
	for _, r := range f.Results {
		live[r] = true
	}
	keep := make([]*ir.Instr, 0, len(f.Body))
	for i := len(f.Body) - 1; i >= 0; i-- {
		in := f.Body[i]
		used := !in.IsPure()
		for _, r := range in.Results {
			used = used || live[r]
		}
		if !used {
			continue
		}
		for _, a := range in.Args {
			live[a] = true
		}
		for _, r := range in.Regions {
			dceFunc(r, cx)
		}
		keep = append(keep, in)
	}
	for i, j := 0, len(keep)-1; i < j; i, j = i+1, j-1 {
		keep[i], keep[j] = keep[j], keep[i]
	}
	f.Body = keep
}
