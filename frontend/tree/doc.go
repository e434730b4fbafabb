// Package tree walks parameter trees: Go values made of *tensor.Tensor
// leaves inside structs, pointers, slices, arrays, maps and interfaces, as
// JAX's pytrees are made of arrays inside lists, tuples and dicts. Layers,
// optimizer states, gradients and checkpoints are trees; this package finds
// their tensors by reflection, so a model is an ordinary Go struct:
//
//	type Linear struct{ W, B *tensor.Tensor }
//	type MLP struct {
//		Layers []Linear
//		Act    string // a static leaf
//	}
//
// What a tree is, by the type of each value in it:
//
//   - *tensor.Tensor is a tensor leaf. A nil one is an absent leaf: walks
//     skip it and rebuilt trees keep it nil.
//   - A pointer is its pointee's tree; a nil pointer is kept nil.
//   - A struct is its fields, in declaration order, each under its name or
//     its `stela:"name"` tag. A field tagged `stela:"-"` is not part of the
//     tree: it is copied as it is. The fields of an embedded struct are
//     promoted, as Go promotes them: they sit in the parent's paths
//     without the embedded type's name (unless the embedded field has a
//     tag name).
//   - A slice or array is its elements, by index.
//   - A map with string or integer keys is its values, visited in sorted
//     key order.
//   - An interface is the tree of its dynamic value.
//   - Any other value is a static leaf: a number, string, bool, func, or a
//     struct, slice or map that holds no tensors (a config). Static leaves
//     are part of the structure, described by their exported contents, and
//     are copied as they are.
//
// Paths join the elements with dots: "Layers.0.W", "Embed.W",
// "opt.m.Layers.1.B". They are the keys of checkpoints
// (frontend/safetensors), so keep dots out of map keys and tags.
//
// Trees must be finite: a pointer, slice or map that contains itself is an
// error. A pointer reached twice along different ways (two layers sharing
// one *Linear) is visited twice, and Unflatten and Map give each visit its
// own copy, as JAX does.
//
// Unexported fields are not part of the tree: they are copied as they are
// with their struct, and Structure leaves them out (as encoding/json does),
// so a model may keep a *rand.Rand or a logger in one. But reflection
// cannot set them, so one that holds tensors is an error naming the type
// and the field: by its type (an unexported *tensor.Tensor, []Linear), or,
// when its type could hold tensors only through an interface (an
// unexported any), by its value. Tag such a field `stela:"-"` to keep it
// out of the tree on purpose. An embedded struct of an unexported type is
// part of the tree: its exported fields are reachable, as Go promotes them.
//
// The functions: Flatten and FlattenWithPaths list the leaves, Unflatten
// rebuilds a tree of a given structure from a list of leaves, Map and Map2
// transform leaves, ZerosLike makes an optimizer's zero state, Structure
// describes a tree's shape for jit's cache key, and Contains tells a type
// that can hold tensors from a static one. Errors name the function and the
// path where the walk was: "tree.Map2: at Layers.1.B: the first tree has a
// tensor, the second has none".
package tree
