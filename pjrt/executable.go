package pjrt

/*
#include "pjrt_cgo.h"
*/
import "C"

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// LoadedExecutable is a compiled program bound to a client's devices
// (PJRT_LoadedExecutable, with its PJRT_Executable for the queries).
// Destroy it, or let it be collected.
type LoadedExecutable struct {
	client *Client
	h      *handle
	exe    *C.PJRT_Executable // may be nil: plugin lacks GetExecutable
	// Read once at compile time.
	portable      bool
	name          string
	numReplicas   int
	numPartitions int
	numOutputs    int
	outputTypes   []BufferType
	outputDims    [][]int
	devices       []*Device

	// scratch is C memory for ExecuteOne's argument and output tables,
	// freed with the executable.
	scratch *execScratch

	// pinned is set by Pin: Destroy does nothing, and the lean execute
	// path uses the object without holding it.
	pinned atomic.Bool
}

// execScratch is C memory for n pointers, used by one call at a time. It
// is its own object so that the executable's cleanup can free it without
// referring to the executable.
type execScratch struct {
	mu  sync.Mutex
	ptr unsafe.Pointer
	n   int
}

// newLoadedExecutable wraps a compiled executable; the caller holds a
// client reference.
func (c *Client) newLoadedExecutable(loaded *C.PJRT_LoadedExecutable, portable bool) *LoadedExecutable {
	p := c.plugin
	var ga C.PJRT_LoadedExecutable_GetExecutable_Args
	ga.loaded_executable = loaded
	var exe *C.PJRT_Executable
	if err := p.callLoadedExecutableGetExecutable(&ga); err == nil {
		exe = ga.executable
	}
	sc := &execScratch{}
	e := &LoadedExecutable{client: c, exe: exe, portable: portable, numReplicas: 1, numPartitions: 1, numOutputs: -1, scratch: sc}
	e.h = newHandle(c.core, unsafe.Pointer(loaded), func(ptr unsafe.Pointer) {
		sc.mu.Lock()
		C.free(sc.ptr)
		sc.ptr, sc.n = nil, 0
		sc.mu.Unlock()
		if exe != nil {
			var a C.PJRT_Executable_Destroy_Args
			a.executable = exe
			_ = p.callExecutableDestroy(&a)
		}
		var a C.PJRT_LoadedExecutable_Destroy_Args
		a.executable = (*C.PJRT_LoadedExecutable)(ptr)
		_ = p.callLoadedExecutableDestroy(&a)
	})
	runtime.AddCleanup(e, (*handle).destroy, e.h)
	return e
}

// describe reads the executable's properties. The number of outputs is
// required (Execute sizes its output arrays with it); the rest is optional.
func (e *LoadedExecutable) describe() error {
	p := e.client.plugin
	if e.exe == nil {
		return errorf("LoadedExecutable_GetExecutable", CodeUnimplemented, "plugin %s cannot describe executables", p.path)
	}
	info, err := p.describeExecutable(e.exe)
	if err != nil {
		return err
	}
	e.name, e.numReplicas, e.numPartitions, e.numOutputs = info.name, info.numReplicas, info.numPartitions, info.numOutputs
	e.outputTypes, e.outputDims = info.outputTypes, info.outputDims
	{
		var a C.PJRT_LoadedExecutable_AddressableDevices_Args
		ptr, _ := e.h.use("describe")
		a.executable = (*C.PJRT_LoadedExecutable)(ptr)
		err := p.callLoadedExecutableAddressableDevices(&a)
		e.h.done()
		if optional(err) != nil {
			return err
		}
		for _, d := range cDevices(a.addressable_devices, a.num_addressable_devices) {
			dev, err := e.client.device(d)
			if err != nil {
				return err
			}
			e.devices = append(e.devices, dev)
		}
	}
	return nil
}

// Name is the program's name (the module's, for StableHLO).
func (e *LoadedExecutable) Name() string { return e.name }

// NumOutputs is the number of results per device (results are untupled).
func (e *LoadedExecutable) NumOutputs() int { return e.numOutputs }

// NumReplicas and NumPartitions are the program's device shape.
func (e *LoadedExecutable) NumReplicas() int { return e.numReplicas }

// NumPartitions: see NumReplicas.
func (e *LoadedExecutable) NumPartitions() int { return e.numPartitions }

// Portable reports whether the executable was compiled without a device
// assignment, to run on any one device chosen at execute time.
func (e *LoadedExecutable) Portable() bool { return e.portable }

// OutputTypes are the element types of the outputs (nil if the plugin does
// not say).
func (e *LoadedExecutable) OutputTypes() []BufferType { return e.outputTypes }

// OutputDims are the dimensions of the outputs (nil if the plugin does not
// say).
func (e *LoadedExecutable) OutputDims() [][]int { return e.outputDims }

// AddressableDevices are the devices the executable runs on, in the order
// ExecuteDevices takes argument lists (the device assignment's order).
func (e *LoadedExecutable) AddressableDevices() []*Device { return e.devices }

// Client is the client the executable was compiled by.
func (e *LoadedExecutable) Client() *Client { return e.client }

// Destroy frees the executable. It is idempotent; buffers it made stay
// valid. It does nothing to a pinned executable (Pin).
func (e *LoadedExecutable) Destroy() {
	if e.pinned.Load() {
		return
	}
	e.h.destroy()
}

// Pin makes the executable live until it is unreachable: Destroy does
// nothing from now on, so executions need not hold it against a
// concurrent Destroy (a read lock and its release, two locked
// instructions of every eager op). For executables that are cached and
// never destroyed by their owner (the runtime's programs).
func (e *LoadedExecutable) Pin() { e.pinned.Store(true) }

// ExecuteOptions modify an execution.
type ExecuteOptions struct {
	// Device runs a portable executable on this device. Nil: the device of
	// the first argument, else the client's first addressable device.
	// Ignored for executables compiled with a device assignment.
	Device *Device
	// Donate lists the arguments (by index) whose buffers the executable
	// may consume, e.g. to write an output in place. A donated buffer must
	// not be used afterwards, except to Destroy it. All other arguments are
	// passed as non-donatable.
	Donate []int
	// LaunchID identifies the launch to collectives across processes.
	LaunchID int
	// Context is passed to the plugin as the execution's
	// PJRT_ExecuteContext: on Stela's CPU plugin, cancelling it stops the
	// execution (ExecuteContext.Cancel). Nil: none.
	Context *ExecuteContext
}

// Execution is a launched execution: one output list and one completion
// event per device. Outputs may be used (their reads wait) before the
// events fire.
type Execution struct {
	Outputs [][]*Buffer
	Done    []*Event // nil entries where the plugin gave no event
}

// Await waits for every device, destroys the events and returns the
// errors, joined.
func (x *Execution) Await() error {
	var errs []error
	for i, ev := range x.Done {
		if ev == nil {
			continue
		}
		if err := ev.Await(); err != nil {
			errs = append(errs, err)
		}
		ev.Destroy()
		x.Done[i] = nil
	}
	return errors.Join(errs...)
}

// Execute runs the executable on one device with args and waits for the
// outputs: a portable executable on the device of args[0] (else the
// client's first device), any other on its one device.
func (e *LoadedExecutable) Execute(args ...*Buffer) ([]*Buffer, error) {
	outs, err := e.run([][]*Buffer{args}, nil)
	if err != nil {
		return nil, err
	}
	return outs[0], nil
}

// ExecuteOn runs a portable executable on dev.
func (e *LoadedExecutable) ExecuteOn(dev *Device, args ...*Buffer) ([]*Buffer, error) {
	outs, err := e.run([][]*Buffer{args}, &ExecuteOptions{Device: dev})
	if err != nil {
		return nil, err
	}
	return outs[0], nil
}

// ExecuteDevices runs an executable compiled for several devices: one
// argument list per device, in AddressableDevices order, and one output
// list per device back.
func (e *LoadedExecutable) ExecuteDevices(argLists [][]*Buffer) ([][]*Buffer, error) {
	return e.run(argLists, nil)
}

// ExecuteContext runs like ExecuteDevices (one argument list per device;
// a portable executable runs on opts.Device, else as Execute) under ctx:
// when ctx is done before the execution ends, a plugin that can cancel
// executions stops it and the call fails with CodeDeadlineExceeded or
// CodeCancelled (errors.Is matches context.DeadlineExceeded and
// context.Canceled); see ExecuteOneContext. opts may be nil; its Context
// is replaced.
func (e *LoadedExecutable) ExecuteContext(ctx context.Context, argLists [][]*Buffer, opts *ExecuteOptions) ([][]*Buffer, error) {
	var o ExecuteOptions
	if opts != nil {
		o = *opts
	}
	var outs [][]*Buffer
	err := e.client.plugin.withContext("LoadedExecutable.Execute", ctx, func(x *ExecuteContext) error {
		o.Context = x
		var err error
		outs, err = e.run(argLists, &o)
		return err
	})
	return outs, err
}

// portableDevice is where a portable executable runs: dev, else the
// device of the first argument (may be nil), else the client's first
// addressable device.
func (e *LoadedExecutable) portableDevice(op string, dev *Device, first *Buffer) (*Device, error) {
	c := e.client
	if dev == nil && first != nil {
		dev, _ = first.Device()
	}
	if dev == nil && len(c.addressable) > 0 {
		dev = c.addressable[0]
	}
	if dev == nil {
		return nil, errorf(op, CodeFailedPrecondition, "client has no addressable device")
	}
	if dev.client.core != c.core {
		return nil, errorf(op, CodeInvalidArgument, "device %v belongs to another client", dev)
	}
	return dev, nil
}

// run launches and waits; on failure it destroys the outputs.
func (e *LoadedExecutable) run(argLists [][]*Buffer, opts *ExecuteOptions) ([][]*Buffer, error) {
	x, err := e.Launch(argLists, opts)
	if err != nil {
		return nil, err
	}
	if err := x.Await(); err != nil {
		for _, list := range x.Outputs {
			for _, b := range list {
				b.Destroy()
			}
		}
		return nil, err
	}
	return x.Outputs, nil
}

// Launch starts an execution without waiting for it
// (PJRT_LoadedExecutable_Execute): argLists holds one argument list per
// device (one list for a portable executable). opts may be nil.
func (e *LoadedExecutable) Launch(argLists [][]*Buffer, opts *ExecuteOptions) (*Execution, error) {
	const op = "LoadedExecutable.Execute"
	if opts == nil {
		opts = &ExecuteOptions{}
	}
	c := e.client
	p := c.plugin
	nDev := len(argLists)
	if nDev == 0 {
		return nil, errorf(op, CodeInvalidArgument, "no argument lists (one per device, even if empty)")
	}
	if e.portable && nDev != 1 {
		return nil, errorf(op, CodeInvalidArgument, "portable executable runs on one device, got %d argument lists", nDev)
	}
	nArgs := len(argLists[0])
	var all []*Buffer // every device's arguments, for holdBuffers
	for d, list := range argLists {
		if len(list) != nArgs {
			return nil, errorf(op, CodeInvalidArgument, "device %d has %d arguments, device 0 has %d", d, len(list), nArgs)
		}
		for i, b := range list {
			if b == nil {
				return nil, errorf(op, CodeInvalidArgument, "argument %d of device %d is nil", i, d)
			}
			if b.client.core != c.core {
				return nil, errorf(op, CodeInvalidArgument, "argument %d of device %d belongs to another client", i, d)
			}
			all = append(all, b)
		}
	}
	donate := make([]bool, nArgs)
	for _, i := range opts.Donate {
		if i < 0 || i >= nArgs {
			return nil, errorf(op, CodeInvalidArgument, "donated argument %d out of range [0, %d)", i, nArgs)
		}
		donate[i] = true
	}
	var execDevice *C.PJRT_Device
	if e.portable {
		var first *Buffer
		if nArgs > 0 {
			first = argLists[0][0]
		}
		dev, err := e.portableDevice(op, opts.Device, first)
		if err != nil {
			return nil, err
		}
		execDevice = dev.ptr
	}
	nOut := e.numOutputs

	// The executable, then the arguments in address order, a donated one
	// exclusively (handle.go's lock order).
	if _, err := e.h.use(op); err != nil {
		return nil, err
	}
	defer e.h.done()
	excl := make([]bool, len(all))
	for k := range all {
		excl[k] = donate[k%max(nArgs, 1)]
	}
	ord := bufferOrder(make([]int32, 0, len(all)), all)
	if err := holdBuffers(op, all, excl, ord, make([]unsafe.Pointer, len(all))); err != nil {
		return nil, err
	}
	defer releaseBuffers(all, excl, ord)
	loaded := (*C.PJRT_LoadedExecutable)(e.h.ptr)

	// The argument and output tables, the events and the options live in
	// C memory: they hold pointers. Tables are never NULL, even with no
	// arguments or outputs, since plugins index them per device.
	ptrSize := C.size_t(unsafe.Sizeof(uintptr(0)))
	alloc := func(n int, size C.size_t) unsafe.Pointer { return C.calloc(C.size_t(max(n, 1)), size) }
	argTable := (**C.PJRT_Buffer)(alloc(nDev, ptrSize))
	defer C.free(unsafe.Pointer(argTable))
	argBlock := (**C.PJRT_Buffer)(alloc(nDev*nArgs, ptrSize))
	defer C.free(unsafe.Pointer(argBlock))
	outTable := (**C.PJRT_Buffer)(alloc(nDev, ptrSize))
	defer C.free(unsafe.Pointer(outTable))
	outBlock := (**C.PJRT_Buffer)(alloc(nDev*nOut, ptrSize))
	defer C.free(unsafe.Pointer(outBlock))
	events := (**C.PJRT_Event)(alloc(nDev, ptrSize))
	defer C.free(unsafe.Pointer(events))
	eopts := (*C.PJRT_ExecuteOptions)(alloc(1, C.size_t(unsafe.Sizeof(C.PJRT_ExecuteOptions{}))))
	defer C.free(unsafe.Pointer(eopts))
	nonDonatable := (*C.int64_t)(alloc(nArgs, 8))
	defer C.free(unsafe.Pointer(nonDonatable))

	argRows := unsafe.Slice((*unsafe.Pointer)(unsafe.Pointer(argTable)), nDev)
	args := unsafe.Slice(argBlock, max(nDev*nArgs, 1))
	outRows := unsafe.Slice((*unsafe.Pointer)(unsafe.Pointer(outTable)), nDev)
	for d := range nDev {
		argRows[d] = unsafe.Pointer(&args[d*nArgs])
		outRows[d] = unsafe.Add(unsafe.Pointer(outBlock), d*nOut*int(ptrSize))
		for i, b := range argLists[d] {
			args[d*nArgs+i] = (*C.PJRT_Buffer)(b.h.ptr)
		}
	}
	nd := unsafe.Slice(nonDonatable, max(nArgs, 1))
	nNonDonatable := 0
	for i := range nArgs {
		if !donate[i] {
			nd[nNonDonatable] = C.int64_t(i)
			nNonDonatable++
		}
	}
	eopts.struct_size = C.PJRT_ExecuteOptions_STRUCT_SIZE
	eopts.launch_id = C.int(opts.LaunchID)
	eopts.non_donatable_input_indices = nonDonatable
	eopts.num_non_donatable_input_indices = C.size_t(nNonDonatable)
	if opts.Context != nil {
		eopts.context = opts.Context.ptr
	}

	var a C.PJRT_LoadedExecutable_Execute_Args
	a.executable = loaded
	a.options = eopts
	a.argument_lists = (***C.PJRT_Buffer)(unsafe.Pointer(argTable))
	a.num_devices = C.size_t(nDev)
	a.num_args = C.size_t(nArgs)
	a.output_lists = (***C.PJRT_Buffer)(unsafe.Pointer(outTable))
	a.device_complete_events = events
	a.execute_device = execDevice
	if err := p.callLoadedExecutableExecute(&a); err != nil {
		return nil, err
	}

	x := &Execution{Outputs: make([][]*Buffer, nDev), Done: make([]*Event, nDev)}
	outs := unsafe.Slice(outBlock, max(nDev*nOut, 1))
	evs := unsafe.Slice(events, nDev)
	missing := false
	for d := range nDev {
		x.Outputs[d] = make([]*Buffer, nOut)
		for o := range nOut {
			if ptr := outs[d*nOut+o]; ptr != nil {
				x.Outputs[d][o] = c.newBuffer(ptr)
			} else {
				missing = true
			}
		}
		if evs[d] != nil {
			x.Done[d] = c.newEvent(evs[d])
		}
	}
	if missing {
		_ = x.Await()
		for _, list := range x.Outputs {
			for _, b := range list {
				if b != nil {
					b.Destroy()
				}
			}
		}
		return nil, errorf("LoadedExecutable_Execute", CodeInternal, "plugin left output buffers unset")
	}
	return x, nil
}
