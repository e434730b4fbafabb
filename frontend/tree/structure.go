package tree

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Structure returns a description of t's structure: its types, the lengths
// of its slices, the keys of its maps, the dynamic types in its interfaces,
// its static leaves' values and where its tensor leaves are (nil or not).
// Two trees have equal Structure strings exactly when they have all of
// those in common, so jit can key its cache on it. The string holds no
// tensor types or values and no addresses (static pointers show what they
// point to), so it is the same in every process. Fields tagged `stela:"-"`
// and unexported fields are left out, at every depth of static leaves too
// (embedded structs' exported fields are in), as encoding/json leaves them
// out: a static value is described by what its package exports.
//
// A static leaf that cannot be compared by value (a non-nil func, channel
// or unsafe.Pointer) is an error: two different funcs would otherwise share
// one description.
//
// The format is meant for comparison and for reading in debug output, not
// for parsing: for example
//
//	main.MLP {Layers:[2|{W:T B:T},{W:T B:_}] Act:"relu"}
//
// for an MLP{Layers []Linear; Act string} of two layers, the second
// without a bias (see the package example).
func Structure(t any) (string, error) {
	v := reflect.ValueOf(t)
	if !v.IsValid() {
		return "nil", nil
	}
	var b strings.Builder
	b.WriteString(typeID(v.Type()))
	b.WriteByte(' ')
	w := &walker{op: "tree.Structure"}
	if err := w.structure(&b, v); err != nil {
		return "", err
	}
	return b.String(), nil
}

// structure writes v's part of Structure's description.
func (w *walker) structure(b *strings.Builder, v reflect.Value) error {
	in := infoOf(v.Type())
	if in.err != nil {
		return w.errorf("%v", in.err)
	}
	switch in.kind {
	case static:
		f := &formatter{b: b}
		if err := f.static(v); err != nil {
			return w.errorf("%v", err)
		}
	case leaf:
		if tensorAt(v) == nil {
			b.WriteByte('_')
		} else {
			b.WriteByte('T')
		}
	case pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		if err := w.enter(v); err != nil {
			return err
		}
		defer w.leave()
		b.WriteByte('*')
		return w.structure(b, v.Elem())
	case strct:
		b.WriteByte('{')
		first := true
		for _, f := range in.fields {
			fv := v.Field(f.index)
			if f.checkValue {
				if err := w.checkHidden(f, fv); err != nil {
					return err
				}
				continue
			}
			if !first {
				b.WriteByte(' ')
			}
			first = false
			// A promoted struct has no path element of its own; the
			// description names it, and so do errors in its static parts.
			name := v.Type().Field(f.index).Name
			if f.name != "" {
				name = f.name
			}
			b.WriteString(name)
			b.WriteByte(':')
			pathName := f.name
			if !f.tree {
				pathName = name
			}
			w.push(pathName)
			var err error
			if f.tree {
				err = w.structure(b, fv)
			} else {
				fm := &formatter{b: b}
				if err = fm.static(fv); err != nil {
					err = w.errorf("%v", err)
				}
			}
			w.pop(pathName)
			if err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case slice, array:
		if in.kind == slice {
			if v.IsNil() {
				b.WriteString("nil")
				return nil
			}
			if v.Len() > 0 {
				if err := w.enter(v); err != nil {
					return err
				}
				defer w.leave()
			}
		}
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(v.Len()))
		b.WriteByte('|')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(',')
			}
			name := indexName(i)
			w.push(name)
			err := w.structure(b, v.Index(i))
			w.pop(name)
			if err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case mapping:
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		if v.Len() > 0 {
			if err := w.enter(v); err != nil {
				return err
			}
			defer w.leave()
		}
		b.WriteString("map[")
		b.WriteString(strconv.Itoa(v.Len()))
		b.WriteByte('|')
		for i, k := range sortedKeys(v) {
			if i > 0 {
				b.WriteByte(',')
			}
			name := keyName(k)
			if k.Kind() == reflect.String {
				b.WriteString(strconv.Quote(name))
			} else {
				b.WriteString(name)
			}
			b.WriteByte(':')
			w.push(name)
			err := w.structure(b, v.MapIndex(k))
			w.pop(name)
			if err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case iface:
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		b.WriteByte('(')
		b.WriteString(typeID(v.Elem().Type()))
		b.WriteByte(')')
		return w.structure(b, v.Elem())
	}
	return nil
}

// formatter writes static values for Structure and Map2: every field,
// element and key, with strings quoted and interfaces' dynamic types named,
// so that different values give different text. It reads unexported fields
// too (static values are compared whole).
type formatter struct {
	b *strings.Builder
	// lenient formats funcs, channels and unsafe pointers as their kind
	// rather than failing: Map2 copies static leaves from its first tree
	// and only checks that the trees agree where it can.
	lenient bool
	stack   []ref
}

func (f *formatter) static(v reflect.Value) error {
	b := f.b
	var buf [64]byte
	switch v.Kind() {
	case reflect.Invalid:
		b.WriteString("nil")
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.Write(strconv.AppendInt(buf[:0], v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b.Write(strconv.AppendUint(buf[:0], v.Uint(), 10))
	case reflect.Float32:
		b.Write(strconv.AppendFloat(buf[:0], v.Float(), 'g', -1, 32))
	case reflect.Float64:
		b.Write(strconv.AppendFloat(buf[:0], v.Float(), 'g', -1, 64))
	case reflect.Complex64, reflect.Complex128:
		bits := 64
		if v.Kind() == reflect.Complex64 {
			bits = 32
		}
		c := v.Complex()
		b.WriteByte('(')
		b.Write(strconv.AppendFloat(buf[:0], real(c), 'g', -1, bits))
		b.WriteByte(',')
		b.Write(strconv.AppendFloat(buf[:0], imag(c), 'g', -1, bits))
		b.WriteByte(')')
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		if err := f.enter(v); err != nil {
			return err
		}
		defer f.leave()
		b.WriteByte('&')
		return f.static(v.Elem())
	case reflect.Struct:
		b.WriteByte('{')
		t := v.Type()
		first := true
		for i := range v.NumField() {
			// Like encoding/json: exported fields and embedded structs
			// (whose exported fields Go promotes); unexported state is
			// left out.
			if sf := t.Field(i); sf.Tag.Get("stela") == "-" || !walkable(sf) {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			if err := f.static(v.Field(i)); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice {
			if v.IsNil() {
				b.WriteString("nil")
				return nil
			}
			if v.Len() > 0 {
				if err := f.enter(v); err != nil {
					return err
				}
				defer f.leave()
			}
		}
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(v.Len()))
		b.WriteByte('|')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := f.static(v.Index(i)); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case reflect.Map:
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		if v.Len() > 0 {
			if err := f.enter(v); err != nil {
				return err
			}
			defer f.leave()
		}
		// Keys of any comparable type: order the entries by their text.
		entries := make([]string, 0, v.Len())
		it := v.MapRange()
		for it.Next() {
			var e strings.Builder
			sub := &formatter{b: &e, lenient: f.lenient, stack: f.stack}
			if err := sub.static(it.Key()); err != nil {
				return err
			}
			e.WriteByte(':')
			if err := sub.static(it.Value()); err != nil {
				return err
			}
			entries = append(entries, e.String())
		}
		slices.Sort(entries)
		b.WriteString("map[")
		b.WriteString(strconv.Itoa(v.Len()))
		b.WriteByte('|')
		b.WriteString(strings.Join(entries, ","))
		b.WriteByte(']')
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		b.WriteByte('(')
		b.WriteString(typeID(v.Elem().Type()))
		b.WriteByte(')')
		return f.static(v.Elem())
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		if !f.lenient {
			return fmt.Errorf("static leaf of type %v: a non-nil %v cannot be compared by value (tag the field `stela:\"-\"` to leave it out, or close over it)", v.Type(), v.Kind())
		}
		b.WriteString(v.Kind().String())
	default:
		return fmt.Errorf("static leaf of type %v cannot be described", v.Type())
	}
	return nil
}

func (f *formatter) enter(v reflect.Value) error {
	r := ref{p: v.Pointer(), typ: v.Type()}
	if v.Kind() == reflect.Slice {
		r.n = v.Len()
	}
	if slices.Contains(f.stack, r) {
		return fmt.Errorf("cycle: a static %v contains itself", v.Type())
	}
	f.stack = append(f.stack, r)
	return nil
}

func (f *formatter) leave() { f.stack = f.stack[:len(f.stack)-1] }

var typeIDs sync.Map // reflect.Type → string

// typeID names a type unambiguously: named types by their package path
// ("github.com/x/model.Layer", not "model.Layer", which two packages can
// share), unnamed ones spelled out from their parts.
func typeID(t reflect.Type) string {
	if s, ok := typeIDs.Load(t); ok {
		return s.(string)
	}
	var s string
	switch {
	case t.Name() != "" && t.PkgPath() != "":
		s = t.PkgPath() + "." + t.Name()
	case t.Name() != "":
		s = t.Name()
	default:
		switch t.Kind() {
		case reflect.Pointer:
			s = "*" + typeID(t.Elem())
		case reflect.Slice:
			s = "[]" + typeID(t.Elem())
		case reflect.Array:
			s = "[" + strconv.Itoa(t.Len()) + "]" + typeID(t.Elem())
		case reflect.Map:
			s = "map[" + typeID(t.Key()) + "]" + typeID(t.Elem())
		default:
			s = t.String()
		}
	}
	typeIDs.Store(t, s)
	return s
}
