// Package jit turns Go functions over tensors into IR by tracing them.
//
// In: a Go func whose parameters are *tensor.Tensor (or one
// []*tensor.Tensor) and whose results are *tensor.Tensor or
// []*tensor.Tensor, optionally followed by an error; and the types of its
// inputs. Out: an *ir.Func with the inputs as its leading parameters, then
// one trailing parameter per concrete tensor the function closes over
// (TraceResult.Captured lists them, for the caller to pass in), and the
// function's results, flattened in order. Every value carries the Go
// location of the user call that made it.
//
// Tracing calls the function once with symbolic tensors: the tensor ops
// record into the ir.Func instead of running. A located error that an op
// panics with (a shape mismatch, say) comes back from Trace as an error
// naming the user's file and line.
//
// The signature cache, compilation and recompile reporting (jit.Compile)
// come with the runtime.
package jit
