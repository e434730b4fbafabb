package ir

import (
	"fmt"
	"strings"
)

// Sharding rules (docs/sharding.md). An op's rule names the factors of its
// iteration space and says which dimension of each operand and result each
// factor runs along, as Shardy's OpShardingRule does:
//
//	dot_general f32[8,16] x f32[16,4] → f32[8,4]:   ([m, k], [k, n]) → ([m, n])  k is a reduction factor
//	reshape f32[6,4] → f32[24]:                      ([a, b]) → ([a b])
//
// Shardings flow through an op factor by factor: the mesh axes that split
// a dimension are the axes of its factors, major first. A dimension with
// no factor cannot be split (a sliced or concatenated dimension, the
// window dimensions of a convolution): the op needs it whole. A reduction
// factor appears in operands only; splitting it leaves each device with a
// partial result (a partial sum for dot_general), which the partitioner
// completes with an all_reduce or a reduce_scatter.
//
// Propagation (package passes) uses the rules to decide every value's
// sharding; the SPMD partitioner uses them to run the op on shards. An op
// without a rule (Sharding == nil, or a rule func returning nil for an
// instance) is computed whole: its operands are gathered, and its results
// are replicated unless asked otherwise.

// ShardingRule is an op instance's factors.
type ShardingRule struct {
	// Factors holds each factor's size.
	Factors []int
	// Operands[i][d] and Results[i][d] list the factors of dimension d of
	// operand or result i, major first (nil: the dimension must be whole).
	Operands, Results [][][]int
	// Reduction marks the factors that the op reduces over (they are in
	// no result); ReduceOp is how partial results combine: OpAdd for
	// dot_general and sums, OpMaximum, OpMinimum, ...
	Reduction []bool
	ReduceOp  Op
}

// ShardingRuleFunc returns the rule of one instance of an op, or nil when
// that instance has none.
type ShardingRuleFunc func(in *Instr) *ShardingRule

// ShardingRule returns the sharding rule of the instruction, or nil.
func (in *Instr) ShardingRule() *ShardingRule {
	info := in.Op.Info()
	if info == nil || info.Sharding == nil {
		return nil
	}
	return info.Sharding(in)
}

// String prints the rule in Shardy's notation: ([i, j], [j, k]) -> ([i, k])
// {i=8, j=16, k=4} reduction={j}.
func (r *ShardingRule) String() string {
	name := func(f int) string {
		if len(r.Factors) <= 18 {
			return string(rune('i' + f))
		}
		return fmt.Sprintf("f%d", f)
	}
	list := func(vs [][][]int) string {
		var parts []string
		for _, dims := range vs {
			var ds []string
			for _, fs := range dims {
				var ns []string
				for _, f := range fs {
					ns = append(ns, name(f))
				}
				if len(ns) == 0 {
					ds = append(ds, "_")
				} else {
					ds = append(ds, strings.Join(ns, " "))
				}
			}
			parts = append(parts, "["+strings.Join(ds, ", ")+"]")
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	var b strings.Builder
	b.WriteString(list(r.Operands))
	b.WriteString(" -> ")
	b.WriteString(list(r.Results))
	b.WriteString(" {")
	for f, n := range r.Factors {
		if f > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s=%d", name(f), n)
	}
	b.WriteByte('}')
	var red []string
	for f, is := range r.Reduction {
		if is {
			red = append(red, name(f))
		}
	}
	if len(red) > 0 {
		fmt.Fprintf(&b, " reduction={%s}", strings.Join(red, ", "))
	}
	return b.String()
}

// ruleBuilder makes rules: newFactor adds a factor, and the dimension
// lists are filled by the op's function.
type ruleBuilder struct{ r *ShardingRule }

func newRule(in *Instr) *ruleBuilder {
	r := &ShardingRule{}
	for _, a := range in.Args {
		r.Operands = append(r.Operands, make([][]int, a.Type.Rank()))
	}
	for _, v := range in.Results {
		r.Results = append(r.Results, make([][]int, v.Type.Rank()))
	}
	return &ruleBuilder{r: r}
}

func (b *ruleBuilder) factor(size int, reduction bool) int {
	b.r.Factors = append(b.r.Factors, size)
	b.r.Reduction = append(b.r.Reduction, reduction)
	return len(b.r.Factors) - 1
}

// shared adds a factor of the given size along the listed (operand, dim)
// and (result, dim) pairs; a pair whose dimension is not of that size
// (a broadcast size-1 dimension) is left without it.
func (b *ruleBuilder) shared(size int, operands, results [][2]int) {
	if size <= 1 {
		return
	}
	f := b.factor(size, false)
	for _, p := range operands {
		b.r.Operands[p[0]][p[1]] = append(b.r.Operands[p[0]][p[1]], f)
	}
	for _, p := range results {
		b.r.Results[p[0]][p[1]] = append(b.r.Results[p[0]][p[1]], f)
	}
}

// rulePassThrough is the rule of an op whose operands and results of full
// rank share every dimension in place, except those skip says: the
// elementwise ops, and the unaffected dimensions of slice, pad, reverse,
// concatenate, sort. Operands of lower rank (scalar predicates and
// bounds, start indices) have no factors.
func rulePassThrough(in *Instr, skip func(d int) bool) *ShardingRule {
	b := newRule(in)
	var shape []int
	if len(in.Results) > 0 {
		shape = in.Results[0].Type.Shape
	}
	for d, n := range shape {
		if skip != nil && skip(d) {
			continue
		}
		var ops, res [][2]int
		for i, a := range in.Args {
			if a.Type.Rank() == len(shape) && a.Type.Shape[d] == n {
				ops = append(ops, [2]int{i, d})
			}
		}
		for i, v := range in.Results {
			if v.Type.Rank() == len(shape) && v.Type.Shape[d] == n {
				res = append(res, [2]int{i, d})
			}
		}
		b.shared(n, ops, res)
	}
	return b.r
}

func ruleElementwise(in *Instr) *ShardingRule { return rulePassThrough(in, nil) }

func ruleBitcastConvert(in *Instr) *ShardingRule {
	if in.Args[0].Type.Rank() != in.Results[0].Type.Rank() {
		return nil
	}
	return rulePassThrough(in, nil)
}

// ruleGenerated is the rule of an op with no operands (constant, iota):
// its result's dimensions are free factors, which the partitioner makes
// locally.
func ruleGenerated(in *Instr) *ShardingRule { return rulePassThrough(in, nil) }

func ruleBroadcastInDim(in *Instr) *ShardingRule {
	a := in.Attr.(BroadcastInDimAttr)
	b := newRule(in)
	from := map[int]int{}
	for i, d := range a.Dims {
		from[d] = i
	}
	for d, n := range in.Results[0].Type.Shape {
		var ops [][2]int
		if i, ok := from[d]; ok && in.Args[0].Type.Shape[i] == n {
			ops = append(ops, [2]int{0, i})
		}
		b.shared(n, ops, [][2]int{{0, d}})
	}
	return b.r
}

func ruleTranspose(in *Instr) *ShardingRule {
	a := in.Attr.(TransposeAttr)
	b := newRule(in)
	for d, p := range a.Perm {
		b.shared(in.Results[0].Type.Shape[d], [][2]int{{0, p}}, [][2]int{{0, d}})
	}
	return b.r
}

// ruleReshape splits both shapes into common factors, walking them from
// the major end with greatest common divisors: f32[6,4] → f32[24] is
// ([a, b]) → ([a b]); f32[24] → f32[2,12] is ([a b]) → ([a], [b]). Where
// the walk finds no common factor (f32[2,3] → f32[3,2]) the dimensions
// from there on get none.
func ruleReshape(in *Instr) *ShardingRule {
	b := newRule(in)
	os, rs := in.Args[0].Type.Shape, in.Results[0].Type.Shape
	i, j := 0, 0
	var remO, remR int
	if len(os) > 0 {
		remO = os[0]
	}
	if len(rs) > 0 {
		remR = rs[0]
	}
	for i < len(os) && j < len(rs) {
		if remO == 1 {
			i++
			if i < len(os) {
				remO = os[i]
			}
			continue
		}
		if remR == 1 {
			j++
			if j < len(rs) {
				remR = rs[j]
			}
			continue
		}
		g := gcd(remO, remR)
		if g <= 1 {
			break
		}
		b.shared(g, [][2]int{{0, i}}, [][2]int{{0, j}})
		remO /= g
		remR /= g
	}
	return b.r
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func ruleDotGeneral(in *Instr) *ShardingRule {
	a := in.Attr.(DotGeneralAttr)
	b := newRule(in)
	b.r.ReduceOp = OpAdd
	lt, rt := in.Args[0].Type, in.Args[1].Type
	res := 0
	for k := range a.LhsBatch {
		b.shared(lt.Shape[a.LhsBatch[k]], [][2]int{{0, a.LhsBatch[k]}, {1, a.RhsBatch[k]}}, [][2]int{{0, res}})
		res++
	}
	for d, n := range lt.Shape {
		if !containsInt(a.LhsBatch, d) && !containsInt(a.LhsContract, d) {
			b.shared(n, [][2]int{{0, d}}, [][2]int{{0, res}})
			res++
		}
	}
	for d, n := range rt.Shape {
		if !containsInt(a.RhsBatch, d) && !containsInt(a.RhsContract, d) {
			b.shared(n, [][2]int{{1, d}}, [][2]int{{0, res}})
			res++
		}
	}
	for k := range a.LhsContract {
		n := lt.Shape[a.LhsContract[k]]
		if n <= 1 {
			continue
		}
		f := b.factor(n, true)
		b.r.Operands[0][a.LhsContract[k]] = []int{f}
		b.r.Operands[1][a.RhsContract[k]] = []int{f}
	}
	return b.r
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// ruleReduce: kept dimensions pass through to the results; reduced ones
// are reduction factors when the body is a plain binary op over one
// operand (sum, product, max, min, and, or), else they must be whole.
func ruleReduce(in *Instr) *ShardingRule {
	a := in.Attr.(ReduceAttr)
	b := newRule(in)
	n := len(in.Args) / 2
	op := OpInvalid
	if n == 1 {
		op = RegionOp(in.Regions[0])
	}
	switch op {
	case OpAdd, OpMultiply, OpMaximum, OpMinimum, OpAnd, OpOr:
		b.r.ReduceOp = op
	default:
		op = OpInvalid
	}
	t := in.Args[0].Type
	res := 0
	for d, size := range t.Shape {
		if containsInt(a.Dims, d) {
			if op != OpInvalid && size > 1 {
				f := b.factor(size, true)
				b.r.Operands[0][d] = []int{f}
			}
			continue
		}
		var ops, rs [][2]int
		for i := 0; i < n; i++ {
			ops = append(ops, [2]int{i, d})
			rs = append(rs, [2]int{i, res})
		}
		b.shared(size, ops, rs)
		res++
	}
	return b.r
}

func ruleConcatenate(in *Instr) *ShardingRule {
	dim := in.Attr.(ConcatenateAttr).Dim
	return rulePassThrough(in, func(d int) bool { return d == dim })
}

func ruleSlice(in *Instr) *ShardingRule {
	a := in.Attr.(SliceAttr)
	shape := in.Args[0].Type.Shape
	return rulePassThrough(in, func(d int) bool {
		return a.Start[d] != 0 || a.Limit[d] != shape[d] || (len(a.Stride) > d && a.Stride[d] != 1)
	})
}

func rulePad(in *Instr) *ShardingRule {
	a := in.Attr.(PadAttr)
	return rulePassThrough(in, func(d int) bool {
		return a.Low[d] != 0 || a.High[d] != 0 || a.Interior[d] != 0
	})
}

func ruleReverse(in *Instr) *ShardingRule {
	a := in.Attr.(ReverseAttr)
	return rulePassThrough(in, func(d int) bool { return containsInt(a.Dims, d) })
}

func ruleDynamicSlice(in *Instr) *ShardingRule {
	a := in.Attr.(DynamicSliceAttr)
	shape := in.Args[0].Type.Shape
	return rulePassThrough(in, func(d int) bool { return a.Sizes[d] != shape[d] })
}

func ruleDynamicUpdateSlice(in *Instr) *ShardingRule {
	shape, upd := in.Args[0].Type.Shape, in.Args[1].Type.Shape
	return rulePassThrough(in, func(d int) bool { return upd[d] != shape[d] })
}

func ruleSort(in *Instr) *ShardingRule {
	dim := in.Attr.(SortAttr).Dim
	return rulePassThrough(in, func(d int) bool { return d == dim })
}

func ruleReduceWindow(in *Instr) *ShardingRule {
	a := in.Attr.(ReduceWindowAttr)
	one := func(v []int, d int) bool { return len(v) <= d || v[d] == 1 }
	return rulePassThrough(in, func(d int) bool {
		return !(a.WindowDims[d] == 1 && one(a.Strides, d) && one(a.BaseDilations, d) && one(a.WindowDilations, d) &&
			(len(a.Padding) <= d || a.Padding[d] == [2]int{}))
	})
}

// ruleConvolution: the batch dimension passes through, the kernel's
// output features become the result's, and the input features are a
// reduction factor; spatial dimensions must be whole (a split would need
// halo exchanges). Grouped convolutions keep features whole.
func ruleConvolution(in *Instr) *ShardingRule {
	a := in.Attr.(ConvolutionAttr)
	b := newRule(in)
	b.r.ReduceOp = OpAdd
	lt, kt := in.Args[0].Type, in.Args[1].Type
	if a.BatchGroupCount <= 1 {
		b.shared(lt.Shape[a.InputBatchDim], [][2]int{{0, a.InputBatchDim}}, [][2]int{{0, a.OutputBatchDim}})
	}
	if a.FeatureGroupCount <= 1 && a.BatchGroupCount <= 1 {
		b.shared(kt.Shape[a.KernelOutputFeatureDim], [][2]int{{1, a.KernelOutputFeatureDim}}, [][2]int{{0, a.OutputFeatureDim}})
		if n := lt.Shape[a.InputFeatureDim]; n > 1 {
			f := b.factor(n, true)
			b.r.Operands[0][a.InputFeatureDim] = []int{f}
			b.r.Operands[1][a.KernelInputFeatureDim] = []int{f}
		}
	}
	return b.r
}

// ShardingRuleKind names the kind of the op's sharding rule, for `stela
// ops` and docs/ops.md ("elementwise", "reshape", "dot_general", ...), or
// "" when the op has none (Sharding == nil).
func (o *OpInfo) ShardingRuleKind() string {
	if o.Sharding == nil {
		return ""
	}
	return o.shardingKind
}

func init() {
	for op := range opTable {
		info := &opTable[op]
		if info.Name != "" && info.Has(Elementwise) {
			info.Sharding, info.shardingKind = ruleElementwise, "elementwise"
		}
	}
	type named struct {
		kind string
		rule ShardingRuleFunc
	}
	set := map[Op]named{
		OpConstant:           {"generated", ruleGenerated},
		OpIota:               {"generated", ruleGenerated},
		OpBitcastConvert:     {"elementwise (same rank only)", ruleBitcastConvert},
		OpBroadcastInDim:     {"broadcast", ruleBroadcastInDim},
		OpReshape:            {"reshape", ruleReshape},
		OpTranspose:          {"transpose", ruleTranspose},
		OpSlice:              {"pass-through (sliced dims whole)", ruleSlice},
		OpDynamicSlice:       {"pass-through (sliced dims whole)", ruleDynamicSlice},
		OpDynamicUpdateSlice: {"pass-through (updated dims whole)", ruleDynamicUpdateSlice},
		OpConcatenate:        {"pass-through (concatenated dim whole)", ruleConcatenate},
		OpPad:                {"pass-through (padded dims whole)", rulePad},
		OpReverse:            {"pass-through (reversed dims whole)", ruleReverse},
		OpDotGeneral:         {"dot_general", ruleDotGeneral},
		OpReduce:             {"reduce", ruleReduce},
		OpReduceWindow:       {"pass-through (windowed dims whole)", ruleReduceWindow},
		OpConvolution:        {"convolution", ruleConvolution},
		OpSort:               {"pass-through (sorted dim whole)", ruleSort},
		OpShardingConstraint: {"elementwise", ruleElementwise},
	}
	for op, r := range set {
		opTable[op].Sharding, opTable[op].shardingKind = r.rule, r.kind
	}
}
