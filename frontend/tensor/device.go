package tensor

import (
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/stela-ml/stela/ir"
)

// Device runs programs on the tensors it holds. Eager ops reach a device
// as a one-op ir.Func ("eager is a graph of one op"), traced programs as
// whole functions: there is one way to execute, whatever the caller.
//
// The reference device (named "host") runs programs with ir.Eval. The
// runtime package registers PJRT devices ("cpu", "cuda", "tpu") that
// compile and cache programs; op code in this package never changes when
// it does.
type Device interface {
	// Name is the device's name as users spell it, e.g. "host" or "cuda:0".
	Name() string
	// Put copies a host literal onto the device. The caller gives up l:
	// the device may keep it without copying.
	Put(l *ir.Literal) (Buffer, error)
	// Run executes f on args, one buffer of this device per parameter of f,
	// of the parameter's type, and returns one buffer per result of f.
	// Run must not modify f or the arguments. An error from an op of f
	// should be an *ir.Error located at that op.
	Run(f *ir.Func, args []Buffer) ([]Buffer, error)
}

// Buffer is a concrete tensor's storage on a device. Implementations must
// be comparable (pointer types): a trace that captures the same buffer
// twice makes one parameter of it.
type Buffer interface {
	Type() ir.Type
	Device() Device
	// Literal copies the contents into host memory; the caller owns the
	// result and may modify it.
	Literal() (*ir.Literal, error)
}

var devices = struct {
	sync.Mutex
	byName map[string]Device
	def    string
}{byName: map[string]Device{}, def: "cpu"}

// hostDevice is the reference device: buffers are host literals and
// programs run on ir.Eval, the test oracle.
type hostDevice struct{}

type hostBuffer struct {
	dev *hostDevice
	lit *ir.Literal
}

var host = &hostDevice{}

func init() {
	// Until the runtime registers a PJRT CPU device, "cpu" is the host.
	RegisterDevice("host", host)
	RegisterDevice("cpu", host)
}

// HostDevice returns the reference device, which evaluates programs with
// ir.Eval.
func HostDevice() Device { return host }

func (*hostDevice) Name() string { return "host" }

func (d *hostDevice) Put(l *ir.Literal) (Buffer, error) {
	if l == nil {
		return nil, fmt.Errorf("host: nil literal")
	}
	return &hostBuffer{dev: d, lit: l}, nil
}

func (d *hostDevice) Run(f *ir.Func, args []Buffer) ([]Buffer, error) {
	lits := make([]*ir.Literal, len(args))
	for i, a := range args {
		hb, ok := a.(*hostBuffer)
		if !ok {
			return nil, fmt.Errorf("host: argument #%d is on device %s", i, a.Device().Name())
		}
		lits[i] = hb.lit
	}
	outs, err := ir.Eval(f, lits...)
	if err != nil {
		return nil, err
	}
	bufs := make([]Buffer, len(outs))
	for i, o := range outs {
		// A result may alias an argument (a function that returns its
		// parameter); literals are never mutated in place, so sharing is safe.
		bufs[i] = &hostBuffer{dev: d, lit: o}
	}
	return bufs, nil
}

func (b *hostBuffer) Type() ir.Type                 { return b.lit.Type }
func (b *hostBuffer) Device() Device                { return b.dev }
func (b *hostBuffer) Literal() (*ir.Literal, error) { return b.lit.Clone(), nil }

// RegisterDevice makes d reachable under name, replacing any device of that
// name. Tensors already on the replaced device stay there.
func RegisterDevice(name string, d Device) {
	devices.Lock()
	defer devices.Unlock()
	devices.byName[name] = d
}

// LookupDevice finds a registered device by name.
func LookupDevice(name string) (Device, error) {
	devices.Lock()
	defer devices.Unlock()
	if d, ok := devices.byName[name]; ok {
		return d, nil
	}
	names := make([]string, 0, len(devices.byName))
	for n := range devices.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return nil, fmt.Errorf("unknown device %q (have %v)", name, names)
}

// DeviceNames lists the registered device names, sorted.
func DeviceNames() []string {
	devices.Lock()
	defer devices.Unlock()
	names := make([]string, 0, len(devices.byName))
	for n := range devices.byName {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// SetDefaultDevice chooses where constructors (FromSlice, Zeros, ...) put
// new tensors. The default is "cpu".
func SetDefaultDevice(name string) error {
	if _, err := LookupDevice(name); err != nil {
		return err
	}
	devices.Lock()
	defer devices.Unlock()
	devices.def = name
	return nil
}

// DefaultDevice returns the device constructors put new tensors on. It is
// looked up by name each time, so a device registered later under the
// default name takes over.
func DefaultDevice() Device {
	devices.Lock()
	name := devices.def
	d := devices.byName[name]
	devices.Unlock()
	if d == nil {
		return host
	}
	return d
}
