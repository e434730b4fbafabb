package safetensors

import (
	"fmt"
	"io"
	"slices"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/frontend/tree"
	"github.com/stela-ml/stela/ir"
)

// Save writes the tensor leaves of a tree (see package tree) to a
// safetensors file, each under its path ("Layers.0.W"), with metadata
// (which may be nil); nil leaves are absent and not written. It reads one
// tensor at a time to the host, waiting for its computation (a failed one
// is Save's error), and replaces path only once the file is complete, as
// WriteFile does. Traced tensors have no values to save and are an error.
func Save(path string, t any, metadata map[string]string) error {
	const op = "safetensors.Save"
	leaves, err := tree.FlattenWithPaths(t)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	items := make([]item, 0, len(leaves))
	for _, l := range leaves {
		x := l.Tensor
		if x.Traced() {
			return fmt.Errorf("%s: at %s: tensor %v is traced: it has no values to save", op, l.Path, x.Type())
		}
		it, err := newItem(l.Path, x.Type())
		if err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		path := l.Path
		it.data = func() ([]byte, error) {
			lit, err := x.Buffer().Literal()
			if err != nil {
				return nil, fmt.Errorf("reading %s: %w", path, err)
			}
			return encode(lit), nil
		}
		items = append(items, it)
	}
	return writeAtomic(op, path, func(w io.Writer) error { return writeItems(op, w, items, metadata) })
}

// Load reads a checkpoint that Save wrote into a new tree of like's
// structure (as tree.Unflatten makes one): each tensor leaf of like is
// replaced by the file's tensor at its path, placed where like's leaf is,
// on its device and committed to it if it was. like's leaves only give the
// structure, types and places: their values are not read. Everything is
// checked before anything is loaded: a leaf without a tensor in the file,
// a tensor in the file that no leaf has, or a leaf whose type differs from
// the file's is an error naming the path.
func Load[T any](path string, like T) (T, error) {
	f, err := Open(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	return LoadFrom(f, like)
}

// LoadFrom is Load from an open file.
func LoadFrom[T any](f *File, like T) (T, error) {
	const op = "safetensors.Load"
	var zero T
	leaves, err := tree.FlattenWithPaths(like)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", op, err)
	}
	want := make(map[string]bool, len(leaves))
	for _, l := range leaves {
		want[l.Path] = true
		if l.Tensor.Traced() {
			return zero, fmt.Errorf("%s: at %s: like's tensor is traced: Load needs concrete tensors to place the loaded ones", op, l.Path)
		}
		info, err := f.Info(l.Path)
		if err != nil {
			return zero, fmt.Errorf("%s: at %s: the tree has a tensor here but %s has none (it has %d: %s)", op, l.Path, f.name, len(f.names), listNames(f.names))
		}
		if got := l.Tensor.Type(); info.DType != got.DType || !slices.Equal(info.Shape, got.Shape) {
			return zero, fmt.Errorf("%s: at %s: the file's tensor is %s%v, the tree's is %v", op, l.Path, info.DTypeName, info.Shape, got)
		}
	}
	for _, name := range f.names {
		if !want[name] {
			return zero, fmt.Errorf("%s: %s has tensor %q, which the tree has no leaf for", op, f.name, name)
		}
	}
	return tree.Map(like, func(path string, x *tensor.Tensor) (*tensor.Tensor, error) {
		l, err := f.Literal(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		return place(path, l, x)
	})
}

// place puts l where x is: on x's device, committed if x is.
func place(path string, l *ir.Literal, x *tensor.Tensor) (*tensor.Tensor, error) {
	dev := x.Buffer().Device()
	b, err := dev.Put(l)
	if err != nil {
		return nil, fmt.Errorf("safetensors.Load: at %s: putting %v on %s: %w", path, l.Type, dev.Name(), err)
	}
	return tensor.FromResult(b, x.Committed()), nil
}
