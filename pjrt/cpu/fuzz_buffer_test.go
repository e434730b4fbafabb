package cpu

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/big"
	"slices"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
)

// fuzzAllocLimit is STELA_MAX_ALLOC_BYTES for the fuzz client: a shape
// the fuzzer makes huge (with zero strides, a few bytes of data describe
// any number of elements) is refused, not allocated.
const fuzzAllocLimit = 1 << 20

// fuzzShape decodes the fuzzer's shape bytes: the first byte gives the
// rank (its low bits, up to 8) and whether the array has byte strides (its
// high bit); then, per dimension, the size and (strided) the stride as
// signed varints. Missing bytes read as 0.
func fuzzShape(b []byte) (dims, strides []int) {
	if len(b) == 0 {
		return []int{}, nil
	}
	rank, strided := int(b[0]%9), b[0]&0x80 != 0
	b = b[1:]
	next := func() int {
		v, n := binary.Varint(b)
		if n <= 0 {
			b = nil
			return 0
		}
		b = b[n:]
		return int(v)
	}
	dims = make([]int, rank)
	if strided {
		strides = make([]int, rank)
	}
	for i := range rank {
		dims[i] = next()
		if strided {
			strides[i] = next()
		}
	}
	return dims, strides
}

// fuzzExpect is what a correct client and plugin do with the array:
// ok false when it must be refused (a bad type or dimension, a size or
// byte range past an int, bytes outside data); else its dense bytes, or
// nil with tooBig when they are past fuzzAllocLimit. It computes with
// big integers, independently of HostArray.check's overflow checks.
func fuzzExpect(a pjrt.HostArray) (want []byte, tooBig, ok bool) {
	// Every element type has a PJRT buffer type but the f6 ones (the
	// narrow types take one byte per element, as pjrt.BufferTypeOf says).
	if !slices.Contains(ir.EveryDType, a.DType) || a.DType == ir.F6E2M3FN || a.DType == ir.F6E3M2FN {
		return nil, false, false
	}
	esize := a.DType.Size()
	n := big.NewInt(1)
	for _, d := range a.Dims {
		if d < 0 {
			return nil, false, false
		}
		n.Mul(n, big.NewInt(int64(d)))
	}
	if n.Sign() == 0 {
		return []byte{}, false, true
	}
	nbytes := new(big.Int).Mul(n, big.NewInt(int64(esize)))
	if !nbytes.IsInt64() || a.Offset < 0 {
		return nil, false, false
	}
	lo, hi := big.NewInt(0), new(big.Int).Set(nbytes)
	if a.ByteStrides != nil {
		hi.SetInt64(int64(esize))
		for i, s := range a.ByteStrides {
			ext := new(big.Int).Mul(big.NewInt(int64(a.Dims[i]-1)), big.NewInt(int64(s)))
			if s > 0 {
				hi.Add(hi, ext)
			} else {
				lo.Add(lo, ext)
			}
		}
	}
	off := big.NewInt(int64(a.Offset))
	if lo.Add(lo, off).Sign() < 0 || hi.Add(hi, off).Cmp(big.NewInt(int64(len(a.Data)))) > 0 {
		return nil, false, false
	}
	if nbytes.Int64() > fuzzAllocLimit {
		return nil, true, true
	}
	want = make([]byte, 0, nbytes.Int64())
	if a.ByteStrides == nil {
		want = append(want, a.Data[a.Offset:a.Offset+int(nbytes.Int64())]...)
	} else {
		idx := make([]int, len(a.Dims))
		for {
			p := a.Offset
			for i, x := range idx {
				p += x * a.ByteStrides[i]
			}
			want = append(want, a.Data[p:p+esize]...)
			i := len(idx) - 1
			for ; i >= 0; i-- {
				if idx[i]++; idx[i] < a.Dims[i] {
					break
				}
				idx[i] = 0
			}
			if i < 0 {
				break
			}
		}
	}
	if a.DType == ir.Bool {
		for i, v := range want {
			if v != 0 {
				want[i] = 1
			}
		}
	}
	return want, false, true
}

// FuzzHostBuffer drives the plugin's buffer entry points
// (PJRT_Client_BufferFromHostBuffer, PJRT_Buffer_ToHostBuffer, and the
// buffer's type and dimensions) through the Go client with random element
// types, dimensions, byte strides, offsets and destination sizes, against
// the real plugin (one client per fuzz process). Each input must either
// fail cleanly (a *pjrt.Error with the expected code, the process alive)
// or round-trip: the buffer reads back what fuzzExpect says was written,
// and ToHost writes nothing past the buffer's bytes. Seeds:
// testdata/fuzz/FuzzHostBuffer (dense, by columns, reversed rows, a
// broadcast, a zero stride past the limit, a stride that overflows, a
// scalar into a short destination, an empty array, rank 8).
func FuzzHostBuffer(f *testing.F) {
	f.Setenv("STELA_MAX_ALLOC_BYTES", "1M") // read when the client is made
	c := newClient(f, 1)
	f.Fuzz(func(t *testing.T, dtype uint8, shape []byte, offset int, data []byte, extra int8) {
		dims, strides := fuzzShape(shape)
		a := pjrt.HostArray{DType: ir.DType(dtype), Dims: dims, Data: data, ByteStrides: strides, Offset: offset}
		want, tooBig, ok := fuzzExpect(a)
		b, err := c.BufferFromHost(a, nil)
		if err != nil {
			var perr *pjrt.Error
			switch {
			case !errors.As(err, &perr):
				t.Fatalf("%v%v strides %v offset %d over %d bytes: error %v is not a *pjrt.Error", a.DType, dims, strides, offset, len(data), err)
			case tooBig && perr.Code != pjrt.CodeResourceExhausted:
				t.Fatalf("%v%v strides %v: %v, want RESOURCE_EXHAUSTED", a.DType, dims, strides, err)
			case ok && !tooBig:
				t.Fatalf("%v%v strides %v offset %d over %d bytes: %v, want a buffer", a.DType, dims, strides, offset, len(data), err)
			case !ok && perr.Code != pjrt.CodeInvalidArgument:
				t.Fatalf("%v%v strides %v offset %d over %d bytes: %v, want INVALID_ARGUMENT", a.DType, dims, strides, offset, len(data), err)
			}
			return
		}
		defer b.Destroy()
		if !ok || tooBig {
			t.Fatalf("%v%v strides %v offset %d over %d bytes: made a buffer, want an error (ok %v, too big %v)", a.DType, dims, strides, offset, len(data), ok, tooBig)
		}
		if got, err := b.Dims(); err != nil || !slices.Equal(got, dims) {
			t.Fatalf("Dims = %v, %v; want %v", got, err, dims)
		}
		if got, err := b.DType(); err != nil || got != a.DType {
			t.Fatalf("DType = %v, %v; want %v", got, err, a.DType)
		}
		dst := bytes.Repeat([]byte{0xa5}, max(len(want)+int(extra), 0))
		err = b.ToHost(dst)
		if len(dst) < len(want) {
			if !errors.Is(err, pjrt.ErrInvalidArgument) {
				t.Fatalf("ToHost into %d bytes of a %d-byte buffer: %v, want INVALID_ARGUMENT", len(dst), len(want), err)
			}
			return
		}
		if err != nil {
			t.Fatalf("ToHost: %v", err)
		}
		if !bytes.Equal(dst[:len(want)], want) {
			t.Fatalf("%v%v strides %v offset %d: read back %x, want %x", a.DType, dims, strides, offset, dst[:len(want)], want)
		}
		if rest := dst[len(want):]; len(bytes.Trim(rest, "\xa5")) != 0 {
			t.Fatalf("ToHost wrote past the buffer's %d bytes: %x", len(want), rest)
		}
	})
}
