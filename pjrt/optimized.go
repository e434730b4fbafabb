package pjrt

/*
#include <stdlib.h>
#include "pjrt_cgo.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// OptimizedProgram returns the program the plugin compiled after its own
// rewriting, and its format: "mlir" (StableHLO text) from the Stela CPU
// plugin for SPMD-partitioned programs, "hlo" (a serialized
// HloModuleProto) from XLA's plugins. An error with CodeNotFound or
// CodeUnimplemented means the plugin keeps none.
func (e *LoadedExecutable) OptimizedProgram() (code []byte, format string, err error) {
	p := e.client.plugin
	if e.exe == nil {
		return nil, "", errorf("Executable_OptimizedProgram", CodeUnimplemented, "plugin %s cannot describe executables", p.path)
	}
	prog := (*C.PJRT_Program)(C.calloc(1, C.sizeof_PJRT_Program))
	defer C.free(unsafe.Pointer(prog))
	prog.struct_size = C.PJRT_Program_STRUCT_SIZE
	var a C.PJRT_Executable_OptimizedProgram_Args
	a.executable = e.exe
	a.program = prog
	if err := p.callExecutableOptimizedProgram(&a); err != nil {
		return nil, "", err
	}
	n := int(prog.code_size)
	buf := C.malloc(C.size_t(max(n, 1)))
	defer C.free(buf)
	prog.code = (*C.char)(buf)
	if err := p.callExecutableOptimizedProgram(&a); err != nil {
		return nil, "", err
	}
	runtime.KeepAlive(e)
	return C.GoBytes(buf, C.int(prog.code_size)), goString(prog.format, prog.format_size), nil
}
