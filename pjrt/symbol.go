package pjrt

/*
#include "pjrt_cgo.h"

static inline void* stela_dlsym(void* handle, const char* name) {
  return dlsym(handle, name);
}

static inline int64_t stela_call_i64(void* fn) {
  return ((int64_t (*)(void))fn)();
}

static inline int64_t stela_call_i64_i64(void* fn, int64_t a) {
  return ((int64_t (*)(int64_t))fn)(a);
}
*/
import "C"

import "unsafe"

// Int64Func looks up an extension function the plugin exports besides
// GetPjrtApi, of C type int64_t (*)(void), and returns a Go function that
// calls it; ok is false when the plugin has no such symbol. Stela's CPU
// plugin exports stela_cpu_live_buffers this way.
func (p *Plugin) Int64Func(name string) (fn func() int64, ok bool) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	sym := C.stela_dlsym(p.handle, cname)
	if sym == nil {
		return nil, false
	}
	return func() int64 { return int64(C.stela_call_i64(sym)) }, true
}

// Int64Func1 is Int64Func for an extension of C type int64_t
// (*)(int64_t). Stela's CPU plugin exports its machine bounds this way
// (stela_cpu_bound_copy, stela_cpu_bound_fma: docs/performance.md).
func (p *Plugin) Int64Func1(name string) (fn func(int64) int64, ok bool) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	sym := C.stela_dlsym(p.handle, cname)
	if sym == nil {
		return nil, false
	}
	return func(a int64) int64 { return int64(C.stela_call_i64_i64(sym, C.int64_t(a))) }, true
}
