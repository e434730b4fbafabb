package safetensors

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/stela-ml/stela/ir"
)

// item is one tensor to write: its name, type and a way to get its data.
type item struct {
	name  string
	dt    dtype
	shape []int
	size  int
	// data returns the tensor's little-endian image, of size bytes; it is
	// called once, while writing, so that Save holds one tensor on the host
	// at a time.
	data func() ([]byte, error)
}

// Write writes tensors and metadata (which may be nil) as a safetensors
// file. The bytes depend only on the arguments, and are those the
// reference implementation writes for the same tensors and metadata (with
// its metadata in sorted key order): the data ordered by decreasing element
// alignment, then by name, so that each tensor's data starts aligned to its
// element size; the header lists the tensors in that order after the
// metadata, and is padded with spaces to a multiple of 8 bytes. Complex
// literals are an error: the format has no complex types.
func Write(w io.Writer, tensors map[string]*ir.Literal, metadata map[string]string) error {
	items, err := literalItems("safetensors.Write", tensors)
	if err != nil {
		return err
	}
	return writeItems("safetensors.Write", w, items, metadata)
}

// WriteFile writes a safetensors file as Write does. It writes a temporary
// file next to path and renames it over path once complete, so that path
// never holds half a file (a crash while saving keeps the previous
// checkpoint).
func WriteFile(path string, tensors map[string]*ir.Literal, metadata map[string]string) error {
	items, err := literalItems("safetensors.WriteFile", tensors)
	if err != nil {
		return err
	}
	return writeAtomic("safetensors.WriteFile", path, func(w io.Writer) error {
		return writeItems("safetensors.WriteFile", w, items, metadata)
	})
}

func literalItems(op string, tensors map[string]*ir.Literal) ([]item, error) {
	items := make([]item, 0, len(tensors))
	for name, l := range tensors {
		if l == nil {
			return nil, fmt.Errorf("%s: tensor %q is a nil literal", op, name)
		}
		if _, err := ir.NewLiteral(l.Type, l.Data); err != nil {
			return nil, fmt.Errorf("%s: tensor %q: %v", op, name, err)
		}
		it, err := newItem(name, l.Type)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", op, err)
		}
		it.data = func() ([]byte, error) { return encode(l), nil }
		items = append(items, it)
	}
	return items, nil
}

// newItem checks a tensor's name and type.
func newItem(name string, t ir.Type) (item, error) {
	switch {
	case !utf8.ValidString(name):
		return item{}, fmt.Errorf("tensor name %q is not valid UTF-8", name)
	case name == metadataKey:
		return item{}, fmt.Errorf("a tensor cannot be named %s: the header keeps that key for the metadata", metadataKey)
	}
	dt, ok := dtypeOf(t.DType)
	if !ok {
		return item{}, fmt.Errorf("tensor %q is %v: safetensors has no %v element type", name, t, t.DType)
	}
	size := dt.size
	for _, d := range t.Shape {
		if d < 0 || (d != 0 && size > math.MaxInt/d) {
			return item{}, fmt.Errorf("tensor %q: shape %v is too large", name, t.Shape)
		}
		size *= d
	}
	return item{name: name, dt: dt, shape: slices.Clone(t.Shape), size: size}, nil
}

func writeItems(op string, w io.Writer, items []item, metadata map[string]string) error {
	for k, v := range metadata {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return fmt.Errorf("%s: metadata %q: %q is not valid UTF-8", op, k, v)
		}
	}
	items = slices.Clone(items)
	slices.SortFunc(items, func(a, b item) int {
		if a.dt.order != b.dt.order {
			return b.dt.order - a.dt.order
		}
		return strings.Compare(a.name, b.name)
	})
	for i := 1; i < len(items); i++ {
		if items[i].name == items[i-1].name {
			return fmt.Errorf("%s: two tensors are named %q", op, items[i].name)
		}
	}
	h := header(items, metadata)
	if len(h) > MaxHeader {
		return fmt.Errorf("%s: the header would take %d bytes, more than readers accept (%d)", op, len(h), MaxHeader)
	}
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(h)))
	if _, err := w.Write(n[:]); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if _, err := w.Write(h); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	for _, it := range items {
		b, err := it.data()
		if err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		if len(b) != it.size {
			return fmt.Errorf("%s: tensor %q: %d bytes of data for %s%v, want %d", op, it.name, len(b), it.dt.name, it.shape, it.size)
		}
		if _, err := w.Write(b); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
	}
	return nil
}

// header is the JSON header of items (in data order), as serde_json writes
// the reference implementation's: compact, metadata first, padded with
// spaces to a multiple of 8 bytes so that the data region starts aligned.
func header(items []item, metadata map[string]string) []byte {
	b := []byte{'{'}
	if len(metadata) > 0 {
		b = appendString(b, metadataKey)
		b = append(b, ':', '{')
		keys := make([]string, 0, len(metadata))
		for k := range metadata {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			b = appendString(b, metadata[k])
		}
		b = append(b, '}')
		if len(items) > 0 {
			b = append(b, ',')
		}
	}
	off := 0
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, it.name)
		b = append(b, `:{"dtype":`...)
		b = appendString(b, it.dt.name)
		b = append(b, `,"shape":[`...)
		for j, d := range it.shape {
			if j > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(d), 10)
		}
		b = append(b, `],"data_offsets":[`...)
		b = strconv.AppendInt(b, int64(off), 10)
		b = append(b, ',')
		off += it.size
		b = strconv.AppendInt(b, int64(off), 10)
		b = append(b, ']', '}')
	}
	b = append(b, '}')
	for len(b)%8 != 0 {
		b = append(b, ' ')
	}
	return b
}

// appendString appends s as a JSON string, escaped as serde_json escapes:
// quote, backslash and control characters only, with \u00xx in lower case
// for the controls that have no short form.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\b':
			b = append(b, '\\', 'b')
		case c == '\f':
			b = append(b, '\\', 'f')
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// writeAtomic writes path through a temporary file in the same directory,
// renamed over path when write succeeds and the data is on disk.
func writeAtomic(op, path string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<20)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	// CreateTemp makes the file private; a checkpoint is an ordinary file.
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}
