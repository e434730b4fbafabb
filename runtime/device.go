package runtime

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
)

// Device runs programs on the buffers it holds. Eager ops reach a device
// as one-op functions, traced programs as whole functions: there is one
// way to execute, whatever the caller.
type Device interface {
	// Name is the device's name as users spell it: "host", "cpu:0",
	// "cuda:0".
	Name() string
	// Put copies a host literal onto the device. The caller gives up l:
	// the device may keep it without copying.
	Put(l *ir.Literal) (Buffer, error)
	// Run executes f on args, one buffer of this device per parameter of
	// f, of the parameter's type, and returns one buffer per result. Run
	// must not modify f or the arguments. An error from an op of f should
	// be an *ir.Error located at that op.
	Run(f *ir.Func, args []Buffer) ([]Buffer, error)
}

// Buffer is a concrete array's storage on a device. Implementations must be
// comparable (pointer types).
type Buffer interface {
	Type() ir.Type
	Device() Device
	// Literal copies the contents into host memory; the caller owns the
	// result. It waits for the computation that makes the buffer and
	// returns its error, if it failed: host reads are where asynchronous
	// device errors surface.
	Literal() (*ir.Literal, error)
}

// Freer is a Buffer whose memory can be released before it is collected.
// After Free, reads fail and Freed reports true.
type Freer interface {
	Free()
	Freed() bool
}

// Compiler is a Device that compiles a function once and runs it many
// times; jit uses it to skip the per-call lowering and hashing of Run.
type Compiler interface {
	Compile(f *ir.Func) (Executable, error)
}

// Executable is a compiled function bound to a device.
type Executable interface {
	// Run executes on args (buffers of the executable's device). loc is
	// where the user asked for it, for errors that surface later.
	Run(args []Buffer, loc ir.Loc) ([]Buffer, error)
	// Hash is the stable program hash the executable was cached under
	// (ProgramHash); "" for devices without a cache.
	Hash() string
}

// ContextRunner is an Executable that runs under a context.Context: when
// ctx is done before the execution ends, the device stops it (the Stela
// CPU plugin does, at its next check: a while loop's back-edge, a kernel,
// a chunk of a parallel loop), and the results hold an error for which
// errors.Is(err, context.DeadlineExceeded) (or context.Canceled) holds.
// Every executable of a PJRT device is one.
type ContextRunner interface {
	RunContext(ctx context.Context, args []Buffer, loc ir.Loc) ([]Buffer, error)
}

// RunContext runs e on args under ctx: e's RunContext when it is a
// ContextRunner, else (after checking that ctx is not done already) Run.
// As with Run, a failure of the execution, a cancellation included, is
// recorded in the results and surfaces when they are read.
func RunContext(ctx context.Context, e Executable, args []Buffer, loc ir.Loc) ([]Buffer, error) {
	if r, ok := e.(ContextRunner); ok {
		return r.RunContext(ctx, args, loc)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return e.Run(args, loc)
}

// AliasingCompiler is a Compiler that can compile input/output aliasing
// into a program, so that its results can be written into the buffers of
// donated arguments (buffer donation, as XLA's input_output_alias and
// JAX's donate_argnums have it). The aliasing is part of the program:
// the same f compiled with other aliases is another executable.
type AliasingCompiler interface {
	// CompileAliased compiles f with parameter i paired with result
	// aliases[i] (-1, or i past the slice's end: none). A paired result
	// has the parameter's type and no result is paired twice (Aliases
	// makes such a pairing). The executable runs like any other, and
	// when it is a Donator, RunDonated writes each paired result into
	// its donated argument's buffer where the device can.
	CompileAliased(f *ir.Func, aliases []int) (Executable, error)
}

// Donator is an Executable that can run with donated arguments.
type Donator interface {
	// RunDonated is Run that gives the buffers of the arguments with
	// donate[i] set (donate has one entry per argument) to the
	// execution: a result the program pairs with a donated argument may
	// be written into that argument's memory, with no new allocation.
	// After the call the donated buffers are consumed, paired or not,
	// whether the device reused their memory or not, and even when the
	// execution failed: Freed reports true, and reads and runs fail with
	// a *DonatedError that names the execution as by ("jit @step"; ""
	// means the program's name, "@step") and loc. The call is an error,
	// donating nothing, when a donated buffer is also another argument.
	RunDonated(args []Buffer, donate []bool, by string, loc ir.Loc) ([]Buffer, error)
}

// Aliases pairs donated parameters with results the way XLA's clients
// and JAX do: each donated parameter, in order, takes the first result of
// its type (element type and shape) that no earlier one took. The result
// has one entry per parameter: the result index, or -1 for parameters not
// donated and for donated ones left without a result (a device only
// releases those).
func Aliases(params, results []ir.Type, donate []bool) []int {
	aliases := make([]int, len(params))
	taken := make([]bool, len(results))
	for i := range params {
		aliases[i] = -1
		if i >= len(donate) || !donate[i] {
			continue
		}
		for j, r := range results {
			if !taken[j] && r.Equal(params[i]) {
				aliases[i], taken[j] = j, true
				break
			}
		}
	}
	return aliases
}

// DonatedError is the error of using a buffer that was donated to an
// execution (Donator.RunDonated): its memory now holds a result of that
// execution, or was released.
type DonatedError struct {
	To string // the execution: "jit @step", "@step"
	At ir.Loc // where it ran
}

func (e *DonatedError) Error() string {
	return fmt.Sprintf("buffer was donated to %s at %v", e.To, e.At)
}

// DonatedTo returns the donation that consumed b, or nil when b was not
// donated.
func DonatedTo(b Buffer) *DonatedError {
	if pb, ok := b.(*pjrtBuffer); ok {
		return pb.donated.Load()
	}
	return nil
}

// DataPointer is the address of a PJRT buffer's memory (the plugin's
// PJRT_Buffer_UnsafePointer: host memory for Stela's CPU plugin), for
// tests and debugging, such as checking that a donated argument's memory
// came back as a result. An error for other buffers, and for freed or
// donated ones.
func DataPointer(b Buffer) (uintptr, error) {
	if isNilBuffer(b) {
		return 0, errors.New("buffer is nil")
	}
	pb, ok := b.(*pjrtBuffer)
	if !ok {
		return 0, fmt.Errorf("buffer on %s is not a PJRT buffer", b.Device().Name())
	}
	if pb.freed.Load() || pb.pb == nil {
		if err := pb.Err(); err != nil {
			return 0, err
		}
		return 0, errors.New("buffer was freed")
	}
	return pb.pb.UnsafePointer()
}

// HostMemory reports whether d's buffers live in this process's host
// memory, where DataPointer addresses them: devices of a PJRT plugin
// whose platform is "cpu" (Stela's CPU plugin keeps every buffer in
// host memory it allocates, and gives a buffer's storage to no other
// buffer except a result its donation makes). Frameworks that let their
// users read and write a buffer in place (GoMLX's shared buffers) use
// it; they must order such writes with the executions that read the
// buffer (Stela's CPU plugin executes synchronously: once Run returns,
// nothing reads the arguments).
func HostMemory(d Device) bool {
	pd, ok := d.(*pjrtDevice)
	return ok && pd.p.client.PlatformName() == "cpu"
}

// ViewHostMemory makes a buffer of type t on d whose memory is mem
// itself, without a copy: a dense row-major array at the start of mem
// (Bool elements one byte each, 0 or 1). d must keep its buffers in host
// memory (HostMemory); mem must not be memory Go's collector manages
// (syscall.Mmap's, C memory), must outlive the buffer and must not be
// written while an execution reads it. When the device no longer needs
// mem (the buffer freed or collected, and the executions that read it
// ended) release, if not nil, is called once, possibly on a plugin
// thread. A zero-copy load of a file: syscall.Mmap it and view each
// tensor's bytes, with munmap in the last release. Executions read the
// view in place (Stela's CPU plugin at any address aligned to the element
// size; it reads an older compiled program's view not aligned to 64 bytes
// through a copy); donating it never gives its memory to a result.
func ViewHostMemory(d Device, t ir.Type, mem []byte, release func()) (Buffer, error) {
	if d == nil {
		return nil, errors.New("ViewHostMemory: nil device")
	}
	pd, ok := d.(*pjrtDevice)
	if !ok || !HostMemory(d) {
		return nil, fmt.Errorf("%s: its buffers are not in host memory: no views of host memory", d.Name())
	}
	pb, err := pd.p.client.ViewOfHostMemory(mem, t.DType, t.Shape, pd.dev, release)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pd.name, err)
	}
	return pd.newBuffer(t, pb), nil
}

// OpRunner is a Device with a fast path for eager ops. key identifies a
// one-op program on this device: the op, its attributes and its operand
// types. RunOp runs the program cached under key, if there is one (found
// is false otherwise, and nothing ran); AddOp compiles f, the op as a
// function of its operands in order, under key. loc is the op's Go call
// site; an unknown Loc means the device should find it (ir.CallerLoc) when
// something fails, which it can because it fails on the caller's stack. Two calls rather than a build callback keep a cache hit free of
// allocations for the callback.
type OpRunner interface {
	RunOp(key []byte, args []Buffer, loc ir.Loc) (outs []Buffer, found bool, err error)
	AddOp(key []byte, f *ir.Func) error
}

// The registry maps names to devices. Names of the devices of backends
// ("cpu", "cpu:1", "cuda", "tpu:0", a plugin path) are resolved on first
// use; Register adds others (the runtime's reference device "host").
var registry = struct {
	sync.Mutex
	byName map[string]Device
}{byName: map[string]Device{}}

// Register makes d reachable under name, replacing any device of that
// name. Tensors already on a replaced device stay there.
func Register(name string, d Device) {
	registry.Lock()
	defer registry.Unlock()
	registry.byName[name] = d
}

// Lookup finds a device by name: a registered name, else device ID of a
// family "FAMILY[:ID]", where FAMILY is one with a registered backend
// ("cpu": Stela's CPU plugin, with runtime/stelacpu imported), another
// PJRT plugin's name ("cuda", "tpu": found as FindPlugin says) or a
// plugin's path; ID defaults to 0.
func Lookup(name string) (Device, error) {
	if err := env.Err(); err != nil {
		return nil, err
	}
	registry.Lock()
	d, ok := registry.byName[name]
	registry.Unlock()
	if ok {
		return d, nil
	}
	fam, id, err := splitDeviceName(name)
	if err != nil {
		return nil, err
	}
	p, err := openFamily(fam)
	if err != nil {
		var pe *pjrt.Error
		if errors.As(err, &pe) && pe.Code == pjrt.CodeNotFound {
			backends := "none; Stela's CPU plugin's is runtime/stelacpu"
			if bs := Backends(); len(bs) > 0 {
				backends = strings.Join(bs, ", ")
			}
			return nil, fmt.Errorf("unknown device %q: not registered (%s), no backend for %s (backends: %s), and %w", name, strings.Join(registeredNames(), ", "), fam, backends, err)
		}
		return nil, fmt.Errorf("device %q: %w", name, err)
	}
	devs := p.Devices()
	if id < 0 || id >= len(devs) {
		hint := ""
		if h, ok := p.(interface{ moreDevices() string }); ok && h.moreDevices() != "" {
			hint = " (" + h.moreDevices() + ")"
		}
		return nil, fmt.Errorf("device %q: platform %s has %d device(s)%s", name, fam, len(devs), hint)
	}
	return devs[id], nil
}

// splitDeviceName splits "cuda:1" into ("cuda", 1); a plugin path may
// itself hold colons only before a final ":ID".
func splitDeviceName(name string) (string, int, error) {
	if name == "" {
		return "", 0, fmt.Errorf("empty device name")
	}
	plat, id := name, 0
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		n, err := strconv.Atoi(name[i+1:])
		if err != nil {
			if !strings.ContainsRune(name, '/') {
				return "", 0, fmt.Errorf("device %q: want PLATFORM or PLATFORM:ID", name)
			}
		} else {
			plat, id = name[:i], n
		}
	}
	return plat, id, nil
}

func registeredNames() []string {
	registry.Lock()
	defer registry.Unlock()
	names := make([]string, 0, len(registry.byName))
	for n := range registry.byName {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Names lists the registered names and the devices of the platforms
// opened so far, sorted.
func Names() []string {
	names := registeredNames()
	families.Lock()
	for _, f := range families.open {
		if f.done.Load() && f.err == nil {
			for _, d := range f.plat.Devices() {
				names = append(names, d.Name())
			}
		}
	}
	families.Unlock()
	slices.Sort(names)
	return slices.Compact(names)
}

// RunOp is d.RunOp when d is an OpRunner (found is false otherwise). Call
// it rather than the interface method: for the runtime's own devices it
// makes a direct call, so key and args can stay on the caller's stack
// (arguments of an interface call escape to the heap, two allocations per
// eager op).
//
// The results are appended to dst, which may be the caller's array (a
// slice of it with room for them): an eager op then allocates no slices.
func RunOp(d Device, key []byte, args []Buffer, loc ir.Loc, dst []Buffer) (outs []Buffer, found bool, err error) {
	if pd, ok := d.(*pjrtDevice); ok {
		return pd.runOpTo(dst, key, args, loc)
	}
	if r, ok := d.(OpRunner); ok {
		outs, found, err := r.RunOp(slices.Clone(key), slices.Clone(args), loc)
		return append(dst, outs...), found, err
	}
	return dst, false, nil
}

// isNilBuffer reports whether b is nil, or a nil pointer in a Buffer (a
// caller's nil *T): either is an argument error of a run, not a panic.
// Only the error paths call it: reflect is not for every argument.
func isNilBuffer(b Buffer) bool {
	if b == nil {
		return true
	}
	v := reflect.ValueOf(b)
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan:
		return v.IsNil()
	}
	return false
}

// argDevice names the device of a (an argument that is not where a run
// wants it) for an error: "nil" for a nil buffer, which callers report
// as such before asking.
func argDevice(a Buffer) string {
	if isNilBuffer(a) {
		return "nil"
	}
	d := a.Device()
	if d == nil {
		return "<no device>"
	}
	return d.Name()
}
