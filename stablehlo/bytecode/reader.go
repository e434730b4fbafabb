// Package bytecode reads MLIR bytecode (the format of MLIR's
// docs/BytecodeFormat.md, versions 0 to 6) holding a StableHLO program:
// a StableHLO portable artifact, ops of the versioned VHLO dialect in a
// builtin module, which is what XLA's PJRT C-API client, and so JAX,
// sends to a plugin. Read converts it into Stela's StableHLO model
// (package stablehlo), the same module stablehlo.Parse gives for the
// program's text. Plain bytecode of the builtin and func dialects reads
// too; that of the stablehlo and chlo dialects has no compatibility
// promise (its encodings change between StableHLO versions) and is
// reported, naming the first op or attribute met.
//
// The reader is hardened like the text parser: every count and index is
// checked against the bytes that remain, nesting is bounded, and bad input
// gives an *Error naming the offset and the problem, never a panic.
package bytecode

import (
	"bytes"
	"fmt"
)

// Magic is the four bytes every MLIR bytecode file starts with.
const Magic = "ML\xefR"

// IsBytecode reports whether data starts with MLIR bytecode's magic.
func IsBytecode(data []byte) bool { return bytes.HasPrefix(data, []byte(Magic)) }

// Error is a bytecode reading error at a byte offset of the input.
type Error struct {
	Off int
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("mlir bytecode: offset %d: %s", e.Off, e.Msg) }

// Limits, so that hostile input cannot exhaust the stack or memory.
const (
	// maxDepth bounds the nesting of regions, attributes and types.
	maxDepth = 500
	// maxBytecodeVersion is the newest bytecode version read (MLIR's
	// kVersion: 6, native properties with ODS segment sizes).
	maxBytecodeVersion = 6
)

// Bytecode versions where the encoding changed (MLIR's Encoding.h).
const (
	vDialectVersioning         = 1
	vLazyLoading               = 2
	vUseListOrdering           = 3
	vElideUnknownBlockArgLoc   = 4
	vNativePropertiesEncoding  = 5
	vNativePropertiesODSSegmnt = 6
)

// Section IDs.
const (
	secString = iota
	secDialect
	secAttrType
	secAttrTypeOffset
	secIR
	secResource
	secResourceOffset
	secDialectVersions
	secProperties
	numSections
)

var sectionNames = [numSections]string{"string", "dialect", "attribute/type", "attribute/type offset", "IR", "resource", "resource offset", "dialect versions", "properties"}

// Op encoding mask bits.
const (
	maskAttrs         = 0x01
	maskResults       = 0x02
	maskOperands      = 0x04
	maskSuccessors    = 0x08
	maskInlineRegions = 0x10
	maskUseListOrders = 0x20
	maskProperties    = 0x40
)

// reader reads primitives from a slice of the input; base is the offset
// of buf[0] in the whole input (for messages and alignment).
type reader struct {
	buf  []byte
	pos  int
	base int
}

func fail(off int, format string, args ...any) {
	panic(&Error{Off: off, Msg: fmt.Sprintf(format, args...)})
}

func (r *reader) off() int { return r.base + r.pos }

func (r *reader) fail(format string, args ...any) { fail(r.off(), format, args...) }

func (r *reader) empty() bool { return r.pos >= len(r.buf) }

func (r *reader) remaining() int { return len(r.buf) - r.pos }

func (r *reader) byte() byte {
	if r.pos >= len(r.buf) {
		r.fail("unexpected end of data")
	}
	b := r.buf[r.pos]
	r.pos++
	return b
}

func (r *reader) bytes(n uint64) []byte {
	if n > uint64(r.remaining()) {
		r.fail("need %d bytes, only %d remain", n, r.remaining())
	}
	b := r.buf[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return b
}

// sub returns a reader over the next n bytes and skips them.
func (r *reader) sub(n uint64) *reader {
	base := r.off()
	return &reader{buf: r.bytes(n), base: base}
}

// varint reads a PrefixVarInt.
func (r *reader) varint() uint64 {
	first := r.byte()
	if first&1 != 0 {
		return uint64(first >> 1)
	}
	if first == 0 {
		b := r.bytes(8)
		var v uint64
		for i := 7; i >= 0; i-- {
			v = v<<8 | uint64(b[i])
		}
		return v
	}
	n := 0
	for first&(1<<n) == 0 {
		n++
	}
	b := r.bytes(uint64(n))
	v := uint64(first)
	for i := 0; i < n; i++ {
		v |= uint64(b[i]) << (8 * (i + 1))
	}
	return v >> (n + 1)
}

// svarint reads a zigzag-encoded signed varint.
func (r *reader) svarint() int64 {
	v := r.varint()
	return int64(v>>1) ^ -int64(v&1)
}

// flagged reads a varint whose low bit is a flag.
func (r *reader) flagged() (uint64, bool) {
	v := r.varint()
	return v >> 1, v&1 != 0
}

// count reads a varint that counts items of at least minBytes bytes each
// still to come in this reader, and checks it against what remains.
func (r *reader) count(what string, minBytes int) int {
	at := r.off()
	n := r.varint()
	if minBytes > 0 && n > uint64(r.remaining()/minBytes) {
		fail(at, "%s count %d exceeds the %d bytes that remain", what, n, r.remaining())
	}
	if n > 1<<31 {
		fail(at, "%s count %d is too large", what, n)
	}
	return int(n)
}

func (r *reader) nulString() string {
	i := bytes.IndexByte(r.buf[r.pos:], 0)
	if i < 0 {
		r.fail("string without terminating NUL")
	}
	s := string(r.buf[r.pos : r.pos+i])
	r.pos += i + 1
	return s
}

// alignTo skips 0xCB padding bytes up to an offset (in the whole input)
// that is a multiple of align.
func (r *reader) alignTo(align uint64) {
	if align == 0 || align&(align-1) != 0 || align > 1<<16 {
		r.fail("alignment %d is not a power of two up to 65536", align)
	}
	for uint64(r.off())%align != 0 {
		if b := r.byte(); b != 0xCB {
			r.fail("expected alignment padding byte 0xCB, found 0x%02X", b)
		}
	}
}

// section reads a section header and returns its ID and contents.
func (r *reader) section() (int, *reader) {
	at := r.off()
	idAndAlign := r.byte()
	n := r.varint()
	id := int(idAndAlign & 0x7f)
	if id >= numSections {
		fail(at, "invalid section ID %d", id)
	}
	if idAndAlign&0x80 != 0 {
		r.alignTo(r.varint())
	}
	return id, r.sub(n)
}
