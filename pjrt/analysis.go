package pjrt

/*
#include <stdlib.h>
#include "pjrt_cgo.h"

static inline void stela_free_serialized_exe(PJRT_Executable_Serialize_Args* a) {
  if (a->serialized_executable_deleter != NULL) a->serialized_executable_deleter(a->serialized_executable);
}
*/
import "C"

import (
	"runtime"
	"sort"
	"unsafe"
)

// exeInfo is what a PJRT_Executable says about itself, read once.
type exeInfo struct {
	name          string
	numReplicas   int
	numPartitions int
	numOutputs    int
	outputTypes   []BufferType
	outputDims    [][]int
}

// describeExecutable reads an executable's properties. The number of
// outputs is required; the rest is optional.
func (p *Plugin) describeExecutable(exe *C.PJRT_Executable) (exeInfo, error) {
	info := exeInfo{numReplicas: 1, numPartitions: 1, numOutputs: -1}
	{
		var a C.PJRT_Executable_NumOutputs_Args
		a.executable = exe
		if err := p.callExecutableNumOutputs(&a); err != nil {
			return info, err
		}
		info.numOutputs = int(a.num_outputs)
	}
	{
		var a C.PJRT_Executable_Name_Args
		a.executable = exe
		if err := optional(p.callExecutableName(&a)); err != nil {
			return info, err
		}
		info.name = goString(a.executable_name, a.executable_name_size)
	}
	{
		var a C.PJRT_Executable_NumReplicas_Args
		a.executable = exe
		err := p.callExecutableNumReplicas(&a)
		if optional(err) != nil {
			return info, err
		} else if err == nil {
			info.numReplicas = int(a.num_replicas)
		}
	}
	{
		var a C.PJRT_Executable_NumPartitions_Args
		a.executable = exe
		err := p.callExecutableNumPartitions(&a)
		if optional(err) != nil {
			return info, err
		} else if err == nil {
			info.numPartitions = int(a.num_partitions)
		}
	}
	{
		var a C.PJRT_Executable_OutputElementTypes_Args
		a.executable = exe
		err := p.callExecutableOutputElementTypes(&a)
		if optional(err) != nil {
			return info, err
		} else if err == nil && a.output_types != nil {
			for _, t := range unsafe.Slice(a.output_types, int(a.num_output_types)) {
				info.outputTypes = append(info.outputTypes, BufferType(t))
			}
		}
	}
	{
		var a C.PJRT_Executable_OutputDimensions_Args
		a.executable = exe
		err := p.callExecutableOutputDimensions(&a)
		if optional(err) != nil {
			return info, err
		} else if err == nil && a.dim_sizes != nil {
			ranks := unsafe.Slice(a.dim_sizes, int(a.num_outputs))
			total := 0
			for _, r := range ranks {
				total += int(r)
			}
			var dims []C.int64_t
			if total > 0 {
				dims = unsafe.Slice(a.dims, total)
			}
			for _, r := range ranks {
				d := make([]int, int(r))
				for i := range d {
					d[i] = int(dims[i])
				}
				dims = dims[int(r):]
				info.outputDims = append(info.outputDims, d)
			}
		}
	}
	return info, nil
}

// MemoryStats is an executable's memory use per device, in bytes, as the
// compiler planned it (PJRT_Executable_GetCompiledMemoryStats). Host* are
// the same for host memory. Peak is the compiler's peak estimate (0 when
// it gives none).
type MemoryStats struct {
	GeneratedCode int64 `json:"generated_code"`
	Arguments     int64 `json:"arguments"`
	Outputs       int64 `json:"outputs"`
	Aliases       int64 `json:"aliases"`
	Temporaries   int64 `json:"temporaries"`
	Peak          int64 `json:"peak"`

	HostGeneratedCode int64 `json:"host_generated_code"`
	HostArguments     int64 `json:"host_arguments"`
	HostOutputs       int64 `json:"host_outputs"`
	HostAliases       int64 `json:"host_aliases"`
	HostTemporaries   int64 `json:"host_temporaries"`
}

// Total is what the program needs on a device at once, as XLA counts it
// for "fits": code, arguments, outputs and temporaries, less the outputs
// that alias arguments.
func (m MemoryStats) Total() int64 {
	return m.GeneratedCode + m.Arguments + m.Outputs + m.Temporaries - m.Aliases
}

// memoryStats calls PJRT_Executable_GetCompiledMemoryStats.
func (p *Plugin) memoryStats(exe *C.PJRT_Executable) (MemoryStats, error) {
	var a C.PJRT_Executable_GetCompiledMemoryStats_Args
	a.executable = exe
	if err := p.callExecutableGetCompiledMemoryStats(&a); err != nil {
		return MemoryStats{}, err
	}
	return MemoryStats{
		GeneratedCode: int64(a.generated_code_size_in_bytes),
		Arguments:     int64(a.argument_size_in_bytes),
		Outputs:       int64(a.output_size_in_bytes),
		Aliases:       int64(a.alias_size_in_bytes),
		Temporaries:   int64(a.temp_size_in_bytes),
		Peak:          int64(a.peak_memory_in_bytes),

		HostGeneratedCode: int64(a.host_generated_code_size_in_bytes),
		HostArguments:     int64(a.host_argument_size_in_bytes),
		HostOutputs:       int64(a.host_output_size_in_bytes),
		HostAliases:       int64(a.host_alias_size_in_bytes),
		HostTemporaries:   int64(a.host_temp_size_in_bytes),
	}, nil
}

// CostAnalysis is the compiler's cost analysis of a program: its
// properties by name, as the plugin reports them ("flops", "bytes
// accessed", "transcendentals", "optimal_seconds", ...; XLA reports the
// whole program's, per device for an SPMD program).
type CostAnalysis []NamedValue

// Get returns the named property as a float64 (int64 and float32 values
// are converted) and whether it is there.
func (c CostAnalysis) Get(name string) (float64, bool) {
	v, ok := lookupNamed(c, name)
	if !ok {
		return 0, false
	}
	switch x := v.(type) {
	case float32:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

// Flops is the "flops" property (0 if absent).
func (c CostAnalysis) Flops() float64 { v, _ := c.Get("flops"); return v }

// BytesAccessed is the "bytes accessed" property (0 if absent).
func (c CostAnalysis) BytesAccessed() float64 { v, _ := c.Get("bytes accessed"); return v }

// costAnalysis calls PJRT_Executable_GetCostAnalysis; the properties are
// copied (the plugin owns them) and sorted by name.
func (p *Plugin) costAnalysis(exe *C.PJRT_Executable) (CostAnalysis, error) {
	var a C.PJRT_Executable_GetCostAnalysis_Args
	a.executable = exe
	if err := p.callExecutableGetCostAnalysis(&a); err != nil {
		return nil, err
	}
	c := CostAnalysis(namedValuesFromC(a.properties, a.num_properties))
	// Plugins list them in no particular order (libtpu's changes from
	// one call to the next).
	sort.SliceStable(c, func(i, j int) bool { return c[i].Name < c[j].Name })
	return c, nil
}

// serialize calls PJRT_Executable_Serialize and frees the plugin's copy.
func (p *Plugin) serialize(exe *C.PJRT_Executable) ([]byte, error) {
	var a C.PJRT_Executable_Serialize_Args
	a.executable = exe
	if err := p.callExecutableSerialize(&a); err != nil {
		return nil, err
	}
	defer C.stela_free_serialized_exe(&a)
	if a.serialized_bytes_size > 0 && a.serialized_bytes == nil {
		return nil, errorf("Executable_Serialize", CodeInternal, "plugin returned %d bytes at NULL", int(a.serialized_bytes_size))
	}
	return C.GoBytes(unsafe.Pointer(a.serialized_bytes), C.int(a.serialized_bytes_size)), nil
}

// optimizedProgram calls PJRT_Executable_OptimizedProgram twice: for the
// size, then for the bytes.
func (p *Plugin) optimizedProgram(exe *C.PJRT_Executable) (code []byte, format string, err error) {
	prog := (*C.PJRT_Program)(C.calloc(1, C.sizeof_PJRT_Program))
	defer C.free(unsafe.Pointer(prog))
	prog.struct_size = C.PJRT_Program_STRUCT_SIZE
	var a C.PJRT_Executable_OptimizedProgram_Args
	a.executable = exe
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
	return C.GoBytes(buf, C.int(prog.code_size)), goString(prog.format, prog.format_size), nil
}

// Executable is a compiled program that is not loaded on any device: what
// Topology.Compile makes (PJRT_Executable). It can be analysed and
// serialized; a client of the topology's platform loads the serialization
// (Client.DeserializeAndLoad) to run it. Destroy it, or let it be
// collected.
type Executable struct {
	plugin   *Plugin
	topology *Topology
	obj      *cObject
	info     exeInfo
}

// Name is the program's name (the module's, for StableHLO).
func (e *Executable) Name() string { return e.info.name }

// NumOutputs is the number of results per device.
func (e *Executable) NumOutputs() int { return e.info.numOutputs }

// NumReplicas is the number of replicas the program was compiled for.
func (e *Executable) NumReplicas() int { return e.info.numReplicas }

// NumPartitions is the number of partitions (SPMD devices per replica).
func (e *Executable) NumPartitions() int { return e.info.numPartitions }

// OutputTypes are the outputs' element types (nil if the plugin does not
// say).
func (e *Executable) OutputTypes() []BufferType { return e.info.outputTypes }

// OutputDims are the outputs' dimensions per device (nil if the plugin
// does not say).
func (e *Executable) OutputDims() [][]int { return e.info.outputDims }

// Topology is the topology the executable was compiled for.
func (e *Executable) Topology() *Topology { return e.topology }

// Destroy frees the executable. It is idempotent.
func (e *Executable) Destroy() { e.obj.destroy() }

func (e *Executable) with(op string, f func(*C.PJRT_Executable) error) error {
	ptr, err := e.obj.use(op)
	if err != nil {
		return err
	}
	defer e.obj.done()
	err = f((*C.PJRT_Executable)(ptr))
	runtime.KeepAlive(e)
	return err
}

// CostAnalysis is the compiler's cost analysis of the program.
func (e *Executable) CostAnalysis() (c CostAnalysis, err error) {
	err = e.with("Executable.CostAnalysis", func(x *C.PJRT_Executable) (err error) { c, err = e.plugin.costAnalysis(x); return })
	return
}

// MemoryStats is the program's memory use per device.
func (e *Executable) MemoryStats() (m MemoryStats, err error) {
	err = e.with("Executable.MemoryStats", func(x *C.PJRT_Executable) (err error) { m, err = e.plugin.memoryStats(x); return })
	return
}

// Serialize returns the plugin's serialization of the executable, which a
// client of the same plugin version loads with DeserializeAndLoad.
func (e *Executable) Serialize() (b []byte, err error) {
	err = e.with("Executable.Serialize", func(x *C.PJRT_Executable) (err error) { b, err = e.plugin.serialize(x); return })
	return
}

// OptimizedProgram is the program after the compiler's passes and its
// format ("hlo": a serialized HloModuleProto, from XLA's compilers).
func (e *Executable) OptimizedProgram() (code []byte, format string, err error) {
	err = e.with("Executable.OptimizedProgram", func(x *C.PJRT_Executable) (err error) {
		code, format, err = e.plugin.optimizedProgram(x)
		return
	})
	return
}

// CostAnalysis is the compiler's cost analysis of the program.
func (e *LoadedExecutable) CostAnalysis() (CostAnalysis, error) {
	if e.exe == nil {
		return nil, errorf("Executable_GetCostAnalysis", CodeUnimplemented, "plugin %s cannot describe executables", e.client.plugin.path)
	}
	defer runtime.KeepAlive(e)
	return e.client.plugin.costAnalysis(e.exe)
}

// MemoryStats is the program's memory use per device.
func (e *LoadedExecutable) MemoryStats() (MemoryStats, error) {
	if e.exe == nil {
		return MemoryStats{}, errorf("Executable_GetCompiledMemoryStats", CodeUnimplemented, "plugin %s cannot describe executables", e.client.plugin.path)
	}
	defer runtime.KeepAlive(e)
	return e.client.plugin.memoryStats(e.exe)
}

// Serialize returns the plugin's serialization of the executable.
func (e *LoadedExecutable) Serialize() ([]byte, error) {
	if e.exe == nil {
		return nil, errorf("Executable_Serialize", CodeUnimplemented, "plugin %s cannot describe executables", e.client.plugin.path)
	}
	defer runtime.KeepAlive(e)
	return e.client.plugin.serialize(e.exe)
}

// DeserializeAndLoad loads an executable serialized by the same plugin
// (Executable.Serialize, here or on another machine) onto the client's
// devices (PJRT_Executable_DeserializeAndLoad). opts, when not nil,
// override the compile options the executable was serialized with.
func (c *Client) DeserializeAndLoad(data []byte, opts *CompileOptions) (*LoadedExecutable, error) {
	const op = "Client.DeserializeAndLoad"
	client, err := c.core.acquire(op)
	if err != nil {
		return nil, err
	}
	defer c.core.release()
	cdata := C.CBytes(data)
	defer C.free(cdata)
	var a C.PJRT_Executable_DeserializeAndLoad_Args
	a.client = (*C.PJRT_Client)(client)
	a.serialized_executable = (*C.char)(cdata)
	a.serialized_executable_size = C.size_t(len(data))
	portable := true
	if opts != nil {
		options, err := opts.Marshal()
		if err != nil {
			return nil, err
		}
		copts := C.CBytes(options)
		defer C.free(copts)
		a.overridden_serialized_compile_options = (*C.char)(copts)
		a.overridden_serialized_compile_options_size = C.size_t(len(options))
		portable = opts.Portable()
	}
	if err := c.plugin.callExecutableDeserializeAndLoad(&a); err != nil {
		return nil, err
	}
	if a.loaded_executable == nil {
		return nil, errorf("Executable_DeserializeAndLoad", CodeInternal, "plugin returned no executable and no error")
	}
	e := c.newLoadedExecutable(a.loaded_executable, portable)
	if err := e.describe(); err != nil {
		e.Destroy()
		return nil, err
	}
	// A deserialized executable is portable only if it has one device and
	// was compiled without an assignment; the executable's own count says
	// whether it has one.
	if opts == nil && e.numReplicas*e.numPartitions > 1 {
		e.portable = false
	}
	return e, nil
}
