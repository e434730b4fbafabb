package passes

import (
	"fmt"
	"strings"
)

// All lists every pass, for lookup by name and for `stela passes`.
func All() []*Pass { return []*Pass{Canonicalize, Fold, CSE, DCE, Sink, FuseComposites} }

// Default is the standard pipeline.
var Default = []*Pass{Canonicalize, Fold, CSE, Canonicalize, DCE, Sink}

// order says which passes must precede which, and why. TestOrder checks
// Default: each `before` pass must run at least once before the last run of
// its `after` pass.
var order = []struct {
	before, after *Pass
	why           string
}{
	{Canonicalize, Fold, "canonicalize turns broadcasts of scalar constants into splat constants that fold can then see through"},
	{Fold, CSE, "folding makes equal constants out of different expressions; CSE merges them"},
	{CSE, DCE, "CSE leaves the merged duplicates dead"},
	{Canonicalize, DCE, "identities like x+0 leave the constant and the replaced op dead"},
	{Fold, DCE, "folded operands become dead"},
	{DCE, Sink, "a dead use of an op would keep it out of the case branches"},
	{CSE, Sink, "CSE may merge an op in a branch with one outside it, which then must stay outside"},
}

// Lookup finds a pass by name.
func Lookup(name string) (*Pass, bool) {
	for _, p := range All() {
		if p.Name == name {
			return p, true
		}
	}
	return nil, false
}

// ParsePipeline reads the text form: pass names separated by commas. The
// empty string is the empty pipeline and "default" stands for Default.
func ParsePipeline(s string) ([]*Pass, error) {
	var ps []*Pass
	if strings.TrimSpace(s) == "" {
		return ps, nil
	}
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "default" {
			ps = append(ps, Default...)
			continue
		}
		p, ok := Lookup(name)
		if !ok {
			var names []string
			for _, p := range All() {
				names = append(names, p.Name)
			}
			return nil, fmt.Errorf("pipeline: unknown pass %q (valid: %s, or default for %s)", name, strings.Join(names, ", "), PipelineString(Default))
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// PipelineString is the text form of a pipeline; ParsePipeline reads it
// back to the same list.
func PipelineString(ps []*Pass) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	return strings.Join(names, ",")
}
