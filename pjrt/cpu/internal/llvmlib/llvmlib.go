// Package llvmlib runs LLVM 14's optimizer and code generator inside the
// calling process: libLLVM-14 (the library opt and llc themselves link)
// loaded with dlopen, through LLVM's C API. It does what `opt -O<n>`
// then `llc -O<n> -filetype=obj -relocation-model=pic` do to a module of
// LLVM IR text, without their two process starts (about 20 ms of
// dynamic loading and static initialization each) and without writing
// and reading the bitcode between them.
//
// Building Stela does not need LLVM's headers or a link against the
// library; a machine without libLLVM-14 reports so from Open, and the
// compile worker then runs opt and llc.
package llvmlib

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "llvmlib.h"
*/
import "C"

import (
	"errors"
	"os/exec"
	"path/filepath"
	"sync"
	"unsafe"
)

var (
	openOnce sync.Once
	openErr  error
)

// candidates are the names and paths tried, in order: the soname (the
// loader's search path, where Debian's libllvm14 puts it), then next to
// opt: LLVM's own lib directory (../lib from its bin).
func candidates() []string {
	c := []string{"libLLVM-14.so.1", "libLLVM-14.so"}
	for _, n := range []string{"opt-14", "opt"} {
		if p, err := exec.LookPath(n); err == nil {
			if r, err := filepath.EvalSymlinks(p); err == nil {
				dir := filepath.Join(filepath.Dir(filepath.Dir(r)), "lib")
				c = append(c, filepath.Join(dir, "libLLVM-14.so.1"), filepath.Join(dir, "libLLVM-14.so"))
			}
		}
	}
	return c
}

// Open loads libLLVM-14 and initializes its x86 target, once per
// process; later calls return the first call's result.
func Open() error {
	openOnce.Do(func() {
		paths := candidates()
		cp := make([]*C.char, len(paths))
		for i, p := range paths {
			cp[i] = C.CString(p)
		}
		defer func() {
			for _, p := range cp {
				C.free(unsafe.Pointer(p))
			}
		}()
		var cerr *C.char
		if C.stela_llvm_open(&cp[0], C.int(len(cp)), &cerr) == 0 {
			openErr = errors.New(C.GoString(cerr))
			C.free(unsafe.Pointer(cerr))
		}
	})
	return openErr
}

// Compile optimizes the LLVM IR text ll at level (0 to 3: opt's
// default<On> pipeline, with loop and SLP vectorization from -O2 on, as
// opt sets them) for the CPU and features given (llc's -mcpu and
// -mattr), and returns the object file llc would write. Open must have
// succeeded. Calls may run in parallel (each has an LLVM context of its
// own). The error names the step that failed (parse, verify, passes,
// codegen) and LLVM's message.
func Compile(ll []byte, cpu, features string, level int) ([]byte, error) {
	if err := Open(); err != nil {
		return nil, err
	}
	if len(ll) == 0 {
		return nil, errors.New("parse: empty module")
	}
	ccpu, cfeat := C.CString(cpu), C.CString(features)
	defer C.free(unsafe.Pointer(ccpu))
	defer C.free(unsafe.Pointer(cfeat))
	var obj, cerr *C.char
	var n C.size_t
	if C.stela_llvm_compile((*C.char)(unsafe.Pointer(&ll[0])), C.size_t(len(ll)), ccpu, cfeat, C.int(level), &obj, &n, &cerr) == 0 {
		err := errors.New(C.GoString(cerr))
		C.free(unsafe.Pointer(cerr))
		return nil, err
	}
	defer C.free(unsafe.Pointer(obj))
	return C.GoBytes(unsafe.Pointer(obj), C.int(n)), nil
}
