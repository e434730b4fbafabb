package ir

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// The tests of the collectives compute what each device should get
// independently of the evaluator: process groups as (replica, partition)
// tuples straight from the specification's definitions (refGroups), and
// results element by element from the op's definition, on values that
// make every sum exact in every element type (small integers).

// proc is a process of the grid: (replica, partition).
type proc struct{ r, p int }

// refGroups is the specification's cross_replica, cross_partition,
// cross_replica_and_partition and flattened_ids, transcribed.
func refGroups(mode GroupMode, groups [][]int64, nr, np int) [][]proc {
	if len(groups) == 0 {
		n := nr
		switch mode {
		case CrossPartition:
			n = np
		case FlattenedIDs:
			n = nr * np
		}
		var all []int64
		for i := range n {
			all = append(all, int64(i))
		}
		groups = [][]int64{all}
	}
	var out [][]proc
	switch mode {
	case CrossReplica:
		for _, g := range groups {
			for p := range np {
				var pg []proc
				for _, r := range g {
					pg = append(pg, proc{int(r), p})
				}
				out = append(out, pg)
			}
		}
	case CrossPartition:
		for _, g := range groups {
			for r := range nr {
				var pg []proc
				for _, p := range g {
					pg = append(pg, proc{r, int(p)})
				}
				out = append(out, pg)
			}
		}
	case CrossReplicaAndPartition:
		for _, g := range groups {
			var pg []proc
			for p := range np {
				for _, r := range g {
					pg = append(pg, proc{int(r), p})
				}
			}
			out = append(out, pg)
		}
	case FlattenedIDs:
		for _, g := range groups {
			var pg []proc
			for _, id := range g {
				pg = append(pg, proc{int(id) / np, int(id) % np})
			}
			out = append(out, pg)
		}
	}
	return out
}

func flatten(gs [][]proc, np int) [][]int {
	out := make([][]int, len(gs))
	for i, g := range gs {
		for _, q := range g {
			out[i] = append(out[i], q.r*np+q.p)
		}
	}
	return out
}

// TestProcessGroupsSpecExamples checks the examples the specification
// gives for each strategy.
func TestProcessGroupsSpecExamples(t *testing.T) {
	for _, c := range []struct {
		mode   GroupMode
		groups [][]int64
		nr, np int
		want   [][]proc
	}{
		{CrossReplica, [][]int64{{0, 1}, {2, 3}}, 4, 2,
			[][]proc{{{0, 0}, {1, 0}}, {{0, 1}, {1, 1}}, {{2, 0}, {3, 0}}, {{2, 1}, {3, 1}}}},
		{CrossPartition, [][]int64{{0, 1}}, 4, 2,
			[][]proc{{{0, 0}, {0, 1}}, {{1, 0}, {1, 1}}, {{2, 0}, {2, 1}}, {{3, 0}, {3, 1}}}},
		{CrossReplicaAndPartition, [][]int64{{0, 1}, {2, 3}}, 4, 2,
			[][]proc{{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, {{2, 0}, {3, 0}, {2, 1}, {3, 1}}}},
		{FlattenedIDs, [][]int64{{0, 1, 2, 3}, {4, 5, 6, 7}}, 4, 2,
			[][]proc{{{0, 0}, {0, 1}, {1, 0}, {1, 1}}, {{2, 0}, {2, 1}, {3, 0}, {3, 1}}}},
	} {
		got, err := ProcessGroups(c.mode, c.groups, c.nr, c.np)
		if err != nil {
			t.Errorf("%v %v: %v", c.mode, c.groups, err)
			continue
		}
		if want := flatten(c.want, c.np); !reflect.DeepEqual(got, want) {
			t.Errorf("%v %v on %d×%d: %v, want %v", c.mode, c.groups, c.nr, c.np, got, want)
		}
	}
}

// TestProcessGroupsMatchSpec compares ProcessGroups with the transcribed
// definitions on random groups of every grid and strategy.
func TestProcessGroupsMatchSpec(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, g := range spmdGrids {
		for _, mode := range []GroupMode{CrossReplica, CrossPartition, CrossReplicaAndPartition, FlattenedIDs} {
			for range 5 {
				groups := randomGroups(r, modeSize(mode, g.nr, g.np), -1)
				got, err := ProcessGroups(mode, groups, g.nr, g.np)
				if err != nil {
					t.Fatalf("%v %v on %d×%d: %v", mode, groups, g.nr, g.np, err)
				}
				if want := flatten(refGroups(mode, groups, g.nr, g.np), g.np); !reflect.DeepEqual(got, want) {
					t.Errorf("%v %v on %d×%d: %v, want %v", mode, groups, g.nr, g.np, got, want)
				}
			}
		}
	}
}

func TestProcessGroupsErrors(t *testing.T) {
	for _, c := range []struct {
		mode   GroupMode
		groups [][]int64
		nr, np int
		want   string
	}{
		{CrossReplica, [][]int64{{0, 1}}, 4, 1, "leave out replica ids [2 3]"},
		{CrossReplica, [][]int64{{0, 4}}, 4, 1, "replica id 4 is out of range"},
		{CrossPartition, [][]int64{{0, 1}, {1, 2}}, 1, 3, "partition id 1 appears twice"},
		{FlattenedIDs, [][]int64{{0, 1, 2}}, 2, 2, "leave out device ids [3]"},
		{CrossReplica, nil, 0, 1, "want at least one"},
	} {
		_, err := ProcessGroups(c.mode, c.groups, c.nr, c.np)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v on %d×%d: error %v, want one saying %q", c.mode, c.groups, c.nr, c.np, err, c.want)
		}
	}
}

var spmdGrids = []struct{ nr, np int }{{1, 1}, {2, 1}, {1, 2}, {2, 2}, {4, 1}, {1, 4}, {4, 2}, {2, 4}, {8, 1}, {1, 8}}

// randomGroups splits ids 0..n-1, shuffled, into groups of size (a random
// divisor of n when size < 0).
func randomGroups(r *rand.Rand, n, size int) [][]int64 {
	if size < 0 {
		var divs []int
		for s := 1; s <= n; s++ {
			if n%s == 0 {
				divs = append(divs, s)
			}
		}
		size = divs[r.IntN(len(divs))]
	}
	perm := r.Perm(n)
	var out [][]int64
	for i := 0; i < n; i += size {
		var g []int64
		for _, id := range perm[i : i+size] {
			g = append(g, int64(id))
		}
		out = append(out, g)
	}
	return out
}

// smallValues fills a literal with small integers (or booleans) that
// every element type holds exactly and that sum exactly in any order.
func smallValues(r *rand.Rand, t Type) *Literal {
	l := Zeros(t)
	d := t.DType
	for i := range l.Len() {
		v := float64(r.IntN(9) - 4)
		if d.IsUnsigned() {
			v += 4
		}
		switch {
		case d.IsBool():
			l.SetElem(i, r.IntN(2) == 0)
		case d == C64:
			l.SetElem(i, complex64(complex(v, float64(r.IntN(5)-2))))
		case d == C128:
			l.SetElem(i, complex(v, float64(r.IntN(5)-2)))
		default:
			l.SetElem(i, FromFloat64(d, v))
		}
	}
	return l
}

// spmdProgram is a function of one instruction of op over params.
func spmdProgram(t *testing.T, op Op, attr any, params []Type, regions ...*Func) *Func {
	t.Helper()
	f := NewFunc(op.String(), params...)
	rs, err := f.Emit(Loc{File: "spmd_test.go", Line: 1}, op, f.Params, attr, regions...)
	if err != nil {
		t.Fatalf("%v: %v", op, err)
	}
	f.Return(rs...)
	if err := Verify(f); err != nil {
		t.Fatal(err)
	}
	return f
}

// runSPMD evaluates f on every device, failing the test on an error or a
// hang.
func runSPMD(t *testing.T, f *Func, nr, np int, args [][]*Literal) [][]*Literal {
	t.Helper()
	outs, err := evalSPMDGuarded(t, f, nr, np, args)
	if err != nil {
		t.Fatalf("eval spmd on %d×%d: %v\n%v", nr, np, err, f)
	}
	return outs
}

// evalSPMDGuarded is EvalSPMD that fails the test instead of hanging it.
func evalSPMDGuarded(t *testing.T, f *Func, nr, np int, args [][]*Literal) ([][]*Literal, error) {
	t.Helper()
	type result struct {
		outs [][]*Literal
		err  error
	}
	done := make(chan result, 1)
	go func() {
		outs, err := EvalSPMD(f, nr, np, args)
		done <- result{outs, err}
	}()
	select {
	case res := <-done:
		return res.outs, res.err
	case <-time.After(2 * time.Minute):
		t.Fatalf("EvalSPMD on %d×%d hangs", nr, np)
	}
	return nil, nil
}

func sameBits(a, b *Literal) bool {
	return a.Type.Equal(b.Type) && string(a.Bytes()) == string(b.Bytes())
}

// unravel is the row-major index of element i of shape.
func unravel(shape []int, i int) []int {
	idx := make([]int, len(shape))
	for k := len(shape) - 1; k >= 0; k-- {
		idx[k] = i % shape[k]
		i /= shape[k]
	}
	return idx
}

func ravel(shape, idx []int) int {
	o := 0
	for k, x := range idx {
		o = o*shape[k] + x
	}
	return o
}

// refReduce combines two elements as the body op does, on values.
func refReduce(op Op, d DType, x, y any) any {
	switch {
	case d.IsBool():
		a, b := x.(bool), y.(bool)
		if op == OpMinimum {
			return a && b
		}
		return a || b
	case d.IsComplex():
		a, b := ToComplex128(d, x), ToComplex128(d, y)
		var c complex128
		switch op {
		case OpAdd:
			c = a + b
		case OpMaximum, OpMinimum:
			less := real(a) < real(b) || real(a) == real(b) && imag(a) < imag(b)
			c = a
			if less == (op == OpMaximum) {
				c = b
			}
		}
		if d == C64 {
			return complex64(c)
		}
		return c
	}
	a, b := ToFloat64(d, x), ToFloat64(d, y)
	switch op {
	case OpAdd:
		return FromFloat64(d, a+b)
	case OpMaximum:
		return FromFloat64(d, max(a, b))
	}
	return FromFloat64(d, min(a, b))
}

// groupOfDevice returns device d's group and position in it.
func groupOfDevice(groups [][]proc, np, d int) ([]int, int) {
	for _, g := range flatten(groups, np) {
		if i := slices.Index(g, d); i >= 0 {
			return g, i
		}
	}
	return nil, -1
}

// TestEvalSPMDCollectives runs each collective on every grid of up to 8
// devices, in each process-group strategy, on random groups, for every
// element type, and compares every device's results with values computed
// element by element from the specification's definitions.
func TestEvalSPMDCollectives(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ran := map[string]int{}
	for _, g := range spmdGrids {
		n := g.nr * g.np
		for _, d := range AllDTypes {
			for _, mode := range []GroupMode{CrossReplica, CrossPartition, CrossReplicaAndPartition, FlattenedIDs} {
				channel, global := int64(0), false
				switch mode {
				case CrossPartition, CrossReplicaAndPartition:
					channel = 5
				case FlattenedIDs:
					channel, global = 9, true
				}
				groups := randomGroups(r, modeSize(mode, g.nr, g.np), -1)
				ref := refGroups(mode, groups, g.nr, g.np)
				name := fmt.Sprintf("%dx%d/%v/%v/%v", g.nr, g.np, d, mode, groups)
				if mode != CrossPartition {
					for _, op := range []Op{OpAdd, OpMaximum, OpMinimum} {
						testAllReduce(t, r, name, d, op, AllReduceAttr{ReplicaGroups: groups, ChannelID: channel, UseGlobalDeviceIDs: global}, ref, g.nr, g.np)
						ran["all_reduce"]++
					}
					// With np > 1, cross_replica_and_partition groups have
					// more members than the replica groups the type
					// assumes (TestEvalSPMDGroupSizeMismatch).
					if mode != CrossReplicaAndPartition || g.np == 1 {
						testAllGather(t, r, name, d, AllGatherAttr{AllGatherDim: r.IntN(2), ReplicaGroups: groups, ChannelID: channel, UseGlobalDeviceIDs: global}, ref, g.nr, g.np)
						testReduceScatter(t, r, name, d, ReduceScatterAttr{ScatterDim: r.IntN(2), ReplicaGroups: groups, ChannelID: channel, UseGlobalDeviceIDs: global}, ref, g.nr, g.np)
						ran["all_gather"]++
						ran["reduce_scatter"]++
					}
				}
				if mode == CrossReplica || mode == CrossPartition {
					s := len(groups[0])
					testAllToAll(t, r, name, d, AllToAllAttr{SplitDim: r.IntN(2), ConcatDim: r.IntN(2), SplitCount: s, ReplicaGroups: groups, ChannelID: channel}, ref, g.nr, g.np)
					testPermute(t, r, name, d, mode, channel, g.nr, g.np)
					ran["all_to_all"]++
					ran["collective_permute"]++
				}
			}
		}
		// replica_id and partition_id.
		f := NewFunc("ids")
		rid, _ := f.Emit1(UnknownLoc, OpReplicaID, nil, nil)
		pid, _ := f.Emit1(UnknownLoc, OpPartitionID, nil, nil)
		f.Return(rid, pid)
		outs := runSPMD(t, f, g.nr, g.np, make([][]*Literal, n))
		for dev, o := range outs {
			if got := [2]uint32{o[0].Data.([]uint32)[0], o[1].Data.([]uint32)[0]}; got != [2]uint32{uint32(dev / g.np), uint32(dev % g.np)} {
				t.Errorf("%dx%d: device %d has replica_id, partition_id %v", g.nr, g.np, dev, got)
			}
		}
	}
	t.Logf("cases: %v", ran)
}

func testAllReduce(t *testing.T, r *rand.Rand, name string, d DType, op Op, attr AllReduceAttr, ref [][]proc, nr, np int) {
	t.Helper()
	n := nr * np
	ty := TensorOf(d, 2, 3)
	body := BinaryRegion(op, d, UnknownLoc)
	if _, err := inferAllReduce([]Type{ty, ty}, attr, []*Func{body}); err != nil {
		return // the body op does not take d (add on i1 is or; max on every type)
	}
	f := spmdProgram(t, OpAllReduce, attr, []Type{ty, ty}, body)
	args := make([][]*Literal, n)
	for dev := range args {
		args[dev] = []*Literal{smallValues(r, ty), smallValues(r, ty)}
	}
	outs := runSPMD(t, f, nr, np, args)
	for dev := range n {
		grp, _ := groupOfDevice(ref, np, dev)
		for k := range 2 {
			want := Zeros(ty)
			for e := range want.Len() {
				acc := args[grp[0]][k].Elem(e)
				for _, m := range grp[1:] {
					acc = refReduce(op, d, acc, args[m][k].Elem(e))
				}
				want.SetElem(e, acc)
			}
			if !sameBits(outs[dev][k], want) {
				t.Errorf("%s: all_reduce %v: device %d result #%d is %v, want %v", name, op, dev, k, outs[dev][k], want)
			}
		}
	}
}

func testAllGather(t *testing.T, r *rand.Rand, name string, d DType, attr AllGatherAttr, ref [][]proc, nr, np int) {
	t.Helper()
	n := nr * np
	ty := TensorOf(d, 2, 3)
	f := spmdProgram(t, OpAllGather, attr, []Type{ty})
	args := make([][]*Literal, n)
	for dev := range args {
		args[dev] = []*Literal{sxRandomLiteral(r, ty, true)}
	}
	outs := runSPMD(t, f, nr, np, args)
	dim := attr.AllGatherDim
	for dev := range n {
		grp, _ := groupOfDevice(ref, np, dev)
		got := outs[dev][0]
		want := Zeros(f.Results[0].Type)
		shape := want.Type.Shape
		for e := range want.Len() {
			idx := unravel(shape, e)
			src := grp[idx[dim]/ty.Shape[dim]]
			idx[dim] %= ty.Shape[dim]
			want.CopyElem(e, args[src][0], ravel(ty.Shape, idx))
		}
		if !sameBits(got, want) {
			t.Errorf("%s: all_gather dim %d: device %d has %v, want %v", name, dim, dev, got, want)
		}
	}
}

func testReduceScatter(t *testing.T, r *rand.Rand, name string, d DType, attr ReduceScatterAttr, ref [][]proc, nr, np int) {
	t.Helper()
	n := nr * np
	s := len(attr.ReplicaGroups[0])
	shape := []int{2, 3}
	shape[attr.ScatterDim] = 2 * s
	ty := TensorOf(d, shape...)
	f := spmdProgram(t, OpReduceScatter, attr, []Type{ty}, BinaryRegion(OpAdd, d, UnknownLoc))
	args := make([][]*Literal, n)
	for dev := range args {
		args[dev] = []*Literal{smallValues(r, ty)}
	}
	outs := runSPMD(t, f, nr, np, args)
	for dev := range n {
		grp, pos := groupOfDevice(ref, np, dev)
		got := outs[dev][0]
		want := Zeros(f.Results[0].Type)
		for e := range want.Len() {
			idx := unravel(want.Type.Shape, e)
			idx[attr.ScatterDim] += pos * want.Type.Shape[attr.ScatterDim]
			src := ravel(shape, idx)
			acc := args[grp[0]][0].Elem(src)
			for _, m := range grp[1:] {
				acc = refReduce(OpAdd, d, acc, args[m][0].Elem(src))
			}
			want.SetElem(e, acc)
		}
		if !sameBits(got, want) {
			t.Errorf("%s: reduce_scatter dim %d: device %d has %v, want %v", name, attr.ScatterDim, dev, got, want)
		}
	}
}

func testAllToAll(t *testing.T, r *rand.Rand, name string, d DType, attr AllToAllAttr, ref [][]proc, nr, np int) {
	t.Helper()
	n := nr * np
	s := attr.SplitCount
	shape := []int{3, 2}
	shape[attr.SplitDim] *= s
	t0 := TensorOf(d, shape...)
	t1 := TensorOf(d, append(slices.Clone(shape), 2)...)
	f := spmdProgram(t, OpAllToAll, attr, []Type{t0, t1})
	args := make([][]*Literal, n)
	for dev := range args {
		args[dev] = []*Literal{sxRandomLiteral(r, t0, true), sxRandomLiteral(r, t1, true)}
	}
	outs := runSPMD(t, f, nr, np, args)
	for dev := range n {
		grp, pos := groupOfDevice(ref, np, dev)
		for k, in := range []Type{t0, t1} {
			part := slices.Clone(in.Shape)
			part[attr.SplitDim] /= s
			want := Zeros(f.Results[k].Type)
			for e := range want.Len() {
				idx := unravel(want.Type.Shape, e)
				sender := grp[idx[attr.ConcatDim]/part[attr.ConcatDim]]
				idx[attr.ConcatDim] %= part[attr.ConcatDim]
				idx[attr.SplitDim] += pos * part[attr.SplitDim]
				want.CopyElem(e, args[sender][k], ravel(in.Shape, idx))
			}
			if got := outs[dev][k]; !sameBits(got, want) {
				t.Errorf("%s: all_to_all split %d concat %d: device %d result #%d is %v, want %v", name, attr.SplitDim, attr.ConcatDim, dev, k, got, want)
			}
		}
	}
}

func testPermute(t *testing.T, r *rand.Rand, name string, d DType, mode GroupMode, channel int64, nr, np int) {
	t.Helper()
	n := nr * np
	size := modeSize(mode, nr, np)
	// A random partial permutation: some ids send, some receive nothing.
	src, dst := r.Perm(size), r.Perm(size)
	var pairs [][2]int64
	for i := range size {
		if r.IntN(4) != 0 {
			pairs = append(pairs, [2]int64{int64(src[i]), int64(dst[i])})
		}
	}
	ty := TensorOf(d, 2, 2)
	f := spmdProgram(t, OpCollectivePermute, CollectivePermuteAttr{SourceTargetPairs: pairs, ChannelID: channel}, []Type{ty})
	args := make([][]*Literal, n)
	for dev := range args {
		args[dev] = []*Literal{sxRandomLiteral(r, ty, true)}
	}
	outs := runSPMD(t, f, nr, np, args)
	for dev := range n {
		rep, part := dev/np, dev%np
		want := Zeros(ty)
		for _, st := range pairs {
			switch {
			case mode == CrossReplica && int(st[1]) == rep:
				want = args[int(st[0])*np+part][0]
			case mode == CrossPartition && int(st[1]) == part:
				want = args[rep*np+int(st[0])][0]
			}
		}
		if got := outs[dev][0]; !sameBits(got, want) {
			t.Errorf("%s: collective_permute %v: device %d has %v, want %v", name, pairs, dev, got, want)
		}
	}
}

// parseFunc parses one .sir function and verifies it.
func parseFunc(t *testing.T, src string) *Func {
	t.Helper()
	m, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(m.Funcs[0]); err != nil {
		t.Fatal(err)
	}
	return m.Funcs[0]
}

func f32s(vs ...float32) *Literal { return LiteralOf([]int{len(vs)}, vs...) }

// TestEvalSPMDInRegions: collectives inside a while body (running each
// trip), a case branch and a composite meet across devices.
func TestEvalSPMDInRegions(t *testing.T) {
	f := parseFunc(t, `
func @f(%0: f32[2], %1: si32[]) -> (f32[2], f32[2], f32[4], ui32[]) {
  %2, %3 = while %0, %1 (%0: f32[2], %1: si32[]) {
    %2 = constant {value = dense<0> : si32[]} : si32[]
    %3 = compare %1, %2 {dir = GT} : i1[]
    return %3
  } (%0: f32[2], %1: si32[]) {
    %2 = all_reduce %0 {replica_groups = []} (%0: f32[], %1: f32[]) {
      %2 = add %0, %1 : f32[]
      return %2
    } : f32[2]
    %3 = constant {value = dense<1> : si32[]} : si32[]
    %4 = subtract %1, %3 : si32[]
    return %2, %4
  } : f32[2], si32[]
  %4 = case %1, %0 (%0: f32[2]) {
    %1 = all_reduce %0 {replica_groups = [[0, 1, 2, 3]]} (%0: f32[], %1: f32[]) {
      %2 = maximum %0, %1 : f32[]
      return %2
    } : f32[2]
    return %1
  } (%0: f32[2]) {
    %1 = negate %0 : f32[2]
    %2 = all_reduce %1 {replica_groups = [[0, 1, 2, 3]]} (%0: f32[], %1: f32[]) {
      %2 = maximum %0, %1 : f32[]
      return %2
    } : f32[2]
    return %2
  } : f32[2]
  %5 = composite %0 {name = "test.gather"} (%0: f32[2]) {
    %1 = all_gather %0 {all_gather_dim = 0, replica_groups = [[2, 0], [1, 3]]} : f32[4]
    return %1
  } : f32[4]
  %6 = replica_id : ui32[]
  return %2, %4, %5, %6
}`)
	for _, trips := range []int32{0, 2} {
		args := make([][]*Literal, 4)
		for d := range args {
			x := float32(d + 1)
			args[d] = []*Literal{f32s(x, -x), ScalarOf(trips)}
		}
		outs := runSPMD(t, f, 4, 1, args)
		for d, o := range outs {
			x := float32(d + 1)
			want := []*Literal{f32s(x, -x), f32s(4, -1), nil, ScalarOf(uint32(d))}
			if trips == 2 {
				want[0], want[1] = f32s(40, -40), f32s(-1, 4)
			}
			if d%2 == 0 {
				want[2] = f32s(3, -3, 1, -1)
			} else {
				want[2] = f32s(2, -2, 4, -4)
			}
			for k := range want {
				if !sameBits(o[k], want[k]) {
					t.Errorf("trips %d: device %d result #%d is %v, want %v", trips, d, k, o[k], want[k])
				}
			}
		}
	}
}

// TestEvalSPMDDisagree: devices whose case picks different branches reach
// different collectives over the same group: an error, not a hang.
func TestEvalSPMDDisagree(t *testing.T) {
	f := parseFunc(t, `
func @f(%0: f32[2]) -> f32[2] {
  %1 = replica_id : ui32[]
  %2 = convert %1 {to = si32} : si32[]
  %3 = case %2, %0 (%0: f32[2]) {
    %1 = all_reduce %0 {replica_groups = []} (%0: f32[], %1: f32[]) {
      %2 = add %0, %1 : f32[]
      return %2
    } : f32[2]
    return %1
  } (%0: f32[2]) {
    %1 = all_gather %0 {all_gather_dim = 0, replica_groups = [[0, 1]]} : f32[4]
    %2 = slice %1 {start = [0], limit = [2], stride = [1]} : f32[2]
    return %2
  } : f32[2]
  return %3
}`)
	args := [][]*Literal{{f32s(1, 2)}, {f32s(3, 4)}}
	_, err := evalSPMDGuarded(t, f, 2, 1, args)
	if !errors.Is(err, ErrDeadlock) || !strings.Contains(err.Error(), "devices disagree on the next collective over devices [0 1]") {
		t.Errorf("error %v, want one saying the devices disagree", err)
	}
	// The same program with a one-device group in the gather: device 1
	// runs its all_gather alone and finishes; device 0 waits for it in
	// the all_reduce.
	f2 := parseFunc(t, strings.Replace(strings.Replace(f.String(), "replica_groups = [[0, 1]]", "replica_groups = [[0], [1]]", 1), "f32[4]", "f32[2]", 1))
	_, err = evalSPMDGuarded(t, f2, 2, 1, args)
	if !errors.Is(err, ErrDeadlock) || !strings.Contains(err.Error(), "device 0 (replica 0, partition 0) waits in all_reduce") ||
		!strings.Contains(err.Error(), "device 1 (replica 1, partition 0), which finished") {
		t.Errorf("error %v, want a deadlock: device 0 waiting for device 1, which finished", err)
	}
}

// TestEvalSPMDTripCountsDiffer: a loop whose trip count differs between
// devices leaves one waiting in its collective for one that left the loop.
func TestEvalSPMDTripCountsDiffer(t *testing.T) {
	f := parseFunc(t, `
func @f(%0: f32[2], %1: si32[]) -> f32[2] {
  %2, %3 = while %0, %1 (%0: f32[2], %1: si32[]) {
    %2 = constant {value = dense<0> : si32[]} : si32[]
    %3 = compare %1, %2 {dir = GT} : i1[]
    return %3
  } (%0: f32[2], %1: si32[]) {
    %2 = all_reduce %0 {replica_groups = []} (%0: f32[], %1: f32[]) {
      %2 = add %0, %1 : f32[]
      return %2
    } : f32[2]
    %3 = constant {value = dense<1> : si32[]} : si32[]
    %4 = subtract %1, %3 : si32[]
    return %2, %4
  } : f32[2], si32[]
  return %2
}`)
	args := make([][]*Literal, 8)
	for d := range args {
		args[d] = []*Literal{f32s(1, 2), ScalarOf(int32(3 + d/7))} // device 7 loops once more
	}
	_, err := evalSPMDGuarded(t, f, 4, 2, args)
	if !errors.Is(err, ErrDeadlock) || !strings.Contains(err.Error(), "device 7 (replica 3, partition 1) waits in all_reduce for device 1 (replica 0, partition 1), which finished") {
		t.Errorf("error %v, want device 7 stuck in the all_reduce", err)
	}
}

// TestEvalSPMDDeviceFails: one device fails (a custom_call has no
// reference evaluation) while the others wait for it in a collective:
// the error is that device's, not a deadlock.
func TestEvalSPMDDeviceFails(t *testing.T) {
	f := parseFunc(t, `
func @f(%0: f32[2], %1: si32[]) -> f32[2] {
  %2 = case %1, %0 (%0: f32[2]) {
    return %0
  } (%0: f32[2]) {
    %1 = custom_call %0 {target = "boom", result_types = [f32[2]]} : f32[2]
    return %1
  } : f32[2]
  %3 = all_reduce %2 {replica_groups = []} (%0: f32[], %1: f32[]) {
    %2 = add %0, %1 : f32[]
    return %2
  } : f32[2]
  return %3
}`)
	args := make([][]*Literal, 4)
	for d := range args {
		args[d] = []*Literal{f32s(1, 2), ScalarOf(int32(0))}
	}
	args[2][1] = ScalarOf(int32(1))
	_, err := evalSPMDGuarded(t, f, 2, 2, args)
	if err == nil || errors.Is(err, ErrDeadlock) || !strings.Contains(err.Error(), "device 2 (replica 1, partition 0)") || !strings.Contains(err.Error(), `target "boom"`) {
		t.Errorf("error %v, want device 2's custom_call failure", err)
	}
}

// TestEvalSingleDevice: ir.Eval runs one device, where a collective over
// that device alone is the identity (or the zeros of a permute without
// pairs), and groups naming other devices are an error.
func TestEvalSingleDevice(t *testing.T) {
	f := parseFunc(t, `
func @f(%0: f32[2]) -> (f32[2], f32[2], f32[2], ui32[], ui32[], f32[2]) {
  %1 = all_reduce %0 {replica_groups = []} (%0: f32[], %1: f32[]) {
    %2 = add %0, %1 : f32[]
    return %2
  } : f32[2]
  %2 = all_gather %1 {all_gather_dim = 0, replica_groups = [[0]], channel_id = 1, use_global_device_ids = true} : f32[2]
  %3 = collective_permute %2 {source_target_pairs = []} : f32[2]
  %4 = replica_id : ui32[]
  %5 = partition_id : ui32[]
  %6 = all_to_all %2 {split_dimension = 0, concat_dimension = 0, split_count = 1, replica_groups = [[0]], channel_id = 4} : f32[2]
  return %1, %2, %3, %4, %5, %6
}`)
	outs, err := Eval(f, f32s(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	want := []*Literal{f32s(1, 2), f32s(1, 2), f32s(0, 0), ScalarOf(uint32(0)), ScalarOf(uint32(0)), f32s(1, 2)}
	for k := range want {
		if !sameBits(outs[k], want[k]) {
			t.Errorf("result #%d is %v, want %v", k, outs[k], want[k])
		}
	}
	g := parseFunc(t, `
func @g(%0: f32[2]) -> f32[4] {
  %1 = all_gather %0 {all_gather_dim = 0, replica_groups = [[0, 1]]} : f32[4]
  return %1
}`)
	_, err = Eval(g, f32s(1, 2))
	if err == nil || !strings.Contains(err.Error(), "all_gather: cross_replica groups [[0 1]]: replica id 1 is out of range") || !strings.Contains(err.Error(), "ir.EvalSPMD") {
		t.Errorf("error %v, want one saying the groups name a device that Eval does not have", err)
	}
}

// TestEvalSPMDErrors: groups that do not fit the grid, and the size of a
// cross_replica_and_partition group differing from its replica groups'.
func TestEvalSPMDErrors(t *testing.T) {
	gather := parseFunc(t, `
func @g(%0: f32[2]) -> f32[4] {
  %1 = all_gather %0 {all_gather_dim = 0, replica_groups = [[0, 1]], channel_id = 1} : f32[4]
  return %1
}`)
	args := func(n int) [][]*Literal {
		a := make([][]*Literal, n)
		for d := range a {
			a[d] = []*Literal{f32s(1, 2)}
		}
		return a
	}
	// 2 replicas × 1 partition: the groups fit, and hold 2 devices.
	if _, err := EvalSPMD(gather, 2, 1, args(2)); err != nil {
		t.Errorf("2×1: %v", err)
	}
	for _, c := range []struct {
		nr, np int
		want   string
	}{
		{2, 2, "its process groups hold 4 devices (cross_replica_and_partition on 2 replicas × 2 partitions), but its result type is for groups of 2"},
		{4, 1, "leave out replica ids [2 3]"},
		{1, 2, "replica id 1 is out of range"},
	} {
		_, err := evalSPMDGuarded(t, gather, c.nr, c.np, args(c.nr*c.np))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%d×%d: error %v, want one saying %q", c.nr, c.np, err, c.want)
		}
	}
	if _, err := EvalSPMD(gather, 2, 1, args(3)); err == nil || !strings.Contains(err.Error(), "arguments for 3 devices, want 2") {
		t.Errorf("wrong argument count: %v", err)
	}
	wrong := args(2)
	wrong[1] = []*Literal{f32s(1, 2, 3)}
	if _, err := EvalSPMD(gather, 2, 1, wrong); err == nil || !strings.Contains(err.Error(), "device 1 (replica 1, partition 0)") {
		t.Errorf("wrong argument type on device 1: %v", err)
	}
}

// TestCollectiveInScalarRegion: a collective in the body of a reduce (or
// of an all_reduce) is rejected by Verify and by EvalSPMD.
func TestCollectiveInScalarRegion(t *testing.T) {
	m, err := Parse(`
func @f(%0: f32[4]) -> f32[] {
  %1 = constant {value = dense<0.0> : f32[]} : f32[]
  %2 = reduce %0, %1 {dims = [0]} (%0: f32[], %1: f32[]) {
    %2 = add %0, %1 : f32[]
    %3 = all_reduce %2 {replica_groups = []} (%0: f32[], %1: f32[]) {
      %2 = add %0, %1 : f32[]
      return %2
    } : f32[]
    return %3
  } : f32[]
  return %2
}`)
	if err != nil {
		t.Fatal(err)
	}
	f := m.Funcs[0]
	want := "all_reduce: a collective cannot be in the scalar region of reduce"
	if err := Verify(f); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Verify: %v, want %q", err, want)
	}
	if _, err := EvalSPMD(f, 1, 1, [][]*Literal{{f32s(1, 2, 3, 4)}}); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("EvalSPMD: %v, want %q", err, want)
	}
}

// TestAllReduceBodyElementwise: a body the evaluator cannot lift to
// vectors (it has a reshape) is applied element by element, with the same
// results as the lifted one.
func TestAllReduceBodyElementwise(t *testing.T) {
	src := `
func @f(%0: f32[3]) -> f32[3] {
  %1 = all_reduce %0 {replica_groups = [[1, 0, 2]]} (%0: f32[], %1: f32[]) {
    %2 = multiply %0, %1 : f32[]
    %3 = add %2, %1 : f32[]
    BODY
    return %4
  } : f32[3]
  return %1
}`
	lifted := parseFunc(t, strings.Replace(src, "BODY", "%4 = negate %3 : f32[]", 1))
	perElem := parseFunc(t, strings.Replace(src, "BODY", "%5 = negate %3 : f32[]\n    %4 = reshape %5 {shape = []} : f32[]", 1))
	if _, ok := sxLift(perElem.Body[0].Regions[0], 3); ok {
		t.Fatal("the reshape body lifts: the test does not reach the per-element path")
	}
	args := [][]*Literal{{f32s(1, 2, 3)}, {f32s(-1, 0.5, 2)}, {f32s(4, -3, 0)}}
	// Group order 1, 0, 2: acc = -(x1*x0 + x0), then -(acc*x2 + x2).
	want := Zeros(TensorOf(F32, 3))
	for e := range 3 {
		x0, x1, x2 := args[0][0].Data.([]float32)[e], args[1][0].Data.([]float32)[e], args[2][0].Data.([]float32)[e]
		acc := -(x1*x0 + x0)
		want.Data.([]float32)[e] = -(acc*x2 + x2)
	}
	for _, f := range []*Func{lifted, perElem} {
		outs := runSPMD(t, f, 3, 1, args)
		for d := range outs {
			if !sameBits(outs[d][0], want) {
				t.Errorf("device %d: %v, want %v", d, outs[d][0], want)
			}
		}
	}
}

// BenchmarkEvalSPMDAllReduce: an all_reduce sum of f32[256,256] over 8
// devices (the body lifted to whole tensors), per run of the program.
func BenchmarkEvalSPMDAllReduce(b *testing.B) {
	ty := TensorOf(F32, 256, 256)
	f := NewFunc("psum", ty)
	rs, err := f.Emit(UnknownLoc, OpAllReduce, f.Params, AllReduceAttr{}, BinaryRegion(OpAdd, F32, UnknownLoc))
	if err != nil {
		b.Fatal(err)
	}
	f.Return(rs...)
	r := rand.New(rand.NewPCG(1, 1))
	args := make([][]*Literal, 8)
	for d := range args {
		args[d] = []*Literal{smallValues(r, ty)}
	}
	b.SetBytes(int64(8 * ty.NumElements() * 4))
	for b.Loop() {
		if _, err := EvalSPMD(f, 8, 1, args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvalSPMDRendezvous: 100 trips of a loop whose body is one
// small all_reduce, on 8 devices: the cost of a rendezvous.
func BenchmarkEvalSPMDRendezvous(b *testing.B) {
	m, err := Parse(`
func @f(%0: f32[4]) -> f32[4] {
  %1 = constant {value = dense<0> : si32[]} : si32[]
  %2, %3 = while %0, %1 (%0: f32[4], %1: si32[]) {
    %2 = constant {value = dense<100> : si32[]} : si32[]
    %3 = compare %1, %2 {dir = LT} : i1[]
    return %3
  } (%0: f32[4], %1: si32[]) {
    %2 = all_reduce %0 {replica_groups = []} (%0: f32[], %1: f32[]) {
      %2 = maximum %0, %1 : f32[]
      return %2
    } : f32[4]
    %3 = constant {value = dense<1> : si32[]} : si32[]
    %4 = add %1, %3 : si32[]
    return %2, %4
  } : f32[4], si32[]
  return %2
}`)
	if err != nil {
		b.Fatal(err)
	}
	args := make([][]*Literal, 8)
	for d := range args {
		args[d] = []*Literal{f32s(1, 2, 3, float32(d))}
	}
	for b.Loop() {
		if _, err := EvalSPMD(m.Funcs[0], 8, 1, args); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100, "ns/trip")
}
