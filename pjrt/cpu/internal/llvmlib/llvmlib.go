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
	"slices"
	"strconv"
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

// Options say what to compile for and how.
type Options struct {
	// CPU and Features are llc's -mcpu and -mattr.
	CPU, Features string
	// Level is 0 to 3: opt's default<On> pipeline (with loop and SLP
	// vectorization from -O2 on, as opt sets them) and llc's -O<n>.
	Level int
	// Parts is the most parts to cut the module into, compiled at once
	// (CompileParts); 0 or 1: whole.
	Parts int
	// Bitcode, when set, is where part i's optimized module is written
	// as bitcode: Bitcode + "<i>.bc" (what opt would write).
	Bitcode string
}

// Compile optimizes the LLVM IR text ll and returns the object file llc
// would write (the options' Parts aside: whole). Calls may run in
// parallel (each has an LLVM context of its own). The error names the
// step that failed (parse, verify, passes, codegen) and LLVM's message.
func Compile(ll []byte, o Options) ([]byte, error) {
	return compilePart(ll, o, 1, 0)
}

// CompileParts is Compile of a module cut into up to o.Parts parts,
// compiled at once, one thread each, into objects to be linked together
// (the parts' shared functions and variables are hidden symbols).
// Functions that reference each other stay in one part; helpers marked
// alwaysinline are copied into each. A module that is not split (too few
// functions, or linkages the split does not handle) comes back as one
// object.
func CompileParts(ll []byte, o Options) ([][]byte, error) {
	n := o.Parts
	if n <= 1 {
		obj, err := compilePart(ll, o, 1, 0)
		return [][]byte{obj}, err
	}
	objs := make([][]byte, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			objs[i], errs[i] = compilePart(ll, o, n, i)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return slices.DeleteFunc(objs, func(b []byte) bool { return b == nil }), nil
}

// compilePart compiles part i of n of ll (nil, no error, for a part
// past the first of a module that is not split).
func compilePart(ll []byte, o Options, n, i int) ([]byte, error) {
	if err := Open(); err != nil {
		return nil, err
	}
	if len(ll) == 0 {
		return nil, errors.New("parse: empty module")
	}
	ccpu, cfeat := C.CString(o.CPU), C.CString(o.Features)
	defer C.free(unsafe.Pointer(ccpu))
	defer C.free(unsafe.Pointer(cfeat))
	var bc *C.char
	if o.Bitcode != "" {
		bc = C.CString(o.Bitcode + strconv.Itoa(i) + ".bc")
		defer C.free(unsafe.Pointer(bc))
	}
	var obj, cerr *C.char
	var size C.size_t
	if C.stela_llvm_compile((*C.char)(unsafe.Pointer(&ll[0])), C.size_t(len(ll)), ccpu, cfeat, C.int(o.Level), C.int(n), C.int(i), bc, &obj, &size, &cerr) == 0 {
		err := errors.New(C.GoString(cerr))
		C.free(unsafe.Pointer(cerr))
		return nil, err
	}
	if obj == nil {
		return nil, nil
	}
	defer C.free(unsafe.Pointer(obj))
	return C.GoBytes(unsafe.Pointer(obj), C.int(size)), nil
}
