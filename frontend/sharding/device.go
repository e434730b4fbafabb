package sharding

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes"
	"github.com/stela-ml/stela/runtime"
	"github.com/stela-ml/stela/stablehlo"
)

// meshDevice is a mesh as a runtime.Device: its buffers are sharded
// buffers, and it runs a program on them by compiling it for the mesh
// (partitioned or annotated) and running that on every device at once.
// Eager ops on sharded tensors reach it as one-op programs; jit compiles
// whole functions through it (runtime.Compiler).
type meshDevice struct {
	m    *Mesh
	name string

	mu    sync.Mutex
	progs map[string]*meshExec // by program text (shardings included)
	order []*meshExec          // in the order they were compiled
}

func newMeshDevice(m *Mesh) *meshDevice {
	return &meshDevice{m: m, name: fmt.Sprintf("mesh%v@%s/%s", m.ir, deviceRange(m.Devices()), m.mode), progs: map[string]*meshExec{}}
}

func (d *meshDevice) Name() string { return d.name }

// Put replicates a host literal on every device of the mesh.
func (d *meshDevice) Put(l *ir.Literal) (runtime.Buffer, error) {
	return d.put(l, ir.Replicated(l.Type.Rank()))
}

// put lays l out over the mesh as sh says.
func (d *meshDevice) put(l *ir.Literal, sh *ir.Sharding) (*shardedBuffer, error) {
	b := &shardedBuffer{typ: l.Type, dev: d, sh: sh.Clone(), pieces: make([]runtime.Buffer, len(d.m.devices))}
	for i, dev := range d.m.devices {
		if !runtime.IsLocal(dev) {
			continue // its process puts its own piece
		}
		piece := l
		if !sh.IsReplicated() {
			piece = ir.ShardLiteral(l, d.m.ir, sh, i)
		} else if i > 0 {
			piece = l.Clone() // Put may keep what it is given
		}
		p, err := dev.Put(piece)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dev.Name(), err)
		}
		b.pieces[i] = p
	}
	return b, nil
}

// Run compiles f for the mesh with its parameters sharded as the
// arguments are, and runs it.
func (d *meshDevice) Run(f *ir.Func, args []runtime.Buffer) ([]runtime.Buffer, error) {
	g := ir.CloneFunc(f)
	g.InShardings = nil
	for i, a := range args {
		sh := ir.Replicated(g.Params[i].Type.Rank())
		if sb, ok := a.(*shardedBuffer); ok && sb.dev == d {
			sh = sb.sh
		}
		g.InShardings = append(g.InShardings, sh.Clone())
	}
	e, err := d.compile(g)
	if err != nil {
		return nil, err
	}
	return e.Run(args, ir.CallerLoc())
}

// Compile compiles f for the mesh: f's InShardings (nil entries:
// replicated arguments) and OutShardings (nil: what propagation decides)
// say how its arguments come and its results go.
func (d *meshDevice) Compile(f *ir.Func) (runtime.Executable, error) { return d.compile(f) }

func (d *meshDevice) compile(f *ir.Func) (*meshExec, error) {
	g := d.m.onMesh(f)
	key := g.String()
	d.mu.Lock()
	e := d.progs[key]
	d.mu.Unlock()
	if e != nil {
		return e, nil
	}
	e, err := d.build(g)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	d.progs[key] = e
	d.order = append(d.order, e)
	d.mu.Unlock()
	return e, nil
}

// onMesh returns a copy of f on the mesh, its parameters without a
// sharding replicated.
func (m *Mesh) onMesh(f *ir.Func) *ir.Func {
	g := ir.CloneFunc(f)
	g.Mesh = m.ir
	for i, p := range g.Params {
		if g.InSharding(i) == nil {
			setSharding(&g.InShardings, i, ir.Replicated(p.Type.Rank()))
		}
	}
	return g
}

// propagate verifies g (on the mesh, with complete InShardings) and
// decides its values' shardings (passes.PrepareSharding, which inlines
// its composites); with outs, each result without an OutSharding gets
// the one propagation decided, as annotate mode compiles it.
func propagate(g *ir.Func, outs bool) (*passes.ShardingReport, error) {
	if err := ir.Verify(g); err != nil {
		return nil, err
	}
	rep, err := passes.PrepareSharding(g)
	if err != nil {
		return nil, err
	}
	if outs {
		for i, r := range g.Results {
			if g.OutSharding(i) == nil {
				setSharding(&g.OutShardings, i, r.Sharding.Clone())
			}
		}
	}
	return rep, nil
}

// Annotated returns f as the mesh compiles it in annotate mode, whatever
// the mesh's mode, without compiling it: a copy on the mesh, with every
// parameter's sharding (replicated where f gives none), its composites
// inlined, the shardings propagation decided on its values, and every
// result's sharding (f's OutShardings, else propagation's).
// lowering.Lower with Options.Annotate makes of it the program the
// plugin's SPMD partitioner is given (mhlo.sharding on @main's
// parameters and results, custom_call @Sharding for its constraints).
// f is as jit.Compile hands it to the mesh: traced, its shardings set by
// PrepareJit, optimized.
func (m *Mesh) Annotated(f *ir.Func) (*ir.Func, error) {
	g := m.onMesh(f)
	if _, err := propagate(g, true); err != nil {
		return nil, err
	}
	return g, nil
}

// ProgramInfo is what a mesh made of one program it compiled.
type ProgramInfo struct {
	Name string // the function's name (jit.WithName)
	Mode Mode
	// Collectives counts the per-device program's collective ops by name
	// (each op once, even in a loop), and BytesMoved is what they
	// receive per device per call. In Annotate mode they are what the
	// plugin's partitioner reports, and Known is false when it reports
	// nothing.
	Collectives map[string]int
	BytesMoved  int64
	Known       bool
	// Remarks are the partitioner's: ops computed whole, and why.
	Remarks []string
	// Conflicts are propagation's: values whose shardings disagree,
	// with both Go lines and the bytes resharding moves.
	Conflicts []string
	// Func is the program compiled, not to be modified: in Annotate
	// mode the global function with its shardings (Mesh.Annotated's),
	// which the plugin's partitioner was given lowered with
	// lowering.Options.Annotate; in Partition mode one device's
	// program.
	Func *ir.Func
}

// Compiled lists the programs compiled for the mesh so far, oldest
// first.
func (m *Mesh) Compiled() []ProgramInfo {
	d := m.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []ProgramInfo
	for _, e := range d.order {
		out = append(out, e.info())
	}
	return out
}

func (e *meshExec) info() ProgramInfo {
	pi := ProgramInfo{Name: e.name, Mode: e.d.m.mode, Func: e.fn}
	for _, c := range e.report.Conflicts {
		pi.Conflicts = append(pi.Conflicts, fmt.Sprintf("%s at %v: %v", c.Instr.Op, c.Instr.Loc.Primary(), c))
	}
	if e.plugin != nil {
		pi.Collectives, pi.BytesMoved, pi.Known = e.plugin.collectives, e.plugin.bytes, true
	} else if len(e.d.m.devices) == 1 {
		pi.Collectives, pi.Known = map[string]int{}, true // one device: nothing to partition
	}
	if e.partd != nil {
		pi.Collectives, pi.BytesMoved, pi.Known = e.partd.Collectives, e.partd.BytesMoved, true
		for _, r := range e.partd.Remarks {
			pi.Remarks = append(pi.Remarks, r.String())
		}
	}
	return pi
}

func setSharding(ss *[]*ir.Sharding, i int, s *ir.Sharding) {
	for len(*ss) <= i {
		*ss = append(*ss, nil)
	}
	(*ss)[i] = s
}

// meshExec is a program compiled for a mesh.
type meshExec struct {
	d        *meshDevice
	name     string
	in, out  []*ir.Sharding // global parameters' and results' shardings
	params   []ir.Type      // global types
	results  []ir.Type
	exe      runtime.MultiExecutable
	fn       *ir.Func            // the program compiled (ProgramInfo.Func)
	partd    *passes.Partitioned // partition mode
	report   *passes.ShardingReport
	annotate bool
	// plugin is what the plugin's partitioner reported (annotate mode),
	// nil when it reports nothing.
	plugin *pluginReport
}

// pluginReport is the collectives of a plugin-partitioned program.
type pluginReport struct {
	collectives map[string]int
	bytes       int64
	program     string
}

// readOptimized asks the plugin for the program it partitioned: Stela's
// CPU plugin returns the per-device StableHLO with the module attributes
// stela.collectives and stela.bytes_moved; other plugins' forms are
// left alone.
func (e *meshExec) readOptimized() {
	pr, ok := e.exe.(runtime.ProgramReporter)
	if !ok {
		return
	}
	code, format, err := pr.OptimizedProgram()
	if err != nil || format != "mlir" {
		return
	}
	m, err := stablehlo.Parse(code)
	if err != nil {
		return
	}
	rep := &pluginReport{collectives: map[string]int{}, program: string(code)}
	if a, ok := stablehlo.LookupAttr(m.Attrs, "stela.collectives").(stablehlo.StringAttr); ok {
		for _, kv := range strings.Split(string(a), ",") {
			k, v, ok := strings.Cut(kv, "=")
			if n, err := strconv.Atoi(v); ok && err == nil {
				rep.collectives[k] = n
			}
		}
	} else {
		return
	}
	if a, ok := stablehlo.LookupAttr(m.Attrs, "stela.bytes_moved").(stablehlo.IntAttr); ok {
		rep.bytes = a.Value
	}
	e.plugin = rep
}

// build partitions or annotates g (which has the mesh and complete
// InShardings) and compiles it for the mesh's devices.
func (d *meshDevice) build(g *ir.Func) (*meshExec, error) {
	m := d.m
	e := &meshExec{d: d, name: g.Name, annotate: m.mode == Annotate}
	for _, p := range g.Params {
		e.params = append(e.params, p.Type)
	}
	for _, r := range g.Results {
		e.results = append(e.results, r.Type)
	}
	rep, err := propagate(g, e.annotate)
	if err != nil {
		return nil, err
	}
	e.report = rep
	n := len(m.devices)
	if e.annotate {
		var dp, dr []ir.Type
		for _, p := range g.Params {
			e.in = append(e.in, p.Sharding.Clone())
			dp = append(dp, p.Sharding.ShardType(m.ir, p.Type))
		}
		for i, r := range g.Results {
			sh := g.OutSharding(i)
			e.out = append(e.out, sh.Clone())
			dr = append(dr, sh.ShardType(m.ir, r.Type))
		}
		e.fn = g
		e.exe, err = runtime.CompileMulti(g, runtime.CompileSpec{Partitions: n, Devices: m.devices, SPMD: true, DeviceParams: dp, DeviceResults: dr})
		if err != nil {
			return nil, err
		}
		e.readOptimized()
	} else {
		p, err := passes.Partition(g, rep)
		if err != nil {
			return nil, err
		}
		// The partitioner computes device coordinates and offsets per use;
		// the standard pipeline merges and folds them.
		mod := &ir.Module{Funcs: []*ir.Func{p.Func}}
		if _, err := passes.Run(mod, passes.Default, passes.Options{}); err != nil {
			return nil, err
		}
		p.Func = mod.Funcs[0]
		e.partd, e.in, e.out, e.fn = p, p.InShardings, p.OutShardings, p.Func
		e.exe, err = runtime.CompileMulti(p.Func, runtime.CompileSpec{Partitions: n, Devices: m.devices})
		if err != nil {
			return nil, err
		}
	}
	if env.Log().Sharding {
		e.log(logOut())
	}
	return e, nil
}

// LogOutput is where STELA_LOG=sharding writes; nil means os.Stderr.
var LogOutput io.Writer

func logOut() io.Writer {
	if LogOutput != nil {
		return LogOutput
	}
	return os.Stderr
}

// log writes what propagation decided and the partitioned program's
// collectives.
func (e *meshExec) log(w io.Writer) {
	fmt.Fprintf(w, "stela sharding: @%s on %v\n", e.name, e.d.m)
	e.report.ExplainAll(w)
	if e.partd != nil {
		fmt.Fprintf(w, "collectives: %s; %s moved per device per call\n", formatCollectives(e.partd.Collectives), formatBytes(e.partd.BytesMoved))
		for _, r := range e.partd.Remarks {
			fmt.Fprintln(w, r)
		}
	}
}

func formatCollectives(c map[string]int) string {
	if len(c) == 0 {
		return "none"
	}
	var names []string
	for n := range c {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%d %s", c[n], n))
	}
	return strings.Join(parts, ", ")
}

func formatBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// Hash is "": the per-device programs are cached by the runtime.
func (e *meshExec) Hash() string { return e.exe.Hash() }

// Run runs the program on arguments laid out over the mesh; arguments
// laid out otherwise (whole on one device, or sharded another way) are
// laid out as the program wants first.
func (e *meshExec) Run(args []runtime.Buffer, loc ir.Loc) ([]runtime.Buffer, error) {
	if len(args) != len(e.in) {
		return nil, fmt.Errorf("@%s: %d arguments, want %d", e.name, len(args), len(e.in))
	}
	n := len(e.d.m.devices)
	per := make([][]runtime.Buffer, n)
	for i, a := range args {
		if !a.Type().Equal(e.params[i]) {
			return nil, fmt.Errorf("@%s: argument #%d has type %v, want %v", e.name, i, a.Type(), e.params[i])
		}
		sb, err := e.d.layout(a, e.in[i])
		if err != nil {
			return nil, fmt.Errorf("@%s: argument #%d: %w", e.name, i, err)
		}
		for k := range n {
			if sb.pieces[k] != nil { // nil: a device of another process
				per[k] = append(per[k], sb.pieces[k])
			}
		}
	}
	outs, err := e.exe.RunDevices(per, loc)
	if err != nil {
		return nil, err
	}
	res := make([]runtime.Buffer, len(e.out))
	for j := range e.out {
		b := &shardedBuffer{typ: e.results[j], dev: e.d, sh: e.out[j], pieces: make([]runtime.Buffer, n)}
		for k := range n {
			if outs[k] != nil { // nil: a device of another process
				b.pieces[k] = outs[k][j]
			}
		}
		res[j] = b
	}
	return res, nil
}

// layout returns a as a sharded buffer of d laid out as sh: itself, or
// a copy (gathered through the host and split again).
func (d *meshDevice) layout(a runtime.Buffer, sh *ir.Sharding) (*shardedBuffer, error) {
	if sb, ok := a.(*shardedBuffer); ok && sb.dev == d && sb.sh.Equal(sh) {
		if sb.freed {
			return nil, errors.New("the sharded tensor was freed")
		}
		return sb, nil
	}
	if sb, ok := a.(*shardedBuffer); ok && sb.dev == d && d.m.global() {
		// No process holds every piece: reshard on the mesh.
		if sb.freed {
			return nil, errors.New("the sharded tensor was freed")
		}
		return d.reshard(sb, sh)
	}
	l, err := a.Literal()
	if err != nil {
		return nil, err
	}
	return d.put(l, sh)
}

// shardedBuffer is one logical array laid out across a mesh's devices.
type shardedBuffer struct {
	typ    ir.Type
	dev    *meshDevice
	sh     *ir.Sharding
	pieces []runtime.Buffer
	freed  bool
}

func (b *shardedBuffer) Type() ir.Type            { return b.typ }
func (b *shardedBuffer) Device() runtime.Device   { return b.dev }
func (b *shardedBuffer) Mesh() *ir.Mesh           { return b.dev.m.ir }
func (b *shardedBuffer) Sharding() *ir.Sharding   { return b.sh }
func (b *shardedBuffer) Pieces() []runtime.Buffer { return b.pieces }
func (b *shardedBuffer) Freed() bool              { return b.freed }

// Literal gathers the pieces into one host array, reading one device
// per distinct piece.
func (b *shardedBuffer) Literal() (*ir.Literal, error) {
	if b.freed {
		return nil, errors.New("buffer was freed")
	}
	m := b.dev.m.ir
	lt := b.sh.ShardType(m, b.typ)
	pieces := make([]*ir.Literal, len(b.pieces))
	seen := map[string]*ir.Literal{}
	for i, p := range b.pieces {
		k := pieceKey(m, b.sh, i)
		if l, ok := seen[k]; ok {
			pieces[i] = l
			continue
		}
		if p == nil {
			// On a device of another process; another device here may
			// hold the same piece.
			if j := b.localHolder(k); j >= 0 {
				p = b.pieces[j]
			} else {
				return nil, fmt.Errorf("the sharded array %v (%v on %v) has pieces on devices of other processes of the job (%s holds one): a process reads only its own devices' pieces (Shards); sharding.Gather makes a copy every process can read", b.typ, b.sh, b.dev.m, b.dev.m.devices[i].Name())
			}
		}
		l, err := p.Literal()
		if err != nil {
			return nil, err
		}
		if !l.Type.Equal(lt) {
			return nil, fmt.Errorf("internal error: piece %d on %s is %v, want %v", i, p.Device().Name(), l.Type, lt)
		}
		seen[k], pieces[i] = l, l
	}
	return ir.UnshardLiteral(pieces, m, b.sh, b.typ)
}

// localHolder is the index of a device of this process that holds the
// block of key k, or -1.
func (b *shardedBuffer) localHolder(k string) int {
	for j, p := range b.pieces {
		if p != nil && pieceKey(b.dev.m.ir, b.sh, j) == k {
			return j
		}
	}
	return -1
}

// pieceKey identifies the block mesh device i holds.
func pieceKey(m *ir.Mesh, sh *ir.Sharding, i int) string {
	var b strings.Builder
	for _, axes := range sh.Dims {
		fmt.Fprintf(&b, "%d,", m.Index(i, axes))
	}
	return b.String()
}

// Free releases every piece.
func (b *shardedBuffer) Free() {
	if b.freed {
		return
	}
	b.freed = true
	for _, p := range b.pieces {
		if p == nil {
			continue
		}
		if f, ok := p.(runtime.Freer); ok {
			f.Free()
		}
	}
}
