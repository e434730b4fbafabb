package bytecode

import (
	"strings"

	"github.com/stela-ml/stela/stablehlo"
)

// sinkConstants copies into each region the constants it uses from
// outside. XLA's PJRT client simplifies a program before serializing it
// and hoists the constants of regions (a sort comparator's 0.0 and NaN)
// into the enclosing function; the regions of StableHLO's ops may use
// values from outside, but Stela's code generator compiles some of them
// (comparators, reducers) as functions of their arguments only. A copy
// of a constant computes the same value, so the program is unchanged.
func sinkConstants(m *stablehlo.Module) {
	for _, f := range m.Funcs {
		if f.Body != nil {
			sinkInOps(f.Entry().Ops)
		}
	}
}

func sinkInOps(ops []*stablehlo.Op) {
	for _, o := range ops {
		for _, r := range o.Regions {
			sinkIntoRegion(r)
			for _, b := range r.Blocks {
				sinkInOps(b.Ops)
			}
		}
	}
}

func sinkIntoRegion(r *stablehlo.Region) {
	if len(r.Blocks) == 0 {
		return
	}
	inside := map[*stablehlo.Value]bool{}
	var mark func(rg *stablehlo.Region)
	mark = func(rg *stablehlo.Region) {
		for _, b := range rg.Blocks {
			for _, a := range b.Args {
				inside[a] = true
			}
			for _, o := range b.Ops {
				for _, v := range o.Results {
					inside[v] = true
				}
				for _, sub := range o.Regions {
					mark(sub)
				}
			}
		}
	}
	mark(r)
	entry := r.Blocks[0]
	copies := map[*stablehlo.Value]*stablehlo.Value{}
	var clones []*stablehlo.Op
	var fix func(rg *stablehlo.Region)
	fix = func(rg *stablehlo.Region) {
		for _, b := range rg.Blocks {
			for _, o := range b.Ops {
				for i, v := range o.Operands {
					if inside[v] || v.Def == nil || v.Def.Name != "stablehlo.constant" || len(v.Def.Operands) > 0 {
						continue
					}
					c, ok := copies[v]
					if !ok {
						def := v.Def
						op := &stablehlo.Op{Name: def.Name, Attrs: append([]stablehlo.NamedAttr(nil), def.Attrs...), Loc: def.Loc}
						for j, res := range def.Results {
							op.Results = append(op.Results, &stablehlo.Value{Type: res.Type, Def: op, Index: j})
						}
						clones = append(clones, op)
						c = op.Results[v.Index]
						copies[v] = c
					}
					o.Operands[i] = c
				}
				for _, sub := range o.Regions {
					fix(sub)
				}
			}
		}
	}
	fix(r)
	if len(clones) > 0 {
		entry.Ops = append(clones, entry.Ops...)
	}
}

// IsUndecoded reports whether a is an attribute of another dialect that
// Read kept in its bytecode form (`#sdy.bytecode<"...">`).
func IsUndecoded(a stablehlo.Attr) bool {
	o, ok := a.(stablehlo.OpaqueAttr)
	return ok && strings.HasPrefix(o.Text, "#") && strings.Contains(o.Text, ".bytecode<\"")
}

// DropUndecoded removes the attributes Read kept undecoded (Shardy's
// shardings of a single-device program) from the module's functions,
// arguments, results and ops, so that its text reads in tools that know
// those dialects (XLA reads PJRT_Executable_OptimizedProgram's text).
func DropUndecoded(m *stablehlo.Module) {
	drop := func(attrs []stablehlo.NamedAttr) []stablehlo.NamedAttr {
		out := attrs[:0]
		for _, a := range attrs {
			if !IsUndecoded(a.Value) {
				out = append(out, a)
			}
		}
		return out
	}
	m.Attrs = drop(m.Attrs)
	var walk func(ops []*stablehlo.Op)
	walk = func(ops []*stablehlo.Op) {
		for _, o := range ops {
			o.Attrs = drop(o.Attrs)
			for _, r := range o.Regions {
				for _, b := range r.Blocks {
					walk(b.Ops)
				}
			}
		}
	}
	for _, f := range m.Funcs {
		f.Attrs = drop(f.Attrs)
		for i := range f.Args {
			f.Args[i].Attrs = drop(f.Args[i].Attrs)
		}
		for i := range f.ResultAttrs {
			f.ResultAttrs[i] = drop(f.ResultAttrs[i])
		}
		if f.Body != nil {
			walk(f.Entry().Ops)
		}
	}
}
