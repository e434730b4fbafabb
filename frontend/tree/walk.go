package tree

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/stela-ml/stela/frontend/tensor"
)

// walker walks one tree (or two, for Map2), keeping the path it is at for
// leaves and errors and the containers it is inside to catch cycles.
type walker struct {
	op    string   // the API function, for errors: "tree.Flatten"
	path  []string // path elements down to the current node
	stack []ref    // pointers, slices and maps on the way to it
	// hidden: the walk checks an unexported field's value, and stops
	// quietly where it comes back to a container it is inside.
	hidden bool
}

// ref identifies a container on the current path. The type is part of it:
// a pointer to a struct and one to its first field share an address.
type ref struct {
	p   uintptr
	n   int
	typ reflect.Type
}

func (w *walker) pathString() string { return strings.Join(w.path, ".") }

func (w *walker) push(name string) {
	if name != "" {
		w.path = append(w.path, name)
	}
}

func (w *walker) pop(name string) {
	if name != "" {
		w.path = w.path[:len(w.path)-1]
	}
}

// errorf makes an error naming the function and the current path.
func (w *walker) errorf(format string, args ...any) error {
	return fmt.Errorf("%s: %s: "+format, append([]any{w.op, w.where()}, args...)...)
}

func (w *walker) where() string {
	if len(w.path) == 0 {
		return "at the root"
	}
	return "at " + w.pathString()
}

// enter records that the walk descends into container v, and fails if v is
// already on the way there: a cycle, which would make the tree infinite.
func (w *walker) enter(v reflect.Value) error {
	r := ref{p: v.Pointer(), typ: v.Type()}
	if v.Kind() == reflect.Slice {
		r.n = v.Len()
	}
	for _, s := range w.stack {
		if s == r {
			return w.errorf("cycle: this %v contains itself", v.Type())
		}
	}
	w.stack = append(w.stack, r)
	return nil
}

func (w *walker) leave() { w.stack = w.stack[:len(w.stack)-1] }

// quiet drops a cycle error in a hidden walk: what it came back to is
// being walked already.
func (w *walker) quiet(err error) error {
	if w.hidden {
		return nil
	}
	return err
}

// indexNames spares small indices an allocation per visit.
var indexNames = func() []string {
	s := make([]string, 256)
	for i := range s {
		s[i] = strconv.Itoa(i)
	}
	return s
}()

func indexName(i int) string {
	if i < len(indexNames) {
		return indexNames[i]
	}
	return strconv.Itoa(i)
}

// sortedKeys returns a map's keys in the order walks visit them: strings
// bytewise, integers numerically.
func sortedKeys(m reflect.Value) []reflect.Value {
	keys := m.MapKeys()
	switch m.Type().Key().Kind() {
	case reflect.String:
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		slices.SortFunc(keys, func(a, b reflect.Value) int { return cmp.Compare(a.Int(), b.Int()) })
	default:
		slices.SortFunc(keys, func(a, b reflect.Value) int { return cmp.Compare(a.Uint(), b.Uint()) })
	}
	return keys
}

// keyName is a map key's path element.
func keyName(k reflect.Value) string {
	switch k.Kind() {
	case reflect.String:
		return k.String()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10)
	}
	return strconv.FormatUint(k.Uint(), 10)
}

// tensorAt reads a *tensor.Tensor, also from a field reflection may only read.
func tensorAt(v reflect.Value) *tensor.Tensor { return (*tensor.Tensor)(v.UnsafePointer()) }

// checkHidden fails if an unexported field (whose type can hold tensors
// only through an interface) holds a tensor: walks can neither see nor
// replace it. It looks at the field's value as visit would.
func (w *walker) checkHidden(f field, v reflect.Value) error {
	// The check shares the walk's stack: a hidden field that points back
	// into the tree (a parent link) is not followed again.
	sub := &walker{op: w.op, stack: w.stack, hidden: true}
	var at string
	err := sub.visit(v, func(x *tensor.Tensor) error {
		if x == nil {
			return nil
		}
		at = sub.pathString()
		return errFound
	})
	switch {
	case err == errFound && at == "":
		return w.errorf("field %s is unexported and holds a tensor, which reflection cannot set: export the field, or tag it `stela:\"-\"` to copy it as is", f.label)
	case err == errFound:
		return w.errorf("field %s is unexported and holds a tensor at %s, which reflection cannot set: export the field, or tag it `stela:\"-\"` to copy it as is", f.label, at)
	case err != nil:
		return w.errorf("field %s: %v", f.label, err)
	}
	return nil
}

var errFound = errors.New("found a tensor")

// visit calls fn with every tensor leaf under v, nil ones included, in the
// tree order.
func (w *walker) visit(v reflect.Value, fn func(x *tensor.Tensor) error) error {
	in := infoOf(v.Type())
	if in.err != nil {
		return w.errorf("%v", in.err)
	}
	switch in.kind {
	case leaf:
		return fn(tensorAt(v))
	case pointer:
		if v.IsNil() {
			return nil
		}
		if err := w.enter(v); err != nil {
			return w.quiet(err)
		}
		defer w.leave()
		return w.visit(v.Elem(), fn)
	case strct:
		for _, f := range in.fields {
			fv := v.Field(f.index)
			if f.checkValue {
				if err := w.checkHidden(f, fv); err != nil {
					return err
				}
			}
			if !f.tree {
				continue
			}
			w.push(f.name)
			err := w.visit(fv, fn)
			w.pop(f.name)
			if err != nil {
				return err
			}
		}
	case slice, array:
		if v.Len() == 0 {
			return nil
		}
		if in.kind == slice {
			if err := w.enter(v); err != nil {
				return w.quiet(err)
			}
			defer w.leave()
		}
		for i := range v.Len() {
			name := indexName(i)
			w.push(name)
			err := w.visit(v.Index(i), fn)
			w.pop(name)
			if err != nil {
				return err
			}
		}
	case mapping:
		if v.Len() == 0 {
			return nil
		}
		if err := w.enter(v); err != nil {
			return w.quiet(err)
		}
		defer w.leave()
		for _, k := range sortedKeys(v) {
			name := keyName(k)
			w.push(name)
			err := w.visit(v.MapIndex(k), fn)
			w.pop(name)
			if err != nil {
				return err
			}
		}
	case iface:
		if v.IsNil() {
			return nil
		}
		return w.visit(v.Elem(), fn)
	}
	return nil
}

// rebuild makes dst, which holds a shallow copy of src, a new tree of src's
// structure: new pointers, slices and maps wherever tensors are below them,
// static leaves as they are, and fn(x) in place of each non-nil tensor leaf
// x (nil leaves stay nil).
func (w *walker) rebuild(dst, src reflect.Value, fn func(x *tensor.Tensor) (*tensor.Tensor, error)) error {
	in := infoOf(src.Type())
	if in.err != nil {
		return w.errorf("%v", in.err)
	}
	switch in.kind {
	case leaf:
		x := tensorAt(src)
		if x == nil {
			return nil
		}
		y, err := fn(x)
		if err != nil {
			return err
		}
		dst.Set(reflect.ValueOf(y))
	case pointer:
		if src.IsNil() {
			return nil
		}
		if err := w.enter(src); err != nil {
			return err
		}
		defer w.leave()
		p := reflect.New(src.Type().Elem())
		p.Elem().Set(src.Elem())
		if err := w.rebuild(p.Elem(), src.Elem(), fn); err != nil {
			return err
		}
		dst.Set(p)
	case strct:
		for _, f := range in.fields {
			if f.checkValue {
				if err := w.checkHidden(f, src.Field(f.index)); err != nil {
					return err
				}
			}
			if !f.tree {
				continue
			}
			w.push(f.name)
			err := w.rebuild(dst.Field(f.index), src.Field(f.index), fn)
			w.pop(f.name)
			if err != nil {
				return err
			}
		}
	case array:
		for i := range src.Len() {
			name := indexName(i)
			w.push(name)
			err := w.rebuild(dst.Index(i), src.Index(i), fn)
			w.pop(name)
			if err != nil {
				return err
			}
		}
	case slice:
		if src.IsNil() {
			return nil
		}
		if err := w.enter(src); err != nil {
			return err
		}
		defer w.leave()
		n := src.Len()
		s := reflect.MakeSlice(src.Type(), n, n)
		reflect.Copy(s, src)
		for i := range n {
			name := indexName(i)
			w.push(name)
			err := w.rebuild(s.Index(i), src.Index(i), fn)
			w.pop(name)
			if err != nil {
				return err
			}
		}
		dst.Set(s)
	case mapping:
		if src.IsNil() {
			return nil
		}
		if err := w.enter(src); err != nil {
			return err
		}
		defer w.leave()
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		et := src.Type().Elem()
		for _, k := range sortedKeys(src) {
			sv := src.MapIndex(k)
			e := reflect.New(et).Elem()
			e.Set(sv)
			name := keyName(k)
			w.push(name)
			err := w.rebuild(e, sv, fn)
			w.pop(name)
			if err != nil {
				return err
			}
			m.SetMapIndex(k, e)
		}
		dst.Set(m)
	case iface:
		if src.IsNil() {
			return nil
		}
		sv := src.Elem()
		if !Contains(sv.Type()) {
			return nil // a static value: the copy is it
		}
		e := reflect.New(sv.Type()).Elem()
		e.Set(sv)
		if err := w.rebuild(e, sv, fn); err != nil {
			return err
		}
		dst.Set(e)
	}
	return nil
}

// match fails, naming the first path where they differ, unless a and b (of
// one type) have the same structure: the same tensor leaf positions (nil or
// not), lengths, map keys, dynamic types and static leaves.
func (w *walker) match(a, b reflect.Value) error {
	in := infoOf(a.Type())
	if in.err != nil {
		return w.errorf("%v", in.err)
	}
	switch in.kind {
	case static:
		return w.matchStatic(a, b)
	case leaf:
		if x, y := tensorAt(a), tensorAt(b); (x == nil) != (y == nil) {
			return w.errorf("%s", nilOr(x == nil, "the first tree has no tensor, the second has one", "the first tree has a tensor, the second has none"))
		}
	case pointer, slice, mapping, iface:
		if a.IsNil() != b.IsNil() {
			return w.errorf(nilOr(a.IsNil(), "the first tree's %v is nil, the second's is not", "the second tree's %v is nil, the first's is not"), a.Type())
		}
		if a.IsNil() {
			return nil
		}
		switch in.kind {
		case pointer:
			if err := w.enter(a); err != nil {
				return err
			}
			defer w.leave()
			return w.match(a.Elem(), b.Elem())
		case iface:
			if a.Elem().Type() != b.Elem().Type() {
				return w.errorf("the first tree holds a %v, the second a %v", a.Elem().Type(), b.Elem().Type())
			}
			return w.match(a.Elem(), b.Elem())
		case slice:
			if a.Len() != b.Len() {
				return w.errorf("lengths %d and %d differ", a.Len(), b.Len())
			}
			if err := w.enter(a); err != nil {
				return err
			}
			defer w.leave()
			return w.matchElems(a, b)
		case mapping:
			ka, kb := sortedKeys(a), sortedKeys(b)
			for i := range max(len(ka), len(kb)) {
				switch {
				case i >= len(ka):
					return w.errorf("key %q is only in the second tree", keyName(kb[i]))
				case i >= len(kb):
					return w.errorf("key %q is only in the first tree", keyName(ka[i]))
				case !ka[i].Equal(kb[i]):
					// The smaller key is missing from the other map.
					if keyLess(ka[i], kb[i]) {
						return w.errorf("key %q is only in the first tree", keyName(ka[i]))
					}
					return w.errorf("key %q is only in the second tree", keyName(kb[i]))
				}
			}
			if err := w.enter(a); err != nil {
				return err
			}
			defer w.leave()
			for _, k := range ka {
				name := keyName(k)
				w.push(name)
				err := w.match(a.MapIndex(k), b.MapIndex(k))
				w.pop(name)
				if err != nil {
					return err
				}
			}
		}
	case array:
		return w.matchElems(a, b)
	case strct:
		for _, f := range in.fields {
			fa, fb := a.Field(f.index), b.Field(f.index)
			if f.checkValue {
				if err := w.checkHidden(f, fa); err != nil {
					return err
				}
				if err := w.checkHidden(f, fb); err != nil {
					return err
				}
				continue
			}
			name := f.name
			if !f.tree && name == "" {
				name = a.Type().Field(f.index).Name
			}
			w.push(name)
			var err error
			if f.tree {
				err = w.match(fa, fb)
			} else {
				err = w.matchStatic(fa, fb)
			}
			w.pop(name)
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *walker) matchElems(a, b reflect.Value) error {
	for i := range a.Len() {
		name := indexName(i)
		w.push(name)
		err := w.match(a.Index(i), b.Index(i))
		w.pop(name)
		if err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) matchStatic(a, b reflect.Value) error {
	var sa, sb strings.Builder
	fa := &formatter{b: &sa, lenient: true}
	fb := &formatter{b: &sb, lenient: true}
	if err := fa.static(a); err != nil {
		return w.errorf("%v", err)
	}
	if err := fb.static(b); err != nil {
		return w.errorf("%v", err)
	}
	if sa.String() != sb.String() {
		return w.errorf("static leaves differ: %s and %s", abbrev(sa.String()), abbrev(sb.String()))
	}
	return nil
}

func keyLess(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.String:
		return a.String() < b.String()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() < b.Int()
	}
	return a.Uint() < b.Uint()
}

func nilOr(isNil bool, ifNil, ifNot string) string {
	if isNil {
		return ifNil
	}
	return ifNot
}

// abbrev shortens a long static value for an error message.
func abbrev(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
