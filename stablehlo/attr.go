package stablehlo

import (
	"sort"
	"strconv"
	"strings"
)

// Attr is an MLIR attribute. The concrete types are IntAttr, FloatAttr,
// BoolAttr, StringAttr, UnitAttr, TypeAttr, SymbolRefAttr, ArrayAttr,
// DictAttr, DenseArray, *DenseElements, EnumAttr, DotDims, GatherDims,
// ScatterDims, ConvDims, ChannelHandle and OpaqueAttr.
type Attr interface {
	// String returns the attribute's MLIR text.
	String() string
	isAttr()
}

// IntAttr is an integer attribute: `1 : i64`, `-3 : i32`,
// `18446744073709551615 : ui64`, or `5` (Type nil: printed without a
// type, which MLIR reads as i64). Value holds the bits: for unsigned
// types it is printed as uint64(Value) truncated to the width, for
// signless types sign-extended from the width.
type IntAttr struct {
	Value int64
	Type  Type
}

// I64Attr returns the attribute `v : i64`.
func I64Attr(v int64) IntAttr { return IntAttr{Value: v, Type: I64} }

// I32Attr returns the attribute `v : i32`.
func I32Attr(v int64) IntAttr { return IntAttr{Value: v, Type: I32} }

// FloatAttr is a floating-point attribute: `1.000000e-03 : f32`, or
// without type (Type nil, read by MLIR as f64). Value holds the number;
// for narrower types it must be representable in the type (NaN payloads
// are kept bit-exactly by the parser and printer).
type FloatAttr struct {
	Value float64
	Type  Type
}

// BoolAttr is `true` or `false`.
type BoolAttr bool

// StringAttr is a string attribute: `"text"`.
type StringAttr string

// UnitAttr is the unit attribute: `unit`, or a bare key in a dictionary
// (`{has_side_effect}`).
type UnitAttr struct{}

// TypeAttr is a type used as an attribute value.
type TypeAttr struct{ Type Type }

// SymbolRefAttr is a symbol reference: `@f`, `@a::@b`.
type SymbolRefAttr struct {
	Name   string
	Nested []string
}

// ArrayAttr is `[a, b, c]`.
type ArrayAttr []Attr

// DictAttr is `{a = 1 : i64, b}`; printed sorted by name.
type DictAttr []NamedAttr

// DenseArray is `array<i64: 1, 2>`, `array<i1: true, false>`,
// `array<f32: 1.000000e+00>`. Ints holds the values of integer (and i1:
// 0/1) arrays, Floats those of float arrays.
type DenseArray struct {
	Elem   ElementType
	Ints   []int64
	Floats []float64
}

// I64Array returns `array<i64: v...>`.
func I64Array(v ...int64) DenseArray {
	return DenseArray{Elem: I64, Ints: append([]int64{}, v...)}
}

// BoolArray returns `array<i1: v...>`.
func BoolArray(v ...bool) DenseArray {
	ints := make([]int64, len(v))
	for i, b := range v {
		if b {
			ints[i] = 1
		}
	}
	return DenseArray{Elem: I1, Ints: ints}
}

// Len returns the number of elements.
func (a DenseArray) Len() int {
	if a.Elem.IsFloat() {
		return len(a.Floats)
	}
	return len(a.Ints)
}

// EnumAttr is a dialect enum attribute: `#stablehlo<comparison_direction
// GT>` is EnumAttr{"stablehlo", "comparison_direction", "GT"}. Kinds used
// by StableHLO: comparison_direction, comparison_type, precision,
// transpose, rng_algorithm, rng_distribution, fft_type.
type EnumAttr struct {
	Dialect string
	Kind    string
	Value   string
}

// ComparisonDirection returns #stablehlo<comparison_direction v> (EQ, NE,
// GE, GT, LE, LT).
func ComparisonDirection(v string) EnumAttr { return EnumAttr{"stablehlo", "comparison_direction", v} }

// ComparisonType returns #stablehlo<comparison_type v> (NOTYPE, FLOAT,
// TOTALORDER, SIGNED, UNSIGNED).
func ComparisonType(v string) EnumAttr { return EnumAttr{"stablehlo", "comparison_type", v} }

// Precision returns #stablehlo<precision v> (DEFAULT, HIGH, HIGHEST).
func Precision(v string) EnumAttr { return EnumAttr{"stablehlo", "precision", v} }

// Transpose returns #stablehlo<transpose v> (NO_TRANSPOSE, TRANSPOSE,
// ADJOINT), for triangular_solve.
func Transpose(v string) EnumAttr { return EnumAttr{"stablehlo", "transpose", v} }

// RngAlgorithm returns #stablehlo<rng_algorithm v> (DEFAULT, THREE_FRY,
// PHILOX).
func RngAlgorithm(v string) EnumAttr { return EnumAttr{"stablehlo", "rng_algorithm", v} }

// RngDistribution returns #stablehlo<rng_distribution v> (UNIFORM,
// NORMAL).
func RngDistribution(v string) EnumAttr { return EnumAttr{"stablehlo", "rng_distribution", v} }

// FFTType returns #stablehlo<fft_type v> (FFT, IFFT, RFFT, IRFFT).
func FFTType(v string) EnumAttr { return EnumAttr{"stablehlo", "fft_type", v} }

// PrecisionConfig returns the array attribute `[#stablehlo<precision
// V>, ...]` used by dot_general, dot and convolution.
func PrecisionConfig(v ...string) ArrayAttr {
	a := make(ArrayAttr, len(v))
	for i, s := range v {
		a[i] = Precision(s)
	}
	return a
}

// DotDims is `#stablehlo.dot<...>`, the dot_dimension_numbers of
// dot_general.
type DotDims struct {
	LhsBatchingDims    []int64
	RhsBatchingDims    []int64
	LhsContractingDims []int64
	RhsContractingDims []int64
}

// GatherDims is `#stablehlo.gather<...>`, the dimension_numbers of
// gather and dynamic_gather.
type GatherDims struct {
	OffsetDims               []int64
	CollapsedSliceDims       []int64
	OperandBatchingDims      []int64
	StartIndicesBatchingDims []int64
	StartIndexMap            []int64
	IndexVectorDim           int64
}

// ScatterDims is `#stablehlo.scatter<...>`, the
// scatter_dimension_numbers of scatter.
type ScatterDims struct {
	UpdateWindowDims           []int64
	InsertedWindowDims         []int64
	InputBatchingDims          []int64
	ScatterIndicesBatchingDims []int64
	ScatterDimsToOperandDims   []int64
	IndexVectorDim             int64
}

// ConvDims is `#stablehlo.conv<...>`, the dimension_numbers of
// convolution. It prints in the compact form `[b, 0, 1, f]x[0, 1, i,
// o]->[b, 0, 1, f]` unless Raw is set (or the numbers cannot be written
// compactly), then as `#stablehlo.conv<raw input_batch_dimension = 0,
// ...>`.
type ConvDims struct {
	InputBatchDim          int64
	InputFeatureDim        int64
	InputSpatialDims       []int64
	KernelInputFeatureDim  int64
	KernelOutputFeatureDim int64
	KernelSpatialDims      []int64
	OutputBatchDim         int64
	OutputFeatureDim       int64
	OutputSpatialDims      []int64
	Raw                    bool
}

// ChannelHandle is `#stablehlo.channel_handle<handle = 1, type = 0>`.
type ChannelHandle struct {
	Handle int64
	Type   int64
}

// OpaqueAttr is an attribute the model does not interpret, kept verbatim
// (for example `#stablehlo.output_operand_alias<...>`,
// `#sdy.sharding<...>`, `dense_resource<blob> : tensor<4xf32>`).
type OpaqueAttr struct {
	Text string
}

func (IntAttr) isAttr()        {}
func (FloatAttr) isAttr()      {}
func (BoolAttr) isAttr()       {}
func (StringAttr) isAttr()     {}
func (UnitAttr) isAttr()       {}
func (TypeAttr) isAttr()       {}
func (SymbolRefAttr) isAttr()  {}
func (ArrayAttr) isAttr()      {}
func (DictAttr) isAttr()       {}
func (DenseArray) isAttr()     {}
func (*DenseElements) isAttr() {}
func (EnumAttr) isAttr()       {}
func (DotDims) isAttr()        {}
func (GatherDims) isAttr()     {}
func (ScatterDims) isAttr()    {}
func (ConvDims) isAttr()       {}
func (ChannelHandle) isAttr()  {}
func (OpaqueAttr) isAttr()     {}

func (a IntAttr) String() string        { return attrString(a) }
func (a FloatAttr) String() string      { return attrString(a) }
func (a BoolAttr) String() string       { return attrString(a) }
func (a StringAttr) String() string     { return attrString(a) }
func (a UnitAttr) String() string       { return attrString(a) }
func (a TypeAttr) String() string       { return attrString(a) }
func (a SymbolRefAttr) String() string  { return attrString(a) }
func (a ArrayAttr) String() string      { return attrString(a) }
func (a DictAttr) String() string       { return attrString(a) }
func (a DenseArray) String() string     { return attrString(a) }
func (a *DenseElements) String() string { return attrString(a) }
func (a EnumAttr) String() string       { return attrString(a) }
func (a DotDims) String() string        { return attrString(a) }
func (a GatherDims) String() string     { return attrString(a) }
func (a ScatterDims) String() string    { return attrString(a) }
func (a ConvDims) String() string       { return attrString(a) }
func (a ChannelHandle) String() string  { return attrString(a) }
func (a OpaqueAttr) String() string     { return a.Text }

func attrString(a Attr) string {
	var sb strings.Builder
	writeAttr(&sb, a)
	return sb.String()
}

// writeAttr writes a's MLIR text to sb.
func writeAttr(sb *strings.Builder, a Attr) {
	switch a := a.(type) {
	case nil:
		sb.WriteString("<<NULL ATTRIBUTE>>")
	case IntAttr:
		sb.WriteString(formatIntOfType(a.Value, a.Type))
		if a.Type != nil {
			sb.WriteString(" : ")
			sb.WriteString(a.Type.String())
		}
	case FloatAttr:
		sb.WriteString(formatFloatAttrValue(a))
		if a.Type != nil {
			sb.WriteString(" : ")
			sb.WriteString(a.Type.String())
		}
	case BoolAttr:
		if a {
			sb.WriteString("true")
		} else {
			sb.WriteString("false")
		}
	case StringAttr:
		writeQuoted(sb, string(a))
	case UnitAttr:
		sb.WriteString("unit")
	case TypeAttr:
		sb.WriteString(typeString(a.Type))
	case SymbolRefAttr:
		writeSymbol(sb, a.Name)
		for _, n := range a.Nested {
			sb.WriteString("::")
			writeSymbol(sb, n)
		}
	case ArrayAttr:
		sb.WriteByte('[')
		for i, e := range a {
			if i > 0 {
				sb.WriteString(", ")
			}
			writeAttr(sb, e)
		}
		sb.WriteByte(']')
	case DictAttr:
		writeAttrDict(sb, a)
	case DenseArray:
		sb.WriteString("array<")
		sb.WriteString(string(a.Elem))
		n := a.Len()
		if n > 0 {
			sb.WriteString(": ")
		}
		for i := 0; i < n; i++ {
			if i > 0 {
				sb.WriteString(", ")
			}
			switch {
			case a.Elem.IsFloat():
				sb.WriteString(formatFloatAttrValue(FloatAttr{Value: a.Floats[i], Type: a.Elem}))
			case a.Elem == I1:
				if a.Ints[i] != 0 {
					sb.WriteString("true")
				} else {
					sb.WriteString("false")
				}
			default:
				sb.WriteString(formatIntOfType(a.Ints[i], a.Elem))
			}
		}
		sb.WriteByte('>')
	case *DenseElements:
		writeDense(sb, a)
	case EnumAttr:
		sb.WriteByte('#')
		sb.WriteString(a.Dialect)
		sb.WriteByte('<')
		sb.WriteString(a.Kind)
		sb.WriteByte(' ')
		sb.WriteString(a.Value)
		sb.WriteByte('>')
	case DotDims:
		sb.WriteString("#stablehlo.dot<")
		writeFields(sb, []field{
			{"lhs_batching_dimensions", a.LhsBatchingDims, 0, false},
			{"rhs_batching_dimensions", a.RhsBatchingDims, 0, false},
			{"lhs_contracting_dimensions", a.LhsContractingDims, 0, false},
			{"rhs_contracting_dimensions", a.RhsContractingDims, 0, false},
		})
		sb.WriteByte('>')
	case GatherDims:
		sb.WriteString("#stablehlo.gather<")
		writeFields(sb, []field{
			{"offset_dims", a.OffsetDims, 0, false},
			{"collapsed_slice_dims", a.CollapsedSliceDims, 0, false},
			{"operand_batching_dims", a.OperandBatchingDims, 0, false},
			{"start_indices_batching_dims", a.StartIndicesBatchingDims, 0, false},
			{"start_index_map", a.StartIndexMap, 0, false},
			{"index_vector_dim", nil, a.IndexVectorDim, true},
		})
		sb.WriteByte('>')
	case ScatterDims:
		sb.WriteString("#stablehlo.scatter<")
		writeFields(sb, []field{
			{"update_window_dims", a.UpdateWindowDims, 0, false},
			{"inserted_window_dims", a.InsertedWindowDims, 0, false},
			{"input_batching_dims", a.InputBatchingDims, 0, false},
			{"scatter_indices_batching_dims", a.ScatterIndicesBatchingDims, 0, false},
			{"scatter_dims_to_operand_dims", a.ScatterDimsToOperandDims, 0, false},
			{"index_vector_dim", nil, a.IndexVectorDim, true},
		})
		sb.WriteByte('>')
	case ConvDims:
		sb.WriteString("#stablehlo.conv<")
		if s, ok := a.compact(); ok && !a.Raw {
			sb.WriteString(s)
		} else {
			sb.WriteString("raw ")
			writeFields(sb, []field{ // raw form: every field, lists too
				{"input_batch_dimension", nil, a.InputBatchDim, true},
				{"input_feature_dimension", nil, a.InputFeatureDim, true},
				{"input_spatial_dimensions", a.InputSpatialDims, 0, false},
				{"kernel_input_feature_dimension", nil, a.KernelInputFeatureDim, true},
				{"kernel_output_feature_dimension", nil, a.KernelOutputFeatureDim, true},
				{"kernel_spatial_dimensions", a.KernelSpatialDims, 0, false},
				{"output_batch_dimension", nil, a.OutputBatchDim, true},
				{"output_feature_dimension", nil, a.OutputFeatureDim, true},
				{"output_spatial_dimensions", a.OutputSpatialDims, 0, false},
			}, true)
		}
		sb.WriteByte('>')
	case ChannelHandle:
		sb.WriteString("#stablehlo.channel_handle<handle = ")
		sb.WriteString(strconv.FormatInt(a.Handle, 10))
		sb.WriteString(", type = ")
		sb.WriteString(strconv.FormatInt(a.Type, 10))
		sb.WriteByte('>')
	case OpaqueAttr:
		sb.WriteString(a.Text)
	default:
		sb.WriteString(a.String())
	}
}

// field is one `name = value` of a struct-like attribute. Lists are
// printed only when not empty, scalars (scalar true) always.
type field struct {
	name   string
	list   []int64
	v      int64
	scalar bool
}

func writeFields(sb *strings.Builder, fs []field, all ...bool) {
	first := true
	for _, f := range fs {
		if !f.scalar && len(f.list) == 0 && len(all) == 0 {
			continue
		}
		if !first {
			sb.WriteString(", ")
		}
		first = false
		sb.WriteString(f.name)
		sb.WriteString(" = ")
		if f.scalar {
			sb.WriteString(strconv.FormatInt(f.v, 10))
		} else {
			writeIntList(sb, f.list)
		}
	}
}

// writeIntList writes `[1, 2, 3]`.
func writeIntList(sb *strings.Builder, l []int64) {
	sb.WriteByte('[')
	for i, v := range l {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(strconv.FormatInt(v, 10))
	}
	sb.WriteByte(']')
}

// compact returns the `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` form of
// the convolution dimension numbers, or false if the numbers do not form
// valid permutations.
func (c ConvDims) compact() (string, bool) {
	part := func(batch, feature int64, spatial []int64, bch, fch string) (string, bool) {
		n := int64(len(spatial) + 2)
		labels := make([]string, n)
		set := func(d int64, s string) bool {
			if d < 0 || d >= n || labels[d] != "" {
				return false
			}
			labels[d] = s
			return true
		}
		if !set(batch, bch) || !set(feature, fch) {
			return "", false
		}
		for i, d := range spatial {
			if !set(d, strconv.Itoa(i)) {
				return "", false
			}
		}
		return "[" + strings.Join(labels, ", ") + "]", true
	}
	in, ok1 := part(c.InputBatchDim, c.InputFeatureDim, c.InputSpatialDims, "b", "f")
	k, ok2 := part(c.KernelInputFeatureDim, c.KernelOutputFeatureDim, c.KernelSpatialDims, "i", "o")
	out, ok3 := part(c.OutputBatchDim, c.OutputFeatureDim, c.OutputSpatialDims, "b", "f")
	if !ok1 || !ok2 || !ok3 {
		return "", false
	}
	return in + "x" + k + "->" + out, true
}

// sortedAttrs returns attrs sorted by name (stable), as MLIR dictionaries
// are.
func sortedAttrs(attrs []NamedAttr) []NamedAttr {
	s := append([]NamedAttr(nil), attrs...)
	sort.SliceStable(s, func(i, j int) bool { return s[i].Name < s[j].Name })
	return s
}

// writeAttrDict writes `{a = 1 : i64, b}` sorted by name; `{}` if empty.
func writeAttrDict(sb *strings.Builder, attrs []NamedAttr) {
	sb.WriteByte('{')
	for i, a := range sortedAttrs(attrs) {
		if i > 0 {
			sb.WriteString(", ")
		}
		writeAttrKey(sb, a.Name)
		if _, unit := a.Value.(UnitAttr); unit {
			continue
		}
		sb.WriteString(" = ")
		writeAttr(sb, a.Value)
	}
	sb.WriteByte('}')
}

func writeAttrKey(sb *strings.Builder, name string) {
	if isBareID(name) {
		sb.WriteString(name)
	} else {
		writeQuoted(sb, name)
	}
}

// isBareID reports whether s is an MLIR bare identifier:
// (letter|_)(letter|digit|_|$|.)*.
func isBareID(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case i > 0 && (c >= '0' && c <= '9' || c == '$' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// writeSymbol writes @name, quoting the name if it is not a bare id.
func writeSymbol(sb *strings.Builder, name string) {
	sb.WriteByte('@')
	if isBareID(name) {
		sb.WriteString(name)
	} else {
		writeQuoted(sb, name)
	}
}

// writeQuoted writes s as an MLIR string literal: printable ASCII as is,
// '"' and '\\' and every other byte as \XX hex escapes (MLIR's
// printEscapedString; '\\' is written as `\\`).
func writeQuoted(sb *strings.Builder, s string) {
	const hex = "0123456789ABCDEF"
	sb.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			sb.WriteString(`\\`)
		case c == '"' || c < 0x20 || c > 0x7E:
			sb.WriteByte('\\')
			sb.WriteByte(hex[c>>4])
			sb.WriteByte(hex[c&15])
		default:
			sb.WriteByte(c)
		}
	}
	sb.WriteByte('"')
}

// formatIntOfType formats the integer bits v as a value of type t:
// unsigned types as unsigned, signless ones sign-extended from their
// width.
func formatIntOfType(v int64, t Type) string {
	if e, ok := t.(ElementType); ok {
		if bits, unsigned, ok := e.intWidth(); ok {
			if unsigned {
				u := uint64(v)
				if bits < 64 {
					u &= 1<<uint(bits) - 1
				}
				return strconv.FormatUint(u, 10)
			}
			if bits < 64 {
				sh := uint(64 - bits)
				v = v << sh >> sh
			}
		}
	}
	return strconv.FormatInt(v, 10)
}

// formatFloatAttrValue formats a float attribute's value in its type's
// semantics (f64 when untyped or not a known float type).
func formatFloatAttrValue(a FloatAttr) string {
	sem := semF64
	if e, ok := a.Type.(ElementType); ok {
		if s := floatSemOf(e); s != nil {
			sem = s
		}
	}
	return formatFloat(sem.fromFloat64(a.Value), sem)
}
