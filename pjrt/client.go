package pjrt

/*
#include "pjrt_cgo.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

// Client is a PJRT client: one plugin's view of its devices, through which
// programs are compiled and buffers made. It is safe for concurrent use.
//
// Destroy it when done, or let it be collected; either way the C client
// stays alive until every buffer, executable and event made from it is
// gone too, so objects can be destroyed in any order. After Destroy, making
// new objects from the client fails with ErrDestroyed; existing ones keep
// working.
type Client struct {
	plugin          *Plugin
	core            *clientCore
	platformName    string
	platformVersion string
	processIndex    int
	devices         []*Device // all devices, incl. other processes'
	addressable     []*Device
	memories        []*Memory // addressable memories
	deviceByPtr     map[unsafe.Pointer]*Device
	memoryByPtr     map[unsafe.Pointer]*Memory
}

// NewClient creates a client (PJRT_Client_Create) with the given create
// options, which are plugin-specific: XLA's CUDA plugin rejects unknown
// names and wrong types. It then reads the platform, the devices with
// their descriptions and memories, which stay valid for the client's life.
func (p *Plugin) NewClient(options ...NamedValue) (*Client, error) {
	copts, err := namedValuesToC("NewClient", options)
	if err != nil {
		return nil, err
	}
	defer copts.free()
	var args C.PJRT_Client_Create_Args
	args.create_options = copts.array
	args.num_options = C.size_t(copts.n)
	return p.createClient(&args)
}

// createClient calls PJRT_Client_Create with args and describes the new
// client.
func (p *Plugin) createClient(args *C.PJRT_Client_Create_Args) (*Client, error) {
	if err := p.callClientCreate(args); err != nil {
		return nil, err
	}
	if args.client == nil {
		return nil, errorf("Client_Create", CodeInternal, "plugin returned no client and no error")
	}
	c := &Client{
		plugin:      p,
		core:        &clientCore{plugin: p, ptr: unsafe.Pointer(args.client)},
		deviceByPtr: map[unsafe.Pointer]*Device{},
		memoryByPtr: map[unsafe.Pointer]*Memory{},
	}
	c.core.refs.Store(1) // the Client's own
	if err := c.describe(args.client); err != nil {
		c.core.close()
		return nil, err
	}
	runtime.AddCleanup(c, (*clientCore).close, c.core)
	return c, nil
}

func (p *Plugin) destroyClient(ptr unsafe.Pointer) {
	var args C.PJRT_Client_Destroy_Args
	args.client = (*C.PJRT_Client)(ptr)
	_ = p.callClientDestroy(&args) // nothing to do about a failure here
}

// optional turns ErrUnimplemented into "not provided".
func optional(err error) error {
	if isCode(err, CodeUnimplemented) {
		return nil
	}
	return err
}

// describe reads what a client says about itself. Devices are required;
// the rest is optional where plugins commonly lack it.
func (c *Client) describe(client *C.PJRT_Client) error {
	p := c.plugin
	{
		var a C.PJRT_Client_PlatformName_Args
		a.client = client
		if err := optional(p.callClientPlatformName(&a)); err != nil {
			return err
		}
		c.platformName = goString(a.platform_name, a.platform_name_size)
	}
	{
		var a C.PJRT_Client_PlatformVersion_Args
		a.client = client
		if err := optional(p.callClientPlatformVersion(&a)); err != nil {
			return err
		}
		c.platformVersion = goString(a.platform_version, a.platform_version_size)
	}
	{
		var a C.PJRT_Client_ProcessIndex_Args
		a.client = client
		if err := optional(p.callClientProcessIndex(&a)); err != nil {
			return err
		}
		c.processIndex = int(a.process_index)
	}
	var addressable []*C.PJRT_Device
	{
		var a C.PJRT_Client_AddressableDevices_Args
		a.client = client
		if err := p.callClientAddressableDevices(&a); err != nil {
			return err
		}
		addressable = cDevices(a.addressable_devices, a.num_addressable_devices)
	}
	all := addressable
	{
		var a C.PJRT_Client_Devices_Args
		a.client = client
		err := p.callClientDevices(&a)
		if err := optional(err); err != nil {
			return err
		}
		if err == nil {
			all = cDevices(a.devices, a.num_devices)
		}
	}
	for _, d := range all {
		dev, err := c.newDevice(d)
		if err != nil {
			return err
		}
		c.devices = append(c.devices, dev)
	}
	for _, d := range addressable {
		dev := c.deviceByPtr[unsafe.Pointer(d)]
		if dev == nil { // Client_Devices left it out
			var err error
			if dev, err = c.newDevice(d); err != nil {
				return err
			}
			c.devices = append(c.devices, dev)
		}
		c.addressable = append(c.addressable, dev)
	}
	{
		var a C.PJRT_Client_AddressableMemories_Args
		a.client = client
		if err := optional(p.callClientAddressableMemories(&a)); err != nil {
			return err
		}
		for _, m := range cMemories(a.addressable_memories, a.num_addressable_memories) {
			mem, err := c.memory(m)
			if err != nil {
				return err
			}
			c.memories = append(c.memories, mem)
		}
	}
	for _, d := range c.addressable {
		if err := c.describeMemories(d); err != nil {
			return err
		}
	}
	return nil
}

// cDevices and cMemories copy C arrays of pointers. (cgo's incomplete
// struct types cannot be type arguments.)
func cDevices(p **C.PJRT_Device, n C.size_t) []*C.PJRT_Device {
	if p == nil || n == 0 {
		return nil
	}
	return append([]*C.PJRT_Device(nil), unsafe.Slice(p, int(n))...)
}

func cMemories(p **C.PJRT_Memory, n C.size_t) []*C.PJRT_Memory {
	if p == nil || n == 0 {
		return nil
	}
	return append([]*C.PJRT_Memory(nil), unsafe.Slice(p, int(n))...)
}

// Plugin is the plugin the client was made by.
func (c *Client) Plugin() *Plugin { return c.plugin }

// PlatformName is the platform's name: "cpu", "cuda", "tpu", ... ("" if
// the plugin does not say).
func (c *Client) PlatformName() string { return c.platformName }

// PlatformVersion is free text describing the platform's version.
func (c *Client) PlatformVersion() string { return c.platformVersion }

// ProcessIndex is this process's index among the processes sharing the
// devices (0 in a single process).
func (c *Client) ProcessIndex() int { return c.processIndex }

// Devices are all devices of the platform, including those of other
// processes, which this process cannot use.
func (c *Client) Devices() []*Device { return c.devices }

// AddressableDevices are the devices this process can use, in the plugin's
// order (the default device of portable programs and buffers is the first).
func (c *Client) AddressableDevices() []*Device { return c.addressable }

// Memories are the memory spaces this process can use (empty if the plugin
// does not implement memories).
func (c *Client) Memories() []*Memory { return c.memories }

// DeviceByID returns the device whose global ID is id.
func (c *Client) DeviceByID(id int) (*Device, bool) {
	for _, d := range c.devices {
		if d.id == id {
			return d, true
		}
	}
	return nil, false
}

func (c *Client) String() string {
	return fmt.Sprintf("pjrt.Client(%s %s, %d devices)", c.platformName, c.platformVersion, len(c.addressable))
}

// Destroy releases the client. The C client is destroyed once the buffers,
// executables and events made from it are destroyed or collected too.
// Destroy is idempotent.
func (c *Client) Destroy() { c.core.close() }

// DefaultDeviceAssignment asks the plugin which devices it would use for
// replicas × partitions: the result is indexed [replica][partition] and
// holds device IDs.
func (c *Client) DefaultDeviceAssignment(replicas, partitions int) ([][]int, error) {
	const op = "Client.DefaultDeviceAssignment"
	if replicas < 1 || partitions < 1 {
		return nil, errorf(op, CodeInvalidArgument, "%d replicas × %d partitions", replicas, partitions)
	}
	client, err := c.core.acquire(op)
	if err != nil {
		return nil, err
	}
	defer c.core.release()
	n := replicas * partitions
	ids := (*C.int)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(C.int(0)))))
	defer C.free(unsafe.Pointer(ids))
	var a C.PJRT_Client_DefaultDeviceAssignment_Args
	a.client = (*C.PJRT_Client)(client)
	a.num_replicas = C.int(replicas)
	a.num_partitions = C.int(partitions)
	a.default_assignment_size = C.size_t(n)
	a.default_assignment = ids
	if err := c.plugin.callClientDefaultDeviceAssignment(&a); err != nil {
		return nil, err
	}
	flat := unsafe.Slice(ids, n)
	out := make([][]int, replicas)
	for r := range out {
		out[r] = make([]int, partitions)
		for p := range out[r] {
			out[r][p] = int(flat[r*partitions+p])
		}
	}
	return out, nil
}
