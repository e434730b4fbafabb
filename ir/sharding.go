package ir

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Sharding in the IR (docs/sharding.md).
//
// A Mesh is a logical grid of devices with named axes ("data"=2,
// "model"=4: eight devices). Device i of the mesh (its partition id) sits
// at the row-major coordinates of i over the axes, the first axis major.
// Which physical device is mesh device i is the runtime's business (the
// device assignment), not the IR's.
//
// A Sharding says how one value is laid out over the mesh: for each of
// its dimensions, the mesh axes that split it (major to minor; none: the
// dimension is whole on every device). Axes that split no dimension
// replicate the value along them, unless the value is a partial sum over
// them (Partial: each device holds a summand; the partitioner's internal
// state between a contraction and its all_reduce).
//
// Where shardings live in a function:
//
//   - Func.Mesh: the mesh of a top-level function (nil: not sharded).
//   - Func.InShardings / Func.OutShardings: what the user asked for the
//     parameters and results (jit.InShardings, jit.OutShardings; a nil
//     entry leaves it to propagation). Printed after the type as
//     `sharding [{"data"}, {}]`.
//   - sharding_constraint ops: what the user asked for a value inside
//     (sharding.Constrain).
//   - Value.Sharding: what propagation decided for every value (nil before
//     it runs). Printed after the type as `sharded [{"data"}, {}]`, and
//     never read as a user annotation: propagation recomputes it.

// MeshAxis is one named axis of a Mesh.
type MeshAxis struct {
	Name string
	Size int
}

// Mesh is a logical device grid with named axes.
type Mesh struct {
	Axes []MeshAxis
}

// NewMesh makes a mesh of the named axes and sizes, checking that names
// are distinct and non-empty and sizes positive.
func NewMesh(names []string, sizes []int) (*Mesh, error) {
	if len(names) != len(sizes) {
		return nil, fmt.Errorf("mesh: %d axis names for %d sizes", len(names), len(sizes))
	}
	m := &Mesh{}
	for i, n := range names {
		m.Axes = append(m.Axes, MeshAxis{Name: n, Size: sizes[i]})
	}
	return m, m.Check()
}

// Check reports a mesh whose axes are unnamed, named twice or not
// positive.
func (m *Mesh) Check() error {
	if m == nil || len(m.Axes) == 0 {
		return fmt.Errorf("mesh has no axes")
	}
	for i, a := range m.Axes {
		if a.Name == "" {
			return fmt.Errorf("mesh axis #%d has no name", i)
		}
		if a.Size < 1 {
			return fmt.Errorf("mesh axis %q has size %d, want at least 1", a.Name, a.Size)
		}
		for _, b := range m.Axes[:i] {
			if b.Name == a.Name {
				return fmt.Errorf("mesh axis %q named twice", a.Name)
			}
		}
	}
	return nil
}

// NumDevices is the number of devices of the mesh: the product of its
// axis sizes.
func (m *Mesh) NumDevices() int {
	n := 1
	for _, a := range m.Axes {
		n *= a.Size
	}
	return n
}

// AxisIndex returns the position of the named axis, or -1.
func (m *Mesh) AxisIndex(name string) int {
	for i, a := range m.Axes {
		if a.Name == name {
			return i
		}
	}
	return -1
}

// AxisSize returns the size of the named axis (0 when the mesh lacks it).
func (m *Mesh) AxisSize(name string) int {
	if i := m.AxisIndex(name); i >= 0 {
		return m.Axes[i].Size
	}
	return 0
}

// AxesSize is the product of the sizes of the named axes.
func (m *Mesh) AxesSize(names []string) int {
	n := 1
	for _, a := range names {
		n *= m.AxisSize(a)
	}
	return n
}

// AxisNames lists the axes' names in order.
func (m *Mesh) AxisNames() []string {
	ns := make([]string, len(m.Axes))
	for i, a := range m.Axes {
		ns[i] = a.Name
	}
	return ns
}

// Coords returns the coordinates of mesh device dev, one per axis.
func (m *Mesh) Coords(dev int) []int {
	c := make([]int, len(m.Axes))
	for i := len(m.Axes) - 1; i >= 0; i-- {
		c[i] = dev % m.Axes[i].Size
		dev /= m.Axes[i].Size
	}
	return c
}

// Device returns the mesh device at the coordinates.
func (m *Mesh) Device(coords []int) int {
	d := 0
	for i, a := range m.Axes {
		d = d*a.Size + coords[i]
	}
	return d
}

// Index returns the position of device dev along the named axes taken
// together (the first named axis major): the shard index of a dimension
// split by those axes.
func (m *Mesh) Index(dev int, axes []string) int {
	c := m.Coords(dev)
	idx := 0
	for _, n := range axes {
		i := m.AxisIndex(n)
		idx = idx*m.Axes[i].Size + c[i]
	}
	return idx
}

// Groups partitions the mesh's devices into the groups that differ only
// along the named axes: the replica groups of a collective over those
// axes. Within a group devices are ordered by their Index along the axes,
// and groups by their smallest device.
func (m *Mesh) Groups(axes []string) [][]int64 {
	n := m.NumDevices()
	byKey := map[string][]int64{}
	var order []string
	for d := 0; d < n; d++ {
		c := m.Coords(d)
		for _, a := range axes {
			c[m.AxisIndex(a)] = -1
		}
		k := fmt.Sprint(c)
		if _, ok := byKey[k]; !ok {
			order = append(order, k)
			byKey[k] = make([]int64, m.AxesSize(axes))
		}
		byKey[k][m.Index(d, axes)] = int64(d)
	}
	gs := make([][]int64, len(order))
	for i, k := range order {
		gs[i] = byKey[k]
	}
	return gs
}

// Equal reports whether two meshes have the same axes in the same order.
func (m *Mesh) Equal(o *Mesh) bool {
	if m == nil || o == nil {
		return m == o
	}
	return slices.Equal(m.Axes, o.Axes)
}

// String prints the mesh as its text form: ["data"=2, "model"=4].
func (m *Mesh) String() string {
	if m == nil {
		return "<<nil mesh>>"
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, a := range m.Axes {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(a.Name))
		b.WriteByte('=')
		b.WriteString(strconv.Itoa(a.Size))
	}
	b.WriteByte(']')
	return b.String()
}

// Sharding is the layout of one value over a mesh.
type Sharding struct {
	// Dims has one entry per dimension of the value: the mesh axes that
	// split it, major first; empty for a dimension that is not split.
	Dims [][]string
	// Partial lists the axes over which the value is a partial sum.
	Partial []string
}

// Replicated returns the sharding of a value of the given rank that every
// device holds whole.
func Replicated(rank int) *Sharding {
	return &Sharding{Dims: make([][]string, rank)}
}

// ShardDims returns a sharding of the given rank that splits dimension
// dim over the axes and leaves the others whole.
func ShardDims(rank int, dims map[int][]string) *Sharding {
	s := Replicated(rank)
	for d, axes := range dims {
		s.Dims[d] = slices.Clone(axes)
	}
	return s
}

// Rank is the number of dimensions the sharding describes.
func (s *Sharding) Rank() int { return len(s.Dims) }

// IsReplicated reports whether no dimension is split and nothing is
// partial.
func (s *Sharding) IsReplicated() bool {
	for _, d := range s.Dims {
		if len(d) > 0 {
			return false
		}
	}
	return len(s.Partial) == 0
}

// Equal reports whether two shardings are the same (nil equals only nil).
func (s *Sharding) Equal(o *Sharding) bool {
	if s == nil || o == nil {
		return s == o
	}
	if len(s.Dims) != len(o.Dims) || !sameSet(s.Partial, o.Partial) {
		return false
	}
	for i := range s.Dims {
		if !slices.Equal(s.Dims[i], o.Dims[i]) {
			return false
		}
	}
	return true
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// Clone returns a deep copy.
func (s *Sharding) Clone() *Sharding {
	if s == nil {
		return nil
	}
	c := &Sharding{Dims: make([][]string, len(s.Dims)), Partial: slices.Clone(s.Partial)}
	for i, d := range s.Dims {
		c.Dims[i] = slices.Clone(d)
	}
	return c
}

// UsedAxes lists the axes that split some dimension, in dimension order.
func (s *Sharding) UsedAxes() []string {
	var as []string
	for _, d := range s.Dims {
		as = append(as, d...)
	}
	return as
}

// AxisDim returns the dimension that the axis splits, or -1.
func (s *Sharding) AxisDim(axis string) int {
	for i, d := range s.Dims {
		if slices.Contains(d, axis) {
			return i
		}
	}
	return -1
}

// Shards returns how many pieces dimension d is split into on m.
func (s *Sharding) Shards(m *Mesh, d int) int { return m.AxesSize(s.Dims[d]) }

// Check reports a sharding that does not fit a value of type t on mesh m:
// a rank that is not t's, an axis m lacks, an axis used twice, or a
// dimension that its axes do not divide evenly.
func (s *Sharding) Check(m *Mesh, t Type) error {
	if s == nil {
		return nil
	}
	if len(s.Dims) != t.Rank() {
		return fmt.Errorf("sharding %v has %d dimensions, but the value %v has rank %d", s, len(s.Dims), t, t.Rank())
	}
	seen := map[string]bool{}
	use := func(a string) error {
		if m.AxisIndex(a) < 0 {
			return fmt.Errorf("sharding %v names axis %q, which mesh %v does not have", s, a, m)
		}
		if seen[a] {
			return fmt.Errorf("sharding %v uses mesh axis %q twice", s, a)
		}
		seen[a] = true
		return nil
	}
	for d, axes := range s.Dims {
		for _, a := range axes {
			if err := use(a); err != nil {
				return err
			}
		}
		n := m.AxesSize(axes)
		if len(axes) > 0 && t.Shape[d] >= 0 && t.Shape[d]%n != 0 {
			return fmt.Errorf("sharding %v splits dimension %d of %v (size %d) %d ways (axes %s), which does not divide it", s, d, t, t.Shape[d], n, quoteAxes(axes))
		}
	}
	for _, a := range s.Partial {
		if err := use(a); err != nil {
			return err
		}
	}
	return nil
}

// ShardType returns the type of one device's piece of a value of type t.
func (s *Sharding) ShardType(m *Mesh, t Type) Type {
	if s == nil {
		return t
	}
	shape := slices.Clone(t.Shape)
	for d, axes := range s.Dims {
		if len(axes) > 0 && shape[d] >= 0 {
			shape[d] /= m.AxesSize(axes)
		}
	}
	return Type{DType: t.DType, Shape: shape}
}

func quoteAxes(axes []string) string {
	q := make([]string, len(axes))
	for i, a := range axes {
		q[i] = strconv.Quote(a)
	}
	return strings.Join(q, ", ")
}

// String prints the sharding's text form: [{"data"}, {}], followed by
// ` partial {"model"}` when it is a partial sum.
func (s *Sharding) String() string {
	if s == nil {
		return "<<nil sharding>>"
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, d := range s.Dims {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('{')
		b.WriteString(quoteAxes(d))
		b.WriteByte('}')
	}
	b.WriteByte(']')
	if len(s.Partial) > 0 {
		b.WriteString(" partial {")
		b.WriteString(quoteAxes(s.Partial))
		b.WriteByte('}')
	}
	return b.String()
}

// ShardingConstraintAttr is the attribute of sharding_constraint: the
// sharding the user asked for its operand.
type ShardingConstraintAttr struct {
	Sharding Sharding `sir:"sharding"`
}

func inferShardingConstraint(args []Type, attr any, _ []*Func) ([]Type, error) {
	a := attr.(ShardingConstraintAttr)
	if len(a.Sharding.Dims) != args[0].Rank() {
		return nil, fmt.Errorf("sharding %v has %d dimensions, but the operand %v has rank %d", &a.Sharding, len(a.Sharding.Dims), args[0], args[0].Rank())
	}
	return []Type{args[0]}, nil
}

func evalIdentity(_ *Instr, args []*Literal) ([]*Literal, error) {
	return []*Literal{args[0]}, nil
}

func vjpShardingConstraint(a *AD, ct []*Value) []*Value {
	if ct[0] == nil || !a.Need(0) {
		return one1(nil)
	}
	return one1(a.Emit1(OpShardingConstraint, []*Value{ct[0]}, a.Attr()))
}

// InSharding returns the user's sharding for parameter i, or nil.
func (f *Func) InSharding(i int) *Sharding {
	if i < len(f.InShardings) {
		return f.InShardings[i]
	}
	return nil
}

// OutSharding returns the user's sharding for result i, or nil.
func (f *Func) OutSharding(i int) *Sharding {
	if i < len(f.OutShardings) {
		return f.OutShardings[i]
	}
	return nil
}

// setSharding sets (*ss)[i], growing the slice with nils.
func setSharding(ss *[]*Sharding, i int, s *Sharding) {
	for len(*ss) <= i {
		*ss = append(*ss, nil)
	}
	(*ss)[i] = s
}

// optSharding parses "KEYWORD sharding" if the next token is the keyword.
func (p *parser) optSharding(keyword string) *Sharding {
	if !p.accept(tIdent, keyword) {
		return nil
	}
	return p.sharding()
}

// sharding parses `[{"a"}, {}]` with an optional `partial {"b"}`.
func (p *parser) sharding() *Sharding {
	s := &Sharding{Dims: [][]string{}}
	p.expect(tPunct, "[")
	if !p.accept(tPunct, "]") {
		for {
			s.Dims = append(s.Dims, p.axes())
			if p.accept(tPunct, "]") {
				break
			}
			p.expect(tPunct, ",")
		}
	}
	if p.accept(tIdent, "partial") {
		s.Partial = p.axes()
	}
	return s
}

// axes parses `{"a", "b"}`.
func (p *parser) axes() []string {
	p.expect(tPunct, "{")
	var as []string
	if p.accept(tPunct, "}") {
		return as
	}
	for {
		tok := p.next()
		if tok.kind != tString {
			p.failf(tok, "expected a mesh axis name in quotes, found %s", tok.describe())
		}
		as = append(as, tok.text)
		if p.accept(tPunct, "}") {
			return as
		}
		p.expect(tPunct, ",")
	}
}

// mesh parses `["data"=2, "model"=4]`.
func (p *parser) mesh() *Mesh {
	at := p.expect(tPunct, "[")
	m := &Mesh{}
	for {
		tok := p.next()
		if tok.kind != tString {
			p.failf(tok, "expected a mesh axis name in quotes, found %s", tok.describe())
		}
		p.expect(tPunct, "=")
		nt := p.next()
		n, err := strconv.Atoi(nt.text)
		if nt.kind != tNumber || err != nil {
			p.failf(nt, "expected the size of mesh axis %q, found %s", tok.text, nt.describe())
		}
		m.Axes = append(m.Axes, MeshAxis{Name: tok.text, Size: n})
		if p.accept(tPunct, "]") {
			break
		}
		p.expect(tPunct, ",")
	}
	if err := m.Check(); err != nil {
		p.failf(at, "%v", err)
	}
	return m
}

// shardings checks f's shardings against its mesh: the user's, the
// constraints' and the decided ones (regions use the mesh of the
// top-level function that holds them).
func (v *verifier) shardings(s *fnState, f *Func) {
	top := f
	for top.Parent != nil && top.Parent.Func != nil {
		top = top.Parent.Func
	}
	m := top.Mesh
	if f.Parent == nil {
		if len(f.InShardings) > len(f.Params) {
			v.errorf(UnknownLoc, s.where, "%d parameter shardings for %d parameters", len(f.InShardings), len(f.Params))
		}
		if len(f.OutShardings) > len(f.Results) {
			v.errorf(UnknownLoc, s.where, "%d result shardings for %d results", len(f.OutShardings), len(f.Results))
		}
	}
	check := func(loc Loc, op, what string, sh *Sharding, t Type) {
		if sh == nil {
			return
		}
		if m == nil {
			v.errorf(loc, op, "%s has sharding %v, but @%s has no mesh", what, sh, top.Name)
			return
		}
		if err := sh.Check(m, t); err != nil {
			v.errorf(loc, op, "%s: %v", what, err)
		}
	}
	for i, p := range f.Params {
		if p == nil {
			continue
		}
		if f.Parent == nil {
			check(p.Loc(), s.where, fmt.Sprintf("parameter #%d", i), f.InSharding(i), p.Type)
		}
		check(p.Loc(), s.where, fmt.Sprintf("parameter #%d", i), p.Sharding, p.Type)
	}
	for _, in := range f.Body {
		if in == nil {
			continue
		}
		if a, ok := in.Attr.(ShardingConstraintAttr); ok && len(in.Args) == 1 && in.Args[0] != nil {
			check(in.Loc, in.Op.String(), "the constraint", &a.Sharding, in.Args[0].Type)
		}
		for i, r := range in.Results {
			if r != nil {
				check(in.Loc, in.Op.String(), fmt.Sprintf("result #%d", i), r.Sharding, r.Type)
			}
		}
	}
	if f.Parent == nil {
		for i, r := range f.Results {
			if r != nil && i < len(f.OutShardings) {
				check(r.Loc(), s.where, fmt.Sprintf("result #%d", i), f.OutShardings[i], r.Type)
			}
		}
	}
}
