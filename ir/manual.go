package ir

import (
	"fmt"
	"slices"
)

// manual_computation: the manual mode of sharding (sharding.Map, like
// JAX's shard_map and Shardy's sdy.manual_computation).
//
// Its operands are global values; its one region, the body, is the
// program one device of the mesh runs: its parameters are the device's
// pieces of the operands under the in shardings, and it may hold
// collectives, whose process groups are mesh devices (flattened ids, with
// one replica: partition ids). The results are global values assembled
// from the devices' pieces of the body's results under the out shardings:
// a result's global type is the body's result type with each split
// dimension multiplied by the sizes of the axes that split it.
//
// A result that its out sharding does not split over some mesh axis must
// hold the same value on every device along that axis (the body makes it
// so, with an all_reduce say); the evaluator then takes the first device's
// piece, and the partitioner keeps each device's.

// ManualComputationAttr is the attribute of manual_computation: the mesh
// the body runs on, and the layout of each operand (InShardings) and
// result (OutShardings) over it. None of these shardings is partial.
type ManualComputationAttr struct {
	Mesh         Mesh       `sir:"mesh"`
	InShardings  []Sharding `sir:"in_shardings"`
	OutShardings []Sharding `sir:"out_shardings"`
}

// GlobalType is the type of the global value whose pieces under sh over
// m have type local: each split dimension multiplied by its axes' sizes
// (the inverse of Sharding.ShardType).
func (s *Sharding) GlobalType(m *Mesh, local Type) Type {
	shape := slices.Clone(local.Shape)
	for d, axes := range s.Dims {
		if d < len(shape) && len(axes) > 0 && shape[d] >= 0 {
			shape[d] *= m.AxesSize(axes)
		}
	}
	return Type{DType: local.DType, Shape: shape}
}

// UnusedAxes lists the mesh axes (in mesh order) that split no dimension
// of the sharding: those along which a value laid out so is replicated.
func (s *Sharding) UnusedAxes(m *Mesh) []string {
	used := s.UsedAxes()
	var out []string
	for _, a := range m.Axes {
		if !slices.Contains(used, a.Name) {
			out = append(out, a.Name)
		}
	}
	return out
}

func inferManualComputation(args []Type, attr any, regions []*Func) ([]Type, error) {
	a := attr.(ManualComputationAttr)
	m := &a.Mesh
	if err := m.Check(); err != nil {
		return nil, fmt.Errorf("mesh: %v", err)
	}
	if len(a.InShardings) != len(args) {
		return nil, fmt.Errorf("%d in_shardings for %d operands", len(a.InShardings), len(args))
	}
	params := make([]Type, len(args))
	for i, t := range args {
		sh := &a.InShardings[i]
		if len(sh.Partial) > 0 {
			return nil, fmt.Errorf("operand #%d: in sharding %v is partial", i, sh)
		}
		if err := sh.Check(m, t); err != nil {
			return nil, fmt.Errorf("operand #%d: %v", i, err)
		}
		params[i] = sh.ShardType(m, t)
	}
	results, err := checkRegionSig("body", regions[0], params, nil)
	if err != nil {
		return nil, err
	}
	if len(a.OutShardings) != len(results) {
		return nil, fmt.Errorf("%d out_shardings for %d body results", len(a.OutShardings), len(results))
	}
	out := make([]Type, len(results))
	for k, t := range results {
		sh := &a.OutShardings[k]
		if len(sh.Partial) > 0 {
			return nil, fmt.Errorf("result #%d: out sharding %v is partial", k, sh)
		}
		if sh.Rank() != t.Rank() {
			return nil, fmt.Errorf("result #%d: out sharding %v has %d dimensions, but the body's result %v has rank %d", k, sh, sh.Rank(), t, t.Rank())
		}
		for _, ax := range sh.UsedAxes() {
			if m.AxisIndex(ax) < 0 {
				return nil, fmt.Errorf("result #%d: out sharding %v names axis %q, which mesh %v does not have", k, sh, ax, m)
			}
		}
		out[k] = sh.GlobalType(m, t)
		if err := sh.Check(m, out[k]); err != nil {
			return nil, fmt.Errorf("result #%d: %v", k, err)
		}
	}
	return out, nil
}

// evalSPMDFn is EvalSPMD, reached through a variable for the reason
// sxEval is.
var evalSPMDFn func(f *Func, numReplicas, numPartitions int, args [][]*Literal) ([][]*Literal, error)

func init() {
	evalSPMDFn = EvalSPMD
	opTable[OpManualComputation].evalDev = evalManualComputationOn
}

// evalManualComputation splits the operands into the mesh devices'
// pieces, runs the body on every device with EvalSPMD (one replica, a
// partition per mesh device) and assembles the results from the pieces.
func evalManualComputation(in *Instr, args []*Literal) ([]*Literal, error) {
	return evalManualComputationOn(nil, in, args)
}

func evalManualComputationOn(dev *spmdDevice, in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	if dev != nil {
		return nil, fmt.Errorf("a manual_computation runs on the whole mesh and cannot be in the program of one device (the partitioner inlines its body)")
	}
	a, err := sxAttr[ManualComputationAttr](in)
	if err != nil {
		return nil, err
	}
	if err := sxArgs(args, 0); err != nil {
		return nil, err
	}
	if len(in.Regions) != 1 || in.Regions[0] == nil {
		return nil, fmt.Errorf("want one body region")
	}
	m := &a.Mesh
	if len(a.InShardings) != len(args) {
		return nil, fmt.Errorf("%d in_shardings for %d operands", len(a.InShardings), len(args))
	}
	for i, x := range args {
		if i < len(in.Args) && in.Args[i] != nil && !x.Type.Equal(in.Args[i].Type) {
			return nil, fmt.Errorf("operand #%d has type %v, want %v", i, x.Type, in.Args[i].Type)
		}
		if err := a.InShardings[i].Check(m, x.Type); err != nil {
			return nil, fmt.Errorf("operand #%d: %v", i, err)
		}
	}
	n := m.NumDevices()
	per := make([][]*Literal, n)
	for d := range n {
		per[d] = make([]*Literal, len(args))
		for i, x := range args {
			per[d][i] = ShardLiteral(x, m, &a.InShardings[i], d)
		}
	}
	res, err := evalSPMDFn(in.Regions[0], 1, n, per)
	if err != nil {
		return nil, err
	}
	if len(a.OutShardings) != len(in.Results) {
		return nil, fmt.Errorf("%d out_shardings for %d results", len(a.OutShardings), len(in.Results))
	}
	outs = make([]*Literal, len(in.Results))
	for k, r := range in.Results {
		pieces := make([]*Literal, n)
		for d := range n {
			if k >= len(res[d]) {
				return nil, fmt.Errorf("the body returns %d values, want %d", len(res[d]), len(in.Results))
			}
			pieces[d] = res[d][k]
		}
		if outs[k], err = UnshardLiteral(pieces, m, &a.OutShardings[k], r.Type); err != nil {
			return nil, fmt.Errorf("result #%d: %v", k, err)
		}
	}
	return outs, nil
}

// verifyManual checks what the type rule cannot see: the mesh is the one
// of the function that holds the op (when it has one), and the op is not
// inside the body of another.
func (v *verifier) manual(s *fnState, in *Instr) {
	a, ok := in.Attr.(ManualComputationAttr)
	if !ok {
		return
	}
	top := s.f
	for top.Parent != nil && top.Parent.Func != nil {
		if top.Parent.Op == OpManualComputation {
			v.errorf(in.Loc, in.Op.String(), "manual_computation inside the body of another manual_computation (nested manual computations are not supported)")
			return
		}
		top = top.Parent.Func
	}
	if top.Mesh != nil && !top.Mesh.Equal(&a.Mesh) {
		v.errorf(in.Loc, in.Op.String(), "mesh %v differs from the mesh %v of @%s", &a.Mesh, top.Mesh, top.Name)
	}
}

// vjpManualComputation is a manual computation of the body's VJP, as JAX
// transposes shard_map: it takes the operands and the results'
// cotangents (laid out as the results) to the operands' cotangents (laid
// out as the operands). A result replicated along some axes stands for
// one value that every device along them holds, so each device's
// cotangent is the result's divided by their number; an operand
// replicated along some axes reaches every device along them, so its
// cotangent is the sum of theirs (an all_reduce over those axes).
func vjpManualComputation(a *AD, ct []*Value) []*Value {
	out := make([]*Value, len(a.In.Args))
	if noCotangent(ct) {
		return out
	}
	attr := a.Attr().(ManualComputationAttr)
	m := &attr.Mesh
	body := a.In.Regions[0]
	wrt := floatMask(body.Params)
	for i := range wrt {
		wrt[i] = wrt[i] && a.Need(i)
	}
	if !slices.Contains(wrt, true) {
		return out
	}
	g := a.region(a.T.RegionVJP(body, wrt))

	// The new body: (pieces of the operands, pieces of the float results'
	// cotangents) → pieces of the wanted operands' cotangents.
	ptypes := body.ParamTypes()
	var ctIdx []int
	for j, r := range body.Results {
		if Differentiable(r.Type.DType) {
			ctIdx = append(ctIdx, j)
			ptypes = append(ptypes, r.Type)
		}
	}
	h, hb := newRegion("manual_vjp", a.Loc, ptypes...)
	gargs := slices.Clone(h.Params[:len(body.Params)])
	for k, j := range ctIdx {
		c := h.Params[len(body.Params)+k]
		if n := m.AxesSize(attr.OutShardings[j].UnusedAxes(m)); n > 1 {
			c = hb.Scale(c, 1/float64(n))
		}
		gargs = append(gargs, c)
	}
	cts := hb.Inline(g, gargs...)
	channel := maxChannel(g) + 1
	var rets []*Value
	var outSh []Sharding
	k := 0
	for i, w := range wrt {
		if !w {
			continue
		}
		c := cts[k]
		k++
		if axes := attr.InShardings[i].UnusedAxes(m); m.AxesSize(axes) > 1 {
			c = hb.Emit1(OpAllReduce, []*Value{c}, AllReduceAttr{ReplicaGroups: m.Groups(axes), ChannelID: channel, UseGlobalDeviceIDs: true},
				BinaryRegion(OpAdd, c.Type.DType, a.Loc))
			channel++
		}
		rets = append(rets, c)
		outSh = append(outSh, *attr.InShardings[i].Clone())
	}
	h.Return(rets...)

	args := make([]*Value, 0, len(a.In.Args)+len(ctIdx))
	inSh := make([]Sharding, 0, len(a.In.Args)+len(ctIdx))
	for i := range a.In.Args {
		args = append(args, a.Arg(i))
		inSh = append(inSh, *attr.InShardings[i].Clone())
	}
	for _, j := range ctIdx {
		args = append(args, a.zerosFor(ct[j], a.Res(j)))
		inSh = append(inSh, *attr.OutShardings[j].Clone())
	}
	res := a.Emit(OpManualComputation, args, ManualComputationAttr{Mesh: cloneMesh(m), InShardings: inSh, OutShardings: outSh}, h)
	k = 0
	for i, w := range wrt {
		if w {
			out[i] = res[k]
			k++
		}
	}
	return out
}

// jvpManualComputation is a manual computation of the body's JVP: the
// operands and their tangents (laid out as the operands) to the float
// results' tangents (laid out as the results).
func jvpManualComputation(a *AD, t []*Value) []*Value {
	if noCotangent(t) {
		return make([]*Value, len(a.In.Results))
	}
	attr := a.Attr().(ManualComputationAttr)
	body := a.In.Regions[0]
	wrt := floatMask(body.Params)
	g := a.region(a.T.RegionJVP(body, wrt))

	// The new body returns only the tangents: the primal results are the
	// forward op's.
	h, hb := newRegion("manual_jvp", a.Loc, g.ParamTypes()...)
	rs := hb.Inline(g, h.Params...)
	h.Return(rs[len(body.Results):]...)

	args := make([]*Value, 0, 2*len(a.In.Args))
	inSh := make([]Sharding, 0, 2*len(a.In.Args))
	for i := range a.In.Args {
		args = append(args, a.Arg(i))
		inSh = append(inSh, *attr.InShardings[i].Clone())
	}
	for i, w := range wrt {
		if w {
			args = append(args, a.zerosFor(t[i], a.Arg(i)))
			inSh = append(inSh, *attr.InShardings[i].Clone())
		}
	}
	var outSh []Sharding
	for j, r := range body.Results {
		if Differentiable(r.Type.DType) {
			outSh = append(outSh, *attr.OutShardings[j].Clone())
		}
	}
	ts := a.Emit(OpManualComputation, args, ManualComputationAttr{Mesh: cloneMesh(&attr.Mesh), InShardings: inSh, OutShardings: outSh}, h)
	return spreadTangents(a.In.Results, ts)
}

func cloneMesh(m *Mesh) Mesh { return Mesh{Axes: slices.Clone(m.Axes)} }

// maxChannel is the largest channel_id of the collectives in f and its
// regions (0 when none).
func maxChannel(f *Func) int64 {
	var c int64
	f.Walk(func(in *Instr) {
		switch x := in.Attr.(type) {
		case AllReduceAttr:
			c = max(c, x.ChannelID)
		case AllGatherAttr:
			c = max(c, x.ChannelID)
		case ReduceScatterAttr:
			c = max(c, x.ChannelID)
		case AllToAllAttr:
			c = max(c, x.ChannelID)
		case CollectivePermuteAttr:
			c = max(c, x.ChannelID)
		}
	})
	return c
}
