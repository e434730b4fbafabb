package ir

import (
	"fmt"
	"strconv"
	"strings"
)

// The lexer of the .sir text form. It turns the whole source into tokens up
// front (sources are small, and the parser then looks ahead freely), each
// with its 1-based line and byte column for error messages. Newlines are not
// significant; "//" starts a comment that runs to the end of the line.

type tokKind uint8

const (
	tEOF    tokKind = iota
	tIdent          // func, add, f32, true, EQ, dense, loc, ...
	tValue          // %name; text is the name without %
	tGlobal         // @name or @"quoted"; text is the name
	tString         // "..." in Go syntax; text is the unquoted value
	tNumber         // 12, -3, 1.5e-07, 0x7FC00001, -inf
	tPunct          // ( ) [ ] { } < > , : = ? ->
)

type token struct {
	kind      tokKind
	text      string
	line, col int
}

func (t token) is(kind tokKind, text string) bool { return t.kind == kind && t.text == text }

// describe names a token in an error message.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tValue:
		return "%" + t.text
	case tGlobal:
		return "@" + quoteName(t.text)
	case tString:
		return strconv.Quote(t.text)
	}
	return "'" + t.text + "'"
}

func isIdentStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isDecDigit(c byte) bool { return '0' <= c && c <= '9' }

func isIdentChar(c byte) bool { return isIdentStart(c) || isDecDigit(c) || c == '.' }

// isNameChar is what a bare %value or @global name may hold.
func isNameChar(c byte) bool { return isIdentChar(c) || c == '$' || c == '-' }

// isIdent reports whether s lexes as one identifier token.
func isIdent(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentChar(s[i]) {
			return false
		}
	}
	return true
}

// quoteName spells a @global or attribute name: bare when it lexes back as
// one bare name, else as a Go string.
func quoteName(s string) string {
	if s == "" {
		return `""`
	}
	for i := 0; i < len(s); i++ {
		if !isNameChar(s[i]) {
			return strconv.Quote(s)
		}
	}
	return s
}

type lexer struct {
	src       string
	i         int
	line, col int
	toks      []token
}

// maxLexDepth bounds the bracket nesting the lexer accepts: the parser
// bounds each kind of nesting (regions, literals, locations) at
// maxNesting, and the lexer stops a source of nothing but brackets before
// it becomes tokens (issue 20: 10 MB of '[' took 1.3 GB before the
// parser rejected it).
const maxLexDepth = 4 * maxNesting

func lex(src string) ([]token, error) {
	lx := &lexer{src: src, line: 1, col: 1}
	depth := 0
	for {
		t, err := lx.next()
		if err != nil {
			return nil, err
		}
		if t.kind == tPunct {
			switch t.text {
			case "(", "[", "{":
				if depth++; depth > maxLexDepth {
					return nil, lx.errf(t.line, t.col, "brackets nested more than %d deep", maxLexDepth)
				}
			case ")", "]", "}":
				depth = max(depth-1, 0)
			}
		}
		lx.toks = append(lx.toks, t)
		if t.kind == tEOF {
			return lx.toks, nil
		}
	}
}

func (lx *lexer) advance(n int) {
	for k := 0; k < n && lx.i < len(lx.src); k++ {
		if lx.src[lx.i] == '\n' {
			lx.line++
			lx.col = 1
		} else {
			lx.col++
		}
		lx.i++
	}
}

func (lx *lexer) errf(line, col int, format string, args ...any) error {
	return &ParseError{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (lx *lexer) peekByte(k int) byte {
	if lx.i+k < len(lx.src) {
		return lx.src[lx.i+k]
	}
	return 0
}

func (lx *lexer) next() (token, error) {
	// Skip blanks and comments.
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			lx.advance(1)
			continue
		}
		if c == '/' && lx.peekByte(1) == '/' {
			for lx.i < len(lx.src) && lx.src[lx.i] != '\n' {
				lx.advance(1)
			}
			continue
		}
		break
	}
	t := token{line: lx.line, col: lx.col}
	if lx.i >= len(lx.src) {
		t.kind = tEOF
		return t, nil
	}
	c := lx.src[lx.i]
	switch {
	case isIdentStart(c):
		j := lx.i + 1
		for j < len(lx.src) && isIdentChar(lx.src[j]) {
			j++
		}
		t.kind, t.text = tIdent, lx.src[lx.i:j]
		lx.advance(j - lx.i)
		return t, nil
	case c == '%' || c == '@':
		kind := tValue
		if c == '@' {
			kind = tGlobal
		}
		if c == '@' && lx.peekByte(1) == '"' {
			lx.advance(1)
			s, err := lx.str()
			if err != nil {
				return t, err
			}
			t.kind, t.text = kind, s
			return t, nil
		}
		j := lx.i + 1
		for j < len(lx.src) && isNameChar(lx.src[j]) {
			j++
		}
		if j == lx.i+1 {
			return t, lx.errf(t.line, t.col, "expected a name after %q", c)
		}
		t.kind, t.text = kind, lx.src[lx.i+1:j]
		lx.advance(j - lx.i)
		return t, nil
	case c == '"':
		s, err := lx.str()
		if err != nil {
			return t, err
		}
		t.kind, t.text = tString, s
		return t, nil
	case c == '-' && lx.peekByte(1) == '>':
		t.kind, t.text = tPunct, "->"
		lx.advance(2)
		return t, nil
	case isDecDigit(c) || (c == '-' || c == '+') && (isDecDigit(lx.peekByte(1)) || isIdentStart(lx.peekByte(1))):
		t.kind, t.text = tNumber, lx.number()
		return t, nil
	case strings.IndexByte("()[]{}<>,:=?", c) >= 0:
		t.kind, t.text = tPunct, string(c)
		lx.advance(1)
		return t, nil
	}
	return t, lx.errf(t.line, t.col, "unexpected character %q", rune(c))
}

// number scans a numeric token: an optional sign, then letters, digits,
// '_' and '.', and a sign right after the exponent letter of a decimal.
// Whether the token is a valid number is decided where its type is known.
func (lx *lexer) number() string {
	start := lx.i
	j := lx.i + 1
	hex := strings.HasPrefix(lx.src[start:], "0x") || strings.HasPrefix(lx.src[start:], "0X")
	for j < len(lx.src) {
		c := lx.src[j]
		if isIdentChar(c) {
			j++
			continue
		}
		if (c == '+' || c == '-') && !hex && (lx.src[j-1] == 'e' || lx.src[j-1] == 'E') {
			j++
			continue
		}
		break
	}
	lx.advance(j - start)
	return lx.src[start:j]
}

// str scans a Go double-quoted string at lx.i and returns its value.
func (lx *lexer) str() (string, error) {
	line, col := lx.line, lx.col
	j := lx.i + 1
	for {
		if j >= len(lx.src) || lx.src[j] == '\n' {
			return "", lx.errf(line, col, "unterminated string")
		}
		if lx.src[j] == '\\' {
			j += 2
			continue
		}
		if lx.src[j] == '"' {
			break
		}
		j++
	}
	raw := lx.src[lx.i : j+1]
	s, err := strconv.Unquote(raw)
	if err != nil {
		return "", lx.errf(line, col, "bad string %s", raw)
	}
	lx.advance(j + 1 - lx.i)
	return s, nil
}
