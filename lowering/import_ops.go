package lowering

import (
	"fmt"
	"slices"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

// importRule imports one StableHLO op: it emits ir instructions through
// c and returns one ir value per result of c.o.
type importRule func(c *opCtx) ([]*ir.Value, error)

// opCtx is what an import rule sees.
type opCtx struct {
	s     *scope
	o     *stablehlo.Op
	loc   ir.Loc
	attrs []stablehlo.NamedAttr // the op's attributes less the ignored ones
	args  []*ir.Value           // the operands' ir values
	types []ir.Type             // the result types
}

// importRules holds the rule of every StableHLO op that imports, keyed by
// its full name. Filled in init because the region rules import nested
// ops through it.
var importRules map[string]importRule

func init() {
	importRules = map[string]importRule{
		"stablehlo.constant":             importConstant,
		"stablehlo.iota":                 importIota,
		"stablehlo.compare":              importCompare,
		"stablehlo.convert":              importConvert,
		"stablehlo.bitcast_convert":      importBitcastConvert,
		"stablehlo.reduce_precision":     importReducePrecision,
		"stablehlo.broadcast_in_dim":     importBroadcastInDim,
		"stablehlo.broadcast":            importBroadcast,
		"stablehlo.reshape":              importReshape,
		"stablehlo.transpose":            importTranspose,
		"stablehlo.slice":                importSlice,
		"stablehlo.dynamic_slice":        importDynamicSlice,
		"stablehlo.dynamic_update_slice": importSame(ir.OpDynamicUpdateSlice),
		"stablehlo.concatenate":          importConcatenate,
		"stablehlo.pad":                  importPad,
		"stablehlo.reverse":              importReverse,
		"stablehlo.dot_general":          importDotGeneral,
		"stablehlo.dot":                  importDot,
		"stablehlo.reduce":               importReduce,
		"stablehlo.reduce_window":        importReduceWindow,
		"stablehlo.convolution":          importConvolution,
		"stablehlo.gather":               importGather,
		"stablehlo.scatter":              importScatter,
		"stablehlo.sort":                 importSort,
		"stablehlo.while":                importWhile,
		"stablehlo.case":                 importCase,
		"stablehlo.if":                   importIf,
		"stablehlo.custom_call":          importCustomCall,
		"stablehlo.composite":            importComposite,
		"stablehlo.optimization_barrier": importOptimizationBarrier,
		"stablehlo.tuple":                importTuple,
		"stablehlo.get_tuple_element":    importGetTupleElement,
		"stablehlo.map":                  importMap,
		"stablehlo.fft":                  importFFT,
		"chlo.erf":                       importErf,
		"stablehlo.cholesky":             importCholesky,
		"stablehlo.triangular_solve":     importTriangularSolve,
		"func.call":                      importCall,
		"stablehlo.all_reduce":           importAllReduce,
		"stablehlo.all_gather":           importAllGather,
		"stablehlo.reduce_scatter":       importReduceScatter,
		"stablehlo.all_to_all":           importAllToAll,
		"stablehlo.collective_permute":   importCollectivePermute,
		"stablehlo.replica_id":           importSame(ir.OpReplicaID),
		"stablehlo.partition_id":         importSame(ir.OpPartitionID),
	}
	// Elementwise ops without attributes have their StableHLO name (an
	// elementwise op of StableHLO's op table).
	for _, op := range ir.AllOps() {
		info := op.Info()
		if !info.Has(ir.Elementwise) || info.Attr != nil {
			continue
		}
		if d, ok := stablehlo.LookupOp("stablehlo." + info.Name); ok && d.Has(stablehlo.Elementwise) {
			importRules[d.Name] = importSame(op)
		}
	}
	registerChlo()
}

// CanImport reports whether Import has a rule for the op of that full
// name ("stablehlo.add", "func.call").
func CanImport(name string) bool {
	_, ok := importRules[name]
	return ok
}

// errorf returns a located error naming the op.
func (c *opCtx) errorf(format string, args ...any) error { return c.s.errorf(c.o, format, args...) }

// attr returns the (not ignored) attribute name, or nil.
func (c *opCtx) attr(name string) stablehlo.Attr { return stablehlo.LookupAttr(c.attrs, name) }

// only checks that the op has no attribute other than those named (and a
// result_accuracy that asks for the default).
func (c *opCtx) only(names ...string) error {
	for _, a := range c.attrs {
		if slices.Contains(names, a.Name) || a.Name == "result_accuracy" && isDefaultAccuracy(a.Value) {
			continue
		}
		return c.errorf("unsupported attribute %s = %v", a.Name, a.Value)
	}
	return nil
}

// isDefaultAccuracy reports whether a result_accuracy attribute asks for
// the op's default accuracy, all that the IR's ops have.
func isDefaultAccuracy(a stablehlo.Attr) bool {
	o, ok := a.(stablehlo.OpaqueAttr)
	if !ok {
		return false
	}
	switch o.Text {
	case "#stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<DEFAULT>>",
		"#stablehlo.result_accuracy<atol = 0.000000e+00, rtol = 0.000000e+00, ulps = 0, mode = #stablehlo.result_accuracy_mode<DEFAULT>>":
		return true
	}
	return false
}

// emit appends an ir instruction at the op's location; the IR's type rule
// checks it.
func (c *opCtx) emit(op ir.Op, args []*ir.Value, attr any, regions ...*ir.Func) (outs []*ir.Value, err error) {
	// A type rule given values it does not expect may panic (ir.Parse
	// guards against the same); that is an error in the input here.
	defer func() {
		if p := recover(); p != nil {
			outs, err = nil, c.errorf("invalid %v (its type rule failed: %v)", op, p)
		}
	}()
	outs, err = c.s.f.Emit(c.loc, op, args, attr, regions...)
	if err != nil {
		if e, ok := err.(*ir.Error); ok {
			return nil, c.errorf("%s", e.Msg)
		}
		return nil, c.errorf("%v", err)
	}
	return outs, nil
}

// emit1 emits a one-result instruction.
func (c *opCtx) emit1(op ir.Op, args []*ir.Value, attr any) (*ir.Value, error) {
	outs, err := c.emit(op, args, attr)
	if err != nil {
		return nil, err
	}
	if len(outs) != 1 {
		return nil, c.errorf("%v has %d results, want 1", op, len(outs))
	}
	return outs[0], nil
}

// wantResults checks the op's result count.
func (c *opCtx) wantResults(n int) error {
	if len(c.types) != n {
		return c.errorf("has %d results, want %d", len(c.types), n)
	}
	return nil
}

// importSame is the rule of an op whose ir form has the same operands and
// results and no attribute.
func importSame(op ir.Op) importRule {
	return func(c *opCtx) ([]*ir.Value, error) {
		if err := c.only(); err != nil {
			return nil, err
		}
		return c.emit(op, c.args, nil)
	}
}

func importConstant(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("value"); err != nil {
		return nil, err
	}
	if err := c.wantResults(1); err != nil {
		return nil, err
	}
	d, ok := c.attr("value").(*stablehlo.DenseElements)
	if !ok || d == nil {
		return nil, c.errorf("value %v is not dense elements", c.attr("value"))
	}
	t, err := irType(d.Type)
	if err != nil {
		return nil, c.errorf("value: %v", err)
	}
	if !t.Equal(c.types[0]) {
		return nil, c.errorf("value has type %v, result has %v", t, c.types[0])
	}
	n := d.Type.NumElements()
	if n < 0 || n > maxConstantBytes/int64(t.DType.Size()) {
		return nil, c.errorf("constant of %v is too large to import (more than %d bytes)", t, maxConstantBytes)
	}
	b := d.Bytes()
	if b == nil && n > 0 {
		return nil, c.errorf("value of element type %s is not supported", d.Type.Elem)
	}
	lit, err := ir.LiteralFromBytes(t, b)
	if err != nil {
		return nil, c.errorf("value: %v", err)
	}
	return c.emit(ir.OpConstant, nil, ir.ConstantAttr{Value: lit})
}

func importIota(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("iota_dimension"); err != nil {
		return nil, err
	}
	if err := c.wantResults(1); err != nil {
		return nil, err
	}
	d, err := c.intAttr("iota_dimension", true)
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpIota, nil, ir.IotaAttr{Type: c.types[0], Dim: d})
}

func importCompare(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("comparison_direction", "compare_type"); err != nil {
		return nil, err
	}
	dir, err := c.enum("comparison_direction", "comparison_direction", true)
	if err != nil {
		return nil, err
	}
	var a ir.CompareAttr
	i := slices.Index(ir.ComparisonDirection(0).EnumNames(), dir)
	if i < 0 {
		return nil, c.errorf("unknown comparison_direction %s", dir)
	}
	a.Direction = ir.ComparisonDirection(i)
	typ, err := c.enum("compare_type", "comparison_type", false)
	if err != nil {
		return nil, err
	}
	args := c.args
	if typ != "" {
		i := slices.Index(ir.ComparisonType(0).EnumNames(), typ)
		if i < 0 {
			return nil, c.errorf("unknown compare_type %s", typ)
		}
		a.Type = ir.ComparisonType(i)
		if len(args) == 2 {
			// StableHLO's integers are signless: an UNSIGNED comparison of
			// i32 compares the bits as ui32, which the IR spells with
			// bitcasts (and SIGNED of uiN alike).
			d := args[0].Type.DType
			if to, ok := flipSign[d]; ok && (typ == "UNSIGNED" && d.IsSigned() || typ == "SIGNED" && d.IsUnsigned()) {
				args = make([]*ir.Value, 2)
				for k, v := range c.args {
					var err error
					if args[k], err = c.emit1(ir.OpBitcastConvert, []*ir.Value{v}, ir.BitcastConvertAttr{To: to}); err != nil {
						return nil, err
					}
				}
			}
			// The default for the element type is what the lowering
			// writes for NOTYPE.
			if typ == defaultCompareType(args[0].Type.DType) {
				a.Type = ir.CmpNoType
			}
		}
	}
	return c.emit(ir.OpCompare, args, a)
}

// flipSign maps each integer type to the one of the other signedness.
var flipSign = map[ir.DType]ir.DType{
	ir.S8: ir.U8, ir.S16: ir.U16, ir.S32: ir.U32, ir.S64: ir.U64,
	ir.U8: ir.S8, ir.U16: ir.S16, ir.U32: ir.S32, ir.U64: ir.S64,
}

func importConvert(c *opCtx) ([]*ir.Value, error) {
	if err := c.only(); err != nil {
		return nil, err
	}
	if err := c.wantResults(1); err != nil {
		return nil, err
	}
	args := c.args
	if len(args) == 1 && args[0].Type.DType.IsComplex() && !c.types[0].DType.IsComplex() {
		// The spec's complex → real, integer or i1 takes the real part;
		// the IR's convert leaves that to an explicit real.
		re, err := c.emit(ir.OpReal, args, nil)
		if err != nil {
			return nil, err
		}
		if re[0].Type.Equal(c.types[0]) {
			return re, nil
		}
		args = re
	}
	return c.emit(ir.OpConvert, args, ir.ConvertAttr{To: c.types[0].DType})
}

func importBitcastConvert(c *opCtx) ([]*ir.Value, error) {
	if err := c.only(); err != nil {
		return nil, err
	}
	if err := c.wantResults(1); err != nil {
		return nil, err
	}
	return c.emit(ir.OpBitcastConvert, c.args, ir.BitcastConvertAttr{To: c.types[0].DType})
}

func importReducePrecision(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("exponent_bits", "mantissa_bits"); err != nil {
		return nil, err
	}
	e, err := c.intAttr("exponent_bits", true)
	if err != nil {
		return nil, err
	}
	m, err := c.intAttr("mantissa_bits", true)
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpReducePrecision, c.args, ir.ReducePrecisionAttr{ExponentBits: e, MantissaBits: m})
}

func importBroadcastInDim(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("broadcast_dimensions"); err != nil {
		return nil, err
	}
	if err := c.wantResults(1); err != nil {
		return nil, err
	}
	dims, err := c.ints("broadcast_dimensions", true)
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpBroadcastInDim, c.args, ir.BroadcastInDimAttr{Shape: c.types[0].Shape, Dims: dims})
}

// importBroadcast: broadcast prepends broadcast_sizes to the operand's
// shape, which is broadcast_in_dim onto the trailing dimensions.
func importBroadcast(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("broadcast_sizes"); err != nil {
		return nil, err
	}
	if err := c.wantResults(1); err != nil {
		return nil, err
	}
	sizes, err := c.ints("broadcast_sizes", true)
	if err != nil {
		return nil, err
	}
	if len(c.args) != 1 {
		return nil, c.errorf("has %d operands, want 1", len(c.args))
	}
	dims := make([]int, c.args[0].Type.Rank())
	for i := range dims {
		dims[i] = len(sizes) + i
	}
	return c.emit(ir.OpBroadcastInDim, c.args, ir.BroadcastInDimAttr{Shape: c.types[0].Shape, Dims: dims})
}

func importReshape(c *opCtx) ([]*ir.Value, error) {
	if err := c.only(); err != nil {
		return nil, err
	}
	if err := c.wantResults(1); err != nil {
		return nil, err
	}
	return c.emit(ir.OpReshape, c.args, ir.ReshapeAttr{Shape: c.types[0].Shape})
}

func importTranspose(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("permutation"); err != nil {
		return nil, err
	}
	perm, err := c.ints("permutation", true)
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpTranspose, c.args, ir.TransposeAttr{Perm: perm})
}

func importSlice(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("start_indices", "limit_indices", "strides"); err != nil {
		return nil, err
	}
	start, err := c.ints("start_indices", true)
	if err != nil {
		return nil, err
	}
	limit, err := c.ints("limit_indices", true)
	if err != nil {
		return nil, err
	}
	strides, err := c.ints("strides", false)
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpSlice, c.args, ir.SliceAttr{Start: start, Limit: limit, Stride: strides})
}

func importDynamicSlice(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("slice_sizes"); err != nil {
		return nil, err
	}
	sizes, err := c.ints("slice_sizes", true)
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpDynamicSlice, c.args, ir.DynamicSliceAttr{Sizes: sizes})
}

func importConcatenate(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("dimension"); err != nil {
		return nil, err
	}
	d, err := c.intAttr("dimension", true)
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpConcatenate, c.args, ir.ConcatenateAttr{Dim: d})
}

func importPad(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("edge_padding_low", "edge_padding_high", "interior_padding"); err != nil {
		return nil, err
	}
	var a ir.PadAttr
	var err error
	if a.Low, err = c.ints("edge_padding_low", true); err != nil {
		return nil, err
	}
	if a.High, err = c.ints("edge_padding_high", true); err != nil {
		return nil, err
	}
	if a.Interior, err = c.ints("interior_padding", true); err != nil {
		return nil, err
	}
	return c.emit(ir.OpPad, c.args, a)
}

func importReverse(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("dimensions"); err != nil {
		return nil, err
	}
	dims, err := c.ints("dimensions", true)
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpReverse, c.args, ir.ReverseAttr{Dims: dims})
}

func importDotGeneral(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("dot_dimension_numbers", "precision_config"); err != nil {
		return nil, err
	}
	dd, ok := c.attr("dot_dimension_numbers").(stablehlo.DotDims)
	if !ok {
		return nil, c.errorf("dot_dimension_numbers %v is not #stablehlo.dot<...>", c.attr("dot_dimension_numbers"))
	}
	a := ir.DotGeneralAttr{}
	var err error
	for _, f := range []struct {
		dst *[]int
		src []int64
	}{{&a.LhsBatch, dd.LhsBatchingDims}, {&a.RhsBatch, dd.RhsBatchingDims}, {&a.LhsContract, dd.LhsContractingDims}, {&a.RhsContract, dd.RhsContractingDims}} {
		if *f.dst, err = c.intList("dot_dimension_numbers", f.src); err != nil {
			return nil, err
		}
	}
	if a.Precision, err = c.precision(); err != nil {
		return nil, err
	}
	args, err := c.widenArgs()
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpDotGeneral, args, a)
}

// widenArgs converts the operands of a mixed-precision dot_general or
// convolution (i8 × i8 → i32, f32 × f32 → f64, real × complex) exactly to
// the result's element type, as the IR's ops take one element type.
func (c *opCtx) widenArgs() ([]*ir.Value, error) {
	if len(c.types) != 1 {
		return c.args, nil
	}
	to := c.types[0].DType
	args := slices.Clone(c.args)
	for i, x := range args {
		from := x.Type.DType
		if from == to {
			continue
		}
		if !widensTo(from, to) {
			return nil, c.errorf("operand #%d of element type %v does not widen exactly to the result's %v", i, from, to)
		}
		v, err := c.emit(ir.OpConvert, []*ir.Value{x}, ir.ConvertAttr{To: to})
		if err != nil {
			return nil, err
		}
		args[i] = v[0]
	}
	return args, nil
}

// widensTo reports whether every value of type from is exactly one of
// type to (as the code generator's widensTo).
func widensTo(from, to ir.DType) bool {
	switch {
	case from == to:
		return true
	case from.IsInteger() && to.IsInteger():
		if from.IsUnsigned() == to.IsUnsigned() {
			return to.Bits() >= from.Bits()
		}
		return from.IsUnsigned() && to.Bits() > from.Bits()
	case from.IsFloat() && to.IsFloat():
		return to.Bits() > from.Bits() || from.Bits() == 16 && to.Bits() >= 32
	case from.IsFloat() && to.IsComplex():
		return widensTo(from, to.ComplexPart())
	case from.IsComplex() && to.IsComplex():
		return to.Bits() >= from.Bits()
	}
	return false
}

// importDot: dot contracts the last dimension of lhs (rank 1 or 2) with
// the first of rhs (rank 1 or 2).
func importDot(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("precision_config"); err != nil {
		return nil, err
	}
	if len(c.args) != 2 {
		return nil, c.errorf("has %d operands, want 2", len(c.args))
	}
	lr, rr := c.args[0].Type.Rank(), c.args[1].Type.Rank()
	if lr < 1 || lr > 2 || rr < 1 || rr > 2 {
		return nil, c.errorf("operands of rank %d and %d: dot takes ranks 1 and 2", lr, rr)
	}
	p, err := c.precision()
	if err != nil {
		return nil, err
	}
	args, err := c.widenArgs()
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpDotGeneral, args, ir.DotGeneralAttr{LhsBatch: []int{}, RhsBatch: []int{},
		LhsContract: []int{lr - 1}, RhsContract: []int{0}, Precision: p})
}

// scalarRegion imports region i of the op, whose ir form is isolated: it
// may use constants and iotas from above (they are copied in), nothing
// else defined outside it.
func (c *opCtx) scalarRegion(i int, name string) (*ir.Func, error) {
	if i >= len(c.o.Regions) {
		return nil, c.errorf("has %d regions, want %d", len(c.o.Regions), i+1)
	}
	r := c.o.Regions[i]
	var clone []*stablehlo.Value
	for _, v := range captures(&stablehlo.Op{Regions: []*stablehlo.Region{r}}) {
		if d := v.Def; d != nil && (d.Name == "stablehlo.constant" || d.Name == "stablehlo.iota") && len(d.Operands) == 0 && len(d.Regions) == 0 {
			clone = append(clone, v)
			continue
		}
		what := "a block argument"
		if v.Def != nil {
			what = "the result of " + v.Def.Name
		}
		return nil, c.errorf("its %s region uses %s defined outside it, which the IR cannot express (only case and while regions may use values from above; constants are copied in)", name, what)
	}
	return c.s.regionFunc(c.o, name, r, nil, clone)
}

func (c *opCtx) wantRegions(n int) error {
	if len(c.o.Regions) != n {
		return c.errorf("has %d regions, want %d", len(c.o.Regions), n)
	}
	return nil
}

func importReduce(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("dimensions"); err != nil {
		return nil, err
	}
	if err := c.wantRegions(1); err != nil {
		return nil, err
	}
	dims, err := c.ints("dimensions", true)
	if err != nil {
		return nil, err
	}
	body, err := c.scalarRegion(0, "body")
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpReduce, c.args, ir.ReduceAttr{Dims: dims}, body)
}

func importReduceWindow(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("window_dimensions", "window_strides", "base_dilations", "window_dilations", "padding"); err != nil {
		return nil, err
	}
	if err := c.wantRegions(1); err != nil {
		return nil, err
	}
	var a ir.ReduceWindowAttr
	var err error
	if a.WindowDims, err = c.ints("window_dimensions", true); err != nil {
		return nil, err
	}
	if a.Strides, err = c.ints("window_strides", false); err != nil {
		return nil, err
	}
	if a.BaseDilations, err = c.ints("base_dilations", false); err != nil {
		return nil, err
	}
	if a.WindowDilations, err = c.ints("window_dilations", false); err != nil {
		return nil, err
	}
	if a.Padding, err = c.padding("padding"); err != nil {
		return nil, err
	}
	body, err := c.scalarRegion(0, "body")
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpReduceWindow, c.args, a, body)
}

func importConvolution(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("dimension_numbers", "window_strides", "padding", "lhs_dilation", "rhs_dilation", "window_reversal",
		"feature_group_count", "batch_group_count", "precision_config"); err != nil {
		return nil, err
	}
	dn, ok := c.attr("dimension_numbers").(stablehlo.ConvDims)
	if !ok {
		return nil, c.errorf("dimension_numbers %v is not #stablehlo.conv<...>", c.attr("dimension_numbers"))
	}
	var a ir.ConvolutionAttr
	var err error
	if a.WindowStrides, err = c.ints("window_strides", false); err != nil {
		return nil, err
	}
	if a.Padding, err = c.padding("padding"); err != nil {
		return nil, err
	}
	if a.LhsDilation, err = c.ints("lhs_dilation", false); err != nil {
		return nil, err
	}
	if a.RhsDilation, err = c.ints("rhs_dilation", false); err != nil {
		return nil, err
	}
	if a.WindowReversal, err = c.bools("window_reversal"); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		dst *int
		v   int64
	}{{&a.InputBatchDim, dn.InputBatchDim}, {&a.InputFeatureDim, dn.InputFeatureDim},
		{&a.KernelInputFeatureDim, dn.KernelInputFeatureDim}, {&a.KernelOutputFeatureDim, dn.KernelOutputFeatureDim},
		{&a.OutputBatchDim, dn.OutputBatchDim}, {&a.OutputFeatureDim, dn.OutputFeatureDim}} {
		if *f.dst, err = c.toInt("dimension_numbers", f.v); err != nil {
			return nil, err
		}
	}
	for _, f := range []struct {
		dst *[]int
		src []int64
	}{{&a.InputSpatialDims, dn.InputSpatialDims}, {&a.KernelSpatialDims, dn.KernelSpatialDims}, {&a.OutputSpatialDims, dn.OutputSpatialDims}} {
		if *f.dst, err = c.intList("dimension_numbers", f.src); err != nil {
			return nil, err
		}
	}
	// The group counts default to 1.
	a.FeatureGroupCount, a.BatchGroupCount = 1, 1
	if c.attr("feature_group_count") != nil {
		if a.FeatureGroupCount, err = c.intAttr("feature_group_count", true); err != nil {
			return nil, err
		}
	}
	if c.attr("batch_group_count") != nil {
		if a.BatchGroupCount, err = c.intAttr("batch_group_count", true); err != nil {
			return nil, err
		}
	}
	if a.Precision, err = c.precision(); err != nil {
		return nil, err
	}
	args, err := c.widenArgs()
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpConvolution, args, a)
}

func importGather(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("dimension_numbers", "slice_sizes", "indices_are_sorted"); err != nil {
		return nil, err
	}
	dn, ok := c.attr("dimension_numbers").(stablehlo.GatherDims)
	if !ok {
		return nil, c.errorf("dimension_numbers %v is not #stablehlo.gather<...>", c.attr("dimension_numbers"))
	}
	var a ir.GatherAttr
	var err error
	for _, f := range []struct {
		dst *[]int
		src []int64
	}{{&a.OffsetDims, dn.OffsetDims}, {&a.CollapsedSliceDims, dn.CollapsedSliceDims}, {&a.OperandBatchingDims, dn.OperandBatchingDims},
		{&a.StartIndicesBatchingDims, dn.StartIndicesBatchingDims}, {&a.StartIndexMap, dn.StartIndexMap}} {
		if *f.dst, err = c.intList("dimension_numbers", f.src); err != nil {
			return nil, err
		}
	}
	if a.IndexVectorDim, err = c.toInt("dimension_numbers", dn.IndexVectorDim); err != nil {
		return nil, err
	}
	if a.SliceSizes, err = c.ints("slice_sizes", true); err != nil {
		return nil, err
	}
	if a.IndicesAreSorted, err = c.flag("indices_are_sorted"); err != nil {
		return nil, err
	}
	return c.emit(ir.OpGather, c.args, a)
}

func importScatter(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("scatter_dimension_numbers", "indices_are_sorted", "unique_indices"); err != nil {
		return nil, err
	}
	if err := c.wantRegions(1); err != nil {
		return nil, err
	}
	dn, ok := c.attr("scatter_dimension_numbers").(stablehlo.ScatterDims)
	if !ok {
		return nil, c.errorf("scatter_dimension_numbers %v is not #stablehlo.scatter<...>", c.attr("scatter_dimension_numbers"))
	}
	var a ir.ScatterAttr
	var err error
	for _, f := range []struct {
		dst *[]int
		src []int64
	}{{&a.UpdateWindowDims, dn.UpdateWindowDims}, {&a.InsertedWindowDims, dn.InsertedWindowDims}, {&a.InputBatchingDims, dn.InputBatchingDims},
		{&a.ScatterIndicesBatchingDims, dn.ScatterIndicesBatchingDims}, {&a.ScatterDimsToOperandDims, dn.ScatterDimsToOperandDims}} {
		if *f.dst, err = c.intList("scatter_dimension_numbers", f.src); err != nil {
			return nil, err
		}
	}
	if a.IndexVectorDim, err = c.toInt("scatter_dimension_numbers", dn.IndexVectorDim); err != nil {
		return nil, err
	}
	if a.IndicesAreSorted, err = c.flag("indices_are_sorted"); err != nil {
		return nil, err
	}
	if a.UniqueIndices, err = c.flag("unique_indices"); err != nil {
		return nil, err
	}
	body, err := c.scalarRegion(0, "update")
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpScatter, c.args, a, body)
}

func importSort(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("dimension", "is_stable"); err != nil {
		return nil, err
	}
	if err := c.wantRegions(1); err != nil {
		return nil, err
	}
	if len(c.args) == 0 {
		return nil, c.errorf("has no operands")
	}
	// dimension defaults to -1 and counts from the end when negative.
	d := -1
	if c.attr("dimension") != nil {
		var err error
		if d, err = c.intAttr("dimension", true); err != nil {
			return nil, err
		}
	}
	if r := c.args[0].Type.Rank(); d < 0 && d >= -r {
		d += r
	}
	stable, err := c.flag("is_stable")
	if err != nil {
		return nil, err
	}
	cmp, err := c.scalarRegion(0, "comparator")
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpSort, c.args, ir.SortAttr{Dim: d, IsStable: stable}, cmp)
}

// importWhile: values the regions capture become extra loop state, which
// the body passes through unchanged.
func importWhile(c *opCtx) ([]*ir.Value, error) {
	if err := c.only(); err != nil {
		return nil, err
	}
	if err := c.wantRegions(2); err != nil {
		return nil, err
	}
	caps := captures(c.o)
	cond, err := c.s.regionFunc(c.o, "cond", c.o.Regions[0], caps, nil)
	if err != nil {
		return nil, err
	}
	body, err := c.s.regionFunc(c.o, "body", c.o.Regions[1], caps, nil)
	if err != nil {
		return nil, err
	}
	n := len(c.args)
	if len(body.Params) != n+len(caps) {
		return nil, c.errorf("body takes %d arguments, want %d", len(body.Params)-len(caps), n)
	}
	body.Return(append(body.Results, body.Params[n:]...)...)
	args := c.args
	for _, v := range caps {
		args = append(args, c.s.env[v])
	}
	outs, err := c.emit(ir.OpWhile, args, nil, cond, body)
	if err != nil {
		return nil, err
	}
	return outs[:min(n, len(outs))], nil
}

// importCase: the values the branches capture become operands of the ir
// case, passed to every branch.
func importCase(c *opCtx) ([]*ir.Value, error) {
	if err := c.only(); err != nil {
		return nil, err
	}
	if len(c.args) != 1 {
		return nil, c.errorf("has %d operands, want the index only", len(c.args))
	}
	names := make([]string, len(c.o.Regions))
	for i := range names {
		names[i] = fmt.Sprintf("branch%d", i)
	}
	return c.branches(c.args[0], names)
}

// branches emits an ir case on index with the op's regions as branches.
func (c *opCtx) branches(index *ir.Value, names []string) ([]*ir.Value, error) {
	if len(c.o.Regions) == 0 {
		return nil, c.errorf("has no branches")
	}
	caps := captures(c.o)
	var regions []*ir.Func
	for i, r := range c.o.Regions {
		if r != nil && len(r.Blocks) == 1 && len(r.Blocks[0].Args) > 0 {
			return nil, c.errorf("branch #%d takes arguments; branches take none", i)
		}
		f, err := c.s.regionFunc(c.o, names[i], r, caps, nil)
		if err != nil {
			return nil, err
		}
		regions = append(regions, f)
	}
	args := []*ir.Value{index}
	for _, v := range caps {
		args = append(args, c.s.env[v])
	}
	return c.emit(ir.OpCase, args, nil, regions...)
}

// importIf: if(pred) {then} {else} is case(int(!pred)) {then} {else}.
func importIf(c *opCtx) ([]*ir.Value, error) {
	if err := c.only(); err != nil {
		return nil, err
	}
	if err := c.wantRegions(2); err != nil {
		return nil, err
	}
	if len(c.args) != 1 {
		return nil, c.errorf("has %d operands, want the predicate only", len(c.args))
	}
	not, err := c.emit1(ir.OpNot, c.args, nil)
	if err != nil {
		return nil, err
	}
	index, err := c.emit1(ir.OpConvert, []*ir.Value{not}, ir.ConvertAttr{To: ir.S32})
	if err != nil {
		return nil, err
	}
	return c.branches(index, []string{"then", "else"})
}

func importCustomCall(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("call_target_name", "has_side_effect", "backend_config", "api_version", "called_computations",
		"operand_layouts", "result_layouts", "output_operand_aliases", "mhlo.sharding"); err != nil {
		return nil, err
	}
	target, ok := c.attr("call_target_name").(stablehlo.StringAttr)
	if !ok || target == "" {
		return nil, c.errorf("call_target_name %v is not a non-empty string", c.attr("call_target_name"))
	}
	a := ir.CustomCallAttr{Target: string(target), ResultTypes: c.types}
	var err error
	if a.HasSideEffect, err = c.flag("has_side_effect"); err != nil {
		return nil, err
	}
	switch v := c.attr("backend_config").(type) {
	case nil:
	case stablehlo.StringAttr:
		a.BackendConfig = string(v)
	case stablehlo.DictAttr:
		if len(v) > 0 {
			return nil, c.errorf("backend_config %v: a dictionary (typed FFI) backend config is not supported", v)
		}
	default:
		return nil, c.errorf("backend_config %v is not a string", v)
	}
	if v := c.attr("api_version"); v != nil {
		if n, ok := v.(stablehlo.IntAttr); !ok || n.Value != 1 {
			return nil, c.errorf("api_version %v is not supported (the IR's custom_call is API_VERSION_ORIGINAL, 1)", v)
		}
	}
	for _, name := range []string{"called_computations", "output_operand_aliases"} {
		if v := c.attr(name); v != nil {
			if arr, ok := v.(stablehlo.ArrayAttr); !ok || len(arr) > 0 {
				return nil, c.errorf("%s = %v is not supported", name, v)
			}
		}
	}
	if err := c.defaultLayouts("operand_layouts", c.args); err != nil {
		return nil, err
	}
	if err := c.defaultLayoutsOfTypes("result_layouts", c.types); err != nil {
		return nil, err
	}
	sharding, hasSharding := c.attr("mhlo.sharding").(stablehlo.StringAttr)
	if c.attr("mhlo.sharding") != nil && !hasSharding {
		return nil, c.errorf("mhlo.sharding = %v is not a string", c.attr("mhlo.sharding"))
	}
	call := ShardingCall{Target: a.Target, Sharding: string(sharding), Func: c.s.f, Loc: c.loc}
	if len(c.args) > 0 {
		call.Operand = c.args[0]
	}
	if a.Target == "Sharding" {
		if len(c.args) != 1 || len(c.types) != 1 || !c.args[0].Type.Equal(c.types[0]) {
			return nil, c.errorf("custom_call @Sharding takes one operand and returns it: want one operand and one result of its type")
		}
		if !hasSharding {
			return nil, c.errorf("custom_call @Sharding has no mhlo.sharding")
		}
		if !c.s.im.opts.KeepShardingCalls && !c.s.im.opts.ManualComputations {
			c.s.im.out.ShardingCalls = append(c.s.im.out.ShardingCalls, call)
			return c.args, nil
		}
	}
	outs, err := c.emit(ir.OpCustomCall, c.args, a)
	if err != nil {
		return nil, err
	}
	if hasSharding {
		call.Instr = c.s.f.Body[len(c.s.f.Body)-1]
		c.s.im.out.ShardingCalls = append(c.s.im.out.ShardingCalls, call)
	}
	return outs, nil
}

// defaultLayouts checks that a layout attribute, if present, asks for the
// default (major-to-minor) layout of every value.
func (c *opCtx) defaultLayouts(name string, vals []*ir.Value) error {
	ts := make([]ir.Type, len(vals))
	for i, v := range vals {
		ts[i] = v.Type
	}
	return c.defaultLayoutsOfTypes(name, ts)
}

func (c *opCtx) defaultLayoutsOfTypes(name string, ts []ir.Type) error {
	v := c.attr(name)
	if v == nil {
		return nil
	}
	arr, ok := v.(stablehlo.ArrayAttr)
	if !ok || len(arr) != len(ts) {
		return c.errorf("%s = %v: want one layout per value", name, v)
	}
	for i, l := range arr {
		got, err := intsOf(l)
		r := ts[i].Rank()
		ok := err == nil && len(got) == r
		for j := 0; ok && j < r; j++ {
			ok = got[j] == int64(r-1-j)
		}
		if !ok {
			return c.errorf("%s = %v: only the default major-to-minor layout is supported", name, v)
		}
	}
	return nil
}

func importComposite(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("name", "composite_attributes", "decomposition", "version"); err != nil {
		return nil, err
	}
	name, ok := c.attr("name").(stablehlo.StringAttr)
	if !ok || name == "" {
		return nil, c.errorf("name %v is not a non-empty string", c.attr("name"))
	}
	a := ir.CompositeAttr{Name: string(name)}
	if v := c.attr("composite_attributes"); v != nil {
		d, ok := v.(stablehlo.DictAttr)
		if !ok {
			return nil, c.errorf("composite_attributes %v is not a dictionary", v)
		}
		for _, na := range d {
			x, err := compositeValue(na.Value)
			if err != nil {
				return nil, c.errorf("composite attribute %s: %v", na.Name, err)
			}
			a.Attrs = append(a.Attrs, ir.NamedAttr{Name: na.Name, Value: x})
		}
	}
	if c.attr("version") != nil {
		var err error
		if a.Version, err = c.intAttr("version", true); err != nil {
			return nil, err
		}
	}
	sym, ok := c.attr("decomposition").(stablehlo.SymbolRefAttr)
	if !ok || len(sym.Nested) > 0 {
		return nil, c.errorf("decomposition %v is not a function symbol", c.attr("decomposition"))
	}
	callee, err := c.callee(sym.Name)
	if err != nil {
		return nil, err
	}
	f := ir.NewFunc(sym.Name)
	for i, v := range c.args {
		loc := ir.UnknownLoc
		if blk := callee.Entry(); i < len(blk.Args) {
			loc = importLoc(blk.Args[i].Loc)
		}
		f.AddParam(v.Type, loc)
	}
	if err := c.inline(callee, f, f.Params); err != nil {
		return nil, err
	}
	return c.emit(ir.OpComposite, c.args, a, f)
}

// compositeValue converts a composite attribute to the values
// ir.NamedAttr holds: int64, float64 (float32 for f32, which the lowering
// writes back as f32), bool, string, []int64.
func compositeValue(v stablehlo.Attr) (any, error) {
	switch x := v.(type) {
	case stablehlo.IntAttr:
		if x.Type != nil && !stablehlo.TypesEqual(x.Type, stablehlo.I64) {
			return nil, fmt.Errorf("%v: only i64 integers are supported", x)
		}
		return x.Value, nil
	case stablehlo.FloatAttr:
		switch {
		case x.Type == nil || stablehlo.TypesEqual(x.Type, stablehlo.F64):
			return x.Value, nil
		case stablehlo.TypesEqual(x.Type, stablehlo.F32):
			return float32(x.Value), nil
		}
		return nil, fmt.Errorf("%v: only f32 and f64 floats are supported", x)
	case stablehlo.BoolAttr:
		return bool(x), nil
	case stablehlo.StringAttr:
		return string(x), nil
	case stablehlo.DenseArray:
		if x.Elem != stablehlo.I64 {
			return nil, fmt.Errorf("%v: only i64 arrays are supported", x)
		}
		return append([]int64{}, x.Ints...), nil
	}
	return nil, fmt.Errorf("%v: the IR's composite attributes are integers, floats, booleans, strings and i64 arrays", v)
}

// importOptimizationBarrier: the barrier only orders computations for the
// compiler; its results are its operands.
func importOptimizationBarrier(c *opCtx) ([]*ir.Value, error) {
	if err := c.only(); err != nil {
		return nil, err
	}
	return c.args, nil
}

// importTuple records the elements; get_tuple_element takes them back.
func importTuple(c *opCtx) ([]*ir.Value, error) {
	if err := c.only(); err != nil {
		return nil, err
	}
	if len(c.o.Results) != 1 {
		return nil, c.errorf("has %d results, want 1", len(c.o.Results))
	}
	if c.s.tuples == nil {
		c.s.tuples = map[*stablehlo.Value][]*ir.Value{}
	}
	c.s.tuples[c.o.Results[0]] = c.args
	return nil, nil
}

func importGetTupleElement(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("index"); err != nil {
		return nil, err
	}
	if len(c.o.Operands) != 1 {
		return nil, c.errorf("has %d operands, want 1", len(c.o.Operands))
	}
	elems, ok := c.s.tuples[c.o.Operands[0]]
	if !ok {
		return nil, c.errorf("operand is not a tuple made by stablehlo.tuple in this function (the IR has no tuples)")
	}
	i, err := c.intAttr("index", true)
	if err != nil {
		return nil, err
	}
	if i < 0 || i >= len(elems) {
		return nil, c.errorf("index %d is out of range for a tuple of %d", i, len(elems))
	}
	return elems[i : i+1], nil
}

// importCall inlines the callee.
func importCall(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("callee"); err != nil {
		return nil, err
	}
	sym, ok := c.attr("callee").(stablehlo.SymbolRefAttr)
	if !ok || len(sym.Nested) > 0 {
		return nil, c.errorf("callee %v is not a function symbol", c.attr("callee"))
	}
	callee, err := c.callee(sym.Name)
	if err != nil {
		return nil, err
	}
	return c.inlineInto(&scope{im: c.s.im, f: c.s.f}, callee, c.args)
}

// callee finds a function with a body.
func (c *opCtx) callee(name string) (*stablehlo.Func, error) {
	f := c.s.im.funcs[name]
	switch {
	case f == nil:
		return nil, c.errorf("function @%s is not defined", name)
	case f.Entry() == nil:
		return nil, c.errorf("function @%s is a declaration without a body", name)
	case len(f.Body.Blocks) != 1:
		return nil, c.errorf("function @%s has %d blocks; only single-block functions are supported", name, len(f.Body.Blocks))
	case c.s.im.inlining[f]:
		return nil, c.errorf("function @%s calls itself (the IR has no calls, so callees are inlined)", name)
	}
	return f, nil
}

// inline imports callee's body into the region f, with args (f's
// parameters) for its arguments, and sets f's results.
func (c *opCtx) inline(callee *stablehlo.Func, f *ir.Func, args []*ir.Value) error {
	outs, err := c.inlineInto(&scope{im: c.s.im, f: f}, callee, args)
	if err != nil {
		return err
	}
	f.Return(outs...)
	return nil
}

// inlineInto imports callee's body into the scope's function with args
// for its arguments, and returns what it returns.
func (c *opCtx) inlineInto(cs *scope, callee *stablehlo.Func, args []*ir.Value) ([]*ir.Value, error) {
	blk := callee.Entry()
	if len(args) != len(blk.Args) {
		return nil, c.errorf("@%s takes %d arguments, given %d", callee.Name, len(blk.Args), len(args))
	}
	cs.where = "@" + callee.Name + " (inlined into " + c.s.where + ")"
	cs.env = map[*stablehlo.Value]*ir.Value{}
	for i, a := range blk.Args {
		if err := checkType(a.Type, args[i].Type); err != nil {
			return nil, c.errorf("argument #%d of @%s: %v", i, callee.Name, err)
		}
		cs.env[a] = args[i]
	}
	c.s.im.inlining[callee] = true
	defer delete(c.s.im.inlining, callee)
	outs, err := cs.block(blk, "func.return")
	if err != nil {
		return nil, err
	}
	if len(outs) != len(callee.ResultTypes) {
		return nil, c.errorf("@%s returns %d values, but its type has %d results", callee.Name, len(outs), len(callee.ResultTypes))
	}
	for i, r := range outs {
		if err := checkType(callee.ResultTypes[i], r.Type); err != nil {
			return nil, c.errorf("result #%d of @%s: %v", i, callee.Name, err)
		}
	}
	return outs, nil
}

// Collectives.

func importAllReduce(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("replica_groups", "channel_handle", "use_global_device_ids"); err != nil {
		return nil, err
	}
	if err := c.wantRegions(1); err != nil {
		return nil, err
	}
	var a ir.AllReduceAttr
	var err error
	if a.ReplicaGroups, a.ChannelID, a.UseGlobalDeviceIDs, err = c.groups(); err != nil {
		return nil, err
	}
	body, err := c.scalarRegion(0, "body")
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpAllReduce, c.args, a, body)
}

func importAllGather(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("all_gather_dim", "replica_groups", "channel_handle", "use_global_device_ids"); err != nil {
		return nil, err
	}
	var a ir.AllGatherAttr
	var err error
	if a.AllGatherDim, err = c.intAttr("all_gather_dim", true); err != nil {
		return nil, err
	}
	if a.ReplicaGroups, a.ChannelID, a.UseGlobalDeviceIDs, err = c.groups(); err != nil {
		return nil, err
	}
	return c.emit(ir.OpAllGather, c.args, a)
}

func importReduceScatter(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("scatter_dimension", "replica_groups", "channel_handle", "use_global_device_ids"); err != nil {
		return nil, err
	}
	if err := c.wantRegions(1); err != nil {
		return nil, err
	}
	var a ir.ReduceScatterAttr
	var err error
	if a.ScatterDim, err = c.intAttr("scatter_dimension", true); err != nil {
		return nil, err
	}
	if a.ReplicaGroups, a.ChannelID, a.UseGlobalDeviceIDs, err = c.groups(); err != nil {
		return nil, err
	}
	body, err := c.scalarRegion(0, "body")
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpReduceScatter, c.args, a, body)
}

func importAllToAll(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("split_dimension", "concat_dimension", "split_count", "replica_groups", "channel_handle"); err != nil {
		return nil, err
	}
	var a ir.AllToAllAttr
	var err error
	if a.SplitDim, err = c.intAttr("split_dimension", true); err != nil {
		return nil, err
	}
	if a.ConcatDim, err = c.intAttr("concat_dimension", true); err != nil {
		return nil, err
	}
	if a.SplitCount, err = c.intAttr("split_count", true); err != nil {
		return nil, err
	}
	if a.ReplicaGroups, a.ChannelID, _, err = c.groups(); err != nil {
		return nil, err
	}
	return c.emit(ir.OpAllToAll, c.args, a)
}

func importCollectivePermute(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("source_target_pairs", "channel_handle"); err != nil {
		return nil, err
	}
	var a ir.CollectivePermuteAttr
	var err error
	if a.SourceTargetPairs, err = c.pairs(); err != nil {
		return nil, err
	}
	if a.ChannelID, err = c.channel(); err != nil {
		return nil, err
	}
	return c.emit(ir.OpCollectivePermute, c.args, a)
}
