package lowering

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

// lowerComposite emits
//
//	stablehlo.composite "name" %args {composite_attributes = {...},
//	    decomposition = @name_impl, version = N : i32}
//
// and the decomposition region as a private function of the module. Two
// composites with the same decomposition (same ops, attributes and types;
// locations and names do not count) share one function, as XLA would
// otherwise compile the same body twice.
func lowerComposite(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.CompositeAttr)
	dict, err := compositeAttrs(a.Attrs)
	if err != nil {
		return nil, c.errorf("%s: %v", a.Name, err)
	}
	sym, err := c.l.decomposition(a.Name, c.in.Regions[0])
	if err != nil {
		return nil, err
	}
	attrs := []stablehlo.NamedAttr{stablehlo.NA("name", stablehlo.StringAttr(a.Name))}
	// An empty dictionary and version 0 are StableHLO's defaults, which
	// MLIR leaves out.
	if len(dict) > 0 {
		attrs = append(attrs, stablehlo.NA("composite_attributes", dict))
	}
	attrs = append(attrs, stablehlo.NA("decomposition", stablehlo.SymbolRefAttr{Name: sym}))
	if a.Version != 0 {
		attrs = append(attrs, stablehlo.NA("version", stablehlo.I32Attr(int64(a.Version))))
	}
	return c.op("stablehlo.composite", c.args, attrs...).Results, nil
}

// decomposition returns the symbol of the private function holding r,
// emitting it the first time its content is met.
func (l *lowerer) decomposition(name string, r *ir.Func) (string, error) {
	key := contentKey(r)
	if sym, ok := l.decomps[key]; ok {
		return sym, nil
	}
	sym := l.uniqueName(symbolName(name, "composite") + "_impl")
	l.decomps[key] = sym
	if _, err := l.lowerFunc(r, sym, "private"); err != nil {
		return "", err
	}
	return sym, nil
}

// compositeAttrs converts composite attributes. ir.NamedAttr's value is one
// of int64, float64, bool, string or []int64; anything else has no
// StableHLO form.
func compositeAttrs(nas []ir.NamedAttr) (stablehlo.DictAttr, error) {
	var d stablehlo.DictAttr
	for _, na := range nas {
		var v stablehlo.Attr
		switch x := na.Value.(type) {
		case int64:
			v = stablehlo.I64Attr(x)
		case int:
			v = stablehlo.I64Attr(int64(x))
		case float64:
			v = stablehlo.FloatAttr{Value: x, Type: stablehlo.F64}
		case float32:
			v = stablehlo.FloatAttr{Value: float64(x), Type: stablehlo.F32}
		case bool:
			v = stablehlo.BoolAttr(x)
		case string:
			v = stablehlo.StringAttr(x)
		case []int64:
			v = stablehlo.I64Array(x...)
		case []int:
			v = i64Array(x)
		default:
			return nil, fmt.Errorf("attribute %q has a value of type %T, which has no StableHLO form", na.Name, na.Value)
		}
		for _, prev := range d {
			if prev.Name == na.Name {
				return nil, fmt.Errorf("attribute %q is given twice", na.Name)
			}
		}
		d = append(d, stablehlo.NA(na.Name, v))
	}
	return d, nil
}

// contentKey is a text that two regions share exactly when they compute
// the same thing: parameter types, and every instruction's op, operands
// (by position), attribute, regions and result types. Names, value IDs
// and locations are left out.
func contentKey(f *ir.Func) string {
	var b strings.Builder
	writeKey(&b, f)
	return b.String()
}

func writeKey(b *strings.Builder, f *ir.Func) {
	ids := map[*ir.Value]int{}
	next := 0
	def := func(v *ir.Value) {
		ids[v] = next
		next++
	}
	ref := func(v *ir.Value) {
		if id, ok := ids[v]; ok {
			b.WriteString(strconv.Itoa(id))
		} else {
			b.WriteString("?")
		}
	}
	b.WriteByte('(')
	for _, p := range f.Params {
		if p == nil {
			b.WriteString("nil,")
			continue
		}
		def(p)
		b.WriteString(p.Type.String())
		b.WriteByte(',')
	}
	b.WriteString("){")
	for _, in := range f.Body {
		if in == nil {
			b.WriteString("nil;")
			continue
		}
		b.WriteString(in.Op.String())
		b.WriteByte('(')
		for _, a := range in.Args {
			ref(a)
			b.WriteByte(',')
		}
		b.WriteByte(')')
		writeAttrKey(b, in.Attr)
		for _, r := range in.Regions {
			if r != nil {
				writeKey(b, r)
			}
		}
		b.WriteString("->")
		for _, v := range in.Results {
			if v != nil {
				def(v)
				b.WriteString(v.Type.String())
			}
			b.WriteByte(',')
		}
		b.WriteByte(';')
	}
	b.WriteString("return ")
	for _, v := range f.Results {
		ref(v)
		b.WriteByte(',')
	}
	b.WriteByte('}')
}

// writeAttrKey writes an attribute's content. The attribute structs hold
// plain values (%#v prints them fully), except ConstantAttr's literal,
// which is written as its type and memory image.
func writeAttrKey(b *strings.Builder, attr any) {
	if a, ok := attr.(ir.ConstantAttr); ok {
		if a.Value == nil {
			b.WriteString("const(nil)")
			return
		}
		lit, err := ir.NewLiteral(a.Value.Type, a.Value.Data)
		if err != nil {
			fmt.Fprintf(b, "const(%p)", a.Value) // malformed: never shared
			return
		}
		b.WriteString("const(")
		b.WriteString(lit.Type.String())
		b.WriteByte(':')
		b.WriteString(hex.EncodeToString(lit.Bytes()))
		b.WriteByte(')')
		return
	}
	if a, ok := attr.(ir.CompositeAttr); ok {
		// The attribute values are interfaces: %#v would print int64(1)
		// and 1.0 alike, and every NaN alike, though they lower apart.
		fmt.Fprintf(b, "composite(%q,v%d", a.Name, a.Version)
		for _, na := range a.Attrs {
			fmt.Fprintf(b, ",%q:%T:", na.Name, na.Value)
			switch x := na.Value.(type) {
			case float64:
				fmt.Fprintf(b, "%#x", math.Float64bits(x))
			case float32:
				fmt.Fprintf(b, "%#x", math.Float32bits(x))
			default:
				fmt.Fprintf(b, "%#v", x)
			}
		}
		b.WriteByte(')')
		return
	}
	fmt.Fprintf(b, "%#v", attr)
}
