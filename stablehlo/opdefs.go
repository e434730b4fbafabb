package stablehlo

import (
	"slices"
	"strconv"
	"strings"
)

// The op table of the StableHLO side: one entry per op of the StableHLO
// specification (docs/spec.md of openxla/stablehlo, its "Ops" section and
// the ops it lists as not in HLO, dynamism and quantization), of chlo
// (stablehlo/dialect/ChloOps.td), of the check dialect and the func ops a
// program uses. It says what an op is (arity, regions, the element types
// its operands may have, traits) and who computes it: Evaluator (the
// lowering package imports it to Stela IR, whose reference evaluator runs
// it) and Kernel (how the CPU plugin's code generator compiles it, or
// Refused with the reason it does not).
//
// The parser (the pretty forms of the elementwise ops), the verifier
// (operand and region counts), the lowering package (its import rules and
// the IR → StableHLO rules of the elementwise ops) and the code generator
// (its unary, binary, expensive and known op sets) read this table; their
// tests fail when an op is in one place and not another, so adding an op
// is one entry here plus its kernel and tests.

// ElemClass is a set of element type classes, as the spec names them.
type ElemClass uint16

// Element type classes.
const (
	ClassBool    ElemClass = 1 << iota // i1
	ClassSInt                          // si2 ... si64 (the signless iN read as signed)
	ClassUInt                          // ui2 ... ui64
	ClassFloat                         // f4, f6, f8 family, bf16, f16, f32, f64
	ClassComplex                       // complex<f32>, complex<f64>
	ClassQuant                         // !quant.uniform
	ClassToken                         // !stablehlo.token

	ClassInt    = ClassSInt | ClassUInt
	ClassAny    = ClassBool | ClassInt | ClassFloat | ClassComplex | ClassQuant
	classFQ     = ClassFloat | ClassQuant
	classFCQ    = ClassFloat | ClassComplex | ClassQuant
	classNum    = ClassInt | ClassFloat | ClassComplex | ClassQuant
	classLogic  = ClassBool | ClassInt
	classSigned = ClassSInt | ClassFloat | ClassComplex | ClassQuant
)

// String names the classes: "bool/int/float".
func (c ElemClass) String() string {
	var parts []string
	for _, x := range []struct {
		c    ElemClass
		name string
	}{{ClassBool, "bool"}, {ClassSInt, "sint"}, {ClassUInt, "uint"}, {ClassFloat, "float"}, {ClassComplex, "complex"}, {ClassQuant, "quant"}, {ClassToken, "token"}} {
		if c&ClassInt == ClassInt && (x.c == ClassSInt || x.c == ClassUInt) {
			if x.c == ClassSInt {
				parts = append(parts, "int")
			}
			continue
		}
		if c&x.c != 0 {
			parts = append(parts, x.name)
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, "/")
}

// Has reports whether the class of e is in c (the signless iN count as
// signed, i1 as bool).
func (c ElemClass) Has(e ElementType) bool {
	switch {
	case e.IsBool():
		return c&ClassBool != 0
	case e.IsUnsigned():
		return c&ClassUInt != 0
	case e.IsInteger():
		return c&ClassSInt != 0
	case e.IsComplex():
		return c&ClassComplex != 0
	case e.IsFloat():
		return c&ClassFloat != 0
	case e.IsQuantized():
		return c&ClassQuant != 0
	}
	return false
}

// SpecElementTypes are the element types of the spec (and of the f8, f6
// and f4 types StableHLO has since), one quantized type standing for all,
// in the order `stela ops` lists them.
var SpecElementTypes = []ElementType{I1, I2, I4, I8, I16, I32, I64, UI2, UI4, UI8, UI16, UI32, UI64,
	"f4E2M1FN", "f6E2M3FN", "f6E3M2FN", "f8E3M4", "f8E4M3", "f8E4M3FN", "f8E4M3FNUZ", "f8E4M3B11FNUZ",
	"f8E5M2", "f8E5M2FNUZ", "f8E8M0FNU", BF16, F16, F32, F64, Complex64, Complex128, "!quant.uniform<i8:f32, 1.0>"}

// OpTrait is a set of op traits.
type OpTrait uint16

// Traits.
const (
	// Elementwise: the result's element i depends on the operands'
	// elements i only.
	Elementwise OpTrait = 1 << iota
	// Commutative: the two operands may be swapped.
	Commutative
	// Expensive: a transcendental function or a division, whose inline
	// code is 20 to 40 instructions (the code generator's fusion and
	// parallelization costs weigh it).
	Expensive
	// Broadcasting: a chlo broadcast_* op (numpy-style implicit
	// broadcasting of its operands).
	Broadcasting
)

// Kernel is how the CPU plugin's code generator computes an op.
type Kernel uint8

// Kernels.
const (
	NoKernel         Kernel = iota // refused (OpDef.Refused says why)
	KernelUnary                    // elementwise scalar code (scalar.go unary)
	KernelBinary                   // elementwise scalar code (scalar.go binary)
	KernelPlanner                  // a case of the planner's own op switch (plan.go)
	KernelExt                      // control flow, sort, gather/scatter and the rest (misc.go extOp)
	KernelWindow                   // convolution and the windowed ops (conv.go, window.go)
	KernelCollective               // collectives (collective.go)
	KernelChlo                     // chlo ops as scalar math (misc.go chlo)
	KernelCheck                    // an expectation of the check dialect
	KernelFunc                     // func.call, composite (inlined), the returns (end a body)
	KernelRefined                  // rewritten into other ops first (Module.RefineShapes, LowerQuant)
)

var kernelNames = [...]string{"-", "unary", "binary", "planner", "ext", "window", "collective", "chlo", "check", "func", "rewritten"}

func (k Kernel) String() string { return kernelNames[k] }

// Section is where an op is defined.
type Section uint8

// Sections.
const (
	SectionSpec     Section = iota + 1 // an op of the spec's "Ops" section
	SectionNotInHLO                    // listed by the spec as "not in HLO" (broadcast, dot, einsum, ...)
	SectionDynamism                    // listed by the spec as "dynamism" (not specced yet)
	SectionChlo                        // chlo (ChloOps.td)
	SectionCheck                       // the check dialect of StableHLO's interpreter tests
	SectionFunc                        // func.call, func.return
)

var sectionNames = [...]string{"", "spec", "not in HLO", "dynamism", "chlo", "check", "func"}

func (s Section) String() string { return sectionNames[s] }

// OpDef is one op of the table.
type OpDef struct {
	Name    string // full name: "stablehlo.add", "chlo.erf"
	Section Section
	// Operands is the number of operands; MinOperands the least number
	// when the op is variadic (Operands < 0).
	Operands, MinOperands int
	// Regions is the number of regions; -1 for one or more (case).
	Regions int
	// Elem is the element types the spec allows for the (first data)
	// operand, or for the result of an op without operands.
	Elem   ElemClass
	Traits OpTrait
	// Evaluator: the lowering package imports the op to Stela IR (whose
	// reference evaluator, ir.Eval, runs it).
	Evaluator bool
	// Kernel is how the CPU plugin compiles the op; Refused is why it
	// does not (when Kernel is NoKernel).
	Kernel  Kernel
	Refused string
}

// checkCounts returns what is wrong with an instance of the op that has
// these numbers of operands and regions, or "".
func (d *OpDef) checkCounts(operands, regions int) string {
	if d.Operands >= 0 && operands != d.Operands || d.Operands < 0 && operands < d.MinOperands {
		return "has " + strconv.Itoa(operands) + " operands, want " + d.Arity()
	}
	if d.Regions >= 0 && regions != d.Regions || d.Regions < 0 && regions < 1 {
		want := strconv.Itoa(d.Regions)
		if d.Regions < 0 {
			want = "1 or more"
		}
		return "has " + strconv.Itoa(regions) + " regions, want " + want
	}
	return ""
}

// Short is the name without the dialect: "add" for stablehlo.add.
func (d *OpDef) Short() string {
	_, s, _ := strings.Cut(d.Name, ".")
	return s
}

// Has reports whether the op has every trait of t.
func (d *OpDef) Has(t OpTrait) bool { return d.Traits&t == t }

// Arity is the operand count as text: "2", "1+".
func (d *OpDef) Arity() string {
	if d.Operands < 0 {
		return strconv.Itoa(d.MinOperands) + "+"
	}
	return strconv.Itoa(d.Operands)
}

// opDefs is filled before any init function runs (the parser's syntax
// table reads it).
var opDefs = defineOps()

// LookupOp returns the table's entry for the op of that full name.
func LookupOp(name string) (*OpDef, bool) {
	d, ok := opDefs[name]
	return d, ok
}

// OpDefs returns every entry of the table, sorted by name.
func OpDefs() []*OpDef {
	out := make([]*OpDef, 0, len(opDefs))
	for _, d := range opDefs {
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b *OpDef) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Reasons for ops the CPU plugin refuses.
const (
	refusedDynamic = "dynamic shapes: Stela compiles static shapes only"
	refusedToken   = "tokens and host transfers (infeed, outfeed, send, recv) have no device-side form on the CPU plugin"
	refusedChlo    = "not implemented in the code generator yet"
	refusedNotImpl = "not implemented in the code generator yet"
)

// def adds entries to m; ops lists short names sharing the rest.
func addOps(m map[string]*OpDef, dialect string, sec Section, ops string, operands, regions int, elem ElemClass, traits OpTrait, eval bool, k Kernel, refused string) {
	for _, n := range strings.Fields(ops) {
		d := &OpDef{Name: dialect + "." + n, Section: sec, Operands: operands, Regions: regions, Elem: elem,
			Traits: traits, Evaluator: eval, Kernel: k, Refused: refused}
		if operands < 0 {
			d.MinOperands = -operands - 1
			d.Operands = -1
		}
		if _, dup := m[d.Name]; dup {
			panic("stablehlo: op " + d.Name + " defined twice")
		}
		m[d.Name] = d
	}
}

// Variadic operand counts: vN means N or more.
const (
	v0 = -1
	v1 = -2
	v2 = -3
	v3 = -4
)

func defineOps() map[string]*OpDef {
	m := map[string]*OpDef{}
	def := func(dialect string, sec Section, ops string, operands, regions int, elem ElemClass, traits OpTrait, eval bool, k Kernel, refused string) {
		addOps(m, dialect, sec, ops, operands, regions, elem, traits, eval, k, refused)
	}
	const s, c = SectionSpec, Commutative
	const ew, exp = Elementwise, Elementwise | Expensive
	hlo := func(sec Section, ops string, operands, regions int, elem ElemClass, traits OpTrait, eval bool, k Kernel, refused string) {
		def("stablehlo", sec, ops, operands, regions, elem, traits, eval, k, refused)
	}

	// Elementwise unary.
	hlo(s, "abs sign", 1, 0, classSigned, ew, true, KernelUnary, "")
	hlo(s, "negate", 1, 0, classNum, ew, true, KernelUnary, "")
	hlo(s, "exponential exponential_minus_one log log_plus_one logistic tanh sine cosine tan sqrt rsqrt cbrt", 1, 0, classFCQ, exp, true, KernelUnary, "")
	hlo(s, "floor ceil round_nearest_afz round_nearest_even", 1, 0, classFQ, ew, true, KernelUnary, "")
	hlo(s, "not", 1, 0, classLogic, ew, true, KernelUnary, "")
	hlo(s, "popcnt count_leading_zeros", 1, 0, ClassInt, ew, true, KernelUnary, "")
	hlo(s, "is_finite", 1, 0, classFQ, ew, true, KernelUnary, "")
	hlo(s, "real imag", 1, 0, ClassFloat|ClassComplex, ew, true, KernelUnary, "")
	// Elementwise binary.
	hlo(s, "add maximum minimum", 2, 0, ClassAny, ew|c, true, KernelBinary, "")
	hlo(s, "multiply", 2, 0, ClassAny, ew|c, true, KernelBinary, "")
	hlo(s, "subtract", 2, 0, classNum, ew, true, KernelBinary, "")
	hlo(s, "divide remainder", 2, 0, classNum, exp, true, KernelBinary, "")
	hlo(s, "power", 2, 0, classNum, exp, true, KernelBinary, "")
	hlo(s, "atan2", 2, 0, classFCQ, exp, true, KernelBinary, "")
	hlo(s, "and or xor", 2, 0, classLogic, ew|c, true, KernelBinary, "")
	hlo(s, "shift_left shift_right_arithmetic shift_right_logical", 2, 0, ClassInt, ew, true, KernelBinary, "")
	hlo(s, "complex", 2, 0, ClassFloat, ew, true, KernelBinary, "")
	// Other elementwise.
	hlo(s, "compare", 2, 0, ClassAny, ew, true, KernelPlanner, "")
	hlo(s, "select", 3, 0, ClassAny, ew, true, KernelPlanner, "")
	hlo(s, "clamp", 3, 0, ClassAny, ew, true, KernelPlanner, "")
	hlo(s, "convert", 1, 0, ClassAny, ew, true, KernelPlanner, "")
	hlo(s, "bitcast_convert", 1, 0, ClassAny, 0, true, KernelExt, "")
	hlo(s, "reduce_precision", 1, 0, classFQ, ew, true, KernelExt, "")
	// Data movement and compute.
	hlo(s, "constant", 0, 0, ClassAny, 0, true, KernelPlanner, "")
	hlo(s, "iota", 0, 0, classNum, 0, true, KernelPlanner, "")
	hlo(s, "broadcast_in_dim reshape transpose slice reverse", 1, 0, ClassAny, 0, true, KernelPlanner, "")
	hlo(s, "concatenate", v1, 0, ClassAny, 0, true, KernelPlanner, "")
	hlo(s, "pad", 2, 0, ClassAny, 0, true, KernelPlanner, "")
	hlo(s, "dot_general", 2, 0, classNum|ClassBool, 0, true, KernelPlanner, "")
	hlo(s, "reduce", v2, 1, ClassAny, 0, true, KernelPlanner, "")
	hlo(s, "optimization_barrier", v0, 0, ClassAny|ClassToken, 0, true, KernelPlanner, "")
	hlo(s, "custom_call", v0, 0, ClassAny|ClassToken, 0, true, KernelPlanner, "")
	hlo(s, "composite", v0, 0, ClassAny|ClassToken, 0, true, KernelFunc, "")
	hlo(s, "dynamic_slice", v1, 0, ClassAny, 0, true, KernelExt, "")
	hlo(s, "dynamic_update_slice", v2, 0, ClassAny, 0, true, KernelExt, "")
	hlo(s, "gather", 2, 0, ClassAny, 0, true, KernelExt, "")
	hlo(s, "scatter", v3, 1, ClassAny, 0, true, KernelExt, "")
	hlo(s, "sort", v1, 1, ClassAny, 0, true, KernelExt, "")
	hlo(s, "while", v0, 2, ClassAny|ClassToken, 0, true, KernelExt, "")
	hlo(s, "case", 1, -1, ClassSInt, 0, true, KernelExt, "")
	hlo(s, "if", 1, 2, ClassBool, 0, true, KernelExt, "")
	hlo(s, "rng_bit_generator", 1, 0, ClassInt, 0, false, KernelExt, "")
	hlo(s, "get_dimension_size", 1, 0, ClassAny, 0, true, KernelExt, "")
	hlo(s, "tuple", v0, 0, ClassAny|ClassToken, 0, true, KernelExt, "")
	hlo(s, "get_tuple_element", 1, 0, ClassAny|ClassToken, 0, true, KernelExt, "")
	hlo(s, "convolution", 2, 0, classNum|ClassBool, 0, true, KernelWindow, "")
	hlo(s, "reduce_window", v2, 1, ClassAny, 0, true, KernelWindow, "")
	hlo(s, "select_and_scatter", 3, 2, ClassAny, 0, false, KernelWindow, "")
	// Rewritten by LowerChlo (batchnorm.go).
	hlo(s, "batch_norm_inference batch_norm_grad", 5, 0, classFQ, 0, true, KernelRefined, "")
	hlo(s, "batch_norm_training", 3, 0, classFQ, 0, true, KernelRefined, "")
	// Collectives.
	hlo(s, "all_reduce", v1, 1, ClassAny, 0, true, KernelCollective, "")
	hlo(s, "all_gather all_to_all", v1, 0, ClassAny, 0, true, KernelCollective, "")
	hlo(s, "reduce_scatter", 1, 1, ClassAny, 0, true, KernelCollective, "")
	hlo(s, "collective_permute", 1, 0, ClassAny, 0, true, KernelCollective, "")
	hlo(s, "collective_broadcast", 1, 0, ClassAny, 0, false, KernelCollective, "")
	hlo(s, "replica_id partition_id", 0, 0, ClassUInt, 0, true, KernelCollective, "")
	// Refused.
	hlo(s, "map", v1, 1, ClassAny, 0, true, KernelExt, "")
	hlo(s, "fft", 1, 0, ClassFloat|ClassComplex, 0, true, KernelExt, "")
	hlo(s, "cholesky", 1, 0, ClassFloat|ClassComplex, 0, true, KernelExt, "")
	hlo(s, "triangular_solve", 2, 0, ClassFloat|ClassComplex, 0, true, KernelExt, "")
	hlo(s, "rng", 3, 0, ClassBool|ClassInt|ClassFloat, 0, false, NoKernel, "stablehlo.rng's results are implementation-defined; use rng_bit_generator")
	hlo(s, "uniform_quantize uniform_dequantize", 1, 0, ClassFloat|ClassQuant, 0, true, KernelRefined, "")
	hlo(s, "after_all", v0, 0, ClassToken, 0, false, NoKernel, refusedToken)
	hlo(s, "infeed", 1, 0, ClassToken, 0, false, NoKernel, refusedToken)
	hlo(s, "outfeed", v1, 0, ClassAny|ClassToken, 0, false, NoKernel, refusedToken)
	hlo(s, "send", v1, 0, ClassAny|ClassToken, 0, false, NoKernel, refusedToken)
	hlo(s, "recv", 1, 0, ClassToken, 0, false, NoKernel, refusedToken)
	// Not in HLO.
	const nih = SectionNotInHLO
	hlo(nih, "broadcast", 1, 0, ClassAny, 0, true, KernelPlanner, "")
	hlo(nih, "dot", 2, 0, classNum|ClassBool, 0, true, KernelPlanner, "")
	hlo(nih, "create_token", 0, 0, ClassToken, 0, false, NoKernel, refusedToken)
	hlo(nih, "einsum torch_index_select", 2, 0, ClassAny, 0, false, NoKernel, "deprecated (not in HLO): legalize it to StableHLO first")
	hlo(nih, "unary_einsum", 1, 0, ClassAny, 0, false, NoKernel, "deprecated (not in HLO): legalize it to StableHLO first")
	hlo(nih, "cross-replica-sum", 1, 0, ClassAny, 0, false, NoKernel, "deprecated (not in HLO): use all_reduce")
	// Dynamism.
	const dyn = SectionDynamism
	// Refined to static ops when their shape operands fold (refine.go).
	hlo(dyn, "dynamic_iota", 1, 0, classNum, 0, true, KernelRefined, "")
	hlo(dyn, "dynamic_broadcast_in_dim dynamic_reshape", 2, 0, ClassAny, 0, true, KernelRefined, "")
	hlo(dyn, "dynamic_pad", 5, 0, ClassAny, 0, true, KernelRefined, "")
	hlo(dyn, "dynamic_gather", 3, 0, ClassAny, 0, true, KernelRefined, "")
	hlo(dyn, "dynamic_conv", 3, 0, classNum|ClassBool, 0, true, KernelRefined, "")
	hlo(dyn, "real_dynamic_slice", 4, 0, ClassAny, 0, true, KernelRefined, "")
	hlo(dyn, "set_dimension_size", 2, 0, ClassAny, 0, false, NoKernel, refusedDynamic)
	hlo(dyn, "compute_reshape_shape cstr_reshapable", 2, 0, ClassInt, 0, false, NoKernel, refusedDynamic)

	// chlo.
	chlo := func(ops string, operands int, elem ElemClass, traits OpTrait, k Kernel, refused string) {
		def("chlo", SectionChlo, ops, operands, 0, elem, traits, false, k, refused)
	}
	// chloIR: the chlo ops that import to Stela IR (lowering/import_chlo.go).
	chloIR := func(ops string, operands int, elem ElemClass, traits OpTrait, k Kernel, refused string) {
		def("chlo", SectionChlo, ops, operands, 0, elem, traits, true, k, refused)
	}
	chlo("acos acosh asin asinh atan atanh cosh sinh", 1, ClassFloat|ClassComplex, ew, KernelChlo, "")
	def("chlo", SectionChlo, "erf", 1, 0, ClassFloat, exp, true, KernelChlo, "") // the IR has erf
	chlo("erfc lgamma erf_inv digamma", 1, ClassFloat, ew, KernelChlo, "")
	chloIR("tan", 1, ClassFloat|ClassComplex, ew, KernelChlo, "")
	chloIR("is_inf is_pos_inf is_neg_inf", 1, ClassFloat, ew, KernelChlo, "")
	chloIR("conj", 1, ClassFloat|ClassComplex, ew, KernelChlo, "")
	chloIR("next_after", 2, ClassFloat, ew, KernelChlo, "")
	chlo("top_k", 1, ClassAny, 0, KernelChlo, "")
	chlo("bessel_i1e", 1, ClassFloat|ClassComplex, ew, KernelChlo, "")
	chloIR("square", 1, ClassFloat|ClassComplex, ew, KernelChlo, "")
	chlo("polygamma zeta", 2, ClassFloat, exp, KernelChlo, "")
	chlo("mulhi", 2, ClassInt, ew, KernelChlo, "")
	// Rewritten into StableHLO first (chlo.go, Module.LowerChlo).
	def("chlo", SectionChlo, "constant", 0, 0, ClassAny, 0, true, KernelRefined, "")
	def("chlo", SectionChlo, "constant_like", 1, 0, ClassAny, 0, true, KernelRefined, "")
	def("chlo", SectionChlo, "ragged_dot", 3, 0, classNum, 0, true, KernelRefined, "")
	def("chlo", SectionChlo, "scan", v0, 1, ClassAny, 0, true, KernelRefined, "")
	chlo("minimum_broadcast_shapes", v1, ClassInt, 0, NoKernel, refusedDynamic)
	chlo("asin_acos_kernel", 1, ClassFloat|ClassComplex, ew, NoKernel,
		"an intermediate of chlo's own asin/acos decompositions, which (its definition says) frameworks never emit and backends never see")
	const bc = ew | Broadcasting
	chloIR("broadcast_add broadcast_maximum broadcast_minimum broadcast_multiply", 2, ClassAny, bc|c, KernelChlo, "")
	chloIR("broadcast_subtract broadcast_divide broadcast_remainder broadcast_power", 2, classNum, bc, KernelChlo, "")
	chloIR("broadcast_atan2", 2, ClassFloat|ClassComplex, bc, KernelChlo, "")
	chloIR("broadcast_next_after", 2, ClassFloat, bc, KernelChlo, "")
	chloIR("broadcast_and broadcast_or broadcast_xor", 2, classLogic, bc|c, KernelChlo, "")
	chloIR("broadcast_shift_left broadcast_shift_right_arithmetic broadcast_shift_right_logical", 2, ClassInt, bc, KernelChlo, "")
	chloIR("broadcast_compare", 2, ClassAny, bc, KernelChlo, "")
	chloIR("broadcast_select", 3, ClassAny, bc, KernelChlo, "")
	chloIR("broadcast_complex", 2, ClassFloat, bc, KernelChlo, "")
	chlo("broadcast_polygamma broadcast_zeta", 2, ClassFloat, bc|Expensive, KernelChlo, "")

	// check and func.
	def("check", SectionCheck, "expect_eq expect_almost_eq expect_close", 2, 0, ClassAny, 0, false, KernelCheck, "")
	def("check", SectionCheck, "expect_eq_const expect_almost_eq_const", 1, 0, ClassAny, 0, false, KernelCheck, "")
	def("check", SectionCheck, "expect_serialized_eq", 1, 0, ClassAny, 0, false, NoKernel, "needs the interpreter's serialized probe files")
	def("func", SectionFunc, "call", v0, 0, ClassAny|ClassToken, 0, true, KernelFunc, "")
	def("func", SectionFunc, "return", v0, 0, ClassAny|ClassToken, 0, true, KernelFunc, "")
	def("stablehlo", SectionFunc, "return", v0, 0, ClassAny|ClassToken, 0, true, KernelFunc, "")
	return m
}
