package npy

import (
	"archive/zip"
	"fmt"
	"strings"

	"github.com/stela-ml/stela/ir"
)

// ReadNPZFile reads the arrays of an .npz file (numpy's savez: a zip of
// NAME.npy members), by name without the .npy suffix.
func ReadNPZFile(path string) (map[string]*ir.Literal, error) {
	z, err := zip.OpenReader(path)
	if err != nil {
		return nil, err
	}
	defer z.Close()
	out := map[string]*ir.Literal{}
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, f.Name, err)
		}
		l, err := Read(r)
		r.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, f.Name, err)
		}
		out[strings.TrimSuffix(f.Name, ".npy")] = l
	}
	return out, nil
}
