package pjrt

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorCodes(t *testing.T) {
	sentinels := []*Error{ErrCancelled, ErrUnknown, ErrInvalidArgument, ErrDeadlineExceeded, ErrNotFound,
		ErrAlreadyExists, ErrPermissionDenied, ErrResourceExhausted, ErrFailedPrecondition, ErrAborted,
		ErrOutOfRange, ErrUnimplemented, ErrInternal, ErrUnavailable, ErrDataLoss, ErrUnauthenticated}
	for i, s := range sentinels {
		code := ErrorCode(i + 1)
		if s.Code != code {
			t.Errorf("sentinel %d has code %v", i, s.Code)
		}
		err := fmt.Errorf("wrapped: %w", &Error{Op: "Client_Compile", Code: code, Msg: "boom"})
		for j, other := range sentinels {
			if got := errors.Is(err, other); got != (i == j) {
				t.Errorf("errors.Is(%v, %v) = %v", err, other, got)
			}
		}
	}
	for code, name := range map[ErrorCode]string{CodeOK: "OK", CodeInvalidArgument: "INVALID_ARGUMENT", CodeUnimplemented: "UNIMPLEMENTED", CodeUnauthenticated: "UNAUTHENTICATED", 42: "CODE_42"} {
		if code.String() != name {
			t.Errorf("%d.String() = %q, want %q", int32(code), code.String(), name)
		}
	}
	for _, c := range []struct {
		err  *Error
		want string
	}{
		{&Error{Op: "Client_Create", Code: CodeNotFound, Msg: "no device"}, "pjrt: Client_Create: NOT_FOUND: no device"},
		{&Error{Code: CodeInternal, Msg: "x"}, "pjrt: INTERNAL: x"},
		{ErrUnimplemented, "pjrt: UNIMPLEMENTED"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
	}
	// A message does not make an error a sentinel.
	if errors.Is(ErrInternal, &Error{Code: CodeInternal, Msg: "x"}) {
		t.Error("an *Error with a message matched as a sentinel")
	}
	if !errors.Is(destroyedError("Buffer.ToHost"), ErrDestroyed) {
		t.Error("destroyedError does not wrap ErrDestroyed")
	}
}
