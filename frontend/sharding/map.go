package sharding

import (
	"fmt"
	"slices"
	"sync"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Manual mode: Map runs a function on every device's pieces, as JAX's
// shard_map does, with explicit collectives between the devices. It is
// the manual_computation op of the IR (docs/sharding.md, "Manual mode"):
// its operands and results are global tensors, laid out by the in and out
// specs, so a Map composes with the automatic mode around it; eagerly it
// runs on the mesh at once, inside jit.Compile it is part of the program,
// in both modes of the mesh.

// ReduceOp is the reduction of AllReduce and ReduceScatter.
type ReduceOp int

const (
	Sum ReduceOp = iota
	Prod
	Max
	Min
)

func (r ReduceOp) String() string {
	switch r {
	case Sum:
		return "sum"
	case Prod:
		return "prod"
	case Max:
		return "max"
	case Min:
		return "min"
	}
	return fmt.Sprintf("ReduceOp(%d)", int(r))
}

func (r ReduceOp) op() (ir.Op, bool) {
	switch r {
	case Sum:
		return ir.OpAdd, true
	case Prod:
		return ir.OpMultiply, true
	case Max:
		return ir.OpMaximum, true
	case Min:
		return ir.OpMinimum, true
	}
	return ir.OpInvalid, false
}

// mapCtx is a Map whose function is being traced: the collectives called
// from it find their mesh here.
type mapCtx struct {
	mesh    *Mesh
	tr      *tensor.Tracer
	channel int64
}

// active are the Maps being traced, innermost last. Tracing is on the
// caller's goroutine; the lock only keeps concurrent traces of different
// Maps from corrupting the list (a collective finds its Map by its
// operand's trace, else the innermost one).
var active struct {
	sync.Mutex
	stack []*mapCtx
}

// meshes holds every Mesh a Map was traced on, by its axes (ir.Mesh's
// text), the one traced on last first, so that jit.Compile finds the
// devices of a program that has no sharded argument but a Map
// (PrepareJit): manual_computation attributes, and their derivatives',
// hold only the axes. Of two Meshes with the same axes (other devices, or
// the other mode) the one a Map was last traced on wins: the Map of the
// program being compiled, unless another goroutine traced one on the
// other Mesh meanwhile; a sharded argument or jit.InShardings settles it.
var meshes struct {
	sync.Mutex
	byAxes map[string][]*Mesh
}

func rememberMesh(m *Mesh) {
	meshes.Lock()
	defer meshes.Unlock()
	if meshes.byAxes == nil {
		meshes.byAxes = map[string][]*Mesh{}
	}
	k := m.ir.String()
	ms := slices.DeleteFunc(meshes.byAxes[k], func(o *Mesh) bool { return o == m })
	meshes.byAxes[k] = append([]*Mesh{m}, ms...)
}

// meshFor returns the Mesh of a manual computation on axes a: chosen when
// its axes are a (the mesh of the call's arguments and options), else the
// Mesh with these axes that a Map was traced on last.
func meshFor(a *ir.Mesh, chosen *Mesh) (*Mesh, error) {
	if chosen != nil && chosen.ir.Equal(a) {
		return chosen, nil
	}
	meshes.Lock()
	defer meshes.Unlock()
	ms := meshes.byAxes[a.String()]
	if len(ms) == 0 {
		return nil, fmt.Errorf("the manual_computation on mesh %v was not made by sharding.Map: its devices are unknown", a)
	}
	return ms[0], nil
}

// Map returns fn mapped over the devices of mesh: called with global
// tensors laid out as inSpecs say (one per argument; a spec's axes split
// the argument's dimensions into the devices' pieces), it runs fn once per
// device on that device's pieces, and assembles its results, pieces laid
// out as outSpecs say, into global tensors. A mesh axis that an out spec
// does not name means the result is the same on every device along it
// (fn makes it so, with an AllReduce say): the assembled tensor takes one
// device's copy.
//
// Inside fn, the collectives AllReduce, AllGather, ReduceScatter,
// AllToAll and Permute move data between the devices along mesh axes, and
// AxisIndex says where a device is. Tensors fn uses but did not get as
// arguments are passed in whole (replicated).
//
// Called on concrete tensors, the mapped function lays its arguments out
// on the mesh (sharding.Put) and runs there; inside jit.Compile it becomes
// one manual_computation op of the program. Errors (a spec naming an axis
// the mesh lacks, a dimension its axes do not divide, results that do not
// match outSpecs) panic with the Go line, as the op functions' do.
func Map(fn func(xs ...*tensor.Tensor) []*tensor.Tensor, mesh *Mesh, inSpecs, outSpecs []Spec) func(xs ...*tensor.Tensor) []*tensor.Tensor {
	def := ir.CallerLoc()
	if fn == nil {
		panic(ir.Errorf(def, "sharding.Map", "nil function"))
	}
	if mesh == nil {
		panic(ir.Errorf(def, "sharding.Map", "nil mesh"))
	}
	inSpecs, outSpecs = slices.Clone(inSpecs), slices.Clone(outSpecs)
	return func(xs ...*tensor.Tensor) []*tensor.Tensor {
		return mapCall(fn, mesh, inSpecs, outSpecs, xs)
	}
}

func mapCall(fn func(xs ...*tensor.Tensor) []*tensor.Tensor, mesh *Mesh, inSpecs, outSpecs []Spec, xs []*tensor.Tensor) []*tensor.Tensor {
	const op = "sharding.Map"
	loc := ir.CallerLoc()
	fail := func(format string, args ...any) { panic(ir.Errorf(loc, op, format, args...)) }
	if len(xs) != len(inSpecs) {
		fail("%d arguments, but %d in specs", len(xs), len(inSpecs))
	}
	traced := false
	ins := make([]ir.Sharding, len(xs))
	local := make([]ir.Type, len(xs))
	for i, x := range xs {
		if x == nil {
			fail("argument #%d is nil", i)
		}
		sh, err := normalize(inSpecs[i], mesh.ir, x.Type())
		if err != nil {
			fail("argument #%d: in spec: %v", i, err)
		}
		ins[i] = *sh
		local[i] = sh.ShardType(mesh.ir, x.Type())
		traced = traced || x.Traced()
	}
	ctx := &mapCtx{mesh: mesh}
	body, extra := tensor.TraceRegion("manual_computation", "body", loc, local, func(tr *tensor.Tracer, ps []*tensor.Tensor) []*tensor.Tensor {
		ctx.tr = tr
		active.Lock()
		active.stack = append(active.stack, ctx)
		active.Unlock()
		defer func() {
			active.Lock()
			if i := slices.Index(active.stack, ctx); i >= 0 {
				active.stack = slices.Delete(active.stack, i, i+1)
			}
			active.Unlock()
		}()
		return fn(ps...)
	})
	if len(body.Results) != len(outSpecs) {
		fail("the function returns %d tensors, but there are %d out specs", len(body.Results), len(outSpecs))
	}
	outs := make([]ir.Sharding, len(outSpecs))
	for k, r := range body.Results {
		s := outSpecs[k].Clone()
		if s == nil {
			s = &ir.Sharding{}
		}
		if len(s.Dims) > r.Type.Rank() {
			fail("result #%d: out spec %v has %d dimensions, but the function's result %v has rank %d", k, s, len(s.Dims), r.Type, r.Type.Rank())
		}
		for len(s.Dims) < r.Type.Rank() {
			s.Dims = append(s.Dims, nil)
		}
		if len(s.Partial) > 0 {
			fail("result #%d: out spec %v is a partial sum: reduce it in the function (AllReduce)", k, s)
		}
		if err := s.Check(mesh.ir, s.GlobalType(mesh.ir, r.Type)); err != nil {
			fail("result #%d: out spec: %v", k, err)
		}
		outs[k] = *s
	}
	// Tensors the function captured come in whole.
	args := slices.Clone(xs)
	for _, e := range extra {
		ins = append(ins, *ir.Replicated(e.Rank()))
		args = append(args, e)
		traced = traced || e.Traced()
	}
	if !traced {
		// Eagerly: lay the arguments out on the mesh, where the op runs.
		for i, a := range args {
			if MeshOf(a) != mesh || !a.Sharding().Equal(&ins[i]) {
				b, err := mesh.dev.layout(a.Buffer(), &ins[i])
				if err != nil {
					fail("argument #%d: %v", i, err)
				}
				args[i] = tensor.FromBuffer(b)
			}
		}
	} else {
		rememberMesh(mesh)
	}
	attr := ir.ManualComputationAttr{Mesh: *mesh.ir, InShardings: ins, OutShardings: outs}
	return tensor.Emit(ir.OpManualComputation, attr, args, body)
}

// current returns the Map whose function x is traced in: the one whose
// trace x belongs to, else the innermost one being traced (x is in a
// region inside it, a While's body say). op names the caller in errors.
func current(op string, x *tensor.Tensor) *mapCtx {
	if x != nil && !x.Traced() {
		panic(ir.Errorf(ir.CallerLoc(), op, "tensor %v is not traced: collectives run inside the function of a sharding.Map", x.Type()))
	}
	active.Lock()
	defer active.Unlock()
	if len(active.stack) == 0 {
		panic(ir.Errorf(ir.CallerLoc(), op, "outside the function of a sharding.Map: collectives run inside one"))
	}
	if x != nil {
		for i := len(active.stack) - 1; i >= 0; i-- {
			if active.stack[i].tr == x.Tracer() {
				return active.stack[i]
			}
		}
	}
	return active.stack[len(active.stack)-1]
}

// groups returns the process groups of the devices along axis, checking
// that the mesh has it.
func (c *mapCtx) groups(op, axis string) [][]int64 {
	if c.mesh.ir.AxisIndex(axis) < 0 {
		panic(ir.Errorf(ir.CallerLoc(), op, "axis %q is not an axis of mesh %v", axis, c.mesh.ir))
	}
	return c.mesh.ir.Groups([]string{axis})
}

func (c *mapCtx) nextChannel() int64 {
	c.channel++
	return c.channel
}

func reduction(op string, x *tensor.Tensor, r ReduceOp) *ir.Func {
	o, ok := r.op()
	if !ok {
		panic(ir.Errorf(ir.CallerLoc(), op, "unknown reduction %v", r))
	}
	return ir.BinaryRegion(o, x.DType(), ir.CallerLoc())
}

// AllReduce reduces x over the devices along a mesh axis (JAX's psum,
// pmax, pmin): every device gets the reduction of the pieces of the
// devices that differ from it only in their position along axis.
func AllReduce(x *tensor.Tensor, axis string, op ReduceOp) *tensor.Tensor {
	const name = "sharding.AllReduce"
	c := current(name, x)
	attr := ir.AllReduceAttr{ReplicaGroups: c.groups(name, axis), ChannelID: c.nextChannel(), UseGlobalDeviceIDs: true}
	return tensor.Emit(ir.OpAllReduce, attr, []*tensor.Tensor{x}, reduction(name, x, op))[0]
}

// AllGather concatenates along dimension dim the pieces x of the devices
// along axis, in their order on the axis (JAX's all_gather with
// tiled=True).
func AllGather(x *tensor.Tensor, axis string, dim int) *tensor.Tensor {
	const name = "sharding.AllGather"
	c := current(name, x)
	attr := ir.AllGatherAttr{AllGatherDim: dim, ReplicaGroups: c.groups(name, axis), ChannelID: c.nextChannel(), UseGlobalDeviceIDs: true}
	return tensor.Emit(ir.OpAllGather, attr, []*tensor.Tensor{x})[0]
}

// ReduceScatter reduces x over the devices along axis and gives each its
// part of the result split along dimension dim, in their order on the
// axis (JAX's psum_scatter with tiled=True).
func ReduceScatter(x *tensor.Tensor, axis string, dim int, op ReduceOp) *tensor.Tensor {
	const name = "sharding.ReduceScatter"
	c := current(name, x)
	attr := ir.ReduceScatterAttr{ScatterDim: dim, ReplicaGroups: c.groups(name, axis), ChannelID: c.nextChannel(), UseGlobalDeviceIDs: true}
	return tensor.Emit(ir.OpReduceScatter, attr, []*tensor.Tensor{x}, reduction(name, x, op))[0]
}

// AllToAll splits x along splitDim into one part per device along axis,
// sends part i to the i-th device, and concatenates the parts it receives
// along concatDim (JAX's all_to_all with tiled=True).
func AllToAll(x *tensor.Tensor, axis string, splitDim, concatDim int) *tensor.Tensor {
	const name = "sharding.AllToAll"
	c := current(name, x)
	groups := c.groups(name, axis)
	attr := ir.AllToAllAttr{SplitDim: splitDim, ConcatDim: concatDim, SplitCount: len(groups[0]), ReplicaGroups: groups, ChannelID: c.nextChannel()}
	return tensor.Emit(ir.OpAllToAll, attr, []*tensor.Tensor{x})[0]
}

// Permute sends x from the device at position src along axis to the one
// at position dst, for each pair {src, dst} of perm, among the devices of
// every line along axis (JAX's ppermute). A device no pair sends to gets
// zeros.
func Permute(x *tensor.Tensor, axis string, perm [][2]int) *tensor.Tensor {
	const name = "sharding.Permute"
	c := current(name, x)
	groups := c.groups(name, axis)
	n := len(groups[0])
	var pairs [][2]int64
	for _, p := range perm {
		if p[0] < 0 || p[0] >= n || p[1] < 0 || p[1] >= n {
			panic(ir.Errorf(ir.CallerLoc(), name, "pair %v: positions along axis %q (size %d) are 0 to %d", p, axis, n, n-1))
		}
		for _, g := range groups {
			pairs = append(pairs, [2]int64{g[p[0]], g[p[1]]})
		}
	}
	attr := ir.CollectivePermuteAttr{SourceTargetPairs: pairs, ChannelID: c.nextChannel()}
	return tensor.Emit(ir.OpCollectivePermute, attr, []*tensor.Tensor{x})[0]
}

// AxisIndex is the position along a mesh axis of the device running the
// innermost sharding.Map being traced, as an s32 scalar (JAX's
// axis_index).
func AxisIndex(axis string) *tensor.Tensor {
	const name = "sharding.AxisIndex"
	c := current(name, nil)
	m := c.mesh.ir
	a := m.AxisIndex(axis)
	if a < 0 {
		panic(ir.Errorf(ir.CallerLoc(), name, "axis %q is not an axis of mesh %v", axis, m))
	}
	stride := 1
	for _, ax := range m.Axes[a+1:] {
		stride *= ax.Size
	}
	pid := tensor.Convert(c.tr.Emit(ir.OpPartitionID, nil, nil)[0], ir.S32)
	if stride > 1 {
		pid = tensor.Div(pid, tensor.ScalarLike(pid, float64(stride)))
	}
	if stride*m.Axes[a].Size < m.NumDevices() {
		pid = tensor.Rem(pid, tensor.ScalarLike(pid, float64(m.Axes[a].Size)))
	}
	return pid
}

// meshOfBodies returns the Mesh of the manual computations in f (chosen
// where it fits them), checking that they agree; nil when f has none.
func meshOfBodies(f *ir.Func, chosen *Mesh) (*Mesh, string, error) {
	var mesh *Mesh
	var where string
	var err error
	f.Walk(func(in *ir.Instr) {
		if err != nil || in.Op != ir.OpManualComputation {
			return
		}
		a, _ := in.Attr.(ir.ManualComputationAttr)
		m, e := meshFor(&a.Mesh, chosen)
		if e != nil {
			err = fmt.Errorf("%v: %w", in.Loc, e)
			return
		}
		if mesh == nil {
			mesh, where = m, fmt.Sprintf("the sharding.Map at %v", in.Loc)
			return
		}
		if m.dev != mesh.dev && !(m.ir.Equal(mesh.ir) && sameDevices(m, mesh) && m.mode == mesh.mode) {
			err = fmt.Errorf("the sharding.Map at %v is on %v, but %s is on %v: one compiled call runs on one mesh", in.Loc, m, where, mesh)
		}
	})
	return mesh, where, err
}
