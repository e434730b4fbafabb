//go:build unix

package safetensors

import (
	"math"
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps a file read-only, or reads it whole where mapping fails (a
// file system without mmap, an empty file, a size beyond the address
// space). unmap is nil for a file read whole.
func mapFile(path string) (data []byte, unmap func() error, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := st.Size()
	if size <= 0 || size > math.MaxInt || !st.Mode().IsRegular() {
		return readWhole(path)
	}
	data, err = unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return readWhole(path)
	}
	return data, func() error { return unix.Munmap(data) }, nil
}
