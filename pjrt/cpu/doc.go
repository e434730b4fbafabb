// Package cpu is the PLUGIN side of PJRT: the Stela CPU PJRT plugin, which
// any PJRT client (Stela's own package pjrt, gopjrt, XLA's C API client)
// loads to run StableHLO on the host CPU. It is not a client; the client
// is package pjrt.
//
// The package holds three parts (docs/cpu-plugin.md is their contract):
//
//   - the plugin itself, C11 sources in csrc/ embedded in the package and
//     built on first use by PluginPath into the user cache directory as
//     pjrt_c_api_stela_cpu_plugin.so. It implements the PJRT C API 0.81
//     declared in package capi's stela_pjrt.h and exports only GetPjrtApi
//     and stela_cpu_live_buffers. Its runtime (thread pool, GEMM through
//     a BLAS library found at run time or its own kernel, the rendezvous
//     of collectives and the crew of device threads; the table compiled
//     programs get, ABI version 3) is C in internal/rt, built into the
//     plugin and, through cgo, into tests;
//   - the compile worker (worker*.go), which the plugin runs as a separate
//     process for each PJRT_Client_Compile that misses its disk cache;
//   - the code generator (subpackage codegen), StableHLO to LLVM IR.
//
// What goes in: StableHLO text (program format "mlir"; MLIR bytecode is
// rejected with UNIMPLEMENTED) and a serialized xla.CompileOptionsProto,
// of which the plugin reads only num_replicas, num_partitions,
// device_ordinal, device_assignment and compile_portable_executable.
// Host arrays of every byte-sized element type come in through
// PJRT_Client_BufferFromHostBuffer (with byte strides, copied to dense
// row-major).
//
// What comes out: buffers in 64-byte-aligned host memory on N virtual CPU
// devices (create option cpu_device_count, else $STELA_CPU_DEVICES, else
// 1), loaded executables whose outputs are new buffers, and events that
// are complete when returned.
//
// Invariants the plugin keeps: GetPjrtApi starts no thread and spawns
// nothing (a client's pool and crew of device threads start their
// threads when a program first needs them, and PJRT_Client_Destroy joins
// them); every slot of the PJRT_Api table up to 0.81 is non-NULL (the
// functions the plugin lacks return UNIMPLEMENTED errors naming
// themselves); a failing, crashing or hanging compile worker is a PJRT
// error, never a crash of the host; clients, buffers, executables and
// events are reference counted and may be destroyed in any order from any
// thread; buffers passed to a compiled program are dense, row-major,
// 64-byte aligned, and results overlap no argument and no other result.
package cpu
