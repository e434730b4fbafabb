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
// of its operands belongs to one: the newest such trace. The trace is
// carried by the tensors (as JAX's tracers carry theirs), never looked up
// from the goroutine, so traces nest by the order they were opened (a
// region inside a traced function, a gradient tape inside either, see
// tape.go) and eager code pays nothing for traces open elsewhere. An op
// whose operands are all concrete runs now, even inside a traced
// function: its result is captured like any concrete tensor; and an op
// in a Cond branch that reads only outer tensors records before the case
// (the pass pipeline's sink pass moves it back into the branch). An op
// that records nowhere runs now as a graph of one op: a one-instruction
// ir.Func handed to a Device, the same path a traced program takes. The default device is
// "cpu", Stela's CPU PJRT plugin (runtime.Lookup resolves names; "host" is
// the reference evaluator, ir.Eval); op code is the same for every device.
//
// Devices and placement. A concrete tensor is committed to its device when
// the user put it there (To, FromBuffer) or computed it from committed
// tensors; one made without naming a device (FromSlice, Scalar, Zeros, ...,
// and results of ops on uncommitted tensors) is uncommitted and follows the
// computation. An op runs on the device of its committed operands and
// copies its uncommitted operands there; committed operands on two devices
// are an error naming both. Without committed operands it runs where its
// operands are, or on the default device if they are on several. This is
// JAX's rule, and jit.Compile follows it too, for its arguments and the
// tensors the function closes over (Placement has the details).
//
// Gradients. jit.Grad, VJP and JVP run the function they differentiate on
// a gradient tape: a trace whose ops also run one level below (tape.go),
// so the function sees real values; Apply runs the derivative that
// passes/autodiff makes of the recorded function.
//
// Closures. A concrete tensor that a traced function uses becomes a
// trailing parameter of the traced function (Tracer.Captured lists them),
// never a constant baked into the program, so that new weights need no
// recompile. The data constructors (FromSlice, Zeros, Ones, Full,
// FromLiteral, Scalar of a sized Go type) always make concrete tensors, so
// inside a traced function they too become parameters. Constants that ops need themselves, those
// made with the *Like constructors (ScalarLike, FullLike, IotaLike,
// ConstantLike), and Go numbers (below) are constant ops. The closures given
// to While, Cond and Switch are traced into isolated regions that capture
// the outer tensors they use the same way; the op threads them in as extra
// operands.
//
// Broadcasting follows numpy for elementwise binary ops (trailing
// alignment, size-1 stretching, scalars); element types never promote:
// mixing f32 and f64 is an error that asks for Convert. Axes may be negative.
//
// Go numbers. Scalar of a Go int, float64 or complex128 (what untyped
// constants such as 2, 0.5 and 1i become) is weakly typed, as Python
// scalars are in JAX: combined with a tensor in an elementwise op (the
// binary ops, comparisons, Where, Clamp, Pad's value) it takes the
// tensor's element type, so Add(x, Scalar(3.0)) is an f32 for an f32 x and
// a bf16 for a bf16 one; in a trace it is a constant of that type, not a
// converted f64. An integer constant converts exactly or not at all (300
// with ui8 and 16777217 with f32 are errors); a float constant rounds to a
// float or complex type (a finite one that overflows it is an error); a
// float constant with an integer tensor, a complex one with a real tensor,
// and any number with an i1 tensor are errors, where JAX would promote the
// tensor: Stela never changes a tensor's type behind the user's back.
// Weak scalars among themselves keep their kind, the widest of integer,
// float and complex (Add(Scalar(1), Scalar(0.5)) is a weak f64 1.5).
// Scalar of any other Go type (float32, int32, ir.BFloat16, ...) makes an
// ordinary tensor of that type; Convert, reshaping or moving a weak scalar
// makes an ordinary one too.
//
// Errors. Op functions panic with a located *ir.Error,
// "file.go:LINE: op: message", pointing at the user's call (the first stack
// frame outside Stela's library packages). Catch, and jit's Trace, recover
// them into errors. A composite op function (Softmax, LayerNorm, Sum,
// MatMul, Conv2D, the pools, ...) names itself first in every error raised
// inside it, then the IR op that failed: "softmax: exponential: element
// type si32 is not supported". Mixing tensors of two traces, or committed
// tensors of two devices, is such an error and names both.
//
// Invariants: tensors are immutable; a symbolic tensor is used only while
// its trace is open (a traced tensor that escapes its function is an error
// when used); a Tracer is used by one goroutine at a time.
package tensor
