package stablehlo

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/stela-ml/stela/internal/env"
)

// DenseElements is a dense elements attribute, `dense<...> : tensor<...>`:
// the value of stablehlo.constant, check.expect_eq_const, reduce_window
// padding, and so on.
//
// Elements are stored as raw little-endian bytes in MLIR's layout: one
// byte per element for i1 (0 or 1) and for integers narrower than 8 bits,
// 2/4/8 bytes for 16/32/64-bit types, real then imaginary part for complex
// types. A splat (all elements equal) stores one element. Element types
// the model does not interpret (f8 variants, quantized types) keep the
// literal text verbatim instead (see Literal).
type DenseElements struct {
	Type    TensorType
	data    []byte
	splat   bool
	literal string
}

// elemSize returns the storage size in bytes of one element of e, or 0
// if the model does not interpret e's values.
func elemSize(e ElementType) int {
	if bits, _, ok := e.intWidth(); ok {
		return (bits + 7) / 8
	}
	if s := floatSemOf(e); s != nil {
		return s.bytes()
	}
	if part := e.ComplexPart(); part != "" {
		if s := floatSemOf(part); s != nil {
			return 2 * s.bytes()
		}
	}
	return 0
}

// NewDense makes a dense elements attribute of type t from raw
// little-endian element bytes: either one element (a splat) or
// NumElements elements.
func NewDense(t TensorType, raw []byte) (*DenseElements, error) {
	size := elemSize(t.Elem)
	if size == 0 {
		return nil, fmt.Errorf("dense elements of type %s are not supported", t.Elem)
	}
	n := t.NumElements()
	if n < 0 {
		return nil, fmt.Errorf("dense elements need a static shape, have %s", t)
	}
	switch {
	case int64(len(raw)) == n*int64(size):
	case len(raw) == size && n > 0:
	default:
		return nil, fmt.Errorf("dense elements of %s need %d bytes (or %d for a splat), have %d", t, n*int64(size), size, len(raw))
	}
	d := &DenseElements{Type: t, data: append([]byte(nil), raw...)}
	if t.Elem == I1 {
		for i := range d.data {
			if d.data[i] != 0 {
				d.data[i] = 1
			}
		}
	} else if bits, _, ok := t.Elem.intWidth(); ok && bits%8 != 0 {
		for off := 0; off+size <= len(d.data); off += size {
			putUint(d.data[off:], size, maskInt(getUint(d.data[off:], size), bits))
		}
	}
	d.canonicalize()
	return d, nil
}

// canonicalize turns all-equal data into a splat.
func (d *DenseElements) canonicalize() {
	size := elemSize(d.Type.Elem)
	if size == 0 || len(d.data) == 0 {
		d.splat = false
		return
	}
	if len(d.data) == size {
		d.splat = true
		return
	}
	first := d.data[:size]
	for off := size; off < len(d.data); off += size {
		if !bytes.Equal(first, d.data[off:off+size]) {
			d.splat = false
			return
		}
	}
	d.data = append([]byte(nil), first...)
	d.splat = true
}

// newDenseLiteral keeps the literal body text of an element type the
// model does not interpret.
func newDenseLiteral(t TensorType, body string) *DenseElements {
	return &DenseElements{Type: t, literal: body}
}

func (d *DenseElements) checkCount(n int) error {
	want := d.Type.NumElements()
	if want < 0 {
		return fmt.Errorf("dense elements need a static shape, have %s", d.Type)
	}
	if int64(n) != want && !(n == 1 && want > 0) {
		return fmt.Errorf("%d values for %s (want %d, or 1 for a splat)", n, d.Type, want)
	}
	return nil
}

// DenseFromInt64s makes dense elements of integer type t (i1 too: nonzero
// is true) from values, converting each to the element width. One value
// makes a splat.
func DenseFromInt64s(t TensorType, values []int64) (*DenseElements, error) {
	if !t.Elem.IsInteger() {
		return nil, fmt.Errorf("DenseFromInt64s: %s is not an integer type", t.Elem)
	}
	d := &DenseElements{Type: t}
	if err := d.checkCount(len(values)); err != nil {
		return nil, err
	}
	size := elemSize(t.Elem)
	bits, _, _ := t.Elem.intWidth()
	d.data = make([]byte, len(values)*size)
	for i, v := range values {
		if t.Elem == I1 && v != 0 {
			v = 1
		}
		putUint(d.data[i*size:], size, maskInt(uint64(v), bits))
	}
	d.canonicalize()
	return d, nil
}

// DenseFromUint64s is DenseFromInt64s for unsigned values.
func DenseFromUint64s(t TensorType, values []uint64) (*DenseElements, error) {
	ints := make([]int64, len(values))
	for i, v := range values {
		ints[i] = int64(v)
	}
	return DenseFromInt64s(t, ints)
}

// DenseFromBools makes i1 dense elements.
func DenseFromBools(t TensorType, values []bool) (*DenseElements, error) {
	ints := make([]int64, len(values))
	for i, v := range values {
		if v {
			ints[i] = 1
		}
	}
	return DenseFromInt64s(t, ints)
}

// DenseFromFloat64s makes dense elements of float type t (f16, bf16, f32,
// f64) from values, rounding each to the element type (to nearest even).
func DenseFromFloat64s(t TensorType, values []float64) (*DenseElements, error) {
	sem := floatSemOf(t.Elem)
	if sem == nil {
		return nil, fmt.Errorf("DenseFromFloat64s: %s is not f16, bf16, f32 or f64", t.Elem)
	}
	d := &DenseElements{Type: t}
	if err := d.checkCount(len(values)); err != nil {
		return nil, err
	}
	size := sem.bytes()
	d.data = make([]byte, len(values)*size)
	for i, v := range values {
		putUint(d.data[i*size:], size, sem.fromFloat64(v))
	}
	d.canonicalize()
	return d, nil
}

// DenseFromFloat32s is DenseFromFloat64s for float32 values.
func DenseFromFloat32s(t TensorType, values []float32) (*DenseElements, error) {
	f := make([]float64, len(values))
	for i, v := range values {
		f[i] = semF32.toFloat64(uint64(math.Float32bits(v)))
	}
	return DenseFromFloat64s(t, f)
}

// DenseFromComplex128s makes dense elements of complex<f32> or
// complex<f64> type.
func DenseFromComplex128s(t TensorType, values []complex128) (*DenseElements, error) {
	sem := floatSemOf(t.Elem.ComplexPart())
	if sem == nil {
		return nil, fmt.Errorf("DenseFromComplex128s: %s is not complex<f32> or complex<f64>", t.Elem)
	}
	d := &DenseElements{Type: t}
	if err := d.checkCount(len(values)); err != nil {
		return nil, err
	}
	size := sem.bytes()
	d.data = make([]byte, len(values)*2*size)
	for i, v := range values {
		putUint(d.data[2*i*size:], size, sem.fromFloat64(real(v)))
		putUint(d.data[(2*i+1)*size:], size, sem.fromFloat64(imag(v)))
	}
	d.canonicalize()
	return d, nil
}

// maskInt keeps the low bits of v: integers narrower than their storage
// are stored zero-extended, as MLIR stores them.
func maskInt(v uint64, bits int) uint64 {
	if bits >= 64 {
		return v
	}
	return v & (1<<uint(bits) - 1)
}

func putUint(b []byte, size int, v uint64) {
	for i := 0; i < size; i++ {
		b[i] = byte(v >> (8 * uint(i)))
	}
}

func getUint(b []byte, size int) uint64 {
	var v uint64
	for i := 0; i < size; i++ {
		v |= uint64(b[i]) << (8 * uint(i))
	}
	return v
}

// NumElements returns the number of elements of the tensor type.
func (d *DenseElements) NumElements() int64 { return d.Type.NumElements() }

// IsSplat reports whether all elements are equal and stored once.
func (d *DenseElements) IsSplat() bool { return d.splat }

// SplatBytes returns the raw little-endian bytes of a splat's one
// element (nil when d is not a splat or its values are not modeled):
// code that can use the element as it is should, since Bytes expands a
// splat of 10¹² elements to 10¹² copies.
func (d *DenseElements) SplatBytes() []byte {
	if !d.splat || d.literal != "" {
		return nil
	}
	return append([]byte(nil), d.data...)
}

// HasBytes reports whether Bytes returns the elements (not nil): false
// for element types whose values are not modeled.
func (d *DenseElements) HasBytes() bool { return d.literal == "" }

// Literal returns the verbatim literal body for element types the model
// does not interpret (f8 variants, quantized), or "".
func (d *DenseElements) Literal() string { return d.literal }

// ErrNoValues is returned by the accessors of dense elements whose
// element type the model does not interpret.
var ErrNoValues = errors.New("dense elements: values of this element type are not modeled")

// Bytes returns the raw little-endian bytes of all elements (a splat is
// expanded).
func (d *DenseElements) Bytes() []byte {
	if d.literal != "" {
		return nil
	}
	if !d.splat {
		return append([]byte(nil), d.data...)
	}
	n := d.NumElements()
	if n < 0 {
		n = 1
	}
	return bytes.Repeat(d.data, int(n))
}

// elems returns the count of elements to expand to and the element size.
func (d *DenseElements) elems() (int, int, error) {
	if d.literal != "" {
		return 0, 0, ErrNoValues
	}
	size := elemSize(d.Type.Elem)
	n := d.NumElements()
	if size == 0 || n < 0 {
		return 0, 0, ErrNoValues
	}
	// A splat is one element in the text however many it stands for:
	// expanding one past the allocation limit is an error, not a fatal
	// out-of-memory.
	if d.splat {
		b, ok := mulNonNeg(n, int64(size))
		if err := env.CheckAlloc(d.Type.String(), b, ok); err != nil {
			return 0, 0, fmt.Errorf("expanding the splat: %w", err)
		}
	}
	return int(n), size, nil
}

func (d *DenseElements) raw(i, size int) []byte {
	if d.splat {
		return d.data[:size]
	}
	return d.data[i*size : (i+1)*size]
}

// Int64s returns the elements of an integer tensor, sign-extended for
// signless types and zero-extended for unsigned ones (a ui64 above
// MaxInt64 wraps; use Uint64s).
func (d *DenseElements) Int64s() ([]int64, error) {
	n, size, err := d.elems()
	if err != nil {
		return nil, err
	}
	bits, unsigned, ok := d.Type.Elem.intWidth()
	if !ok {
		return nil, fmt.Errorf("dense elements: Int64s of %s", d.Type.Elem)
	}
	out := make([]int64, n)
	for i := range out {
		v := getUint(d.raw(i, size), size)
		if !unsigned && bits < 64 && bits > 1 {
			sh := uint(64 - bits)
			v = uint64(int64(v<<sh) >> sh)
		}
		out[i] = int64(v)
	}
	return out, nil
}

// Uint64s returns the elements of an integer tensor zero-extended from
// the element width.
func (d *DenseElements) Uint64s() ([]uint64, error) {
	n, size, err := d.elems()
	if err != nil {
		return nil, err
	}
	bits, _, ok := d.Type.Elem.intWidth()
	if !ok {
		return nil, fmt.Errorf("dense elements: Uint64s of %s", d.Type.Elem)
	}
	out := make([]uint64, n)
	for i := range out {
		v := getUint(d.raw(i, size), size)
		if bits < 64 {
			v &= 1<<uint(bits) - 1
		}
		out[i] = v
	}
	return out, nil
}

// Bools returns the elements of an i1 tensor.
func (d *DenseElements) Bools() ([]bool, error) {
	if d.Type.Elem != I1 {
		return nil, fmt.Errorf("dense elements: Bools of %s", d.Type.Elem)
	}
	ints, err := d.Int64s()
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(ints))
	for i, v := range ints {
		out[i] = v != 0
	}
	return out, nil
}

// Float64s returns the elements of an f16, bf16, f32 or f64 tensor,
// exactly.
func (d *DenseElements) Float64s() ([]float64, error) {
	n, size, err := d.elems()
	if err != nil {
		return nil, err
	}
	sem := floatSemOf(d.Type.Elem)
	if sem == nil {
		return nil, fmt.Errorf("dense elements: Float64s of %s", d.Type.Elem)
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = sem.toFloat64(getUint(d.raw(i, size), size))
	}
	return out, nil
}

// Complex128s returns the elements of a complex<f32> or complex<f64>
// tensor.
func (d *DenseElements) Complex128s() ([]complex128, error) {
	n, size, err := d.elems()
	if err != nil {
		return nil, err
	}
	sem := floatSemOf(d.Type.Elem.ComplexPart())
	if sem == nil {
		return nil, fmt.Errorf("dense elements: Complex128s of %s", d.Type.Elem)
	}
	half := size / 2
	out := make([]complex128, n)
	for i := range out {
		r := d.raw(i, size)
		out[i] = complex(sem.toFloat64(getUint(r, half)), sem.toFloat64(getUint(r[half:], half)))
	}
	return out, nil
}

// hexThreshold is the element count above which non-splat dense elements
// print as a hex blob, as MLIR does.
const hexThreshold = 100

// writeDense writes `dense<...> : tensor<...>`.
func writeDense(sb *strings.Builder, d *DenseElements) {
	sb.WriteString("dense<")
	writeDenseBody(sb, d)
	sb.WriteString("> : ")
	sb.WriteString(d.Type.String())
}

func writeDenseBody(sb *strings.Builder, d *DenseElements) {
	if d.literal != "" {
		sb.WriteString(d.literal)
		return
	}
	size := elemSize(d.Type.Elem)
	n := d.NumElements()
	if size == 0 || n <= 0 || len(d.data) < size {
		return
	}
	if d.splat {
		writeElem(sb, d, d.data[:size])
		return
	}
	if n > hexThreshold && d.Type.Elem != I1 {
		sb.WriteString(`"0x`)
		sb.WriteString(strings.ToUpper(hex.EncodeToString(d.data)))
		sb.WriteByte('"')
		return
	}
	idx := 0
	var rec func(dim int)
	rec = func(dim int) {
		if dim == len(d.Type.Shape) {
			writeElem(sb, d, d.data[idx*size:(idx+1)*size])
			idx++
			return
		}
		sb.WriteByte('[')
		for i := int64(0); i < d.Type.Shape[dim]; i++ {
			if i > 0 {
				sb.WriteString(", ")
			}
			rec(dim + 1)
		}
		sb.WriteByte(']')
	}
	rec(0)
}

func writeElem(sb *strings.Builder, d *DenseElements, b []byte) {
	e := d.Type.Elem
	if e == I1 {
		if b[0] != 0 {
			sb.WriteString("true")
		} else {
			sb.WriteString("false")
		}
		return
	}
	if e.IsInteger() {
		sb.WriteString(formatIntOfType(int64(getUint(b, len(b))), e))
		return
	}
	if sem := floatSemOf(e); sem != nil {
		sb.WriteString(formatFloat(getUint(b, len(b)), sem))
		return
	}
	if sem := floatSemOf(e.ComplexPart()); sem != nil {
		h := len(b) / 2
		sb.WriteByte('(')
		sb.WriteString(formatFloat(getUint(b, h), sem))
		sb.WriteByte(',')
		sb.WriteString(formatFloat(getUint(b[h:], h), sem))
		sb.WriteByte(')')
	}
}

// MustDense returns d, panicking if err is not nil; for constants whose
// shape the caller controls: MustDense(DenseFromFloat64s(t, vals)).
func MustDense(d *DenseElements, err error) *DenseElements {
	if err != nil {
		panic("stablehlo: " + err.Error())
	}
	return d
}

// mulNonNeg is a*b for non-negative a and b, and whether it fits an int64.
func mulNonNeg(a, b int64) (int64, bool) {
	if a != 0 && b > math.MaxInt64/a {
		return 0, false
	}
	return a * b, true
}
