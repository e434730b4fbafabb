package runtime

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/stela-ml/stela/ir"
)

// Backend opens a family of devices: "cpu", "cuda", "tpu", or a name of
// its own. A backend package registers one under its family's name
// (RegisterBackend) from its init function, as database/sql drivers do,
// and programs import it for that effect; Lookup("FAMILY:N") then opens
// the family on first use. PJRT plugins need no Backend of their own:
// RegisterPlugin registers the runtime's PJRT backend with a
// PluginProvider that finds the plugin, and families nobody registered
// ("cuda", "tpu", a plugin's path) are PJRT plugins that pjrt.FindPlugin
// finds.
type Backend interface {
	// Open opens the family called name. The runtime calls it once per
	// process, on the first use of the family, and keeps what it
	// returns, an error included: a backend that failed is not retried.
	Open(name string) (Platform, error)
}

// Platform is an opened backend: its devices and what `stela devices`
// says of it. A Platform may also be a MultiCompiler.
type Platform interface {
	// Devices are the family's devices in order: Devices()[i] is named
	// "FAMILY:i" and is what Lookup("FAMILY:i") returns.
	Devices() []Device
	// Version names the platform and its version ("cpu 0.1"), for
	// `stela devices`.
	Version() string
}

// MultiCompiler is a Platform that compiles programs for several of its
// devices at once (CompileMulti).
type MultiCompiler interface {
	// CompileMulti compiles f as spec says; every device of
	// spec.Devices is one of the platform's, and there are
	// max(Replicas,1)*max(Partitions,1) of them, none twice
	// (runtime.CompileMulti checks this before calling).
	CompileMulti(f *ir.Func, spec CompileSpec) (MultiExecutable, error)
}

// CompileSpec says how a program is compiled beyond its function.
type CompileSpec struct {
	Replicas, Partitions int // 0 means 1
	// Devices is the device assignment, replica-major:
	// Devices[r*Partitions+p] runs replica r, partition p. All of one
	// backend/platform. nil: one device, the compiler's own
	// (SpecCompiler); CompileMulti, which has none, needs it.
	Devices []Device
	// Aliases pairs parameters with results, as CompileAliased: parameter
	// i with result Aliases[i] (-1, or i past the end: none), on every
	// device.
	Aliases []int
	// SPMD turns on the backend compiler's own SPMD partitioner (XLA's
	// use_spmd_partitioning): the program carries mhlo.sharding
	// annotations and is compiled once for all partitions.
	SPMD bool
	// DeviceParams and DeviceResults are the types of one device's
	// arguments and results, which RunDevices checks. Nil means the
	// types of f's parameters and results, which is right when f is
	// already the program of one device (Stela's own partitioner,
	// replicas). With SPMD, f has the global types and each device
	// holds a shard: give the shard types here, else every sharded
	// argument is refused (a PJRT backend takes the result types from
	// the compiled executable when the plugin reports them, and refuses
	// DeviceResults that contradict it).
	DeviceParams, DeviceResults []ir.Type
}

// MultiExecutable is a program compiled for several devices at once (one
// SPMD/MPMD execution over them).
type MultiExecutable interface {
	// Devices are the devices it runs on, in CompileSpec.Devices' order.
	Devices() []Device
	// RunDevices runs on args[d] (the buffers of Devices()[d], one per
	// parameter) and returns one result list per device. Errors as
	// Executable.Run: argument mistakes (a count, a type, a buffer on
	// another device, a freed one) are errors of the call; a failure of
	// the execution is recorded in every result and surfaces at reads.
	RunDevices(args [][]Buffer, loc ir.Loc) ([][]Buffer, error)
	// Hash is the stable program hash the executable was cached under
	// (ProgramHash, over the spec too); "" without a cache.
	Hash() string
}

// ProgramReporter is an executable that can say what its plugin made of
// the program: its optimized form and that form's format ("mlir" for
// StableHLO text, "hlo" for a serialized HloModuleProto). An error means
// the plugin keeps none.
type ProgramReporter interface {
	OptimizedProgram() (code []byte, format string, err error)
}

// SpecCompiler is a Device that compiles with a CompileSpec: for itself
// when spec.Devices is nil (one replica, one partition), else as
// CompileMulti does.
type SpecCompiler interface {
	CompileSpec(f *ir.Func, spec CompileSpec) (MultiExecutable, error)
}

// MultiDonator is a MultiExecutable that can run with donated arguments:
// RunDonated (Donator) on every device at once, donate[i] marking
// parameter i on all of them.
type MultiDonator interface {
	RunDevicesDonated(args [][]Buffer, donate []bool, by string, loc ir.Loc) ([][]Buffer, error)
}

// The backends by family name, and the families opened so far.
var families = struct {
	sync.Mutex
	backends map[string]Backend
	open     map[string]*family
}{backends: map[string]Backend{}, open: map[string]*family{}}

// family is a backend being opened, opened or failed: plat and err are
// set before done.
type family struct {
	once sync.Once
	done atomic.Bool
	plat Platform
	err  error
}

// RegisterBackend makes b the backend of the device family name. It
// panics when name already has a backend or is empty, as database/sql's
// Register does: two packages claiming one family is a bug of the
// program. Register before the family's first use (from init).
func RegisterBackend(name string, b Backend) {
	if name == "" || b == nil {
		panic("runtime: RegisterBackend with an empty name or a nil backend")
	}
	families.Lock()
	defer families.Unlock()
	if _, dup := families.backends[name]; dup {
		panic("runtime: RegisterBackend called twice for " + name)
	}
	families.backends[name] = b
}

// Backends lists the names of the registered backends, sorted.
func Backends() []string {
	families.Lock()
	defer families.Unlock()
	names := make([]string, 0, len(families.backends))
	for n := range families.backends {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// openFamily returns the platform of the family called name, opening it
// the first time with its registered backend, else as a PJRT plugin that
// FindPlugin finds (or a plugin's path). Families open one at a time
// each: a slow one (a plugin built on first use) holds up only its own
// users.
func openFamily(name string) (Platform, error) {
	families.Lock()
	f := families.open[name]
	if f == nil {
		f = &family{}
		families.open[name] = f
	}
	b := families.backends[name]
	families.Unlock()
	f.once.Do(func() {
		if b == nil {
			b = pluginBackend{prov: providerOfPath(name)}
		}
		f.plat, f.err = b.Open(name)
		if f.err == nil && (f.plat == nil || len(f.plat.Devices()) == 0) {
			f.plat, f.err = nil, fmt.Errorf("backend %s has no devices", name)
		}
		f.done.Store(true)
	})
	return f.plat, f.err
}

// FamilyDevices returns all devices of a family ("cpu", "cuda", "tpu", a
// plugin's path), opening its platform if it is not open yet. A
// registered device name (Register: "host") is a family of one.
func FamilyDevices(name string) ([]Device, error) {
	if d, ok := registered(name); ok {
		return []Device{d}, nil
	}
	p, err := openFamily(name)
	if err != nil {
		return nil, fmt.Errorf("devices of %s: %w", name, err)
	}
	return slices.Clone(p.Devices()), nil
}

// DeviceFamily returns the family of d: "cpu" for cpu:3, the plugin's
// path for a device named by it, d's name for a device without an index
// ("host").
func DeviceFamily(d Device) string {
	if r, ok := d.(*RemoteDevice); ok {
		return r.p.key
	}
	fam, _, err := splitDeviceName(d.Name())
	if err != nil {
		return d.Name()
	}
	return fam
}

// CompileMulti compiles f for the devices of spec.Devices, which must be
// max(Replicas,1)*max(Partitions,1) distinct devices of one platform
// (one backend), replica-major. The platform compiles it when it is a
// MultiCompiler; one device of any Device can be compiled for alone
// (its Compiler, else Run at every call).
func CompileMulti(f *ir.Func, spec CompileSpec) (MultiExecutable, error) {
	if f == nil {
		return nil, errors.New("compile for several devices: nil function")
	}
	what := "@" + f.Name
	if spec.Replicas < 0 || spec.Partitions < 0 {
		return nil, fmt.Errorf("%s: %d replicas x %d partitions", what, spec.Replicas, spec.Partitions)
	}
	n := max(spec.Replicas, 1) * max(spec.Partitions, 1)
	if len(spec.Devices) != n {
		return nil, fmt.Errorf("%s: %d replicas x %d partitions need %d devices, the spec names %d", what, max(spec.Replicas, 1), max(spec.Partitions, 1), n, len(spec.Devices))
	}
	for i, d := range spec.Devices {
		if d == nil {
			return nil, fmt.Errorf("%s: device #%d is nil", what, i)
		}
		for j := range i {
			if spec.Devices[j] == d {
				return nil, fmt.Errorf("%s: device %s is both #%d and #%d of the assignment", what, d.Name(), j, i)
			}
		}
	}
	fam := DeviceFamily(spec.Devices[0])
	var plat Platform
	if _, reg := registered(spec.Devices[0].Name()); !reg {
		var err error
		if plat, err = openFamily(fam); err != nil {
			return nil, fmt.Errorf("%s: device %s: %w", what, spec.Devices[0].Name(), err)
		}
	}
	if plat != nil {
		devs := plat.Devices()
		for i, d := range spec.Devices {
			if g := DeviceFamily(d); g != fam {
				return nil, fmt.Errorf("%s: device #%d is %s, of %s, and device #0 is of %s: a program runs on one platform", what, i, d.Name(), g, fam)
			}
			if r, ok := d.(*RemoteDevice); ok && r.p == plat {
				continue
			}
			if !slices.Contains(devs, d) {
				return nil, fmt.Errorf("%s: device #%d (%s) is not a device of platform %s", what, i, d.Name(), fam)
			}
		}
		if mc, ok := plat.(MultiCompiler); ok {
			return mc.CompileMulti(f, spec)
		}
	}
	if n != 1 {
		return nil, fmt.Errorf("%s: platform %s cannot compile for several devices", what, fam)
	}
	if spec.SPMD {
		return nil, fmt.Errorf("%s: platform %s has no SPMD partitioner (CompileSpec.SPMD)", what, fam)
	}
	return compileOne(f, spec)
}

// compileOne is CompileMulti for one device of a backend that compiles
// only for one device at a time.
func compileOne(f *ir.Func, spec CompileSpec) (MultiExecutable, error) {
	d := spec.Devices[0]
	if err := checkDeviceTypes(f, spec); err != nil {
		return nil, err
	}
	one := &oneDevice{d: d, f: f, what: "@" + f.Name}
	var err error
	switch c := d.(type) {
	case AliasingCompiler:
		one.exe, err = c.CompileAliased(f, spec.Aliases)
	case Compiler:
		if slices.ContainsFunc(spec.Aliases, func(a int) bool { return a >= 0 }) {
			return nil, fmt.Errorf("@%s: device %s cannot alias parameters with results", f.Name, d.Name())
		}
		one.exe, err = c.Compile(f)
	}
	if err != nil {
		return nil, err
	}
	return one, nil
}

// checkDeviceTypes refuses per-device types that differ from f's outside
// SPMD, where f is the program of every device.
func checkDeviceTypes(f *ir.Func, spec CompileSpec) error {
	if spec.SPMD {
		return nil
	}
	check := func(kind string, got []ir.Type, vals []*ir.Value) error {
		if got == nil {
			return nil
		}
		if len(got) != len(vals) {
			return fmt.Errorf("@%s: the spec gives %d device %s types, the function has %d", f.Name, len(got), kind, len(vals))
		}
		for i, v := range vals {
			if !got[i].Equal(v.Type) {
				return fmt.Errorf("@%s: the spec gives device %s #%d the type %v, the function %v (only SPMD programs have per-device types of their own)", f.Name, kind, i, got[i], v.Type)
			}
		}
		return nil
	}
	if err := check("parameter", spec.DeviceParams, f.Params); err != nil {
		return err
	}
	return check("result", spec.DeviceResults, f.Results)
}

// oneDevice is a MultiExecutable of one device that compiles for one
// device at a time (its Executable), or of none (Run at every call).
type oneDevice struct {
	d    Device
	f    *ir.Func
	exe  Executable // nil: d.Run
	what string
}

func (e *oneDevice) Devices() []Device { return []Device{e.d} }

func (e *oneDevice) Hash() string {
	if e.exe == nil {
		return ""
	}
	return e.exe.Hash()
}

func (e *oneDevice) RunDevices(args [][]Buffer, loc ir.Loc) ([][]Buffer, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("%s: %d argument lists for 1 device", e.what, len(args))
	}
	var outs []Buffer
	var err error
	if e.exe != nil {
		outs, err = e.exe.Run(args[0], loc)
	} else {
		outs, err = e.d.Run(e.f, args[0])
	}
	if err != nil {
		return nil, err
	}
	return [][]Buffer{outs}, nil
}

// registered returns the device registered (Register) under name.
func registered(name string) (Device, bool) {
	registry.Lock()
	defer registry.Unlock()
	d, ok := registry.byName[name]
	return d, ok
}
