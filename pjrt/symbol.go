package pjrt

/*
#include "pjrt_cgo.h"

static inline void* stela_dlsym(void* handle, const char* name) {
  return dlsym(handle, name);
}

static inline int64_t stela_call_i64(void* fn) {
  return ((int64_t (*)(void))fn)();
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
