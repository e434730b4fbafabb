package main

import (
	"fmt"
	"io"
	"os"

	"github.com/stela-ml/stela/internal/env"
)

// readInput reads a file the user named, up to the input size limit
// (env.MaxInputBytesVar): a larger file, or one that does not end
// (/dev/zero), is an error rather than memory exhausted.
func readInput(path string) ([]byte, error) {
	lim, err := env.MaxInputBytes()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooBig := func() error {
		return fmt.Errorf("%s: larger than the input size limit of %s (set %s to raise it; 0: no limit)",
			path, env.FormatSize(lim), env.MaxInputBytesVar)
	}
	if lim <= 0 {
		return io.ReadAll(f)
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > lim {
		return nil, tooBig()
	}
	b, err := io.ReadAll(io.LimitReader(f, lim+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > lim {
		return nil, tooBig()
	}
	return b, nil
}
