package npy

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/stela-ml/stela/ir"
)

// magic starts every .npy file.
const magic = "\x93NUMPY"

// maxHeader bounds the header length a reader accepts. numpy's own limit is
// 10000 bytes (max_header_size); a bit more room costs nothing and keeps a
// corrupt length field from allocating gigabytes.
const maxHeader = 1 << 20

// descrs maps a descr without its byte-order character to the element type.
var descrs = map[string]ir.DType{
	"b1": ir.Bool,
	"i1": ir.S8, "i2": ir.S16, "i4": ir.S32, "i8": ir.S64,
	"u1": ir.U8, "u2": ir.U16, "u4": ir.U32, "u8": ir.U64,
	"f2": ir.F16, "f4": ir.F32, "f8": ir.F64,
	"c8": ir.C64, "c16": ir.C128,
	"V2": ir.BF16, // ml_dtypes' bfloat16; see the package doc
}

// Descr returns the descr Write uses for an element type ("<f4", "|b1",
// "<V2" for bf16), or "" for an invalid one.
func Descr(d ir.DType) string {
	if d.IsNarrow() {
		return "|V1" // as ml_dtypes saves int4, float8_e4m3fn, ...
	}
	for k, v := range descrs {
		if v == d {
			if d.Size() == 1 {
				return "|" + k
			}
			return "<" + k
		}
	}
	return ""
}

// DTypeOf parses a numpy descr ("<f4", ">i8", "|b1", "<V2") into the element
// type it holds and whether its data is big-endian.
func DTypeOf(descr string) (d ir.DType, bigEndian bool, err error) {
	s := descr
	order := byte('|')
	if s != "" && strings.IndexByte("<>|=", s[0]) >= 0 {
		order, s = s[0], s[1:]
	}
	d, ok := descrs[s]
	if !ok {
		return ir.InvalidDType, false, fmt.Errorf("npy: descr %q: %s", descr, unsupported(s))
	}
	return d, order == '>', nil
}

// unsupported explains why a descr (without byte order) has no Stela type.
func unsupported(s string) string {
	if s == "" {
		return "empty descr"
	}
	switch s[0] {
	case 'V':
		if s == "V1" {
			return "a 1-byte void is one of ml_dtypes' narrow types (int4, float8_e4m3fn, ...), which the file does not name: read it with ReadAs"
		}
		return "void types other than 2 bytes (bf16) are not supported"
	case 'f', 'c':
		if s == "f1" {
			return "ml_dtypes saves float8_e5m2 as f1: read it with ReadAs"
		}
		return "float and complex sizes other than f2, f4, f8, c8, c16 are not supported"
	case 'i', 'u', 'b':
		return "integer or bool size not supported"
	case 'U', 'S', 'a':
		return "string arrays are not supported"
	case 'O':
		return "object arrays are not supported"
	case 'M', 'm':
		return "datetime arrays are not supported"
	}
	return "unknown element type"
}

// ReadFileAs reads one array of the narrow type d from a .npy file (see
// ReadAs).
func ReadFileAs(path string, d ir.DType) (*ir.Literal, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAs(bufio.NewReader(f), d)
}

// ReadFile reads one array from a .npy file.
func ReadFile(path string) (*ir.Literal, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	l, err := Read(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return l, nil
}

// WriteFile writes l to a .npy file, replacing it.
func WriteFile(path string, l *ir.Literal) error {
	var buf bytes.Buffer
	if err := Write(&buf, l); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// header is what a .npy header says.
type header struct {
	descr   string
	fortran bool
	shape   []int
}

// Read reads one array from r and returns it as a literal. It reads exactly
// the array's bytes, so arrays saved one after another read back in order.
func Read(r io.Reader) (*ir.Literal, error) { return read(r, ir.InvalidDType) }

// ReadAs reads one array whose elements are of the narrow type d (si2,
// si4, ui2, ui4, the f8, f6 and f4 types): numpy saves ml_dtypes' arrays
// of those types as 1-byte voids ('<V1'), one element per byte, without
// saying which type (float8_e5m2 as '<f1'). ReadAs takes a '<V1', '<f1',
// '|u1' or '|i1' file as d.
func ReadAs(r io.Reader, d ir.DType) (*ir.Literal, error) {
	if !d.IsNarrow() {
		return nil, fmt.Errorf("npy: ReadAs: %v is not a narrow type (use Read)", d)
	}
	return read(r, d)
}

func read(r io.Reader, narrow ir.DType) (*ir.Literal, error) {
	var pre [8]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		if err == io.EOF {
			return nil, fmt.Errorf("npy: empty input")
		}
		return nil, fmt.Errorf("npy: reading the magic string: %w", err)
	}
	if string(pre[:6]) != magic {
		return nil, fmt.Errorf("npy: not a .npy file (magic %q)", pre[:6])
	}
	major, minor := pre[6], pre[7]
	var hlen int
	switch {
	case major == 1 && minor == 0:
		var b [2]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, fmt.Errorf("npy: reading the header length: %w", noEOF(err))
		}
		hlen = int(binary.LittleEndian.Uint16(b[:]))
	case (major == 2 || major == 3) && minor == 0:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, fmt.Errorf("npy: reading the header length: %w", noEOF(err))
		}
		n := binary.LittleEndian.Uint32(b[:])
		if n > maxHeader {
			return nil, fmt.Errorf("npy: header of %d bytes is too large (limit %d)", n, maxHeader)
		}
		hlen = int(n)
	default:
		return nil, fmt.Errorf("npy: unsupported format version %d.%d (want 1.0, 2.0 or 3.0)", major, minor)
	}
	hb := make([]byte, hlen)
	if _, err := io.ReadFull(r, hb); err != nil {
		return nil, fmt.Errorf("npy: reading the header: %w", noEOF(err))
	}
	// Versions 1.0 and 2.0 encode the header in latin-1, 3.0 in UTF-8. A
	// descr we accept is ASCII either way; only the check differs.
	h, err := parseHeader(string(hb))
	if err != nil {
		return nil, err
	}
	var d ir.DType
	var big bool
	if narrow != ir.InvalidDType {
		switch strings.TrimLeft(h.descr, "<>|=") {
		case "V1", "u1", "i1", "f1": // ml_dtypes saves float8_e5m2 as <f1
			d = narrow
		default:
			return nil, fmt.Errorf("npy: descr %q does not hold %v (want a 1-byte void, as ml_dtypes saves it)", h.descr, narrow)
		}
	} else if d, big, err = DTypeOf(h.descr); err != nil {
		return nil, err
	}
	t := ir.TensorOf(d, h.shape...)
	n, ok := numElements(h.shape)
	if !ok {
		return nil, fmt.Errorf("npy: shape %v is too large", h.shape)
	}
	size := d.Size()
	if n > math.MaxInt/size {
		return nil, fmt.Errorf("npy: shape %v is too large", h.shape)
	}
	// ReadAll over a LimitReader grows with the data that actually comes,
	// so a header that lies about the shape cannot allocate more than the
	// file holds.
	data, err := io.ReadAll(io.LimitReader(r, int64(n*size)))
	if err != nil {
		return nil, fmt.Errorf("npy: reading the data: %w", err)
	}
	if len(data) != n*size {
		return nil, fmt.Errorf("npy: data has %d bytes, want %d for %v", len(data), n*size, t)
	}
	if big {
		swapBytes(data, d)
	}
	if h.fortran && len(h.shape) > 1 {
		data = fortranToC(data, h.shape, size)
	}
	return decode(t, data), nil
}

func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

func numElements(shape []int) (int, bool) {
	n := 1
	for _, s := range shape {
		if s < 0 {
			return 0, false
		}
		if s != 0 && n > math.MaxInt/s {
			return 0, false
		}
		n *= s
	}
	return n, true
}

// swapBytes turns big-endian element data into little-endian in place:
// each element, or each part of a complex element, is reversed.
func swapBytes(b []byte, d ir.DType) {
	w := d.Size()
	if d.IsComplex() {
		w /= 2
	}
	if w == 1 {
		return
	}
	for i := 0; i+w <= len(b); i += w {
		p := b[i : i+w]
		for j, k := 0, w-1; j < k; j, k = j+1, k-1 {
			p[j], p[k] = p[k], p[j]
		}
	}
}

// fortranToC reorders column-major element data into row-major order.
func fortranToC(b []byte, shape []int, size int) []byte {
	out := make([]byte, len(b))
	rank := len(shape)
	// fstride[k] is dimension k's element stride in column-major order.
	fstride := make([]int, rank)
	s := 1
	for k := range rank {
		fstride[k] = s
		s *= shape[k]
	}
	idx := make([]int, rank)
	n := len(b) / size
	for c := range n {
		off := 0
		for k := range rank {
			off += idx[k] * fstride[k]
		}
		copy(out[c*size:(c+1)*size], b[off*size:(off+1)*size])
		for k := rank - 1; k >= 0; k-- { // next row-major index
			idx[k]++
			if idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
	}
	return out
}

// Write writes l as a .npy array: little-endian, C order, version 1.0 (2.0
// if the header does not fit 1.0's 16-bit length).
func Write(w io.Writer, l *ir.Literal) error {
	if l == nil {
		return errors.New("npy: nil literal")
	}
	if _, err := ir.NewLiteral(l.Type, l.Data); err != nil {
		return fmt.Errorf("npy: %w", err)
	}
	descr := Descr(l.Type.DType)
	if descr == "" {
		return fmt.Errorf("npy: element type %v has no numpy descr", l.Type.DType)
	}
	var dict strings.Builder
	fmt.Fprintf(&dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr)
	for i, s := range l.Type.Shape {
		if i > 0 {
			dict.WriteString(", ")
		}
		dict.WriteString(strconv.Itoa(s))
	}
	if len(l.Type.Shape) == 1 {
		dict.WriteString(",")
	}
	dict.WriteString("), }")
	// numpy pads magic + version + length + header to a multiple of 64 bytes
	// (so the data is aligned for memory mapping) and ends it with '\n'.
	var out bytes.Buffer
	hdr := dict.String()
	pre := len(magic) + 2 + 2 // version 1.0: a 16-bit length
	v2 := pad(pre, len(hdr)) > math.MaxUint16
	if v2 {
		pre = len(magic) + 2 + 4 // version 2.0: a 32-bit length
	}
	total := pad(pre, len(hdr))
	hdr += strings.Repeat(" ", total-len(hdr)-1) + "\n"
	out.WriteString(magic)
	if !v2 {
		out.Write([]byte{1, 0})
		out.Write(binary.LittleEndian.AppendUint16(nil, uint16(len(hdr))))
	} else {
		out.Write([]byte{2, 0})
		out.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(hdr))))
	}
	out.WriteString(hdr)
	if _, err := w.Write(out.Bytes()); err != nil {
		return err
	}
	_, err := w.Write(encode(l))
	return err
}

// pad is the header length, newline included, that makes the prefix of pre
// bytes plus the header a multiple of 64 bytes.
func pad(pre, n int) int {
	total := pre + n + 1
	total += (64 - total%64) % 64
	return total - pre
}

// encode returns the literal's little-endian memory image.
func encode(l *ir.Literal) []byte {
	le := binary.LittleEndian
	switch v := l.Data.(type) {
	case []bool:
		b := make([]byte, len(v))
		for i, x := range v {
			if x {
				b[i] = 1
			}
		}
		return b
	case []int8:
		b := make([]byte, len(v))
		for i, x := range v {
			b[i] = byte(x)
		}
		return b
	case []uint8:
		return append([]byte{}, v...)
	case []int16:
		return appendEach(v, 2, func(b []byte, x int16) { le.PutUint16(b, uint16(x)) })
	case []uint16:
		return appendEach(v, 2, le.PutUint16)
	case []ir.Float16:
		return appendEach(v, 2, func(b []byte, x ir.Float16) { le.PutUint16(b, x.Bits()) })
	case []ir.BFloat16:
		return appendEach(v, 2, func(b []byte, x ir.BFloat16) { le.PutUint16(b, uint16(x)) })
	case []int32:
		return appendEach(v, 4, func(b []byte, x int32) { le.PutUint32(b, uint32(x)) })
	case []uint32:
		return appendEach(v, 4, le.PutUint32)
	case []float32:
		return appendEach(v, 4, func(b []byte, x float32) { le.PutUint32(b, math.Float32bits(x)) })
	case []int64:
		return appendEach(v, 8, func(b []byte, x int64) { le.PutUint64(b, uint64(x)) })
	case []uint64:
		return appendEach(v, 8, le.PutUint64)
	case []float64:
		return appendEach(v, 8, func(b []byte, x float64) { le.PutUint64(b, math.Float64bits(x)) })
	case []complex64:
		return appendEach(v, 8, func(b []byte, x complex64) {
			le.PutUint32(b, math.Float32bits(real(x)))
			le.PutUint32(b[4:], math.Float32bits(imag(x)))
		})
	case []complex128:
		return appendEach(v, 16, func(b []byte, x complex128) {
			le.PutUint64(b, math.Float64bits(real(x)))
			le.PutUint64(b[8:], math.Float64bits(imag(x)))
		})
	}
	return l.Bytes() // unreachable for a literal NewLiteral accepts
}

func appendEach[T any](v []T, size int, put func([]byte, T)) []byte {
	b := make([]byte, len(v)*size)
	for i, x := range v {
		put(b[i*size:], x)
	}
	return b
}

// decode builds a literal of type t from its little-endian memory image,
// whose length the caller has checked.
func decode(t ir.Type, b []byte) *ir.Literal {
	le := binary.LittleEndian
	n := len(b) / t.DType.Size()
	var data any
	switch t.DType {
	case ir.Bool:
		data = eachOf(n, 1, b, func(p []byte) bool { return p[0] != 0 })
	case ir.S8:
		data = eachOf(n, 1, b, func(p []byte) int8 { return int8(p[0]) })
	case ir.U8:
		data = append([]uint8{}, b...)
	case ir.S16:
		data = eachOf(n, 2, b, func(p []byte) int16 { return int16(le.Uint16(p)) })
	case ir.U16:
		data = eachOf(n, 2, b, le.Uint16)
	case ir.F16:
		data = eachOf(n, 2, b, func(p []byte) ir.Float16 { return ir.Float16(le.Uint16(p)) })
	case ir.BF16:
		data = eachOf(n, 2, b, func(p []byte) ir.BFloat16 { return ir.BFloat16(le.Uint16(p)) })
	case ir.S32:
		data = eachOf(n, 4, b, func(p []byte) int32 { return int32(le.Uint32(p)) })
	case ir.U32:
		data = eachOf(n, 4, b, le.Uint32)
	case ir.F32:
		data = eachOf(n, 4, b, func(p []byte) float32 { return math.Float32frombits(le.Uint32(p)) })
	case ir.S64:
		data = eachOf(n, 8, b, func(p []byte) int64 { return int64(le.Uint64(p)) })
	case ir.U64:
		data = eachOf(n, 8, b, le.Uint64)
	case ir.F64:
		data = eachOf(n, 8, b, func(p []byte) float64 { return math.Float64frombits(le.Uint64(p)) })
	case ir.C64:
		data = eachOf(n, 8, b, func(p []byte) complex64 {
			return complex(math.Float32frombits(le.Uint32(p)), math.Float32frombits(le.Uint32(p[4:])))
		})
	case ir.C128:
		data = eachOf(n, 16, b, func(p []byte) complex128 {
			return complex(math.Float64frombits(le.Uint64(p)), math.Float64frombits(le.Uint64(p[8:])))
		})
	}
	if t.DType.IsNarrow() {
		l, _ := ir.LiteralFromBytes(t, b) // the length is checked
		return l
	}
	return &ir.Literal{Type: t, Data: data}
}

func eachOf[T any](n, size int, b []byte, get func([]byte) T) []T {
	v := make([]T, n)
	for i := range v {
		v[i] = get(b[i*size : (i+1)*size])
	}
	return v
}
