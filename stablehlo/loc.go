package stablehlo

import (
	"strconv"
	"strings"
)

// Loc is an MLIR location: UnknownLoc, FileLineColLoc, NameLoc,
// CallSiteLoc or FusedLoc. A nil Loc means unknown.
type Loc interface {
	// String returns the location's text without the `loc(...)` wrapper,
	// with nested locations inline.
	String() string
	isLoc()
}

// UnknownLoc is `loc(unknown)`.
type UnknownLoc struct{}

// FileLineColLoc is `loc("file.go":42:7)`; with EndLine/EndCol set it is
// a range, `loc("file.go":42:7 to 43:2)` (or `to :9` on the same line).
type FileLineColLoc struct {
	File            string
	Line, Col       int
	EndLine, EndCol int
}

// FileLoc returns the location file:line:col.
func FileLoc(file string, line, col int) FileLineColLoc {
	return FileLineColLoc{File: file, Line: line, Col: col}
}

// NameLoc is `loc("name")` or `loc("name"(child))`.
type NameLoc struct {
	Name  string
	Child Loc // nil: none
}

// CallSiteLoc is `loc(callsite(callee at caller))`.
type CallSiteLoc struct {
	Callee, Caller Loc
}

// FusedLoc is `loc(fused[a, b])` or `loc(fused<metadata>[a, b])`.
type FusedLoc struct {
	Metadata Attr // nil: none
	Locs     []Loc
}

func (UnknownLoc) isLoc()     {}
func (FileLineColLoc) isLoc() {}
func (NameLoc) isLoc()        {}
func (CallSiteLoc) isLoc()    {}
func (FusedLoc) isLoc()       {}

func (l UnknownLoc) String() string     { return locString(l) }
func (l FileLineColLoc) String() string { return locString(l) }
func (l NameLoc) String() string        { return locString(l) }
func (l CallSiteLoc) String() string    { return locString(l) }
func (l FusedLoc) String() string       { return locString(l) }

func locString(l Loc) string {
	var sb strings.Builder
	writeLocBody(&sb, l, func(sb *strings.Builder, c Loc) { writeLocBody(sb, c, nil) })
	return sb.String()
}

// writeLocBody writes the text inside `loc(...)`. child writes a nested
// location (inline, or as an alias reference when printing aliases); nil
// means inline.
func writeLocBody(sb *strings.Builder, l Loc, child func(*strings.Builder, Loc)) {
	if child == nil {
		child = func(sb *strings.Builder, c Loc) { writeLocBody(sb, c, nil) }
	}
	switch l := l.(type) {
	case nil, UnknownLoc:
		sb.WriteString("unknown")
	case FileLineColLoc:
		writeQuoted(sb, l.File)
		sb.WriteByte(':')
		sb.WriteString(strconv.Itoa(l.Line))
		sb.WriteByte(':')
		sb.WriteString(strconv.Itoa(l.Col))
		if l.EndLine != 0 || l.EndCol != 0 {
			sb.WriteString(" to ")
			if l.EndLine != l.Line {
				sb.WriteString(strconv.Itoa(l.EndLine))
			}
			sb.WriteByte(':')
			sb.WriteString(strconv.Itoa(l.EndCol))
		}
	case NameLoc:
		writeQuoted(sb, l.Name)
		if l.Child != nil {
			sb.WriteByte('(')
			child(sb, l.Child)
			sb.WriteByte(')')
		}
	case CallSiteLoc:
		sb.WriteString("callsite(")
		child(sb, l.Callee)
		sb.WriteString(" at ")
		child(sb, l.Caller)
		sb.WriteByte(')')
	case FusedLoc:
		sb.WriteString("fused")
		if l.Metadata != nil {
			sb.WriteByte('<')
			writeAttr(sb, l.Metadata)
			sb.WriteByte('>')
		}
		sb.WriteByte('[')
		for i, c := range l.Locs {
			if i > 0 {
				sb.WriteString(", ")
			}
			child(sb, c)
		}
		sb.WriteByte(']')
	default:
		sb.WriteString("unknown")
	}
}

// locKey returns a structural key for l (its inline text).
func locKey(l Loc) string { return locString(l) }
