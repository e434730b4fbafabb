// Package pjrt is Stela's Go client of the PJRT C API: it loads any PJRT
// plugin (libtpu, XLA's CUDA plugin, the Stela CPU plugin in pjrt/cpu) and
// drives it through cgo. It knows no particular plugin.
//
// In: a plugin name or path (LoadPlugin; FindPlugin searches
// $STELA_PJRT_PLUGIN_PATH, then gopjrt's places), client create options,
// StableHLO text with CompileOptions, host arrays (HostArray or
// ir.Literal) and buffers to execute on. Out: Plugin (API version,
// attributes), Client (platform, Devices, Memories), LoadedExecutable,
// Buffer, Event, and errors of type *Error carrying the PJRT code
// (errors.Is(err, ErrUnimplemented), ...).
//
// The C declarations are Stela's own (pjrt/capi/stela_pjrt.h, API 0.81,
// checked against the real header by capi's TestABI). Every call goes
// through a typed C shim generated from that header (calls_gen.go, by
// `go generate`), which first checks that the plugin's table has the slot:
// a plugin of another minor version loads as long as its major version is
// 0; argument structs carry the 0.81 struct_size, which newer plugins
// accept, and functions beyond an older plugin's table fail with
// ErrUnimplemented instead of being called.
//
// Invariants:
//
//   - A library is dlopened, initialized (PJRT_Plugin_Initialize) and its
//     attributes read once per process; it is never closed.
//   - Every PJRT_Error is converted (message, code) and destroyed at once;
//     every event the plugin returns is destroyed, awaited or not.
//   - Buffers, executables and events are freed exactly once, by Destroy
//     or by a cleanup when the Go object is collected, after every call in
//     flight on them; any goroutine may do either. A buffer's cleanup is
//     registered by a goroutine of the package shortly after the buffer
//     is made (cleanups.go), and a buffer whose cleanup ran is destroyed
//     by the next execution on its client, in the same C call, or by that
//     goroutine when executions stop (deadbuffers.go): both keep work off
//     the dispatching goroutine and cache lines on its core. Buffers placed
//     in a BufferGroup have no cleanup of their own: the group's, attached
//     to the allocation that holds them all, frees those not destroyed
//     (bufgroup.go).
//   - The C client is destroyed only when the Client and every object made
//     from it are gone, so objects can be destroyed in any order. After
//     Client.Destroy nothing new can be made from the client
//     (ErrDestroyed); what exists keeps working.
//   - The plugin never keeps a pointer to Go memory: argument structs that
//     hold pointers are filled with C memory, and host data passed to
//     BufferFromHostBuffer and ToHostBuffer is pinned until the transfer's
//     event has fired.
//   - Compile options always carry device_ordinal -1, num_replicas and
//     num_partitions (an absent field reads as 0 in XLA), and either
//     compile_portable_executable or a device assignment.
//
// Element types map one to one between ir.DType and PJRT_Buffer_Type
// (BufferTypeOf, BufferType.DType); Bool is PRED, one byte per element.
//
// Tests: the mock plugin in testdata/mockplugin (C, built by the tests
// against capi's header) runs the whole client, counting live objects and
// contract violations. The same end-to-end suite runs on a real plugin
// named by $STELA_PJRT_PLUGIN, and libtpu and XLA's CUDA plugin are loaded
// (without their hardware) from $STELA_TEST_LIBTPU / $STELA_TEST_CUDA_PLUGIN
// or Python's site-packages when present.
package pjrt
