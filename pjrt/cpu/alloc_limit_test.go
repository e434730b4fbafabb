package cpu

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
)

// wideC takes 2 floats and returns 1024 (4 KiB): a program whose result
// is far larger than its argument.
const wideC = `// fake: c
/* module @wide */
const char stela_signature[] = "arg f32 2\nres f32 1024\n";
int stela_entry(void *const *args, void *const *results, char err[256]) {
  const float *x = args[0]; float *y = results[0];
  for (int i = 0; i < 1024; i++) y[i] = x[i % 2];
  return 0;
}
`

// TestMaxAllocBytes: the plugin reads STELA_MAX_ALLOC_BYTES (the Go
// side's variable and syntax, internal/env) when a client is created and
// refuses, before allocating, an uploaded buffer or a program result past
// it with RESOURCE_EXHAUSTED naming the bytes and the limit (issue 20);
// the client keeps working, and 0 is no limit.
func TestMaxAllocBytes(t *testing.T) {
	t.Setenv("STELA_MAX_ALLOC_BYTES", "1KiB")
	c := newClient(t, 1)

	// An upload past the limit; one at it is fine.
	_, err := c.BufferFromHost(pjrt.HostArray{DType: ir.F32, Dims: []int{2, 129}, Data: make([]byte, 1032)}, nil)
	wantError(t, err, pjrt.CodeResourceExhausted,
		"PJRT_Client_BufferFromHostBuffer: the array F32[2,129] needs 1.0 KiB (1032 bytes), more than the allocation limit of 1 KiB (1024 bytes; STELA_MAX_ALLOC_BYTES")
	// Strided: the limit is on the buffer's bytes, not the host array's extent.
	b, err := c.BufferFromHost(pjrt.HostArray{DType: ir.F32, Dims: []int{256}, Data: make([]byte, 2048), ByteStrides: []int{8}}, nil)
	if err != nil {
		t.Fatalf("upload of 1 KiB with a limit of 1 KiB: %v", err)
	}
	b.Destroy()

	exe, err := c.Compile(wideC, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Destroy()
	x, err := c.BufferFromLiteral(ir.LiteralOf([]int{2}, float32(1), 2), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Destroy()
	_, err = exe.Execute(x)
	wantError(t, err, pjrt.CodeResourceExhausted,
		"PJRT_LoadedExecutable_Execute: wide: result 0 F32[1024] needs 4 KiB (4096 bytes), more than the allocation limit of 1 KiB (1024 bytes; STELA_MAX_ALLOC_BYTES")
	if !errors.Is(err, pjrt.ErrResourceExhausted) {
		t.Errorf("errors.Is(%v, ErrResourceExhausted) is false", err)
	}
	// The client still works.
	if got, err := x.ToLiteral(); err != nil || fmt.Sprint(got.Data) != "[1 2]" {
		t.Errorf("after the refusals: %v, %v", got, err)
	}

	// The limit is read when a client is made: 4K lets the result through,
	// and so does 0 (no limit).
	for _, v := range []string{"4k", "0"} {
		t.Setenv("STELA_MAX_ALLOC_BYTES", v)
		c2 := newClient(t, 1)
		exe2, err := c2.Compile(wideC, nil)
		if err != nil {
			t.Fatal(err)
		}
		x2, err := c2.BufferFromLiteral(ir.LiteralOf([]int{2}, float32(1), 2), nil)
		if err != nil {
			t.Fatal(err)
		}
		outs, err := exe2.Execute(x2)
		if err != nil {
			t.Fatalf("STELA_MAX_ALLOC_BYTES=%s: %v", v, err)
		}
		if y, err := outs[0].ToLiteral(); err != nil || len(y.Bytes()) != 4096 {
			t.Errorf("STELA_MAX_ALLOC_BYTES=%s: result %v, %v", v, y, err)
		}
		outs[0].Destroy()
		x2.Destroy()
		exe2.Destroy()
	}

	// A value that is not a size fails the client's creation, as it fails
	// the Go side (internal/env.MaxAllocBytes).
	t.Setenv("STELA_MAX_ALLOC_BYTES", "12X")
	worker, cache := testWorker(t)
	c3, err := loadPlugin(t).NewClient(pjrt.NamedValue{Name: "stela_worker", Value: worker}, pjrt.NamedValue{Name: "stela_cache_dir", Value: cache})
	if err == nil {
		c3.Destroy()
	}
	wantError(t, err, pjrt.CodeInvalidArgument, "STELA_MAX_ALLOC_BYTES=12X: want the largest array in bytes")
}
