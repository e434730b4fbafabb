package pjrt

/*
#include <stdlib.h>
#include "pjrt_cgo.h"

static inline void stela_free_serialized_topology(PJRT_TopologyDescription_Serialize_Args* a) {
  if (a->serialized_topology_deleter != NULL) a->serialized_topology_deleter(a->serialized_topology);
}
static inline PJRT_DeviceDescription* stela_desc_at(PJRT_DeviceDescription* const* a, size_t i) { return a[i]; }
*/
import "C"

import (
	"runtime"
	"sync"
	"unsafe"
)

// Topology is a description of a slice of devices a plugin can compile for
// without having them (PJRT_TopologyDescription): libtpu describes TPU
// slices by name ("v5e:2x2") on any machine, and Compile makes executables
// for them ahead of time. Destroy it, or let it be collected; executables
// compiled from it stay valid.
type Topology struct {
	plugin          *Plugin
	name            string
	obj             *cObject
	platformName    string
	platformVersion string
	devices         []DeviceDescription
	attrs           []NamedValue
}

// DeviceDescription is what a topology says about one of its devices.
type DeviceDescription struct {
	ID           int
	ProcessIndex int
	Kind         string // "TPU v5 lite"
	DebugString  string
	String       string
	Attributes   []NamedValue // "coords", "core_on_chip", ...
}

// cObject owns one C object freed by free, exactly once, after every call
// in flight on it (calls hold the read lock).
type cObject struct {
	mu   sync.RWMutex
	ptr  unsafe.Pointer
	free func(unsafe.Pointer)
}

func (o *cObject) use(op string) (unsafe.Pointer, error) {
	o.mu.RLock()
	if o.ptr == nil {
		o.mu.RUnlock()
		return nil, destroyedError(op)
	}
	return o.ptr, nil
}

func (o *cObject) done() { o.mu.RUnlock() }

func (o *cObject) destroy() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.ptr != nil {
		o.free(o.ptr)
		o.ptr = nil
	}
}

// NewTopology creates the topology called name (PJRT_TopologyDescription_Create)
// with plugin-specific options, and reads its platform, devices and
// attributes. For libtpu the name is a TPU generation and a chip grid:
// "v5e:2x2", "v6e:2x2", "v5p:2x2x1", "v4:2x2x1"; off Google Cloud set
// TPU_WORKER_HOSTNAMES=localhost (and TPU_SKIP_MDS_QUERY=1) first, or
// libtpu looks for the other hosts of the slice.
func (p *Plugin) NewTopology(name string, options ...NamedValue) (*Topology, error) {
	const op = "TopologyDescription_Create"
	opts, err := namedValuesToC(op, options)
	if err != nil {
		return nil, err
	}
	defer opts.free()
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var a C.PJRT_TopologyDescription_Create_Args
	a.topology_name = cname
	a.topology_name_size = C.size_t(len(name))
	a.create_options = opts.array
	a.num_options = C.size_t(opts.n)
	if err := p.callTopologyDescriptionCreate(&a); err != nil {
		if e, ok := err.(*Error); ok {
			e.Msg = "topology " + quote(name) + ": " + e.Msg
		}
		return nil, err
	}
	if a.topology == nil {
		return nil, errorf(op, CodeInternal, "plugin returned no topology and no error")
	}
	t := &Topology{plugin: p, name: name}
	t.obj = &cObject{ptr: unsafe.Pointer(a.topology), free: func(ptr unsafe.Pointer) {
		var d C.PJRT_TopologyDescription_Destroy_Args
		d.topology = (*C.PJRT_TopologyDescription)(ptr)
		_ = p.callTopologyDescriptionDestroy(&d)
	}}
	runtime.AddCleanup(t, (*cObject).destroy, t.obj)
	if err := t.describe(); err != nil {
		t.Destroy()
		return nil, err
	}
	return t, nil
}

func quote(s string) string { return "\"" + s + "\"" }

func (t *Topology) describe() error {
	p := t.plugin
	ptr := (*C.PJRT_TopologyDescription)(t.obj.ptr)
	{
		var a C.PJRT_TopologyDescription_PlatformName_Args
		a.topology = ptr
		if err := optional(p.callTopologyDescriptionPlatformName(&a)); err != nil {
			return err
		}
		t.platformName = goString(a.platform_name, a.platform_name_size)
	}
	{
		var a C.PJRT_TopologyDescription_PlatformVersion_Args
		a.topology = ptr
		if err := optional(p.callTopologyDescriptionPlatformVersion(&a)); err != nil {
			return err
		}
		t.platformVersion = goString(a.platform_version, a.platform_version_size)
	}
	{
		var a C.PJRT_TopologyDescription_Attributes_Args
		a.topology = ptr
		if err := optional(p.callTopologyDescriptionAttributes(&a)); err != nil {
			return err
		}
		t.attrs = namedValuesFromC(a.attributes, a.num_attributes)
	}
	var a C.PJRT_TopologyDescription_GetDeviceDescriptions_Args
	a.topology = ptr
	if err := p.callTopologyDescriptionGetDeviceDescriptions(&a); err != nil {
		return err
	}
	for i := C.size_t(0); i < a.num_descriptions; i++ {
		d, err := p.deviceDescription(C.stela_desc_at(a.descriptions, i))
		if err != nil {
			return err
		}
		t.devices = append(t.devices, d)
	}
	runtime.KeepAlive(t)
	return nil
}

// deviceDescription reads a PJRT_DeviceDescription; only the ID is
// required.
func (p *Plugin) deviceDescription(desc *C.PJRT_DeviceDescription) (DeviceDescription, error) {
	var d DeviceDescription
	{
		var a C.PJRT_DeviceDescription_Id_Args
		a.device_description = desc
		if err := p.callDeviceDescriptionId(&a); err != nil {
			return d, err
		}
		d.ID = int(a.id)
	}
	{
		var a C.PJRT_DeviceDescription_ProcessIndex_Args
		a.device_description = desc
		if err := optional(p.callDeviceDescriptionProcessIndex(&a)); err != nil {
			return d, err
		}
		d.ProcessIndex = int(a.process_index)
	}
	{
		var a C.PJRT_DeviceDescription_Kind_Args
		a.device_description = desc
		if err := optional(p.callDeviceDescriptionKind(&a)); err != nil {
			return d, err
		}
		d.Kind = goString(a.device_kind, a.device_kind_size)
	}
	{
		var a C.PJRT_DeviceDescription_DebugString_Args
		a.device_description = desc
		if err := optional(p.callDeviceDescriptionDebugString(&a)); err != nil {
			return d, err
		}
		d.DebugString = goString(a.debug_string, a.debug_string_size)
	}
	{
		var a C.PJRT_DeviceDescription_ToString_Args
		a.device_description = desc
		if err := optional(p.callDeviceDescriptionToString(&a)); err != nil {
			return d, err
		}
		d.String = goString(a.to_string, a.to_string_size)
	}
	{
		var a C.PJRT_DeviceDescription_Attributes_Args
		a.device_description = desc
		if err := optional(p.callDeviceDescriptionAttributes(&a)); err != nil {
			return d, err
		}
		d.Attributes = namedValuesFromC(a.attributes, a.num_attributes)
	}
	return d, nil
}

// Name is the name the topology was created with.
func (t *Topology) Name() string { return t.name }

// Plugin is the plugin that made the topology.
func (t *Topology) Plugin() *Plugin { return t.plugin }

// PlatformName is the platform the topology's devices belong to ("tpu").
func (t *Topology) PlatformName() string { return t.platformName }

// PlatformVersion is the plugin's description of its platform version.
func (t *Topology) PlatformVersion() string { return t.platformVersion }

// Devices describes the topology's devices, in the plugin's order.
func (t *Topology) Devices() []DeviceDescription { return t.devices }

// Attributes are the topology's attributes (nil if the plugin has none).
func (t *Topology) Attributes() []NamedValue { return t.attrs }

// Destroy frees the topology. It is idempotent.
func (t *Topology) Destroy() { t.obj.destroy() }

// Serialize returns the plugin's serialization of the topology
// (PJRT_TopologyDescription_Serialize).
func (t *Topology) Serialize() ([]byte, error) {
	const op = "Topology.Serialize"
	ptr, err := t.obj.use(op)
	if err != nil {
		return nil, err
	}
	defer t.obj.done()
	var a C.PJRT_TopologyDescription_Serialize_Args
	a.topology = (*C.PJRT_TopologyDescription)(ptr)
	if err := t.plugin.callTopologyDescriptionSerialize(&a); err != nil {
		return nil, err
	}
	defer C.stela_free_serialized_topology(&a)
	return C.GoBytes(unsafe.Pointer(a.serialized_bytes), C.int(a.serialized_bytes_size)), nil
}

// Compile compiles a program for the topology without a client
// (PJRT_Compile): code in the given format ("mlir" for StableHLO), opts as
// for Client.CompileProgram (nil: one device). A program of several
// devices without a device assignment gets the topology's first devices,
// replica-major. The executable can be analysed and serialized, not run.
func (t *Topology) Compile(code []byte, format string, opts *CompileOptions) (*Executable, error) {
	const op = "Topology.Compile"
	if opts == nil {
		opts = &CompileOptions{}
	}
	o := *opts
	r, q := o.shape()
	if r*q > len(t.devices) {
		return nil, errorf(op, CodeInvalidArgument, "program of %d replicas × %d partitions needs %d devices; topology %s has %d",
			r, q, r*q, t.name, len(t.devices))
	}
	if r*q > 1 && o.DeviceAssignment == nil {
		o.DeviceAssignment = make([][]int, r)
		for i := range r {
			o.DeviceAssignment[i] = make([]int, q)
			for j := range q {
				o.DeviceAssignment[i][j] = t.devices[i*q+j].ID
			}
		}
	}
	options, err := o.Marshal()
	if err != nil {
		return nil, err
	}
	ptr, err := t.obj.use(op)
	if err != nil {
		return nil, err
	}
	defer t.obj.done()
	prog, coptions, free := cProgram(code, format, options)
	defer free()

	var a C.PJRT_Compile_Args
	a.topology = (*C.PJRT_TopologyDescription)(ptr)
	a.program = prog
	a.compile_options = (*C.char)(coptions)
	a.compile_options_size = C.size_t(len(options))
	if err := t.plugin.callCompile(&a); err != nil {
		return nil, err
	}
	if a.executable == nil {
		return nil, errorf("Compile", CodeInternal, "plugin returned no executable and no error")
	}
	p := t.plugin
	e := &Executable{plugin: p, topology: t}
	e.obj = &cObject{ptr: unsafe.Pointer(a.executable), free: func(ptr unsafe.Pointer) {
		var d C.PJRT_Executable_Destroy_Args
		d.executable = (*C.PJRT_Executable)(ptr)
		_ = p.callExecutableDestroy(&d)
	}}
	runtime.AddCleanup(e, (*cObject).destroy, e.obj)
	if e.info, err = p.describeExecutable(a.executable); err != nil {
		e.Destroy()
		return nil, err
	}
	return e, nil
}
