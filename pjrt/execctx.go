package pjrt

/*
#include "pjrt_cgo.h"

static inline int32_t stela_call_cancel(void* fn, PJRT_ExecuteContext* ctx, int32_t code) {
  return ((int32_t (*)(PJRT_ExecuteContext*, int32_t))fn)(ctx, code);
}
*/
import "C"

import (
	"context"
	"errors"
	"sync"
	"unsafe"
)

// cancelSymbol is the Stela CPU plugin's extension that cancels the
// executions of an execute context (docs/cpu-plugin.md, "Deadlines and
// cancellation").
const cancelSymbol = "stela_cpu_execute_context_cancel"

// ExecuteContext is per-execution state passed to the plugin with
// ExecuteOptions.Context (PJRT_ExecuteContext). On a plugin that can
// cancel executions (CanCancel: Stela's CPU plugin), Cancel stops the
// executions running with it, and any started later, which then fail
// with the code given (CodeDeadlineExceeded or CodeCancelled).
type ExecuteContext struct {
	p      *Plugin
	mu     sync.RWMutex // Cancel holds it for reading, Destroy for writing
	ptr    *C.PJRT_ExecuteContext
	cancel unsafe.Pointer // the plugin's cancelSymbol, or nil
}

// NewExecuteContext makes an execute context (PJRT_ExecuteContext_Create).
func (p *Plugin) NewExecuteContext() (*ExecuteContext, error) {
	var a C.PJRT_ExecuteContext_Create_Args
	if err := p.callExecuteContextCreate(&a); err != nil {
		return nil, err
	}
	p.cancelOnce.Do(func() {
		name := C.CString(cancelSymbol)
		p.cancelFn = C.dlsym(p.handle, name)
		C.free(unsafe.Pointer(name))
	})
	return &ExecuteContext{p: p, ptr: a.context, cancel: p.cancelFn}, nil
}

// CanCancel reports whether the plugin can cancel executions.
func (x *ExecuteContext) CanCancel() bool { return x.cancel != nil }

// Cancel stops the executions of x, now and later: they fail with code,
// CodeDeadlineExceeded or CodeCancelled (any other code means
// CodeCancelled). The first call's code sticks. Safe from any goroutine,
// during an execution too; after Destroy it does nothing.
func (x *ExecuteContext) Cancel(code ErrorCode) error {
	if x.cancel == nil {
		return errorf("ExecuteContext.Cancel", CodeUnimplemented, "the plugin %s cannot cancel executions (it has no %s)", x.p.path, cancelSymbol)
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.ptr != nil {
		C.stela_call_cancel(x.cancel, x.ptr, C.int32_t(code))
	}
	return nil
}

// Destroy frees the context (PJRT_ExecuteContext_Destroy); no execution
// may be using it. It is idempotent.
func (x *ExecuteContext) Destroy() {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.ptr == nil {
		return
	}
	var a C.PJRT_ExecuteContext_Destroy_Args
	a.context = x.ptr
	x.ptr = nil
	if err := x.p.callExecuteContextDestroy(&a); err != nil {
		_ = err // nothing to do: the context is gone either way
	}
}

// codeOf is the PJRT code of a context's error.
func codeOf(err error) ErrorCode {
	if errors.Is(err, context.DeadlineExceeded) {
		return CodeDeadlineExceeded
	}
	return CodeCancelled
}

// ctxError is the error of an execution not started because ctx is done.
func ctxError(op string, ctx context.Context) error {
	err := ctx.Err()
	if c := context.Cause(ctx); c != nil {
		err = c
	}
	return &Error{Op: op, Code: codeOf(ctx.Err()), Msg: err.Error()}
}

// withContext runs run with an execute context that ctx cancels: when
// ctx is done before run returns, the plugin stops the execution, which
// fails with CodeDeadlineExceeded (ctx's deadline passed) or
// CodeCancelled. A ctx that is never done (context.Background) costs
// nothing: run gets nil. A plugin that cannot cancel gets nil too: ctx is
// then only checked before the execution starts.
func (p *Plugin) withContext(op string, ctx context.Context, run func(*ExecuteContext) error) error {
	if ctx == nil || ctx.Done() == nil {
		return run(nil)
	}
	if ctx.Err() != nil {
		return ctxError(op, ctx)
	}
	if !p.slots[slotExecuteContextCreate] {
		return run(nil)
	}
	x, err := p.NewExecuteContext()
	if err != nil {
		return run(nil)
	}
	defer x.Destroy()
	if !x.CanCancel() {
		return run(nil)
	}
	stop := context.AfterFunc(ctx, func() { _ = x.Cancel(codeOf(ctx.Err())) })
	err = run(x)
	stop()
	return err
}
