package ir

import (
	"fmt"
	"reflect"
)

// Op names an operation kind. Every fact about an op lives in its OpInfo
// entry in the table below: the one place that the verifier, the text form,
// the evaluator, the docs and (by the same Op key) the lowering consult.
type Op uint16

// Trait is a property of an op that passes may rely on.
type Trait uint16

// Traits.
const (
	Pure              Trait = 1 << iota // no side effects: CSE and DCE may merge or drop it
	Elementwise                         // result[i] depends only on operands[i]
	Commutative                         // binary and operand order does not matter
	SideEffect                          // must be kept and not reordered (custom_call with side effects)
	FloatOnly                           // elementwise on float (and complex where StableHLO allows it)
	IntOnly                             // elementwise on integers (and i1 for the bitwise ops)
	ComplexOK                           // accepts complex element types
	BoolOK                              // accepts i1
	HasComparator                       // regions are reductions/comparators over scalars
	NoUnsigned                          // with IntOnly: signed integers only (abs, sign)
	NotDifferentiable                   // no derivative: asking for one through it is an error (autodiff.go)
	// Collective: the result depends on which device runs the op or on
	// the values of other devices (collective.go). Every device of an SPMD
	// program runs the same collectives in the same order, so CSE and DCE
	// may merge or drop one (each device does the same), but no pass may
	// fold one, or move one (or an op whose regions hold one) into or out
	// of control flow, which devices could take differently.
	Collective
)

// EvalFunc evaluates one instruction on concrete operands.
type EvalFunc func(in *Instr, args []*Literal) ([]*Literal, error)

// InferFunc is a type rule: from operand types, the attribute and the
// regions it returns result types, or an error saying what is wrong (the
// caller adds the location and op name).
type InferFunc func(args []Type, attr any, regions []*Func) ([]Type, error)

// OpInfo is one row of the op table.
type OpInfo struct {
	Name string // text name: the StableHLO spelling without "stablehlo."
	Doc  string // one line for `stela ops` and docs/ops.md
	// NumArgs is the exact operand count, or -1 for variadic with at least
	// MinArgs operands.
	NumArgs, MinArgs int
	// NumRegions is the exact region count, or -1 for one or more.
	NumRegions int
	Attr       reflect.Type // the attribute struct type; nil for none
	Traits     Trait
	Infer      InferFunc
	Eval       EvalFunc
	// VJP and JVP are the reverse- and forward-mode autodiff rules
	// (autodiff.go); an op with neither is NotDifferentiable.
	VJP VJPFunc
	JVP JVPFunc
	// Sharding is the op's sharding rule (sharding_rules.go); nil: the
	// op is computed whole on sharded programs.
	Sharding ShardingRuleFunc
	// shardingKind names Sharding's kind (ShardingRuleKind).
	shardingKind string
	// evalDev, when set, evaluates the op on a device of an EvalSPMD run
	// (nil: Eval's single device) instead of Eval: the collectives, and
	// the ops whose regions may hold collectives (eval_spmd.go).
	evalDev devEvalFunc
}

// Has reports whether the op has all of the traits.
func (o *OpInfo) Has(t Trait) bool { return o.Traits&t == t }

func (o *OpInfo) checkForm(in *Instr) error {
	if o.NumArgs >= 0 && len(in.Args) != o.NumArgs {
		return fmt.Errorf("has %d operands, want %d", len(in.Args), o.NumArgs)
	}
	if o.NumArgs < 0 && len(in.Args) < o.MinArgs {
		return fmt.Errorf("has %d operands, want at least %d", len(in.Args), o.MinArgs)
	}
	if o.NumRegions >= 0 && len(in.Regions) != o.NumRegions {
		return fmt.Errorf("has %d regions, want %d", len(in.Regions), o.NumRegions)
	}
	if o.NumRegions < 0 && len(in.Regions) == 0 {
		return fmt.Errorf("has no regions, want at least one")
	}
	for i, r := range in.Regions {
		if r == nil {
			return fmt.Errorf("region #%d is nil", i)
		}
	}
	if o.Attr == nil {
		if in.Attr != nil {
			return fmt.Errorf("takes no attributes, got %T", in.Attr)
		}
		return nil
	}
	if in.Attr == nil || reflect.TypeOf(in.Attr) != o.Attr {
		return fmt.Errorf("attribute is %T, want %v", in.Attr, o.Attr)
	}
	return nil
}

// Info returns the op's table entry, or nil for an unknown op.
func (op Op) Info() *OpInfo {
	if int(op) < len(opTable) && opTable[op].Name != "" {
		return &opTable[op]
	}
	return nil
}

func (op Op) String() string {
	if i := op.Info(); i != nil {
		return i.Name
	}
	return fmt.Sprintf("op(%d)", uint16(op))
}

// OpByName finds an op by its text name.
func OpByName(name string) (Op, bool) {
	op, ok := opsByName[name]
	return op, ok
}

// AllOps lists every op in table order.
func AllOps() []Op {
	var ops []Op
	for i := range opTable {
		if opTable[i].Name != "" {
			ops = append(ops, Op(i))
		}
	}
	return ops
}

// The ops. Names follow StableHLO.
const (
	OpInvalid Op = iota
	OpConstant
	OpIota
	// Unary elementwise.
	OpAbs
	OpNegate
	OpSign
	OpExp
	OpExpm1
	OpLog
	OpLog1p
	OpLogistic
	OpSqrt
	OpRsqrt
	OpCbrt
	OpTanh
	OpSine
	OpCosine
	OpTan
	OpErf
	OpFloor
	OpCeil
	OpRoundNearestAfz
	OpRoundNearestEven
	OpNot
	OpPopcnt
	OpClz
	OpIsFinite
	OpReal
	OpImag
	OpReducePrecision
	// Binary elementwise.
	OpAdd
	OpSubtract
	OpMultiply
	OpDivide
	OpRemainder
	OpPower
	OpMaximum
	OpMinimum
	OpAtan2
	OpAnd
	OpOr
	OpXor
	OpShiftLeft
	OpShiftRightArithmetic
	OpShiftRightLogical
	OpComplex
	// Other elementwise.
	OpCompare
	OpSelect
	OpClamp
	OpConvert
	OpBitcastConvert
	// Data movement.
	OpBroadcastInDim
	OpReshape
	OpTranspose
	OpSlice
	OpDynamicSlice
	OpDynamicUpdateSlice
	OpConcatenate
	OpPad
	OpReverse
	// Compute.
	OpDotGeneral
	OpReduce
	OpReduceWindow
	OpConvolution
	OpGather
	OpScatter
	OpSort
	OpFFT
	// Control flow and extension.
	OpWhile
	OpCase
	OpCustomCall
	OpComposite
	// Sharding.
	OpShardingConstraint
	// Collectives (collective.go).
	OpAllReduce
	OpAllGather
	OpReduceScatter
	OpAllToAll
	OpCollectivePermute
	OpReplicaID
	OpPartitionID
	// Manual sharding (manual.go).
	OpManualComputation
	numOps
)

var opsByName = map[string]Op{}

func init() {
	for i := range opTable {
		if n := opTable[i].Name; n != "" {
			if _, dup := opsByName[n]; dup {
				panic("ir: duplicate op name " + n)
			}
			opsByName[n] = Op(i)
		}
	}
}

func attrType[T any]() reflect.Type { return reflect.TypeFor[T]() }

func unary(name, doc string, traits Trait) OpInfo {
	return OpInfo{Name: name, Doc: doc, NumArgs: 1, Traits: Pure | Elementwise | traits, Infer: inferUnary(traits), Eval: evalUnary}
}

func binary(name, doc string, traits Trait) OpInfo {
	return OpInfo{Name: name, Doc: doc, NumArgs: 2, Traits: Pure | Elementwise | traits, Infer: inferBinary(traits), Eval: evalBinary}
}

const (
	num     = IntOnly | FloatOnly | ComplexOK // any number type
	numBool = num | BoolOK
	flt     = FloatOnly | ComplexOK
	bits    = IntOnly | BoolOK
)

var opTable = [numOps]OpInfo{
	OpConstant: OpInfo{Name: "constant", Doc: "a literal tensor", NumArgs: 0, Attr: attrType[ConstantAttr](), Traits: Pure, Infer: inferConstant, Eval: evalConstant}.withGrad(vjpNone, jvpNone),
	OpIota:     OpInfo{Name: "iota", Doc: "values 0, 1, 2, ... along dim, broadcast along the others", NumArgs: 0, Attr: attrType[IotaAttr](), Traits: Pure, Infer: inferIota, Eval: evalIota}.noGrad(),

	OpAbs:              OpInfo{Name: "abs", Doc: "absolute value; complex → its modulus as a real type; signed integers, floats, complex", NumArgs: 1, Traits: Pure | Elementwise | IntOnly | NoUnsigned | FloatOnly | ComplexOK, Infer: inferAbs, Eval: evalUnary}.withGrad(vjpAbs, jvpAbs),
	OpNegate:           unary("negate", "-x", num).withGrad(vjpNegate, jvpNegate),
	OpSign:             unary("sign", "-1, 0 or 1 by sign (NaN for NaN; x/|x| for complex); signed integers, floats, complex", num|NoUnsigned).withGrad(vjpZero, jvpZero),
	OpExp:              unary("exponential", "e^x", flt).withGrad(vjpExp, jvpExp),
	OpExpm1:            unary("exponential_minus_one", "e^x - 1, accurate near 0", flt).withGrad(vjpExpm1, jvpExpm1),
	OpLog:              unary("log", "natural logarithm", flt).withGrad(vjpLog, jvpLog),
	OpLog1p:            unary("log_plus_one", "log(1 + x), accurate near 0", flt).withGrad(vjpLog1p, jvpLog1p),
	OpLogistic:         unary("logistic", "1 / (1 + e^-x)", flt).withGrad(vjpLogistic, jvpLogistic),
	OpSqrt:             unary("sqrt", "square root", flt).withGrad(vjpSqrt, jvpSqrt),
	OpRsqrt:            unary("rsqrt", "x^(-1/2) rounded once to nearest even (IEEE 754 rSqrt); complex: 1 / sqrt(z)", flt).withGrad(vjpRsqrt, jvpRsqrt),
	OpCbrt:             unary("cbrt", "cube root", flt).withGrad(vjpCbrt, jvpCbrt),
	OpTanh:             unary("tanh", "hyperbolic tangent", flt).withGrad(vjpTanh, jvpTanh),
	OpSine:             unary("sine", "sin(x)", flt).withGrad(vjpSine, jvpSine),
	OpCosine:           unary("cosine", "cos(x)", flt).withGrad(vjpCosine, jvpCosine),
	OpTan:              unary("tan", "tan(x)", flt).withGrad(vjpTan, jvpTan),
	OpErf:              unary("erf", "the error function 2/√π·∫₀ˣ e^(−t²) dt (chlo.erf)", FloatOnly).withGrad(vjpErf, jvpErf),
	OpFloor:            unary("floor", "round toward -inf", FloatOnly).withGrad(vjpZero, jvpZero),
	OpCeil:             unary("ceil", "round toward +inf", FloatOnly).withGrad(vjpZero, jvpZero),
	OpRoundNearestAfz:  unary("round_nearest_afz", "round to nearest, ties away from zero", FloatOnly).withGrad(vjpZero, jvpZero),
	OpRoundNearestEven: unary("round_nearest_even", "round to nearest, ties to even", FloatOnly).withGrad(vjpZero, jvpZero),
	OpNot:              unary("not", "logical not on i1, bitwise not on integers", bits).noGrad(),
	OpPopcnt:           unary("popcnt", "number of set bits", IntOnly).noGrad(),
	OpClz:              unary("count_leading_zeros", "number of leading zero bits", IntOnly).noGrad(),
	OpIsFinite:         OpInfo{Name: "is_finite", Doc: "true where x is neither infinite nor NaN (result i1)", NumArgs: 1, Traits: Pure | Elementwise | FloatOnly, Infer: inferIsFinite, Eval: evalUnary}.noGrad(),
	OpReal:             OpInfo{Name: "real", Doc: "real part (identity on real floats)", NumArgs: 1, Traits: Pure | Elementwise | flt, Infer: inferRealImag, Eval: evalUnary}.withGrad(vjpReal, jvpReal),
	OpImag:             OpInfo{Name: "imag", Doc: "imaginary part (zero on real floats)", NumArgs: 1, Traits: Pure | Elementwise | flt, Infer: inferRealImag, Eval: evalUnary}.withGrad(vjpImag, jvpImag),
	OpReducePrecision:  OpInfo{Name: "reduce_precision", Doc: "round to a float format with fewer exponent and mantissa bits", NumArgs: 1, Attr: attrType[ReducePrecisionAttr](), Traits: Pure | Elementwise | FloatOnly, Infer: inferReducePrecision, Eval: evalUnary}.withGrad(vjpReducePrecision, jvpReducePrecision),

	OpAdd:                  binary("add", "x + y (or on i1)", numBool|Commutative).withGrad(vjpAdd, jvpAdd),
	OpSubtract:             binary("subtract", "x - y", num).withGrad(vjpSubtract, jvpSubtract),
	OpMultiply:             binary("multiply", "x * y (and on i1)", numBool|Commutative).withGrad(vjpMultiply, jvpMultiply),
	OpDivide:               binary("divide", "x / y; integer division truncates, x/0 is -1 (all ones), INT_MIN/-1 is INT_MIN", num).withGrad(vjpDivide, jvpDivide),
	OpRemainder:            binary("remainder", "x - y*trunc(x/y), sign of x; x%0 is x", IntOnly|FloatOnly).withGrad(vjpRemainder, jvpRemainder),
	OpPower:                binary("power", "x^y", num).withGrad(vjpPower, jvpPower),
	OpMaximum:              binary("maximum", "max(x, y); NaN if either is NaN", numBool|Commutative).withGrad(vjpMaximum, jvpMaximum),
	OpMinimum:              binary("minimum", "min(x, y); NaN if either is NaN", numBool|Commutative).withGrad(vjpMinimum, jvpMinimum),
	OpAtan2:                binary("atan2", "atan(y/x) using signs for the quadrant", flt).withGrad(vjpAtan2, jvpAtan2),
	OpAnd:                  binary("and", "logical/bitwise and", bits|Commutative).noGrad(),
	OpOr:                   binary("or", "logical/bitwise or", bits|Commutative).noGrad(),
	OpXor:                  binary("xor", "logical/bitwise xor", bits|Commutative).noGrad(),
	OpShiftLeft:            binary("shift_left", "x << y; 0 when y >= bit width", IntOnly).noGrad(),
	OpShiftRightArithmetic: binary("shift_right_arithmetic", "x >> y filling with the sign bit", IntOnly).noGrad(),
	OpShiftRightLogical:    binary("shift_right_logical", "x >> y filling with zeros", IntOnly).noGrad(),
	OpComplex:              OpInfo{Name: "complex", Doc: "complex number from real and imaginary parts (f32 → c64, f64 → c128)", NumArgs: 2, Traits: Pure | Elementwise, Infer: inferComplex, Eval: evalBinary}.withGrad(vjpComplex, jvpComplex),

	OpCompare:        OpInfo{Name: "compare", Doc: "elementwise comparison → i1", NumArgs: 2, Attr: attrType[CompareAttr](), Traits: Pure | Elementwise, Infer: inferCompare, Eval: evalCompare}.noGrad(),
	OpSelect:         OpInfo{Name: "select", Doc: "pred ? on_true : on_false; pred is i1 scalar or of the same shape", NumArgs: 3, Traits: Pure | Elementwise, Infer: inferSelect, Eval: evalSelect}.withGrad(vjpSelect, jvpSelect),
	OpClamp:          OpInfo{Name: "clamp", Doc: "min(max(x, lo), hi); lo and hi scalars or of x's shape", NumArgs: 3, Traits: Pure | Elementwise, Infer: inferClamp, Eval: evalClamp}.withGrad(vjpClamp, jvpClamp),
	OpConvert:        OpInfo{Name: "convert", Doc: "convert element type (floats round to nearest even, float → int truncates and saturates)", NumArgs: 1, Attr: attrType[ConvertAttr](), Traits: Pure | Elementwise, Infer: inferConvert, Eval: evalConvert}.withGrad(vjpConvert, jvpConvert),
	OpBitcastConvert: OpInfo{Name: "bitcast_convert", Doc: "reinterpret the bits as another element type", NumArgs: 1, Attr: attrType[BitcastConvertAttr](), Traits: Pure, Infer: inferBitcastConvert, Eval: evalBitcastConvert}.noGrad(),

	OpBroadcastInDim:     OpInfo{Name: "broadcast_in_dim", Doc: "broadcast operand dims to result dims given by dims", NumArgs: 1, Attr: attrType[BroadcastInDimAttr](), Traits: Pure, Infer: inferBroadcastInDim, Eval: evalBroadcastInDim}.withGrad(vjpBroadcastInDim, linearJVP(0)),
	OpReshape:            OpInfo{Name: "reshape", Doc: "same elements in row-major order, new shape", NumArgs: 1, Attr: attrType[ReshapeAttr](), Traits: Pure, Infer: inferReshape, Eval: evalReshape}.withGrad(vjpReshape, linearJVP(0)),
	OpTranspose:          OpInfo{Name: "transpose", Doc: "permute dimensions: result dim i is operand dim perm[i]", NumArgs: 1, Attr: attrType[TransposeAttr](), Traits: Pure, Infer: inferTranspose, Eval: evalTranspose}.withGrad(vjpTranspose, linearJVP(0)),
	OpSlice:              OpInfo{Name: "slice", Doc: "static strided slice", NumArgs: 1, Attr: attrType[SliceAttr](), Traits: Pure, Infer: inferSlice, Eval: evalSlice}.withGrad(vjpSlice, linearJVP(0)),
	OpDynamicSlice:       OpInfo{Name: "dynamic_slice", Doc: "slice of static sizes at run-time start indices (one scalar operand per dim, clamped into range)", NumArgs: -1, MinArgs: 1, Attr: attrType[DynamicSliceAttr](), Traits: Pure, Infer: inferDynamicSlice, Eval: evalDynamicSlice}.withGrad(vjpDynamicSlice, linearJVP(0)),
	OpDynamicUpdateSlice: OpInfo{Name: "dynamic_update_slice", Doc: "operand with update written at run-time start indices (clamped into range)", NumArgs: -1, MinArgs: 2, Traits: Pure, Infer: inferDynamicUpdateSlice, Eval: evalDynamicUpdateSlice}.withGrad(vjpDynamicUpdateSlice, linearJVP(0, 1)),
	OpConcatenate:        OpInfo{Name: "concatenate", Doc: "join operands along dim", NumArgs: -1, MinArgs: 1, Attr: attrType[ConcatenateAttr](), Traits: Pure, Infer: inferConcatenate, Eval: evalConcatenate}.withGrad(vjpConcatenate, linearJVP()),
	OpPad:                OpInfo{Name: "pad", Doc: "pad with a scalar value: low/high edge padding (may be negative) and interior padding", NumArgs: 2, Attr: attrType[PadAttr](), Traits: Pure, Infer: inferPad, Eval: evalPad}.withGrad(vjpPad, jvpPad),
	OpReverse:            OpInfo{Name: "reverse", Doc: "reverse the order of elements along dims", NumArgs: 1, Attr: attrType[ReverseAttr](), Traits: Pure, Infer: inferReverse, Eval: evalReverse}.withGrad(vjpReverse, linearJVP(0)),

	OpDotGeneral:   OpInfo{Name: "dot_general", Doc: "generalized matrix product over batch and contracting dims", NumArgs: 2, Attr: attrType[DotGeneralAttr](), Traits: Pure, Infer: inferDotGeneral, Eval: evalDotGeneral}.withGrad(vjpDotGeneral, jvpBilinear),
	OpReduce:       OpInfo{Name: "reduce", Doc: "reduce N operands with N inits over dims with a body region", NumArgs: -1, MinArgs: 2, NumRegions: 1, Attr: attrType[ReduceAttr](), Traits: Pure | HasComparator, Infer: inferReduce, Eval: evalReduce}.withGrad(vjpReduce, jvpReduce),
	OpReduceWindow: OpInfo{Name: "reduce_window", Doc: "reduce over sliding windows with a body region", NumArgs: -1, MinArgs: 2, NumRegions: 1, Attr: attrType[ReduceWindowAttr](), Traits: Pure | HasComparator, Infer: inferReduceWindow, Eval: evalReduceWindow}.withGrad(vjpReduceWindow, jvpReduceWindow),
	OpConvolution:  OpInfo{Name: "convolution", Doc: "N-d convolution with strides, padding, dilations and groups", NumArgs: 2, Attr: attrType[ConvolutionAttr](), Traits: Pure, Infer: inferConvolution, Eval: evalConvolution}.withGrad(vjpConvolution, jvpBilinear),
	OpGather:       OpInfo{Name: "gather", Doc: "slices of operand at run-time indices", NumArgs: 2, Attr: attrType[GatherAttr](), Traits: Pure, Infer: inferGather, Eval: evalGather}.withGrad(vjpGather, linearJVP(0)),
	OpScatter:      OpInfo{Name: "scatter", Doc: "combine updates into inputs at run-time indices with an update region", NumArgs: -1, MinArgs: 3, NumRegions: 1, Attr: attrType[ScatterAttr](), Traits: Pure | HasComparator, Infer: inferScatter, Eval: evalScatter}.withGrad(vjpScatter, jvpScatter),
	OpSort:         OpInfo{Name: "sort", Doc: "sort operands of one shape together along dim; the comparator region (a0, b0, a1, b1, ...) → i1 is true when a goes before b", NumArgs: -1, MinArgs: 1, NumRegions: 1, Attr: attrType[SortAttr](), Traits: Pure | HasComparator, Infer: inferSort, Eval: evalSort}.withGrad(vjpSort, jvpSort),

	OpFFT: OpInfo{Name: "fft", Doc: "discrete Fourier transform over the last len(fft_length) dims: FFT, IFFT (÷ the lengths' product), RFFT (real → N/2+1 frequencies), IRFFT (its inverse)", NumArgs: 1, Attr: attrType[FFTAttr](), Traits: Pure, Infer: inferFFT, Eval: evalFFT}.withGrad(vjpFFT, linearJVP(0)),

	OpWhile:              OpInfo{Name: "while", Doc: "loop: regions cond(state) → i1 and body(state) → state", NumArgs: -1, MinArgs: 0, NumRegions: 2, Traits: Pure, Infer: inferWhile, Eval: evalWhile}.withGrad(vjpWhile, jvpWhile),
	OpCase:               OpInfo{Name: "case", Doc: "run branch[index] (out of range: the last) on the remaining operands", NumArgs: -1, MinArgs: 1, NumRegions: -1, Traits: Pure, Infer: inferCase, Eval: evalCase}.withGrad(vjpCase, jvpCase),
	OpCustomCall:         OpInfo{Name: "custom_call", Doc: "call a backend-defined target", NumArgs: -1, MinArgs: 0, Attr: attrType[CustomCallAttr](), Infer: inferCustomCall, Eval: evalCustomCall}.noGrad(),
	OpShardingConstraint: OpInfo{Name: "sharding_constraint", Doc: "identity that asks for its operand's sharding over the function's mesh (sharding.Constrain)", NumArgs: 1, Attr: attrType[ShardingConstraintAttr](), Traits: Pure, Infer: inferShardingConstraint, Eval: evalIdentity}.withGrad(vjpShardingConstraint, linearJVP(0)),
	OpComposite:          OpInfo{Name: "composite", Doc: "a named group of ops with its decomposition as region", NumArgs: -1, MinArgs: 0, NumRegions: 1, Attr: attrType[CompositeAttr](), Traits: Pure, Infer: inferComposite, Eval: evalComposite}.withGrad(vjpComposite, jvpComposite),

	OpAllReduce:         OpInfo{Name: "all_reduce", Doc: "reduce each operand elementwise over the devices of a process group with the scalar body region; every member gets the result", NumArgs: -1, MinArgs: 1, NumRegions: 1, Attr: attrType[AllReduceAttr](), Traits: Pure | HasComparator | Collective, Infer: inferAllReduce, Eval: evalCollectiveOne}.withGrad(vjpAllReduce, jvpAllReduce),
	OpAllGather:         OpInfo{Name: "all_gather", Doc: "concatenate each operand of the devices of a process group along all_gather_dim, in group order", NumArgs: -1, MinArgs: 1, Attr: attrType[AllGatherAttr](), Traits: Pure | Collective, Infer: inferAllGather, Eval: evalCollectiveOne}.withGrad(vjpAllGather, linearJVP()),
	OpReduceScatter:     OpInfo{Name: "reduce_scatter", Doc: "reduce over the devices of a process group with the body region, then give member i part i of the result split along scatter_dimension", NumArgs: 1, NumRegions: 1, Attr: attrType[ReduceScatterAttr](), Traits: Pure | HasComparator | Collective, Infer: inferReduceScatter, Eval: evalCollectiveOne}.withGrad(vjpReduceScatter, jvpReduceScatter),
	OpAllToAll:          OpInfo{Name: "all_to_all", Doc: "split each operand into split_count parts along split_dimension, send part i to member i of the process group, concatenate what arrives along concat_dimension", NumArgs: -1, MinArgs: 1, Attr: attrType[AllToAllAttr](), Traits: Pure | Collective, Infer: inferAllToAll, Eval: evalCollectiveOne}.withGrad(vjpAllToAll, linearJVP()),
	OpCollectivePermute: OpInfo{Name: "collective_permute", Doc: "send the operand from each source device to its target device; a device that is no target gets zeros", NumArgs: 1, Attr: attrType[CollectivePermuteAttr](), Traits: Pure | Collective, Infer: inferCollectivePermute, Eval: evalCollectiveOne}.withGrad(vjpCollectivePermute, linearJVP()),
	OpReplicaID:         OpInfo{Name: "replica_id", Doc: "the replica id of the device running the program (ui32 scalar)", NumArgs: 0, Traits: Pure | Collective, Infer: inferDeviceID, Eval: evalCollectiveOne}.noGrad(),
	OpPartitionID:       OpInfo{Name: "partition_id", Doc: "the partition id of the device running the program (ui32 scalar)", NumArgs: 0, Traits: Pure | Collective, Infer: inferDeviceID, Eval: evalCollectiveOne}.noGrad(),

	OpManualComputation: OpInfo{Name: "manual_computation", Doc: "run the body region on every device of the mesh, on the operands' pieces under in_shardings, with explicit collectives; the results are assembled from the pieces under out_shardings (sharding.Map)", NumArgs: -1, MinArgs: 0, NumRegions: 1, Attr: attrType[ManualComputationAttr](), Traits: Pure, Infer: inferManualComputation, Eval: evalManualComputation}.withGrad(vjpManualComputation, jvpManualComputation),
}

// IsPure reports whether an instruction may be merged or dropped: a pure op,
// or a custom_call without side effects.
func (in *Instr) IsPure() bool {
	info := in.Op.Info()
	if info == nil {
		return false
	}
	if in.Op == OpCustomCall {
		a, ok := in.Attr.(CustomCallAttr)
		return ok && !a.HasSideEffect
	}
	return info.Has(Pure)
}
