package gomlx

import (
	"strings"
	"sync"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/shapes"
	"github.com/pkg/errors"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// Executable is a compiled computation. One device's program is compiled
// for each device it runs on (the runtime caches executables by program
// hash, so a rebuilt identical graph, or the same program on another
// device of a platform, is a cache hit), and once more per pattern of
// donated inputs (donation is compiled in as input/output aliasing).
type Executable struct {
	b         *Backend
	name      string
	fn        *ir.Func
	names     []string
	inShapes  []shapes.Shape
	outShapes []shapes.Shape
	spmd      int
	assign    []compute.DeviceNum
	// AutoSharding: fn is one partition's program (devInShapes its
	// parameters: each device's shards), and partition i runs on the
	// device assignment's entry logical[i].
	partitioned bool
	logical     []int
	devInShapes []shapes.Shape

	mu    sync.Mutex
	exes  map[exeKey]runtime.Executable
	multi map[string]runtime.MultiExecutable
	done  bool
}

type exeKey struct {
	dev    compute.DeviceNum
	donate string
}

var _ compute.Executable = (*Executable)(nil)

// Function is the IR function after Stela's passes (what is lowered).
func (e *Executable) Function() *ir.Func { return e.fn }

// Finalize drops the executable's references to compiled programs.
func (e *Executable) Finalize() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.exes, e.multi, e.done = nil, nil, true
}

// Inputs are the parameters' names and shapes.
func (e *Executable) Inputs() ([]string, []shapes.Shape) { return e.names, e.inShapes }

// Outputs are the results' shapes.
func (e *Executable) Outputs() []shapes.Shape { return e.outShapes }

// prepare compiles for the first device the computation runs on, so
// that compile errors are Compile's.
func (e *Executable) prepare() error {
	e.exes = map[exeKey]runtime.Executable{}
	e.multi = map[string]runtime.MultiExecutable{}
	if e.spmd > 0 {
		_, err := e.multiExe(nil)
		return err
	}
	dev := compute.DeviceNum(0)
	if len(e.assign) > 0 {
		dev = e.assign[0]
	}
	_, _, err := e.exe(dev, nil)
	return err
}

func maskKey(donate []bool) string {
	var b strings.Builder
	any := false
	for _, d := range donate {
		if d {
			b.WriteByte('1')
			any = true
		} else {
			b.WriteByte('0')
		}
	}
	if !any {
		return ""
	}
	return b.String()
}

func (e *Executable) types() (params, results []ir.Type) {
	for _, p := range e.fn.Params {
		params = append(params, p.Type)
	}
	for _, r := range e.fn.Results {
		results = append(results, r.Type)
	}
	return params, results
}

// exe returns the device's executable for the donation mask (nil for a
// device that only runs functions, as host does).
func (e *Executable) exe(dev compute.DeviceNum, donate []bool) (runtime.Executable, runtime.Device, error) {
	d, err := e.b.device(dev)
	if err != nil {
		return nil, nil, err
	}
	key := exeKey{dev, maskKey(donate)}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.done {
		return nil, nil, errors.Errorf("stela backend: executable %q used after Finalize", e.name)
	}
	if x, ok := e.exes[key]; ok {
		return x, d, nil
	}
	var x runtime.Executable
	if key.donate != "" {
		if ac, ok := d.(runtime.AliasingCompiler); ok {
			params, results := e.types()
			x, err = ac.CompileAliased(e.fn, runtime.Aliases(params, results, donate))
		} else {
			x, _, err = e.exeLocked(dev, d)
		}
	} else {
		x, _, err = e.exeLocked(dev, d)
	}
	if err != nil {
		return nil, nil, errors.Wrapf(err, "stela backend: compiling %q for %s", e.name, d.Name())
	}
	e.exes[key] = x
	return x, d, nil
}

func (e *Executable) exeLocked(dev compute.DeviceNum, d runtime.Device) (runtime.Executable, runtime.Device, error) {
	if x, ok := e.exes[exeKey{dev, ""}]; ok {
		return x, d, nil
	}
	c, ok := d.(runtime.Compiler)
	if !ok {
		return nil, d, nil
	}
	x, err := c.Compile(e.fn)
	if err != nil {
		return nil, d, err
	}
	e.exes[exeKey{dev, ""}] = x
	return x, d, nil
}

func (e *Executable) spmdDevices() []compute.DeviceNum {
	ds := make([]compute.DeviceNum, e.spmd)
	for i := range ds {
		ds[i] = compute.DeviceNum(i)
	}
	if len(e.assign) > 0 {
		ds = e.assign
	}
	if e.logical == nil {
		return ds
	}
	out := make([]compute.DeviceNum, len(e.logical))
	for i, l := range e.logical {
		out[i] = ds[l]
	}
	return out
}

func (e *Executable) multiExe(donate []bool) (runtime.MultiExecutable, error) {
	key := maskKey(donate)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.done {
		return nil, errors.Errorf("stela backend: executable %q used after Finalize", e.name)
	}
	if x, ok := e.multi[key]; ok {
		return x, nil
	}
	spec := runtime.CompileSpec{Replicas: e.spmd}
	if e.partitioned {
		spec = runtime.CompileSpec{Partitions: e.spmd}
	}
	for _, dn := range e.spmdDevices() {
		d, err := e.b.device(dn)
		if err != nil {
			return nil, err
		}
		spec.Devices = append(spec.Devices, d)
	}
	if key != "" {
		params, results := e.types()
		spec.Aliases = runtime.Aliases(params, results, donate)
	}
	x, err := runtime.CompileMulti(e.fn, spec)
	if err != nil {
		return nil, errors.Wrapf(err, "stela backend: compiling %q for %d devices", e.name, e.spmd)
	}
	e.multi[key] = x
	return x, nil
}

// Execute runs the computation on inputs (device-major for SPMD
// computations), donating the inputs donate marks.
func (e *Executable) Execute(inputs []compute.Buffer, donate []bool, defaultDevice compute.DeviceNum) ([]compute.Buffer, error) {
	np := len(e.inShapes)
	nd := 1
	if e.spmd > 0 {
		nd = e.spmd
	}
	if len(inputs) != np*nd {
		return nil, errors.Errorf("stela backend: %q takes %d input(s) (%d parameter(s) on %d device(s)), got %d", e.name, np*nd, np, nd, len(inputs))
	}
	if donate != nil && len(donate) != len(inputs) {
		return nil, errors.Errorf("stela backend: %q: donate has %d entries for %d inputs", e.name, len(donate), len(inputs))
	}
	bufs := make([]*Buffer, len(inputs))
	for i, in := range inputs {
		x, ok := in.(*Buffer)
		if !ok || x == nil {
			return nil, errors.Errorf("stela backend: %q input #%d is %T, not a buffer of this backend", e.name, i, in)
		}
		if want := e.devInShapes[i%np]; !x.shape.Equal(want) {
			return nil, errors.Errorf("stela backend: %q input #%d (%q) is %s, the parameter is %s", e.name, i, e.names[i%np], x.shape, want)
		}
		bufs[i] = x
	}
	// A buffer given twice is not donated (its other use still reads it).
	var mask []bool
	if donate != nil {
		count := map[*Buffer]int{}
		for _, x := range bufs {
			count[x]++
		}
		mask = make([]bool, len(bufs))
		for i, d := range donate {
			mask[i] = d && count[bufs[i]] == 1
		}
	}
	// The runtime finds the user's line (ir.CallerLoc, which skips
	// GoMLX's frames: see init) only where it needs one, when an
	// execution fails to start or donates: unwinding GoMLX's Exec frames
	// on every call cost about a microsecond.
	loc := ir.UnknownLoc
	if e.spmd > 0 {
		return e.executeSPMD(bufs, mask, loc)
	}
	dev := defaultDevice
	if len(e.assign) > 0 {
		dev = e.assign[0]
	}
	x, d, err := e.exe(dev, mask)
	if err != nil {
		return nil, err
	}
	args, err := e.args(bufs, d, dev)
	if err != nil {
		return nil, err
	}
	var outs []runtime.Buffer
	switch dn, ok := x.(runtime.Donator); {
	case x == nil:
		outs, err = d.Run(e.fn, args)
	case maskKey(mask) != "" && ok:
		outs, err = dn.RunDonated(args, mask, "gomlx "+e.name, loc)
		e.consume(bufs, mask)
	default:
		outs, err = x.Run(args, loc)
	}
	if err != nil {
		return nil, errors.Wrapf(err, "stela backend: executing %q", e.name)
	}
	awaitIfShared(bufs, outs)
	return e.wrap(outs, dev), nil
}

// awaitIfShared waits for the execution when one of its inputs is a
// shared buffer (Go may write it as soon as Execute returns). Stela's CPU
// plugin executes synchronously, so this costs nothing there; a plugin
// that runs asynchronously is waited for. A failure stays in the results
// (their reads return it).
func awaitIfShared(bufs []*Buffer, outs []runtime.Buffer) {
	for _, x := range bufs {
		if x.shared.Load() {
			for _, o := range outs {
				if w, ok := o.(interface{ Err() error }); ok {
					_ = w.Err()
				}
			}
			return
		}
	}
}

// consume marks the donated buffers as gone (the runtime freed them or
// gave their memory to results).
func (e *Executable) consume(bufs []*Buffer, mask []bool) {
	for i, m := range mask {
		if m {
			bufs[i].mu.Lock()
			bufs[i].buf = nil
			bufs[i].mu.Unlock()
		}
	}
}

// args are the runtime buffers of bufs on device d, copied there
// (through the host) when they are elsewhere.
func (e *Executable) args(bufs []*Buffer, d runtime.Device, dev compute.DeviceNum) ([]runtime.Buffer, error) {
	args := make([]runtime.Buffer, len(bufs))
	for i, x := range bufs {
		rb := x.Runtime()
		if rb == nil {
			return nil, errors.Errorf("stela backend: %q input #%d (%q): %v", e.name, i, e.names[i%len(e.names)], x.goneErr())
		}
		if rb.Device() != d {
			moved, err := x.CopyToDevice(dev)
			if err != nil {
				return nil, err
			}
			rb = moved.(*Buffer).buf
		}
		args[i] = rb
	}
	return args, nil
}

func (e *Executable) wrap(outs []runtime.Buffer, dev compute.DeviceNum) []compute.Buffer {
	res := make([]compute.Buffer, len(outs))
	for i, o := range outs {
		res[i] = &Buffer{b: e.b, dev: dev, shape: e.outShapes[i], buf: o}
	}
	return res
}

func (e *Executable) executeSPMD(bufs []*Buffer, mask []bool, loc ir.Loc) ([]compute.Buffer, error) {
	np := len(e.inShapes)
	devs := e.spmdDevices()
	// The mask is per parameter on every device: a parameter is donated
	// when it is donated on all devices.
	var pmask []bool
	if mask != nil {
		pmask = make([]bool, np)
		for p := range np {
			pmask[p] = true
			for r := range devs {
				pmask[p] = pmask[p] && mask[r*np+p]
			}
		}
	}
	x, err := e.multiExe(pmask)
	if err != nil {
		return nil, err
	}
	args := make([][]runtime.Buffer, len(devs))
	for r, dn := range devs {
		d, err := e.b.device(dn)
		if err != nil {
			return nil, err
		}
		if args[r], err = e.args(bufs[r*np:(r+1)*np], d, dn); err != nil {
			return nil, err
		}
	}
	var outs [][]runtime.Buffer
	if md, ok := x.(runtime.MultiDonator); ok && maskKey(pmask) != "" {
		outs, err = md.RunDevicesDonated(args, pmask, "gomlx "+e.name, loc)
		for r := range devs {
			e.consume(bufs[r*np:(r+1)*np], pmask)
		}
	} else {
		outs, err = x.RunDevices(args, loc)
	}
	if err != nil {
		return nil, errors.Wrapf(err, "stela backend: executing %q", e.name)
	}
	for r := range devs {
		awaitIfShared(bufs[r*np:(r+1)*np], outs[r])
	}
	var res []compute.Buffer
	for r, dn := range devs {
		res = append(res, e.wrap(outs[r], dn)...)
	}
	return res, nil
}
