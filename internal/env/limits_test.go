package env

import (
	"strings"
	"testing"
)

func TestMaxAllocBytes(t *testing.T) {
	t.Setenv(MaxAllocBytesVar, "")
	if n, err := MaxAllocBytes(); err != nil || n != DefaultMaxAllocBytes() || n < 1<<20 {
		t.Errorf("default: %d, %v (physical memory %d)", n, err, DefaultMaxAllocBytes())
	}
	t.Setenv(MaxAllocBytesVar, "2G")
	if n, err := MaxAllocBytes(); err != nil || n != 2<<30 {
		t.Errorf("2G: %d, %v", n, err)
	}
	t.Setenv(MaxAllocBytesVar, "lots")
	if _, err := MaxAllocBytes(); err == nil || !strings.Contains(err.Error(), "STELA_MAX_ALLOC_BYTES=lots") {
		t.Errorf("lots: %v", err)
	}
	if err := CheckAlloc("f32[2]", 8, true); err == nil {
		t.Error("CheckAlloc under a bad limit: no error")
	}
	t.Setenv(MaxAllocBytesVar, "1M")
	if err := CheckAlloc("f32[262144]", 1<<20, true); err != nil {
		t.Error(err)
	}
	if err := CheckAlloc("f32[262145]", 1<<20+4, true); err == nil || !strings.Contains(err.Error(), "f32[262145] needs 1.0 MiB (1048580 bytes), more than the allocation limit of 1 MiB") {
		t.Errorf("over: %v", err)
	}
	for b, want := range map[int64]string{0: "0 bytes", 1023: "1023 bytes", 1024: "1 KiB", 1536: "1.5 KiB", 1 << 40: "1 TiB"} {
		if got := FormatSize(b); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", b, got, want)
		}
	}
}
