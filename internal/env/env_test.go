package env_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/internal/env/envtest"
)

func parse(vals map[string]string) *env.Settings {
	return env.Parse(func(name string) string { return vals[name] })
}

func TestParseWords(t *testing.T) {
	s := parse(map[string]string{"STELA_DEBUG": "verify, nofusion", "STELA_LOG": "remarks,,compile"})
	if want := (env.DebugFlags{Verify: true, NoFusion: true}); s.Debug != want {
		t.Errorf("STELA_DEBUG=verify, nofusion: %+v, want %+v", s.Debug, want)
	}
	if want := (env.LogFlags{Remarks: true, Compile: true}); s.Log != want {
		t.Errorf("STELA_LOG=remarks,,compile: %+v, want %+v", s.Log, want)
	}
	if len(s.Errors) != 0 {
		t.Errorf("errors %v, want none", s.Errors)
	}
	if s := parse(map[string]string{"STELA_LOG": "all"}); s.Log != (env.LogFlags{Compile: true, Recompile: true, Remarks: true, Sharding: true}) {
		t.Errorf("STELA_LOG=all: %+v, want every topic", s.Log)
	}
	// "all" is no STELA_DEBUG word: its words change what Stela does.
	if s := parse(map[string]string{"STELA_DEBUG": "all"}); len(s.Errors) != 1 || s.Debug != (env.DebugFlags{}) {
		t.Errorf("STELA_DEBUG=all: %+v, errors %v; want an error and no word on", s.Debug, s.Errors)
	}
}

func TestUnknownWordIsAnError(t *testing.T) {
	s := parse(map[string]string{"STELA_DEBUG": "verfy,shuffle", "STELA_LOG": "compile,recompiles"})
	if len(s.Errors) != 2 {
		t.Fatalf("errors %v, want one per variable", s.Errors)
	}
	for i, want := range []string{
		`STELA_DEBUG=verfy,shuffle: unknown word "verfy" (valid: nans, noattention, nofusion, nolean, shuffle, verify; STELA_DEBUG=help describes them)`,
		`STELA_LOG=compile,recompiles: unknown word "recompiles" (valid: all, compile, recompile, remarks, sharding; STELA_LOG=help describes them)`,
	} {
		if got := s.Errors[i].Error(); got != want {
			t.Errorf("error %d:\n got %s\nwant %s", i, got, want)
		}
		if errors.Is(s.Errors[i], env.ErrHelp) {
			t.Errorf("%v is ErrHelp", s.Errors[i])
		}
	}
	// The known words still count.
	if !s.Debug.Shuffle || !s.Log.Compile || s.Debug.Verify {
		t.Errorf("debug %+v, log %+v", s.Debug, s.Log)
	}
}

func TestHelpListsEveryWord(t *testing.T) {
	for _, v := range env.Vars() {
		s := parse(map[string]string{v: "help"})
		if len(s.Errors) != 1 || !errors.Is(s.Errors[0], env.ErrHelp) {
			t.Fatalf("%s=help: errors %v, want one that is ErrHelp", v, s.Errors)
		}
		msg := s.Errors[0].Error()
		for _, w := range env.Words(v) {
			if !strings.Contains(msg, "\n  "+w+" ") {
				t.Errorf("%s=help does not list %q:\n%s", v, w, msg)
			}
		}
	}
	// Every word has a doc, and words are unique.
	for _, typ := range []reflect.Type{reflect.TypeFor[env.DebugFlags](), reflect.TypeFor[env.LogFlags]()} {
		seen := map[string]bool{}
		for i := range typ.NumField() {
			f := typ.Field(i)
			w, h := f.Tag.Get("word"), f.Tag.Get("help")
			if w == "" || h == "" || seen[w] || w == "help" || w == "all" {
				t.Errorf("%s.%s: word %q, help %q: want a new word and a doc", typ.Name(), f.Name, w, h)
			}
			seen[w] = true
		}
	}
}

// TestHelpAllComesLast: STELA_LOG=help lists "all" ("every topic above")
// after the topics, though it sorts before them.
func TestHelpAllComesLast(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(env.Help(env.LogVar), "\n"), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "  all ") || !strings.HasSuffix(last, " every topic above") {
		t.Errorf("STELA_LOG=help's last line is %q, want the all line:\n%s", last, strings.Join(lines, "\n"))
	}
}

func TestParsedOnce(t *testing.T) {
	envtest.Setenv(t, "STELA_DEBUG", "verify")
	if !env.Debug().Verify || env.Err() != nil {
		t.Fatalf("STELA_DEBUG=verify: %+v, %v", env.Debug(), env.Err())
	}
	// A change the package is not told about is not seen: the switches
	// are read once.
	t.Setenv("STELA_DEBUG", "shuffle")
	if d := env.Debug(); !d.Verify || d.Shuffle {
		t.Errorf("after os.Setenv: %+v, want the first parse's", d)
	}
	envtest.Setenv(t, "STELA_DEBUG", "shuffle,bogus")
	if d := env.Debug(); d.Verify || !d.Shuffle {
		t.Errorf("after envtest.Setenv: %+v", d)
	}
	if err := env.Err(); err == nil || !strings.Contains(err.Error(), `unknown word "bogus"`) {
		t.Errorf("Err() = %v", err)
	}
}

// TestDocsListEveryWord: docs/runtime.md's table of the switches has a
// row for every word.
func TestDocsListEveryWord(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "runtime.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range env.Vars() {
		_, sec, ok := strings.Cut(string(b), "| `"+v+"`")
		if !ok {
			t.Errorf("docs/runtime.md has no row for %s", v)
			continue
		}
		for _, w := range env.Words(v) {
			if !strings.Contains(sec, "| `"+w+"` |") && !strings.HasPrefix(sec, " | `"+w+"` |") {
				t.Errorf("docs/runtime.md does not list %s=%s", v, w)
			}
		}
	}
}
