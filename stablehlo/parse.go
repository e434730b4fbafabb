package stablehlo

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseError is a parse error at a 1-based line and column of the input.
type ParseError struct {
	Line, Col int
	Msg       string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// maxDepth bounds the nesting of regions, types and attributes, so that
// hostile input cannot exhaust the stack.
const maxDepth = 500

// Parse parses an MLIR module in StableHLO's pretty or generic form: one
// `module` op, or top-level func.func ops with no module wrapper (the
// module then has Bare set). Location aliases (`#loc1 = loc(...)`) may
// appear before or after the module. The error is a *ParseError.
func Parse(src []byte) (m *Module, err error) {
	p := &parser{src: src, locAliases: map[string]Loc{}}
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(*ParseError)
			if !ok {
				panic(r)
			}
			m, err = nil, pe
		}
	}()
	m = p.top()
	return m, nil
}

type parser struct {
	src   []byte
	pos   int
	depth int
	// scopes are the visible value names, innermost last.
	scopes []map[string][]*Value
	// locAliases are the `#name = loc(...)` definitions (unresolved).
	locAliases map[string]Loc
	// locFixups are the location fields to resolve at the end.
	locFixups []locFixup
	// locCopies give ops made from a compact syntax (reduce ... applies)
	// the location of the op that holds them, after resolution.
	locCopies []locCopy
	// lineAt and lineNo are the last position lineOf answered for and its
	// line: lineOf counts on from there.
	lineAt, lineNo int
}

// lineOf returns the 1-based line of position pos.
func (p *parser) lineOf(pos int) int {
	if pos < p.lineAt || p.lineNo == 0 {
		p.lineAt, p.lineNo = 0, 1
	}
	pos = min(pos, len(p.src))
	p.lineNo += bytes.Count(p.src[p.lineAt:pos], []byte{'\n'})
	p.lineAt = pos
	return p.lineNo
}

type locCopy struct {
	src  *Loc
	dsts []*Loc
}

type locFixup struct {
	ptr *Loc
	pos int
}

// locRef is a reference to a location alias, resolved after parsing.
type locRef struct{ name string }

func (locRef) isLoc()           {}
func (l locRef) String() string { return l.name }

func (p *parser) failAt(pos int, format string, args ...any) {
	pos = min(pos, len(p.src))
	line := p.lineOf(pos)
	col := pos - bytes.LastIndexByte(p.src[:pos], '\n') // 1-based: the bytes since the newline, plus one
	panic(&ParseError{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) fail(format string, args ...any) { p.failAt(p.pos, format, args...) }

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail("nesting too deep")
	}
}

func (p *parser) leave() { p.depth-- }

// ws skips white space and // comments.
func (p *parser) ws() {
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '/':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

// here skips white space and returns the position of the next token.
func (p *parser) here() int { p.ws(); return p.pos }

func (p *parser) eof() bool { p.ws(); return p.pos >= len(p.src) }

// peek returns the next non-space byte (0 at the end).
func (p *parser) peek() byte {
	p.ws()
	if p.pos >= len(p.src) {
		return 0
	}
	return p.src[p.pos]
}

func (p *parser) peekAt(off int) byte {
	if p.pos+off >= len(p.src) {
		return 0
	}
	return p.src[p.pos+off]
}

func (p *parser) hasPrefix(s string) bool {
	p.ws()
	if len(p.src)-p.pos < len(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if p.src[p.pos+i] != s[i] {
			return false
		}
	}
	return true
}

// try consumes the punctuation s if it comes next.
func (p *parser) try(s string) bool {
	if p.hasPrefix(s) {
		p.pos += len(s)
		return true
	}
	return false
}

func (p *parser) expect(s string) {
	if !p.try(s) {
		p.fail("expected '%s'%s", s, p.found())
	}
}

// found describes the next token for error messages.
func (p *parser) found() string {
	p.ws()
	if p.pos >= len(p.src) {
		return ", found end of input"
	}
	end := p.pos + 1
	for end < len(p.src) && end-p.pos < 20 && isIDChar(p.src[end]) && isIDChar(p.src[p.pos]) {
		end++
	}
	return fmt.Sprintf(", found %q", p.src[p.pos:end])
}

func isIDStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isIDChar(c byte) bool {
	return isIDStart(c) || c >= '0' && c <= '9' || c == '$' || c == '.'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// tryKw consumes the keyword kw if it comes next as a whole word.
func (p *parser) tryKw(kw string) bool {
	if p.hasPrefix(kw) {
		end := p.pos + len(kw)
		if end < len(p.src) && isIDChar(p.src[end]) {
			return false
		}
		p.pos = end
		return true
	}
	return false
}

func (p *parser) expectKw(kw string) {
	if !p.tryKw(kw) {
		p.fail("expected '%s'%s", kw, p.found())
	}
}

// peekKw reports whether the keyword kw comes next, without consuming it.
func (p *parser) peekKw(kw string) bool {
	save := p.pos
	ok := p.tryKw(kw)
	p.pos = save
	return ok
}

// ident reads a bare identifier; "" if none.
func (p *parser) ident() string {
	p.ws()
	if p.pos >= len(p.src) || !isIDStart(p.src[p.pos]) {
		return ""
	}
	start := p.pos
	for p.pos < len(p.src) && isIDChar(p.src[p.pos]) {
		p.pos++
	}
	return string(p.src[start:p.pos])
}

func (p *parser) expectIdent(what string) string {
	s := p.ident()
	if s == "" {
		p.fail("expected %s%s", what, p.found())
	}
	return s
}

// stringLit reads a string literal; ok is false if none comes next.
func (p *parser) stringLit() (string, bool) {
	if p.peek() != '"' {
		return "", false
	}
	start := p.pos
	p.pos++
	var sb strings.Builder
	for {
		if p.pos >= len(p.src) {
			p.failAt(start, "unterminated string")
		}
		c := p.src[p.pos]
		p.pos++
		switch c {
		case '"':
			return sb.String(), true
		case '\n':
			p.failAt(start, "unterminated string")
		case '\\':
			if p.pos >= len(p.src) {
				p.failAt(start, "unterminated string")
			}
			e := p.src[p.pos]
			switch e {
			case '\\', '"':
				sb.WriteByte(e)
				p.pos++
			case 'n':
				sb.WriteByte('\n')
				p.pos++
			case 't':
				sb.WriteByte('\t')
				p.pos++
			default:
				if p.pos+1 < len(p.src) && isHex(e) && isHex(p.src[p.pos+1]) {
					b, _ := hex.DecodeString(string(p.src[p.pos : p.pos+2]))
					sb.WriteByte(b[0])
					p.pos += 2
				} else {
					p.fail("unknown escape in string literal")
				}
			}
		default:
			sb.WriteByte(c)
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func (p *parser) expectString(what string) string {
	s, ok := p.stringLit()
	if !ok {
		p.fail("expected %s%s", what, p.found())
	}
	return s
}

// symbolName reads @name or @"name" (without '@'); ok false if no '@'.
func (p *parser) symbolName() (string, bool) {
	if p.peek() != '@' {
		return "", false
	}
	p.pos++
	if p.pos < len(p.src) && p.src[p.pos] == '"' {
		s, _ := p.stringLit()
		if s == "" {
			p.fail("empty symbol name")
		}
		return s, true
	}
	start := p.pos
	for p.pos < len(p.src) && (isIDChar(p.src[p.pos]) || p.src[p.pos] == '-') {
		p.pos++
	}
	if p.pos == start {
		p.fail("expected symbol name after '@'")
	}
	return string(p.src[start:p.pos]), true
}

func (p *parser) expectSymbol() string {
	s, ok := p.symbolName()
	if !ok {
		p.fail("expected symbol name%s", p.found())
	}
	return s
}

// number reads a numeric literal: an optional '-', then a decimal integer,
// a hexadecimal integer (0x...), or a decimal float. It returns the text
// and whether it is a float; ok is false if no number comes next.
func (p *parser) number() (text string, isFloat, ok bool) {
	p.ws()
	start := p.pos
	i := p.pos
	if i < len(p.src) && (p.src[i] == '-' || p.src[i] == '+') {
		i++
	}
	if i >= len(p.src) || !isDigit(p.src[i]) {
		return "", false, false
	}
	if p.src[i] == '0' && i+1 < len(p.src) && p.src[i+1] == 'x' && i+2 < len(p.src) && isHex(p.src[i+2]) {
		i += 2
		for i < len(p.src) && isHex(p.src[i]) {
			i++
		}
		p.pos = i
		return string(p.src[start:i]), false, true
	}
	for i < len(p.src) && isDigit(p.src[i]) {
		i++
	}
	if i < len(p.src) && p.src[i] == '.' {
		isFloat = true
		i++
		for i < len(p.src) && isDigit(p.src[i]) {
			i++
		}
	}
	if i < len(p.src) && (p.src[i] == 'e' || p.src[i] == 'E') {
		j := i + 1
		if j < len(p.src) && (p.src[j] == '+' || p.src[j] == '-') {
			j++
		}
		if j < len(p.src) && isDigit(p.src[j]) {
			for j < len(p.src) && isDigit(p.src[j]) {
				j++
			}
			i = j
			isFloat = true
		}
	}
	p.pos = i
	return string(p.src[start:i]), isFloat, true
}

// intText converts an integer literal's text to its magnitude and sign.
func (p *parser) intText(text string, at int) (neg bool, mag uint64) {
	s := text
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	var err error
	if strings.HasPrefix(s, "0x") {
		mag, err = strconv.ParseUint(s[2:], 16, 64)
	} else {
		mag, err = strconv.ParseUint(s, 10, 64)
	}
	if err != nil {
		p.failAt(at, "integer literal %s out of range", text)
	}
	return neg, mag
}

// int64Lit reads an integer that fits in int64.
func (p *parser) int64Lit() int64 {
	at := p.here()
	text, isFloat, ok := p.number()
	if !ok || isFloat {
		p.failAt(at, "expected integer%s", p.found())
	}
	neg, mag := p.intText(text, at)
	if neg {
		if mag > 1<<63 {
			p.failAt(at, "integer literal %s out of range", text)
		}
		return -int64(mag)
	}
	if mag > math.MaxInt64 {
		p.failAt(at, "integer literal %s out of range", text)
	}
	return int64(mag)
}

// intList reads `[1, 2, 3]`.
func (p *parser) intList() []int64 {
	p.expect("[")
	out := []int64{}
	if p.try("]") {
		return out
	}
	for {
		out = append(out, p.int64Lit())
		if p.try("]") {
			return out
		}
		p.expect(",")
	}
}

// ---------------------------------------------------------------- values

func (p *parser) pushScope() { p.scopes = append(p.scopes, map[string][]*Value{}) }
func (p *parser) popScope()  { p.scopes = p.scopes[:len(p.scopes)-1] }

// valueName reads %name (without '%'); "" if no '%' comes next.
func (p *parser) valueName() string {
	if p.peek() != '%' {
		return ""
	}
	p.pos++
	start := p.pos
	for p.pos < len(p.src) && (isIDChar(p.src[p.pos]) || p.src[p.pos] == '-') {
		p.pos++
	}
	if p.pos == start {
		p.fail("expected value name after '%%'")
	}
	return string(p.src[start:p.pos])
}

func (p *parser) define(name string, vals []*Value, at int) {
	for _, s := range p.scopes {
		if _, dup := s[name]; dup {
			p.failAt(at, "redefinition of value %%%s", name)
		}
	}
	p.scopes[len(p.scopes)-1][name] = vals
}

// operand reads a value use: %name or %name#i.
func (p *parser) operand() *Value {
	at := p.here()
	name := p.valueName()
	if name == "" {
		p.fail("expected value%s", p.found())
	}
	idx := 0
	hasIdx := false
	if p.pos < len(p.src) && p.src[p.pos] == '#' {
		p.pos++
		start := p.pos
		for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
			p.pos++
		}
		n, err := strconv.Atoi(string(p.src[start:p.pos]))
		if err != nil {
			p.fail("expected result number after '#'")
		}
		idx, hasIdx = n, true
	}
	for i := len(p.scopes) - 1; i >= 0; i-- {
		if vals, ok := p.scopes[i][name]; ok {
			if idx >= len(vals) {
				p.failAt(at, "value %%%s has %d results, no #%d", name, len(vals), idx)
			}
			if !hasIdx && len(vals) > 1 {
				p.failAt(at, "value %%%s has %d results; use %%%s#N", name, len(vals), name)
			}
			return vals[idx]
		}
	}
	p.failAt(at, "use of undefined value %%%s", name)
	return nil
}

// operandList reads `%a, %b, ...` (possibly empty): it stops before a
// comma that is not followed by a value.
func (p *parser) operandList() []*Value {
	var out []*Value
	if p.peek() != '%' {
		return out
	}
	for {
		out = append(out, p.operand())
		save := p.pos
		if !p.try(",") {
			return out
		}
		if p.peek() != '%' {
			p.pos = save
			return out
		}
	}
}

// ----------------------------------------------------------------- types

func (p *parser) typ() Type {
	p.enter()
	defer p.leave()
	at := p.here()
	switch c := p.peek(); {
	case c == '!':
		return p.bangType()
	case c == '(':
		ins := p.typeListParen()
		p.expect("->")
		return FunctionType{Inputs: ins, Results: p.resultTypes()}
	case isIDStart(c):
		save := p.pos
		id := p.ident()
		switch id {
		case "tensor":
			return p.tensorType()
		case "tuple":
			p.expect("<")
			var elems []Type
			if !p.try(">") {
				for {
					elems = append(elems, p.typ())
					if p.try(">") {
						break
					}
					p.expect(",")
				}
			}
			return TupleType{Elems: elems}
		case "complex":
			p.expect("<")
			part := p.typ()
			pe, ok := part.(ElementType)
			if !ok || !pe.IsFloat() {
				p.failAt(at, "invalid complex element type %s", part)
			}
			p.expect(">")
			return ElementType("complex<" + string(pe) + ">")
		}
		if isElementTypeName(id) {
			return ElementType(id)
		}
		p.pos = save
	}
	p.failAt(at, "expected type%s", p.found())
	return nil
}

// isElementTypeName reports whether id names a builtin scalar type.
func isElementTypeName(id string) bool {
	if _, _, ok := ElementType(id).intWidth(); ok {
		return true
	}
	switch id {
	case "bf16", "tf32", "index", "f16", "f32", "f64", "f80", "f128":
		return true
	}
	// Small float types: f8E4M3FN, f8E5M2FNUZ, f6E2M3FN, f4E2M1FN, ...
	if len(id) > 3 && (strings.HasPrefix(id, "f8E") || strings.HasPrefix(id, "f6E") || strings.HasPrefix(id, "f4E")) {
		for i := 3; i < len(id); i++ {
			if !isDigit(id[i]) && !(id[i] >= 'A' && id[i] <= 'Z') {
				return false
			}
		}
		return true
	}
	return false
}

// bangType reads a !dialect type: !stablehlo.token, or any other kept
// verbatim (quantized types).
func (p *parser) bangType() Type {
	start := p.pos
	p.pos++
	name := p.identNoWS()
	if name == "" {
		p.fail("expected dialect type name after '!'")
	}
	if name == "stablehlo.token" {
		return TokenType{}
	}
	if p.pos < len(p.src) && p.src[p.pos] == '<' {
		p.balanced()
	}
	return OpaqueType{Text: string(p.src[start:p.pos])}
}

// identNoWS reads an identifier at the current position (no space
// skipped).
func (p *parser) identNoWS() string {
	start := p.pos
	if p.pos < len(p.src) && isIDStart(p.src[p.pos]) {
		for p.pos < len(p.src) && isIDChar(p.src[p.pos]) {
			p.pos++
		}
	}
	return string(p.src[start:p.pos])
}

// balanced skips a `<...>` group starting at the current position,
// honoring nested brackets, strings and `->`.
func (p *parser) balanced() {
	start := p.pos
	var stack []byte
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch c {
		case '<', '(', '[', '{':
			stack = append(stack, c)
			if len(stack) > maxDepth {
				p.fail("nesting too deep")
			}
		case '>', ')', ']', '}':
			if c == '>' && p.pos > start && p.src[p.pos-1] == '-' {
				break
			}
			open := map[byte]byte{'>': '<', ')': '(', ']': '[', '}': '{'}[c]
			if len(stack) == 0 || stack[len(stack)-1] != open {
				p.fail("unbalanced '%c'", c)
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				p.pos++
				return
			}
		case '"':
			p.stringLit()
			continue
		}
		p.pos++
	}
	p.failAt(start, "unterminated '<'")
}

func (p *parser) tensorType() Type {
	p.expect("<")
	t := TensorType{Shape: []int64{}}
	p.ws()
	if p.try("*") {
		if p.pos >= len(p.src) || p.src[p.pos] != 'x' {
			p.fail("expected 'x' after '*'")
		}
		p.pos++
		t.Unranked = true
		t.Shape = nil
	} else {
		for {
			if p.pos >= len(p.src) {
				p.fail("unterminated tensor type")
			}
			c := p.src[p.pos]
			var d int64
			switch {
			case c == '?':
				p.pos++
				d = Dynamic
			case isDigit(c):
				start := p.pos
				for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
					p.pos++
				}
				n, err := strconv.ParseInt(string(p.src[start:p.pos]), 10, 64)
				if err != nil {
					p.failAt(start, "dimension size out of range")
				}
				d = n
			default:
				goto elem
			}
			if p.pos >= len(p.src) || p.src[p.pos] != 'x' {
				p.fail("expected 'x' in dimension list")
			}
			p.pos++
			t.Shape = append(t.Shape, d)
		}
	}
elem:
	at := p.here()
	et := p.typ()
	e, ok := et.(ElementType)
	if !ok {
		if o, isOpaque := et.(OpaqueType); isOpaque {
			e = ElementType(o.Text)
		} else {
			p.failAt(at, "invalid tensor element type %s", et)
		}
	}
	if e == Index {
		p.failAt(at, "invalid tensor element type index")
	}
	t.Elem = e
	if p.try(",") {
		t.Encoding = p.attr()
	}
	p.expect(">")
	return t
}

// typeListParen reads `(t1, t2, ...)`.
func (p *parser) typeListParen() []Type {
	p.expect("(")
	var out []Type
	if p.try(")") {
		return out
	}
	for {
		out = append(out, p.typ())
		if p.try(")") {
			return out
		}
		p.expect(",")
	}
}

// typeList reads `t1, t2, ...` (at least one).
func (p *parser) typeList() []Type {
	out := []Type{p.typ()}
	for p.try(",") {
		out = append(out, p.typ())
	}
	return out
}

// resultTypes reads the result part of a function type: a type, or
// `(t1, ...)`.
func (p *parser) resultTypes() []Type {
	if p.peek() == '(' {
		return p.typeListParen()
	}
	return []Type{p.typ()}
}

// funcType reads `(ins) -> outs`.
func (p *parser) funcType() ([]Type, []Type) {
	ins := p.typeListParen()
	p.expect("->")
	return ins, p.resultTypes()
}

// ------------------------------------------------------------ attributes

// attrDict reads `{a = 1, b, ...}`.
func (p *parser) attrDict() []NamedAttr {
	p.enter()
	defer p.leave()
	p.expect("{")
	var out []NamedAttr
	if p.try("}") {
		return out
	}
	for {
		at := p.here()
		name, ok := p.stringLit()
		if !ok {
			name = p.ident()
			if name == "" {
				p.fail("expected attribute name%s", p.found())
			}
		}
		for _, a := range out {
			if a.Name == name {
				p.failAt(at, "duplicate attribute %q", name)
			}
		}
		var v Attr = UnitAttr{}
		if p.try("=") {
			v = p.attr()
		}
		out = append(out, NamedAttr{Name: name, Value: v})
		if p.try("}") {
			return out
		}
		p.expect(",")
	}
}

// optAttrDict reads an attribute dictionary if one comes next.
func (p *parser) optAttrDict() []NamedAttr {
	if p.peek() == '{' {
		return p.attrDict()
	}
	return nil
}

// optAttrDictWithKeyword reads `attributes {...}` if it comes next.
func (p *parser) optAttrDictWithKeyword() []NamedAttr {
	if p.tryKw("attributes") {
		return p.attrDict()
	}
	return nil
}

// attr reads an attribute value.
func (p *parser) attr() Attr {
	p.enter()
	defer p.leave()
	p.ws()
	at := p.here()
	c := p.peek()
	switch {
	case c == '{':
		return DictAttr(p.attrDict())
	case c == '[':
		p.pos++
		out := ArrayAttr{}
		if p.try("]") {
			return out
		}
		for {
			out = append(out, p.attr())
			if p.try("]") {
				return out
			}
			p.expect(",")
		}
	case c == '"':
		s, _ := p.stringLit()
		return StringAttr(s)
	case c == '@':
		s, _ := p.symbolName()
		ref := SymbolRefAttr{Name: s}
		for p.try("::") {
			ref.Nested = append(ref.Nested, p.expectSymbol())
		}
		return ref
	case c == '#':
		return p.hashAttr()
	case c == '-' || isDigit(c):
		return p.numberAttr()
	case c == '!' || c == '(':
		return TypeAttr{Type: p.typ()}
	case isIDStart(c):
		save := p.pos
		id := p.ident()
		switch id {
		case "true":
			return BoolAttr(true)
		case "false":
			return BoolAttr(false)
		case "unit":
			return UnitAttr{}
		case "dense":
			return p.denseAttr(at)
		case "array":
			return p.arrayAttr()
		}
		if p.pos < len(p.src) && p.src[p.pos] == '<' && !isElementTypeName(id) && id != "tensor" && id != "tuple" && id != "complex" {
			// dense_resource<...>, affine_map<...>, ...: keep verbatim.
			p.balanced()
			end := p.pos
			save2 := p.pos
			if p.try(":") {
				p.typ()
				end = p.pos
			} else {
				p.pos = save2
			}
			return OpaqueAttr{Text: string(p.src[at:end])}
		}
		p.pos = save
		if isElementTypeName(id) || id == "tensor" || id == "tuple" || id == "complex" {
			return TypeAttr{Type: p.typ()}
		}
	}
	p.failAt(at, "expected attribute value%s", p.found())
	return nil
}

// numberAttr reads `1 : i64`, `-2`, `1.5 : f32`, `0x7FC00000 : f32`.
func (p *parser) numberAttr() Attr {
	at := p.here()
	text, isFloat, ok := p.number()
	if !ok {
		p.failAt(at, "expected number%s", p.found())
	}
	var t Type
	if p.try(":") {
		t = p.typ()
	}
	et, _ := t.(ElementType)
	if t != nil && !(et.IsInteger() || et.IsFloat()) {
		p.failAt(at, "number of type %s", t)
	}
	if isFloat || et.IsFloat() {
		sem := semF64
		if t != nil {
			sem = floatSemOf(et)
			if sem == nil {
				return OpaqueAttr{Text: string(p.src[at:p.pos])}
			}
		}
		b := p.floatBits(text, sem, at)
		return FloatAttr{Value: sem.toFloat64(b), Type: t}
	}
	neg, mag := p.intText(text, at)
	bits, unsigned := 64, false
	if t != nil {
		bits, unsigned, _ = et.intWidth()
	}
	return IntAttr{Value: p.intBits(neg, mag, bits, unsigned, text, at), Type: t}
}

// intBits checks that the literal fits the integer type and returns its
// bits (sign-extended for signless types).
func (p *parser) intBits(neg bool, mag uint64, bits int, unsigned bool, text string, at int) int64 {
	if unsigned && neg && mag != 0 {
		p.failAt(at, "negative value %s for unsigned type", text)
	}
	if neg {
		if bits < 64 && mag > 1<<uint(bits-1) || mag > 1<<63 {
			p.failAt(at, "integer literal %s out of range for i%d", text, bits)
		}
		v := -int64(mag)
		return v
	}
	if bits < 64 && mag >= 1<<uint(bits) {
		p.failAt(at, "integer literal %s out of range for %d bits", text, bits)
	}
	v := int64(mag)
	if !unsigned && bits < 64 && bits > 1 {
		sh := uint(64 - bits)
		v = v << sh >> sh
	}
	return v
}

// floatBits converts a float literal (decimal, or hex bits 0x...) to the
// bit pattern of sem.
func (p *parser) floatBits(text string, sem *floatSem, at int) uint64 {
	s := strings.TrimPrefix(text, "+")
	if h, ok := strings.CutPrefix(s, "0x"); ok {
		b, err := strconv.ParseUint(h, 16, 64)
		if err != nil || sem.bits() < 64 && b >= 1<<uint(sem.bits()) {
			p.failAt(at, "hexadecimal float constant %s out of range for %s", text, sem.name)
		}
		return b
	}
	if strings.HasPrefix(s, "-0x") {
		p.failAt(at, "hexadecimal float literal %s should not have a sign", text)
	}
	b, ok := sem.parseDecimal(s)
	if !ok {
		p.failAt(at, "floating point value %s too large", text)
	}
	return b
}

func (p *parser) arrayAttr() Attr {
	p.expect("<")
	at := p.here()
	t := p.typ()
	e, ok := t.(ElementType)
	if !ok || !(e.IsInteger() || floatSemOf(e) != nil) || e == Index {
		p.failAt(at, "unsupported dense array element type %s", t)
	}
	a := DenseArray{Elem: e}
	if e.IsFloat() {
		a.Floats = []float64{}
	} else {
		a.Ints = []int64{}
	}
	if p.try(">") {
		return a
	}
	p.expect(":")
	for {
		vat := p.here()
		switch {
		case e == I1 && p.tryKw("true"):
			a.Ints = append(a.Ints, 1)
		case e == I1 && p.tryKw("false"):
			a.Ints = append(a.Ints, 0)
		default:
			text, isFloat, ok := p.number()
			if !ok {
				p.failAt(vat, "expected array element%s", p.found())
			}
			if sem := floatSemOf(e); sem != nil {
				a.Floats = append(a.Floats, sem.toFloat64(p.floatBits(text, sem, vat)))
			} else {
				if isFloat {
					p.failAt(vat, "expected integer in array<%s>", e)
				}
				bits, unsigned, _ := e.intWidth()
				neg, mag := p.intText(text, vat)
				v := p.intBits(neg, mag, bits, unsigned, text, vat)
				if e == I1 {
					v &= 1
				}
				a.Ints = append(a.Ints, v)
			}
		}
		if p.try(">") {
			return a
		}
		p.expect(",")
	}
}

// hashAttr reads `#dialect<...>` and `#dialect.name<...>` attributes.
func (p *parser) hashAttr() Attr {
	start := p.pos
	p.pos++
	name := p.identNoWS()
	if name == "" {
		p.fail("expected attribute name after '#'")
	}
	if p.pos >= len(p.src) || p.src[p.pos] != '<' {
		p.failAt(start, "undefined attribute alias #%s", name)
	}
	bodyStart := p.pos
	switch name {
	case "stablehlo.dot", "stablehlo.gather", "stablehlo.scatter", "stablehlo.conv", "stablehlo.channel_handle":
		p.pos++
		a := p.structAttr(name)
		p.expect(">")
		return a
	}
	if !strings.Contains(name, ".") {
		// #dialect<kind VALUE>
		p.pos++
		save := p.pos
		kind := p.ident()
		val := p.ident()
		if kind != "" && val != "" && p.try(">") {
			return EnumAttr{Dialect: name, Kind: kind, Value: val}
		}
		p.pos = save
	}
	p.pos = bodyStart
	p.balanced()
	return OpaqueAttr{Text: string(p.src[start:p.pos])}
}

// structAttr reads the body of #stablehlo.dot/gather/scatter/conv/
// channel_handle (after '<', before '>').
func (p *parser) structAttr(name string) Attr {
	lists := map[string][]int64{}
	ints := map[string]int64{}
	var allowed map[string]bool // true: list, false: scalar
	switch name {
	case "stablehlo.dot":
		allowed = map[string]bool{"lhs_batching_dimensions": true, "rhs_batching_dimensions": true, "lhs_contracting_dimensions": true, "rhs_contracting_dimensions": true}
	case "stablehlo.gather":
		allowed = map[string]bool{"offset_dims": true, "collapsed_slice_dims": true, "operand_batching_dims": true, "start_indices_batching_dims": true, "start_index_map": true, "index_vector_dim": false}
	case "stablehlo.scatter":
		allowed = map[string]bool{"update_window_dims": true, "inserted_window_dims": true, "input_batching_dims": true, "scatter_indices_batching_dims": true, "scatter_dims_to_operand_dims": true, "index_vector_dim": false}
	case "stablehlo.channel_handle":
		allowed = map[string]bool{"handle": false, "type": false}
	case "stablehlo.conv":
		if p.peek() == '[' {
			c := p.convCompact()
			return c
		}
		p.expectKw("raw")
		allowed = map[string]bool{"input_batch_dimension": false, "input_feature_dimension": false, "input_spatial_dimensions": true,
			"kernel_input_feature_dimension": false, "kernel_output_feature_dimension": false, "kernel_spatial_dimensions": true,
			"output_batch_dimension": false, "output_feature_dimension": false, "output_spatial_dimensions": true}
	}
	seen := map[string]bool{}
	if p.peek() != '>' {
		for {
			at := p.here()
			key := p.expectIdent("field name")
			isList, ok := allowed[key]
			if !ok {
				p.failAt(at, "unknown field %q in #%s", key, name)
			}
			if seen[key] {
				p.failAt(at, "duplicate field %q", key)
			}
			seen[key] = true
			p.expect("=")
			if isList {
				lists[key] = p.intList()
			} else {
				ints[key] = p.int64Lit()
			}
			if p.peek() == '>' {
				break
			}
			p.expect(",")
		}
	}
	switch name {
	case "stablehlo.dot":
		return DotDims{LhsBatchingDims: lists["lhs_batching_dimensions"], RhsBatchingDims: lists["rhs_batching_dimensions"],
			LhsContractingDims: lists["lhs_contracting_dimensions"], RhsContractingDims: lists["rhs_contracting_dimensions"]}
	case "stablehlo.gather":
		return GatherDims{OffsetDims: lists["offset_dims"], CollapsedSliceDims: lists["collapsed_slice_dims"],
			OperandBatchingDims: lists["operand_batching_dims"], StartIndicesBatchingDims: lists["start_indices_batching_dims"],
			StartIndexMap: lists["start_index_map"], IndexVectorDim: ints["index_vector_dim"]}
	case "stablehlo.scatter":
		return ScatterDims{UpdateWindowDims: lists["update_window_dims"], InsertedWindowDims: lists["inserted_window_dims"],
			InputBatchingDims: lists["input_batching_dims"], ScatterIndicesBatchingDims: lists["scatter_indices_batching_dims"],
			ScatterDimsToOperandDims: lists["scatter_dims_to_operand_dims"], IndexVectorDim: ints["index_vector_dim"]}
	case "stablehlo.channel_handle":
		return ChannelHandle{Handle: ints["handle"], Type: ints["type"]}
	}
	return ConvDims{Raw: true,
		InputBatchDim: ints["input_batch_dimension"], InputFeatureDim: ints["input_feature_dimension"], InputSpatialDims: lists["input_spatial_dimensions"],
		KernelInputFeatureDim: ints["kernel_input_feature_dimension"], KernelOutputFeatureDim: ints["kernel_output_feature_dimension"], KernelSpatialDims: lists["kernel_spatial_dimensions"],
		OutputBatchDim: ints["output_batch_dimension"], OutputFeatureDim: ints["output_feature_dimension"], OutputSpatialDims: lists["output_spatial_dimensions"]}
}

// convCompact reads `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`.
func (p *parser) convCompact() ConvDims {
	part := func(a, b string) (int64, int64, []int64) {
		at := p.here()
		p.expect("[")
		ai, bi := int64(-1), int64(-1)
		var spatial []int64
		seenSpatial := map[int64]bool{}
		idx := int64(0)
		for !p.try("]") {
			if idx > 0 {
				p.expect(",")
			}
			lat := p.here()
			if text, _, ok := p.number(); ok {
				n, err := strconv.ParseInt(text, 10, 64)
				if err != nil || n < 0 || n > 1<<20 || seenSpatial[n] {
					p.failAt(lat, "bad spatial dimension %s", text)
				}
				seenSpatial[n] = true
				for int64(len(spatial)) <= n {
					spatial = append(spatial, -1)
				}
				spatial[n] = idx
			} else {
				switch l := p.ident(); l {
				case a:
					if ai >= 0 {
						p.failAt(lat, "duplicate '%s'", a)
					}
					ai = idx
				case b:
					if bi >= 0 {
						p.failAt(lat, "duplicate '%s'", b)
					}
					bi = idx
				default:
					p.failAt(lat, "unexpected dimension label %q", l)
				}
			}
			idx++
		}
		if ai < 0 || bi < 0 {
			p.failAt(at, "missing '%s' or '%s' in convolution dimensions", a, b)
		}
		for _, s := range spatial {
			if s < 0 {
				p.failAt(at, "missing spatial dimension in convolution dimensions")
			}
		}
		if spatial == nil {
			spatial = []int64{}
		}
		return ai, bi, spatial
	}
	var c ConvDims
	c.InputBatchDim, c.InputFeatureDim, c.InputSpatialDims = part("b", "f")
	p.expectKw("x")
	c.KernelInputFeatureDim, c.KernelOutputFeatureDim, c.KernelSpatialDims = part("i", "o")
	p.expect("->")
	c.OutputBatchDim, c.OutputFeatureDim, c.OutputSpatialDims = part("b", "f")
	return c
}

// ------------------------------------------------------------ dense

// denseLit is a parsed dense literal before its type is known.
type denseLit struct {
	list   []*denseLit
	isList bool
	text   string // number text, "true", "false"
	isFlt  bool
	re, im *denseLit
	pos    int
}

func (p *parser) denseAttr(at int) Attr {
	if p.pos >= len(p.src) || p.src[p.pos] != '<' {
		p.fail("expected '<' after dense")
	}
	p.pos++
	bodyStart := p.pos
	var lit *denseLit
	var blob []byte
	hasBlob := false
	empty := false
	switch {
	case p.try(">"):
		empty = true
	case p.peek() == '"':
		sat := p.here()
		s, _ := p.stringLit()
		h, ok := strings.CutPrefix(s, "0x")
		b, err := hex.DecodeString(h)
		if !ok || err != nil {
			p.failAt(sat, "expected hex string \"0x...\" in dense")
		}
		blob, hasBlob = b, true
		p.expect(">")
	default:
		lit = p.denseElem(0)
		p.expect(">")
	}
	bodyEnd := p.pos - 1
	p.expect(":")
	tat := p.here()
	t, ok := p.typ().(TensorType)
	if !ok {
		p.failAt(tat, "dense elements need a tensor type")
	}
	n := t.NumElements()
	if n < 0 {
		p.failAt(tat, "dense elements need a static shape")
	}
	size := elemSize(t.Elem)
	if size == 0 {
		body := strings.TrimSpace(string(p.src[bodyStart:bodyEnd]))
		if body == "" && n != 0 {
			p.failAt(at, "dense<> for %s, which has %d elements", t, n)
		}
		return newDenseLiteral(t, body)
	}
	switch {
	case empty:
		if n != 0 {
			p.failAt(at, "dense<> for %s, which has %d elements", t, n)
		}
		return &DenseElements{Type: t}
	case hasBlob:
		if t.Elem == I1 {
			blob = p.unpackBools(blob, n, at)
		}
		d, err := NewDense(t, blob)
		if err != nil {
			p.failAt(at, "%v", err)
		}
		return d
	}
	// Literal: a scalar (splat) or nested lists matching the shape.
	d := &DenseElements{Type: t}
	if !lit.isList {
		d.data = make([]byte, size)
		p.denseStore(d.data, t.Elem, lit)
		if n == 0 {
			d.data = nil
		} else {
			d.splat = true
		}
		return d
	}
	d.data = make([]byte, 0, int(min(n, 1<<20))*size)
	var walk func(l *denseLit, dim int)
	walk = func(l *denseLit, dim int) {
		if dim == len(t.Shape) {
			if l.isList {
				p.failAt(l.pos, "dense literal nested too deep for %s", t)
			}
			buf := make([]byte, size)
			p.denseStore(buf, t.Elem, l)
			d.data = append(d.data, buf...)
			return
		}
		if !l.isList || int64(len(l.list)) != t.Shape[dim] {
			p.failAt(l.pos, "dense literal does not match shape of %s", t)
		}
		for _, e := range l.list {
			walk(e, dim+1)
		}
	}
	walk(lit, 0)
	d.canonicalize()
	return d
}

// unpackBools converts an i1 hex blob to one byte per element. MLIR
// packs i1 blobs 8 elements per byte (little-endian bit order); one byte
// 0x00 or 0xFF is a splat; one byte per element is accepted too.
func (p *parser) unpackBools(blob []byte, n int64, at int) []byte {
	switch {
	case len(blob) == 1 && (blob[0] == 0 || blob[0] == 0xFF):
		return []byte{blob[0] & 1}
	case int64(len(blob)) == (n+7)/8:
		un := make([]byte, n)
		for i := range un {
			un[i] = blob[i/8] >> uint(i%8) & 1
		}
		return un
	case int64(len(blob)) == n:
		return blob
	}
	p.failAt(at, "hex data of %d bytes for %d i1 elements", len(blob), n)
	return nil
}

func (p *parser) denseElem(depth int) *denseLit {
	p.enter()
	defer p.leave()
	at := p.here()
	switch c := p.peek(); {
	case c == '[':
		p.pos++
		l := &denseLit{isList: true, pos: at}
		if p.try("]") {
			return l
		}
		for {
			l.list = append(l.list, p.denseElem(depth+1))
			if p.try("]") {
				return l
			}
			p.expect(",")
		}
	case c == '(':
		p.pos++
		re := p.denseElem(depth + 1)
		p.expect(",")
		im := p.denseElem(depth + 1)
		p.expect(")")
		if re.isList || im.isList || re.re != nil || im.re != nil {
			p.failAt(at, "bad complex literal")
		}
		return &denseLit{re: re, im: im, pos: at}
	case p.tryKw("true"):
		return &denseLit{text: "true", pos: at}
	case p.tryKw("false"):
		return &denseLit{text: "false", pos: at}
	}
	text, isFloat, ok := p.number()
	if !ok {
		p.failAt(at, "expected dense element%s", p.found())
	}
	return &denseLit{text: text, isFlt: isFloat, pos: at}
}

// denseStore encodes one literal element into buf.
func (p *parser) denseStore(buf []byte, e ElementType, l *denseLit) {
	if l.isList {
		p.failAt(l.pos, "expected element, found list")
	}
	if part := e.ComplexPart(); part != "" {
		sem := floatSemOf(part)
		if l.re == nil {
			p.failAt(l.pos, "expected complex literal (re, im)")
		}
		h := len(buf) / 2
		putUint(buf, h, p.denseFloat(l.re, sem))
		putUint(buf[h:], h, p.denseFloat(l.im, sem))
		return
	}
	if l.re != nil {
		p.failAt(l.pos, "complex literal for %s", e)
	}
	if sem := floatSemOf(e); sem != nil {
		putUint(buf, len(buf), p.denseFloat(l, sem))
		return
	}
	bits, unsigned, _ := e.intWidth()
	if l.text == "true" || l.text == "false" {
		if e != I1 {
			p.failAt(l.pos, "boolean literal for %s", e)
		}
		if l.text == "true" {
			buf[0] = 1
		}
		return
	}
	if l.isFlt {
		p.failAt(l.pos, "float literal for %s", e)
	}
	neg, mag := p.intText(l.text, l.pos)
	if e == I1 {
		if neg || mag > 1 {
			p.failAt(l.pos, "integer literal %s out of range for i1", l.text)
		}
		buf[0] = byte(mag)
		return
	}
	v := p.intBits(neg, mag, bits, unsigned, l.text, l.pos)
	putUint(buf, len(buf), maskInt(uint64(v), bits))
}

func (p *parser) denseFloat(l *denseLit, sem *floatSem) uint64 {
	if l.text == "true" || l.text == "false" || l.isList || l.re != nil {
		p.failAt(l.pos, "expected float literal")
	}
	return p.floatBits(l.text, sem, l.pos)
}

// ------------------------------------------------------------ locations

// optLoc reads `loc(...)` if it comes next, storing it in *dst (resolved
// at the end of parsing).
func (p *parser) optLoc(dst *Loc) {
	if !p.peekKw("loc") {
		return
	}
	save := p.pos
	p.tryKw("loc")
	if p.peek() != '(' {
		p.pos = save
		return
	}
	at := p.here()
	p.pos++
	*dst = p.locBody()
	p.expect(")")
	p.locFixups = append(p.locFixups, locFixup{ptr: dst, pos: at})
}

func (p *parser) locBody() Loc {
	p.enter()
	defer p.leave()
	at := p.here()
	switch c := p.peek(); {
	case c == '#':
		p.pos++
		name := p.identNoWS()
		if name == "" {
			p.fail("expected location alias name")
		}
		return locRef{name: "#" + name}
	case c == '"':
		s, _ := p.stringLit()
		if p.peek() == ':' {
			p.pos++
			l := FileLineColLoc{File: s}
			l.Line = p.smallInt()
			if p.try(":") {
				l.Col = p.smallInt()
			}
			if p.tryKw("to") {
				if p.try(":") {
					l.EndLine = l.Line
					l.EndCol = p.smallInt()
				} else {
					l.EndLine = p.smallInt()
					p.expect(":")
					l.EndCol = p.smallInt()
				}
			}
			return l
		}
		if p.try("(") {
			child := p.locBody()
			p.expect(")")
			return NameLoc{Name: s, Child: child}
		}
		return NameLoc{Name: s}
	case p.tryKw("unknown"):
		return UnknownLoc{}
	case p.tryKw("callsite"):
		p.expect("(")
		callee := p.locBody()
		p.expectKw("at")
		caller := p.locBody()
		p.expect(")")
		return CallSiteLoc{Callee: callee, Caller: caller}
	case p.tryKw("fused"):
		l := FusedLoc{}
		if p.try("<") {
			l.Metadata = p.attr()
			p.expect(">")
		}
		p.expect("[")
		if !p.try("]") {
			for {
				l.Locs = append(l.Locs, p.locBody())
				if p.try("]") {
					break
				}
				p.expect(",")
			}
		}
		return l
	}
	p.failAt(at, "expected location%s", p.found())
	return nil
}

func (p *parser) smallInt() int {
	at := p.here()
	v := p.int64Lit()
	if v < 0 || v > math.MaxInt32 {
		p.failAt(at, "location number out of range")
	}
	return int(v)
}

// resolveLocs replaces alias references in every recorded location.
func (p *parser) resolveLocs() {
	done := map[string]Loc{}
	visiting := map[string]bool{}
	var resolve func(l Loc, at int) Loc
	resolve = func(l Loc, at int) Loc {
		switch l := l.(type) {
		case locRef:
			if r, ok := done[l.name]; ok {
				return r
			}
			def, ok := p.locAliases[l.name]
			if !ok {
				p.failAt(at, "undefined location alias %s", l.name)
			}
			if visiting[l.name] {
				p.failAt(at, "location alias %s refers to itself", l.name)
			}
			visiting[l.name] = true
			r := resolve(def, at)
			visiting[l.name] = false
			done[l.name] = r
			return r
		case NameLoc:
			if l.Child != nil {
				l.Child = resolve(l.Child, at)
			}
			return l
		case CallSiteLoc:
			return CallSiteLoc{Callee: resolve(l.Callee, at), Caller: resolve(l.Caller, at)}
		case FusedLoc:
			locs := make([]Loc, len(l.Locs))
			for i, c := range l.Locs {
				locs[i] = resolve(c, at)
			}
			return FusedLoc{Metadata: l.Metadata, Locs: locs}
		}
		return l
	}
	for _, f := range p.locFixups {
		*f.ptr = resolve(*f.ptr, f.pos)
	}
	for _, c := range p.locCopies {
		for _, d := range c.dsts {
			*d = *c.src
		}
	}
}

// ------------------------------------------------------------ structure

func (p *parser) top() *Module {
	if len(p.src) >= 3 && p.src[0] == 0xEF && p.src[1] == 0xBB && p.src[2] == 0xBF {
		p.pos = 3 // UTF-8 byte order mark
	}
	var m *Module
	var bare []*Func
	for !p.eof() {
		switch {
		case p.peek() == '#':
			p.aliasDef()
		case p.peekKw("module") || p.hasPrefix(`"builtin.module"`):
			if m != nil || len(bare) > 0 {
				p.fail("only one module per input")
			}
			if p.peek() == '"' {
				m = p.genericModule()
			} else {
				m = p.module()
			}
		case p.peekKw("func.func") || p.hasPrefix(`"func.func"`):
			if m != nil {
				p.fail("func.func outside the module")
			}
			bare = append(bare, p.anyFunc())
		default:
			p.fail("expected module or func.func%s", p.found())
		}
	}
	if m == nil {
		if len(bare) == 0 {
			p.fail("empty input: expected module or func.func")
		}
		m = &Module{Funcs: bare, Bare: true}
	}
	p.resolveLocs()
	return m
}

func (p *parser) aliasDef() {
	at := p.here()
	p.pos++
	name := "#" + p.identNoWS()
	if name == "#" {
		p.fail("expected alias name")
	}
	p.expect("=")
	if !p.peekKw("loc") {
		p.fail("only location aliases are supported, found %s", p.found())
	}
	if _, dup := p.locAliases[name]; dup {
		p.failAt(at, "redefinition of alias %s", name)
	}
	p.tryKw("loc")
	p.expect("(")
	l := p.locBody()
	p.expect(")")
	p.locAliases[name] = l
}

func (p *parser) module() *Module {
	p.expectKw("module")
	m := &Module{}
	if name, ok := p.symbolName(); ok {
		m.Name = name
	}
	m.Attrs = p.optAttrDictWithKeyword()
	p.expect("{")
	for !p.try("}") {
		if p.eof() {
			p.fail("unterminated module")
		}
		m.Funcs = append(m.Funcs, p.anyFunc())
	}
	p.optLoc(&m.Loc)
	return m
}

// anyFunc reads a func.func in pretty or generic form.
func (p *parser) anyFunc() *Func {
	if p.hasPrefix(`"func.func"`) {
		return p.genericFunc()
	}
	if !p.peekKw("func.func") {
		p.fail("expected func.func%s", p.found())
	}
	return p.fn()
}

// genericModule reads `"builtin.module"() <{sym_name = "m"}> ({ funcs })
// {attrs} : () -> ()`, the form MLIR's generic printer writes.
func (p *parser) genericModule() *Module {
	at := p.here()
	p.stringLit()
	m := &Module{}
	p.expect("(")
	p.expect(")")
	var attrs []NamedAttr
	if p.try("<") {
		attrs = p.attrDict()
		p.expect(">")
	}
	p.expect("(")
	p.expect("{")
	if p.peek() == '^' {
		p.expect("^")
		p.identNoWS()
		p.expect(":")
	}
	for !p.try("}") {
		if p.eof() {
			p.fail("unterminated module")
		}
		m.Funcs = append(m.Funcs, p.anyFunc())
	}
	p.expect(")")
	attrs = append(attrs, p.optAttrDict()...)
	p.expect(":")
	if ins, outs := p.funcType(); len(ins) != 0 || len(outs) != 0 {
		p.failAt(at, "builtin.module has no operands or results")
	}
	for _, a := range attrs {
		switch a.Name {
		case "sym_name":
			s, ok := a.Value.(StringAttr)
			if !ok || s == "" {
				p.failAt(at, "builtin.module: bad sym_name")
			}
			m.Name = string(s)
		case "sym_visibility":
		default:
			if LookupAttr(m.Attrs, a.Name) != nil {
				p.failAt(at, "duplicate attribute %q", a.Name)
			}
			m.Attrs = append(m.Attrs, NamedAttr{Name: a.Name, Value: a.Value})
		}
	}
	p.optLoc(&m.Loc)
	return m
}

// genericFunc reads `"func.func"() <{function_type = ..., sym_name =
// "f"}> ({ ^bb0(...): ... }) : () -> ()` and makes it a Func.
func (p *parser) genericFunc() *Func {
	at := p.here()
	saved := p.scopes
	p.scopes = nil // functions are isolated from above
	p.pushScope()
	o := p.genericOp()
	p.scopes = saved
	f := &Func{}
	p.optLoc(&f.Loc)
	if len(o.Operands) != 0 || len(o.Results) != 0 || len(o.Regions) > 1 {
		p.failAt(at, "func.func has no operands or results and at most one region")
	}
	var ft FunctionType
	haveType := false
	var argAttrs, resAttrs ArrayAttr
	for _, a := range o.Attrs {
		switch a.Name {
		case "sym_name":
			s, ok := a.Value.(StringAttr)
			if !ok || s == "" {
				p.failAt(at, "func.func: bad sym_name")
			}
			f.Name = string(s)
		case "function_type":
			ta, ok := a.Value.(TypeAttr)
			if ok {
				ft, haveType = ta.Type.(FunctionType)
			}
			if !haveType {
				p.failAt(at, "func.func: function_type is not a function type")
			}
		case "sym_visibility":
			s, ok := a.Value.(StringAttr)
			if !ok || (s != "public" && s != "private" && s != "nested") {
				p.failAt(at, "func.func: bad sym_visibility")
			}
			f.Visibility = string(s)
		case "arg_attrs", "res_attrs":
			arr, ok := a.Value.(ArrayAttr)
			for _, e := range arr {
				if _, isDict := e.(DictAttr); !isDict {
					ok = false
				}
			}
			if !ok {
				p.failAt(at, "func.func: %s is not an array of dictionaries", a.Name)
			}
			if a.Name == "arg_attrs" {
				argAttrs = arr
			} else {
				resAttrs = arr
			}
		default:
			f.Attrs = append(f.Attrs, NamedAttr{Name: a.Name, Value: a.Value})
		}
	}
	if f.Name == "" || !haveType {
		p.failAt(at, "func.func needs sym_name and function_type")
	}
	if len(argAttrs) > len(ft.Inputs) || len(resAttrs) > len(ft.Results) {
		p.failAt(at, "func.func: more argument or result attributes than types")
	}
	for i, t := range ft.Inputs {
		prm := Param{Type: t}
		if i < len(argAttrs) && len(argAttrs[i].(DictAttr)) > 0 {
			prm.Attrs = []NamedAttr(argAttrs[i].(DictAttr))
		}
		f.Args = append(f.Args, prm)
	}
	f.ResultTypes = ft.Results
	for i, ra := range resAttrs {
		if d := ra.(DictAttr); len(d) > 0 {
			for len(f.ResultAttrs) < i {
				f.ResultAttrs = append(f.ResultAttrs, nil)
			}
			f.ResultAttrs = append(f.ResultAttrs, []NamedAttr(d))
		}
	}
	if len(o.Regions) == 1 && len(o.Regions[0].Blocks) > 0 {
		f.Body = o.Regions[0]
		entry := f.Entry()
		if len(entry.Args) != len(f.Args) {
			p.failAt(at, "func.func: entry block has %d arguments for %d inputs", len(entry.Args), len(f.Args))
		}
		for i, a := range entry.Args {
			if !TypesEqual(a.Type, f.Args[i].Type) {
				p.failAt(at, "func.func: entry block argument #%d has type %s, function_type says %s", i, a.Type, f.Args[i].Type)
			}
		}
	}
	return f
}

func (p *parser) fn() *Func {
	p.expectKw("func.func")
	f := &Func{}
	for _, v := range []string{"public", "private", "nested"} {
		if p.tryKw(v) {
			f.Visibility = v
			break
		}
	}
	f.Name = p.expectSymbol()
	p.expect("(")
	saved := p.scopes
	p.scopes = nil
	p.pushScope()
	var entry *Block
	if p.peek() == '%' {
		entry = &Block{}
	}
	if !p.try(")") {
		for {
			if entry != nil {
				at := p.here()
				name := p.valueName()
				if name == "" {
					p.fail("expected argument name%s", p.found())
				}
				p.expect(":")
				t := p.typ()
				v := entry.AddArg(t)
				p.define(name, []*Value{v}, at)
				f.Args = append(f.Args, Param{Type: t, Attrs: p.optAttrDict()})
				p.optLoc(&v.Loc)
			} else {
				t := p.typ()
				f.Args = append(f.Args, Param{Type: t, Attrs: p.optAttrDict()})
				var l Loc
				p.optLoc(&l)
			}
			if p.try(")") {
				break
			}
			p.expect(",")
		}
	}
	if p.try("->") {
		if p.peek() == '(' {
			p.pos++
			if !p.try(")") {
				for {
					f.ResultTypes = append(f.ResultTypes, p.typ())
					f.ResultAttrs = append(f.ResultAttrs, p.optAttrDict())
					if p.try(")") {
						break
					}
					p.expect(",")
				}
			}
		} else {
			f.ResultTypes = append(f.ResultTypes, p.typ())
			f.ResultAttrs = append(f.ResultAttrs, nil)
		}
		empty := true
		for _, a := range f.ResultAttrs {
			if len(a) > 0 {
				empty = false
			}
		}
		if empty {
			f.ResultAttrs = nil
		}
	}
	f.Attrs = p.optAttrDictWithKeyword()
	if p.peek() == '{' {
		if entry == nil {
			if len(f.Args) > 0 {
				p.fail("function body needs named arguments")
			}
			entry = &Block{}
		}
		f.Body = p.region(entry)
	}
	p.scopes = saved
	p.optLoc(&f.Loc)
	return f
}

// region reads `{ ... }`. If entry is not nil, it is the entry block
// with its arguments already defined in a scope the caller pushed;
// otherwise the entry block comes from the text, with or without a
// `^bb0(...)` header, and the scope is pushed here. Either way the scope
// is popped at the end.
func (p *parser) region(entry *Block) *Region {
	p.enter()
	defer p.leave()
	p.expect("{")
	if entry == nil {
		p.pushScope()
	}
	defer p.popScope()
	r := &Region{}
	if entry == nil && p.peek() == '}' {
		p.pos++
		return r // an empty region has no block
	}
	blk := entry
	if p.peek() == '^' {
		if entry != nil && len(entry.Args) > 0 {
			p.fail("entry block arguments given twice")
		}
		blk = p.blockHeader(entry)
	} else if blk == nil {
		blk = &Block{}
	}
	r.Blocks = append(r.Blocks, blk)
	for {
		switch p.peek() {
		case '}':
			p.pos++
			return r
		case 0:
			p.fail("unterminated region")
		case '^':
			// Values of one block are not visible in the next.
			p.popScope()
			p.pushScope()
			blk = p.blockHeader(nil)
			r.Blocks = append(r.Blocks, blk)
			continue
		}
		o := p.op()
		blk.Ops = append(blk.Ops, o)
		if isTerminator(o.Name) {
			if c := p.peek(); c != '}' && c != '^' {
				p.fail("%s must be the last operation of its block", o.Name)
			}
		}
	}
}

// isTerminator reports whether ops named name end their block.
func isTerminator(name string) bool {
	return name == "func.return" || name == "stablehlo.return"
}

// blockHeader reads `^bbN(%a: t, ...):`, defining the arguments.
func (p *parser) blockHeader(blk *Block) *Block {
	p.expect("^")
	if p.identNoWS() == "" && p.pos < len(p.src) && !isDigit(p.src[p.pos]) {
		p.fail("expected block name")
	}
	for p.pos < len(p.src) && isIDChar(p.src[p.pos]) {
		p.pos++
	}
	if blk == nil {
		blk = &Block{}
	}
	if p.try("(") && !p.try(")") {
		for {
			at := p.here()
			name := p.valueName()
			if name == "" {
				p.fail("expected block argument%s", p.found())
			}
			p.expect(":")
			v := blk.AddArg(p.typ())
			p.define(name, []*Value{v}, at)
			p.optLoc(&v.Loc)
			if p.try(")") {
				break
			}
			p.expect(",")
		}
	}
	p.expect(":")
	return blk
}

// resultName is one entry of an op's result list: %name or %name:N.
type resultName struct {
	name  string
	count int
	pos   int
}

// op reads one operation with its result list and location.
func (p *parser) op() *Op {
	// The line is counted before the op's regions are read: positions
	// then only grow, and lineOf goes through the input once.
	line := p.lineOf(p.here())
	var lhs []resultName
	nres := 0
	if p.peek() == '%' {
		for {
			at := p.here()
			name := p.valueName()
			if name == "" {
				p.fail("expected result name%s", p.found())
			}
			count := 1
			if p.pos < len(p.src) && p.src[p.pos] == ':' && p.pos+1 < len(p.src) && isDigit(p.src[p.pos+1]) {
				p.pos++
				c := p.int64Lit()
				if c < 1 || c > 1<<16 {
					p.failAt(at, "bad result count")
				}
				count = int(c)
			}
			lhs = append(lhs, resultName{name, count, at})
			nres += count
			if !p.try(",") {
				break
			}
		}
		p.expect("=")
	}
	at := p.here()
	var o *Op
	if p.peek() == '"' {
		o = p.genericOp()
	} else {
		name := p.opName()
		o = &Op{Name: name}
		if info := opTable[name]; info != nil && info.parse != nil {
			info.parse(p, o, nres)
		} else {
			p.fallbackPretty(o, nres)
		}
	}
	if len(o.Results) != nres && len(lhs) > 0 {
		p.failAt(at, "%s has %d results, but %d names are defined", o.Name, len(o.Results), nres)
	}
	if d, ok := LookupOp(o.Name); ok {
		if msg := d.checkCounts(len(o.Operands), len(o.Regions)); msg != "" {
			p.failAt(at, "%s %s", o.Name, msg)
		}
	}
	i := 0
	for _, r := range lhs {
		p.define(r.name, o.Results[i:i+r.count], r.pos)
		i += r.count
	}
	p.optLoc(&o.Loc)
	o.Line = line
	return o
}

// opName reads a bare op name, mapping func's short forms.
func (p *parser) opName() string {
	at := p.here()
	name := p.ident()
	if name == "" {
		p.fail("expected operation%s", p.found())
	}
	switch name {
	case "return":
		return "func.return"
	case "call":
		return "func.call"
	}
	if !strings.Contains(name, ".") {
		p.failAt(at, "unknown operation %q", name)
	}
	return name
}

// setResults gives the op results of the given types.
func setResults(o *Op, types []Type) {
	o.Results = make([]*Value, len(types))
	for i, t := range types {
		o.Results[i] = &Value{Type: t, Def: o, Index: i}
	}
}

// checkOperandTypes checks the declared operand types against the values.
func (p *parser) checkOperandTypes(o *Op, types []Type, at int) {
	if len(types) != len(o.Operands) {
		p.failAt(at, "%s: %d operand types for %d operands", o.Name, len(types), len(o.Operands))
	}
	for i, t := range types {
		if !TypesEqual(t, o.Operands[i].Type) {
			p.failAt(at, "%s: operand #%d has type %s, but %s is declared", o.Name, i, o.Operands[i].Type, t)
		}
	}
}

// genericOp reads `"name"(operands) <{props}> (regions) {attrs} : type`.
func (p *parser) genericOp() *Op {
	at := p.here()
	name, _ := p.stringLit()
	if name == "" {
		p.failAt(at, "empty operation name")
	}
	o := &Op{Name: name}
	p.expect("(")
	o.Operands = p.operandList()
	p.expect(")")
	if p.peek() == '[' {
		p.fail("successors are not supported")
	}
	if p.try("<") {
		for _, a := range p.attrDict() {
			a.Prop = true
			o.Attrs = append(o.Attrs, a)
		}
		p.expect(">")
	}
	if p.peek() == '(' {
		p.pos++
		for {
			o.Regions = append(o.Regions, p.region(nil))
			if p.try(")") {
				break
			}
			p.expect(",")
		}
	}
	for _, a := range p.optAttrDict() {
		if LookupAttr(o.Attrs, a.Name) != nil {
			p.fail("duplicate attribute %q", a.Name)
		}
		o.Attrs = append(o.Attrs, a)
	}
	p.normalizeProps(o)
	p.expect(":")
	at = p.here()
	ins, outs := p.funcType()
	p.checkOperandTypes(o, ins, at)
	setResults(o, outs)
	return o
}

// normalizeProps marks inherent attributes of known ops as properties.
func (p *parser) normalizeProps(o *Op) {
	if opTable[o.Name] == nil {
		return
	}
	for i := range o.Attrs {
		o.Attrs[i].Prop = isProp(o, o.Attrs[i])
	}
}

// fallbackPretty reads an op of unknown custom syntax in the common
// shape `name operands {attrs} : type`, where the type is one type for
// all operands and results, `(ins) -> outs`, or `in -> out` (chlo).
func (p *parser) fallbackPretty(o *Op, nres int) {
	hasParen := p.try("(")
	o.Operands = p.operandList()
	// `, key = value` arguments (interpreter.probe %x, probe_id = "p").
	for (len(o.Operands) > 0 || hasParen) && p.peek() == ',' {
		p.pos++
		at := p.here()
		key := p.expectIdent("keyword")
		if LookupAttr(o.Attrs, key) != nil {
			p.failAt(at, "duplicate attribute %q", key)
		}
		p.expect("=")
		o.Attrs = append(o.Attrs, NA(key, p.attr()))
	}
	if hasParen {
		p.expect(")")
	}
	p.mergeAttrDict(o)
	p.expect(":")
	p.typeSpec(o, nres, typeSame)
}

// typeSpec reads the trailing type of an op per form, checks operand
// types and sets the results. nres is the number of results a single
// type stands for (ignored for function types).
func (p *parser) typeSpec(o *Op, nres int, form typeForm) {
	at := p.here()
	if p.peek() == '(' && form != typeResult {
		ins, outs := p.funcType()
		p.checkOperandTypes(o, ins, at)
		setResults(o, outs)
		return
	}
	if form == typeFunc {
		p.fail("expected function type%s", p.found())
	}
	if form == typeFuncOrResult {
		setResults(o, []Type{p.typ()})
		return
	}
	t := p.typ()
	if form != typeResult && len(o.Operands) > 1 {
		// chlo's binary ops: `A, B -> C` (next_after, polygamma, zeta).
		save := p.pos
		if p.try(",") && (p.hasPrefix("tensor") || p.peek() == '!') {
			ins := []Type{t, p.typ()}
			for p.try(",") {
				ins = append(ins, p.typ())
			}
			p.expect("->")
			p.checkOperandTypes(o, ins, at)
			setResults(o, p.resultTypes())
			return
		}
		p.pos = save
	}
	if form != typeResult && p.try("->") {
		// chlo style `A -> B`.
		p.checkOperandTypes(o, []Type{t}, at)
		setResults(o, p.resultTypes())
		return
	}
	if form == typeSame {
		types := make([]Type, len(o.Operands))
		for i := range types {
			types[i] = t
		}
		p.checkOperandTypes(o, types, at)
	}
	types := make([]Type, nres)
	for i := range types {
		types[i] = t
	}
	setResults(o, types)
}

// ParseAttr parses one attribute in MLIR text (`dense<1.0> : tensor<f32>`,
// `#stablehlo<precision HIGH>`, `{a = 1 : i64}`), the whole input. The
// bytecode reader uses it for attributes stored in their assembly form.
func ParseAttr(src string) (Attr, error) {
	return parseOne(src, "attribute", (*parser).attr)
}

// ParseType parses one type in MLIR text (`tensor<2xf32>`, `i64`,
// `!stablehlo.token`), the whole input.
func ParseType(src string) (Type, error) {
	return parseOne(src, "type", (*parser).typ)
}

// parseOne parses the whole of src with one parser method, turning the
// parser's *ParseError panics into an error as Parse does.
func parseOne[T any](src, what string, parse func(*parser) T) (v T, err error) {
	p := &parser{src: []byte(src), locAliases: map[string]Loc{}}
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(*ParseError)
			if !ok {
				panic(r)
			}
			var zero T
			v, err = zero, pe
		}
	}()
	v = parse(p)
	if !p.eof() {
		p.fail("unexpected text after the %s", what)
	}
	return v, nil
}
