// Package cheader reads the declarations of Stela's PJRT header
// (pjrt/capi/stela_pjrt.h) so that tests and generators can loop over them:
// the ABI test lists every struct, field, size constant and enumerator it
// must check, and the pjrt package's call shims are generated from the
// PJRT_Api slots.
//
// It is not a C parser. It reads the restricted layout that header keeps to
// (one declaration per line, structs closed by PJRT_STRUCT_END, enums with
// explicit values) and rejects any line it does not understand inside a
// struct or enum, so that nothing declared there can be silently skipped.
package cheader

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Header is what Parse found, in declaration order.
type Header struct {
	Defines    map[string]int64 // integer #defines such as PJRT_API_MINOR
	Structs    []*Struct        // structs with a body
	Incomplete []string         // struct typedefs without a body
	Enums      []*Enum
	FuncTypes  map[string]*FuncType // function typedefs: the PJRT_Api slot types
	Api        *Struct              // the PJRT_Api struct (also in Structs)
}

// Struct is a struct with a layout.
type Struct struct {
	Name   string
	Fields []Field
	// Last is the field named by PJRT_STRUCT_END, which defines
	// Name_STRUCT_SIZE; empty if the struct has no size constant.
	Last string
	Line int
}

// Field is one member. Members of an anonymous union are listed as fields of
// the enclosing struct (C11 makes them addressable that way) with Union set.
type Field struct {
	Name  string
	Type  string // C type as written, e.g. "const char*"; "(fn)" for function pointers
	Union bool
}

// Enum is a typedef'd enum.
type Enum struct {
	Name   string
	Values []EnumValue
}

// EnumValue is one enumerator with its explicit value.
type EnumValue struct {
	Name  string
	Value int64
}

// FuncType is `typedef RET NAME(ARG* args);`.
type FuncType struct {
	Name   string
	Return string // "void" or "PJRT_Error*"
	Arg    string // the args struct type, without the pointer
}

// Slot is one function pointer of PJRT_Api.
type Slot struct {
	Index int
	Name  string
	Type  *FuncType
}

// Slots returns the function slots of PJRT_Api in table order (the fields
// after struct_size, extension_start and pjrt_api_version).
func (h *Header) Slots() []Slot {
	var slots []Slot
	for _, f := range h.Api.Fields {
		ft, ok := h.FuncTypes[strings.TrimSuffix(f.Type, "*")]
		if !ok {
			continue
		}
		slots = append(slots, Slot{Index: len(slots), Name: f.Name, Type: ft})
	}
	return slots
}

// Complete reports whether the struct named name has a body here.
func (h *Header) Complete(name string) bool {
	for _, s := range h.Structs {
		if s.Name == name {
			return true
		}
	}
	return false
}

var (
	reDefine     = regexp.MustCompile(`^#define (\w+) (-?\d+)$`)
	reTypedefFwd = regexp.MustCompile(`^typedef struct (\w+) (\w+);$`)
	reStructOpen = regexp.MustCompile(`^struct (\w+) \{$`)
	reEnumValue  = regexp.MustCompile(`^(\w+) = (-?\d+),?$`)
	reEnumClose  = regexp.MustCompile(`^\} (\w+);$`)
	reStructEnd  = regexp.MustCompile(`^PJRT_STRUCT_END\((\w+), (\w+)\)$`)
	reFuncType   = regexp.MustCompile(`^typedef (void|PJRT_Error\*) (\w+)\((\w+)\* args\);$`)
	reFuncPtr    = regexp.MustCompile(`^(.+?)\(\*(\w+)\)\((.*)\);$`)
	reField      = regexp.MustCompile(`^([\w *]+?[\w*])\s*\b(\w+);$`)
)

// Parse reads the header text.
func Parse(src string) (*Header, error) {
	h := &Header{Defines: map[string]int64{}, FuncTypes: map[string]*FuncType{}}
	lines := strings.Split(stripComments(src), "\n")
	fwd := map[string]bool{}
	var order []string
	errf := func(i int, format string, args ...any) error {
		return fmt.Errorf("stela_pjrt.h:%d: %s", i+1, fmt.Sprintf(format, args...))
	}
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		switch {
		case line == "":
		case reDefine.MatchString(line):
			m := reDefine.FindStringSubmatch(line)
			v, _ := strconv.ParseInt(m[2], 10, 64)
			h.Defines[m[1]] = v
		case reTypedefFwd.MatchString(line):
			m := reTypedefFwd.FindStringSubmatch(line)
			if m[1] != m[2] {
				return nil, errf(i, "typedef struct %s %s: names differ", m[1], m[2])
			}
			if !fwd[m[1]] {
				fwd[m[1]] = true
				order = append(order, m[1])
			}
		case line == "typedef enum {":
			e := &Enum{}
			for i++; i < len(lines); i++ {
				l := strings.TrimSpace(lines[i])
				if m := reEnumValue.FindStringSubmatch(l); m != nil {
					v, _ := strconv.ParseInt(m[2], 10, 64)
					e.Values = append(e.Values, EnumValue{m[1], v})
					continue
				}
				if m := reEnumClose.FindStringSubmatch(l); m != nil {
					e.Name = m[1]
					break
				}
				if l == "" {
					continue
				}
				return nil, errf(i, "cannot read enum line %q (want NAME = VALUE,)", l)
			}
			h.Enums = append(h.Enums, e)
		case reStructOpen.MatchString(line):
			s := &Struct{Name: reStructOpen.FindStringSubmatch(line)[1], Line: i + 1}
			union := false
		body:
			for i++; i < len(lines); i++ {
				l := strings.TrimSpace(lines[i])
				switch {
				case l == "":
				case l == "union {":
					if union {
						return nil, errf(i, "nested union")
					}
					union = true
				case l == "};" && union:
					union = false
				case l == "};":
					break body
				case reFuncPtr.MatchString(l):
					m := reFuncPtr.FindStringSubmatch(l)
					s.Fields = append(s.Fields, Field{Name: m[2], Type: "(fn)", Union: union})
				case reField.MatchString(l):
					m := reField.FindStringSubmatch(l)
					s.Fields = append(s.Fields, Field{Name: m[2], Type: strings.TrimSpace(m[1]), Union: union})
				default:
					return nil, errf(i, "cannot read field %q of %s", l, s.Name)
				}
			}
			if len(s.Fields) == 0 {
				return nil, errf(s.Line-1, "struct %s has no fields", s.Name)
			}
			h.Structs = append(h.Structs, s)
			if s.Name == "PJRT_Api" {
				h.Api = s
			}
		case reStructEnd.MatchString(line):
			m := reStructEnd.FindStringSubmatch(line)
			if len(h.Structs) == 0 || h.Structs[len(h.Structs)-1].Name != m[1] {
				return nil, errf(i, "PJRT_STRUCT_END(%s) does not follow struct %s", m[1], m[1])
			}
			s := h.Structs[len(h.Structs)-1]
			if last := s.Fields[len(s.Fields)-1].Name; last != m[2] {
				return nil, errf(i, "PJRT_STRUCT_END(%s, %s): the last field is %s", m[1], m[2], last)
			}
			s.Last = m[2]
		case reFuncType.MatchString(line):
			m := reFuncType.FindStringSubmatch(line)
			h.FuncTypes[m[2]] = &FuncType{Name: m[2], Return: m[1], Arg: m[3]}
		}
	}
	if h.Api == nil {
		return nil, fmt.Errorf("stela_pjrt.h: no struct PJRT_Api")
	}
	for _, name := range order {
		if !h.Complete(name) {
			h.Incomplete = append(h.Incomplete, name)
		}
	}
	return h, nil
}

// stripComments removes /* */ and // comments, keeping line breaks so that
// line numbers stay right.
func stripComments(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				end = len(s) - i - 2
			}
			b.WriteString(strings.Repeat("\n", strings.Count(s[i:i+2+end], "\n")))
			i += 2 + end + 1
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
			if i < len(s) {
				b.WriteByte('\n')
			}
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
