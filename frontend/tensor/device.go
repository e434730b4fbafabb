package tensor

import (
	"sync"

	"github.com/stela-ml/stela/runtime"
)

// Device runs programs on the tensors it holds: the runtime's device
// interface. Eager ops reach a device as a one-op function ("eager is a
// graph of one op"), through the device's cached fast path when it has
// one (runtime.OpRunner); traced programs as whole functions.
//
// "cpu" (the default) is Stela's CPU PJRT plugin, "cuda" and "tpu" are
// real plugins when installed, "host" is the reference device, which runs
// programs with ir.Eval (the test oracle). Names are resolved by
// runtime.Lookup.
type Device = runtime.Device

// Buffer is a concrete tensor's storage on a device.
type Buffer = runtime.Buffer

var defaultDevice = struct {
	sync.Mutex
	name string
	dev  Device
}{name: "cpu"}

// HostDevice returns the reference device, which evaluates programs with
// ir.Eval.
func HostDevice() Device { return runtime.Host() }

// RegisterDevice makes d reachable under name, replacing any device of that
// name. Tensors already on the replaced device stay there.
func RegisterDevice(name string, d Device) {
	runtime.Register(name, d)
	defaultDevice.Lock()
	if defaultDevice.name == name {
		defaultDevice.dev = nil
	}
	defaultDevice.Unlock()
}

// LookupDevice finds a device by name (runtime.Lookup).
func LookupDevice(name string) (Device, error) { return runtime.Lookup(name) }

// DeviceNames lists the registered devices and those of the platforms
// opened so far, sorted.
func DeviceNames() []string { return runtime.Names() }

// SetDefaultDevice chooses where constructors (FromSlice, Zeros, ...) put
// new tensors. The default is "cpu", Stela's CPU plugin.
func SetDefaultDevice(name string) error {
	d, err := LookupDevice(name)
	if err != nil {
		return err
	}
	defaultDevice.Lock()
	defer defaultDevice.Unlock()
	defaultDevice.name, defaultDevice.dev = name, d
	return nil
}

// DefaultDevice returns the device constructors put new tensors on. A
// default that cannot be opened (no C compiler for the CPU plugin, say)
// panics with the reason: silently computing elsewhere would hide it.
func DefaultDevice() Device {
	defaultDevice.Lock()
	defer defaultDevice.Unlock()
	if defaultDevice.dev == nil {
		d, err := LookupDevice(defaultDevice.name)
		if err != nil {
			panic(fail("device", "default device: %v", err))
		}
		defaultDevice.dev = d
	}
	return defaultDevice.dev
}
