package env

import (
	"fmt"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// MaxAllocBytesVar bounds the size of one array that Stela allocates from
// a shape (tensor.Zeros and Full on the host, the CPU plugin's buffers
// and program results, constants in the compile worker): bytes,
// optionally followed by K, M, G or T (KiB ... TiB), or 0 for no limit. An
// array past it is an error that names its shape and bytes, rather than
// a fatal out-of-memory that kills the process (docs/limits.md). The CPU
// plugin reads it itself (csrc/client.c, when a client is created).
const MaxAllocBytesVar = "STELA_MAX_ALLOC_BYTES"

// DefaultMaxAllocBytes is the limit when MaxAllocBytesVar is unset: the
// machine's physical memory (an array larger than all of it can only be
// swapped, or kill the process), or 1 TiB where that cannot be read.
func DefaultMaxAllocBytes() int64 {
	physOnce.Do(func() {
		physBytes = 1 << 40
		var si unix.Sysinfo_t
		if unix.Sysinfo(&si) == nil && si.Totalram > 0 {
			b := uint64(si.Totalram) * uint64(si.Unit)
			if b > 0 && b < 1<<62 {
				physBytes = int64(b)
			}
		}
	})
	return physBytes
}

var (
	physOnce  sync.Once
	physBytes int64
)

// MaxAllocBytes returns the allocation limit (0: none).
func MaxAllocBytes() (int64, error) {
	s := os.Getenv(MaxAllocBytesVar)
	if s == "" {
		return DefaultMaxAllocBytes(), nil
	}
	n, err := ParseSize(s)
	if err != nil {
		return 0, fmt.Errorf("%s=%s: want the largest array in bytes, a whole number optionally followed by K, M, G or T (KiB, MiB, GiB, TiB), or 0 for no limit", MaxAllocBytesVar, s)
	}
	return n, nil
}

// CheckAlloc returns an error when an array of shape (as the caller
// writes it: "f32[1099511627776]") needs more than the allocation limit;
// ok false says its byte size overflows an int64.
func CheckAlloc(shape string, bytes int64, ok bool) error {
	lim, err := MaxAllocBytes()
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s: the byte size overflows a 64-bit integer", shape)
	}
	if lim > 0 && bytes > lim {
		return fmt.Errorf("%s needs %s (%d bytes), more than the allocation limit of %s (%s; default: the machine's physical memory)",
			shape, FormatSize(bytes), bytes, FormatSize(lim), MaxAllocBytesVar)
	}
	return nil
}

// FormatSize writes a byte count with a binary unit: "4 TiB", "1.5 GiB".
func FormatSize(b int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v, u := float64(b), 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%d bytes", b)
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), units[u])
	}
	return fmt.Sprintf("%.1f %s", v, units[u])
}

// MaxInputBytesVar bounds the size of a file the stela command reads (a
// .sir or StableHLO program, a reproducer): bytes, optionally followed by
// K, M, G or T, or 0 for no limit. Parsing takes several times the
// source's size in memory, and a path such as /dev/zero never ends.
const MaxInputBytesVar = "STELA_MAX_INPUT_BYTES"

// DefaultMaxInputBytes is the limit when MaxInputBytesVar is unset: 64
// MiB, over a hundred times the largest program in the repository's
// tests (the transformer's .sir is 8 KB).
const DefaultMaxInputBytes = 64 << 20

// MaxInputBytes returns the input size limit (0: none).
func MaxInputBytes() (int64, error) {
	s := os.Getenv(MaxInputBytesVar)
	if s == "" {
		return DefaultMaxInputBytes, nil
	}
	n, err := ParseSize(s)
	if err != nil {
		return 0, fmt.Errorf("%s=%s: want the largest input file in bytes, a whole number optionally followed by K, M, G or T (KiB, MiB, GiB, TiB), or 0 for no limit", MaxInputBytesVar, s)
	}
	return n, nil
}
