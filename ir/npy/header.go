package npy

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// parseHeader reads the header, a Python dict literal such as
//
//	{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
//
// numpy.lib.format reads it with ast.literal_eval and requires exactly the
// keys descr, fortran_order and shape; so does this parser. It accepts the
// subset of Python literals that numpy writes and that old writers wrote:
// single- or double-quoted strings, True/False, decimal integers (with
// Python 2's L suffix), tuples and lists, and trailing commas.
func parseHeader(s string) (header, error) {
	p := &pyParser{s: s}
	v, err := p.value()
	if err == nil {
		p.space()
		if p.i < len(p.s) {
			err = p.errorf("unexpected %q after the dict", p.rest())
		}
	}
	if err != nil {
		return header{}, fmt.Errorf("npy: header %q: %w", strings.TrimSpace(s), err)
	}
	d, ok := v.(map[string]any)
	if !ok {
		return header{}, fmt.Errorf("npy: header %q is not a dict", strings.TrimSpace(s))
	}
	var keys []string
	for k := range d {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if strings.Join(keys, ",") != "descr,fortran_order,shape" {
		return header{}, fmt.Errorf("npy: header has keys %v, want exactly descr, fortran_order and shape", keys)
	}
	var h header
	switch descr := d["descr"].(type) {
	case string:
		h.descr = descr
	case []any:
		return header{}, fmt.Errorf("npy: structured dtype %v is not supported", descr)
	default:
		return header{}, fmt.Errorf("npy: descr is %v, want a string", descr)
	}
	fo, ok := d["fortran_order"].(bool)
	if !ok {
		return header{}, fmt.Errorf("npy: fortran_order is %v, want True or False", d["fortran_order"])
	}
	h.fortran = fo
	shape, ok := d["shape"].([]any)
	if !ok {
		return header{}, fmt.Errorf("npy: shape is %v, want a tuple of integers", d["shape"])
	}
	h.shape = make([]int, len(shape))
	for i, x := range shape {
		n, ok := x.(int)
		if !ok || n < 0 {
			return header{}, fmt.Errorf("npy: shape %v: want non-negative integers", shape)
		}
		h.shape[i] = n
	}
	return h, nil
}

// pyParser parses the Python literals of a .npy header.
type pyParser struct {
	s string
	i int
}

func (p *pyParser) errorf(format string, args ...any) error {
	return fmt.Errorf("at byte %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *pyParser) rest() string {
	r := p.s[p.i:]
	if len(r) > 20 {
		r = r[:20] + "..."
	}
	return r
}

func (p *pyParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

// value parses one literal: a dict, a tuple, a list, a string, True, False
// or an integer.
func (p *pyParser) value() (any, error) {
	p.space()
	if p.i >= len(p.s) {
		return nil, p.errorf("unexpected end")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.dict()
	case c == '(':
		return p.seq('(', ')')
	case c == '[':
		return p.seq('[', ']')
	case c == '\'' || c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.int()
	case strings.HasPrefix(p.s[p.i:], "True"):
		p.i += 4
		return true, nil
	case strings.HasPrefix(p.s[p.i:], "False"):
		p.i += 5
		return false, nil
	}
	return nil, p.errorf("unexpected %q", p.rest())
}

func (p *pyParser) dict() (any, error) {
	p.i++ // '{'
	d := map[string]any{}
	for {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return d, nil
		}
		k, err := p.value()
		if err != nil {
			return nil, err
		}
		key, ok := k.(string)
		if !ok {
			return nil, p.errorf("dict key %v is not a string", k)
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.errorf("want ':' after key %q", key)
		}
		p.i++
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		if _, dup := d[key]; dup {
			return nil, p.errorf("duplicate key %q", key)
		}
		d[key] = v
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == '}' {
			continue
		}
		return nil, p.errorf("want ',' or '}' in dict")
	}
}

func (p *pyParser) seq(open, close byte) (any, error) {
	p.i++ // open
	items := []any{}
	for {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == close {
			p.i++
			return items, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		items = append(items, v)
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == close {
			continue
		}
		return nil, p.errorf("want ',' or %q", close)
	}
}

func (p *pyParser) str() (any, error) {
	q := p.s[p.i]
	start := p.i
	p.i++
	for p.i < len(p.s) && p.s[p.i] != q {
		if p.s[p.i] == '\\' {
			p.i++
		}
		p.i++
	}
	if p.i >= len(p.s) {
		return nil, p.errorf("unterminated string")
	}
	p.i++
	raw := p.s[start:p.i]
	if q == '\'' {
		// strconv.Unquote knows Go's double-quoted strings; a single-quoted
		// Python string without quotes or escapes inside reads the same.
		raw = `"` + strings.ReplaceAll(raw[1:len(raw)-1], `"`, `\"`) + `"`
	}
	s, err := strconv.Unquote(raw)
	if err != nil {
		return nil, p.errorf("string %s: %v", p.s[start:p.i], err)
	}
	return s, nil
}

func (p *pyParser) int() (any, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	n, err := strconv.Atoi(p.s[start:p.i])
	if err != nil {
		return nil, p.errorf("integer %q: %v", p.s[start:p.i], err)
	}
	if p.i < len(p.s) && (p.s[p.i] == 'L' || p.s[p.i] == 'l') {
		p.i++ // Python 2's long suffix, in files written by numpy under Python 2
	}
	return n, nil
}
