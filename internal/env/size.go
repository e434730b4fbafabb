package env

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// CacheMaxBytesVar bounds the Stela CPU plugin's compile cache on disk
// (docs/cache.md): bytes, optionally followed by K, M, G or T (KiB, MiB,
// GiB, TiB; "KiB" and "KB" are read alike), or 0 for no limit. Past the
// limit the least recently used entries are removed after each compile.
// The plugin (csrc/cache.c) reads it itself; a value it cannot read fails
// the compile with the message ParseSize gives.
const CacheMaxBytesVar = "STELA_CACHE_MAX_BYTES"

// DefaultCacheMaxBytes is the limit when CacheMaxBytesVar is unset: 1 GiB,
// about 70,000 programs of eager mode's size (about 15 KB each).
const DefaultCacheMaxBytes = 1 << 30

// CacheMaxBytes returns the compile cache's size limit (0: none).
func CacheMaxBytes() (int64, error) {
	s := os.Getenv(CacheMaxBytesVar)
	if s == "" {
		return DefaultCacheMaxBytes, nil
	}
	n, err := ParseSize(s)
	if err != nil {
		return 0, fmt.Errorf("%s=%s: want the compile cache's size limit in bytes, a whole number optionally followed by K, M, G or T (KiB, MiB, GiB, TiB), or 0 for no limit", CacheMaxBytesVar, s)
	}
	return n, nil
}

// ParseSize reads a byte count: digits, then optionally K, M, G or T
// (powers of 1024, either case), optionally followed by "i" and "B".
func ParseSize(s string) (int64, error) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("%q is not a size", s)
	}
	v, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a size", s)
	}
	unit := strings.ToUpper(s[i:])
	shift := 0
	if unit != "" {
		k := strings.IndexByte("KMGT", unit[0])
		if k < 0 {
			return 0, fmt.Errorf("%q is not a size", s)
		}
		shift = 10 * (k + 1)
		rest := unit[1:]
		rest = strings.TrimPrefix(rest, "I")
		if rest != "" && rest != "B" {
			return 0, fmt.Errorf("%q is not a size", s)
		}
	}
	if shift > 0 && v > math.MaxInt64>>shift {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return v << shift, nil
}
