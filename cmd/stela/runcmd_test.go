package main

import (
	"bytes"
	"io"
	"os"
	"regexp"
	"testing"
)

// TestProgressOnlyOnATerminal: --progress auto writes to stderr only when
// it is a terminal; on and off override.
func TestProgressOnlyOnATerminal(t *testing.T) {
	var stderr bytes.Buffer
	yes := func(io.Writer) bool { return true }
	no := func(io.Writer) bool { return false }
	for _, tc := range []struct {
		mode     string
		terminal func(io.Writer) bool
		want     bool
	}{
		{"auto", yes, true},
		{"auto", no, false},
		{"on", no, true},
		{"off", yes, false},
	} {
		w, err := progressWriter(tc.mode, &stderr, tc.terminal)
		if err != nil {
			t.Fatal(err)
		}
		if got := w != nil; got != tc.want {
			t.Errorf("--progress %s, terminal %v: progress %v, want %v", tc.mode, tc.terminal(nil), got, tc.want)
		}
	}
	if _, err := progressWriter("always", &stderr, yes); err == nil {
		t.Error("--progress always: no error")
	}
}

// TestIsTerminal: buffers and pipes are not terminals.
func TestIsTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, out := range map[string]io.Writer{"buffer": &bytes.Buffer{}, "pipe": w} {
		if isTerminal(out) {
			t.Errorf("%s is a terminal", name)
		}
	}
}

// TestProgressLines: a line per stage with its time; a stage that fails
// leaves its line ended, so that the error starts on a line of its own;
// a nil writer prints nothing.
func TestProgressLines(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, prefix: "stela run: "}
	p.begin("trace")
	p.end()
	p.begin("compile")
	p.close()
	p.close()
	want := regexp.MustCompile(`^stela run: trace \.\.\. [0-9.]+[µnm]?s\nstela run: compile \.\.\.\n$`)
	if !want.MatchString(b.String()) {
		t.Errorf("progress printed %q, want it to match %v", b.String(), want)
	}
	quiet := &progress{}
	quiet.begin("trace")
	quiet.end()
	quiet.close()
}
