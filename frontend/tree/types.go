package tree

import (
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/stela-ml/stela/frontend/tensor"
)

var (
	tensorPtr = reflect.TypeFor[*tensor.Tensor]()
	tensorVal = reflect.TypeFor[tensor.Tensor]()
)

// kind is what a type is to a tree walk.
type kind uint8

const (
	static  kind = iota // holds no tensors: a static leaf, copied as is
	leaf                // *tensor.Tensor
	pointer             // pointer to a type that can hold tensors
	strct
	slice
	array
	mapping
	iface // any interface: its dynamic value decides
)

// info is what the walks need to know about a type, computed once per type.
type info struct {
	kind kind
	// err is set when the type, or one a walk of it reaches, cannot be a
	// tree: tensors in unexported fields, maps with unsortable keys, a
	// tensor.Tensor held by value. Walks report it on meeting the type.
	err error
	// fields of a struct, in declaration order, except those tagged
	// `stela:"-"`.
	fields []field
}

// field is one struct field a walk looks at.
type field struct {
	index int
	// name is the field's path element: its name or its stela tag, and ""
	// for an embedded struct whose fields are promoted into the parent's
	// paths (as Go promotes them into the parent's selectors).
	name string
	// tree: the field's type can hold tensors and the walks descend into
	// it. Otherwise it is a static leaf (Structure still records it).
	tree bool
	// checkValue marks an unexported interface field: reflection cannot
	// replace it, which is only a problem if its value holds tensors.
	checkValue bool
	// label names the field in errors ("pkg.T.w").
	label string
}

var infos sync.Map // reflect.Type → *info

// infoOf returns t's info, analyzing t and the types it reaches on first use.
func infoOf(t reflect.Type) *info {
	if i, ok := infos.Load(t); ok {
		return i.(*info)
	}
	for u, i := range analyze(t) {
		infos.LoadOrStore(u, i)
	}
	i, _ := infos.Load(t)
	return i.(*info)
}

// Contains reports whether a value of type typ can hold tensor leaves: it is
// *tensor.Tensor, or a pointer, struct, slice, array or map that reaches one,
// or an interface type (whose dynamic value may be a tree). Values of the
// other types are static leaves. jit uses it to tell a tree parameter from a
// static one. A type that could hold tensors but cannot be a tree (tensors
// in an unexported field, say) counts as containing them, so that walking a
// value of it reports why.
func Contains(typ reflect.Type) bool {
	if typ == nil {
		return false
	}
	return infoOf(typ).kind != static
}

// analyze computes the info of t and of every type reachable from it
// without going through an interface. Recursive types need a fixed point:
// whether a type holds tensors can depend on itself through a cycle.
func analyze(root reflect.Type) map[reflect.Type]*info {
	// Collect the reachable types, with their children.
	children := map[reflect.Type][]reflect.Type{}
	var order []reflect.Type
	var visit func(t reflect.Type)
	visit = func(t reflect.Type) {
		if _, seen := children[t]; seen {
			return
		}
		if _, done := infos.Load(t); done && t != root {
			children[t] = nil // known: use the cached answer
			order = append(order, t)
			return
		}
		var cs []reflect.Type
		if t != tensorPtr && t != tensorVal {
			switch t.Kind() {
			case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
				cs = []reflect.Type{t.Elem()}
			case reflect.Struct:
				for i := range t.NumField() {
					if f := t.Field(i); f.Tag.Get("stela") != "-" {
						cs = append(cs, f.Type)
					}
				}
			}
		}
		children[t] = cs
		order = append(order, t)
		for _, c := range cs {
			visit(c)
		}
	}
	visit(root)

	// holds: least fixed point of "is a tensor, an interface, or has a
	// child that holds tensors".
	holds := map[reflect.Type]bool{}
	for _, t := range order {
		switch {
		case t == tensorPtr || t == tensorVal || t.Kind() == reflect.Interface:
			holds[t] = true
		case children[t] == nil:
			if i, ok := infos.Load(t); ok {
				holds[t] = i.(*info).kind != static
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, t := range order {
			if holds[t] {
				continue
			}
			for _, c := range children[t] {
				if holds[c] {
					holds[t], changed = true, true
					break
				}
			}
		}
	}

	out := map[reflect.Type]*info{}
	for _, t := range order {
		if i, ok := infos.Load(t); ok && t != root {
			out[t] = i.(*info)
			continue
		}
		out[t] = newInfo(t, holds)
	}
	// A type whose walk reaches a broken type is broken too: propagate the
	// first error along the children that hold tensors.
	for changed := true; changed; {
		changed = false
		for _, t := range order {
			i := out[t]
			if i.err != nil || i.kind == static {
				continue
			}
			for _, c := range children[t] {
				if ci := out[c]; ci.err != nil && ci.kind != static {
					i.err, changed = ci.err, true
					break
				}
			}
		}
	}
	return out
}

// newInfo builds t's info given which types hold tensors, with t's own
// error (not yet those of the types it reaches).
func newInfo(t reflect.Type, holds map[reflect.Type]bool) *info {
	if !holds[t] {
		return &info{kind: static}
	}
	switch {
	case t == tensorPtr:
		return &info{kind: leaf}
	case t == tensorVal:
		// Counted as holding tensors, so that the error reaches the walk.
		return &info{kind: strct, err: fmt.Errorf("tensor.Tensor held by value: a tree holds *tensor.Tensor")}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return &info{kind: pointer}
	case reflect.Slice:
		return &info{kind: slice}
	case reflect.Array:
		return &info{kind: array}
	case reflect.Interface:
		return &info{kind: iface}
	case reflect.Map:
		i := &info{kind: mapping}
		if !sortableKey(t.Key()) {
			i.err = fmt.Errorf("map type %v holds tensors but its keys are %v: a tree's maps need string or integer keys, visited in sorted order", t, t.Key())
		}
		return i
	case reflect.Struct:
		return structInfo(t, holds)
	}
	return &info{kind: static}
}

func sortableKey(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

func structInfo(t reflect.Type, holds map[reflect.Type]bool) *info {
	i := &info{kind: strct}
	for k := range t.NumField() {
		f := t.Field(k)
		tag := f.Tag.Get("stela")
		if tag == "-" {
			continue
		}
		fi := field{index: k, name: f.Name, tree: holds[f.Type], label: t.String() + "." + f.Name}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		promoted := f.Anonymous && ft.Kind() == reflect.Struct && ft != tensorVal
		switch {
		case tag != "":
			fi.name = tag
		case promoted:
			fi.name = ""
		}
		if fi.tree && !f.IsExported() {
			switch {
			case f.Type.Kind() == reflect.Interface:
				// Only a value that holds tensors is a problem.
				fi.tree, fi.checkValue = false, true
			case f.Anonymous && f.Type.Kind() == reflect.Struct:
				// An embedded struct of an unexported type: its exported
				// fields are settable through it, as Go promotes them.
			case i.err == nil:
				i.err = fmt.Errorf("field %s (%v) is unexported and holds tensors, which reflection cannot set: export it, or tag it `stela:\"-\"` to copy it as is", fi.label, f.Type)
			}
		}
		if strings.Contains(fi.name, ".") && fi.tree && i.err == nil {
			i.err = fmt.Errorf("field %s has path name %q: a dot would split it into two path elements", fi.label, fi.name)
		}
		i.fields = append(i.fields, fi)
	}
	return i
}
