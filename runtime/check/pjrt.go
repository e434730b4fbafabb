package check

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
)

// PJRTRunner runs prepared programs on the first addressable device of a
// PJRT client: the Stela CPU plugin, XLA's CUDA plugin, libtpu.
type PJRTRunner struct {
	Client *pjrt.Client
	// Timeout bounds each execution (0: none); one that runs longer fails
	// with DEADLINE_EXCEEDED on plugins that can stop executions (the
	// Stela CPU plugin).
	Timeout time.Duration
}

// Run compiles and runs mlir and copies its results to the host. A compile
// error is a *Rejected (the program is unsupported or malformed for this
// device), or a *CompilerError when the plugin says INTERNAL (a bug or a
// crash of its compiler); an execution error is returned as is.
func (r PJRTRunner) Run(mlir []byte) ([]*ir.Literal, error) {
	devs := r.Client.AddressableDevices()
	if len(devs) == 0 {
		return nil, errors.New("check: the client has no addressable device")
	}
	exe, err := r.Client.Compile(string(mlir), &pjrt.CompileOptions{})
	if err != nil {
		var pe *pjrt.Error
		if errors.As(err, &pe) && pe.Code == pjrt.CodeInternal {
			return nil, &CompilerError{Msg: compileReason(err)}
		}
		return nil, &Rejected{Reason: compileReason(err)}
	}
	defer exe.Destroy()
	ctx := context.Background()
	if r.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.Timeout)
		defer cancel()
	}
	lists, err := exe.ExecuteContext(ctx, [][]*pjrt.Buffer{nil}, &pjrt.ExecuteOptions{Device: devs[0]})
	if err != nil {
		if r.Timeout > 0 && errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("execute: %w (the time limit is %v: --timeout, %s)", err, r.Timeout, env.ExecTimeoutVar)
		}
		return nil, fmt.Errorf("execute: %w", err)
	}
	outs := lists[0]
	lits := make([]*ir.Literal, len(outs))
	for i, b := range outs {
		l, err := b.ToLiteral()
		b.Destroy()
		if err != nil {
			return nil, fmt.Errorf("result %d to host: %w", i, err)
		}
		lits[i] = l
	}
	return lits, nil
}

// compileReason turns a compile error into the one-line reason `stela
// check` prints: the plugin's own message, which for the Stela CPU plugin
// starts with "unsupported:" for unsupported ops and types.
func compileReason(err error) string {
	msg := err.Error()
	var pe *pjrt.Error
	if errors.As(err, &pe) {
		msg = pe.Msg
	}
	// The Stela CPU plugin prefixes its messages ("stela cpu compile: ");
	// the contract's one-line reason starts at "unsupported:".
	if i := strings.Index(msg, "unsupported: "); i >= 0 {
		return msg[i:]
	}
	return msg
}
