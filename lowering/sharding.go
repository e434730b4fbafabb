package lowering

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

// Annotate mode (docs/sharding.md): a function with a mesh lowers with
// GSPMD's annotations, so that the compiler's own SPMD partitioner (XLA's,
// with use_spmd_partitioning) partitions it:
//
//   - each parameter and result of @main gets `mhlo.sharding`, the HLO
//     sharding string of its sharding (the one propagation decided, else
//     the user's);
//   - each sharding_constraint becomes `stablehlo.custom_call @Sharding`
//     with `mhlo.sharding`, as JAX lowers with_sharding_constraint;
//   - each manual_computation becomes the custom calls around its body
//     that JAX makes of shard_map (lowerManualComputation);
//   - the module gets mhlo.num_partitions (the mesh's device count) and
//     mhlo.num_replicas = 1.
//
// Partition p of the program is mesh device p: the mesh's row-major
// device order is the device assignment's partition order.

// HLOSharding returns the HLO sharding string of s over mesh m, in XLA's
// V2 (iota tile assignment) form: "{replicated}", or
// "{devices=[T0,...,Tr-1(,R)]<=[A0,...,Ak-1](T(perm)) (last_tile_dim_replicate)}"
// where the Ti are the numbers of pieces of each dimension, R the number
// of devices that hold the same piece (the product of the axes that split
// no dimension), and the iota over the mesh's devices, reshaped to the
// mesh's axis sizes and transposed so that the axes come in the order of
// the dimensions they split (then the unused ones), gives the device of
// each tile in row-major order. A partial sum has no GSPMD spelling and is
// an error.
func HLOSharding(m *ir.Mesh, s *ir.Sharding) (string, error) {
	if s == nil {
		return "", fmt.Errorf("no sharding")
	}
	if len(s.Partial) > 0 {
		return "", fmt.Errorf("sharding %v is a partial sum, which mhlo.sharding cannot express", s)
	}
	if s.IsReplicated() {
		return "{replicated}", nil
	}
	var perm []int
	var tiles []int
	for _, axes := range s.Dims {
		n := 1
		for _, a := range axes {
			i := m.AxisIndex(a)
			if i < 0 {
				return "", fmt.Errorf("sharding %v names axis %q, which mesh %v does not have", s, a, m)
			}
			perm = append(perm, i)
			n *= m.Axes[i].Size
		}
		tiles = append(tiles, n)
	}
	rep := 1
	for i, a := range m.Axes {
		if !slices.Contains(perm, i) {
			perm = append(perm, i)
			rep *= a.Size
		}
	}
	if rep > 1 {
		tiles = append(tiles, rep)
	}
	var b strings.Builder
	b.WriteString("{devices=[")
	b.WriteString(joinInts(tiles))
	b.WriteString("]<=[")
	sizes := make([]int, len(m.Axes))
	for i, a := range m.Axes {
		sizes[i] = a.Size
	}
	identity := true
	for i, p := range perm {
		identity = identity && p == i
	}
	if identity {
		b.WriteString(strconv.Itoa(m.NumDevices()))
		b.WriteByte(']')
	} else {
		b.WriteString(joinInts(sizes))
		b.WriteString("]T(")
		b.WriteString(joinInts(perm))
		b.WriteByte(')')
	}
	if rep > 1 {
		b.WriteString(" last_tile_dim_replicate")
	}
	b.WriteByte('}')
	return b.String(), nil
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// annotateMain puts mhlo.sharding on @main's parameters and results.
func annotateMain(sf *stablehlo.Func, f *ir.Func) error {
	m := f.Mesh
	for i, p := range f.Params {
		s := p.Sharding
		if s == nil {
			s = f.InSharding(i)
		}
		if s == nil {
			s = ir.Replicated(p.Type.Rank())
		}
		hs, err := HLOSharding(m, s)
		if err != nil {
			return ir.Errorf(p.Loc(), "lowering", "parameter #%d: %v", i, err)
		}
		sf.SetArgAttr(i, "mhlo.sharding", stablehlo.StringAttr(hs))
	}
	for i, r := range f.Results {
		s := f.OutSharding(i)
		if s == nil {
			s = r.Sharding
		}
		if s == nil {
			s = ir.Replicated(r.Type.Rank())
		}
		hs, err := HLOSharding(m, s)
		if err != nil {
			return ir.Errorf(r.Loc(), "lowering", "result #%d: %v", i, err)
		}
		sf.SetResultAttr(i, "mhlo.sharding", stablehlo.StringAttr(hs))
	}
	return nil
}

// lowerShardingConstraint is the identity, or in annotate mode JAX's
// custom_call @Sharding.
func lowerShardingConstraint(c *ctx) ([]*stablehlo.Value, error) {
	if c.l.mesh == nil {
		return c.args, nil
	}
	a := c.in.Attr.(ir.ShardingConstraintAttr)
	hs, err := HLOSharding(c.l.mesh, &a.Sharding)
	if err != nil {
		return nil, c.errorf("%v", err)
	}
	return c.op("stablehlo.custom_call", c.args,
		stablehlo.NA("call_target_name", stablehlo.StringAttr("Sharding")),
		stablehlo.NA("mhlo.sharding", stablehlo.StringAttr(hs))).Results, nil
}

// lowerManualComputation lowers sharding.Map's op. In annotate mode it is
// what JAX makes of shard_map for XLA: each operand goes through
// custom_call @Sharding (its in sharding) and @SPMDFullToShardShape
// ("{manual}": the device's piece), the body's ops follow on the pieces,
// and each result goes through @Sharding ("{manual}") and
// @SPMDShardToFullShape (its out sharding) back to the global value.
// A mesh of one device is the body inlined (the pieces are the whole
// values), annotated or not; without annotations any other mesh is an
// error: only a program compiled for the mesh runs the body on each of
// its devices.
func lowerManualComputation(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.ManualComputationAttr)
	m := &a.Mesh
	body := c.in.Regions[0]
	loc := c.b.Loc
	defer func() { c.b.Loc = loc }()
	if c.l.mesh == nil || m.NumDevices() == 1 {
		if n := m.NumDevices(); n != 1 {
			return nil, c.errorf("runs its body on each of the %d devices of mesh %v, which a program lowered for one device cannot do: compile it for the mesh (partitioned, or lowered in annotate mode)", n, m)
		}
		env := make(map[*ir.Value]*stablehlo.Value, len(body.Params)+len(body.Body))
		for i, p := range body.Params {
			env[p] = c.args[i]
		}
		return c.l.lowerBody(c.b, body, env, loc)
	}
	custom := func(target, sharding string, x *stablehlo.Value, t ir.Type) (*stablehlo.Value, error) {
		tt, err := tensorType(t)
		if err != nil {
			return nil, c.errorf("%v", err)
		}
		c.b.Loc = loc
		return c.b.Op("stablehlo.custom_call", []*stablehlo.Value{x}, []stablehlo.Type{tt},
			stablehlo.NA("call_target_name", stablehlo.StringAttr(target)),
			stablehlo.NA("mhlo.sharding", stablehlo.StringAttr(sharding))).Results[0], nil
	}
	const manual = "{manual}"
	env := make(map[*ir.Value]*stablehlo.Value, len(body.Params)+len(body.Body))
	for i, p := range body.Params {
		hs, err := HLOSharding(m, &a.InShardings[i])
		if err != nil {
			return nil, c.errorf("operand #%d: %v", i, err)
		}
		x, err := custom("Sharding", hs, c.args[i], c.in.Args[i].Type)
		if err != nil {
			return nil, err
		}
		if env[p], err = custom("SPMDFullToShardShape", manual, x, p.Type); err != nil {
			return nil, err
		}
	}
	outs, err := c.l.lowerBody(c.b, body, env, loc)
	if err != nil {
		return nil, err
	}
	res := make([]*stablehlo.Value, len(outs))
	for k, o := range outs {
		hs, err := HLOSharding(m, &a.OutShardings[k])
		if err != nil {
			return nil, c.errorf("result #%d: %v", k, err)
		}
		x, err := custom("Sharding", manual, o, body.Results[k].Type)
		if err != nil {
			return nil, err
		}
		if res[k], err = custom("SPMDShardToFullShape", hs, x, c.in.Results[k].Type); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// PrimeMesh is the mesh of n devices whose axes are n's prime factors,
// smallest first ("p0"=..., "p1"=..., each a prime): the mesh that a
// program annotated for n partitions without naming its mesh is read on.
// Every iota tile assignment whose reshape dimensions are products of
// consecutive factors has a sharding on it.
func PrimeMesh(n int) *ir.Mesh {
	var fs []int
	for p := 2; n > 1; {
		if n%p == 0 {
			fs = append(fs, p)
			n /= p
			continue
		}
		p++
	}
	m := &ir.Mesh{}
	for i, f := range fs {
		m.Axes = append(m.Axes, ir.MeshAxis{Name: fmt.Sprintf("p%d", i), Size: f})
	}
	if len(m.Axes) == 0 {
		m.Axes = []ir.MeshAxis{{Name: "p0", Size: 1}}
	}
	return m
}

// ParseHLOSharding reads an HLO sharding string (HLOSharding's forms,
// the explicit `devices=[2,2]0,2,1,3` form, and `{maximal device=0}`
// where the mesh has one device) as a sharding over m of a value of type
// t: each tiled dimension gets the mesh axes whose position over the
// devices is the tile's coordinate. A tiling that no list of m's axes
// matches is an error, as are manual and partial (last_tile_dims)
// shardings.
func ParseHLOSharding(s string, m *ir.Mesh, t ir.Type) (*ir.Sharding, error) {
	body, ok := strings.CutPrefix(strings.TrimSpace(s), "{")
	if ok {
		body, ok = strings.CutSuffix(body, "}")
	}
	if !ok {
		return nil, fmt.Errorf("sharding %q: want {...}", s)
	}
	body = strings.TrimSpace(body)
	n := m.NumDevices()
	switch {
	case body == "replicated":
		return ir.Replicated(t.Rank()), nil
	case strings.HasPrefix(body, "maximal"):
		if n == 1 {
			return ir.Replicated(t.Rank()), nil
		}
		return nil, fmt.Errorf("sharding %q puts the value on one device of %d: maximal shardings are not supported", s, n)
	case body == "manual" || strings.Contains(body, "last_tile_dims"):
		return nil, fmt.Errorf("sharding %q: manual and partial shardings are not supported", s)
	}
	rest, ok := strings.CutPrefix(body, "devices=[")
	if !ok {
		return nil, fmt.Errorf("sharding %q: unknown form", s)
	}
	dimText, rest, ok := strings.Cut(rest, "]")
	if !ok {
		return nil, fmt.Errorf("sharding %q: unterminated devices=[...]", s)
	}
	tiles, err := parseInts(dimText)
	if err != nil {
		return nil, fmt.Errorf("sharding %q: %v", s, err)
	}
	replicate := false
	if r, ok := strings.CutSuffix(strings.TrimSpace(rest), "last_tile_dim_replicate"); ok {
		rest, replicate = strings.TrimSpace(r), true
	}
	total := 1
	for _, d := range tiles {
		total *= d
	}
	if total != n {
		return nil, fmt.Errorf("sharding %q tiles %d devices, the mesh has %d", s, total, n)
	}
	// assign[p] is the device of tile p (row-major over tiles).
	var assign []int
	if iota, ok := strings.CutPrefix(rest, "<=["); ok {
		rdText, after, ok := strings.Cut(iota, "]")
		if !ok {
			return nil, fmt.Errorf("sharding %q: unterminated <=[...]", s)
		}
		rdims, err := parseInts(rdText)
		if err != nil {
			return nil, fmt.Errorf("sharding %q: %v", s, err)
		}
		perm := make([]int, len(rdims))
		for i := range perm {
			perm[i] = i
		}
		if pt, ok := strings.CutPrefix(strings.TrimSpace(after), "T("); ok {
			pt, _, _ = strings.Cut(pt, ")")
			if perm, err = parseInts(pt); err != nil {
				return nil, fmt.Errorf("sharding %q: %v", s, err)
			}
		}
		if assign, err = iotaAssignment(rdims, perm, n); err != nil {
			return nil, fmt.Errorf("sharding %q: %v", s, err)
		}
	} else {
		if assign, err = parseInts(strings.ReplaceAll(rest, " ", "")); err != nil {
			return nil, fmt.Errorf("sharding %q: %v", s, err)
		}
		if len(assign) != n {
			return nil, fmt.Errorf("sharding %q lists %d devices, want %d", s, len(assign), n)
		}
	}
	dataDims := len(tiles)
	if replicate {
		dataDims--
	}
	if dataDims != t.Rank() {
		return nil, fmt.Errorf("sharding %q tiles %d dimensions, the value %v has %d", s, dataDims, t, t.Rank())
	}
	// coord[dev][d]: device dev's tile coordinate along tile dimension d.
	coord := make([][]int, n)
	for p, dev := range assign {
		if dev < 0 || dev >= n || coord[dev] != nil {
			return nil, fmt.Errorf("sharding %q: device %d is missing, repeated or out of range", s, dev)
		}
		c := make([]int, len(tiles))
		q := p
		for d := len(tiles) - 1; d >= 0; d-- {
			c[d] = q % tiles[d]
			q /= tiles[d]
		}
		coord[dev] = c
	}
	sh := ir.Replicated(t.Rank())
	used := map[string]bool{}
	for d := 0; d < dataDims; d++ {
		if tiles[d] == 1 {
			continue
		}
		axes := matchAxes(m, tiles[d], used, func(dev int) int { return coord[dev][d] })
		if axes == nil {
			return nil, fmt.Errorf("sharding %q: dimension %d's tiles follow no list of mesh %v's axes", s, d, m)
		}
		for _, a := range axes {
			used[a] = true
		}
		sh.Dims[d] = axes
	}
	return sh, nil
}

// matchAxes finds the list of unused axes of m, of total size want, along
// which every device's position is coord(dev).
func matchAxes(m *ir.Mesh, want int, used map[string]bool, coord func(dev int) int) []string {
	n := m.NumDevices()
	var try func(list []string, size int) []string
	try = func(list []string, size int) []string {
		if size == want {
			for dev := range n {
				if m.Index(dev, list) != coord(dev) {
					return nil
				}
			}
			return slices.Clone(list)
		}
		for _, a := range m.Axes {
			if used[a.Name] || slices.Contains(list, a.Name) || want%(size*a.Size) != 0 {
				continue
			}
			if r := try(append(list, a.Name), size*a.Size); r != nil {
				return r
			}
		}
		return nil
	}
	return try(nil, 1)
}

// iotaAssignment is iota(n) reshaped to dims, transposed by perm,
// flattened.
func iotaAssignment(dims, perm []int, n int) ([]int, error) {
	total := 1
	for _, d := range dims {
		total *= d
	}
	if total != n || len(perm) != len(dims) {
		return nil, fmt.Errorf("iota over %v with transpose %v does not make %d devices", dims, perm, n)
	}
	seen := make([]bool, len(perm))
	for _, p := range perm {
		if p < 0 || p >= len(perm) || seen[p] {
			return nil, fmt.Errorf("transpose %v is not a permutation", perm)
		}
		seen[p] = true
	}
	strides := make([]int, len(dims))
	st := 1
	for i := len(dims) - 1; i >= 0; i-- {
		strides[i] = st
		st *= dims[i]
	}
	tdims := make([]int, len(perm))
	for i, p := range perm {
		tdims[i] = dims[p]
	}
	out := make([]int, n)
	idx := make([]int, len(perm))
	for k := range n {
		dev := 0
		for i, p := range perm {
			dev += idx[i] * strides[p]
		}
		out[k] = dev
		for i := len(idx) - 1; i >= 0; i-- {
			idx[i]++
			if idx[i] < tdims[i] {
				break
			}
			idx[i] = 0
		}
	}
	return out, nil
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		v, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("bad number %q", f)
		}
		out = append(out, v)
	}
	return out, nil
}
