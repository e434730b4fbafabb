package pjrt

/*
#include "pjrt_cgo.h"
*/
import "C"

import "runtime"

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
	defer runtime.KeepAlive(e)
	return p.optimizedProgram(e.exe)
}
