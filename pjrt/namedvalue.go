package pjrt

/*
#include "pjrt_cgo.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// NamedValue is a PJRT_NamedValue: a client create option, or a plugin or
// device attribute. Value is one of string, int64, []int64, float32 or
// bool, the five types PJRT knows. As create options, int, int32 and []int
// are accepted for int64 and []int64, and float64 for float32; other types
// are an error (plugins such as XLA's CUDA plugin reject wrongly typed
// options, and memory_fraction, for one, is a float32).
type NamedValue struct {
	Name  string
	Value any
}

func (v NamedValue) String() string { return fmt.Sprintf("%s=%v", v.Name, v.Value) }

func lookupNamed(list []NamedValue, name string) (any, bool) {
	for _, v := range list {
		if v.Name == name {
			return v.Value, true
		}
	}
	return nil, false
}

// namedValuesFromC copies a plugin's named values. A value of a type this
// header does not know gets a nil Value.
func namedValuesFromC(a *C.PJRT_NamedValue, n C.size_t) []NamedValue {
	if a == nil || n == 0 {
		return nil
	}
	out := make([]NamedValue, 0, int(n))
	for i := C.size_t(0); i < n; i++ {
		nv := C.stela_nv_at(a, i)
		v := NamedValue{Name: goString(nv.name, nv.name_size)}
		switch nv._type {
		case C.PJRT_NamedValue_kString:
			v.Value = goString(C.stela_nv_string(nv), nv.value_size)
		case C.PJRT_NamedValue_kInt64:
			v.Value = int64(C.stela_nv_int64(nv))
		case C.PJRT_NamedValue_kInt64List:
			list := make([]int64, int(nv.value_size))
			if p := C.stela_nv_int64_list(nv); p != nil && len(list) > 0 {
				copy(list, unsafe.Slice((*int64)(unsafe.Pointer(p)), len(list)))
			}
			v.Value = list
		case C.PJRT_NamedValue_kFloat:
			v.Value = float32(C.stela_nv_float(nv))
		case C.PJRT_NamedValue_kBool:
			v.Value = bool(C.stela_nv_bool(nv))
		}
		out = append(out, v)
	}
	return out
}

// cNamedValues is a C copy of a list of named values; free releases it.
type cNamedValues struct {
	array  *C.PJRT_NamedValue
	n      int
	allocs []unsafe.Pointer
}

func (c *cNamedValues) free() {
	for _, p := range c.allocs {
		C.free(p)
	}
	c.allocs = nil
	c.array = nil
}

func (c *cNamedValues) alloc(n int) unsafe.Pointer {
	p := C.calloc(C.size_t(max(n, 1)), 1)
	c.allocs = append(c.allocs, p)
	return p
}

// namedValuesToC copies list into C memory (the plugin may not keep
// pointers to Go memory).
func namedValuesToC(op string, list []NamedValue) (*cNamedValues, error) {
	c := &cNamedValues{n: len(list)}
	if len(list) == 0 {
		return c, nil
	}
	c.array = (*C.PJRT_NamedValue)(c.alloc(len(list) * int(unsafe.Sizeof(C.PJRT_NamedValue{}))))
	array := unsafe.Slice(c.array, len(list))
	cstr := func(s string) (*C.char, C.size_t) {
		p := c.alloc(len(s) + 1)
		copy(unsafe.Slice((*byte)(p), len(s)), s)
		return (*C.char)(p), C.size_t(len(s))
	}
	ints := func(v []int64) (*C.int64_t, C.size_t) {
		p := c.alloc(8 * len(v))
		copy(unsafe.Slice((*int64)(p), len(v)), v)
		return (*C.int64_t)(p), C.size_t(len(v))
	}
	for i, v := range list {
		nv := &array[i]
		name, nameLen := cstr(v.Name)
		C.stela_nv_init(nv, name, nameLen)
		switch x := v.Value.(type) {
		case string:
			s, n := cstr(x)
			C.stela_nv_set_string(nv, s, n)
		case int64:
			C.stela_nv_set_int64(nv, C.int64_t(x))
		case int:
			C.stela_nv_set_int64(nv, C.int64_t(x))
		case int32:
			C.stela_nv_set_int64(nv, C.int64_t(x))
		case []int64:
			p, n := ints(x)
			C.stela_nv_set_int64_list(nv, p, n)
		case []int:
			v64 := make([]int64, len(x))
			for j, e := range x {
				v64[j] = int64(e)
			}
			p, n := ints(v64)
			C.stela_nv_set_int64_list(nv, p, n)
		case float32:
			C.stela_nv_set_float(nv, C.float(x))
		case float64:
			C.stela_nv_set_float(nv, C.float(x))
		case bool:
			C.stela_nv_set_bool(nv, C.bool(x))
		default:
			c.free()
			return nil, errorf(op, CodeInvalidArgument, "option %q: unsupported type %T (want string, int64, []int64, float32 or bool)", v.Name, v.Value)
		}
	}
	return c, nil
}
