// Package env holds Stela's environment switches: STELA_DEBUG (checks and
// behaviour changes for debugging Stela itself) and STELA_LOG (what Stela
// reports on stderr). Each is a comma-separated list of words, read into
// a struct whose fields document the words (DebugFlags, LogFlags), as
// cmd/compile's -d flags and GODEBUG's table in internal/godebugs are.
//
// In: the process environment. Out: Debug() and Log(), and Err(), which is
// not nil when a switch holds a word it does not know or the word "help".
//
// The rule, for every package of the module and for programs that use
// Stela as a library: the switches are parsed once, on first use, and
// their words are never guessed at. An unknown word is an error that names
// it and lists the valid words, never silence:
//
//   - `stela` exits 2 with it (or, for "help", prints the words and exits
//     0) before doing anything else;
//   - in library use, the first runtime operation that can return an error
//     fails with it: runtime.Lookup and runtime.OpenClient (opening a
//     device), the first compile, passes.Run;
//   - the Stela CPU plugin's compile worker fails with it as a compile
//     error (the plugin reports it as the compile's message).
//
// Code that only reads a switch (Debug().Verify, Log().Compile) sees the
// words it knows even when another word is unknown; the error surfaces
// at the operations above.
package env

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync/atomic"
)

// DebugFlags are the words of STELA_DEBUG. Each field is one word (its
// word tag) with the doc that STELA_DEBUG=help prints (its help tag).
type DebugFlags struct {
	Verify      bool `word:"verify" help:"passes: verify the IR after every pass and run every pass twice to check that its output is deterministic"`
	Shuffle     bool `word:"shuffle" help:"passes: reorder independent instructions before every pass, to flush out passes that depend on program order"`
	NoFusion    bool `word:"nofusion" help:"CPU plugin code generator: no loop fusion, every op is its own kernel"`
	NoAttention bool `word:"noattention" help:"CPU plugin code generator: attention as its ops, not one fused kernel"`
	NoLean      bool `word:"nolean" help:"pjrt: run every execution through PJRT_LoadedExecutable_Execute, not the Stela CPU plugin's lean execute entry (stela_cpu_execute_lean), which eager ops and other one-device runs use"`
	NaNs        bool `word:"nans" help:"frontend: stop at the first op that makes a NaN from operands without one, naming its Go line (eager ops and derivatives are checked as they run; a compiled function whose result has a NaN is run again op by op to find the op), as jax_debug_nans does"`
}

// LogFlags are the topics of STELA_LOG; "all" turns every topic on.
type LogFlags struct {
	Compile   bool `word:"compile" help:"runtime: every program compiled, with its hash and time; CPU plugin compile worker: the time of each stage"`
	Recompile bool `word:"recompile" help:"jit: why a call compiled again, with the call site and the signature it differs from; and the bucket each call of a jit.Buckets function takes"`
	Remarks   bool `word:"remarks" help:"passes: what each pass did, at the source line it concerns"`
	Sharding  bool `word:"sharding" help:"sharding: for each sharded program compiled, every value's sharding and where it came from (user annotations, through which ops, with Go lines), conflicts with the bytes their reshards move, and the collectives of the partitioned program"`
}

// The variables.
const (
	DebugVar = "STELA_DEBUG"
	LogVar   = "STELA_LOG"
)

// allWord turns every word of a variable on, for variables whose table
// says so (STELA_LOG: logging everything is harmless; STELA_DEBUG's
// words change what Stela does, one at a time).
const allWord = "all"

// vars describes the variables, in the order help lists them.
var vars = []struct {
	name  string
	doc   string
	typ   reflect.Type
	all   bool // "all" is a word
	field func(*Settings) reflect.Value
}{
	{DebugVar, "checks and behaviour changes for debugging Stela itself", reflect.TypeFor[DebugFlags](), false,
		func(s *Settings) reflect.Value { return reflect.ValueOf(&s.Debug).Elem() }},
	{LogVar, "what Stela reports on stderr", reflect.TypeFor[LogFlags](), true,
		func(s *Settings) reflect.Value { return reflect.ValueOf(&s.Log).Elem() }},
}

// Settings are both switches, parsed.
type Settings struct {
	Debug DebugFlags
	Log   LogFlags
	// Errors are the variables with an unknown word or "help", in the
	// order of vars.
	Errors []*Error
}

// ErrHelp is what an *Error for "help" wraps: the words were asked for.
var ErrHelp = errors.New("help requested")

// Error is a switch that holds words it does not know, or "help".
type Error struct {
	Var     string   // "STELA_DEBUG"
	Value   string   // the variable's value
	Unknown []string // the unknown words, in order; empty when only help was asked
	Help    bool     // the value holds "help"
}

func (e *Error) Error() string {
	if len(e.Unknown) == 0 {
		return strings.TrimSuffix(Help(e.Var), "\n")
	}
	q := make([]string, len(e.Unknown))
	for i, w := range e.Unknown {
		q[i] = fmt.Sprintf("%q", w)
	}
	word := "word"
	if len(q) > 1 {
		word = "words"
	}
	return fmt.Sprintf("%s=%s: unknown %s %s (valid: %s; %s=help describes them)",
		e.Var, e.Value, word, strings.Join(q, ", "), strings.Join(Words(e.Var), ", "), e.Var)
}

// Unwrap is ErrHelp for a request for help without unknown words.
func (e *Error) Unwrap() error {
	if e.Help && len(e.Unknown) == 0 {
		return ErrHelp
	}
	return nil
}

var current atomic.Pointer[Settings]

// get returns the settings, parsing the environment on first use.
func get() *Settings {
	if s := current.Load(); s != nil {
		return s
	}
	current.CompareAndSwap(nil, Parse(os.Getenv))
	return current.Load()
}

// Debug returns STELA_DEBUG's words.
func Debug() DebugFlags { return get().Debug }

// Log returns STELA_LOG's topics.
func Log() LogFlags { return get().Log }

// Err returns nil when both switches hold only known words, else an error
// of their *Error values (joined when both are wrong).
func Err() error {
	es := get().Errors
	switch len(es) {
	case 0:
		return nil
	case 1:
		return es[0]
	}
	errs := make([]error, len(es))
	for i, e := range es {
		errs[i] = e
	}
	return errors.Join(errs...)
}

// Errors returns the *Error of every switch that holds an unknown word or
// "help".
func Errors() []*Error { return get().Errors }

// Reload parses the environment again. Only tests change the environment
// of a running process; envtest.Setenv calls this.
func Reload() { current.Store(Parse(os.Getenv)) }

// Parse parses the switches from getenv (os.Getenv for the process).
func Parse(getenv func(string) string) *Settings {
	s := &Settings{}
	for _, v := range vars {
		val := getenv(v.name)
		st := v.field(s)
		var e *Error
		for _, w := range strings.FieldsFunc(val, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
			if w == "help" {
				if e == nil {
					e = &Error{Var: v.name, Value: val}
				}
				e.Help = true
				continue
			}
			if v.all && w == allWord {
				for i := range st.NumField() {
					st.Field(i).SetBool(true)
				}
				continue
			}
			if i := fieldOf(v.typ, w); i >= 0 {
				st.Field(i).SetBool(true)
				continue
			}
			if e == nil {
				e = &Error{Var: v.name, Value: val}
			}
			e.Unknown = append(e.Unknown, w)
		}
		if e != nil {
			s.Errors = append(s.Errors, e)
		}
	}
	return s
}

// fieldOf is the index of the field of t whose word is w, or -1.
func fieldOf(t reflect.Type, w string) int {
	for i := range t.NumField() {
		if t.Field(i).Tag.Get("word") == w {
			return i
		}
	}
	return -1
}

// Vars names the switch variables.
func Vars() []string {
	var out []string
	for _, v := range vars {
		out = append(out, v.name)
	}
	return out
}

// Words lists the valid words of a variable, sorted, "all" included where
// it is one.
func Words(name string) []string {
	for _, v := range vars {
		if v.name != name {
			continue
		}
		var ws []string
		for i := range v.typ.NumField() {
			ws = append(ws, v.typ.Field(i).Tag.Get("word"))
		}
		if v.all {
			ws = append(ws, allWord)
		}
		sort.Strings(ws)
		return ws
	}
	return nil
}

// Help describes a variable and its words, one a line, as NAME=help
// prints them.
func Help(name string) string {
	for _, v := range vars {
		if v.name != name {
			continue
		}
		type row struct{ word, doc string }
		var rows []row
		for i := range v.typ.NumField() {
			f := v.typ.Field(i)
			rows = append(rows, row{f.Tag.Get("word"), f.Tag.Get("help")})
		}
		sort.Slice(rows, func(i, j int) bool { return rows[i].word < rows[j].word })
		// "all" comes last, after the topics it turns on: it sorts first.
		if v.all {
			rows = append(rows, row{allWord, "every topic above"})
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s: %s; comma-separated words:\n", v.name, v.doc)
		for _, r := range rows {
			fmt.Fprintf(&b, "  %-10s %s\n", r.word, r.doc)
		}
		return b.String()
	}
	return ""
}
