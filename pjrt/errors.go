package pjrt

/*
#include "pjrt_cgo.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
)

// ErrorCode is a PJRT_Error_Code: abseil's status codes.
type ErrorCode int32

// The error codes, with PJRT's numbering.
const (
	CodeOK                 ErrorCode = 0
	CodeCancelled          ErrorCode = 1
	CodeUnknown            ErrorCode = 2
	CodeInvalidArgument    ErrorCode = 3
	CodeDeadlineExceeded   ErrorCode = 4
	CodeNotFound           ErrorCode = 5
	CodeAlreadyExists      ErrorCode = 6
	CodePermissionDenied   ErrorCode = 7
	CodeResourceExhausted  ErrorCode = 8
	CodeFailedPrecondition ErrorCode = 9
	CodeAborted            ErrorCode = 10
	CodeOutOfRange         ErrorCode = 11
	CodeUnimplemented      ErrorCode = 12
	CodeInternal           ErrorCode = 13
	CodeUnavailable        ErrorCode = 14
	CodeDataLoss           ErrorCode = 15
	CodeUnauthenticated    ErrorCode = 16
)

var codeNames = [...]string{
	"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
	"ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
	"ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
	"UNAUTHENTICATED",
}

// String is the code's name as PJRT and abseil spell it: "UNIMPLEMENTED".
func (c ErrorCode) String() string {
	if c >= 0 && int(c) < len(codeNames) {
		return codeNames[c]
	}
	return fmt.Sprintf("CODE_%d", int32(c))
}

// Error is an error reported by a plugin (a PJRT_Error, converted and freed
// at once) or found by this package before calling one. Op names the PJRT
// function ("Client_Compile") or the Go method that failed.
//
// Match codes with errors.Is and the sentinels below:
// errors.Is(err, pjrt.ErrUnimplemented).
type Error struct {
	Op   string
	Code ErrorCode
	Msg  string
}

func (e *Error) Error() string {
	s := "pjrt: "
	if e.Op != "" {
		s += e.Op + ": "
	}
	s += e.Code.String()
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	return s
}

// Is reports whether target is the sentinel of e's code (a *Error with only
// Code set).
//
// An error of code CodeDeadlineExceeded is also context.DeadlineExceeded,
// and one of code CodeCancelled context.Canceled: an execution stopped by
// its context.Context reads as the context's error.
func (e *Error) Is(target error) bool {
	switch target {
	case context.DeadlineExceeded:
		return e.Code == CodeDeadlineExceeded
	case context.Canceled:
		return e.Code == CodeCancelled
	}
	t, ok := target.(*Error)
	return ok && t.Op == "" && t.Msg == "" && t.Code == e.Code
}

// Sentinels, one per code, for errors.Is.
var (
	ErrCancelled          = &Error{Code: CodeCancelled}
	ErrUnknown            = &Error{Code: CodeUnknown}
	ErrInvalidArgument    = &Error{Code: CodeInvalidArgument}
	ErrDeadlineExceeded   = &Error{Code: CodeDeadlineExceeded}
	ErrNotFound           = &Error{Code: CodeNotFound}
	ErrAlreadyExists      = &Error{Code: CodeAlreadyExists}
	ErrPermissionDenied   = &Error{Code: CodePermissionDenied}
	ErrResourceExhausted  = &Error{Code: CodeResourceExhausted}
	ErrFailedPrecondition = &Error{Code: CodeFailedPrecondition}
	ErrAborted            = &Error{Code: CodeAborted}
	ErrOutOfRange         = &Error{Code: CodeOutOfRange}
	ErrUnimplemented      = &Error{Code: CodeUnimplemented}
	ErrInternal           = &Error{Code: CodeInternal}
	ErrUnavailable        = &Error{Code: CodeUnavailable}
	ErrDataLoss           = &Error{Code: CodeDataLoss}
	ErrUnauthenticated    = &Error{Code: CodeUnauthenticated}
)

// ErrDestroyed is wrapped by errors from using an object (client, buffer,
// executable, event) after its Destroy.
var ErrDestroyed = errors.New("pjrt: object destroyed")

func destroyedError(op string) error { return fmt.Errorf("pjrt: %s: %w", op, ErrDestroyed) }

// errorf builds a client-side *Error.
func errorf(op string, code ErrorCode, format string, args ...any) *Error {
	return &Error{Op: op, Code: code, Msg: fmt.Sprintf(format, args...)}
}

// check converts a PJRT_Error returned by the plugin into an *Error and
// frees it: message first (it lives as long as the error), then the code,
// then Error_Destroy. nil stays nil.
func (p *Plugin) check(op string, perr *C.PJRT_Error) error {
	if perr == nil {
		return nil
	}
	var margs C.PJRT_Error_Message_Args
	margs.error = perr
	p.callErrorMessage(&margs)
	msg := C.GoStringN(margs.message, C.int(margs.message_size))

	code := CodeUnknown
	if p.slots[slotErrorGetCode] {
		var cargs C.PJRT_Error_GetCode_Args
		cargs.error = perr
		if e2 := p.callErrorGetCode(&cargs); e2 == nil {
			code = ErrorCode(cargs.code)
		} else {
			p.destroyError(e2)
		}
	}
	p.destroyError(perr)
	return &Error{Op: op, Code: code, Msg: msg}
}

func (p *Plugin) destroyError(perr *C.PJRT_Error) {
	var dargs C.PJRT_Error_Destroy_Args
	dargs.error = perr
	p.callErrorDestroy(&dargs)
}

// missing is the error for a slot the plugin does not have (an older API
// version, or NULL).
func (p *Plugin) missing(slot int) error {
	return &Error{Op: slotNames[slot][len("PJRT_"):], Code: CodeUnimplemented,
		Msg: fmt.Sprintf("plugin %s (PJRT C API %d.%d) does not provide %s", p.path, p.major, p.minor, slotNames[slot])}
}

// goString copies a (pointer, size) string the plugin returned.
func goString(p *C.char, n C.size_t) string {
	if p == nil || n == 0 {
		return ""
	}
	return C.GoStringN(p, C.int(n))
}
