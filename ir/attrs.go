package ir

// Attribute types. Each op that takes attributes names exactly one of these
// structs in the op table (OpInfo.Attr); Verify checks that an Instr carries
// that type. Struct field tags give the .sir spelling of each field, so the
// text printer and parser handle every op's attributes by reflection, with
// no per-op code. Fields tagged `,omitempty` are left out of the text when
// they hold their zero value.

// ConstantAttr holds a constant's value.
type ConstantAttr struct {
	Value *Literal `sir:"value"`
}

// IotaAttr: the result type and the dimension that counts up.
type IotaAttr struct {
	Type Type `sir:"type"`
	Dim  int  `sir:"dim"`
}

// ComparisonDirection is compare's relation.
type ComparisonDirection uint8

// Comparison directions, as StableHLO spells them.
const (
	CmpEQ ComparisonDirection = iota
	CmpNE
	CmpGE
	CmpGT
	CmpLE
	CmpLT
)

var cmpDirNames = []string{"EQ", "NE", "GE", "GT", "LE", "LT"}

func (d ComparisonDirection) String() string {
	if int(d) < len(cmpDirNames) {
		return cmpDirNames[d]
	}
	return "?"
}

// EnumNames lists the spellings, for the text parser.
func (ComparisonDirection) EnumNames() []string { return cmpDirNames }

// ComparisonType says how compare interprets its operands. NOTYPE picks the
// default for the element type (FLOAT, SIGNED or UNSIGNED).
type ComparisonType uint8

// Comparison types, as StableHLO spells them.
const (
	CmpNoType ComparisonType = iota
	CmpFloat
	CmpTotalOrder
	CmpSigned
	CmpUnsigned
)

var cmpTypeNames = []string{"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"}

func (t ComparisonType) String() string {
	if int(t) < len(cmpTypeNames) {
		return cmpTypeNames[t]
	}
	return "?"
}

// EnumNames lists the spellings, for the text parser.
func (ComparisonType) EnumNames() []string { return cmpTypeNames }

// CompareAttr: direction and comparison type.
type CompareAttr struct {
	Direction ComparisonDirection `sir:"dir"`
	Type      ComparisonType      `sir:"type,omitempty"`
}

// ConvertAttr: the element type to convert to (the shape is unchanged).
type ConvertAttr struct {
	To DType `sir:"to"`
}

// BitcastConvertAttr: the element type whose bits the result reinterprets.
// When the widths differ the shape gains or loses a trailing dimension, as
// in StableHLO.
type BitcastConvertAttr struct {
	To DType `sir:"to"`
}

// ReducePrecisionAttr: the float format to round to.
type ReducePrecisionAttr struct {
	ExponentBits int `sir:"exponent_bits"`
	MantissaBits int `sir:"mantissa_bits"`
}

// BroadcastInDimAttr: the result shape, and for each operand dimension the
// result dimension it maps to.
type BroadcastInDimAttr struct {
	Shape []int `sir:"shape"`
	Dims  []int `sir:"dims"`
}

// ReshapeAttr: the result shape.
type ReshapeAttr struct {
	Shape []int `sir:"shape"`
}

// TransposeAttr: result dimension i is operand dimension Perm[i].
type TransposeAttr struct {
	Perm []int `sir:"perm"`
}

// SliceAttr: static start (inclusive), limit (exclusive) and stride per dimension.
type SliceAttr struct {
	Start  []int `sir:"start"`
	Limit  []int `sir:"limit"`
	Stride []int `sir:"stride"`
}

// DynamicSliceAttr: the static slice sizes; start indices are operands.
type DynamicSliceAttr struct {
	Sizes []int `sir:"sizes"`
}

// ConcatenateAttr: the dimension to concatenate along.
type ConcatenateAttr struct {
	Dim int `sir:"dim"`
}

// PadAttr: edge padding low and high (may be negative) and interior padding.
type PadAttr struct {
	Low      []int `sir:"low"`
	High     []int `sir:"high"`
	Interior []int `sir:"interior"`
}

// ReverseAttr: the dimensions to reverse.
type ReverseAttr struct {
	Dims []int `sir:"dims"`
}

// Precision is a dot or convolution precision hint.
type Precision uint8

// Precisions, as StableHLO spells them.
const (
	PrecisionDefault Precision = iota
	PrecisionHigh
	PrecisionHighest
)

var precisionNames = []string{"DEFAULT", "HIGH", "HIGHEST"}

func (p Precision) String() string {
	if int(p) < len(precisionNames) {
		return precisionNames[p]
	}
	return "?"
}

// EnumNames lists the spellings, for the text parser.
func (Precision) EnumNames() []string { return precisionNames }

// DotGeneralAttr: batch and contracting dimensions of each side. The result
// is batch dims, then lhs free dims, then rhs free dims.
type DotGeneralAttr struct {
	LhsBatch    []int       `sir:"lhs_batch"`
	RhsBatch    []int       `sir:"rhs_batch"`
	LhsContract []int       `sir:"lhs_contract"`
	RhsContract []int       `sir:"rhs_contract"`
	Precision   []Precision `sir:"precision,omitempty"`
}

// ReduceAttr: the dimensions reduced away. The body region takes
// (accumulators..., elements...) as scalars and returns the new accumulators.
type ReduceAttr struct {
	Dims []int `sir:"dims"`
}

// ReduceWindowAttr: window sizes, strides, dilations and padding per
// dimension (empty strides/dilations mean all ones, empty padding zeros).
type ReduceWindowAttr struct {
	WindowDims      []int    `sir:"window"`
	Strides         []int    `sir:"strides,omitempty"`
	BaseDilations   []int    `sir:"base_dilations,omitempty"`
	WindowDilations []int    `sir:"window_dilations,omitempty"`
	Padding         [][2]int `sir:"padding,omitempty"`
}

// ConvolutionAttr follows StableHLO's convolution: window strides, padding,
// lhs (input) and rhs (kernel) dilation, window reversal, the dimension
// numbers, and the group counts. Empty slices mean the defaults (ones,
// zeros, no reversal).
type ConvolutionAttr struct {
	WindowStrides          []int       `sir:"strides,omitempty"`
	Padding                [][2]int    `sir:"padding,omitempty"`
	LhsDilation            []int       `sir:"lhs_dilation,omitempty"`
	RhsDilation            []int       `sir:"rhs_dilation,omitempty"`
	WindowReversal         []bool      `sir:"window_reversal,omitempty"`
	InputBatchDim          int         `sir:"input_batch_dim"`
	InputFeatureDim        int         `sir:"input_feature_dim"`
	InputSpatialDims       []int       `sir:"input_spatial_dims"`
	KernelInputFeatureDim  int         `sir:"kernel_input_feature_dim"`
	KernelOutputFeatureDim int         `sir:"kernel_output_feature_dim"`
	KernelSpatialDims      []int       `sir:"kernel_spatial_dims"`
	OutputBatchDim         int         `sir:"output_batch_dim"`
	OutputFeatureDim       int         `sir:"output_feature_dim"`
	OutputSpatialDims      []int       `sir:"output_spatial_dims"`
	FeatureGroupCount      int         `sir:"feature_group_count"`
	BatchGroupCount        int         `sir:"batch_group_count"`
	Precision              []Precision `sir:"precision,omitempty"`
}

// GatherAttr follows StableHLO's gather dimension numbers.
type GatherAttr struct {
	OffsetDims               []int `sir:"offset_dims"`
	CollapsedSliceDims       []int `sir:"collapsed_slice_dims"`
	OperandBatchingDims      []int `sir:"operand_batching_dims,omitempty"`
	StartIndicesBatchingDims []int `sir:"start_indices_batching_dims,omitempty"`
	StartIndexMap            []int `sir:"start_index_map"`
	IndexVectorDim           int   `sir:"index_vector_dim"`
	SliceSizes               []int `sir:"slice_sizes"`
	IndicesAreSorted         bool  `sir:"indices_are_sorted,omitempty"`
}

// ScatterAttr follows StableHLO's scatter dimension numbers. Operands are
// (inputs..., scatter_indices, updates...); the update region takes
// (current..., update...) scalars and returns the new values.
type ScatterAttr struct {
	UpdateWindowDims           []int `sir:"update_window_dims"`
	InsertedWindowDims         []int `sir:"inserted_window_dims"`
	InputBatchingDims          []int `sir:"input_batching_dims,omitempty"`
	ScatterIndicesBatchingDims []int `sir:"scatter_indices_batching_dims,omitempty"`
	ScatterDimsToOperandDims   []int `sir:"scatter_dims_to_operand_dims"`
	IndexVectorDim             int   `sir:"index_vector_dim"`
	IndicesAreSorted           bool  `sir:"indices_are_sorted,omitempty"`
	UniqueIndices              bool  `sir:"unique_indices,omitempty"`
}

// SortAttr: the dimension to sort along and whether the sort must be
// stable. The comparator region takes (lhs0, rhs0, lhs1, rhs1, ...), one
// pair of scalars per operand, and returns i1 true when lhs goes before rhs.
// Stela's evaluator and CPU plugin always sort stably; IsStable = false
// only lets another backend order equivalent elements as it likes.
type SortAttr struct {
	Dim      int  `sir:"dim"`
	IsStable bool `sir:"is_stable,omitempty"`
}

// CustomCallAttr: the call target, its result types (they cannot be
// inferred), and whether it has side effects (then DCE and CSE keep it).
type CustomCallAttr struct {
	Target        string `sir:"target"`
	ResultTypes   []Type `sir:"result_types"`
	HasSideEffect bool   `sir:"has_side_effect,omitempty"`
	BackendConfig string `sir:"backend_config,omitempty"`
}

// CompositeAttr: a named composite (e.g. "stela.softmax"), its attributes,
// and a version. The single region is its decomposition.
type CompositeAttr struct {
	Name    string      `sir:"name"`
	Attrs   []NamedAttr `sir:"attrs,omitempty"`
	Version int         `sir:"version,omitempty"`
}

// NamedAttr is one composite attribute. Value is one of: int64, float64,
// bool, string, []int64.
type NamedAttr struct {
	Name  string
	Value any
}
