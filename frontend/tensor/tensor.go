package tensor

import (
	"fmt"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// Tensor is an n-dimensional array. It is either concrete (its values live
// in a Buffer on a Device) or symbolic (an *ir.Value of a function being
// traced); op functions accept both, and code written against Tensor
// does not need to know which it holds. Tensors are immutable.
type Tensor struct {
	typ ir.Type
	buf Buffer  // concrete
	sym *symbol // symbolic
	// meta is nil for the common tensor, uncommitted and not weak. Two
	// pointers after the type and the buffer keep a Tensor at 64 bytes:
	// eager dispatch makes one per result.
	meta *meta
}

// symbol is what a symbolic tensor stands for: a value of a trace.
type symbol struct {
	val *ir.Value
	tr  *Tracer // the trace val belongs to
	// primal is, for a tensor of a gradient tape, the tensor one level
	// below that holds (or, traced, stands for) its value.
	primal *Tensor
}

// meta holds what few tensors have.
type meta struct {
	// committed: the tensor was put on its device explicitly (To,
	// FromBuffer) or computed from such a tensor, so computations run
	// there; an uncommitted tensor follows the computation (placement.go).
	committed bool
	// weak is set for a weakly typed tensor, a Go number's stand-in that
	// takes the element type of the operand it meets (weak.go), and wlit
	// is its value when that is known on the host.
	weak weakKind
	wlit *ir.Literal
}

// committedMeta is the meta of every committed tensor that is not weak.
var committedMeta = &meta{committed: true}

// commitment is the meta of a tensor that is not weak.
func commitment(committed bool) *meta {
	if committed {
		return committedMeta
	}
	return nil
}

func (t *Tensor) weakKind() weakKind {
	if t.meta == nil {
		return notWeak
	}
	return t.meta.weak
}

func (t *Tensor) weakLit() *ir.Literal {
	if t.meta == nil {
		return nil
	}
	return t.meta.wlit
}

// setWeak makes a fresh tensor weak of kind k (with value l, if known), or
// not weak for notWeak; its commitment stays.
func (t *Tensor) setWeak(k weakKind, l *ir.Literal) {
	if k == notWeak {
		t.meta = commitment(t.Committed())
		return
	}
	t.meta = &meta{committed: t.Committed(), weak: k, wlit: l}
}

// weakOnly is t's meta without its commitment.
func (t *Tensor) weakOnly() *meta {
	if t.weakKind() == notWeak {
		return nil
	}
	return &meta{weak: t.meta.weak, wlit: t.meta.wlit}
}

// FromBuffer wraps a device buffer as a concrete tensor committed to the
// buffer's device (see To): the caller chose the device.
func FromBuffer(b Buffer) *Tensor {
	return &Tensor{typ: b.Type(), buf: b, meta: committedMeta}
}

// FromResult wraps a buffer that a computation made: committed when the
// computation ran where a committed input was, uncommitted when it ran
// where its uncommitted inputs happened to be (Placement says which).
// jit uses it for a compiled function's results.
func FromResult(b Buffer, committed bool) *Tensor {
	return &Tensor{typ: b.Type(), buf: b, meta: commitment(committed)}
}

func symbolic(tr *Tracer, v *ir.Value) *Tensor {
	return &Tensor{typ: v.Type, sym: &symbol{val: v, tr: tr}}
}

// Type returns the tensor's type (element type and shape).
func (t *Tensor) Type() ir.Type {
	return ir.Type{DType: t.typ.DType, Shape: append([]int{}, t.typ.Shape...)}
}

// Shape returns a copy of the dimensions.
func (t *Tensor) Shape() []int { return append([]int{}, t.typ.Shape...) }

// DType returns the element type.
func (t *Tensor) DType() ir.DType { return t.typ.DType }

// Rank is the number of dimensions.
func (t *Tensor) Rank() int { return len(t.typ.Shape) }

// NumElements is the product of the dimensions.
func (t *Tensor) NumElements() int { return t.typ.NumElements() }

// Device returns the name of the device that holds a concrete tensor, and
// "" for a traced one (it lives wherever the compiled program runs). A
// tensor being differentiated eagerly (see jit.Grad) is where its value is.
func (t *Tensor) Device() string {
	c := t.concrete()
	if c == nil {
		return ""
	}
	return c.buf.Device().Name()
}

// concrete returns the concrete tensor that holds t's value: t itself,
// or, for a tensor of a gradient tape that runs eagerly, the tensor below
// it; nil when t's value exists only in a traced program.
func (t *Tensor) concrete() *Tensor {
	for t != nil && t.buf == nil {
		if t.sym == nil || t.sym.primal == nil {
			return nil
		}
		t = t.sym.primal
	}
	return t
}

// Committed reports whether a concrete tensor is committed to its device:
// placed there explicitly (To, FromBuffer) or computed from a committed
// tensor. Computations run on the device of their committed operands, and
// uncommitted operands are copied there; see Placement. A traced tensor
// is not committed.
func (t *Tensor) Committed() bool { return t.meta != nil && t.meta.committed }

// Weak reports whether t is a weakly typed scalar: one made by Scalar from
// a Go int, float64 or complex128 (the types Go gives untyped constants),
// which takes the element type of the tensor it is combined with.
func (t *Tensor) Weak() bool { return t.weakKind() != notWeak }

// Freed reports whether a concrete tensor's buffer was released by Free
// (through this tensor or another one sharing the buffer).
func (t *Tensor) Freed() bool {
	if t == nil || t.buf == nil {
		return false
	}
	f, ok := t.buf.(runtime.Freer)
	return ok && f.Freed()
}

// Traced reports whether t is symbolic: a value in a function being traced.
// Op code should not need it; jit and debugging output do.
func (t *Tensor) Traced() bool { return t.sym != nil }

// Value returns the IR value of a traced tensor, nil for a concrete one.
func (t *Tensor) Value() *ir.Value {
	if t.sym == nil {
		return nil
	}
	return t.sym.val
}

// Tracer returns the trace that a traced tensor belongs to, nil for a
// concrete one.
func (t *Tensor) Tracer() *Tracer {
	if t.sym == nil {
		return nil
	}
	return t.sym.tr
}

// Buffer returns the storage of a concrete tensor, nil for a traced one.
// In fused eager mode it runs the open window first: the buffer is given
// to code (jit, a device) that runs on it.
func (t *Tensor) Buffer() Buffer {
	if t.buf == nil {
		return nil
	}
	fusedFlushAll()
	return t.dbuf()
}

// key identifies what a tensor refers to, so that a trace capturing the
// same value or buffer twice makes one parameter.
func (t *Tensor) key() any {
	if t.Value() != nil {
		return t.Value()
	}
	return t.buf
}

// Literal copies a concrete tensor's values to host memory. On a traced
// tensor it panics with a located error: its values exist only when the
// compiled program runs.
func (t *Tensor) Literal() *ir.Literal {
	if t == nil {
		panic(fail("literal", "nil tensor"))
	}
	if t.buf == nil {
		c := t.concrete()
		if c == nil {
			panic(fail("literal", "tensor %v is traced in @%s: it has no values until the traced function runs", t.typ, t.Tracer().Name()))
		}
		t = c
	}
	l, err := t.buf.Literal()
	if err != nil {
		if msg := donated(t); msg != "" {
			panic(fail("literal", "%s", msg))
		}
		// A failed computation's error is located at the op that failed.
		panic(located(err, ir.CallerLoc(), "literal"))
	}
	return l
}

// donated says where t's buffer went when it was donated to a compiled
// function (jit.Donate): "tensor f32[2,3] was donated to jit @step at
// train.go:42"; "" when it was not.
func donated(t *Tensor) string {
	if t == nil || t.buf == nil {
		return ""
	}
	b := t.buf
	if lb, ok := b.(*lazyBuf); ok {
		if b = lb.materialized(); b == nil {
			return ""
		}
	}
	de := runtime.DonatedTo(b)
	if de == nil {
		return ""
	}
	return fmt.Sprintf("tensor %v was donated to %s at %v", t.typ, de.To, de.At)
}

// donatedOperand is the error of an op given a donated operand, nil when
// none was: the op's own failure, on the error path, says why.
func donatedOperand(op string, args []*Tensor) *ir.Error {
	for i, a := range args {
		if msg := donated(a); msg != "" {
			return ir.Errorf(ir.CallerLoc(), op, "operand #%d: %s", i, msg)
		}
	}
	return nil
}

// Array returns a copy of a concrete tensor's values as a flat Go slice in
// row-major order: []float32 for f32, []int64 for si64, []bool for i1,
// []ir.Float16 for f16 and so on. Like every host read, it waits for the
// computation and panics with its located error if it failed.
func (t *Tensor) Array() any { return t.Literal().Data }

// Err waits for a concrete tensor's computation and returns its error, if
// it failed (a located *ir.Error); nil for traced tensors. Reads panic
// with the same error.
func (t *Tensor) Err() error {
	if t = t.concrete(); t == nil {
		return nil
	}
	if e, ok := t.buf.(interface{ Err() error }); ok {
		return e.Err()
	}
	return nil
}

// Free releases a concrete tensor's device memory now, rather than when
// the tensor is collected. Using t afterwards is an error. Free on a
// traced tensor does nothing.
func (t *Tensor) Free() {
	if t == nil || t.buf == nil {
		return
	}
	if fusedOpen.Load() {
		// An input of the open window is freed: it runs first, as its
		// ops would have in plain mode.
		b := t.buf
		if lb, ok := b.(*lazyBuf); ok {
			b = lb.materialized()
		}
		if b != nil {
			fusedFlushFor(b)
		}
	}
	if b := t.buf; fusedKeptN.Load() != 0 {
		if lb, ok := b.(*lazyBuf); ok {
			b = lb.materialized()
		}
		if b != nil {
			fusedBeforeFree(b)
		}
	}
	if f, ok := t.buf.(runtime.Freer); ok {
		f.Free()
	}
}

func values[T any](t *Tensor, name string, want ir.DType) []T {
	if t != nil && t.typ.DType != want {
		panic(fail(name, "tensor is %v, not %v (Convert it first)", t.typ, want))
	}
	return t.Literal().Data.([]T)
}

// Float32s returns a copy of an f32 tensor's values in row-major order.
func (t *Tensor) Float32s() []float32 { return values[float32](t, "float32s", ir.F32) }

// Float64s returns a copy of an f64 tensor's values in row-major order.
func (t *Tensor) Float64s() []float64 { return values[float64](t, "float64s", ir.F64) }

// Int32s returns a copy of an si32 tensor's values in row-major order.
func (t *Tensor) Int32s() []int32 { return values[int32](t, "int32s", ir.S32) }

// Int64s returns a copy of an si64 tensor's values in row-major order.
func (t *Tensor) Int64s() []int64 { return values[int64](t, "int64s", ir.S64) }

// Bools returns a copy of an i1 tensor's values in row-major order.
func (t *Tensor) Bools() []bool { return values[bool](t, "bools", ir.Bool) }

// To returns t on the named device, committed to it, copying through host
// memory when t is elsewhere (on the same device the result shares t's
// buffer). A committed tensor decides where computations on it run: an op
// or a compiled function whose committed operands are on one device runs
// there and copies its uncommitted operands there, and committed operands
// on two devices are an error (see Placement). A traced tensor cannot move:
// placement inside a traced function is the compiler's business.
func (t *Tensor) To(device string) *Tensor {
	if t == nil {
		panic(fail("to", "nil tensor"))
	}
	if t.buf == nil {
		panic(fail("to", "tensor %v is traced in @%s: cannot move a traced tensor to %q", t.typ, t.Tracer().Name(), device))
	}
	d, err := LookupDevice(device)
	if err != nil {
		panic(fail("to", "%v", err))
	}
	if t.buf.Device() == d {
		if t.meta == committedMeta {
			return t
		}
		return &Tensor{typ: t.typ, buf: t.buf, meta: committedMeta}
	}
	b, err := copyBuffer(t.buf, d)
	if err != nil {
		panic(fail("to", "%v", err))
	}
	return FromBuffer(b)
}

// copyBuffer copies b to device d through host memory.
func copyBuffer(b Buffer, d Device) (Buffer, error) {
	l, err := b.Literal()
	if err != nil {
		return nil, err
	}
	return d.Put(l)
}

// String prints a concrete tensor like numpy, after a header with its type
// and device ("Tensor(f32[2,2], host)\n[[1 2]\n [3 4]]"), and a traced one as
// "Tensor(f32[2,3], traced)".
func (t *Tensor) String() string {
	if t == nil {
		return "Tensor(nil)"
	}
	if t.buf == nil {
		if c := t.concrete(); c != nil {
			return c.String()
		}
		return fmt.Sprintf("Tensor(%v, traced)", t.typ)
	}
	head := fmt.Sprintf("Tensor(%v, %s)", t.typ, t.buf.Device().Name())
	l, err := t.buf.Literal()
	if err != nil {
		if msg := donated(t); msg != "" {
			return head + " <" + msg + ">"
		}
		return head + " <" + err.Error() + ">"
	}
	body := FormatLiteral(l)
	if t.Rank() == 0 {
		return head + " " + body
	}
	return head + "\n" + body
}
