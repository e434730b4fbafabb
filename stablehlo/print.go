package stablehlo

import (
	"bytes"
	"io"
	"strconv"
	"strings"
)

// PrintOptions controls the printer.
type PrintOptions struct {
	// Locations prints a `loc(#locN)` suffix on every op, function, block
	// argument and the module, with the alias definitions
	// (`#locN = loc(...)`) at the end of the text. Nil locations print as
	// unknown.
	Locations bool
}

// Print writes the module's MLIR text to w.
func Print(w io.Writer, m *Module, opts PrintOptions) error {
	_, err := w.Write(Format(m, opts))
	return err
}

// Format returns the module's MLIR text.
func Format(m *Module, opts PrintOptions) []byte {
	p := newPrinter(opts)
	p.module(m)
	p.locAliasDefs()
	return p.buf.Bytes()
}

// String returns the module's MLIR text without locations.
func (m *Module) String() string { return string(Format(m, PrintOptions{})) }

// String returns the op's text in isolation (values outside the op print
// as %<?>), for messages and debugging.
func (o *Op) String() string {
	p := newPrinter(PrintOptions{})
	p.numberIsolated(o)
	p.op(o)
	return strings.TrimSuffix(p.buf.String(), "\n")
}

type printer struct {
	buf    bytes.Buffer
	opts   PrintOptions
	indent int
	names  map[*Value]string
	// defs holds the text of each op's result list before " = ".
	defs map[*Op]string
	// funcBody marks blocks that are function bodies (where func.return
	// and func.call print as return and call).
	funcBody map[*Block]bool
	// location aliases in order of first use.
	locIDs  map[string]int
	locText []string
	tmp     strings.Builder
	// blocks is the stack of blocks being printed.
	blocks []*Block
}

func newPrinter(opts PrintOptions) *printer {
	return &printer{
		opts:     opts,
		names:    map[*Value]string{},
		defs:     map[*Op]string{},
		funcBody: map[*Block]bool{},
		locIDs:   map[string]int{},
	}
}

func (p *printer) w(s string)  { p.buf.WriteString(s) }
func (p *printer) wb(c byte)   { p.buf.WriteByte(c) }
func (p *printer) nl()         { p.wb('\n'); p.w(strings.Repeat("  ", p.indent)) }
func (p *printer) typ(t Type)  { p.w(typeString(t)) }
func (p *printer) attr(a Attr) { p.tmp.Reset(); writeAttr(&p.tmp, a); p.w(p.tmp.String()) }
func (p *printer) quoted(s string) {
	p.tmp.Reset()
	writeQuoted(&p.tmp, s)
	p.w(p.tmp.String())
}

func (p *printer) val(v *Value) {
	if n, ok := p.names[v]; ok {
		p.w(n)
		return
	}
	p.w("%<?>")
}

func (p *printer) vals(vs []*Value) {
	for i, v := range vs {
		if i > 0 {
			p.w(", ")
		}
		p.val(v)
	}
}

func (p *printer) types(ts []Type) {
	for i, t := range ts {
		if i > 0 {
			p.w(", ")
		}
		p.typ(t)
	}
}

func valueTypes(vs []*Value) []Type {
	ts := make([]Type, len(vs))
	for i, v := range vs {
		if v != nil {
			ts[i] = v.Type
		}
	}
	return ts
}

func (p *printer) funcType(ins, outs []Type) {
	p.tmp.Reset()
	writeFunctionType(&p.tmp, ins, outs)
	p.w(p.tmp.String())
}

// opFuncType writes the op's `(operand types) -> result types`.
func (p *printer) opFuncType(o *Op) {
	p.funcType(valueTypes(o.Operands), valueTypes(o.Results))
}

// attrDict writes ` {a = ..., b}` of the op's attributes not in elided,
// sorted; nothing if none remain.
func (p *printer) attrDict(attrs []NamedAttr, elided ...string) {
	rest := make([]NamedAttr, 0, len(attrs))
outer:
	for _, a := range attrs {
		for _, e := range elided {
			if a.Name == e {
				continue outer
			}
		}
		rest = append(rest, a)
	}
	if len(rest) == 0 {
		return
	}
	p.wb(' ')
	p.tmp.Reset()
	writeAttrDict(&p.tmp, rest)
	p.w(p.tmp.String())
}

// loc writes ` loc(#locN)` when printing locations.
func (p *printer) loc(l Loc) {
	if !p.opts.Locations {
		return
	}
	p.w(" loc(")
	p.w(p.locRef(l))
	p.wb(')')
}

// locRef returns the alias name of l, defining it (and its children
// first) if new.
func (p *printer) locRef(l Loc) string {
	if l == nil {
		l = UnknownLoc{}
	}
	var sb strings.Builder
	writeLocBody(&sb, l, func(sb *strings.Builder, c Loc) { sb.WriteString(p.locRef(c)) })
	body := sb.String()
	id, ok := p.locIDs[body]
	if !ok {
		id = len(p.locText)
		p.locIDs[body] = id
		p.locText = append(p.locText, body)
	}
	return locAliasName(id)
}

func locAliasName(id int) string {
	if id == 0 {
		return "#loc"
	}
	return "#loc" + strconv.Itoa(id)
}

func (p *printer) locAliasDefs() {
	if !p.opts.Locations {
		return
	}
	for i, body := range p.locText {
		p.w(locAliasName(i))
		p.w(" = loc(")
		p.w(body)
		p.w(")\n")
	}
}

func (p *printer) module(m *Module) {
	bare := m.Bare && m.Name == "" && len(m.Attrs) == 0 && len(m.Funcs) > 0
	if bare {
		for _, f := range m.Funcs {
			if f == nil {
				continue
			}
			p.fn(f)
			p.wb('\n')
		}
		return
	}
	p.w("module")
	if m.Name != "" {
		p.wb(' ')
		p.tmp.Reset()
		writeSymbol(&p.tmp, m.Name)
		p.w(p.tmp.String())
	}
	if len(m.Attrs) > 0 {
		p.w(" attributes")
		p.attrDict(m.Attrs)
	}
	p.w(" {")
	p.indent++
	for _, f := range m.Funcs {
		if f == nil {
			continue
		}
		p.nl()
		p.fn(f)
	}
	p.indent--
	p.nl()
	p.wb('}')
	p.loc(m.Loc)
	p.wb('\n')
}

func (p *printer) fn(f *Func) {
	p.w("func.func ")
	if f.Visibility != "" {
		p.w(f.Visibility)
		p.wb(' ')
	}
	p.tmp.Reset()
	writeSymbol(&p.tmp, f.Name)
	p.w(p.tmp.String())
	entry := f.Entry()
	if entry != nil {
		p.numberFunc(f)
	}
	p.wb('(')
	for i, a := range f.Args {
		if i > 0 {
			p.w(", ")
		}
		if entry != nil && i < len(entry.Args) {
			p.val(entry.Args[i])
			p.w(": ")
		}
		p.typ(a.Type)
		p.attrDict(a.Attrs)
		if entry != nil && i < len(entry.Args) && entry.Args[i] != nil {
			p.loc(entry.Args[i].Loc)
		}
	}
	p.wb(')')
	if len(f.ResultTypes) > 0 {
		p.w(" -> ")
		hasAttrs := false
		for _, ra := range f.ResultAttrs {
			if len(ra) > 0 {
				hasAttrs = true
			}
		}
		_, fnRes := f.ResultTypes[0].(FunctionType)
		paren := hasAttrs || len(f.ResultTypes) != 1 || fnRes
		if paren {
			p.wb('(')
		}
		for i, t := range f.ResultTypes {
			if i > 0 {
				p.w(", ")
			}
			p.typ(t)
			if i < len(f.ResultAttrs) {
				p.attrDict(f.ResultAttrs[i])
			}
		}
		if paren {
			p.wb(')')
		}
	}
	if len(f.Attrs) > 0 {
		p.w(" attributes")
		p.attrDict(f.Attrs)
	}
	if f.Body != nil {
		p.wb(' ')
		if entry != nil {
			p.funcBody[entry] = true
		}
		p.region(f.Body, false)
	}
	p.loc(f.Loc)
}

// region writes `{ ... }` at the current indentation. The entry block's
// header is printed only if printEntryArgs and it has arguments.
func (p *printer) region(r *Region, printEntryArgs bool) {
	p.wb('{')
	if r == nil {
		r = &Region{}
	}
	for bi, blk := range r.Blocks {
		if blk == nil {
			blk = &Block{}
		}
		if bi > 0 || printEntryArgs && len(blk.Args) > 0 {
			p.nl()
			p.w("^bb")
			p.w(strconv.Itoa(bi))
			if len(blk.Args) > 0 {
				p.wb('(')
				for i, a := range blk.Args {
					if i > 0 {
						p.w(", ")
					}
					if a == nil {
						a = &Value{}
					}
					p.val(a)
					p.w(": ")
					p.typ(a.Type)
					p.loc(a.Loc)
				}
				p.wb(')')
			}
			p.wb(':')
		}
		p.indent++
		p.blocks = append(p.blocks, blk)
		for _, o := range blk.Ops {
			if o != nil {
				p.nl()
				p.op(o)
			}
		}
		p.blocks = p.blocks[:len(p.blocks)-1]
		p.indent--
	}
	p.nl()
	p.wb('}')
}

// op writes one op (without the leading indentation or trailing newline).
func (p *printer) op(o *Op) {
	if d := p.defs[o]; d != "" {
		p.w(d)
		p.w(" = ")
	}
	if info := opTable[o.Name]; info != nil && info.print != nil && len(o.Regions) == info.regions && opWellFormed(o) {
		mark := p.buf.Len()
		if info.print(p, o) {
			p.loc(o.Loc)
			return
		}
		p.buf.Truncate(mark)
	}
	p.generic(o)
	p.loc(o.Loc)
}

// opWellFormed reports whether the op has no nil operands, results or
// attribute values, so that pretty printers may rely on them.
func opWellFormed(o *Op) bool {
	for _, v := range o.Operands {
		if v == nil || v.Type == nil {
			return false
		}
	}
	for _, v := range o.Results {
		if v == nil || v.Type == nil {
			return false
		}
	}
	for _, a := range o.Attrs {
		if a.Value == nil {
			return false
		}
	}
	for _, r := range o.Regions {
		if r == nil {
			return false
		}
	}
	return true
}

// isProp reports whether the attribute is printed in the properties of
// the generic form.
func isProp(o *Op, a NamedAttr) bool {
	if info := opTable[o.Name]; info != nil {
		for _, n := range info.props {
			if n == a.Name {
				return true
			}
		}
		return false
	}
	return a.Prop
}

func (p *printer) generic(o *Op) {
	p.quoted(o.Name)
	p.wb('(')
	p.vals(o.Operands)
	p.wb(')')
	var props, rest []NamedAttr
	for _, a := range o.Attrs {
		if isProp(o, a) {
			props = append(props, a)
		} else {
			rest = append(rest, a)
		}
	}
	if len(props) > 0 {
		p.w(" <")
		p.tmp.Reset()
		writeAttrDict(&p.tmp, props)
		p.w(p.tmp.String())
		p.wb('>')
	}
	if len(o.Regions) > 0 {
		p.w(" (")
		for i, r := range o.Regions {
			if i > 0 {
				p.w(", ")
			}
			p.region(r, true)
		}
		p.wb(')')
	}
	p.attrDict(rest)
	p.w(" : ")
	p.opFuncType(o)
}

// nameScope is a set of used value names with a parent scope.
type nameScope struct {
	used   map[string]bool
	parent *nameScope
}

func (s *nameScope) has(n string) bool {
	for ; s != nil; s = s.parent {
		if s.used[n] {
			return true
		}
	}
	return false
}

// nameState is MLIR's SSANameState counters for one region.
type nameState struct {
	nextValue, nextArg, nextConflict int
	scope                            *nameScope
}

func (st *nameState) unique(name string) string {
	if st.scope.has(name) {
		for {
			probe := name + "_" + strconv.Itoa(st.nextConflict)
			st.nextConflict++
			if !st.scope.has(probe) {
				name = probe
				break
			}
		}
	}
	st.scope.used[name] = true
	return name
}

func (p *printer) numberFunc(f *Func) {
	st := nameState{scope: &nameScope{used: map[string]bool{}}}
	p.numberRegion(f.Body, nil, st)
}

// numberIsolated numbers the values of a single op (for Op.String).
func (p *printer) numberIsolated(o *Op) {
	st := nameState{scope: &nameScope{used: map[string]bool{}}}
	p.numberOp(o, &st)
	for _, r := range o.Regions {
		if r != nil {
			p.numberRegion(r, o, nameState{nextValue: st.nextValue, nextArg: st.nextArg, nextConflict: st.nextConflict, scope: &nameScope{used: map[string]bool{}, parent: st.scope}})
		}
	}
}

// numberRegion names the values of a region as MLIR does: block
// arguments and op results of the region in order, then the nested
// regions, each starting from the counters reached at the end of this
// region (so sibling regions reuse numbers).
func (p *printer) numberRegion(r *Region, parent *Op, st nameState) {
	for _, blk := range r.Blocks {
		if blk == nil {
			continue
		}
		for _, a := range blk.Args {
			if a == nil {
				continue
			}
			if parent != nil && parent.Name == "stablehlo.while" {
				p.names[a] = "%" + st.unique("iterArg")
			} else {
				p.names[a] = "%arg" + strconv.Itoa(st.nextArg)
				st.nextArg++
			}
		}
		for _, o := range blk.Ops {
			if o != nil {
				p.numberOp(o, &st)
			}
		}
	}
	for _, blk := range r.Blocks {
		if blk == nil {
			continue
		}
		for _, o := range blk.Ops {
			if o == nil {
				continue
			}
			for _, sub := range o.Regions {
				if sub == nil {
					continue
				}
				p.numberRegion(sub, o, nameState{
					nextValue: st.nextValue, nextArg: st.nextArg, nextConflict: st.nextConflict,
					scope: &nameScope{used: map[string]bool{}, parent: st.scope},
				})
			}
		}
	}
}

func (p *printer) numberOp(o *Op, st *nameState) {
	if len(o.Results) == 0 {
		return
	}
	var base string
	if hint := resultNameHint(o); hint != "" {
		base = "%" + st.unique(hint)
	} else {
		base = "%" + strconv.Itoa(st.nextValue)
		st.nextValue++
	}
	if len(o.Results) == 1 {
		p.names[o.Results[0]] = base
		p.defs[o] = base
		return
	}
	for i, v := range o.Results {
		if v != nil {
			p.names[v] = base + "#" + strconv.Itoa(i)
		}
	}
	p.defs[o] = base + ":" + strconv.Itoa(len(o.Results))
}

// resultNameHint is the OpAsmOpInterface name of the op's results:
// stablehlo.constant names integer constants %c and others %cst.
func resultNameHint(o *Op) string {
	if o.Name != "stablehlo.constant" || len(o.Results) != 1 || o.Results[0] == nil {
		return ""
	}
	if t, ok := o.Results[0].Type.(TensorType); ok && t.Elem.IsInteger() {
		return "c"
	}
	return "cst"
}
