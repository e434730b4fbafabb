package ir

import (
	"errors"
	"fmt"
	"path/filepath"
	goruntime "runtime"
	"sort"
	"strings"
	"sync"
)

// Loc is a source location: the user's Go call site that created a value.
// The zero Loc is "unknown". A Loc made by merging values (fusion, CSE) is
// fused: it lists every member and names the pass that merged them.
type Loc struct {
	File  string // path as the Go runtime reports it
	Line  int
	Pass  string // for fused locations: the pass that merged
	Fused []Loc  // for fused locations: the members
}

// UnknownLoc is the explicitly unknown location.
var UnknownLoc = Loc{}

// IsKnown reports whether l names a place.
func (l Loc) IsKnown() bool { return l.File != "" || len(l.Fused) > 0 }

// Equal compares two locations.
func (l Loc) Equal(m Loc) bool {
	if l.File != m.File || l.Line != m.Line || l.Pass != m.Pass || len(l.Fused) != len(m.Fused) {
		return false
	}
	for i := range l.Fused {
		if !l.Fused[i].Equal(m.Fused[i]) {
			return false
		}
	}
	return true
}

// FusedLoc merges locations; duplicates and unknown members are dropped, and
// a single remaining member is returned as is.
func FusedLoc(pass string, locs ...Loc) Loc {
	var out []Loc
	for _, l := range locs {
		if len(l.Fused) > 0 {
			for _, m := range l.Fused {
				out = appendLoc(out, m)
			}
			continue
		}
		if l.IsKnown() {
			out = appendLoc(out, l)
		}
	}
	switch len(out) {
	case 0:
		return UnknownLoc
	case 1:
		return out[0]
	}
	return Loc{Pass: pass, Fused: out}
}

func appendLoc(ls []Loc, l Loc) []Loc {
	for _, m := range ls {
		if m.Equal(l) {
			return ls
		}
	}
	return append(ls, l)
}

// Primary returns the first concrete location of l (itself unless fused).
func (l Loc) Primary() Loc {
	if len(l.Fused) > 0 {
		return l.Fused[0]
	}
	return l
}

// String prints file:line using the base name of the file, "?" when unknown,
// and "fused[pass](a.go:1, b.go:2)" for fused locations.
func (l Loc) String() string {
	if len(l.Fused) > 0 {
		parts := make([]string, len(l.Fused))
		for i, m := range l.Fused {
			parts[i] = m.String()
		}
		return fmt.Sprintf("fused[%s](%s)", l.Pass, strings.Join(parts, ", "))
	}
	if l.File == "" {
		return "?"
	}
	return fmt.Sprintf("%s:%d", filepath.Base(l.File), l.Line)
}

// internalPrefixes are the function-name prefixes of Stela's library
// packages. A call site is the first frame outside them; Stela's own example
// programs and tests are user code.
var internalPrefixes = []string{
	"github.com/stela-ml/stela/ir.",
	"github.com/stela-ml/stela/frontend/tensor.",
	"github.com/stela-ml/stela/frontend/jit.",
	"github.com/stela-ml/stela/frontend/nn.",
	"github.com/stela-ml/stela/frontend/optim.",
	"github.com/stela-ml/stela/frontend/tree.",
	"github.com/stela-ml/stela/frontend/safetensors.",
	"github.com/stela-ml/stela/frontend/sharding.",
	"github.com/stela-ml/stela/passes.",
	"github.com/stela-ml/stela/lowering.",
	"github.com/stela-ml/stela/runtime.",
	"runtime.",
	"reflect.",
}

func isInternalFrame(fn string) bool {
	for _, p := range internalPrefixes {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// libraryPrefixes are other frameworks' function-name prefixes that
// RegisterLibraryPackages adds: their frames are skipped too, except in
// their _test.go files (a framework's own tests are users).
var libraryPrefixes struct {
	sync.RWMutex
	list []string
}

// RegisterLibraryPackages makes CallerLoc skip the frames of functions
// whose names start with one of prefixes ("github.com/gomlx/"), except
// frames in _test.go files: a framework that sits between its user and
// Stela (frontend/gomlx, for GoMLX) registers its packages, so that the
// located errors Stela makes on its own (the runtime's, at execution)
// name the framework user's line. Call it from an init function, before
// any location is captured (what each return address resolves to is
// cached).
func RegisterLibraryPackages(prefixes ...string) {
	libraryPrefixes.Lock()
	defer libraryPrefixes.Unlock()
	libraryPrefixes.list = append(libraryPrefixes.list, prefixes...)
}

func isLibraryFrame(fn, file string) bool {
	if isInternalFrame(fn) {
		return true
	}
	if strings.HasSuffix(file, "_test.go") {
		return false
	}
	libraryPrefixes.RLock()
	defer libraryPrefixes.RUnlock()
	for _, p := range libraryPrefixes.list {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

var locCache sync.Map // pc → pcLoc

type pcLoc struct {
	user bool
	loc  Loc
}

// CallerLoc returns the location of the first stack frame outside Stela's
// library packages: the user's call site. It walks the frames rather than
// skipping a fixed count, because inlining and wrappers change the count.
// What each program counter resolves to is interned, so capture is cheap.
func CallerLoc() Loc {
	// The user's frame is usually within a few frames of an op function:
	// unwinding costs per frame, so look at 8 first (eager dispatch calls
	// this on every op) and at 64 only when they are all Stela's.
	var pcs [64]uintptr
	n := goruntime.Callers(2, pcs[:8])
	if l, ok := firstUserLoc(pcs[:n]); ok || n < 8 {
		return l
	}
	n = goruntime.Callers(2, pcs[:])
	l, _ := firstUserLoc(pcs[:n])
	return l
}

func firstUserLoc(pcs []uintptr) (Loc, bool) {
	for _, pc := range pcs {
		if l, ok := locCache.Load(pc); ok {
			if pl := l.(pcLoc); pl.user {
				return pl.loc, true
			}
			continue
		}
		pl := resolvePC(pc)
		locCache.Store(pc, pl)
		if pl.user {
			return pl.loc, true
		}
	}
	return UnknownLoc, false
}

// resolvePC expands one return address (with its inlined frames) and
// returns its first user frame, if any.
func resolvePC(pc uintptr) pcLoc {
	frames := goruntime.CallersFrames([]uintptr{pc})
	for {
		fr, more := frames.Next()
		if fr.Function != "" && !isLibraryFrame(fr.Function, fr.File) {
			return pcLoc{user: true, loc: Loc{File: fr.File, Line: fr.Line}}
		}
		if !more {
			return pcLoc{}
		}
	}
}

// Error is a located diagnostic: "file.go:LINE: op: message", followed by
// notes that point at other relevant places.
type Error struct {
	Loc   Loc
	Op    string // the op or pass the message concerns; may be empty
	Msg   string
	Notes []Note
	// Err is the error the message wraps (Errorf's %w), for errors.Is and
	// errors.As: a *pjrt.Error's code, a *passes.PassError; may be nil.
	Err error
}

// Unwrap returns the wrapped error, if any.
func (e *Error) Unwrap() error { return e.Err }

// Note is a secondary location attached to an Error.
type Note struct {
	Loc Loc
	Msg string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Loc.Primary().String())
	b.WriteString(": ")
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	for _, n := range e.Notes {
		fmt.Fprintf(&b, "\n%s: note: %s", n.Loc.Primary(), n.Msg)
	}
	return b.String()
}

// Errorf builds a located error for an op. As with fmt.Errorf, a %w verb
// wraps its operand: the error's Unwrap returns it (several %w: all of
// them, through errors.Join).
func Errorf(loc Loc, op, format string, args ...any) *Error {
	err := fmt.Errorf(format, args...)
	e := &Error{Loc: loc, Op: op, Msg: err.Error()}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		e.Err = u.Unwrap()
	case interface{ Unwrap() []error }:
		e.Err = errors.Join(u.Unwrap()...)
	}
	return e
}

// ErrorList is a list of located errors; it implements error.
type ErrorList []*Error

func (l ErrorList) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// Err returns nil for an empty list, and the list otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Sort orders the errors by file and line, keeping the order of equal ones.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Loc.Primary(), l[j].Loc.Primary()
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
}
