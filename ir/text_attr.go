package ir

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// Attributes in the .sir text form are a generic dictionary,
//
//	{lhs_batch = [], lhs_contract = [1], dir = LT, to = f16, value = dense<1.5> : f32[]}
//
// printed and parsed by reflection over the op's attribute struct: each
// exported field with a `sir:"name"` tag is one entry, in field order, and
// a field tagged `sir:"name,omitempty"` is left out when empty (zero, or a
// slice of length zero). So there is no per-op code here; a new attribute
// struct needs only tags, and TestAttrFieldKinds fails if it uses a field
// kind that this file cannot spell.
//
// Values by field type:
//
//	int kinds, uint kinds   42, -3
//	bool                    true, false
//	string                  "Go syntax"
//	DType                   f32
//	Type                    f32[2,3]
//	enum (has EnumNames)    EQ, TOTALORDER, HIGHEST
//	*Literal                dense<...> : type   (none for nil)
//	Sharding                [{"data"}, {}] partial {"model"}   (sharding.go)
//	Mesh                    ["data"=2, "model"=4]              (sharding.go)
//	[]NamedAttr             {name = value, ...} with int64 (42), float64 (1.0, 1e-05, inf, nan, or
//	                        a 0x hex bit pattern), bool, string and []int64 ([1, 2]) values
//	slices and arrays       [a, b, c] of any of the above, nested: [[0, 1], [2, 0]]

var (
	typeDType      = reflect.TypeFor[DType]()
	typeType       = reflect.TypeFor[Type]()
	typeLiteralPtr = reflect.TypeFor[*Literal]()
	typeNamedAttrs = reflect.TypeFor[[]NamedAttr]()
	typeSharding   = reflect.TypeFor[Sharding]()
	typeMesh       = reflect.TypeFor[Mesh]()
	typeEnumer     = reflect.TypeFor[enumer]()
)

// enumer is an enum attribute: an unsigned or signed integer type whose
// values index its spellings.
type enumer interface {
	EnumNames() []string
}

// attrField is one printable field of an attribute struct.
type attrField struct {
	name      string
	index     int
	omitEmpty bool
}

// attrFieldsOf caches attrFields by type: printing a module (a cache
// key) looks up every instruction's attribute struct.
var attrFieldsOf sync.Map // reflect.Type → []attrField

// attrFields lists the tagged fields of an attribute struct type. The
// slice is shared: callers do not change it.
func attrFields(t reflect.Type) []attrField {
	if fs, ok := attrFieldsOf.Load(t); ok {
		return fs.([]attrField)
	}
	fs := attrFieldsUncached(t)
	attrFieldsOf.Store(t, fs)
	return fs
}

func attrFieldsUncached(t reflect.Type) []attrField {
	var fs []attrField
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag, ok := sf.Tag.Lookup("sir")
		if !ok || tag == "-" || !sf.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		fs = append(fs, attrField{name: name, index: i, omitEmpty: opts == "omitempty"})
	}
	return fs
}

func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Slice, reflect.Map, reflect.String:
		return v.Len() == 0
	}
	return v.IsZero()
}

// writeAttrs prints the attribute dictionary of a (with a leading space),
// or nothing when it has no entries to print.
func writeAttrs(b *strings.Builder, a any) {
	if a == nil {
		return
	}
	v := reflect.ValueOf(a)
	if v.Kind() != reflect.Struct {
		fmt.Fprintf(b, " {<<attribute is %T, not a struct>>}", a)
		return
	}
	n := 0
	for _, f := range attrFields(v.Type()) {
		fv := v.Field(f.index)
		if f.omitEmpty && isEmptyValue(fv) {
			continue
		}
		if n == 0 {
			b.WriteString(" {")
		} else {
			b.WriteString(", ")
		}
		n++
		b.WriteString(f.name)
		b.WriteString(" = ")
		writeAttrValue(b, fv)
	}
	if n > 0 {
		b.WriteByte('}')
	}
}

func writeAttrValue(b *strings.Builder, v reflect.Value) {
	t := v.Type()
	switch t {
	case typeDType:
		b.WriteString(DType(v.Uint()).String())
		return
	case typeType:
		b.WriteString(v.Interface().(Type).String())
		return
	case typeLiteralPtr:
		if v.IsNil() {
			b.WriteString("none")
		} else {
			writeLiteral(b, v.Interface().(*Literal))
		}
		return
	case typeNamedAttrs:
		writeNamedAttrs(b, v.Interface().([]NamedAttr))
		return
	case typeSharding:
		s := v.Interface().(Sharding)
		b.WriteString(s.String())
		return
	case typeMesh:
		m := v.Interface().(Mesh)
		b.WriteString(m.String())
		return
	}
	if t.Implements(typeEnumer) && (isIntKind(t.Kind()) || isUintKind(t.Kind())) {
		names := v.Interface().(enumer).EnumNames()
		i := enumIndex(v)
		if i >= 0 && i < int64(len(names)) {
			b.WriteString(names[i])
		} else {
			fmt.Fprintf(b, "<<bad %v %d>>", t, i)
		}
		return
	}
	switch k := t.Kind(); {
	case isIntKind(k):
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case isUintKind(k):
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case k == reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case k == reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case k == reflect.Slice || k == reflect.Array:
		b.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			writeAttrValue(b, v.Index(i))
		}
		b.WriteByte(']')
	default:
		fmt.Fprintf(b, "<<unsupported attribute type %v>>", t)
	}
}

func isIntKind(k reflect.Kind) bool { return k >= reflect.Int && k <= reflect.Int64 }

func isUintKind(k reflect.Kind) bool { return k >= reflect.Uint && k <= reflect.Uintptr }

func enumIndex(v reflect.Value) int64 {
	if isIntKind(v.Kind()) {
		return v.Int()
	}
	u := v.Uint()
	if u > math.MaxInt64 {
		return -1
	}
	return int64(u)
}

func writeNamedAttrs(b *strings.Builder, as []NamedAttr) {
	b.WriteByte('{')
	for i, a := range as {
		if i > 0 {
			b.WriteString(", ")
		}
		if isIdent(a.Name) {
			b.WriteString(a.Name)
		} else {
			b.WriteString(strconv.Quote(a.Name))
		}
		b.WriteString(" = ")
		writeNamedValue(b, a.Value)
	}
	b.WriteByte('}')
}

// writeNamedValue prints a composite attribute value. The documented types
// are int64, float64, bool, string and []int64; other integer and float
// kinds print as those and read back as them.
func writeNamedValue(b *strings.Builder, x any) {
	if x == nil {
		b.WriteString("<<nil>>")
		return
	}
	v := reflect.ValueOf(x)
	switch k := v.Kind(); {
	case isIntKind(k):
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case isUintKind(k):
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case k == reflect.Float32 || k == reflect.Float64:
		b.WriteString(formatFloatText(F64, math.Float64bits(v.Float())))
	case k == reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case k == reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case k == reflect.Slice && (isIntKind(v.Type().Elem().Kind()) || isUintKind(v.Type().Elem().Kind())):
		writeAttrValue(b, v)
	default:
		fmt.Fprintf(b, "<<unsupported composite attribute value %T>>", x)
	}
}

// attrDict parses an optional attribute dictionary into a value of the
// struct type t (nil: the op takes none). at is the op token, for errors.
func (p *parser) attrDict(t reflect.Type, at token) any {
	if t == nil {
		if tok := p.peek(); tok.is(tPunct, "{") {
			p.failf(tok, "%s takes no attributes", at.text)
		}
		return nil
	}
	v := reflect.New(t).Elem()
	fields := attrFields(t)
	seen := make([]bool, len(fields))
	if p.accept(tPunct, "{") && !p.accept(tPunct, "}") {
		for {
			nt := p.next()
			if nt.kind != tIdent {
				p.failf(nt, "expected an attribute name, found %s", nt.describe())
			}
			k := -1
			for i, f := range fields {
				if f.name == nt.text {
					k = i
				}
			}
			if k < 0 {
				names := make([]string, len(fields))
				for i, f := range fields {
					names[i] = f.name
				}
				p.failf(nt, "%s has no attribute %q (it has %s)", at.text, nt.text, strings.Join(names, ", "))
			}
			if seen[k] {
				p.failf(nt, "attribute %s given twice", nt.text)
			}
			seen[k] = true
			p.expect(tPunct, "=")
			v.Field(fields[k].index).Set(p.attrValue(t.Field(fields[k].index).Type))
			if p.accept(tPunct, "}") {
				break
			}
			p.expect(tPunct, ",")
		}
	}
	for i, f := range fields {
		if !seen[i] && !f.omitEmpty {
			p.failf(p.peek(), "%s: missing attribute %s", at.text, f.name)
		}
	}
	return v.Interface()
}

// attrValue parses one attribute value of Go type t.
func (p *parser) attrValue(t reflect.Type) reflect.Value {
	v := reflect.New(t).Elem()
	switch t {
	case typeDType:
		tok := p.next()
		d, ok := ParseDType(tok.text)
		if tok.kind != tIdent || !ok {
			p.failf(tok, "expected an element type, found %s", tok.describe())
		}
		v.SetUint(uint64(d))
		return v
	case typeType:
		v.Set(reflect.ValueOf(p.typ()))
		return v
	case typeLiteralPtr:
		if p.accept(tIdent, "none") {
			return v
		}
		v.Set(reflect.ValueOf(p.literal()))
		return v
	case typeNamedAttrs:
		v.Set(reflect.ValueOf(p.namedAttrs()))
		return v
	case typeSharding:
		v.Set(reflect.ValueOf(*p.sharding()))
		return v
	case typeMesh:
		v.Set(reflect.ValueOf(*p.mesh()))
		return v
	}
	if t.Implements(typeEnumer) && (isIntKind(t.Kind()) || isUintKind(t.Kind())) {
		names := v.Interface().(enumer).EnumNames()
		tok := p.next()
		for i, n := range names {
			if tok.kind == tIdent && tok.text == n {
				if isIntKind(t.Kind()) {
					v.SetInt(int64(i))
				} else {
					v.SetUint(uint64(i))
				}
				return v
			}
		}
		p.failf(tok, "expected one of %s, found %s", strings.Join(names, ", "), tok.describe())
	}
	switch k := t.Kind(); {
	case isIntKind(k):
		tok := p.next()
		n, err := strconv.ParseInt(tok.text, 10, t.Bits())
		if tok.kind != tNumber || err != nil {
			p.failf(tok, "expected an integer, found %s", tok.describe())
		}
		v.SetInt(n)
	case isUintKind(k):
		tok := p.next()
		n, err := strconv.ParseUint(tok.text, 10, t.Bits())
		if tok.kind != tNumber || err != nil {
			p.failf(tok, "expected an unsigned integer, found %s", tok.describe())
		}
		v.SetUint(n)
	case k == reflect.Bool:
		v.SetBool(p.boolean())
	case k == reflect.String:
		tok := p.next()
		if tok.kind != tString {
			p.failf(tok, "expected a string, found %s", tok.describe())
		}
		v.SetString(tok.text)
	case k == reflect.Slice:
		p.expect(tPunct, "[")
		v.Set(reflect.MakeSlice(t, 0, 0))
		if !p.accept(tPunct, "]") {
			for {
				v.Set(reflect.Append(v, p.attrValue(t.Elem())))
				if p.accept(tPunct, "]") {
					break
				}
				p.expect(tPunct, ",")
			}
		}
	case k == reflect.Array:
		p.expect(tPunct, "[")
		for i := 0; i < t.Len(); i++ {
			if i > 0 {
				p.expect(tPunct, ",")
			}
			v.Index(i).Set(p.attrValue(t.Elem()))
		}
		if tok := p.peek(); !tok.is(tPunct, "]") {
			p.failf(tok, "expected ']' after %d elements, found %s", t.Len(), tok.describe())
		}
		p.next()
	default:
		p.failf(p.peek(), "internal error: attribute type %v has no text form", t)
	}
	return v
}

func (p *parser) boolean() bool {
	tok := p.next()
	switch {
	case tok.is(tIdent, "true"):
		return true
	case tok.is(tIdent, "false"):
		return false
	}
	p.failf(tok, "expected true or false, found %s", tok.describe())
	return false
}

// literal parses "dense<...> : type".
func (p *parser) literal() *Literal {
	at := p.peek()
	if !at.is(tIdent, "dense") {
		p.failf(at, "expected dense<...>, found %s", at.describe())
	}
	p.next()
	p.expect(tPunct, "<")
	body := p.denseBody(0)
	p.expect(tPunct, ">")
	p.expect(tPunct, ":")
	tt := p.peek()
	t := p.typ()
	return p.buildLiteral(t, body, tt)
}

func (p *parser) namedAttrs() []NamedAttr {
	p.expect(tPunct, "{")
	var as []NamedAttr
	if p.accept(tPunct, "}") {
		return as
	}
	for {
		nt := p.next()
		if nt.kind != tIdent && nt.kind != tString {
			p.failf(nt, "expected an attribute name, found %s", nt.describe())
		}
		p.expect(tPunct, "=")
		as = append(as, NamedAttr{Name: nt.text, Value: p.namedValue()})
		if p.accept(tPunct, "}") {
			return as
		}
		p.expect(tPunct, ",")
	}
}

// namedValue parses a composite attribute value: an integer (int64), a
// float (float64: has a '.' or an exponent, or is inf, -inf, nan or a hex
// bit pattern), true/false, a string, or a list of integers ([]int64).
func (p *parser) namedValue() any {
	tok := p.next()
	switch tok.kind {
	case tString:
		return tok.text
	case tIdent:
		switch tok.text {
		case "true":
			return true
		case "false":
			return false
		case "inf", "nan":
			b, _ := parseFloatText(F64, tok.text)
			return math.Float64frombits(b)
		}
	case tNumber:
		s := tok.text
		if isHexToken(s) || strings.ContainsAny(s, ".eEin") {
			b, err := parseFloatText(F64, s)
			if err != nil {
				p.failf(tok, "%v", err)
			}
			return math.Float64frombits(b)
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			p.failf(tok, "bad integer %s", s)
		}
		return n
	case tPunct:
		if tok.text == "[" {
			xs := []int64{}
			if p.accept(tPunct, "]") {
				return xs
			}
			for {
				t := p.next()
				n, err := strconv.ParseInt(t.text, 10, 64)
				if t.kind != tNumber || err != nil {
					p.failf(t, "expected an integer, found %s", t.describe())
				}
				xs = append(xs, n)
				if p.accept(tPunct, "]") {
					return xs
				}
				p.expect(tPunct, ",")
			}
		}
	}
	p.failf(tok, "expected an attribute value, found %s", tok.describe())
	return nil
}
