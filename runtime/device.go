package runtime

import (
	"errors"
	"fmt"
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

// The registry maps names to devices. Names of PJRT devices ("cpu",
// "cpu:1", "cuda", "tpu:0", a plugin path) are resolved on first use;
// Register adds others (the frontend's reference device "host").
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

// Lookup finds a device by name: a registered name, else a PJRT device
// "PLATFORM[:ID]" where PLATFORM is "cpu" (Stela's CPU plugin), another
// plugin name ("cuda", "tpu": found as FindPlugin says) or a plugin's
// path; ID defaults to 0.
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
	plat, id, err := splitDeviceName(name)
	if err != nil {
		return nil, err
	}
	p, err := openPlatform(plat)
	if err != nil {
		var pe *pjrt.Error
		if errors.As(err, &pe) && pe.Code == pjrt.CodeNotFound {
			return nil, fmt.Errorf("unknown device %q: not registered (%s) and %w", name, strings.Join(registeredNames(), ", "), err)
		}
		return nil, fmt.Errorf("device %q: %w", name, err)
	}
	if id < 0 || id >= len(p.devices) {
		hint := ""
		if plat == "cpu" {
			hint = fmt.Sprintf(" (set %s to have more)", EnvCPUDevices)
		}
		return nil, fmt.Errorf("device %q: platform %s has %d device(s)%s", name, plat, len(p.devices), hint)
	}
	return p.devices[id], nil
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
	platforms.Lock()
	for _, p := range platforms.byKey {
		if p.err == nil {
			for _, d := range p.devices {
				names = append(names, d.name)
			}
		}
	}
	platforms.Unlock()
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
