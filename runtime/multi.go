package runtime

import (
	"fmt"
	"slices"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
)

// multiExec is a program compiled by a PJRT platform for several of its
// devices (one execution over all of them), or for one device alone
// (single: the portable program of CompileAliased, run as a boundExec
// runs it).
type multiExec struct {
	c    *compiled
	devs []*pjrtDevice // CompileSpec.Devices' order; nil for devices of other processes
	// remote are the devices of other processes (a program over a job's
	// devices), at their indexes in devs; nil when all are here.
	remote []*RemoteDevice
	// order[k] is the index in devs of the executable's k-th
	// addressable device: argument lists go to the plugin in that order.
	order  []int
	single bool
	// params and results are the types of one device's arguments and
	// results.
	params, results []ir.Type
}

// CompileMulti compiles f for spec.Devices, all of them this platform's
// (MultiCompiler): through the driver, with the replicas, partitions,
// device assignment (the devices' PJRT IDs) and SPMD flag of spec in the
// compile options, and mhlo.num_replicas and mhlo.num_partitions in the
// program. One device without SPMD is the portable program that Compile
// makes, bound to that device.
func (p *platform) CompileMulti(f *ir.Func, spec CompileSpec) (MultiExecutable, error) {
	what := "@" + f.Name
	if spec.SPMD && p.prov.NoSPMD {
		return nil, fmt.Errorf("%s: platform %s has no SPMD partitioner (CompileSpec.SPMD): partition the program with Stela's own partitioner and compile it without SPMD", what, p.key)
	}
	if err := checkDeviceTypes(f, spec); err != nil {
		return nil, err
	}
	e := &multiExec{devs: make([]*pjrtDevice, len(spec.Devices))}
	for i, d := range spec.Devices {
		if r, ok := d.(*RemoteDevice); ok && r.p == p {
			if e.remote == nil {
				e.remote = make([]*RemoteDevice, len(spec.Devices))
			}
			e.remote[i] = r
			continue
		}
		pd, ok := d.(*pjrtDevice)
		if !ok || pd.p != p {
			return nil, fmt.Errorf("%s: device #%d (%s) is not a device of platform %s", what, i, d.Name(), p.key)
		}
		e.devs[i] = pd
	}
	if e.remote != nil && !slices.ContainsFunc(e.devs, func(d *pjrtDevice) bool { return d != nil }) {
		return nil, fmt.Errorf("%s: none of the devices is in this process (process %d): each process runs a program on its own devices", what, p.node)
	}
	r, q := max(spec.Replicas, 1), max(spec.Partitions, 1)
	if r*q != len(e.devs) {
		return nil, fmt.Errorf("%s: %d replicas x %d partitions need %d devices, the spec names %d", what, r, q, r*q, len(e.devs))
	}
	var err error
	if r*q == 1 && !spec.SPMD && e.remote == nil {
		if e.c, err = p.compileAliased(f, spec.Aliases); err != nil {
			return nil, err
		}
		e.single, e.order = true, []int{0}
		e.params, e.results = e.c.params, e.c.results
		return e, nil
	}
	opts := pjrt.CompileOptions{NumReplicas: r, NumPartitions: q, UseSPMDPartitioning: spec.SPMD, DeviceAssignment: make([][]int, r)}
	for i := range r {
		opts.DeviceAssignment[i] = make([]int, q)
		for j := range q {
			opts.DeviceAssignment[i][j] = e.deviceID(i*q + j)
		}
	}
	optBytes, err := opts.Marshal()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	lo := LowerOptions{NumReplicas: r, NumPartitions: q, Aliases: spec.Aliases, Annotate: spec.SPMD}
	if e.c, err = p.compileProgram(f, lo, &opts, optBytes); err != nil {
		return nil, err
	}
	if e.order, err = deviceOrder(e.c.le, e.devs); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	e.params, e.results = e.c.params, e.c.results
	if spec.DeviceParams != nil {
		e.params = spec.DeviceParams
	}
	compiledResults, err := executableResults(e.c.le)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	switch {
	case spec.DeviceResults != nil:
		e.results = spec.DeviceResults
	case spec.SPMD && compiledResults != nil:
		e.results = compiledResults
	}
	if n := e.c.le.NumOutputs(); n != len(e.results) {
		return nil, fmt.Errorf("%s: the compiled program has %d results on each device, want %d", what, n, len(e.results))
	}
	for i, t := range compiledResults {
		if !t.Equal(e.results[i]) {
			return nil, fmt.Errorf("%s: result #%d of the compiled program is %v on each device, want %v", what, i, t, e.results[i])
		}
	}
	return e, nil
}

// deviceID is the id of device i in the device assignment: the
// plugin's own, or, for a client of a job (the Stela CPU plugin's), the
// job's global id.
func (e *multiExec) deviceID(i int) int {
	if e.remote != nil && e.remote[i] != nil {
		return e.remote[i].g.Global
	}
	d := e.devs[i]
	if d.p.nodes > 1 {
		return d.p.node*len(d.p.devices) + d.dev.ID()
	}
	return d.dev.ID()
}

// CompileSpec compiles f as spec says, for d alone when spec.Devices is
// nil (SpecCompiler).
func (d *pjrtDevice) CompileSpec(f *ir.Func, spec CompileSpec) (MultiExecutable, error) {
	if spec.Devices == nil {
		spec.Devices = []Device{d}
	}
	return CompileMulti(f, spec)
}

// deviceOrder maps the executable's addressable devices (the order of
// PJRT's argument and output lists) to indexes in devs. An executable
// that does not list its devices takes them in devs' order (replica-major,
// as PJRT plugins list them).
func deviceOrder(le *pjrt.LoadedExecutable, devs []*pjrtDevice) ([]int, error) {
	order := make([]int, len(devs))
	ad := le.AddressableDevices()
	if len(ad) == 0 {
		for i := range order {
			order[i] = i
		}
		return order, nil
	}
	local := 0
	for _, d := range devs {
		if d != nil {
			local++
		}
	}
	if len(ad) != len(devs) && local == len(devs) {
		return nil, fmt.Errorf("the compiled program runs on %d devices, the spec names %d", len(ad), len(devs))
	}
	if local != len(devs) {
		order = order[:len(ad)]
		if len(ad) != local {
			return nil, fmt.Errorf("the compiled program runs on %d devices of this process, the spec names %d", len(ad), local)
		}
	}
	for k, a := range ad {
		order[k] = -1
		for i, d := range devs {
			if d != nil && d.dev == a {
				order[k] = i
			}
		}
		if order[k] < 0 {
			return nil, fmt.Errorf("the compiled program runs on device %d (%s), which the spec does not name", a.ID(), a)
		}
	}
	return order, nil
}

// executableResults are the types of one device's results as the plugin
// reports them; nil when it does not report them all.
func executableResults(le *pjrt.LoadedExecutable) ([]ir.Type, error) {
	bts, dims := le.OutputTypes(), le.OutputDims()
	n := le.NumOutputs()
	if len(bts) != n || len(dims) != n {
		return nil, nil
	}
	out := make([]ir.Type, n)
	for i, bt := range bts {
		dt, ok := bt.DType()
		if !ok {
			return nil, fmt.Errorf("result #%d of the compiled program has element type %v, which Stela does not have", i, bt)
		}
		out[i] = ir.TensorOf(dt, dims[i]...)
	}
	return out, nil
}

// Devices are the devices the program runs on, in the spec's order.
func (e *multiExec) Devices() []Device {
	out := make([]Device, len(e.devs))
	for i, d := range e.devs {
		if d == nil {
			out[i] = e.remote[i]
			continue
		}
		out[i] = d
	}
	return out
}

// Hash is the program hash the executable is cached under.
func (e *multiExec) Hash() string { return e.c.hash }

// OptimizedProgram is the program the plugin compiled after its own
// rewriting (ProgramReporter).
func (e *multiExec) OptimizedProgram() ([]byte, string, error) { return e.c.le.OptimizedProgram() }

// RunDevices runs the program on every device at once (MultiExecutable).
func (e *multiExec) RunDevices(args [][]Buffer, loc ir.Loc) ([][]Buffer, error) {
	return e.run(args, loc, nil)
}

// RunDevicesDonated runs with parameter i donated on every device where
// donate[i] is set (MultiDonator).
func (e *multiExec) RunDevicesDonated(args [][]Buffer, donate []bool, by string, loc ir.Loc) ([][]Buffer, error) {
	if len(donate) != len(e.params) {
		return nil, fmt.Errorf("%s: %d donate flags for %d parameters", e.c.what, len(donate), len(e.params))
	}
	if by == "" {
		by = e.c.what
	}
	if !loc.IsKnown() {
		loc = ir.CallerLoc()
	}
	return e.run(args, loc, &donation{mask: donate, by: by})
}

// run checks the arguments, launches the execution over all devices and
// wraps the results. Argument mistakes are errors now; a failure of the
// execution (or a failed input) is recorded in every result of every
// device, since one execution failed.
func (e *multiExec) run(args [][]Buffer, loc ir.Loc, don *donation) ([][]Buffer, error) {
	what := e.c.what
	if len(args) != len(e.devs) {
		return nil, fmt.Errorf("%s: %d argument lists for %d devices (%s)", what, len(args), len(e.devs), deviceNames(e.devs))
	}
	if e.single {
		outs, err := e.devs[0].run(nil, e.c, args[0], loc, don)
		if err != nil {
			return nil, err
		}
		return [][]Buffer{outs}, nil
	}
	var inErr error
	for d, list := range args {
		dev := e.devs[d]
		if dev == nil {
			// A device of another process: its process passes its arguments.
			if len(list) != 0 {
				return nil, fmt.Errorf("%s: arguments for device %s, which is in process %d: pass none (each process passes its own devices' arguments)", what, e.remote[d].name, e.remote[d].g.Process)
			}
			continue
		}
		if len(list) != len(e.params) {
			return nil, fmt.Errorf("%s: %d arguments for device %s, want %d", what, len(list), dev.name, len(e.params))
		}
		for i, a := range list {
			b, ok := a.(*pjrtBuffer)
			if !ok || b == nil || b.dev != dev {
				if isNilBuffer(a) {
					return nil, fmt.Errorf("%s: argument #%d for device %s is nil", what, i, dev.name)
				}
				return nil, fmt.Errorf("%s: argument #%d for device %s is on device %s", what, i, dev.name, argDevice(a))
			}
			if !b.typ.Equal(e.params[i]) {
				return nil, fmt.Errorf("%s: argument #%d for device %s has type %v, want %v", what, i, dev.name, *b.typ, e.params[i])
			}
			if b.freed.Load() {
				if de := b.donated.Load(); de != nil {
					return nil, fmt.Errorf("%s: argument #%d for device %s: %w", what, i, dev.name, de)
				}
				return nil, fmt.Errorf("%s: argument #%d for device %s was freed", what, i, dev.name)
			}
			if b.err != nil && inErr == nil {
				inErr = b.err
			}
		}
	}
	var donated []int
	if don != nil {
		for i, give := range don.mask {
			if !give {
				continue
			}
			donated = append(donated, i)
			for _, list := range args {
				for k, a := range list {
					if k != i && a == list[i] {
						return nil, fmt.Errorf("%s: argument #%d is donated and also passed as argument #%d: a donated buffer cannot be used twice in one call", what, i, k)
					}
				}
			}
		}
		// Whatever happens from here, the donated buffers are the
		// execution's.
		defer func() {
			for _, list := range args {
				don.consume(list, loc)
			}
		}()
	}
	outs := make([][]Buffer, len(e.devs))
	failed := func(err error) [][]Buffer {
		for d, dev := range e.devs {
			if dev == nil {
				continue
			}
			for i := range e.results {
				outs[d] = append(outs[d], &pjrtBuffer{typ: &e.results[i], dev: dev, err: err})
			}
		}
		return outs
	}
	if inErr != nil {
		return failed(inErr), nil
	}
	lists := make([][]*pjrt.Buffer, len(e.order))
	for k, d := range e.order {
		lists[k] = make([]*pjrt.Buffer, len(args[d]))
		for i, a := range args[d] {
			lists[k][i] = a.(*pjrtBuffer).pb
		}
	}
	x, err := e.c.le.Launch(lists, &pjrt.ExecuteOptions{Donate: donated})
	if err != nil && e.remote != nil {
		err = explainTransferFailure(err)
	}
	if err != nil {
		if !loc.IsKnown() {
			loc = ir.CallerLoc()
		}
		return failed(ir.Errorf(loc, what, "%v", err)), nil
	}
	// The results' own ready events report a failure at reads; the
	// execution's are not waited for, as one device's dispatch is not.
	for _, ev := range x.Done {
		if ev != nil {
			ev.Destroy()
		}
	}
	for k, d := range e.order {
		dev := e.devs[d]
		for j, pb := range x.Outputs[k] {
			outs[d] = append(outs[d], dev.newBuffer(e.results[j], pb))
		}
	}
	return outs, nil
}

func deviceNames(devs []*pjrtDevice) string {
	s := ""
	for i, d := range devs {
		if i > 0 {
			s += ", "
		}
		if d == nil {
			s += "(another process's)"
			continue
		}
		s += d.name
	}
	return s
}
