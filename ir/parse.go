package ir

import (
	"errors"
	"fmt"
	"strconv"
)

// The parser of the .sir text form (print.go describes the form). Its
// grammar, in the order the parser reads it:
//
//	module = { func } .
//	func   = "func" GLOBAL params [ "->" ( rtype | "(" [ rtype { "," rtype } ] ")" ) ] [ "mesh" mesh ] "{" body "}" .
//	params = "(" [ param { "," param } ] ")" .
//	param  = VALUE ":" type [ "sharding" sharding ] [ "sharded" sharding ] [ loc ] .
//	rtype  = type [ "sharding" sharding ] .
//	mesh   = "[" STRING "=" NUMBER { "," STRING "=" NUMBER } "]" .
//	sharding = "[" [ axes { "," axes } ] "]" [ "partial" axes ] .
//	axes   = "{" [ STRING { "," STRING } ] "}" .
//	body   = { instr } "return" [ VALUE { "," VALUE } ] .
//	instr  = [ VALUE { "," VALUE } "=" ] IDENT [ VALUE { "," VALUE } ] [ attrs ]
//	         { [ GLOBAL ] params "{" body "}" } [ ":" itype { "," itype } ] [ loc ] .
//	itype  = type [ "sharded" sharding ] .
//	attrs  = "{" [ IDENT "=" value { "," IDENT "=" value } ] "}" .   (values: text_attr.go)
//	type   = IDENT "[" [ dim { "," dim } ] "]" .   (dim: a number or "?")
//	loc    = "loc" "(" locbody ")" .
//	locbody = "unknown" | STRING ":" NUMBER | "fused" [ "<" STRING ">" ] "[" [ locbody { "," locbody } ] "]" .
//
// Value names are any %name; the printer renumbers. Each function and each
// region is its own scope: a region sees only its parameters. A value
// named by a number (%12) gets that number as its Value.ID, so that text
// printed with PrintOptions.StableNames reads back with the same names;
// other values get IDs after the largest.
//
// Each instruction is checked as Func.Emit checks it: operand count,
// attribute type and region count against the op table, then the op's type
// rule, whose result types must equal those written after ':'. The types
// stay in the text, although the rule could give them, so that a dump reads
// on its own and a wrong edit is caught where it is made.

// ParseError is a syntax or type error in .sir text, at a 1-based line
// and byte column.
type ParseError struct {
	Line, Col int
	Msg       string
	// Err is the underlying error, if any: the *Error from an op's checks.
	Err error
}

func (e *ParseError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

func (e *ParseError) Unwrap() error { return e.Err }

// maxNesting bounds how deeply regions and literal lists nest, so that no
// input can exhaust the stack.
const maxNesting = 1000

// Parse reads a module: zero or more functions, the first being the entry.
// It never panics; an error is a *ParseError.
func Parse(src string) (*Module, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	m := &Module{}
	err = func() (err error) {
		defer p.recover(&err)
		names := map[string]bool{}
		for p.peek().kind != tEOF {
			at := p.peek()
			f := p.fn()
			if names[f.Name] {
				p.failf(at, "function @%s defined twice", quoteName(f.Name))
			}
			names[f.Name] = true
			m.Funcs = append(m.Funcs, f)
		}
		return nil
	}()
	if err != nil {
		return nil, err
	}
	return m, nil
}

// ParseFunc reads source that holds exactly one function.
func ParseFunc(src string) (*Func, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	var f *Func
	err = func() (err error) {
		defer p.recover(&err)
		f = p.fn()
		if t := p.peek(); t.kind != tEOF {
			p.failf(t, "expected end of input after the function, found %s", t.describe())
		}
		return nil
	}()
	if err != nil {
		return nil, err
	}
	return f, nil
}

type parser struct {
	toks  []token
	pos   int
	depth int
}

// bailout carries a *ParseError up the parser's stack to recover; any
// other panic is a bug and goes on.
type bailout struct{ err *ParseError }

func (p *parser) recover(err *error) {
	if r := recover(); r != nil {
		b, ok := r.(bailout)
		if !ok {
			panic(r)
		}
		*err = b.err
	}
}

func (p *parser) failf(at token, format string, args ...any) {
	panic(bailout{&ParseError{Line: at.line, Col: at.col, Msg: fmt.Sprintf(format, args...)}})
}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) peekAt(k int) token {
	if p.pos+k < len(p.toks) {
		return p.toks[p.pos+k]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tEOF {
		p.pos++
	}
	return t
}

func (p *parser) accept(kind tokKind, text string) bool {
	if p.peek().is(kind, text) {
		p.next()
		return true
	}
	return false
}

func (p *parser) expect(kind tokKind, text string) token {
	t := p.next()
	if !t.is(kind, text) {
		p.failf(t, "expected '%s', found %s", text, t.describe())
	}
	return t
}

// scope maps value names to values within one function or region.
type scope map[string]*Value

func (p *parser) fn() *Func {
	p.expect(tIdent, "func")
	nt := p.next()
	if nt.kind != tGlobal {
		p.failf(nt, "expected a function name @name, found %s", nt.describe())
	}
	f := &Func{Name: nt.text}
	sc := p.params(f)
	var want []Type
	declared := false
	if p.accept(tPunct, "->") {
		declared = true
		if p.accept(tPunct, "(") {
			if !p.accept(tPunct, ")") {
				for {
					want = append(want, p.typ())
					if s := p.optSharding("sharding"); s != nil {
						setSharding(&f.OutShardings, len(want)-1, s)
					}
					if p.accept(tPunct, ")") {
						break
					}
					p.expect(tPunct, ",")
				}
			}
		} else {
			want = append(want, p.typ())
			if s := p.optSharding("sharding"); s != nil {
				setSharding(&f.OutShardings, 0, s)
			}
		}
	}
	if p.accept(tIdent, "mesh") {
		f.Mesh = p.mesh()
	}
	p.expect(tPunct, "{")
	ret := p.body(f, sc)
	p.expect(tPunct, "}")
	keepNames(f, sc)
	if !declared {
		want = nil
	}
	if len(want) != len(f.Results) {
		p.failf(ret, "return has %d values, @%s declares %d results", len(f.Results), quoteName(f.Name), len(want))
	}
	for i, r := range f.Results {
		if !r.Type.Equal(want[i]) {
			p.failf(ret, "return value #%d has type %v, @%s declares %v", i, r.Type, quoteName(f.Name), want[i])
		}
	}
	return f
}

// params parses a parameter list into f and returns the scope it opens.
func (p *parser) params(f *Func) scope {
	sc := scope{}
	p.expect(tPunct, "(")
	if p.accept(tPunct, ")") {
		return sc
	}
	for {
		nt := p.next()
		if nt.kind != tValue {
			p.failf(nt, "expected a parameter %%name, found %s", nt.describe())
		}
		if sc[nt.text] != nil {
			p.failf(nt, "%%%s defined twice", nt.text)
		}
		p.expect(tPunct, ":")
		v := f.AddParam(p.typ(), UnknownLoc)
		if s := p.optSharding("sharding"); s != nil {
			setSharding(&f.InShardings, v.Index, s)
		}
		v.Sharding = p.optSharding("sharded")
		v.loc = p.optLoc()
		sc[nt.text] = v
		if p.accept(tPunct, ")") {
			return sc
		}
		p.expect(tPunct, ",")
	}
}

// body parses instructions up to and including the return, and returns the
// return's token.
func (p *parser) body(f *Func, sc scope) token {
	for {
		t := p.peek()
		if t.is(tIdent, "return") {
			p.next()
			if p.peek().kind == tValue {
				for {
					f.Results = append(f.Results, p.use(sc))
					if !p.accept(tPunct, ",") {
						break
					}
				}
			}
			return t
		}
		p.instr(f, sc)
	}
}

// use parses a reference to a defined value.
func (p *parser) use(sc scope) *Value {
	t := p.next()
	if t.kind != tValue {
		p.failf(t, "expected a value %%name, found %s", t.describe())
	}
	v := sc[t.text]
	if v == nil {
		p.failf(t, "%%%s is not defined (a region sees only its own parameters)", t.text)
	}
	return v
}

func (p *parser) instr(f *Func, sc scope) {
	var defs []token
	if p.peek().kind == tValue {
		for {
			t := p.next()
			if t.kind != tValue {
				p.failf(t, "expected a result %%name, found %s", t.describe())
			}
			defs = append(defs, t)
			if p.accept(tPunct, "=") {
				break
			}
			p.expect(tPunct, ",")
		}
	}
	opTok := p.next()
	if opTok.kind != tIdent {
		p.failf(opTok, "expected an op name, found %s", opTok.describe())
	}
	op, ok := OpByName(opTok.text)
	if !ok {
		p.failf(opTok, "unknown op %q", opTok.text)
	}
	info := op.Info()
	var args []*Value
	if p.peek().kind == tValue {
		for {
			args = append(args, p.use(sc))
			if !p.accept(tPunct, ",") {
				break
			}
		}
	}
	attr := p.attrDict(info.Attr, opTok)
	var regions []*Func
	for {
		t := p.peek()
		if !t.is(tPunct, "(") && t.kind != tGlobal {
			break
		}
		regions = append(regions, p.region(t))
	}
	var types []Type
	var sharded []*Sharding
	var colon token
	if p.peek().is(tPunct, ":") {
		colon = p.next()
		for {
			types = append(types, p.typ())
			sharded = append(sharded, p.optSharding("sharded"))
			if !p.accept(tPunct, ",") {
				break
			}
		}
	}
	loc := p.optLoc()
	if len(types) != len(defs) {
		at := opTok
		if len(types) > 0 {
			at = colon
		}
		p.failf(at, "%s: %d results named but %d result types given", info.Name, len(defs), len(types))
	}

	in := &Instr{Op: op, Args: args, Attr: attr, Regions: regions, Loc: loc, Func: f}
	if err := info.checkForm(in); err != nil {
		p.failf(opTok, "%s: %v", info.Name, err)
	}
	inferred, err := inferSafely(info, in)
	if err != nil {
		panic(bailout{&ParseError{Line: opTok.line, Col: opTok.col,
			Msg: fmt.Sprintf("%s: %v", info.Name, err), Err: Errorf(loc, info.Name, "%v", err)}})
	}
	if len(inferred) != len(types) {
		p.failf(opTok, "%s: %d result types given, the type rule gives %d (%s)", info.Name, len(types), len(inferred), typeList(inferred))
	}
	for i := range inferred {
		if !inferred[i].Equal(types[i]) {
			p.failf(colon, "%s: result #%d has type %v, the type rule gives %v", info.Name, i, types[i], inferred[i])
		}
	}
	for _, r := range regions {
		r.Parent = in
	}
	for i, t := range types {
		v := &Value{ID: f.nextID, Type: t, Def: in, Index: i, Func: f, Sharding: sharded[i]}
		f.nextID++
		in.Results = append(in.Results, v)
		name := defs[i].text
		if sc[name] != nil {
			p.failf(defs[i], "%%%s defined twice", name)
		}
		sc[name] = v
	}
	f.Body = append(f.Body, in)
}

func typeList(ts []Type) string {
	s := ""
	for i, t := range ts {
		if i > 0 {
			s += ", "
		}
		s += t.String()
	}
	return s
}

// errRulePanicked marks a type rule that panicked on what the parser gave
// it: a bug in the rule, which should have returned an error.
var errRulePanicked = errors.New("internal error: type rule panicked")

// inferSafely runs the op's type rule, turning a panic in it into an error,
// so that no text can make Parse panic.
func inferSafely(info *OpInfo, in *Instr) (ts []Type, err error) {
	defer func() {
		if r := recover(); r != nil {
			ts, err = nil, fmt.Errorf("%w: %v", errRulePanicked, r)
		}
	}()
	if info.Infer == nil {
		return nil, errors.New("internal error: op has no type rule")
	}
	argTypes := make([]Type, len(in.Args))
	for i, a := range in.Args {
		argTypes[i] = a.Type
	}
	return info.Infer(argTypes, in.Attr, in.Regions)
}

// region parses [@name] (params) { body } into a nested function.
func (p *parser) region(at token) *Func {
	if p.depth >= maxNesting {
		p.failf(at, "regions nested too deeply")
	}
	p.depth++
	defer func() { p.depth-- }()
	r := &Func{}
	if at.kind == tGlobal {
		p.next()
		r.Name = at.text
	}
	sc := p.params(r)
	p.expect(tPunct, "{")
	p.body(r, sc)
	p.expect(tPunct, "}")
	keepNames(r, sc)
	return r
}

// keepNames gives each value of f named by a number in canonical form
// (%0, %12, not %012) below 2^31 that number as its ID, and the other values fresh
// IDs after the largest, in definition order. Names are unique in a scope,
// so the IDs are too.
func keepNames(f *Func, sc scope) {
	named := map[*Value]bool{}
	next := 0
	for name, v := range sc {
		if n, err := strconv.Atoi(name); err == nil && n >= 0 && n < 1<<31 && strconv.Itoa(n) == name {
			v.ID = n
			named[v] = true
			next = max(next, n+1)
		}
	}
	fresh := func(v *Value) {
		if !named[v] {
			v.ID = next
			next++
		}
	}
	for _, v := range f.Params {
		fresh(v)
	}
	for _, in := range f.Body {
		for _, v := range in.Results {
			fresh(v)
		}
	}
	f.nextID = next
}

// typ parses a tensor type such as f32[2,3], si32[] or f32[?,4].
func (p *parser) typ() Type {
	t := p.next()
	if t.kind != tIdent {
		p.failf(t, "expected a type, found %s", t.describe())
	}
	d, ok := ParseDType(t.text)
	if !ok {
		p.failf(t, "unknown element type %q", t.text)
	}
	p.expect(tPunct, "[")
	dims := []int{}
	if p.accept(tPunct, "]") {
		return Type{DType: d, Shape: dims}
	}
	for {
		dt := p.next()
		switch {
		case dt.is(tPunct, "?"):
			dims = append(dims, DynamicDim)
		case dt.kind == tNumber:
			n, err := strconv.ParseInt(dt.text, 10, strconv.IntSize)
			if err != nil || n < 0 || dt.text[0] == '+' || dt.text[0] == '-' {
				p.failf(dt, "bad dimension %s", dt.text)
			}
			dims = append(dims, int(n))
		default:
			p.failf(dt, "expected a dimension, found %s", dt.describe())
		}
		if p.accept(tPunct, "]") {
			return Type{DType: d, Shape: dims}
		}
		p.expect(tPunct, ",")
	}
}

// optLoc parses an optional loc(...) suffix.
func (p *parser) optLoc() Loc {
	if !p.peek().is(tIdent, "loc") || !p.peekAt(1).is(tPunct, "(") {
		return UnknownLoc
	}
	p.next()
	p.next()
	l := p.locBody(0)
	p.expect(tPunct, ")")
	return l
}

func (p *parser) locBody(depth int) Loc {
	t := p.next()
	switch {
	case t.is(tIdent, "unknown"):
		return UnknownLoc
	case t.kind == tString:
		p.expect(tPunct, ":")
		nt := p.next()
		n, err := strconv.ParseInt(nt.text, 10, strconv.IntSize)
		if nt.kind != tNumber || err != nil {
			p.failf(nt, "expected a line number, found %s", nt.describe())
		}
		return Loc{File: t.text, Line: int(n)}
	case t.is(tIdent, "fused"):
		if depth >= maxNesting {
			p.failf(t, "locations nested too deeply")
		}
		var l Loc
		if p.accept(tPunct, "<") {
			pt := p.next()
			if pt.kind != tString {
				p.failf(pt, "expected the pass name as a string, found %s", pt.describe())
			}
			l.Pass = pt.text
			p.expect(tPunct, ">")
		}
		p.expect(tPunct, "[")
		if p.accept(tPunct, "]") {
			return l
		}
		for {
			l.Fused = append(l.Fused, p.locBody(depth+1))
			if p.accept(tPunct, "]") {
				return l
			}
			p.expect(tPunct, ",")
		}
	}
	p.failf(t, "expected a location (\"file\":line, fused[...] or unknown), found %s", t.describe())
	return UnknownLoc
}
