package pjrt

/*
#include "pjrt_cgo.h"
*/
import "C"

import (
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"
)

// CompileOptions are the compile options Stela sends, as fields of
// xla.CompileOptionsProto (pjrt-c-api.md section 11.3). The zero value
// compiles a single-device program that can run on any device.
type CompileOptions struct {
	// NumReplicas and NumPartitions shape the program's devices; 0 means 1.
	NumReplicas   int
	NumPartitions int
	// DeviceAssignment[r][p] is the device ID of replica r, partition p.
	// Nil for a 1×1 program compiles a portable executable (the device is
	// chosen at execute time); nil for more devices takes the client's
	// DefaultDeviceAssignment when compiling.
	DeviceAssignment [][]int
	// UseSPMDPartitioning: one program for all partitions, partitioned by
	// XLA's SPMD partitioner from sharding annotations.
	UseSPMDPartitioning bool
	// UseShardyPartitioner selects the Shardy partitioner (with SPMD).
	UseShardyPartitioner bool
}

// Field numbers of xla.CompileOptionsProto, ExecutableBuildOptionsProto and
// DeviceAssignmentProto that Stela writes.
const (
	fieldExecutableBuildOptions    = 3 // CompileOptionsProto
	fieldCompilePortableExecutable = 4
	fieldDeviceOrdinal             = 1 // ExecutableBuildOptionsProto
	fieldNumReplicas               = 4
	fieldNumPartitions             = 5
	fieldUseSPMDPartitioning       = 6
	fieldDeviceAssignment          = 9
	fieldUseShardyPartitioner      = 19
	fieldReplicaCount              = 1 // DeviceAssignmentProto
	fieldComputationCount          = 2
	fieldComputationDevices        = 3
	fieldReplicaDeviceIDs          = 1 // DeviceAssignmentProto.ComputationDevice
)

func (o *CompileOptions) shape() (replicas, partitions int) {
	replicas, partitions = max(o.NumReplicas, 1), max(o.NumPartitions, 1)
	return
}

// Portable reports whether the options compile a portable executable: one
// device, no device assignment.
func (o *CompileOptions) Portable() bool {
	r, p := o.shape()
	return r*p == 1 && o.DeviceAssignment == nil
}

// Marshal encodes the options as a serialized xla.CompileOptionsProto.
// device_ordinal is always -1 and num_replicas and num_partitions always
// present: XLA reads an absent field as 0 replicas, 0 partitions and device
// ordinal 0. The bytes for the zero value are the 19 that gopjrt sends.
func (o *CompileOptions) Marshal() ([]byte, error) {
	replicas, partitions := o.shape()
	if o.DeviceAssignment != nil {
		if len(o.DeviceAssignment) != replicas {
			return nil, errorf("CompileOptions", CodeInvalidArgument, "device assignment has %d replicas, want %d", len(o.DeviceAssignment), replicas)
		}
		for r, row := range o.DeviceAssignment {
			if len(row) != partitions {
				return nil, errorf("CompileOptions", CodeInvalidArgument, "device assignment replica %d has %d partitions, want %d", r, len(row), partitions)
			}
		}
	}
	var build []byte
	build = protowire.AppendTag(build, fieldDeviceOrdinal, protowire.VarintType)
	unset := int64(-1) // encoded as a 10-byte varint, as int64 fields are
	build = protowire.AppendVarint(build, uint64(unset))
	build = protowire.AppendTag(build, fieldNumReplicas, protowire.VarintType)
	build = protowire.AppendVarint(build, uint64(replicas))
	build = protowire.AppendTag(build, fieldNumPartitions, protowire.VarintType)
	build = protowire.AppendVarint(build, uint64(partitions))
	if o.UseSPMDPartitioning || o.UseShardyPartitioner {
		build = protowire.AppendTag(build, fieldUseSPMDPartitioning, protowire.VarintType)
		build = protowire.AppendVarint(build, 1)
	}
	if o.DeviceAssignment != nil {
		var da []byte
		da = protowire.AppendTag(da, fieldReplicaCount, protowire.VarintType)
		da = protowire.AppendVarint(da, uint64(replicas))
		da = protowire.AppendTag(da, fieldComputationCount, protowire.VarintType)
		da = protowire.AppendVarint(da, uint64(partitions))
		// One ComputationDevice per partition, listing its replicas'
		// device IDs (packed).
		for p := 0; p < partitions; p++ {
			var ids []byte
			for r := 0; r < replicas; r++ {
				ids = protowire.AppendVarint(ids, uint64(int64(o.DeviceAssignment[r][p])))
			}
			var cd []byte
			cd = protowire.AppendTag(cd, fieldReplicaDeviceIDs, protowire.BytesType)
			cd = protowire.AppendBytes(cd, ids)
			da = protowire.AppendTag(da, fieldComputationDevices, protowire.BytesType)
			da = protowire.AppendBytes(da, cd)
		}
		build = protowire.AppendTag(build, fieldDeviceAssignment, protowire.BytesType)
		build = protowire.AppendBytes(build, da)
	}
	if o.UseShardyPartitioner {
		build = protowire.AppendTag(build, fieldUseShardyPartitioner, protowire.VarintType)
		build = protowire.AppendVarint(build, 1)
	}
	var out []byte
	out = protowire.AppendTag(out, fieldExecutableBuildOptions, protowire.BytesType)
	out = protowire.AppendBytes(out, build)
	if o.Portable() {
		out = protowire.AppendTag(out, fieldCompilePortableExecutable, protowire.VarintType)
		out = protowire.AppendVarint(out, 1)
	}
	return out, nil
}

// FormatMLIR is the program format of StableHLO (text or MLIR bytecode).
const FormatMLIR = "mlir"

// Compile compiles a StableHLO module in MLIR text form (format "mlir").
// opts may be nil.
func (c *Client) Compile(stablehlo string, opts *CompileOptions) (*LoadedExecutable, error) {
	return c.CompileProgram([]byte(stablehlo), FormatMLIR, opts)
}

// CompileProgram compiles code in the given format ("mlir", "hlo",
// "hlo_with_config"; what a plugin accepts is up to it).
func (c *Client) CompileProgram(code []byte, format string, opts *CompileOptions) (*LoadedExecutable, error) {
	const op = "Client.Compile"
	if opts == nil {
		opts = &CompileOptions{}
	}
	client, err := c.core.acquire(op)
	if err != nil {
		return nil, err
	}
	defer c.core.release()
	o := *opts
	if r, p := o.shape(); r*p > 1 && o.DeviceAssignment == nil && c.plugin.slots[slotClientDefaultDeviceAssignment] {
		if o.DeviceAssignment, err = c.DefaultDeviceAssignment(r, p); err != nil {
			return nil, err
		}
	}
	options, err := o.Marshal()
	if err != nil {
		return nil, err
	}

	prog, coptions, free := cProgram(code, format, options)
	defer free()

	var a C.PJRT_Client_Compile_Args
	a.client = (*C.PJRT_Client)(client)
	a.program = prog
	a.compile_options = (*C.char)(coptions)
	a.compile_options_size = C.size_t(len(options))
	if err := c.plugin.callClientCompile(&a); err != nil {
		return nil, err
	}
	if a.executable == nil {
		return nil, errorf("Client_Compile", CodeInternal, "plugin returned no executable and no error")
	}
	e := c.newLoadedExecutable(a.executable, o.Portable())
	if err := e.describe(); err != nil {
		e.Destroy()
		return nil, err
	}
	return e, nil
}

// cProgram copies a program, its format and its serialized compile
// options into C memory, where the plugin reads them during a compile
// (PJRT_Client_Compile, PJRT_Compile); free releases all of it.
func cProgram(code []byte, format string, options []byte) (prog *C.PJRT_Program, coptions unsafe.Pointer, free func()) {
	prog = (*C.PJRT_Program)(C.calloc(1, C.size_t(unsafe.Sizeof(C.PJRT_Program{}))))
	ccode := C.CBytes(code)
	cformat := C.CString(format)
	coptions = C.CBytes(options)
	prog.struct_size = C.PJRT_Program_STRUCT_SIZE
	prog.code = (*C.char)(ccode)
	prog.code_size = C.size_t(len(code))
	prog.format = cformat
	prog.format_size = C.size_t(len(format))
	return prog, coptions, func() {
		C.free(coptions)
		C.free(unsafe.Pointer(cformat))
		C.free(ccode)
		C.free(unsafe.Pointer(prog))
	}
}
