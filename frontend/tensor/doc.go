// Package tensor is Stela's user-facing array API: the Tensor type, the
// op functions users call (Add, MatMul, Conv2D, Softmax, While, ...), and
// devices by name.
//
// In: Go values (FromSlice, Scalar, Full, ...) and tensors. Out: tensors.
// A Tensor is either concrete, its values in a Buffer on a Device, or
// symbolic, an *ir.Value of a function being traced; every op accepts both,
// so one piece of Go code runs eagerly and traces into a program alike.
//
// How an op runs. Every op function builds its instruction through one
// internal function, which records the user's call site (ir.CallerLoc) and
// calls ir.Func.Emit, so the op table's type rule checks it there and
// errors point at the user's line. The op records into a trace when one
// is involved: the newest among its operands' traces, or the goroutine's
// current trace (Tracer.Within: set while jit runs the traced function and
// while a region's closure runs), whichever was opened later; so inside a
// traced function even ops on concrete tensors are recorded, and inside a
// Cond branch even ops on outer tensors stay in the branch. Otherwise the
// op runs now as a graph of one op: a one-instruction ir.Func handed to the
// operands' Device, the same path a traced program takes. The built-in "host" device (also "cpu" until the runtime registers
// a PJRT device under that name) runs programs with ir.Eval, the reference
// evaluator; the runtime package replaces it without touching op code.
//
// Closures. A concrete tensor that a traced function uses becomes a
// trailing parameter of the traced function (Tracer.Captured lists them),
// never a constant baked into the program, so that new weights need no
// recompile. The data constructors (FromSlice, Scalar, Zeros, Ones, Full,
// FromLiteral) always make concrete tensors, so inside a traced function
// they too become parameters. Constants that ops need themselves, and those
// made with the *Like constructors (ScalarLike, FullLike, IotaLike,
// ConstantLike), are constant ops. The closures given to While, Cond and
// Switch are traced into isolated regions that capture the outer tensors
// they use the same way; the op threads them in as extra operands.
//
// Broadcasting follows numpy for elementwise binary ops (trailing
// alignment, size-1 stretching, scalars); element types never promote:
// mixing f32 and f64 is an error that asks for Convert. Axes may be negative.
//
// Errors. Op functions panic with a located *ir.Error,
// "file.go:LINE: op: message", pointing at the user's call (the first stack
// frame outside Stela's library packages). Catch, and jit's Trace, recover
// them into errors. Mixing tensors of two traces, or of two devices, is such
// an error and names both.
//
// Invariants: tensors are immutable; a symbolic tensor is used only while
// its trace is open (a traced tensor that escapes its function is an error
// when used); a Tracer is used by one goroutine at a time.
package tensor
