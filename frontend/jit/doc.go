// Package jit turns Go functions over tensors into IR by tracing them, and
// compiles and caches them.
//
// In: a Go func whose parameters are *tensor.Tensor (or one
// []*tensor.Tensor) and whose results are *tensor.Tensor or
// []*tensor.Tensor, optionally followed by an error; and the types of its
// inputs. Out: an *ir.Func with the inputs as its leading parameters, then
// one trailing parameter per concrete tensor the function closes over
// (TraceResult.Captured lists them, for the caller to pass in), and the
// function's results, flattened in order. Every value carries the Go
// location of the user call that made it. The function is named after its
// Go name; a function literal after the function that contains it and the
// compiler's counter ("main_closure1").
//
// Tracing calls the function once with symbolic tensors: the tensor ops
// record into the ir.Func instead of running. A located error that an op
// panics with (a shape mismatch, say) comes back from Trace as an error
// naming the user's file and line.
//
// Compile wraps a function: each new signature (tensor types, shapes,
// devices and commitment, static arguments) is traced, run through the
// pass pipeline, compiled on the device tensor.Placement picks (that of
// the committed arguments and captured tensors) and cached, with copies of
// the captured tensors that live elsewhere; later calls run the cached
// program. STELA_LOG=recompile says why a call compiled again; STELA_DUMP
// writes each stage. Donate gives argument buffers to the compiled
// program, which writes its results into them (donate.go). Failures name
// the op and line that caused them, or,
// for the call itself (two committed devices, a nil argument), the call's
// line and "jit @name".
package jit
