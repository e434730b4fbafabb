// Package wanttest checks that located errors point at the right source
// lines, in the manner of golang.org/x/tools' analysistest: the line that
// must get a diagnostic carries a comment
//
//	tensor.Add(x, y) // want `add: operand types .* differ`
//
// whose regexp (a Go string literal, quoted or raw) must match the error
// reported at that line.
package wanttest

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// Wants parses the want comments of a Go source file: line → regexp.
func Wants(t testing.TB, file string) map[int]*regexp.Regexp {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	wants := map[int]*regexp.Regexp{}
	for i, line := range strings.Split(string(src), "\n") {
		_, c, ok := strings.Cut(line, "// want ")
		if !ok {
			continue
		}
		s, err := strconv.Unquote(strings.TrimSpace(c))
		if err != nil {
			t.Fatalf("%s:%d: bad want comment %q: %v", file, i+1, c, err)
		}
		re, err := regexp.Compile(s)
		if err != nil {
			t.Fatalf("%s:%d: bad want regexp: %v", file, i+1, err)
		}
		wants[i+1] = re
	}
	return wants
}

// Check asserts that every error is an *ir.Error located in file at a line
// with a want comment whose regexp matches the error's text, and that every
// want line got an error.
func Check(t testing.TB, file string, errs []error) {
	t.Helper()
	wants := Wants(t, file)
	hit := map[int]bool{}
	for i, err := range errs {
		var e *ir.Error
		if !errors.As(err, &e) {
			t.Errorf("case %d: got %v (%T), want a located *ir.Error", i, err, err)
			continue
		}
		loc := e.Loc.Primary()
		if filepath.Base(loc.File) != filepath.Base(file) {
			t.Errorf("case %d: error located at %v, want a line of %s: %v", i, loc, file, err)
			continue
		}
		re, ok := wants[loc.Line]
		if !ok {
			t.Errorf("case %d: unexpected error at %v: %v", i, loc, err)
			continue
		}
		hit[loc.Line] = true
		if !re.MatchString(err.Error()) {
			t.Errorf("case %d: error at %v does not match %q:\n%v", i, loc, re, err)
		}
	}
	for line, re := range wants {
		if !hit[line] {
			t.Errorf("%s:%d: no error matched want %q", filepath.Base(file), line, re)
		}
	}
}
