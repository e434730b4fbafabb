package safetensors

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/stela-ml/stela/ir"
)

// MaxHeader is the largest header Open accepts, in bytes: the reference
// implementation's limit, which keeps a corrupt length from making Open
// parse (or allocate) gigabytes.
const MaxHeader = 100_000_000

// metadataKey is the header entry that holds the file's string metadata.
const metadataKey = "__metadata__"

// File is an open safetensors file. Its methods are safe for concurrent use;
// after Close they return errors.
type File struct {
	name  string // for errors: the path, or "safetensors data"
	data  []byte // the whole file
	unmap func() error
	// base is where the data region starts in data.
	base    int
	tensors map[string]*entry
	names   []string // sorted
	meta    map[string]string

	mu     sync.RWMutex // Close (write) against reads of data
	closed bool
	views  int // live zero-copy views of the mapping (View); unmapped when 0 after Close
}

// entry is one tensor of the header, checked.
type entry struct {
	dtype      dtype
	shape      []int
	begin, end int // data offsets, relative to the data region
}

// Info describes one tensor of a file.
type Info struct {
	// DType is the element type, or ir.InvalidDType for one Stela does not
	// have (the 8-bit floats), whose tensors Literal cannot read.
	DType ir.DType
	// DTypeName is the type as the file names it: "F32", "BF16", "F8_E4M3".
	DTypeName string
	Shape     []int
	// Offset is where the tensor's data starts in the file, and Size its
	// length in bytes.
	Offset, Size int64
}

// Type is the tensor's Stela type (with DType invalid for the 8-bit floats).
func (i Info) Type() ir.Type { return ir.TensorOf(i.DType, i.Shape...) }

// Open opens a safetensors file and checks its header: every tensor's dtype,
// shape and offsets, and that the tensors tile the data region exactly.
// The file is memory-mapped where the platform allows (reading a tensor
// then touches only its pages) and read whole elsewhere. Close releases it.
func Open(path string) (*File, error) {
	data, unmap, err := mapFile(path)
	if err != nil {
		return nil, fmt.Errorf("safetensors: %w", err)
	}
	f, err := parse(path, data)
	if err != nil {
		if unmap != nil {
			unmap()
		}
		return nil, err
	}
	f.unmap = unmap
	return f, nil
}

// Parse reads a safetensors file held in memory, checking it as Open does.
// The File refers to data, which must not change while the File is used.
func Parse(data []byte) (*File, error) {
	return parse("safetensors data", data)
}

// errorf makes an error naming the file.
func (f *File) errorf(format string, args ...any) error {
	return fmt.Errorf("safetensors: %s: "+format, append([]any{f.name}, args...)...)
}

func parse(name string, data []byte) (*File, error) {
	f := &File{name: name, data: data}
	if len(data) < 8 {
		return nil, f.errorf("%d bytes is too short for a safetensors file (an 8-byte header length comes first)", len(data))
	}
	n := binary.LittleEndian.Uint64(data)
	if n > MaxHeader {
		return nil, f.errorf("header length %d exceeds the limit of %d bytes", n, MaxHeader)
	}
	if n > uint64(len(data)-8) {
		return nil, f.errorf("header length %d runs past the end of the file (%d bytes)", n, len(data))
	}
	f.base = 8 + int(n)
	if err := f.parseHeader(data[8:f.base]); err != nil {
		return nil, err
	}
	if err := f.checkLayout(); err != nil {
		return nil, err
	}
	return f, nil
}

// parseHeader reads the JSON header: an object whose entries are tensors,
// and "__metadata__", an object of strings.
func (f *File) parseHeader(h []byte) error {
	if !utf8.Valid(h) {
		return f.errorf("header is not valid UTF-8")
	}
	if !json.Valid(h) {
		// Unmarshal's syntax check reports the offset in the whole header
		// (the streaming decoder's are relative to the value it was at).
		err := json.Unmarshal(h, new(struct{}))
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return f.errorf("header: invalid JSON at byte %d: %v", se.Offset, err)
		}
		return f.errorf("header: invalid JSON: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(h))
	dec.UseNumber()
	// The JSON is valid: the decoder's errors are about types.
	jsonErr := func(err error) error { return f.errorf("header: %v", err) }
	tok, err := dec.Token()
	if err != nil {
		return jsonErr(err)
	}
	if tok != json.Delim('{') {
		return f.errorf("header is not a JSON object")
	}
	f.tensors = map[string]*entry{}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return jsonErr(err)
		}
		name := tok.(string) // object keys are strings
		if seen[name] {
			return f.errorf("header names %q twice", name)
		}
		seen[name] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return jsonErr(err)
		}
		if name == metadataKey {
			if err := f.parseMetadata(raw); err != nil {
				return err
			}
			continue
		}
		e, err := parseEntry(raw)
		if err != nil {
			return f.errorf("tensor %q: %v", name, err)
		}
		f.tensors[name] = e
		f.names = append(f.names, name)
	}
	slices.Sort(f.names)
	return nil
}

func (f *File) parseMetadata(raw json.RawMessage) error {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return f.errorf("%s is not an object of strings", metadataKey)
	}
	f.meta = make(map[string]string, len(m))
	for k, v := range m {
		s, ok := v.(string)
		if !ok {
			return f.errorf("%s: value of %q is not a string", metadataKey, k)
		}
		f.meta[k] = s
	}
	return nil
}

// parseEntry checks one tensor's header entry on its own.
func parseEntry(raw json.RawMessage) (*entry, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, fmt.Errorf("entry is not an object")
	}
	for _, k := range []string{"dtype", "shape", "data_offsets"} {
		if fields[k] == nil {
			return nil, fmt.Errorf("entry has no %q", k)
		}
	}
	var name string
	if err := json.Unmarshal(fields["dtype"], &name); err != nil {
		return nil, fmt.Errorf("dtype %s is not a string", fields["dtype"])
	}
	dt, ok := dtypeNamed(name)
	if !ok {
		return nil, fmt.Errorf("unknown dtype %q", name)
	}
	e := &entry{dtype: dt}
	shape, err := naturals(fields["shape"], "shape")
	if err != nil {
		return nil, err
	}
	offs, err := naturals(fields["data_offsets"], "data_offsets")
	if err != nil {
		return nil, err
	}
	if len(offs) != 2 {
		return nil, fmt.Errorf("data_offsets %v is not [begin, end]", offs)
	}
	if offs[1] < offs[0] {
		return nil, fmt.Errorf("data_offsets [%d, %d] end before they begin", offs[0], offs[1])
	}
	// The size the shape needs, without overflow.
	size := uint64(dt.size)
	for _, d := range shape {
		hi, lo := bits.Mul64(size, d)
		if hi != 0 || lo > math.MaxInt {
			return nil, fmt.Errorf("shape %v is too large", shape)
		}
		size = lo
	}
	if d := offs[1] - offs[0]; d != size {
		return nil, fmt.Errorf("%s%v needs %d bytes, but data_offsets [%d, %d] hold %d", name, shape, size, offs[0], offs[1], d)
	}
	if offs[1] > math.MaxInt {
		return nil, fmt.Errorf("data_offsets [%d, %d] are too large", offs[0], offs[1])
	}
	for _, d := range shape {
		e.shape = append(e.shape, int(d)) // each ≤ size ≤ MaxInt, or the size is 0
	}
	e.begin, e.end = int(offs[0]), int(offs[1])
	return e, nil
}

// naturals reads a JSON array of non-negative integers.
func naturals(raw json.RawMessage, what string) ([]uint64, error) {
	var nums []json.Number
	if err := json.Unmarshal(raw, &nums); err != nil || nums == nil {
		return nil, fmt.Errorf("%s %s is not an array of integers", what, raw)
	}
	out := make([]uint64, len(nums))
	for i, n := range nums {
		v, err := strconv.ParseUint(string(n), 10, 64)
		if err != nil || v > math.MaxInt {
			return nil, fmt.Errorf("%s %s: %s is not an integer from 0 to %d", what, raw, n, math.MaxInt)
		}
		out[i] = v
	}
	return out, nil
}

// checkLayout checks that the tensors' data tile the data region: in offset
// order, each starts where the previous one ends, the first at 0 and the
// last at the end of the file.
func (f *File) checkLayout() error {
	size := len(f.data) - f.base
	order := slices.Clone(f.names)
	slices.SortFunc(order, func(a, b string) int {
		ea, eb := f.tensors[a], f.tensors[b]
		if ea.begin != eb.begin {
			return ea.begin - eb.begin
		}
		return ea.end - eb.end
	})
	at, prev := 0, ""
	for _, name := range order {
		e := f.tensors[name]
		switch {
		case e.end > size:
			return f.errorf("tensor %q: data_offsets [%d, %d] run past the end of the data (%d bytes after the header)", name, e.begin, e.end, size)
		case e.begin < at:
			return f.errorf("tensor %q: data_offsets [%d, %d] overlap tensor %q's, which end at %d", name, e.begin, e.end, prev, at)
		case e.begin > at && prev == "":
			return f.errorf("tensor %q: data starts at offset %d: the %d bytes before it belong to no tensor", name, e.begin, e.begin)
		case e.begin > at:
			return f.errorf("tensor %q: data starts at offset %d: the %d bytes after tensor %q belong to no tensor", name, e.begin, e.begin-at, prev)
		}
		at, prev = e.end, name
	}
	if at != size {
		return f.errorf("the tensors' data ends at offset %d, but %d bytes follow the header: the %d after that belong to no tensor", at, size, size-at)
	}
	return nil
}

// Names returns the tensors' names, sorted.
func (f *File) Names() []string { return slices.Clone(f.names) }

// Metadata returns a copy of the header's "__metadata__" (nil if absent).
func (f *File) Metadata() map[string]string {
	if f.meta == nil {
		return nil
	}
	m := make(map[string]string, len(f.meta))
	for k, v := range f.meta {
		m[k] = v
	}
	return m
}

// Info describes the named tensor.
func (f *File) Info(name string) (Info, error) {
	e, ok := f.tensors[name]
	if !ok {
		return Info{}, f.missing(name)
	}
	return Info{
		DType:     e.dtype.elem,
		DTypeName: e.dtype.name,
		Shape:     slices.Clone(e.shape),
		Offset:    int64(f.base + e.begin),
		Size:      int64(e.end - e.begin),
	}, nil
}

func (f *File) missing(name string) error {
	return f.errorf("no tensor %q (the file has %d: %s)", name, len(f.names), listNames(f.names))
}

// listNames shortens a list of names for an error message.
func listNames(names []string) string {
	const most = 5
	q := make([]string, 0, most)
	for _, n := range names[:min(len(names), most)] {
		q = append(q, strconv.Quote(n))
	}
	s := strings.Join(q, ", ")
	if len(names) > most {
		s += fmt.Sprintf(", ... (%d more)", len(names)-most)
	}
	return s
}

// Literal copies the named tensor into host memory.
func (f *File) Literal(name string) (*ir.Literal, error) {
	e, ok := f.tensors[name]
	if !ok {
		return nil, f.missing(name)
	}
	if e.dtype.elem == ir.InvalidDType {
		return nil, f.errorf("tensor %q has dtype %s, which Stela has no element type for", name, e.dtype.name)
	}
	f.mu.RLock()
	defer f.mu.RUnlock()
	if f.closed {
		return nil, f.errorf("reading tensor %q: the file is closed", name)
	}
	return f.copyOut(name, e)
}

// copyOut decodes a tensor's data. A mapped file that shrinks under us
// (another process truncating it) makes the copy fault: SetPanicOnFault
// turns that into a panic, recovered here into an error.
func (f *File) copyOut(name string, e *entry) (l *ir.Literal, err error) {
	if f.unmap != nil {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() {
			if r := recover(); r != nil {
				if _, fault := r.(interface{ Addr() uintptr }); !fault {
					panic(r)
				}
				l, err = nil, f.errorf("reading tensor %q: the mapped file could not be read (was it truncated?): %v", name, r)
			}
		}()
	}
	l, err = decode(ir.TensorOf(e.dtype.elem, e.shape...), f.data[f.base+e.begin:f.base+e.end])
	if err != nil {
		return nil, f.errorf("tensor %q: %v", name, err)
	}
	return l, nil
}

// Close releases the file. Reads after Close fail; tensors that View
// placed in the mapping keep it until they are freed.
func (f *File) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil
	}
	f.closed = true
	f.data = nil
	if f.views == 0 {
		if err := f.unmapNow(); err != nil {
			return f.errorf("unmapping: %v", err)
		}
	}
	return nil
}

// unmapNow unmaps a mapped file (once), with f.mu held.
func (f *File) unmapNow() error {
	if f.unmap == nil {
		return nil
	}
	u := f.unmap
	f.unmap = nil
	return u()
}

// readWhole is mapFile's fallback: the file's bytes in memory.
func readWhole(path string) ([]byte, func() error, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return data, nil, nil
}
