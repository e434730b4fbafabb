package ir

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The .sir text form. A module is its functions, separated by blank lines:
//
//	func @mlp(%0: f32[4,8], %1: f32[8,16]) -> f32[4,16] {
//	  %2 = dot_general %0, %1 {lhs_batch = [], rhs_batch = [], lhs_contract = [1], rhs_contract = [0]} : f32[4,16]
//	  %3 = constant {value = dense<[1.0, 2.5]> : f32[2]} : f32[2]
//	  %4, %5 = while %2, %3 @cond(%0: si32[], %1: f32[4]) {
//	    ...
//	    return %7
//	  } @body(%0: si32[], %1: f32[4]) {
//	    ...
//	  } : si32[], f32[4]
//	  return %2
//	}
//
// An instruction is: its results (if any) and '=', the op's name, its
// operands, its attribute dictionary (text_attr.go; left out when it has no
// entries), its regions, ':' and the result types (if any), and with
// PrintOptions.Locations a loc(...) suffix. The result list after "->" is a
// bare type when there is one result, parenthesized otherwise, and left out
// when there are none.
//
// Values print as %N, numbered in definition order as Func.Renumber would
// (parameters first, then each instruction's results; every result has its
// own number), without changing Value.ID. A region is a nested function:
// its name (left out when empty), its parameters and its body; it numbers
// its own values from %0, since regions are isolated from above and see
// only their parameters. With PrintOptions.StableNames values print as
// %ID instead (see Value.ID), which the parser reads back as the IDs.
//
// Locations: loc("path/file.go":42) for a file and line, loc(fused<"cse">[
// "a.go":1, "b.go":2]) for a merged location (the <"pass"> part left out
// when no pass is named), and nothing for the unknown location.

// PrintOptions selects what the text form shows beyond the program.
type PrintOptions struct {
	// Locations adds a loc(...) suffix to every instruction and parameter
	// whose location is known.
	Locations bool
	// StableNames prints each value as %ID, its Value.ID, instead of
	// numbering the values of each function densely. A value keeps its ID
	// through the passes that keep it, and values a pass makes get new
	// IDs, so two printings of a function before and after a pass differ
	// only where the pass changed it (the uses of a value CSE removed, not
	// every later value). A function whose IDs are not unique (which
	// ir.Verify rejects) prints densely.
	StableNames bool
}

// String prints f without locations.
func (f *Func) String() string {
	var b strings.Builder
	p := printer{b: &b}
	p.fn(f)
	return b.String()
}

// Print writes f in the text form.
func Print(w io.Writer, f *Func, opts PrintOptions) {
	if sb, ok := w.(*strings.Builder); ok {
		// Straight into the caller's builder (which it may have sized).
		p := printer{b: sb, opts: opts}
		p.fn(f)
		return
	}
	var b strings.Builder
	p := printer{b: &b, opts: opts}
	p.fn(f)
	io.WriteString(w, b.String())
}

// String prints the module's functions without locations.
func (m *Module) String() string {
	var b strings.Builder
	PrintModule(&b, m, PrintOptions{})
	return b.String()
}

// PrintModule writes the module's functions, a blank line between each two.
func PrintModule(w io.Writer, m *Module, opts PrintOptions) {
	b, direct := w.(*strings.Builder)
	if !direct {
		b = &strings.Builder{}
	}
	p := printer{b: b, opts: opts}
	for i, f := range m.Funcs {
		if i > 0 {
			b.WriteByte('\n')
		}
		p.fn(f)
	}
	if !direct {
		io.WriteString(w, b.String())
	}
}

type printer struct {
	b    *strings.Builder
	opts PrintOptions
}

// numbering maps a function's values to their printed numbers.
type numbering map[*Value]int

func (p *printer) numberValues(f *Func) numbering {
	if p.opts.StableNames {
		if names, ok := stableNames(f); ok {
			return names
		}
	}
	names := make(numbering, len(f.Params)+len(f.Body))
	id := 0
	for _, v := range f.Params {
		names[v] = id
		id++
	}
	for _, in := range f.Body {
		if in == nil {
			continue
		}
		for _, v := range in.Results {
			names[v] = id
			id++
		}
	}
	return names
}

// stableNames names f's values by their IDs; ok is false when two share
// an ID (or one is negative).
func stableNames(f *Func) (numbering, bool) {
	n := len(f.Params) + len(f.Body)
	names := make(numbering, n)
	used := make(map[int]bool, n)
	add := func(v *Value) bool {
		if v == nil {
			return true
		}
		if v.ID < 0 || used[v.ID] {
			return false
		}
		used[v.ID] = true
		names[v] = v.ID
		return true
	}
	for _, v := range f.Params {
		if !add(v) {
			return nil, false
		}
	}
	for _, in := range f.Body {
		if in == nil {
			continue
		}
		for _, v := range in.Results {
			if !add(v) {
				return nil, false
			}
		}
	}
	return names, true
}

func (p *printer) fn(f *Func) {
	if f == nil {
		p.b.WriteString("<<nil func>>\n")
		return
	}
	names := p.numberValues(f)
	p.b.WriteString("func @")
	p.b.WriteString(quoteName(f.Name))
	p.params(f, names)
	switch len(f.Results) {
	case 0:
	case 1:
		p.b.WriteString(" -> ")
		p.b.WriteString(p.typeOf(f.Results[0]))
		p.sharding("sharding", f.OutSharding(0))
	default:
		p.b.WriteString(" -> (")
		for i, r := range f.Results {
			if i > 0 {
				p.b.WriteString(", ")
			}
			p.b.WriteString(p.typeOf(r))
			p.sharding("sharding", f.OutSharding(i))
		}
		p.b.WriteByte(')')
	}
	if f.Mesh != nil {
		p.b.WriteString(" mesh ")
		p.b.WriteString(f.Mesh.String())
	}
	p.b.WriteString(" {\n")
	p.body(f, names, 1)
	p.b.WriteString("}\n")
}

func (p *printer) typeOf(v *Value) string {
	if v == nil {
		return "<<nil>>"
	}
	return v.Type.String()
}

func (p *printer) params(f *Func, names numbering) {
	p.b.WriteByte('(')
	for i, v := range f.Params {
		if i > 0 {
			p.b.WriteString(", ")
		}
		p.value(v, names)
		p.b.WriteString(": ")
		p.b.WriteString(p.typeOf(v))
		if v != nil {
			p.sharding("sharding", f.InSharding(i))
			p.sharding("sharded", v.Sharding)
			p.loc(v.loc)
		}
	}
	p.b.WriteByte(')')
}

func (p *printer) value(v *Value, names numbering) {
	if v == nil {
		p.b.WriteString("<<nil>>")
		return
	}
	n, ok := names[v]
	if !ok {
		fmt.Fprintf(p.b, "<<undefined %%%d>>", v.ID)
		return
	}
	p.b.WriteByte('%')
	p.b.WriteString(strconv.Itoa(n))
}

func (p *printer) indent(depth int) {
	for range depth {
		p.b.WriteString("  ")
	}
}

func (p *printer) body(f *Func, names numbering, depth int) {
	for _, in := range f.Body {
		p.indent(depth)
		if in == nil {
			p.b.WriteString("<<nil instruction>>\n")
			continue
		}
		for i, r := range in.Results {
			if i > 0 {
				p.b.WriteString(", ")
			}
			p.value(r, names)
		}
		if len(in.Results) > 0 {
			p.b.WriteString(" = ")
		}
		p.b.WriteString(in.Op.String())
		for i, a := range in.Args {
			if i > 0 {
				p.b.WriteByte(',')
			}
			p.b.WriteByte(' ')
			p.value(a, names)
		}
		writeAttrs(p.b, in.Attr)
		for _, r := range in.Regions {
			p.b.WriteByte(' ')
			p.region(r, depth)
		}
		for i, r := range in.Results {
			if i == 0 {
				p.b.WriteString(" : ")
			} else {
				p.b.WriteString(", ")
			}
			p.b.WriteString(p.typeOf(r))
			if r != nil {
				p.sharding("sharded", r.Sharding)
			}
		}
		p.loc(in.Loc)
		p.b.WriteByte('\n')
	}
	p.indent(depth)
	p.b.WriteString("return")
	for i, r := range f.Results {
		if i > 0 {
			p.b.WriteByte(',')
		}
		p.b.WriteByte(' ')
		p.value(r, names)
	}
	p.b.WriteByte('\n')
}

func (p *printer) region(r *Func, depth int) {
	if r == nil {
		p.b.WriteString("<<nil region>>")
		return
	}
	names := p.numberValues(r)
	if r.Name != "" {
		p.b.WriteByte('@')
		p.b.WriteString(quoteName(r.Name))
	}
	p.params(r, names)
	p.b.WriteString(" {\n")
	p.body(r, names, depth+1)
	p.indent(depth)
	p.b.WriteByte('}')
}

// sharding prints " KEYWORD SHARDING" for a non-nil sharding.
func (p *printer) sharding(keyword string, s *Sharding) {
	if s == nil {
		return
	}
	p.b.WriteByte(' ')
	p.b.WriteString(keyword)
	p.b.WriteByte(' ')
	p.b.WriteString(s.String())
}

func (p *printer) loc(l Loc) {
	if !p.opts.Locations || l.Equal(UnknownLoc) {
		return
	}
	p.b.WriteString(" loc(")
	writeLoc(p.b, l)
	p.b.WriteByte(')')
}

func writeLoc(b *strings.Builder, l Loc) {
	if len(l.Fused) > 0 || l.Pass != "" {
		b.WriteString("fused")
		if l.Pass != "" {
			b.WriteByte('<')
			b.WriteString(strconv.Quote(l.Pass))
			b.WriteByte('>')
		}
		b.WriteByte('[')
		for i, m := range l.Fused {
			if i > 0 {
				b.WriteString(", ")
			}
			writeLoc(b, m)
		}
		b.WriteByte(']')
		return
	}
	if l.Equal(UnknownLoc) {
		b.WriteString("unknown")
		return
	}
	writeQuoted(b, l.File)
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(l.Line))
}

// writeQuoted writes strconv.Quote(s): s itself between quotes when it is
// printable ASCII without quotes or backslashes (a file path, nearly
// always), which saves quoting rune by rune the path of every op's
// location when a module is printed as a cache key.
func writeQuoted(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			b.WriteString(strconv.Quote(s))
			return
		}
	}
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
}
