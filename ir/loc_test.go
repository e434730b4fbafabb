package ir

import (
	"errors"
	"io/fs"
	"testing"
)

// Errorf wraps a %w operand as fmt.Errorf does, so that a located error
// keeps the type and identity of what it locates.
func TestErrorfWraps(t *testing.T) {
	loc := Loc{File: "/src/model.go", Line: 7}
	e := Errorf(loc, "add", "compile: %w", fs.ErrNotExist)
	if got, want := e.Error(), "model.go:7: add: compile: file does not exist"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(e, fs.ErrNotExist) {
		t.Errorf("errors.Is(%v, fs.ErrNotExist) = false", e)
	}
	var pe *fs.PathError
	both := Errorf(loc, "add", "%w and %w", fs.ErrNotExist, &fs.PathError{Op: "open", Path: "x", Err: fs.ErrPermission})
	if !errors.Is(both, fs.ErrNotExist) || !errors.As(both, &pe) || !errors.Is(both, fs.ErrPermission) {
		t.Errorf("two %%w operands: Is/As do not reach both: %v", both)
	}
	if plain := Errorf(loc, "add", "%v", fs.ErrNotExist); errors.Is(plain, fs.ErrNotExist) || plain.Unwrap() != nil {
		t.Errorf("%%v wraps: %v", plain)
	}
}
