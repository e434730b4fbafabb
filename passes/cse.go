package passes

import (
	"encoding/hex"
	"fmt"
	"reflect"
	"strings"

	"github.com/stela-ml/stela/ir"
)

// CSE merges pure instructions that compute the same thing: same op, same
// operands, equal attributes and equal regions. The kept instruction's
// location becomes ir.FusedLoc("cse", ...) listing every merged member.
// Side-effecting instructions (custom_call with has_side_effect) are never
// merged. Regions are processed too, innermost first.
var CSE = &Pass{
	Name: "cse",
	Doc:  "merge identical pure instructions (common subexpression elimination)",
	Run:  cse,
}

func cse(m *ir.Module, cx *Context) error {
	forEachFunc(m, func(f *ir.Func) { cseFunc(f, cx) })
	return nil
}

func cseFunc(f *ir.Func, cx *Context) {
	seen := map[string]*ir.Instr{}
	ids := map[*ir.Value]int{}
	for i, p := range f.Params {
		ids[p] = i
	}
	rebuild(f, func(f *ir.Func, in *ir.Instr) []*ir.Value {
		defer func() {
			for _, r := range in.Results {
				if _, ok := ids[r]; !ok {
					ids[r] = len(ids)
				}
			}
		}()
		if !in.IsPure() {
			return nil
		}
		k := cseKey(in, ids)
		prev, ok := seen[k]
		if !ok {
			seen[k] = in
			return nil
		}
		prev.Loc = ir.FusedLoc("cse", prev.Loc, in.Loc)
		cx.Remarkf(in, "merged into an identical %s", prev.Op)
		return prev.Results
	})
}

// cseKey spells out everything that decides an instruction's results.
// Operands are named by their position in definition order (ids), which
// identifies a value within the Func.
func cseKey(in *ir.Instr, ids map[*ir.Value]int) string {
	var b strings.Builder
	b.WriteString(in.Op.String())
	for _, a := range in.Args {
		fmt.Fprintf(&b, " %d", ids[a])
	}
	b.WriteString(" :")
	for _, r := range in.Results {
		fmt.Fprintf(&b, " %v", r.Type)
	}
	b.WriteString(" {")
	b.WriteString(attrKey(in.Attr))
	b.WriteString("}")
	for _, r := range in.Regions {
		b.WriteString(" region ")
		b.WriteString(r.String())
	}
	return b.String()
}

// attrKey prints an attribute so that equal keys mean equal attributes.
// Constants compare bitwise (reflect.DeepEqual and %v would equate +0 and
// -0, which are different constants).
func attrKey(a any) string {
	switch a := a.(type) {
	case nil:
		return ""
	case ir.ConstantAttr:
		return a.Value.Type.String() + " " + hex.EncodeToString(a.Value.Bytes())
	}
	v := reflect.ValueOf(a)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	// %#v of the table's attribute structs (ints, slices, enums, types,
	// strings, named scalars) is a faithful spelling; floats in composite
	// attributes print with %v's shortest exact form, -0 included.
	return fmt.Sprintf("%#v", v.Interface())
}
