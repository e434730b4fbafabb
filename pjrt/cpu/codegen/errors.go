package codegen

import (
	"errors"
	"fmt"
)

// ErrInternal marks errors that are bugs of the code generator, not
// problems of the program (errors.Is(err, ErrInternal)).
var ErrInternal = errors.New("internal error")

// UnsupportedError reports something valid in StableHLO that the code
// generator does not handle: an op, an element type, an attribute form.
// Its message starts with `unsupported: <what>`, e.g.
// `unsupported: stablehlo.fft`; the compile worker exits with status 2 for
// it.
type UnsupportedError struct {
	What string
	// Context names where it was met ("stablehlo.add in @main"), or "".
	Context string
}

func (e *UnsupportedError) Error() string {
	if e.Context != "" {
		return "unsupported: " + e.What + " (" + e.Context + ")"
	}
	return "unsupported: " + e.What
}

func unsupportedf(format string, args ...any) error {
	return &UnsupportedError{What: fmt.Sprintf(format, args...)}
}

// IsUnsupported reports whether err is (or wraps) an *UnsupportedError.
func IsUnsupported(err error) bool {
	var u *UnsupportedError
	return errors.As(err, &u)
}

// opError prefixes an error with where it happened (op name, function,
// location).
type opError struct {
	prefix string
	err    error
}

func (e *opError) Error() string { return e.prefix + ": " + e.err.Error() }
func (e *opError) Unwrap() error { return e.err }

// inContext attaches context to err: an *UnsupportedError keeps its
// `unsupported: ` prefix first (the worker's one-line message starts with
// it), anything else is prefixed.
func inContext(ctx string, err error) error {
	if err == nil {
		return nil
	}
	var u *UnsupportedError
	if errors.As(err, &u) {
		if u.Context != "" {
			return u
		}
		return &UnsupportedError{What: u.What, Context: ctx}
	}
	var oe *opError
	if errors.As(err, &oe) {
		return err
	}
	return &opError{prefix: ctx, err: err}
}
