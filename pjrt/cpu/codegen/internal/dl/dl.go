// Package dl loads a shared object made by the Stela CPU compile worker
// and runs its stela_entry, for tests: a cgo helper, since _test.go files
// cannot use cgo. Buffers live in C memory (64-byte aligned, as the
// plugin allocates them), so no Go pointer is ever handed to C.
package dl

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

static void* dl_open(const char* path, char** msg) {
	void* h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) *msg = strdup(dlerror());
	return h;
}

static void* dl_sym(void* h, const char* name) { return dlsym(h, name); }

static void* dl_alloc(size_t n) {
	size_t m = (n + 63) & ~(size_t)63;
	if (m == 0) m = 64;
	void* p = aligned_alloc(64, m);
	if (p != NULL) memset(p, 0xA5, m);
	return p;
}
*/
import "C"

import (
	"fmt"
	"time"
	"unsafe"

	"github.com/stela-ml/stela/pjrt/cpu/internal/rt"
)

// call runs stela_entry with the plugin's runtime (ABI version 2: thread
// pool and GEMM; package rt) bound to the calling thread.
func call(entry unsafe.Pointer, args, results *unsafe.Pointer, err *C.char) C.int {
	return C.int(rt.Default().Call(entry, unsafe.Pointer(args), unsafe.Pointer(results), unsafe.Pointer(err)))
}

// Lib is a loaded compiled program.
type Lib struct {
	h     unsafe.Pointer
	entry unsafe.Pointer
	// Signature is the stela_signature text.
	Signature string
	// NumChecks is stela_num_checks.
	NumChecks int
	// Aliases is the stela_aliases text ("" when the program has none):
	// `<result> <argument>` pairs whose buffers the caller must share.
	Aliases string
}

// Open dlopens a compiled program.
func Open(path string) (*Lib, error) {
	cp := C.CString(path)
	defer C.free(unsafe.Pointer(cp))
	var msg *C.char
	h := C.dl_open(cp, &msg)
	if h == nil {
		defer C.free(unsafe.Pointer(msg))
		return nil, fmt.Errorf("dlopen %s: %s", path, C.GoString(msg))
	}
	sym := func(name string) unsafe.Pointer {
		cn := C.CString(name)
		defer C.free(unsafe.Pointer(cn))
		return C.dl_sym(h, cn)
	}
	l := &Lib{h: h, entry: sym("stela_entry")}
	sig := sym("stela_signature")
	nc := sym("stela_num_checks")
	if l.entry == nil || sig == nil || nc == nil {
		C.dlclose(h)
		return nil, fmt.Errorf("%s does not export stela_entry, stela_signature and stela_num_checks", path)
	}
	l.Signature = C.GoString((*C.char)(sig))
	l.NumChecks = int(*(*C.int)(nc))
	if al := sym("stela_aliases"); al != nil {
		l.Aliases = C.GoString((*C.char)(al))
	}
	return l, nil
}

// Close unloads the program.
func (l *Lib) Close() error {
	if l.h == nil {
		return nil
	}
	if C.dlclose(l.h) != 0 {
		return fmt.Errorf("dlclose: %s", C.GoString(C.dlerror()))
	}
	l.h = nil
	return nil
}

// Call runs stela_entry on argument bytes and returns the result bytes
// (resultSizes[j] bytes each), the return code and the err message.
// Result buffers are filled with 0xA5 first, so a result the program
// forgets to write shows.
func (l *Lib) Call(args [][]byte, resultSizes []int) (results [][]byte, rc int, msg string) {
	return l.CallAliased(args, resultSizes, nil)
}

// CallAliased is Call with result j in argument aliases[j]'s buffer
// (when aliases[j] >= 0): the program gets the same pointer for both, as
// the plugin passes it for a stela_aliases pair.
func (l *Lib) CallAliased(args [][]byte, resultSizes []int, aliases []int) (results [][]byte, rc int, msg string) {
	n := max(len(args), 1)
	m := max(len(resultSizes), 1)
	argv := (*[1 << 20]unsafe.Pointer)(C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(uintptr(0)))))[:n:n]
	resv := (*[1 << 20]unsafe.Pointer)(C.malloc(C.size_t(m) * C.size_t(unsafe.Sizeof(uintptr(0)))))[:m:m]
	defer C.free(unsafe.Pointer(&argv[0]))
	defer C.free(unsafe.Pointer(&resv[0]))
	for i, a := range args {
		p := C.dl_alloc(C.size_t(len(a)))
		if len(a) > 0 {
			C.memcpy(p, unsafe.Pointer(&a[0]), C.size_t(len(a)))
		}
		argv[i] = p
		defer C.free(p)
	}
	for j, s := range resultSizes {
		if j < len(aliases) && aliases[j] >= 0 {
			resv[j] = argv[aliases[j]]
			continue
		}
		resv[j] = C.dl_alloc(C.size_t(s))
		defer C.free(resv[j])
	}
	errBuf := (*C.char)(C.malloc(256))
	defer C.free(unsafe.Pointer(errBuf))
	*errBuf = 0
	r := call(l.entry, &argv[0], &resv[0], errBuf)
	for j, s := range resultSizes {
		results = append(results, C.GoBytes(resv[j], C.int(s)))
	}
	return results, int(r), C.GoString(errBuf)
}

// Time runs stela_entry n times on the same buffers (allocated and filled
// once) and returns the fastest run's time, or an error message.
func (l *Lib) Time(args [][]byte, resultSizes []int, n int) (time.Duration, error) {
	ptrs := func(k int) []unsafe.Pointer {
		k = max(k, 1)
		return (*[1 << 20]unsafe.Pointer)(C.malloc(C.size_t(k) * C.size_t(unsafe.Sizeof(uintptr(0)))))[:k:k]
	}
	argv, resv := ptrs(len(args)), ptrs(len(resultSizes))
	defer C.free(unsafe.Pointer(&argv[0]))
	defer C.free(unsafe.Pointer(&resv[0]))
	for i, a := range args {
		argv[i] = C.dl_alloc(C.size_t(len(a)))
		if len(a) > 0 {
			C.memcpy(argv[i], unsafe.Pointer(&a[0]), C.size_t(len(a)))
		}
		defer C.free(argv[i])
	}
	for j, s := range resultSizes {
		resv[j] = C.dl_alloc(C.size_t(s))
		defer C.free(resv[j])
	}
	errBuf := (*C.char)(C.malloc(256))
	defer C.free(unsafe.Pointer(errBuf))
	best := time.Duration(1<<63 - 1)
	for range n {
		t0 := time.Now()
		if r := call(l.entry, &argv[0], &resv[0], errBuf); r != 0 {
			return 0, fmt.Errorf("stela_entry returned %d: %s", int(r), C.GoString(errBuf))
		}
		best = min(best, time.Since(t0))
	}
	return best, nil
}
