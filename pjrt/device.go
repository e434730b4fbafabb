package pjrt

/*
#include "pjrt_cgo.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Device is one device of a client. Its properties are read when the
// client is created; it is valid as long as its client.
type Device struct {
	client          *Client
	ptr             *C.PJRT_Device
	id              int
	processIndex    int
	localHardwareID int
	addressable     bool
	kind            string
	debugString     string
	str             string
	attrs           []NamedValue
	memories        []*Memory
	defaultMemory   *Memory
}

func (c *Client) newDevice(d *C.PJRT_Device) (*Device, error) {
	p := c.plugin
	dev := &Device{client: c, ptr: d, localHardwareID: -1}
	var ga C.PJRT_Device_GetDescription_Args
	ga.device = d
	if err := p.callDeviceGetDescription(&ga); err != nil {
		return nil, err
	}
	dd, err := p.deviceDescription(ga.device_description)
	if err != nil {
		return nil, err
	}
	dev.id, dev.processIndex, dev.kind = dd.ID, dd.ProcessIndex, dd.Kind
	dev.debugString, dev.str, dev.attrs = dd.DebugString, dd.String, dd.Attributes
	{
		var a C.PJRT_Device_IsAddressable_Args
		a.device = d
		if err := optional(p.callDeviceIsAddressable(&a)); err != nil {
			return nil, err
		}
		dev.addressable = bool(a.is_addressable)
	}
	if dev.addressable {
		var a C.PJRT_Device_LocalHardwareId_Args
		a.device = d
		if err := optional(p.callDeviceLocalHardwareId(&a)); err != nil {
			return nil, err
		} else if p.slots[slotDeviceLocalHardwareId] {
			dev.localHardwareID = int(a.local_hardware_id)
		}
	}
	c.deviceByPtr[unsafe.Pointer(d)] = dev
	return dev, nil
}

// describeMemories reads an addressable device's memories. Plugins may
// leave memories unimplemented.
func (c *Client) describeMemories(dev *Device) error {
	p := c.plugin
	var a C.PJRT_Device_AddressableMemories_Args
	a.device = dev.ptr
	if err := optional(p.callDeviceAddressableMemories(&a)); err != nil {
		return err
	}
	for _, m := range cMemories(a.memories, a.num_memories) {
		mem, err := c.memory(m)
		if err != nil {
			return err
		}
		dev.memories = append(dev.memories, mem)
	}
	var da C.PJRT_Device_DefaultMemory_Args
	da.device = dev.ptr
	if err := optional(p.callDeviceDefaultMemory(&da)); err != nil {
		return err
	}
	if da.memory != nil {
		mem, err := c.memory(da.memory)
		if err != nil {
			return err
		}
		dev.defaultMemory = mem
	}
	return nil
}

// device maps a device pointer the plugin returned to its Device.
func (c *Client) device(d *C.PJRT_Device) (*Device, error) {
	if dev := c.deviceByPtr[unsafe.Pointer(d)]; dev != nil {
		return dev, nil
	}
	return nil, errorf("Client", CodeInternal, "plugin returned a device the client did not list")
}

// ID is the device's global ID, the one device assignments use.
func (d *Device) ID() int { return d.id }

// Kind is the device kind: "cpu", a GPU model, a TPU version, ...
func (d *Device) Kind() string { return d.kind }

// ProcessIndex is the index of the process the device belongs to.
func (d *Device) ProcessIndex() int { return d.processIndex }

// LocalHardwareID is the device's hardware ordinal in its process (the
// CUDA ordinal, say), or -1 when the plugin does not define one.
func (d *Device) LocalHardwareID() int { return d.localHardwareID }

// IsAddressable reports whether this process can use the device.
func (d *Device) IsAddressable() bool { return d.addressable }

// Attributes are the device's attributes (the slice is shared: do not
// modify it).
func (d *Device) Attributes() []NamedValue { return d.attrs }

// Attribute returns the value of the attribute called name.
func (d *Device) Attribute(name string) (any, bool) { return lookupNamed(d.attrs, name) }

// Memories are the device's addressable memories (empty if the plugin does
// not implement memories).
func (d *Device) Memories() []*Memory { return d.memories }

// DefaultMemory is the memory buffers go to by default, or nil.
func (d *Device) DefaultMemory() *Memory { return d.defaultMemory }

// DebugString is the plugin's verbose description of the device.
func (d *Device) DebugString() string { return d.debugString }

// Client is the client the device belongs to.
func (d *Device) Client() *Client { return d.client }

// String is the plugin's terse description, e.g. CpuDevice(id=0).
func (d *Device) String() string {
	if d.str != "" {
		return d.str
	}
	return fmt.Sprintf("%s(id=%d)", d.kind, d.id)
}

// Memory is a memory space (PJRT_Memory) of a client: a device's own
// memory ("device"), or host memory it can reach ("pinned_host", ...).
type Memory struct {
	client      *Client
	ptr         *C.PJRT_Memory
	id          int
	kind        string
	kindID      int
	debugString string
	str         string
	devices     []*C.PJRT_Device
}

// memory returns the Memory for m, reading it the first time.
func (c *Client) memory(m *C.PJRT_Memory) (*Memory, error) {
	if mem := c.memoryByPtr[unsafe.Pointer(m)]; mem != nil {
		return mem, nil
	}
	p := c.plugin
	mem := &Memory{client: c, ptr: m, kindID: -1}
	{
		var a C.PJRT_Memory_Id_Args
		a.memory = m
		if err := p.callMemoryId(&a); err != nil {
			return nil, err
		}
		mem.id = int(a.id)
	}
	{
		var a C.PJRT_Memory_Kind_Args
		a.memory = m
		if err := p.callMemoryKind(&a); err != nil {
			return nil, err
		}
		mem.kind = goString(a.kind, a.kind_size)
	}
	{
		var a C.PJRT_Memory_Kind_Id_Args
		a.memory = m
		if err := optional(p.callMemoryKindId(&a)); err != nil {
			return nil, err
		} else if p.slots[slotMemoryKindId] {
			mem.kindID = int(a.kind_id)
		}
	}
	{
		var a C.PJRT_Memory_DebugString_Args
		a.memory = m
		if err := optional(p.callMemoryDebugString(&a)); err != nil {
			return nil, err
		}
		mem.debugString = goString(a.debug_string, a.debug_string_size)
	}
	{
		var a C.PJRT_Memory_ToString_Args
		a.memory = m
		if err := optional(p.callMemoryToString(&a)); err != nil {
			return nil, err
		}
		mem.str = goString(a.to_string, a.to_string_size)
	}
	{
		var a C.PJRT_Memory_AddressableByDevices_Args
		a.memory = m
		if err := optional(p.callMemoryAddressableByDevices(&a)); err != nil {
			return nil, err
		}
		mem.devices = cDevices(a.devices, a.num_devices)
	}
	c.memoryByPtr[unsafe.Pointer(m)] = mem
	return mem, nil
}

// ID is the memory's ID, unique among the client's memories.
func (m *Memory) ID() int { return m.id }

// Kind is the memory kind: "device", "pinned_host", "unpinned_host", ...
func (m *Memory) Kind() string { return m.kind }

// KindID is the plugin's number for Kind, or -1.
func (m *Memory) KindID() int { return m.kindID }

// DebugString is the plugin's verbose description.
func (m *Memory) DebugString() string { return m.debugString }

func (m *Memory) String() string {
	if m.str != "" {
		return m.str
	}
	return fmt.Sprintf("Memory(id=%d, kind=%s)", m.id, m.kind)
}

// Devices are the devices that can address the memory.
func (m *Memory) Devices() []*Device {
	var out []*Device
	for _, d := range m.devices {
		if dev := m.client.deviceByPtr[unsafe.Pointer(d)]; dev != nil {
			out = append(out, dev)
		}
	}
	return out
}
