package lowering

import (
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

// rule lowers one instruction: it appends StableHLO ops through c.b and
// returns one value per result of c.in.
type rule func(c *ctx) ([]*stablehlo.Value, error)

// rules holds one lowering rule per op, keyed by the op table's Op.
// TestEveryOpHasRule fails when an op of ir.AllOps has none. It is filled
// in init because the region rules lower nested bodies through it.
var rules map[ir.Op]rule

func init() {
	rules = map[ir.Op]rule{
		ir.OpConstant: lowerConstant,
		ir.OpIota:     lowerIota,

		// The elementwise ops without attributes (the ir names are the
		// StableHLO names) are added below from the op tables.
		ir.OpReducePrecision: lowerReducePrecision,

		// Other elementwise. select and clamp take their operands in
		// StableHLO's order (pred, on_true, on_false; min, operand, max);
		// convert and bitcast_convert carry the target in the result type.
		ir.OpCompare:        lowerCompare,
		ir.OpConvert:        lowerSame,
		ir.OpBitcastConvert: lowerSame,

		// Data movement.
		ir.OpBroadcastInDim:     lowerBroadcastInDim,
		ir.OpReshape:            lowerSame,
		ir.OpTranspose:          lowerTranspose,
		ir.OpSlice:              lowerSlice,
		ir.OpDynamicSlice:       lowerDynamicSlice,
		ir.OpDynamicUpdateSlice: lowerSame,
		ir.OpConcatenate:        lowerConcatenate,
		ir.OpPad:                lowerPad,
		ir.OpReverse:            lowerReverse,

		// Compute.
		ir.OpDotGeneral:   lowerDotGeneral,
		ir.OpReduce:       lowerReduce,
		ir.OpReduceWindow: lowerReduceWindow,
		ir.OpConvolution:  lowerConvolution,
		ir.OpGather:       lowerGather,
		ir.OpScatter:      lowerScatter,
		ir.OpSort:         lowerSort,
		ir.OpFFT:          lowerFFT,
		ir.OpErf:          lowerErf,

		// Control flow and extension.
		ir.OpWhile:      lowerWhile,
		ir.OpCase:       lowerCase,
		ir.OpCustomCall: lowerCustomCall,
		ir.OpComposite:  lowerComposite,

		// Sharding (sharding.go).
		ir.OpShardingConstraint: lowerShardingConstraint,
		ir.OpManualComputation:  lowerManualComputation,

		// Collectives, in the generic form JAX prints (replica_id and
		// partition_id in their custom form, `stablehlo.replica_id :
		// tensor<ui32>`).
		ir.OpAllReduce:         lowerAllReduce,
		ir.OpAllGather:         lowerAllGather,
		ir.OpReduceScatter:     lowerReduceScatter,
		ir.OpAllToAll:          lowerAllToAll,
		ir.OpCollectivePermute: lowerCollectivePermute,
		ir.OpReplicaID:         lowerSame,
		ir.OpPartitionID:       lowerSame,
	}
	// An elementwise ir op without attributes whose name is an
	// elementwise op of StableHLO's op table prints as that op.
	for _, op := range ir.AllOps() {
		info := op.Info()
		if _, ok := rules[op]; ok || !info.Has(ir.Elementwise) || info.Attr != nil {
			continue
		}
		if d, ok := stablehlo.LookupOp("stablehlo." + info.Name); ok && d.Has(stablehlo.Elementwise) {
			rules[op] = lowerSame
		}
	}
}

// HasRule reports whether op has a lowering rule (for `stela ops` and the
// generated status table in docs/ops.md).
func HasRule(op ir.Op) bool {
	_, ok := rules[op]
	return ok
}

func lowerSame(c *ctx) ([]*stablehlo.Value, error) { return c.same() }

func lowerConstant(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.ConstantAttr)
	if a.Value == nil {
		return nil, c.errorf("constant has no value")
	}
	// NewLiteral checks that the data matches the type before Bytes reads it.
	lit, err := ir.NewLiteral(a.Value.Type, a.Value.Data)
	if err != nil {
		return nil, c.errorf("%v", err)
	}
	t, err := tensorType(lit.Type)
	if err != nil {
		return nil, c.errorf("%v", err)
	}
	if !stablehlo.TypesEqual(t, c.types[0]) {
		return nil, c.errorf("value has type %v, result has %v", t, c.types[0])
	}
	// The literal's memory image is MLIR's dense layout, so every element
	// type, f16 and bf16 and NaN payloads included, lowers bit-exactly.
	d, err := stablehlo.NewDense(t, lit.Bytes())
	if err != nil {
		return nil, c.errorf("%v", err)
	}
	return c.op("stablehlo.constant", nil, stablehlo.NA("value", d)).Results, nil
}

func lowerIota(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.IotaAttr)
	return c.op("stablehlo.iota", nil, stablehlo.NA("iota_dimension", stablehlo.I64Attr(int64(a.Dim)))).Results, nil
}

func lowerReducePrecision(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.ReducePrecisionAttr)
	return c.same(
		stablehlo.NA("exponent_bits", stablehlo.I32Attr(int64(a.ExponentBits))),
		stablehlo.NA("mantissa_bits", stablehlo.I32Attr(int64(a.MantissaBits))))
}

func lowerCompare(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.CompareAttr)
	dir := a.Direction.String()
	if dir == "?" {
		return nil, c.errorf("comparison direction %d has no StableHLO form", a.Direction)
	}
	typ := a.Type.String()
	if a.Type == ir.CmpNoType {
		typ = defaultCompareType(c.in.Args[0].Type.DType)
	}
	if typ == "?" {
		return nil, c.errorf("comparison type %d has no StableHLO form", a.Type)
	}
	return c.same(
		stablehlo.NA("comparison_direction", stablehlo.ComparisonDirection(dir)),
		stablehlo.NA("compare_type", stablehlo.ComparisonType(typ)))
}

// defaultCompareType is the compare_type JAX writes for an element type:
// FLOAT for floats and complex numbers, SIGNED for signed integers, and
// UNSIGNED for unsigned integers and i1.
func defaultCompareType(d ir.DType) string {
	switch {
	case d.IsFloat(), d.IsComplex():
		return "FLOAT"
	case d.IsSigned():
		return "SIGNED"
	}
	return "UNSIGNED"
}

func lowerBroadcastInDim(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.BroadcastInDimAttr)
	return c.same(stablehlo.NA("broadcast_dimensions", i64Array(a.Dims)))
}

func lowerTranspose(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.TransposeAttr)
	return c.same(stablehlo.NA("permutation", i64Array(a.Perm)))
}

func lowerSlice(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.SliceAttr)
	strides := a.Stride
	if len(strides) == 0 {
		strides = filled(len(a.Start), 1)
	}
	return c.same(
		stablehlo.NA("start_indices", i64Array(a.Start)),
		stablehlo.NA("limit_indices", i64Array(a.Limit)),
		stablehlo.NA("strides", i64Array(strides)))
}

func lowerDynamicSlice(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.DynamicSliceAttr)
	return c.same(stablehlo.NA("slice_sizes", i64Array(a.Sizes)))
}

func lowerConcatenate(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.ConcatenateAttr)
	return c.same(stablehlo.NA("dimension", stablehlo.I64Attr(int64(a.Dim))))
}

func lowerPad(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.PadAttr)
	rank := c.in.Args[0].Type.Rank()
	orZeros := func(v []int) []int {
		if len(v) == 0 {
			return filled(rank, 0)
		}
		return v
	}
	return c.same(
		stablehlo.NA("edge_padding_low", i64Array(orZeros(a.Low))),
		stablehlo.NA("edge_padding_high", i64Array(orZeros(a.High))),
		stablehlo.NA("interior_padding", i64Array(orZeros(a.Interior))))
}

func lowerReverse(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.ReverseAttr)
	return c.same(stablehlo.NA("dimensions", i64Array(a.Dims)))
}

// lowerErf emits chlo.erf (StableHLO has no erf; XLA and the CPU plugin
// compile the CHLO op).
func lowerErf(c *ctx) ([]*stablehlo.Value, error) {
	return c.op("chlo.erf", c.args).Results, nil
}

// lowerFFT emits stablehlo.fft (the CPU plugin calls its runtime's FFT;
// XLA's plugins have their own kernels).
func lowerFFT(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.FFTAttr)
	return c.same(
		stablehlo.NA("fft_type", stablehlo.EnumAttr{Dialect: "stablehlo", Kind: "fft_type", Value: a.Type.String()}),
		stablehlo.NA("fft_length", i64Array(a.Length)))
}

func lowerDotGeneral(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.DotGeneralAttr)
	attrs := []stablehlo.NamedAttr{stablehlo.NA("dot_dimension_numbers", stablehlo.DotDims{
		LhsBatchingDims:    i64s(a.LhsBatch),
		RhsBatchingDims:    i64s(a.RhsBatch),
		LhsContractingDims: i64s(a.LhsContract),
		RhsContractingDims: i64s(a.RhsContract),
	})}
	attrs, err := c.precision(attrs, a.Precision)
	if err != nil {
		return nil, err
	}
	return c.same(attrs...)
}

// precision appends precision_config when the ir attribute sets one.
func (c *ctx) precision(attrs []stablehlo.NamedAttr, ps []ir.Precision) ([]stablehlo.NamedAttr, error) {
	if len(ps) == 0 {
		return attrs, nil
	}
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.String()
		if names[i] == "?" {
			return nil, c.errorf("precision %d has no StableHLO form", p)
		}
	}
	return append(attrs, stablehlo.NA("precision_config", stablehlo.PrecisionConfig(names...))), nil
}

func lowerReduce(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.ReduceAttr)
	// Operands are (inputs..., inits...) and the body takes
	// (accumulators..., elements...) as rank-0 tensors, both as in
	// StableHLO.
	o := c.op("stablehlo.reduce", c.args, stablehlo.NA("dimensions", i64Array(a.Dims)))
	if err := c.region(o, c.in.Regions[0]); err != nil {
		return nil, err
	}
	return o.Results, nil
}

func lowerReduceWindow(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.ReduceWindowAttr)
	// Empty lists mean StableHLO's defaults (ones, no padding), so they
	// are left out rather than spelled out.
	attrs := []stablehlo.NamedAttr{stablehlo.NA("window_dimensions", i64Array(a.WindowDims))}
	attrs = appendArray(attrs, "window_strides", a.Strides)
	attrs = appendArray(attrs, "base_dilations", a.BaseDilations)
	attrs = appendArray(attrs, "window_dilations", a.WindowDilations)
	if len(a.Padding) > 0 {
		p, err := paddingAttr(a.Padding)
		if err != nil {
			return nil, c.errorf("padding: %v", err)
		}
		attrs = append(attrs, stablehlo.NA("padding", p))
	}
	o := c.op("stablehlo.reduce_window", c.args, attrs...)
	if err := c.region(o, c.in.Regions[0]); err != nil {
		return nil, err
	}
	return o.Results, nil
}

func lowerConvolution(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.ConvolutionAttr)
	var attrs []stablehlo.NamedAttr
	attrs = appendArray(attrs, "window_strides", a.WindowStrides)
	if len(a.Padding) > 0 {
		p, err := paddingAttr(a.Padding)
		if err != nil {
			return nil, c.errorf("padding: %v", err)
		}
		attrs = append(attrs, stablehlo.NA("padding", p))
	}
	attrs = appendArray(attrs, "lhs_dilation", a.LhsDilation)
	attrs = appendArray(attrs, "rhs_dilation", a.RhsDilation)
	if len(a.WindowReversal) > 0 {
		attrs = append(attrs, stablehlo.NA("window_reversal", stablehlo.BoolArray(a.WindowReversal...)))
	}
	attrs = append(attrs,
		stablehlo.NA("dimension_numbers", stablehlo.ConvDims{
			InputBatchDim:          int64(a.InputBatchDim),
			InputFeatureDim:        int64(a.InputFeatureDim),
			InputSpatialDims:       i64s(a.InputSpatialDims),
			KernelInputFeatureDim:  int64(a.KernelInputFeatureDim),
			KernelOutputFeatureDim: int64(a.KernelOutputFeatureDim),
			KernelSpatialDims:      i64s(a.KernelSpatialDims),
			OutputBatchDim:         int64(a.OutputBatchDim),
			OutputFeatureDim:       int64(a.OutputFeatureDim),
			OutputSpatialDims:      i64s(a.OutputSpatialDims),
		}),
		stablehlo.NA("feature_group_count", stablehlo.I64Attr(int64(a.FeatureGroupCount))),
		stablehlo.NA("batch_group_count", stablehlo.I64Attr(int64(a.BatchGroupCount))))
	attrs, err := c.precision(attrs, a.Precision)
	if err != nil {
		return nil, err
	}
	return c.same(attrs...)
}

func lowerGather(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.GatherAttr)
	attrs := []stablehlo.NamedAttr{
		stablehlo.NA("dimension_numbers", stablehlo.GatherDims{
			OffsetDims:               i64s(a.OffsetDims),
			CollapsedSliceDims:       i64s(a.CollapsedSliceDims),
			OperandBatchingDims:      i64s(a.OperandBatchingDims),
			StartIndicesBatchingDims: i64s(a.StartIndicesBatchingDims),
			StartIndexMap:            i64s(a.StartIndexMap),
			IndexVectorDim:           int64(a.IndexVectorDim),
		}),
		stablehlo.NA("slice_sizes", i64Array(a.SliceSizes)),
	}
	// false is StableHLO's default; MLIR leaves default values out.
	if a.IndicesAreSorted {
		attrs = append(attrs, stablehlo.NA("indices_are_sorted", stablehlo.BoolAttr(true)))
	}
	return c.same(attrs...)
}

func lowerScatter(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.ScatterAttr)
	attrs := []stablehlo.NamedAttr{
		stablehlo.NA("scatter_dimension_numbers", stablehlo.ScatterDims{
			UpdateWindowDims:           i64s(a.UpdateWindowDims),
			InsertedWindowDims:         i64s(a.InsertedWindowDims),
			InputBatchingDims:          i64s(a.InputBatchingDims),
			ScatterIndicesBatchingDims: i64s(a.ScatterIndicesBatchingDims),
			ScatterDimsToOperandDims:   i64s(a.ScatterDimsToOperandDims),
			IndexVectorDim:             int64(a.IndexVectorDim),
		}),
	}
	if a.IndicesAreSorted {
		attrs = append(attrs, stablehlo.NA("indices_are_sorted", stablehlo.BoolAttr(true)))
	}
	if a.UniqueIndices {
		attrs = append(attrs, stablehlo.NA("unique_indices", stablehlo.BoolAttr(true)))
	}
	// Operands (inputs..., indices, updates...) and the update region's
	// (current..., update...) scalars are StableHLO's order.
	o := c.op("stablehlo.scatter", c.args, attrs...)
	if err := c.region(o, c.in.Regions[0]); err != nil {
		return nil, err
	}
	return o.Results, nil
}

func lowerSort(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.SortAttr)
	// The comparator takes (lhs0, rhs0, lhs1, rhs1, ...) as rank-0
	// tensors, as in StableHLO. is_stable is written out either way, as
	// JAX does.
	o := c.op("stablehlo.sort", c.args,
		stablehlo.NA("dimension", stablehlo.I64Attr(int64(a.Dim))),
		stablehlo.NA("is_stable", stablehlo.BoolAttr(a.IsStable)))
	if err := c.region(o, c.in.Regions[0]); err != nil {
		return nil, err
	}
	return o.Results, nil
}

func lowerWhile(c *ctx) ([]*stablehlo.Value, error) {
	o := c.op("stablehlo.while", c.args)
	for _, r := range c.in.Regions { // cond, then body
		if err := c.region(o, r); err != nil {
			return nil, err
		}
	}
	return o.Results, nil
}

// lowerCase: ir branches take the operands after the index as parameters;
// StableHLO branches take no arguments and capture, so each branch is
// lowered with its parameters standing for the lowered operands.
func lowerCase(c *ctx) ([]*stablehlo.Value, error) {
	o := c.op("stablehlo.case", c.args[:1])
	for _, r := range c.in.Regions {
		if err := c.capturingRegion(o, r, c.args[1:]); err != nil {
			return nil, err
		}
	}
	return o.Results, nil
}

func lowerCustomCall(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.CustomCallAttr)
	attrs := []stablehlo.NamedAttr{stablehlo.NA("call_target_name", stablehlo.StringAttr(a.Target))}
	if a.HasSideEffect {
		attrs = append(attrs, stablehlo.NA("has_side_effect", stablehlo.BoolAttr(true)))
	}
	if a.BackendConfig != "" {
		attrs = append(attrs, stablehlo.NA("backend_config", stablehlo.StringAttr(a.BackendConfig)))
	}
	return c.same(attrs...)
}

// i64s converts a list of dimensions (nil stays nil).
func i64s(v []int) []int64 {
	if v == nil {
		return nil
	}
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

func i64Array(v []int) stablehlo.DenseArray { return stablehlo.I64Array(i64s(v)...) }

// appendArray appends name = array<i64: v...> unless v is empty.
func appendArray(attrs []stablehlo.NamedAttr, name string, v []int) []stablehlo.NamedAttr {
	if len(v) == 0 {
		return attrs
	}
	return append(attrs, stablehlo.NA(name, i64Array(v)))
}

func filled(n, v int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// paddingAttr is the (low, high) padding per dimension as StableHLO's
// dense<[[lo, hi], ...]> : tensor<Nx2xi64>.
func paddingAttr(p [][2]int) (*stablehlo.DenseElements, error) {
	flat := make([]int64, 0, 2*len(p))
	for _, lh := range p {
		flat = append(flat, int64(lh[0]), int64(lh[1]))
	}
	return stablehlo.DenseFromInt64s(stablehlo.Tensor(stablehlo.I64, int64(len(p)), 2), flat)
}

// replicaGroupsAttr spells replica groups as StableHLO does, a 2-d i64
// tensor with one row per group: dense<[[0, 1], [2, 3]]> :
// tensor<2x2xi64>. Rows of groups smaller than the largest are padded with
// -1, as MHLO and XLA read them; no groups is dense<> : tensor<0x0xi64>
// (StableHLO's "all devices in one group").
func replicaGroupsAttr(groups [][]int64) (*stablehlo.DenseElements, error) {
	width := 0
	for _, g := range groups {
		width = max(width, len(g))
	}
	flat := make([]int64, 0, len(groups)*width)
	for _, g := range groups {
		flat = append(flat, g...)
		for range width - len(g) {
			flat = append(flat, -1)
		}
	}
	return stablehlo.DenseFromInt64s(stablehlo.Tensor(stablehlo.I64, int64(len(groups)), int64(width)), flat)
}

// groupAttrs appends replica_groups, and channel_handle and
// use_global_device_ids when set. A channel is DEVICE_TO_DEVICE (type =
// 1), as JAX writes it for collectives across partitions.
func (c *ctx) groupAttrs(attrs []stablehlo.NamedAttr, groups [][]int64, channel int64, global bool) ([]stablehlo.NamedAttr, error) {
	g, err := replicaGroupsAttr(groups)
	if err != nil {
		return nil, c.errorf("replica_groups: %v", err)
	}
	attrs = append(attrs, stablehlo.NA("replica_groups", g))
	return c.channelAttrs(attrs, channel, global), nil
}

func (c *ctx) channelAttrs(attrs []stablehlo.NamedAttr, channel int64, global bool) []stablehlo.NamedAttr {
	if channel > 0 {
		attrs = append(attrs, stablehlo.NA("channel_handle", stablehlo.ChannelHandle{Handle: channel, Type: 1}))
	}
	if global {
		attrs = append(attrs, stablehlo.NA("use_global_device_ids", stablehlo.UnitAttr{}))
	}
	return attrs
}

func lowerAllReduce(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.AllReduceAttr)
	attrs, err := c.groupAttrs(nil, a.ReplicaGroups, a.ChannelID, a.UseGlobalDeviceIDs)
	if err != nil {
		return nil, err
	}
	o := c.op("stablehlo.all_reduce", c.args, attrs...)
	if err := c.region(o, c.in.Regions[0]); err != nil {
		return nil, err
	}
	return o.Results, nil
}

func lowerAllGather(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.AllGatherAttr)
	attrs, err := c.groupAttrs([]stablehlo.NamedAttr{stablehlo.NA("all_gather_dim", stablehlo.I64Attr(int64(a.AllGatherDim)))},
		a.ReplicaGroups, a.ChannelID, a.UseGlobalDeviceIDs)
	if err != nil {
		return nil, err
	}
	return c.same(attrs...)
}

func lowerReduceScatter(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.ReduceScatterAttr)
	attrs, err := c.groupAttrs([]stablehlo.NamedAttr{stablehlo.NA("scatter_dimension", stablehlo.I64Attr(int64(a.ScatterDim)))},
		a.ReplicaGroups, a.ChannelID, a.UseGlobalDeviceIDs)
	if err != nil {
		return nil, err
	}
	o := c.op("stablehlo.reduce_scatter", c.args, attrs...)
	if err := c.region(o, c.in.Regions[0]); err != nil {
		return nil, err
	}
	return o.Results, nil
}

func lowerAllToAll(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.AllToAllAttr)
	attrs, err := c.groupAttrs([]stablehlo.NamedAttr{
		stablehlo.NA("split_dimension", stablehlo.I64Attr(int64(a.SplitDim))),
		stablehlo.NA("concat_dimension", stablehlo.I64Attr(int64(a.ConcatDim))),
		stablehlo.NA("split_count", stablehlo.I64Attr(int64(a.SplitCount))),
	}, a.ReplicaGroups, a.ChannelID, false)
	if err != nil {
		return nil, err
	}
	return c.same(attrs...)
}

func lowerCollectivePermute(c *ctx) ([]*stablehlo.Value, error) {
	a := c.in.Attr.(ir.CollectivePermuteAttr)
	flat := make([]int64, 0, 2*len(a.SourceTargetPairs))
	for _, st := range a.SourceTargetPairs {
		flat = append(flat, st[0], st[1])
	}
	pairs, err := stablehlo.DenseFromInt64s(stablehlo.Tensor(stablehlo.I64, int64(len(a.SourceTargetPairs)), 2), flat)
	if err != nil {
		return nil, c.errorf("source_target_pairs: %v", err)
	}
	return c.same(c.channelAttrs([]stablehlo.NamedAttr{stablehlo.NA("source_target_pairs", pairs)}, a.ChannelID, false)...)
}
