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
	// concrete: the type reaches *tensor.Tensor without going through an
	// interface, by any fields, exported or not.
	concrete bool
	// err is set when the type, or one a walk of it reaches, cannot be a
	// tree: tensors in unexported fields, maps with unsortable keys, a
	// tensor.Tensor held by value. Walks report it on meeting the type.
	err error
	// fields of a struct that walks look at, in declaration order: the
	// exported ones and embedded structs (not tagged `stela:"-"`), and
	// the unexported ones whose value must be checked.
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
	// it. Otherwise it is a static leaf.
	tree bool
	// checkValue marks an unexported field whose type could hold tensors
	// only through an interface: reflection can neither see nor set them,
	// which is an error if its value does hold some. Walks check it and
	// otherwise ignore it, as they ignore unexported static fields.
	checkValue bool
	// label names the field in errors ("pkg.T.w").
	label string
}

// walkable reports whether walks go into a struct field: exported, or an
// embedded struct (whose exported fields Go promotes, and reflection can
// set, even when its type is unexported).
func walkable(f reflect.StructField) bool {
	return f.IsExported() || (f.Anonymous && f.Type.Kind() == reflect.Struct)
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
// *tensor.Tensor, or a pointer, slice, array or map of such a type, or a
// struct with an exported field (or embedded struct) of one, or an interface
// type (whose dynamic value may be a tree). Values of the other types are
// static leaves. jit uses it to tell a tree parameter from a static one. A
// type that holds tensors where walks cannot reach them (an unexported
// *tensor.Tensor field) counts as containing them, so that walking a value
// of it reports the error.
func Contains(typ reflect.Type) bool {
	if typ == nil {
		return false
	}
	return infoOf(typ).kind != static
}

// analyze computes the info of t and of every type reachable from it
// without going through an interface. Recursive types need fixed points:
// whether a type holds tensors can depend on itself through a cycle.
func analyze(root reflect.Type) map[reflect.Type]*info {
	// Collect the reachable types that need analysis.
	var order []reflect.Type
	seen := map[reflect.Type]bool{}
	cached := map[reflect.Type]*info{}
	var visit func(t reflect.Type)
	visit = func(t reflect.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		if i, done := infos.Load(t); done && t != root {
			cached[t] = i.(*info)
			return
		}
		order = append(order, t)
		if t == tensorPtr || t == tensorVal {
			return
		}
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			visit(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				if f := t.Field(i); f.Tag.Get("stela") != "-" {
					visit(f.Type)
				}
			}
		}
	}
	visit(root)

	// Least fixed points of:
	//  concrete: is a tensor, or has an element or field that is concrete;
	//  holds: is a tensor or an interface, or has an element or a walkable
	//  field that holds tensors, or an unexported field that is concrete
	//  (an error, which walks must meet to report).
	concrete := map[reflect.Type]bool{}
	holds := map[reflect.Type]bool{}
	for t, i := range cached {
		concrete[t], holds[t] = i.concrete, i.kind != static
	}
	for _, t := range order {
		switch {
		case t == tensorPtr || t == tensorVal:
			concrete[t], holds[t] = true, true
		case t.Kind() == reflect.Interface:
			holds[t] = true
		}
	}
	for changed := true; changed; {
		changed = false
		set := func(m map[reflect.Type]bool, t reflect.Type, v bool) {
			if v && !m[t] {
				m[t], changed = true, true
			}
		}
		for _, t := range order {
			if t == tensorPtr || t == tensorVal {
				continue
			}
			switch t.Kind() {
			case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
				set(concrete, t, concrete[t.Elem()])
				set(holds, t, holds[t.Elem()])
			case reflect.Struct:
				for i := range t.NumField() {
					f := t.Field(i)
					if f.Tag.Get("stela") == "-" {
						continue
					}
					set(concrete, t, concrete[f.Type])
					if walkable(f) {
						set(holds, t, holds[f.Type])
					} else {
						set(holds, t, concrete[f.Type])
					}
				}
			}
		}
	}

	out := map[reflect.Type]*info{}
	for t, i := range cached {
		out[t] = i
	}
	for _, t := range order {
		out[t] = newInfo(t, holds, concrete)
	}
	// A type whose walk reaches a broken type is broken too: propagate the
	// first error along the types that hold tensors.
	for changed := true; changed; {
		changed = false
		for _, t := range order {
			i := out[t]
			if i.err != nil || i.kind == static || t == tensorPtr || t == tensorVal {
				continue
			}
			var cs []reflect.Type
			switch t.Kind() {
			case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
				cs = []reflect.Type{t.Elem()}
			case reflect.Struct:
				for _, f := range i.fields {
					cs = append(cs, t.Field(f.index).Type)
				}
			}
			for _, c := range cs {
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
func newInfo(t reflect.Type, holds, concrete map[reflect.Type]bool) *info {
	i := newKind(t, holds)
	i.concrete = concrete[t]
	if i.kind == strct && t != tensorVal {
		structFields(i, t, holds, concrete)
	}
	return i
}

func newKind(t reflect.Type, holds map[reflect.Type]bool) *info {
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
		return &info{kind: strct}
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

// structFields lists a struct's fields for the walks, and finds its own
// error: a tensor in a field reflection cannot set.
func structFields(i *info, t reflect.Type, holds, concrete map[reflect.Type]bool) {
	for k := range t.NumField() {
		f := t.Field(k)
		tag := f.Tag.Get("stela")
		if tag == "-" {
			continue
		}
		fi := field{index: k, name: f.Name, tree: holds[f.Type], label: t.String() + "." + f.Name}
		if !walkable(f) {
			switch {
			case concrete[f.Type]:
				if i.err == nil {
					i.err = fmt.Errorf("field %s (%v) is unexported and holds tensors, which reflection cannot set: export it, or tag it `stela:\"-\"` to copy it as is", fi.label, f.Type)
				}
			case holds[f.Type]:
				// Through an interface: only a value that holds tensors
				// is a problem.
				i.fields = append(i.fields, field{index: k, checkValue: true, label: fi.label})
			}
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case tag != "":
			fi.name = tag
		case f.Anonymous && ft.Kind() == reflect.Struct && ft != tensorVal:
			fi.name = "" // promoted
		}
		if strings.Contains(fi.name, ".") && fi.tree && i.err == nil {
			i.err = fmt.Errorf("field %s has path name %q: a dot would split it into two path elements", fi.label, fi.name)
		}
		i.fields = append(i.fields, fi)
	}
}
