package tree

import (
	"fmt"
	"reflect"

	"github.com/stela-ml/stela/frontend/tensor"
)

// Leaf is a tensor leaf of a tree with its path.
type Leaf struct {
	// Path is the dot-separated way from the root to the leaf: field names
	// (or their stela tags), slice and array indices, map keys. A tensor
	// at the root has path "".
	Path   string
	Tensor *tensor.Tensor
}

// Flatten returns t's tensor leaves in tree order: struct fields in
// declaration order, slice and array elements by index, map entries by
// sorted key. Nil leaves are absent and left out.
func Flatten(t any) ([]*tensor.Tensor, error) {
	v := reflect.ValueOf(t)
	if !v.IsValid() {
		return nil, nil
	}
	var out []*tensor.Tensor
	w := &walker{op: "tree.Flatten"}
	err := w.visit(v, func(x *tensor.Tensor) error {
		if x != nil {
			out = append(out, x)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// FlattenWithPaths is Flatten with each leaf's path, the key Save writes
// it under. Two leaves with one path (a map key or stela tag with a dot in
// it, or promoted fields of two embedded structs with one name) are an
// error.
func FlattenWithPaths(t any) ([]Leaf, error) {
	v := reflect.ValueOf(t)
	if !v.IsValid() {
		return nil, nil
	}
	var out []Leaf
	w := &walker{op: "tree.FlattenWithPaths"}
	seen := map[string]bool{}
	err := w.visit(v, func(x *tensor.Tensor) error {
		if x == nil {
			return nil
		}
		p := w.pathString()
		if seen[p] {
			return w.errorf("a second tensor leaf has this path (a map key or stela tag with a dot, or promoted fields that share a name)")
		}
		seen[p] = true
		out = append(out, Leaf{Path: p, Tensor: x})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Unflatten returns a new tree with like's structure whose tensor leaves
// are leaves, in Flatten's order: one per non-nil leaf of like (nil leaves
// stay nil; a nil in leaves makes that leaf absent). The new tree has its
// own structs, pointers, slices and maps wherever tensors are below them;
// static leaves are copied as they are (shallowly), and like is not
// modified.
func Unflatten[T any](like T, leaves []*tensor.Tensor) (T, error) {
	n := 0
	out, err := rebuildRoot("tree.Unflatten", like, func(w *walker, x *tensor.Tensor) (*tensor.Tensor, error) {
		n++
		if n > len(leaves) {
			return nil, nil // too few: counted on, reported below
		}
		return leaves[n-1], nil
	})
	if err != nil {
		var zero T
		return zero, err
	}
	if n != len(leaves) {
		var zero T
		return zero, fmt.Errorf("tree.Unflatten: %d leaves for a %T with %d tensor leaves", len(leaves), like, n)
	}
	return out, nil
}

// Map returns a new tree of t's structure whose tensor leaves are fn of
// t's, given with their paths (see Unflatten for what is new). fn is not
// called for nil leaves, which stay nil; it may return nil to make a leaf
// absent. Its first error stops the walk and is returned as it is.
func Map[T any](t T, fn func(path string, x *tensor.Tensor) (*tensor.Tensor, error)) (T, error) {
	return rebuildRoot("tree.Map", t, func(w *walker, x *tensor.Tensor) (*tensor.Tensor, error) {
		return fn(w.pathString(), x)
	})
}

// Map2 is Map over two trees of one structure: the same lengths, map keys,
// dynamic types, static leaves and tensor leaf positions (as Structure
// describes them); an error names the first path where they differ. fn gets
// the two leaves at each path where both are non-nil; the result has a's
// static leaves.
func Map2[T any](a, b T, fn func(path string, x, y *tensor.Tensor) (*tensor.Tensor, error)) (T, error) {
	av, bv := reflect.ValueOf(&a).Elem(), reflect.ValueOf(&b).Elem()
	w := &walker{op: "tree.Map2"}
	if err := w.match(av, bv); err != nil {
		var zero T
		return zero, err
	}
	var ys []*tensor.Tensor
	w = &walker{op: "tree.Map2"}
	if err := w.visit(bv, func(y *tensor.Tensor) error {
		if y != nil {
			ys = append(ys, y)
		}
		return nil
	}); err != nil {
		var zero T
		return zero, err
	}
	n := 0
	return rebuildRoot("tree.Map2", a, func(w *walker, x *tensor.Tensor) (*tensor.Tensor, error) {
		n++
		return fn(w.pathString(), x, ys[n-1])
	})
}

// ZerosLike returns a new tree of t's structure whose tensor leaves are
// zeros of the type of t's and where they are (tensor.ZerosLike): an
// optimizer's initial state.
func ZerosLike[T any](t T) (T, error) {
	return rebuildRoot("tree.ZerosLike", t, func(w *walker, x *tensor.Tensor) (z *tensor.Tensor, err error) {
		if err := tensor.Catch(func() { z = tensor.ZerosLike(x) }); err != nil {
			return nil, w.errorf("%w", err)
		}
		return z, nil
	})
}

// rebuildRoot copies t and rebuilds the copy with fn at each non-nil leaf.
func rebuildRoot[T any](op string, t T, fn func(w *walker, x *tensor.Tensor) (*tensor.Tensor, error)) (T, error) {
	src := reflect.ValueOf(&t).Elem()
	dst := reflect.New(src.Type()).Elem()
	dst.Set(src)
	w := &walker{op: op}
	if err := w.rebuild(dst, src, func(x *tensor.Tensor) (*tensor.Tensor, error) { return fn(w, x) }); err != nil {
		var zero T
		return zero, err
	}
	return *dst.Addr().Interface().(*T), nil
}
