package ir

import (
	"fmt"
	"math"
	"reflect"
	"strings"
)

// Type rules. Each returns the result types of an op from its operand
// types, attribute and regions, or an error that says what is wrong in the
// words a user needs ("operand types f32[2,3] and f32[3,2] differ"); the
// caller prefixes the location and op name. The frontend runs them at the
// user's call (early, located errors) and Verify runs them again.
//
// The rules follow the constraints of the StableHLO specification
// (docs/spec.md in openxla/stablehlo), op by op; where Stela departs from
// it (case passes operands to its branches, regions being isolated from
// above) the rule says so.
//
// Every entry of the op table is wrapped at init (guardRule) so that the
// checks common to all ops live in one place: operand count, attribute type
// and region count (a rule may then index its operands and type-assert its
// attribute without care), valid element types, and static shapes. A rule
// must still never panic on bad attribute values: it checks every index it
// takes from an attribute before using it.

func init() {
	for i := range opTable {
		info := &opTable[i]
		if info.Name != "" && info.Infer != nil {
			info.Infer = guardRule(info, info.Infer)
		}
	}
}

// errDynamic is the one message for dynamic dimensions, which the type
// rules, the evaluator and the lowering do not handle yet.
const errDynamic = "dynamic dimensions are not supported yet"

// guardRule wraps a type rule with the checks every op shares. It also
// turns a panic inside the rule into an error rather than a crash of the
// user's program; a panic there is a bug in the rule, and the message says
// so (the table tests fail on it).
func guardRule(info *OpInfo, rule InferFunc) InferFunc {
	return func(args []Type, attr any, regions []*Func) (ts []Type, err error) {
		defer func() {
			if r := recover(); r != nil {
				ts, err = nil, fmt.Errorf("internal error: type rule panicked: %v", r)
			}
		}()
		if err := info.checkForm(&Instr{Args: make([]*Value, len(args)), Attr: attr, Regions: regions}); err != nil {
			return nil, err
		}
		for i, t := range args {
			if err := checkStaticType(t); err != nil {
				return nil, fmt.Errorf("operand #%d: %v", i, err)
			}
		}
		ts, err = rule(args, attr, regions)
		if err != nil {
			return nil, err
		}
		for i, t := range ts {
			if err := checkStaticType(t); err != nil {
				return nil, fmt.Errorf("result #%d: %v", i, err)
			}
		}
		return ts, nil
	}
}

// checkStaticType accepts a valid element type with static, non-negative
// dimensions.
func checkStaticType(t Type) error {
	if !t.DType.valid() {
		return fmt.Errorf("type %v has an invalid element type", t)
	}
	for _, d := range t.Shape {
		if d == DynamicDim {
			return fmt.Errorf("type %v: %s", t, errDynamic)
		}
		if d < 0 {
			return fmt.Errorf("type %v has negative dimension %d", t, d)
		}
	}
	return nil
}

// checkShapeAttr accepts a result shape given by an attribute.
func checkShapeAttr(name string, shape []int) error {
	for i, d := range shape {
		if d == DynamicDim {
			return fmt.Errorf("%s[%d] is dynamic: %s", name, i, errDynamic)
		}
		if d < 0 {
			return fmt.Errorf("%s[%d] = %d is negative", name, i, d)
		}
	}
	return nil
}

// sizeArith does int arithmetic on sizes taken from attributes and remembers
// whether anything overflowed, so that absurd attributes give an error
// rather than a wrapped-around size.
type sizeArith struct{ overflow bool }

func (c *sizeArith) add(a, b int) int {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		c.overflow = true
	}
	return s
}

func (c *sizeArith) sub(a, b int) int {
	if b == math.MinInt {
		c.overflow = true
		return 0
	}
	return c.add(a, -b)
}

func (c *sizeArith) mul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt) || (b == -1 && a == math.MinInt) {
		c.overflow = true
	}
	return p
}

func (c *sizeArith) err() error {
	if c.overflow {
		return fmt.Errorf("sizes overflow: attribute values are too large")
	}
	return nil
}

// shapeElems is the element count of a non-negative shape, and false if
// it does not fit in an int.
func shapeElems(shape []int) (int, bool) {
	var c sizeArith
	n := 1
	for _, d := range shape {
		n = c.mul(n, d)
	}
	return n, !c.overflow
}

// inRange checks that every entry of dims (an attribute named name) is a
// dimension of a rank-rank tensor described by what.
func dimsInRange(name string, dims []int, rank int, what string) error {
	for i, d := range dims {
		if d < 0 || d >= rank {
			return fmt.Errorf("%s[%d] = %d is out of range for %s (rank %d)", name, i, d, what, rank)
		}
	}
	return nil
}

// unique checks that no dimension appears twice in the concatenation of
// the lists; names label them for the message.
func dimsUnique(names string, lists ...[]int) error {
	seen := map[int]bool{}
	for _, l := range lists {
		for _, d := range l {
			if seen[d] {
				return fmt.Errorf("dimension %d appears twice in %s", d, names)
			}
			seen[d] = true
		}
	}
	return nil
}

func dimsSorted(name string, dims []int) error {
	for i := 1; i < len(dims); i++ {
		if dims[i] < dims[i-1] {
			return fmt.Errorf("%s %v is not sorted", name, dims)
		}
	}
	return nil
}

func hasDim(dims []int, d int) bool {
	for _, x := range dims {
		if x == d {
			return true
		}
	}
	return false
}

func copyDims(s []int) []int { return append([]int{}, s...) }

// typeListString prints types as a parenthesized list: (f32[], si32[2]).
func typeListString(ts []Type) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func sameTypes(a, b []Type) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

func copyTypes(ts []Type) []Type {
	out := make([]Type, len(ts))
	for i, t := range ts {
		out[i] = Type{DType: t.DType, Shape: copyDims(t.Shape)}
	}
	return out
}

// regionTypes returns a region's parameter and result types, or an error if
// the region is malformed (a nil value); Verify reports the details.
func regionTypes(name string, r *Func) (params, results []Type, err error) {
	if r == nil {
		return nil, nil, fmt.Errorf("%s region is nil", name)
	}
	params = make([]Type, len(r.Params))
	for i, p := range r.Params {
		if p == nil {
			return nil, nil, fmt.Errorf("%s region parameter #%d is nil", name, i)
		}
		params[i] = p.Type
	}
	results = make([]Type, len(r.Results))
	for i, v := range r.Results {
		if v == nil {
			return nil, nil, fmt.Errorf("%s region result #%d is nil", name, i)
		}
		results[i] = v.Type
	}
	return params, results, nil
}

// checkRegionSig checks a region's signature against the wanted one; a nil
// wantResults means any results.
func checkRegionSig(name string, r *Func, wantParams, wantResults []Type) ([]Type, error) {
	params, results, err := regionTypes(name, r)
	if err != nil {
		return nil, err
	}
	if !sameTypes(params, wantParams) {
		return nil, fmt.Errorf("%s region takes %s, want %s", name, typeListString(params), typeListString(wantParams))
	}
	if wantResults != nil && !sameTypes(results, wantResults) {
		return nil, fmt.Errorf("%s region returns %s, want %s", name, typeListString(results), typeListString(wantResults))
	}
	return results, nil
}

func scalarsOf(ts []Type) []Type {
	out := make([]Type, len(ts))
	for i, t := range ts {
		out[i] = Scalar(t.DType)
	}
	return out
}

func checkElemKind(t Type, traits Trait) error {
	d := t.DType
	ok := false
	switch {
	case d.IsBool():
		ok = traits&BoolOK != 0
	case d.IsUnsigned() && traits&NoUnsigned != 0:
		ok = false
	case d.IsInteger():
		ok = traits&IntOnly != 0
	case d.IsFloat():
		ok = traits&FloatOnly != 0
	case d.IsComplex():
		ok = traits&ComplexOK != 0
	}
	if !ok {
		return fmt.Errorf("element type %v is not supported (want %s)", d, kindWords(traits))
	}
	return nil
}
func kindWords(traits Trait) string {
	var ws []string
	if traits&BoolOK != 0 {
		ws = append(ws, "i1")
	}
	if traits&IntOnly != 0 && traits&NoUnsigned != 0 {
		ws = append(ws, "signed integer")
	} else if traits&IntOnly != 0 {
		ws = append(ws, "integer")
	}
	if traits&FloatOnly != 0 {
		ws = append(ws, "float")
	}
	if traits&ComplexOK != 0 {
		ws = append(ws, "complex")
	}
	s := ""
	for i, w := range ws {
		switch {
		case i == 0:
		case i == len(ws)-1:
			s += " or "
		default:
			s += ", "
		}
		s += w
	}
	return s
}

func inferUnary(traits Trait) InferFunc {
	return func(args []Type, attr any, _ []*Func) ([]Type, error) {
		if err := checkElemKind(args[0], traits); err != nil {
			return nil, err
		}
		return []Type{args[0]}, nil
	}
}

func inferBinary(traits Trait) InferFunc {
	return func(args []Type, attr any, _ []*Func) ([]Type, error) {
		if !args[0].Equal(args[1]) {
			return nil, fmt.Errorf("operand types %v and %v differ", args[0], args[1])
		}
		if err := checkElemKind(args[0], traits); err != nil {
			return nil, err
		}
		return []Type{args[0]}, nil
	}
}

func inferIsFinite(args []Type, _ any, _ []*Func) ([]Type, error) {
	if !args[0].DType.IsFloat() {
		return nil, fmt.Errorf("element type %v is not a float", args[0].DType)
	}
	return []Type{args[0].WithDType(Bool)}, nil
}

func inferRealImag(args []Type, _ any, _ []*Func) ([]Type, error) {
	d := args[0].DType
	if !d.IsFloat() && !d.IsComplex() {
		return nil, fmt.Errorf("element type %v is not float or complex", d)
	}
	return []Type{args[0].WithDType(d.ComplexPart())}, nil
}

func inferComplex(args []Type, _ any, _ []*Func) ([]Type, error) {
	if !args[0].Equal(args[1]) {
		return nil, fmt.Errorf("operand types %v and %v differ", args[0], args[1])
	}
	c := ComplexOf(args[0].DType)
	if c == InvalidDType {
		return nil, fmt.Errorf("element type %v: want f32 or f64", args[0].DType)
	}
	return []Type{args[0].WithDType(c)}, nil
}

func inferConstant(_ []Type, attr any, _ []*Func) ([]Type, error) {
	a := attr.(ConstantAttr)
	if a.Value == nil {
		return nil, fmt.Errorf("missing value")
	}
	t := a.Value.Type
	if err := checkStaticType(t); err != nil {
		return nil, fmt.Errorf("value: %v", err)
	}
	// A literal built without NewLiteral may disagree with its type; the
	// evaluator and the lowering index Data by the type, so catch it here.
	rv := reflect.ValueOf(a.Value.Data)
	if rv.Kind() != reflect.Slice || rv.Type().Elem() != GoElemType(t.DType) {
		return nil, fmt.Errorf("value data is %T, want []%v for %v", a.Value.Data, GoElemType(t.DType), t)
	}
	if n, ok := shapeElems(t.Shape); !ok || rv.Len() != n {
		return nil, fmt.Errorf("value has %d elements, want %d for %v", rv.Len(), n, t)
	}
	return []Type{t}, nil
}

func inferIota(_ []Type, attr any, _ []*Func) ([]Type, error) {
	a := attr.(IotaAttr)
	if a.Dim < 0 || a.Dim >= a.Type.Rank() {
		return nil, fmt.Errorf("dim %d out of range for %v", a.Dim, a.Type)
	}
	if a.Type.DType == Bool {
		return nil, fmt.Errorf("element type i1 is not supported")
	}
	return []Type{a.Type}, nil
}

func inferCompare(args []Type, attr any, _ []*Func) ([]Type, error) {
	if !args[0].Equal(args[1]) {
		return nil, fmt.Errorf("operand types %v and %v differ", args[0], args[1])
	}
	a := attr.(CompareAttr)
	if a.Direction > CmpLT {
		return nil, fmt.Errorf("invalid comparison direction %d", a.Direction)
	}
	// The comparison type must suit the element type (StableHLO compare C3).
	d := args[0].DType
	ok := true
	switch a.Type {
	case CmpNoType:
	case CmpSigned:
		ok = d.IsSigned()
	case CmpUnsigned:
		ok = d.IsUnsigned() || d.IsBool()
	case CmpFloat:
		ok = d.IsFloat() || d.IsComplex()
	case CmpTotalOrder:
		ok = d.IsFloat()
	default:
		return nil, fmt.Errorf("invalid comparison type %d", a.Type)
	}
	if !ok {
		return nil, fmt.Errorf("comparison type %v does not apply to element type %v", a.Type, d)
	}
	return []Type{args[0].WithDType(Bool)}, nil
}

// inferAbs: abs takes signed integers, floats and complex numbers (the
// spec has no unsigned abs), keeps integer and float types and maps
// complex to the type of its parts (the modulus is real).
func inferAbs(args []Type, _ any, _ []*Func) ([]Type, error) {
	if err := checkElemKind(args[0], IntOnly|NoUnsigned|FloatOnly|ComplexOK); err != nil {
		return nil, err
	}
	return []Type{args[0].WithDType(args[0].DType.ComplexPart())}, nil
}

func inferConvert(args []Type, attr any, _ []*Func) ([]Type, error) {
	a := attr.(ConvertAttr)
	if !a.To.valid() {
		return nil, fmt.Errorf("invalid target element type")
	}
	if args[0].DType.IsComplex() && !a.To.IsComplex() {
		return nil, fmt.Errorf("complex → %v is not defined; take real or imag first", a.To)
	}
	return []Type{args[0].WithDType(a.To)}, nil
}

// Elementwise ops with several operand roles.

func inferSelect(args []Type, _ any, _ []*Func) ([]Type, error) {
	pred, onTrue, onFalse := args[0], args[1], args[2]
	if pred.DType != Bool {
		return nil, fmt.Errorf("pred has type %v, want element type i1", pred)
	}
	if !onTrue.Equal(onFalse) {
		return nil, fmt.Errorf("on_true type %v and on_false type %v differ", onTrue, onFalse)
	}
	if pred.Rank() != 0 && !ShapeEqual(pred.Shape, onTrue.Shape) {
		return nil, fmt.Errorf("pred has type %v, want a scalar or the shape of on_true %v", pred, onTrue)
	}
	return []Type{onTrue}, nil
}

func inferClamp(args []Type, _ any, _ []*Func) ([]Type, error) {
	lo, x, hi := args[0], args[1], args[2]
	for _, b := range []struct {
		name string
		t    Type
	}{{"min", lo}, {"max", hi}} {
		if b.t.DType != x.DType {
			return nil, fmt.Errorf("%s has type %v, want element type %v of operand %v", b.name, b.t, x.DType, x)
		}
		if b.t.Rank() != 0 && !ShapeEqual(b.t.Shape, x.Shape) {
			return nil, fmt.Errorf("%s has type %v, want a scalar or the shape of operand %v", b.name, b.t, x)
		}
	}
	return []Type{x}, nil
}

// inferBitcastConvert: the element widths are DType.Bits, so i1 counts as
// one bit as in the specification (f32 → i1 adds a trailing dimension of 32).
func inferBitcastConvert(args []Type, attr any, _ []*Func) ([]Type, error) {
	x, to := args[0], attr.(BitcastConvertAttr).To
	if !to.valid() {
		return nil, fmt.Errorf("invalid target element type %v", to)
	}
	if x.DType.IsComplex() != to.IsComplex() {
		return nil, fmt.Errorf("bitcast between complex and non-complex types (%v → %v) is not allowed", x.DType, to)
	}
	from, want := x.DType.Bits(), to.Bits()
	switch {
	case from == want:
		return []Type{Type{DType: to, Shape: copyDims(x.Shape)}}, nil
	case want < from:
		return []Type{Type{DType: to, Shape: append(copyDims(x.Shape), from/want)}}, nil
	}
	ratio := want / from
	r := x.Rank()
	if r == 0 || x.Shape[r-1] != ratio {
		return nil, fmt.Errorf("operand %v: converting %v to %v needs a last dimension of size %d", x, x.DType, to, ratio)
	}
	return []Type{Type{DType: to, Shape: copyDims(x.Shape[:r-1])}}, nil
}

// Data movement.

func inferBroadcastInDim(args []Type, attr any, _ []*Func) ([]Type, error) {
	x, a := args[0], attr.(BroadcastInDimAttr)
	if err := checkShapeAttr("shape", a.Shape); err != nil {
		return nil, err
	}
	if len(a.Dims) != x.Rank() {
		return nil, fmt.Errorf("dims %v has %d entries, want %d (the rank of operand %v)", a.Dims, len(a.Dims), x.Rank(), x)
	}
	if err := dimsInRange("dims", a.Dims, len(a.Shape), fmt.Sprintf("result shape %v", a.Shape)); err != nil {
		return nil, err
	}
	if err := dimsUnique("dims", a.Dims); err != nil {
		return nil, err
	}
	for j, d := range a.Dims {
		if x.Shape[j] != 1 && x.Shape[j] != a.Shape[d] {
			return nil, fmt.Errorf("operand dimension %d has size %d, result dimension %d has size %d: want equal sizes or 1", j, x.Shape[j], d, a.Shape[d])
		}
	}
	return []Type{{DType: x.DType, Shape: copyDims(a.Shape)}}, nil
}

func inferReshape(args []Type, attr any, _ []*Func) ([]Type, error) {
	x, a := args[0], attr.(ReshapeAttr)
	if err := checkShapeAttr("shape", a.Shape); err != nil {
		return nil, err
	}
	n, ok1 := shapeElems(x.Shape)
	m, ok2 := shapeElems(a.Shape)
	if !ok1 || !ok2 || n != m {
		return nil, fmt.Errorf("operand %v has %d elements, shape %v has %d", x, n, a.Shape, m)
	}
	return []Type{{DType: x.DType, Shape: copyDims(a.Shape)}}, nil
}

func inferTranspose(args []Type, attr any, _ []*Func) ([]Type, error) {
	x, a := args[0], attr.(TransposeAttr)
	if len(a.Perm) != x.Rank() {
		return nil, fmt.Errorf("perm %v has %d entries, want %d (the rank of operand %v)", a.Perm, len(a.Perm), x.Rank(), x)
	}
	if err := dimsInRange("perm", a.Perm, x.Rank(), "operand "+x.String()); err != nil {
		return nil, err
	}
	if err := dimsUnique("perm", a.Perm); err != nil {
		return nil, fmt.Errorf("perm %v is not a permutation: %v", a.Perm, err)
	}
	shape := make([]int, len(a.Perm))
	for i, p := range a.Perm {
		shape[i] = x.Shape[p]
	}
	return []Type{{DType: x.DType, Shape: shape}}, nil
}

func inferSlice(args []Type, attr any, _ []*Func) ([]Type, error) {
	x, a := args[0], attr.(SliceAttr)
	r := x.Rank()
	if len(a.Start) != r || len(a.Limit) != r || len(a.Stride) != r {
		return nil, fmt.Errorf("start, limit and stride have %d, %d and %d entries, want %d each (the rank of operand %v)", len(a.Start), len(a.Limit), len(a.Stride), r, x)
	}
	shape := make([]int, r)
	for d := range r {
		s, l, st := a.Start[d], a.Limit[d], a.Stride[d]
		if s < 0 || s > l || l > x.Shape[d] {
			return nil, fmt.Errorf("dimension %d: start %d, limit %d, size %d: want 0 <= start <= limit <= size", d, s, l, x.Shape[d])
		}
		if st < 1 {
			return nil, fmt.Errorf("dimension %d: stride %d, want at least 1", d, st)
		}
		n := (l - s) / st
		if (l-s)%st != 0 {
			n++
		}
		shape[d] = n
	}
	return []Type{{DType: x.DType, Shape: shape}}, nil
}

// checkStartIndices checks dynamic_slice's and dynamic_update_slice's
// start indices: one integer scalar per operand dimension, all of one type.
func checkStartIndices(idx []Type, x Type) error {
	if len(idx) != x.Rank() {
		return fmt.Errorf("has %d start indices, want %d (the rank of operand %v)", len(idx), x.Rank(), x)
	}
	for i, t := range idx {
		if t.Rank() != 0 || !t.DType.IsInteger() {
			return fmt.Errorf("start index #%d has type %v, want an integer scalar", i, t)
		}
		if t.DType != idx[0].DType {
			return fmt.Errorf("start index #%d has type %v, but start index #0 has %v: want one type", i, t, idx[0])
		}
	}
	return nil
}

func inferDynamicSlice(args []Type, attr any, _ []*Func) ([]Type, error) {
	x, a := args[0], attr.(DynamicSliceAttr)
	if err := checkStartIndices(args[1:], x); err != nil {
		return nil, err
	}
	if len(a.Sizes) != x.Rank() {
		return nil, fmt.Errorf("sizes %v has %d entries, want %d (the rank of operand %v)", a.Sizes, len(a.Sizes), x.Rank(), x)
	}
	for k, s := range a.Sizes {
		if s < 0 || s > x.Shape[k] {
			return nil, fmt.Errorf("sizes[%d] = %d, want it in [0, %d] (operand %v)", k, s, x.Shape[k], x)
		}
	}
	return []Type{{DType: x.DType, Shape: copyDims(a.Sizes)}}, nil
}

func inferDynamicUpdateSlice(args []Type, _ any, _ []*Func) ([]Type, error) {
	x, u := args[0], args[1]
	if u.DType != x.DType {
		return nil, fmt.Errorf("update has type %v, want element type %v of operand %v", u, x.DType, x)
	}
	if u.Rank() != x.Rank() {
		return nil, fmt.Errorf("update has type %v, want rank %d of operand %v", u, x.Rank(), x)
	}
	for k := range u.Shape {
		if u.Shape[k] > x.Shape[k] {
			return nil, fmt.Errorf("update %v is larger than operand %v in dimension %d", u, x, k)
		}
	}
	if err := checkStartIndices(args[2:], x); err != nil {
		return nil, err
	}
	return []Type{x}, nil
}

func inferConcatenate(args []Type, attr any, _ []*Func) ([]Type, error) {
	a, first := attr.(ConcatenateAttr), args[0]
	if a.Dim < 0 || a.Dim >= first.Rank() {
		return nil, fmt.Errorf("dim %d is out of range for operand #0 %v (rank %d)", a.Dim, first, first.Rank())
	}
	var c sizeArith
	shape := copyDims(first.Shape)
	for i, t := range args[1:] {
		bad := t.DType != first.DType || t.Rank() != first.Rank()
		for d := 0; !bad && d < t.Rank(); d++ {
			bad = d != a.Dim && t.Shape[d] != first.Shape[d]
		}
		if bad {
			return nil, fmt.Errorf("operand #%d has type %v, operand #0 has %v: want the same element type and sizes except in dimension %d", i+1, t, first, a.Dim)
		}
		shape[a.Dim] = c.add(shape[a.Dim], t.Shape[a.Dim])
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	return []Type{{DType: first.DType, Shape: shape}}, nil
}

func inferPad(args []Type, attr any, _ []*Func) ([]Type, error) {
	x, v, a := args[0], args[1], attr.(PadAttr)
	if v.Rank() != 0 || v.DType != x.DType {
		return nil, fmt.Errorf("padding value has type %v, want %v", v, Scalar(x.DType))
	}
	r := x.Rank()
	if len(a.Low) != r || len(a.High) != r || len(a.Interior) != r {
		return nil, fmt.Errorf("low, high and interior have %d, %d and %d entries, want %d each (the rank of operand %v)", len(a.Low), len(a.High), len(a.Interior), r, x)
	}
	var c sizeArith
	shape := make([]int, r)
	for i, d := range x.Shape {
		if a.Interior[i] < 0 {
			return nil, fmt.Errorf("interior[%d] = %d is negative", i, a.Interior[i])
		}
		n := c.add(d, c.mul(max(d-1, 0), a.Interior[i]))
		n = c.add(c.add(n, a.Low[i]), a.High[i])
		if err := c.err(); err != nil {
			return nil, err
		}
		if n < 0 {
			return nil, fmt.Errorf("dimension %d would have size %d (size %d, low %d, high %d, interior %d)", i, n, d, a.Low[i], a.High[i], a.Interior[i])
		}
		shape[i] = n
	}
	return []Type{{DType: x.DType, Shape: shape}}, nil
}

func inferReverse(args []Type, attr any, _ []*Func) ([]Type, error) {
	x, a := args[0], attr.(ReverseAttr)
	if err := dimsInRange("dims", a.Dims, x.Rank(), "operand "+x.String()); err != nil {
		return nil, err
	}
	if err := dimsUnique("dims", a.Dims); err != nil {
		return nil, err
	}
	return []Type{x}, nil
}

// Compute.

func checkPrecision(p []Precision) error {
	if len(p) != 0 && len(p) != 2 {
		return fmt.Errorf("precision has %d entries, want 0 or 2 (lhs and rhs)", len(p))
	}
	for i, v := range p {
		if int(v) >= len(precisionNames) {
			return fmt.Errorf("precision[%d] is invalid (%d)", i, v)
		}
	}
	return nil
}

func inferDotGeneral(args []Type, attr any, _ []*Func) ([]Type, error) {
	lhs, rhs, a := args[0], args[1], attr.(DotGeneralAttr)
	if lhs.DType != rhs.DType {
		return nil, fmt.Errorf("lhs %v and rhs %v have different element types", lhs, rhs)
	}
	if len(a.LhsBatch) != len(a.RhsBatch) {
		return nil, fmt.Errorf("lhs_batch %v and rhs_batch %v have different lengths", a.LhsBatch, a.RhsBatch)
	}
	if len(a.LhsContract) != len(a.RhsContract) {
		return nil, fmt.Errorf("lhs_contract %v and rhs_contract %v have different lengths", a.LhsContract, a.RhsContract)
	}
	for _, c := range []struct {
		name string
		dims []int
		t    Type
		side string
	}{
		{"lhs_batch", a.LhsBatch, lhs, "lhs"}, {"lhs_contract", a.LhsContract, lhs, "lhs"},
		{"rhs_batch", a.RhsBatch, rhs, "rhs"}, {"rhs_contract", a.RhsContract, rhs, "rhs"},
	} {
		if err := dimsInRange(c.name, c.dims, c.t.Rank(), c.side+" "+c.t.String()); err != nil {
			return nil, err
		}
	}
	if err := dimsUnique("lhs_batch and lhs_contract", a.LhsBatch, a.LhsContract); err != nil {
		return nil, err
	}
	if err := dimsUnique("rhs_batch and rhs_contract", a.RhsBatch, a.RhsContract); err != nil {
		return nil, err
	}
	for i := range a.LhsBatch {
		l, r := a.LhsBatch[i], a.RhsBatch[i]
		if lhs.Shape[l] != rhs.Shape[r] {
			return nil, fmt.Errorf("batch dimension sizes differ: lhs dim %d is %d, rhs dim %d is %d", l, lhs.Shape[l], r, rhs.Shape[r])
		}
	}
	for i := range a.LhsContract {
		l, r := a.LhsContract[i], a.RhsContract[i]
		if lhs.Shape[l] != rhs.Shape[r] {
			return nil, fmt.Errorf("contracting dimension sizes differ: lhs dim %d is %d, rhs dim %d is %d", l, lhs.Shape[l], r, rhs.Shape[r])
		}
	}
	if err := checkPrecision(a.Precision); err != nil {
		return nil, err
	}
	shape := []int{}
	for _, d := range a.LhsBatch {
		shape = append(shape, lhs.Shape[d])
	}
	for d, n := range lhs.Shape {
		if !hasDim(a.LhsBatch, d) && !hasDim(a.LhsContract, d) {
			shape = append(shape, n)
		}
	}
	for d, n := range rhs.Shape {
		if !hasDim(a.RhsBatch, d) && !hasDim(a.RhsContract, d) {
			shape = append(shape, n)
		}
	}
	return []Type{{DType: lhs.DType, Shape: shape}}, nil
}

// splitInits splits the operands of reduce and reduce_window into N inputs
// of one shape and N scalar init values of matching element types.
func splitInits(args []Type) (inputs, inits []Type, err error) {
	if len(args)%2 != 0 {
		return nil, nil, fmt.Errorf("has %d operands, want an even number (N inputs, then N init values)", len(args))
	}
	n := len(args) / 2
	inputs, inits = args[:n], args[n:]
	for k := range n {
		if !ShapeEqual(inputs[k].Shape, inputs[0].Shape) {
			return nil, nil, fmt.Errorf("input #%d has type %v, input #0 has %v: want the same shape", k, inputs[k], inputs[0])
		}
		if inits[k].Rank() != 0 || inits[k].DType != inputs[k].DType {
			return nil, nil, fmt.Errorf("init value #%d has type %v, want %v (a scalar of input #%d's element type)", k, inits[k], Scalar(inputs[k].DType), k)
		}
	}
	return inputs, inits, nil
}

// checkReducer checks a reduction body: (acc..., x...) scalars → acc...
func checkReducer(r *Func, inputs, inits []Type) error {
	acc := scalarsOf(inits)
	_, err := checkRegionSig("body", r, append(copyTypes(acc), scalarsOf(inputs)...), acc)
	return err
}

func inferReduce(args []Type, attr any, regions []*Func) ([]Type, error) {
	a := attr.(ReduceAttr)
	inputs, inits, err := splitInits(args)
	if err != nil {
		return nil, err
	}
	in0 := inputs[0]
	if err := dimsInRange("dims", a.Dims, in0.Rank(), "input "+in0.String()); err != nil {
		return nil, err
	}
	if err := dimsUnique("dims", a.Dims); err != nil {
		return nil, err
	}
	if err := checkReducer(regions[0], inputs, inits); err != nil {
		return nil, err
	}
	shape := []int{}
	for d, n := range in0.Shape {
		if !hasDim(a.Dims, d) {
			shape = append(shape, n)
		}
	}
	out := make([]Type, len(inits))
	for k, t := range inits {
		out[k] = Type{DType: t.DType, Shape: copyDims(shape)}
	}
	return out, nil
}

// windowAttr returns the per-dimension values of an optional window
// attribute (empty means all def), checking its length and lower bound.
func windowAttr(name string, v []int, rank, def, least int) ([]int, error) {
	if len(v) == 0 {
		out := make([]int, rank)
		for i := range out {
			out[i] = def
		}
		return out, nil
	}
	if len(v) != rank {
		return nil, fmt.Errorf("%s %v has %d entries, want %d", name, v, len(v), rank)
	}
	for i, x := range v {
		if x < least {
			return nil, fmt.Errorf("%s[%d] = %d, want at least %d", name, i, x, least)
		}
	}
	return v, nil
}

func windowPadding(p [][2]int, rank int) ([][2]int, error) {
	if len(p) == 0 {
		return make([][2]int, rank), nil
	}
	if len(p) != rank {
		return nil, fmt.Errorf("padding has %d entries, want %d", len(p), rank)
	}
	return p, nil
}

// numWindows is the specification's window count along one dimension
// (reduce_window C15, convolution C26).
func numWindows(c *sizeArith, size, lo, hi, baseDil, window, winDil, stride int) int {
	dilated := 0
	if size > 0 {
		dilated = c.add(c.mul(size-1, baseDil), 1)
	}
	padded := c.add(c.add(lo, dilated), hi)
	dwin := 0
	if window > 0 {
		dwin = c.add(c.mul(window-1, winDil), 1)
	}
	if padded <= 0 || dwin > padded {
		return 0
	}
	return c.sub(padded, dwin)/stride + 1
}

func inferReduceWindow(args []Type, attr any, regions []*Func) ([]Type, error) {
	a := attr.(ReduceWindowAttr)
	inputs, inits, err := splitInits(args)
	if err != nil {
		return nil, err
	}
	in0 := inputs[0]
	r := in0.Rank()
	win, err := windowAttr("window", a.WindowDims, r, 0, 1)
	if err == nil && len(a.WindowDims) != r {
		err = fmt.Errorf("window %v has %d entries, want %d (the rank of input %v)", a.WindowDims, len(a.WindowDims), r, in0)
	}
	if err != nil {
		return nil, err
	}
	strides, err := windowAttr("strides", a.Strides, r, 1, 1)
	if err != nil {
		return nil, err
	}
	baseDil, err := windowAttr("base_dilations", a.BaseDilations, r, 1, 1)
	if err != nil {
		return nil, err
	}
	winDil, err := windowAttr("window_dilations", a.WindowDilations, r, 1, 1)
	if err != nil {
		return nil, err
	}
	pad, err := windowPadding(a.Padding, r)
	if err != nil {
		return nil, err
	}
	if err := checkReducer(regions[0], inputs, inits); err != nil {
		return nil, err
	}
	var c sizeArith
	shape := make([]int, r)
	for d := range r {
		shape[d] = numWindows(&c, in0.Shape[d], pad[d][0], pad[d][1], baseDil[d], win[d], winDil[d], strides[d])
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	out := make([]Type, len(inits))
	for k, t := range inits {
		out[k] = Type{DType: t.DType, Shape: copyDims(shape)}
	}
	return out, nil
}

func inferConvolution(args []Type, attr any, _ []*Func) ([]Type, error) {
	lhs, rhs, a := args[0], args[1], attr.(ConvolutionAttr)
	n := lhs.Rank()
	if n < 2 {
		return nil, fmt.Errorf("lhs %v has rank %d, want at least 2 (batch and feature dimensions)", lhs, n)
	}
	if rhs.Rank() != n {
		return nil, fmt.Errorf("rhs %v has rank %d, want %d (the rank of lhs %v)", rhs, rhs.Rank(), n, lhs)
	}
	if lhs.DType != rhs.DType {
		return nil, fmt.Errorf("lhs %v and rhs %v have different element types", lhs, rhs)
	}
	s := n - 2
	strides, err := windowAttr("strides", a.WindowStrides, s, 1, 1)
	if err != nil {
		return nil, err
	}
	pad, err := windowPadding(a.Padding, s)
	if err != nil {
		return nil, err
	}
	lhsDil, err := windowAttr("lhs_dilation", a.LhsDilation, s, 1, 1)
	if err != nil {
		return nil, err
	}
	rhsDil, err := windowAttr("rhs_dilation", a.RhsDilation, s, 1, 1)
	if err != nil {
		return nil, err
	}
	if len(a.WindowReversal) != 0 && len(a.WindowReversal) != s {
		return nil, fmt.Errorf("window_reversal has %d entries, want %d", len(a.WindowReversal), s)
	}
	for _, g := range []struct {
		name    string
		spatial []int
		others  []int
		what    string
	}{
		{"input", a.InputSpatialDims, []int{a.InputBatchDim, a.InputFeatureDim}, "lhs " + lhs.String()},
		{"kernel", a.KernelSpatialDims, []int{a.KernelInputFeatureDim, a.KernelOutputFeatureDim}, "rhs " + rhs.String()},
		{"output", a.OutputSpatialDims, []int{a.OutputBatchDim, a.OutputFeatureDim}, "the result"},
	} {
		if len(g.spatial) != s {
			return nil, fmt.Errorf("%s_spatial_dims %v has %d entries, want %d (rank %d minus 2)", g.name, g.spatial, len(g.spatial), s, n)
		}
		all := append(copyDims(g.spatial), g.others...)
		if err := dimsInRange(g.name+" dimension numbers", all, n, g.what); err != nil {
			return nil, fmt.Errorf("%s dimension numbers: %d is out of range for %s (rank %d)", g.name, firstOutOfRange(all, n), g.what, n)
		}
		if err := dimsUnique(g.name+" dimension numbers", all); err != nil {
			return nil, err
		}
	}
	fgc, bgc := a.FeatureGroupCount, a.BatchGroupCount
	if fgc < 1 || bgc < 1 {
		return nil, fmt.Errorf("feature_group_count %d and batch_group_count %d must both be at least 1", fgc, bgc)
	}
	if fgc != 1 && bgc != 1 {
		return nil, fmt.Errorf("feature_group_count %d and batch_group_count %d: at most one may exceed 1", fgc, bgc)
	}
	batch, feat := lhs.Shape[a.InputBatchDim], lhs.Shape[a.InputFeatureDim]
	kin, kout := rhs.Shape[a.KernelInputFeatureDim], rhs.Shape[a.KernelOutputFeatureDim]
	if batch%bgc != 0 {
		return nil, fmt.Errorf("lhs batch dimension size %d is not a multiple of batch_group_count %d", batch, bgc)
	}
	if feat%fgc != 0 {
		return nil, fmt.Errorf("lhs feature dimension size %d is not a multiple of feature_group_count %d", feat, fgc)
	}
	if kin != feat/fgc {
		return nil, fmt.Errorf("rhs input feature dimension has size %d, want %d (lhs feature size %d / feature_group_count %d)", kin, feat/fgc, feat, fgc)
	}
	if kout%bgc != 0 {
		return nil, fmt.Errorf("rhs output feature dimension size %d is not a multiple of batch_group_count %d", kout, bgc)
	}
	if kout%fgc != 0 {
		return nil, fmt.Errorf("rhs output feature dimension size %d is not a multiple of feature_group_count %d", kout, fgc)
	}
	if err := checkPrecision(a.Precision); err != nil {
		return nil, err
	}
	var c sizeArith
	shape := make([]int, n)
	shape[a.OutputBatchDim] = batch / bgc
	shape[a.OutputFeatureDim] = kout
	for i := range s {
		shape[a.OutputSpatialDims[i]] = numWindows(&c, lhs.Shape[a.InputSpatialDims[i]], pad[i][0], pad[i][1],
			lhsDil[i], rhs.Shape[a.KernelSpatialDims[i]], rhsDil[i], strides[i])
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	return []Type{{DType: lhs.DType, Shape: shape}}, nil
}

func firstOutOfRange(dims []int, rank int) int {
	for _, d := range dims {
		if d < 0 || d >= rank {
			return d
		}
	}
	return 0
}

// indexVector checks index_vector_dim against the indices' type and returns
// the batch sizes (the indices' shape without that dimension) and the
// length of each index vector.
func indexVector(name string, idx Type, ivd int) (batch []int, vecLen int, err error) {
	if !idx.DType.IsInteger() {
		return nil, 0, fmt.Errorf("%s has type %v, want an integer element type", name, idx)
	}
	if ivd < 0 || ivd > idx.Rank() {
		return nil, 0, fmt.Errorf("index_vector_dim %d is out of range [0, %d] for %s %v", ivd, idx.Rank(), name, idx)
	}
	vecLen = 1
	for d, n := range idx.Shape {
		if d == ivd {
			vecLen = n
		} else {
			batch = append(batch, n)
		}
	}
	return batch, vecLen, nil
}

// checkBatching checks the explicit batching dimensions of gather and
// scatter: operandDims of the operand (sorted, in range) pair with idxDims of
// the indices (unique, in range, not the index vector dimension), size for
// size.
func checkBatching(opName string, opDims []int, op Type, idxName string, idxDims []int, idx Type, ivd int) error {
	if err := dimsSorted(opName, opDims); err != nil {
		return err
	}
	if err := dimsInRange(opName, opDims, op.Rank(), "operand "+op.String()); err != nil {
		return err
	}
	if err := dimsUnique(idxName, idxDims); err != nil {
		return err
	}
	if err := dimsInRange(idxName, idxDims, idx.Rank(), "indices "+idx.String()); err != nil {
		return err
	}
	if hasDim(idxDims, ivd) {
		return fmt.Errorf("%s %v contains index_vector_dim %d", idxName, idxDims, ivd)
	}
	if len(opDims) != len(idxDims) {
		return fmt.Errorf("%s %v and %s %v have different lengths", opName, opDims, idxName, idxDims)
	}
	for i := range opDims {
		if op.Shape[opDims[i]] != idx.Shape[idxDims[i]] {
			return fmt.Errorf("batching dimension sizes differ: operand dim %d is %d, indices dim %d is %d", opDims[i], op.Shape[opDims[i]], idxDims[i], idx.Shape[idxDims[i]])
		}
	}
	return nil
}

func inferGather(args []Type, attr any, _ []*Func) ([]Type, error) {
	op, idx, a := args[0], args[1], attr.(GatherAttr)
	r := op.Rank()
	batch, vecLen, err := indexVector("start_indices", idx, a.IndexVectorDim)
	if err != nil {
		return nil, err
	}
	if len(a.StartIndexMap) != vecLen {
		return nil, fmt.Errorf("start_index_map %v has %d entries, want %d (the index vector length of start_indices %v)", a.StartIndexMap, len(a.StartIndexMap), vecLen, idx)
	}
	if err := dimsUnique("offset_dims", a.OffsetDims); err != nil {
		return nil, err
	}
	if err := dimsSorted("offset_dims", a.OffsetDims); err != nil {
		return nil, err
	}
	if err := dimsSorted("collapsed_slice_dims", a.CollapsedSliceDims); err != nil {
		return nil, err
	}
	if err := dimsInRange("collapsed_slice_dims", a.CollapsedSliceDims, r, "operand "+op.String()); err != nil {
		return nil, err
	}
	if err := dimsUnique("collapsed_slice_dims and operand_batching_dims", a.CollapsedSliceDims, a.OperandBatchingDims); err != nil {
		return nil, err
	}
	if err := checkBatching("operand_batching_dims", a.OperandBatchingDims, op, "start_indices_batching_dims", a.StartIndicesBatchingDims, idx, a.IndexVectorDim); err != nil {
		return nil, err
	}
	if err := dimsInRange("start_index_map", a.StartIndexMap, r, "operand "+op.String()); err != nil {
		return nil, err
	}
	if err := dimsUnique("start_index_map and operand_batching_dims", a.StartIndexMap, a.OperandBatchingDims); err != nil {
		return nil, err
	}
	if len(a.SliceSizes) != r {
		return nil, fmt.Errorf("slice_sizes %v has %d entries, want %d (the rank of operand %v)", a.SliceSizes, len(a.SliceSizes), r, op)
	}
	for i, s := range a.SliceSizes {
		if s < 0 || s > op.Shape[i] {
			return nil, fmt.Errorf("slice_sizes[%d] = %d, want it in [0, %d] (operand %v)", i, s, op.Shape[i], op)
		}
		if (hasDim(a.CollapsedSliceDims, i) || hasDim(a.OperandBatchingDims, i)) && s > 1 {
			return nil, fmt.Errorf("slice_sizes[%d] = %d, want at most 1 for a collapsed or batching dimension", i, s)
		}
	}
	if got := len(a.OffsetDims) + len(a.CollapsedSliceDims) + len(a.OperandBatchingDims); got != r {
		return nil, fmt.Errorf("offset_dims, collapsed_slice_dims and operand_batching_dims have %d entries in all, want %d (the rank of operand %v)", got, r, op)
	}
	var offsets []int
	for i, s := range a.SliceSizes {
		if !hasDim(a.CollapsedSliceDims, i) && !hasDim(a.OperandBatchingDims, i) {
			offsets = append(offsets, s)
		}
	}
	rank := len(batch) + len(offsets)
	if err := dimsInRange("offset_dims", a.OffsetDims, rank, "the result"); err != nil {
		return nil, err
	}
	shape := make([]int, rank)
	bi, oi := 0, 0
	for d := range shape {
		if hasDim(a.OffsetDims, d) {
			shape[d] = offsets[oi]
			oi++
		} else {
			shape[d] = batch[bi]
			bi++
		}
	}
	return []Type{{DType: op.DType, Shape: shape}}, nil
}

func inferScatter(args []Type, attr any, regions []*Func) ([]Type, error) {
	a := attr.(ScatterAttr)
	if len(args)%2 != 1 {
		return nil, fmt.Errorf("has %d operands, want an odd number (N inputs, the indices, N updates)", len(args))
	}
	n := len(args) / 2
	inputs, idx, updates := args[:n], args[n], args[n+1:]
	in0, up0 := inputs[0], updates[0]
	for k := range n {
		if !ShapeEqual(inputs[k].Shape, in0.Shape) {
			return nil, fmt.Errorf("input #%d has type %v, input #0 has %v: want the same shape", k, inputs[k], in0)
		}
		if !ShapeEqual(updates[k].Shape, up0.Shape) {
			return nil, fmt.Errorf("update #%d has type %v, update #0 has %v: want the same shape", k, updates[k], up0)
		}
		if updates[k].DType != inputs[k].DType {
			return nil, fmt.Errorf("update #%d has type %v, want element type %v of input #%d", k, updates[k], inputs[k].DType, k)
		}
	}
	r := in0.Rank()
	scatterSizes, vecLen, err := indexVector("scatter_indices", idx, a.IndexVectorDim)
	if err != nil {
		return nil, err
	}
	if len(a.ScatterDimsToOperandDims) != vecLen {
		return nil, fmt.Errorf("scatter_dims_to_operand_dims %v has %d entries, want %d (the index vector length of scatter_indices %v)", a.ScatterDimsToOperandDims, len(a.ScatterDimsToOperandDims), vecLen, idx)
	}
	if err := dimsUnique("update_window_dims", a.UpdateWindowDims); err != nil {
		return nil, err
	}
	if err := dimsSorted("update_window_dims", a.UpdateWindowDims); err != nil {
		return nil, err
	}
	if err := dimsInRange("update_window_dims", a.UpdateWindowDims, up0.Rank(), "updates "+up0.String()); err != nil {
		return nil, err
	}
	if err := dimsSorted("inserted_window_dims", a.InsertedWindowDims); err != nil {
		return nil, err
	}
	if err := dimsInRange("inserted_window_dims", a.InsertedWindowDims, r, "input "+in0.String()); err != nil {
		return nil, err
	}
	if err := dimsUnique("inserted_window_dims and input_batching_dims", a.InsertedWindowDims, a.InputBatchingDims); err != nil {
		return nil, err
	}
	if err := checkBatching("input_batching_dims", a.InputBatchingDims, in0, "scatter_indices_batching_dims", a.ScatterIndicesBatchingDims, idx, a.IndexVectorDim); err != nil {
		return nil, err
	}
	if err := dimsInRange("scatter_dims_to_operand_dims", a.ScatterDimsToOperandDims, r, "input "+in0.String()); err != nil {
		return nil, err
	}
	if err := dimsUnique("scatter_dims_to_operand_dims and input_batching_dims", a.ScatterDimsToOperandDims, a.InputBatchingDims); err != nil {
		return nil, err
	}
	if got := len(a.UpdateWindowDims) + len(a.InsertedWindowDims) + len(a.InputBatchingDims); got != r {
		return nil, fmt.Errorf("update_window_dims, inserted_window_dims and input_batching_dims have %d entries in all, want %d (the rank of input %v)", got, r, in0)
	}
	// The update window may be smaller than the input in each of the
	// input's dimensions that is neither inserted nor batching.
	var bounds, boundDims []int
	for d, s := range in0.Shape {
		if !hasDim(a.InsertedWindowDims, d) && !hasDim(a.InputBatchingDims, d) {
			bounds = append(bounds, s)
			boundDims = append(boundDims, d)
		}
	}
	if want := len(scatterSizes) + len(a.UpdateWindowDims); up0.Rank() != want {
		return nil, fmt.Errorf("updates %v have rank %d, want %d (%d scatter dimensions and %d window dimensions)", up0, up0.Rank(), want, len(scatterSizes), len(a.UpdateWindowDims))
	}
	si, wi := 0, 0
	for d, s := range up0.Shape {
		if hasDim(a.UpdateWindowDims, d) {
			if s > bounds[wi] {
				return nil, fmt.Errorf("update window dimension %d has size %d, larger than input dimension %d (size %d)", d, s, boundDims[wi], bounds[wi])
			}
			wi++
		} else {
			if s != scatterSizes[si] {
				return nil, fmt.Errorf("update scatter dimension %d has size %d, want %d to match scatter_indices %v", d, s, scatterSizes[si], idx)
			}
			si++
		}
	}
	el := scalarsOf(inputs)
	if _, err := checkRegionSig("update", regions[0], append(copyTypes(el), el...), el); err != nil {
		return nil, err
	}
	return copyTypes(inputs), nil
}

// inferSort follows StableHLO sort: operands of one shape (any element
// types), a dimension in range (Stela takes only the non-negative form),
// and a comparator over one pair of scalars per operand that returns i1[].
func inferSort(args []Type, attr any, regions []*Func) ([]Type, error) {
	a := attr.(SortAttr)
	x := args[0]
	for k, t := range args {
		if !ShapeEqual(t.Shape, x.Shape) {
			return nil, fmt.Errorf("operand #%d has type %v, operand #0 has %v: want the same shape", k, t, x)
		}
	}
	if x.Rank() == 0 {
		return nil, fmt.Errorf("operands are scalars (%v): want rank at least 1", x)
	}
	if a.Dim < 0 || a.Dim >= x.Rank() {
		return nil, fmt.Errorf("dim %d is out of range for operand %v (rank %d)", a.Dim, x, x.Rank())
	}
	pairs := make([]Type, 0, 2*len(args))
	for _, t := range args {
		pairs = append(pairs, Scalar(t.DType), Scalar(t.DType))
	}
	if _, err := checkRegionSig("comparator", regions[0], pairs, []Type{Scalar(Bool)}); err != nil {
		return nil, err
	}
	return copyTypes(args), nil
}

// Control flow and extension.

func inferWhile(args []Type, _ any, regions []*Func) ([]Type, error) {
	if _, err := checkRegionSig("cond", regions[0], args, []Type{Scalar(Bool)}); err != nil {
		return nil, err
	}
	if _, err := checkRegionSig("body", regions[1], args, args); err != nil {
		return nil, err
	}
	return copyTypes(args), nil
}

// inferCase: StableHLO's branches take no arguments and capture values from
// above; Stela's regions are isolated, so the operands after the index are
// passed to every branch instead.
func inferCase(args []Type, _ any, regions []*Func) ([]Type, error) {
	if !args[0].Equal(Scalar(S32)) {
		return nil, fmt.Errorf("index has type %v, want si32[]", args[0])
	}
	var want []Type
	for i, r := range regions {
		results, err := checkRegionSig(fmt.Sprintf("branch #%d", i), r, args[1:], want)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			want = results
		}
	}
	return copyTypes(want), nil
}

func inferCustomCall(_ []Type, attr any, _ []*Func) ([]Type, error) {
	a := attr.(CustomCallAttr)
	if a.Target == "" {
		return nil, fmt.Errorf("empty call target")
	}
	return copyTypes(a.ResultTypes), nil
}

func inferComposite(args []Type, attr any, regions []*Func) ([]Type, error) {
	a := attr.(CompositeAttr)
	if a.Name == "" {
		return nil, fmt.Errorf("empty composite name")
	}
	results, err := checkRegionSig("decomposition", regions[0], args, nil)
	if err != nil {
		return nil, err
	}
	return copyTypes(results), nil
}

// inferReducePrecision adds reduce_precision's attribute constraints
// (exponent_bits >= 1, mantissa_bits >= 0) to the float-only unary rule. The
// op table entry must name it to take effect.
func inferReducePrecision(args []Type, attr any, regions []*Func) ([]Type, error) {
	a := attr.(ReducePrecisionAttr)
	if a.ExponentBits < 1 || a.MantissaBits < 0 {
		return nil, fmt.Errorf("exponent_bits %d and mantissa_bits %d: want at least 1 and at least 0", a.ExponentBits, a.MantissaBits)
	}
	return inferUnary(FloatOnly)(args, attr, regions)
}
