package ir

import (
	"cmp"
	"fmt"
	"math"
	mbits "math/bits"
	"math/cmplx"
	"reflect"
)

// Reference evaluation of constant, iota and the elementwise ops.
//
// Every element is widened to an exact representation of its kind (bool,
// int64, uint64, float64 or complex128; see literal_convert.go), the op is
// computed there, and the result is wrapped (integers, modulo 2^bits) or
// rounded once to nearest even (floats) back into the element type.
//
// For f16, bf16 and f32 this rounds twice: first to float64, then to the
// type. For +, -, ×, ÷ and sqrt that is harmless: when the wide format has
// at least 2p+2 significand bits for a narrow format with p, rounding the
// wide result again gives the correctly rounded narrow result (Figueroa,
// "When is double rounding innocuous?", SIGNUM 1995). float64 has 53 bits;
// f32 needs 2·24+2 = 50, f16 2·11+2 = 24, bf16 2·8+2 = 18. remainder is
// exact in any format. rsqrt is computed correctly rounded in the type
// itself (eval_rsqrt.go), where 1/sqrt(x) would round twice. The
// transcendental functions are not correctly rounded by Go's math package
// either; their results are within an ulp or so, and tests compare them
// with LiteralsClose.

// elemTraits holds the op table's traits. The evaluation functions consult
// it instead of Op.Info because opTable refers to them, and a reference
// back to opTable from their bodies would be an initialization cycle.
var elemTraits [numOps]Trait

func init() {
	for i := range opTable {
		elemTraits[i] = opTable[i].Traits
	}
}

// checkEvalKind rejects an element type that the op's traits do not allow.
func checkEvalKind(op Op, d DType) error {
	if int(op) >= len(elemTraits) {
		return fmt.Errorf("unknown op %v", op)
	}
	if !d.valid() {
		return fmt.Errorf("invalid element type %v", d)
	}
	return checkElemKind(Scalar(d), elemTraits[op])
}

// checkEvalResult compares the type the evaluator computed with the result type
// the instruction records (when it has results: tests may build bare
// instructions).
func checkEvalResult(in *Instr, t Type) error {
	if len(in.Results) == 0 || in.Results[0] == nil {
		return nil
	}
	if !in.Results[0].Type.Equal(t) {
		return fmt.Errorf("internal error: result type %v, but evaluation gives %v", in.Results[0].Type, t)
	}
	return nil
}

func checkEvalArgs(in *Instr, args []*Literal, n int) error {
	if len(args) != n {
		return fmt.Errorf("%d operands, want %d", len(args), n)
	}
	for i, a := range args {
		if a == nil {
			return fmt.Errorf("operand #%d is nil", i)
		}
		et := GoElemType(a.Type.DType)
		if et == nil || reflect.TypeOf(a.Data) != reflect.SliceOf(et) {
			return fmt.Errorf("operand #%d of type %v holds %T", i, a.Type, a.Data)
		}
		if a.Len() != a.Type.NumElements() {
			return fmt.Errorf("operand #%d has %d elements for type %v", i, a.Len(), a.Type)
		}
	}
	return nil
}

func oneResult(in *Instr, l *Literal) ([]*Literal, error) {
	if err := checkEvalResult(in, l.Type); err != nil {
		return nil, err
	}
	return []*Literal{l}, nil
}

func evalConstant(in *Instr, args []*Literal) ([]*Literal, error) {
	a, ok := in.Attr.(ConstantAttr)
	if !ok || a.Value == nil {
		return nil, fmt.Errorf("missing value")
	}
	if err := checkEvalArgs(in, args, 0); err != nil {
		return nil, err
	}
	// A copy, so that a caller who mutates a result cannot change the
	// program's constant.
	return oneResult(in, a.Value.Clone())
}

func evalIota(in *Instr, args []*Literal) ([]*Literal, error) {
	a, ok := in.Attr.(IotaAttr)
	if !ok {
		return nil, fmt.Errorf("attribute is %T, want IotaAttr", in.Attr)
	}
	if err := checkEvalArgs(in, args, 0); err != nil {
		return nil, err
	}
	t := a.Type
	if !t.DType.valid() || !t.IsStatic() {
		return nil, fmt.Errorf("invalid type %v", t)
	}
	if a.Dim < 0 || a.Dim >= t.Rank() {
		return nil, fmt.Errorf("dim %d out of range for %v", a.Dim, t)
	}
	if t.DType == Bool {
		return nil, fmt.Errorf("element type i1 is not supported")
	}
	n := t.NumElements()
	vals := make([]int64, n)
	stride := Strides(t.Shape)[a.Dim]
	for i := range vals {
		vals[i] = int64(i / stride % t.Shape[a.Dim])
	}
	// Integers wrap (an si8 iota longer than 128 wraps, as the values
	// are computed in the type); floats round to nearest.
	return oneResult(in, LiteralFromInt64s(Type{DType: t.DType, Shape: append([]int{}, t.Shape...)}, vals))
}

// Unary ops.

func evalUnary(in *Instr, args []*Literal) ([]*Literal, error) {
	if err := checkEvalArgs(in, args, 1); err != nil {
		return nil, err
	}
	x := args[0]
	d := x.Type.DType
	op := in.Op
	if err := checkEvalKind(op, d); err != nil {
		return nil, err
	}
	shape := append([]int{}, x.Type.Shape...)
	var out *Literal
	switch {
	case op == OpReducePrecision:
		a, ok := in.Attr.(ReducePrecisionAttr)
		if !ok {
			return nil, fmt.Errorf("attribute is %T, want ReducePrecisionAttr", in.Attr)
		}
		if a.ExponentBits < 1 || a.MantissaBits < 0 {
			return nil, fmt.Errorf("exponent_bits %d and mantissa_bits %d: want >= 1 and >= 0", a.ExponentBits, a.MantissaBits)
		}
		out = Zeros(TensorOf(d, shape...))
		for i := range x.Len() {
			out.SetElem(i, reducePrecisionElem(d, x.Elem(i), a.ExponentBits, a.MantissaBits))
		}
	case d == Bool:
		if op != OpNot {
			return nil, errNoKernel(op, d)
		}
		vals := x.Bools()
		for i, v := range vals {
			vals[i] = !v // not is the only unary op on i1
		}
		out = LiteralFromBools(TensorOf(d, shape...), vals)
	case d.IsSigned():
		f := signedUnary(op, d)
		if f == nil {
			return nil, errNoKernel(op, d)
		}
		vals := x.Int64s()
		for i, v := range vals {
			vals[i] = f(v)
		}
		out = LiteralFromInt64s(TensorOf(d, shape...), vals)
	case d.IsUnsigned():
		f := unsignedUnary(op, d)
		if f == nil {
			return nil, errNoKernel(op, d)
		}
		vals := x.Uint64s()
		for i, v := range vals {
			vals[i] = f(v)
		}
		out = LiteralFromUint64s(TensorOf(d, shape...), vals)
	case d.IsFloat():
		vals := x.Float64s()
		switch op {
		case OpIsFinite:
			ok := make([]bool, len(vals))
			for i, v := range vals {
				ok[i] = !math.IsInf(v, 0) && !math.IsNaN(v)
			}
			out = LiteralFromBools(TensorOf(Bool, shape...), ok)
		case OpReal:
			out = x.Clone()
		case OpImag:
			out = Zeros(TensorOf(d, shape...))
		default:
			f := floatUnary(op, d)
			if f == nil {
				return nil, errNoKernel(op, d)
			}
			for i, v := range vals {
				vals[i] = f(v)
			}
			out = LiteralFromFloat64s(TensorOf(d, shape...), vals)
		}
	case d.IsComplex():
		vals := x.Complex128s()
		part := d.ComplexPart()
		switch op {
		case OpAbs, OpReal, OpImag:
			r := make([]float64, len(vals))
			for i, v := range vals {
				switch op {
				case OpAbs:
					r[i] = cmplx.Abs(v)
				case OpReal:
					r[i] = real(v)
				default:
					r[i] = imag(v)
				}
			}
			out = LiteralFromFloat64s(TensorOf(part, shape...), r)
		default:
			f := complexUnary(op)
			if f == nil {
				return nil, errNoKernel(op, d)
			}
			for i, v := range vals {
				vals[i] = f(v)
			}
			out = LiteralFromComplex128s(TensorOf(d, shape...), vals)
		}
	}
	if out == nil {
		return nil, fmt.Errorf("element type %v is not supported", d)
	}
	return oneResult(in, out)
}

func errNoKernel(op Op, d DType) error {
	return fmt.Errorf("internal error: no evaluation kernel for %v on element type %v", op, d)
}

// widthMask is the all-ones value of d's width.
func widthMask(d DType) uint64 {
	if d.Bits() >= 64 {
		return math.MaxUint64
	}
	return 1<<d.Bits() - 1
}

// signedUnary: operands are sign-extended int64 values of type d; results
// are wrapped to d by the caller.
func signedUnary(op Op, d DType) func(int64) int64 {
	switch op {
	case OpAbs:
		return func(x int64) int64 {
			if x < 0 {
				return -x // |INT_MIN| wraps to INT_MIN
			}
			return x
		}
	case OpNegate:
		return func(x int64) int64 { return -x }
	case OpSign:
		return func(x int64) int64 {
			switch {
			case x < 0:
				return -1
			case x > 0:
				return 1
			}
			return 0
		}
	case OpNot:
		return func(x int64) int64 { return ^x }
	case OpPopcnt:
		return func(x int64) int64 { return int64(mbits.OnesCount64(uint64(x) & widthMask(d))) }
	case OpClz:
		return func(x int64) int64 { return int64(d.Bits() - mbits.Len64(uint64(x)&widthMask(d))) }
	}
	return nil // the caller reports the missing kernel
}

func unsignedUnary(op Op, d DType) func(uint64) uint64 {
	switch op {
	case OpAbs:
		return func(x uint64) uint64 { return x }
	case OpNegate:
		return func(x uint64) uint64 { return -x } // two's complement, wrapped
	case OpSign:
		return func(x uint64) uint64 { return min(x, 1) }
	case OpNot:
		return func(x uint64) uint64 { return ^x }
	case OpPopcnt:
		return func(x uint64) uint64 { return uint64(mbits.OnesCount64(x & widthMask(d))) }
	case OpClz:
		return func(x uint64) uint64 { return uint64(d.Bits() - mbits.Len64(x&widthMask(d))) }
	}
	return nil // the caller reports the missing kernel
}

// floatUnary is the kernel of op on float values of type d (widened to
// float64; the caller rounds the results to d).
func floatUnary(op Op, d DType) func(float64) float64 {
	switch op {
	case OpAbs:
		return math.Abs
	case OpNegate:
		return func(x float64) float64 { return -x }
	case OpSign:
		return func(x float64) float64 {
			if x != x || x == 0 {
				return x // NaN stays NaN, ±0 stays ±0
			}
			return math.Copysign(1, x)
		}
	case OpExp:
		return math.Exp
	case OpExpm1:
		return math.Expm1
	case OpLog:
		return logF64
	case OpLog1p:
		return math.Log1p
	case OpLogistic:
		return logisticF64
	case OpSqrt:
		return math.Sqrt
	case OpRsqrt:
		// Correctly rounded in d itself (eval_rsqrt.go), so that the
		// caller's rounding to d is exact.
		return func(x float64) float64 { return rsqrtRounded(d, x) }
	case OpCbrt:
		return math.Cbrt
	case OpTanh:
		return math.Tanh
	case OpSine:
		return math.Sin
	case OpCosine:
		return math.Cos
	case OpTan:
		return math.Tan
	case OpErf:
		return math.Erf
	case OpFloor:
		return math.Floor
	case OpCeil:
		return math.Ceil
	case OpRoundNearestAfz:
		return math.Round // ties away from zero
	case OpRoundNearestEven:
		return math.RoundToEven
	}
	return nil // the caller reports the missing kernel
}

// logisticF64 is 1/(1+e^-x), written so that neither branch overflows to a
// NaN: e^-x is at most 1 for x >= 0, and e^x at most 1 for x < 0.
func logisticF64(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

func complexUnary(op Op) func(complex128) complex128 {
	switch op {
	case OpNegate:
		return func(z complex128) complex128 { return complex(-real(z), -imag(z)) }
	case OpSign:
		return complexSign
	case OpExp:
		return complexExp
	case OpExpm1:
		return complexExpm1
	case OpLog:
		return complexLog
	case OpLog1p:
		return complexLog1p
	case OpLogistic:
		return func(z complex128) complex128 { return 1 / (1 + cmplx.Exp(-z)) }
	case OpSqrt:
		return cmplx.Sqrt
	case OpRsqrt:
		// Complex numbers have no IEEE 754 rSqrt: 1/√z, rounded twice.
		return func(z complex128) complex128 { return 1 / cmplx.Sqrt(z) }
	case OpCbrt:
		return complexCbrt
	case OpTanh:
		return cmplx.Tanh
	case OpSine:
		return cmplx.Sin
	case OpCosine:
		return cmplx.Cos
	case OpTan:
		return cmplx.Tan
	}
	return nil // the caller reports the missing kernel
}

// complexSign follows the specification: (NaN, NaN) if a part is NaN, 0 for
// 0, else z/|z|.
func complexSign(z complex128) complex128 {
	re, im := real(z), imag(z)
	if re != re || im != im {
		return complex(math.NaN(), math.NaN())
	}
	if z == 0 {
		return 0
	}
	a := cmplx.Abs(z)
	return complex(re/a, im/a)
}

// complexExpm1 is e^z - 1 without cancellation near 0:
// e^(a+bi) - 1 = (e^a cos b - 1) + i e^a sin b, and
// e^a cos b - 1 = expm1(a) cos b - 2 sin²(b/2).
func complexExpm1(z complex128) complex128 {
	a, b := real(z), imag(z)
	s := math.Sin(b / 2)
	re := math.Expm1(a)*math.Cos(b) - 2*s*s
	if b == 0 {
		re = math.Expm1(a) // exact form for real z; also keeps Inf - Inf out
	}
	return complex(re, math.Exp(a)*math.Sin(b))
}

// complexLog1p is log(1 + z) without cancellation near 0:
// |1+z|² = 1 + (2a + a² + b²), so log|1+z| = log1p(a(2+a) + b²)/2.
func complexLog1p(z complex128) complex128 {
	a, b := real(z), imag(z)
	im := math.Atan2(b, 1+a)
	if math.Abs(a) < 1e150 && math.Abs(b) < 1e150 {
		return complex(math.Log1p(a*(2+a)+b*b)/2, im)
	}
	return complex(math.Log(math.Hypot(1+a, b)), im)
}

// complexCbrt is the principal cube root |z|^(1/3) e^(i arg(z)/3).
func complexCbrt(z complex128) complex128 {
	if z == 0 {
		return z
	}
	return cmplx.Rect(math.Cbrt(cmplx.Abs(z)), cmplx.Phase(z)/3)
}

// reducePrecisionElem rounds a float element to a format with expBits
// exponent and mantBits mantissa bits and back, on the bits of d, exactly
// as XLA does: round the mantissa to nearest even (a carry may bump the
// exponent), then flush values whose exponent is too small to ±0 (there are
// no subnormals in the reduced format) and too large to ±Inf. NaN stays
// unchanged, except that with no mantissa bits it becomes +Inf (a format
// without mantissa bits has no NaN).
func reducePrecisionElem(d DType, v any, expBits, mantBits int) any {
	if _, ok := narrowFormats[d]; ok {
		// The f8, f6 and f4 types: widened to f32 exactly, reduced there,
		// and rounded back with the format's rules (the code generator's
		// way too).
		r := reducePrecisionElem(F32, float32(narrowToFloat64(d, v)), expBits, mantBits)
		return FromFloat64(d, float64(r.(float32)))
	}
	srcExp, srcMant := dtypeFloatFormat(d)
	nbits := uint(d.Bits())
	x := ElemBits(d, v)
	signMask := uint64(1) << (nbits - 1)
	expMask := (uint64(1)<<srcExp - 1) << srcMant
	isNaN := x&^signMask > expMask
	if mantBits < srcMant {
		shift := uint(srcMant - mantBits)
		last := uint64(1) << shift
		bias := last>>1 - 1 + (x&last)>>shift
		x = (x + bias) &^ (last - 1)
	}
	if expBits < srcExp {
		bias := uint64(1)<<(srcExp-1) - 1
		reducedBias := uint64(1)<<(expBits-1) - 1
		maxExp, minExp := bias+reducedBias, bias-reducedBias
		e := x & expMask
		switch {
		case e > maxExp<<srcMant:
			x = x&signMask | expMask // ±Inf
		case e <= minExp<<srcMant:
			x &= signMask // ±0
		}
	}
	if nbits < 64 {
		x &= 1<<nbits - 1
	}
	if isNaN {
		if mantBits > 0 {
			return v
		}
		return FromFloat64(d, math.Inf(1))
	}
	return ElemFromBits(d, x)
}

// Binary ops.

func evalBinary(in *Instr, args []*Literal) ([]*Literal, error) {
	if err := checkEvalArgs(in, args, 2); err != nil {
		return nil, err
	}
	x, y := args[0], args[1]
	if !x.Type.Equal(y.Type) {
		return nil, fmt.Errorf("operand types %v and %v differ", x.Type, y.Type)
	}
	d := x.Type.DType
	op := in.Op
	shape := append([]int{}, x.Type.Shape...)
	if op == OpComplex {
		c := ComplexOf(d)
		if c == InvalidDType {
			return nil, fmt.Errorf("element type %v: want f32 or f64", d)
		}
		a, b := x.Float64s(), y.Float64s()
		vals := make([]complex128, len(a))
		for i := range a {
			vals[i] = complex(a[i], b[i])
		}
		return oneResult(in, LiteralFromComplex128s(TensorOf(c, shape...), vals))
	}
	if err := checkEvalKind(op, d); err != nil {
		return nil, err
	}
	t := TensorOf(d, shape...)
	var out *Literal
	var ok bool
	switch {
	case d == Bool:
		out, ok = zipLiteral(x.Bools(), y.Bools(), boolBinary(op), t, LiteralFromBools)
	case d.IsSigned():
		out, ok = zipLiteral(x.Int64s(), y.Int64s(), signedBinary(op, d), t, LiteralFromInt64s)
	case d.IsUnsigned():
		out, ok = zipLiteral(x.Uint64s(), y.Uint64s(), unsignedBinary(op, d), t, LiteralFromUint64s)
	case d.IsFloat():
		out, ok = zipLiteral(x.Float64s(), y.Float64s(), floatBinary(op), t, LiteralFromFloat64s)
	case d.IsComplex():
		out, ok = zipLiteral(x.Complex128s(), y.Complex128s(), complexBinary(op), t, LiteralFromComplex128s)
	default:
		return nil, fmt.Errorf("element type %v is not supported", d)
	}
	if !ok {
		return nil, errNoKernel(op, d)
	}
	return oneResult(in, out)
}

// zipLiteral applies a binary kernel elementwise, in the widened Go type
// of the element kind, and builds the result literal; ok is false when
// the op has no kernel for the kind (f is nil).
func zipLiteral[T any](a, b []T, f func(T, T) T, t Type, build func(Type, []T) *Literal) (*Literal, bool) {
	if f == nil {
		return nil, false
	}
	for i := range a {
		a[i] = f(a[i], b[i])
	}
	return build(t, a), true
}

func boolBinary(op Op) func(a, b bool) bool {
	switch op {
	case OpAdd, OpOr, OpMaximum:
		return func(a, b bool) bool { return a || b }
	case OpMultiply, OpAnd, OpMinimum:
		return func(a, b bool) bool { return a && b }
	case OpXor:
		return func(a, b bool) bool { return a != b }
	}
	return nil // the caller reports the missing kernel
}

// shiftAmount reads a shift count as an unsigned value of d's width, as
// XLA does: a negative count is a huge one.
func shiftAmount(d DType, y uint64) uint64 { return y & widthMask(d) }

// signedBinary: operands are sign-extended int64 values of type d; the
// caller wraps the result to d. Arithmetic in int64 wraps modulo 2^64, which
// agrees with wrapping modulo 2^bits afterwards.
func signedBinary(op Op, d DType) func(a, b int64) int64 {
	n := uint64(d.Bits())
	switch op {
	case OpAdd:
		return func(a, b int64) int64 { return a + b }
	case OpSubtract:
		return func(a, b int64) int64 { return a - b }
	case OpMultiply:
		return func(a, b int64) int64 { return a * b }
	case OpDivide:
		return func(a, b int64) int64 {
			if b == 0 {
				return -1 // all ones, as XLA
			}
			// INT_MIN / -1 overflows to INT_MIN: in int64 for the narrow
			// types (then wrapped), and by Go's rule for si64.
			return a / b
		}
	case OpRemainder:
		return func(a, b int64) int64 {
			if b == 0 {
				return a
			}
			return a % b // sign of a; INT_MIN % -1 is 0 in Go
		}
	case OpPower:
		return powSigned
	case OpMaximum:
		return func(a, b int64) int64 { return max(a, b) }
	case OpMinimum:
		return func(a, b int64) int64 { return min(a, b) }
	case OpAnd:
		return func(a, b int64) int64 { return a & b }
	case OpOr:
		return func(a, b int64) int64 { return a | b }
	case OpXor:
		return func(a, b int64) int64 { return a ^ b }
	case OpShiftLeft:
		return func(a, b int64) int64 {
			if s := shiftAmount(d, uint64(b)); s < n {
				return a << s
			}
			return 0
		}
	case OpShiftRightArithmetic:
		return func(a, b int64) int64 {
			if s := shiftAmount(d, uint64(b)); s < n {
				return a >> s // a is sign-extended, so this fills with the sign
			}
			return a >> 63
		}
	case OpShiftRightLogical:
		return func(a, b int64) int64 {
			if s := shiftAmount(d, uint64(b)); s < n {
				return int64(uint64(a) & widthMask(d) >> s)
			}
			return 0
		}
	}
	return nil // the caller reports the missing kernel
}

func unsignedBinary(op Op, d DType) func(a, b uint64) uint64 {
	n := uint64(d.Bits())
	// signExtend reads the bits of an unsigned value as a signed one of
	// d's width, for the arithmetic shift.
	signExtend := func(a uint64) int64 { return int64(a<<(64-n)) >> (64 - n) }
	switch op {
	case OpAdd:
		return func(a, b uint64) uint64 { return a + b }
	case OpSubtract:
		return func(a, b uint64) uint64 { return a - b }
	case OpMultiply:
		return func(a, b uint64) uint64 { return a * b }
	case OpDivide:
		return func(a, b uint64) uint64 {
			if b == 0 {
				return math.MaxUint64 // all ones (wrapped to the width)
			}
			return a / b
		}
	case OpRemainder:
		return func(a, b uint64) uint64 {
			if b == 0 {
				return a
			}
			return a % b
		}
	case OpPower:
		return powUnsigned
	case OpMaximum:
		return func(a, b uint64) uint64 { return max(a, b) }
	case OpMinimum:
		return func(a, b uint64) uint64 { return min(a, b) }
	case OpAnd:
		return func(a, b uint64) uint64 { return a & b }
	case OpOr:
		return func(a, b uint64) uint64 { return a | b }
	case OpXor:
		return func(a, b uint64) uint64 { return a ^ b }
	case OpShiftLeft:
		return func(a, b uint64) uint64 {
			if s := shiftAmount(d, b); s < n {
				return a << s
			}
			return 0
		}
	case OpShiftRightArithmetic:
		return func(a, b uint64) uint64 {
			if s := shiftAmount(d, b); s < n {
				return uint64(signExtend(a) >> s)
			}
			return uint64(signExtend(a) >> 63)
		}
	case OpShiftRightLogical:
		return func(a, b uint64) uint64 {
			if s := shiftAmount(d, b); s < n {
				return a >> s
			}
			return 0
		}
	}
	return nil // the caller reports the missing kernel
}

// powSigned is a^b by repeated squaring, wrapping. For b < 0 the result is
// the integer part of 1/a^|b|: 1 for a = 1, ±1 for a = -1 (by the parity of
// b), otherwise 0 (including a = 0).
func powSigned(a, b int64) int64 {
	if b < 0 {
		switch a {
		case 1:
			return 1
		case -1:
			if b&1 != 0 {
				return -1
			}
			return 1
		}
		return 0
	}
	return int64(powUnsigned(uint64(a), uint64(b)))
}

// powUnsigned is a^b modulo 2^64 by repeated squaring (0^0 = 1).
func powUnsigned(a, b uint64) uint64 {
	r := uint64(1)
	for b > 0 {
		if b&1 != 0 {
			r *= a
		}
		a *= a
		b >>= 1
	}
	return r
}

func floatBinary(op Op) func(a, b float64) float64 {
	switch op {
	case OpAdd:
		return func(a, b float64) float64 { return a + b }
	case OpSubtract:
		return func(a, b float64) float64 { return a - b }
	case OpMultiply:
		return func(a, b float64) float64 { return a * b }
	case OpDivide:
		return func(a, b float64) float64 { return a / b }
	case OpRemainder:
		return math.Mod // fmod: exact, sign of a
	case OpPower:
		return math.Pow // C pow special cases: pow(x, ±0) = 1, pow(1, y) = 1
	case OpMaximum:
		return floatMax
	case OpMinimum:
		return floatMin
	case OpAtan2:
		// atan2(lhs, rhs): lhs is y. The result has y's sign; Go's
		// math.Atan2 loses it when y/x underflows to zero with x < 0.
		return func(y, x float64) float64 {
			r := math.Atan2(y, x)
			if r == r {
				r = math.Copysign(r, y)
			}
			return r
		}
	}
	return nil // the caller reports the missing kernel
}

// floatMax is IEEE 754-2019 maximum: NaN if either operand is NaN, and
// +0 > -0.
func floatMax(a, b float64) float64 {
	switch {
	case a != a:
		return a
	case b != b:
		return b
	case a == b:
		if math.Signbit(a) {
			return b // max(-0, +0) = +0; otherwise a and b are identical
		}
		return a
	case a > b:
		return a
	}
	return b
}

// floatMin is IEEE 754-2019 minimum: NaN if either operand is NaN, and
// -0 < +0.
func floatMin(a, b float64) float64 {
	switch {
	case a != a:
		return a
	case b != b:
		return b
	case a == b:
		if math.Signbit(a) {
			return a
		}
		return b
	case a < b:
		return a
	}
	return b
}

func complexHasNaN(z complex128) bool { return real(z) != real(z) || imag(z) != imag(z) }

// complexLess orders complex numbers lexicographically by (real, imag),
// as the specification defines maximum, minimum and ordered compares.
func complexLess(a, b complex128) bool {
	return real(a) < real(b) || real(a) == real(b) && imag(a) < imag(b)
}

func complexBinary(op Op) func(a, b complex128) complex128 {
	switch op {
	case OpAdd:
		return func(a, b complex128) complex128 { return a + b }
	case OpSubtract:
		return func(a, b complex128) complex128 { return a - b }
	case OpMultiply:
		return func(a, b complex128) complex128 { return a * b }
	case OpDivide:
		return func(a, b complex128) complex128 { return a / b }
	case OpPower:
		return cmplx.Pow
	case OpMaximum, OpMinimum:
		// Lexicographic; an operand with a NaN part wins, as NaN does for
		// floats.
		isMax := op == OpMaximum
		return func(a, b complex128) complex128 {
			switch {
			case complexHasNaN(a):
				return a
			case complexHasNaN(b):
				return b
			case complexLess(a, b) == isMax:
				return b
			}
			return a
		}
	case OpAtan2:
		// atan2(y, x) = -i log((x + iy) / sqrt(x² + y²)), which is the real
		// atan2 for real operands.
		return func(y, x complex128) complex128 {
			return -1i * cmplx.Log((x+1i*y)/cmplx.Sqrt(x*x+y*y))
		}
	}
	return nil // the caller reports the missing kernel
}

// compare.

func evalCompare(in *Instr, args []*Literal) ([]*Literal, error) {
	if err := checkEvalArgs(in, args, 2); err != nil {
		return nil, err
	}
	a, ok := in.Attr.(CompareAttr)
	if !ok {
		return nil, fmt.Errorf("attribute is %T, want CompareAttr", in.Attr)
	}
	x, y := args[0], args[1]
	if !x.Type.Equal(y.Type) {
		return nil, fmt.Errorf("operand types %v and %v differ", x.Type, y.Type)
	}
	d := x.Type.DType
	ct, err := compareType(d, a.Type)
	if err != nil {
		return nil, err
	}
	if a.Direction > CmpLT {
		return nil, fmt.Errorf("invalid comparison direction %d", a.Direction)
	}
	// order gives -1, 0, +1, or 2 for unordered (a NaN under FLOAT).
	var order func(i int) int
	switch {
	case ct == CmpSigned:
		p, q := x.Int64s(), y.Int64s()
		order = func(i int) int { return cmp.Compare(p[i], q[i]) }
	case ct == CmpUnsigned:
		p, q := x.Uint64s(), y.Uint64s()
		order = func(i int) int { return cmp.Compare(p[i], q[i]) }
	case ct == CmpTotalOrder:
		order = func(i int) int {
			return cmp.Compare(totalOrderKey(d, x.Elem(i)), totalOrderKey(d, y.Elem(i)))
		}
	case d.IsComplex():
		p, q := x.Complex128s(), y.Complex128s()
		order = func(i int) int {
			if complexHasNaN(p[i]) || complexHasNaN(q[i]) {
				return 2
			}
			if r := cmp.Compare(real(p[i]), real(q[i])); r != 0 {
				return r
			}
			return cmp.Compare(imag(p[i]), imag(q[i]))
		}
	default: // FLOAT on a real float type
		p, q := x.Float64s(), y.Float64s()
		order = func(i int) int {
			if p[i] != p[i] || q[i] != q[i] {
				return 2
			}
			return cmp.Compare(p[i], q[i]) // -0 == +0
		}
	}
	res := make([]bool, x.Len())
	for i := range res {
		c := order(i)
		switch a.Direction {
		case CmpEQ:
			res[i] = c == 0
		case CmpNE:
			res[i] = c != 0 // unordered is not equal
		case CmpGE:
			res[i] = c == 0 || c == 1
		case CmpGT:
			res[i] = c == 1
		case CmpLE:
			res[i] = c == 0 || c == -1
		case CmpLT:
			res[i] = c == -1
		}
	}
	return oneResult(in, LiteralFromBools(TensorOf(Bool, append([]int{}, x.Type.Shape...)...), res))
}

// compareType resolves NOTYPE to the element type's default and checks the
// combination against the specification: SIGNED for signed integers,
// UNSIGNED for unsigned integers and i1, FLOAT or TOTALORDER for floats,
// FLOAT for complex.
func compareType(d DType, t ComparisonType) (ComparisonType, error) {
	var def ComparisonType
	switch {
	case d.IsSigned():
		def = CmpSigned
	case d.IsUnsigned() || d == Bool:
		def = CmpUnsigned
	case d.IsFloat() || d.IsComplex():
		def = CmpFloat
	default:
		return 0, fmt.Errorf("invalid element type %v", d)
	}
	switch {
	case t == CmpNoType || t == def:
		return def, nil
	case t == CmpTotalOrder && d.IsFloat():
		return CmpTotalOrder, nil
	}
	return 0, fmt.Errorf("comparison type %v is not valid for element type %v", t, d)
}

// totalOrderKey maps a float element to an integer whose order is IEEE
// 754's totalOrder: -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN (NaNs
// by payload). It works on the element's own bits, so payloads and
// signaling NaNs order exactly.
func totalOrderKey(d DType, v any) int64 {
	b := ElemBits(d, v)
	if d == F8E8M0FNU {
		return int64(b) // no sign: the exponents in order, NaN last
	}
	sign := uint64(1) << (d.Bits() - 1)
	mag := int64(b &^ sign)
	if b&sign != 0 {
		return -mag - 1 // -0 → -1, just below +0 → 0
	}
	return mag
}

// select and clamp.

func evalSelect(in *Instr, args []*Literal) ([]*Literal, error) {
	if err := checkEvalArgs(in, args, 3); err != nil {
		return nil, err
	}
	pred, onTrue, onFalse := args[0], args[1], args[2]
	if pred.Type.DType != Bool {
		return nil, fmt.Errorf("pred has type %v, want element type i1", pred.Type)
	}
	if !onTrue.Type.Equal(onFalse.Type) {
		return nil, fmt.Errorf("on_true type %v and on_false type %v differ", onTrue.Type, onFalse.Type)
	}
	if pred.Type.Rank() != 0 && !ShapeEqual(pred.Type.Shape, onTrue.Type.Shape) {
		return nil, fmt.Errorf("pred has type %v, want a scalar or the shape of on_true %v", pred.Type, onTrue.Type)
	}
	p := pred.Bools()
	out := onFalse.Clone()
	for i := range out.Len() {
		if p[min(i, len(p)-1)] { // a scalar pred has one element
			out.CopyElem(i, onTrue, i)
		}
	}
	return oneResult(in, out)
}

func evalClamp(in *Instr, args []*Literal) ([]*Literal, error) {
	if err := checkEvalArgs(in, args, 3); err != nil {
		return nil, err
	}
	lo, x, hi := args[0], args[1], args[2]
	d := x.Type.DType
	for _, b := range []struct {
		name string
		l    *Literal
	}{{"min", lo}, {"max", hi}} {
		if b.l.Type.DType != d {
			return nil, fmt.Errorf("%s has type %v, want element type %v of operand %v", b.name, b.l.Type, d, x.Type)
		}
		if b.l.Type.Rank() != 0 && !ShapeEqual(b.l.Type.Shape, x.Type.Shape) {
			return nil, fmt.Errorf("%s has type %v, want a scalar or the shape of operand %v", b.name, b.l.Type, x.Type)
		}
	}
	// clamp = minimum(maximum(x, lo), hi), with those ops' semantics (NaN
	// propagates); bounds of rank 0 are broadcast first.
	bcast := func(b *Literal) *Literal {
		if b.Type.Rank() != 0 || x.Type.Rank() == 0 {
			return b
		}
		out := Zeros(x.Type)
		for i := range out.Len() {
			out.CopyElem(i, b, 0)
		}
		return out
	}
	t := x.Type
	step, err := evalBinary(&Instr{Op: OpMaximum}, []*Literal{x, bcast(lo)})
	if err != nil {
		return nil, err
	}
	res, err := evalBinary(&Instr{Op: OpMinimum}, []*Literal{step[0], bcast(hi)})
	if err != nil {
		return nil, err
	}
	res[0].Type = Type{DType: t.DType, Shape: append([]int{}, t.Shape...)}
	return oneResult(in, res[0])
}

// convert and bitcast_convert.

func evalConvert(in *Instr, args []*Literal) ([]*Literal, error) {
	if err := checkEvalArgs(in, args, 1); err != nil {
		return nil, err
	}
	a, ok := in.Attr.(ConvertAttr)
	if !ok {
		return nil, fmt.Errorf("attribute is %T, want ConvertAttr", in.Attr)
	}
	if !a.To.valid() {
		return nil, fmt.Errorf("invalid target element type %v", a.To)
	}
	// As the type rule: complex → real would silently drop the imaginary
	// part (ConvertElem defines it as the real part, for other uses).
	if args[0].Type.DType.IsComplex() && !a.To.IsComplex() {
		return nil, fmt.Errorf("complex → %v is not defined; take real or imag first", a.To)
	}
	return oneResult(in, ConvertLiteral(args[0], a.To))
}

// evalBitcastConvert reinterprets the operand's bits. The bits of all
// elements form one little-endian stream (element 0 in the least
// significant bits; i1 is one bit, as the type rule counts it), which is
// cut into elements of the target width. Equal widths map element to
// element; a narrower target splits each element into a trailing
// dimension; a wider target joins the trailing dimension.
func evalBitcastConvert(in *Instr, args []*Literal) ([]*Literal, error) {
	if err := checkEvalArgs(in, args, 1); err != nil {
		return nil, err
	}
	a, ok := in.Attr.(BitcastConvertAttr)
	if !ok {
		return nil, fmt.Errorf("attribute is %T, want BitcastConvertAttr", in.Attr)
	}
	x := args[0]
	from, to := x.Type.DType, a.To
	if !to.valid() {
		return nil, fmt.Errorf("invalid target element type %v", to)
	}
	if from.IsComplex() != to.IsComplex() {
		return nil, fmt.Errorf("bitcast between complex and non-complex types (%v → %v) is not allowed", from, to)
	}
	fw, tw := from.Bits(), to.Bits()
	var shape []int
	switch {
	case fw == tw:
		shape = append([]int{}, x.Type.Shape...)
	case tw < fw:
		shape = append(append([]int{}, x.Type.Shape...), fw/tw)
	default:
		r := x.Type.Rank()
		if r == 0 || x.Type.Shape[r-1]*fw != tw {
			return nil, fmt.Errorf("operand %v: converting %v to %v needs a last dimension of size %d", x.Type, from, to, tw/fw)
		}
		shape = append([]int{}, x.Type.Shape[:r-1]...)
	}
	t := TensorOf(to, shape...)
	stream := make([]uint64, (x.Len()*fw+63)/64)
	for i := range x.Len() {
		putStreamBits(stream, i*fw, fw, elemWords(from, x.Elem(i)))
	}
	out := Zeros(t)
	for i := range out.Len() {
		out.SetElem(i, elemFromWords(to, getStreamBits(stream, i*tw, tw)))
	}
	return oneResult(in, out)
}

// elemWords is an element's bit pattern as 64-bit words, low word first
// (two for c128).
func elemWords(d DType, v any) []uint64 {
	if d == C128 {
		c := v.(complex128)
		return []uint64{math.Float64bits(real(c)), math.Float64bits(imag(c))}
	}
	return []uint64{ElemBits(d, v)}
}

func elemFromWords(d DType, w []uint64) any {
	if d == C128 {
		return complex(math.Float64frombits(w[0]), math.Float64frombits(w[1]))
	}
	return ElemFromBits(d, w[0])
}

// putBits writes the low n bits of words at bit position pos of stream.
func putStreamBits(stream []uint64, pos, n int, words []uint64) {
	for k := 0; k < n; k++ {
		if words[k/64]>>(k%64)&1 != 0 {
			p := pos + k
			stream[p/64] |= 1 << (p % 64)
		}
	}
}

// getBits reads n bits at bit position pos of stream as words.
func getStreamBits(stream []uint64, pos, n int) []uint64 {
	words := make([]uint64, (n+63)/64)
	for k := 0; k < n; k++ {
		p := pos + k
		if stream[p/64]>>(p%64)&1 != 0 {
			words[k/64] |= 1 << (k % 64)
		}
	}
	return words
}

// complexExp is cmplx.Exp (C99 Annex G's special values), but where e^re
// overflows and e^re·cos im or e^re·sin im need not, by halves:
// (e^(re/2)·cos im)·e^(re/2).
func complexExp(z complex128) complex128 {
	re, im := real(z), imag(z)
	if re > 709 && !math.IsInf(re, 0) {
		h := math.Exp(re / 2)
		return complex(h*math.Cos(im)*h, h*math.Sin(im)*h)
	}
	return cmplx.Exp(z)
}

// complexLog is cmplx.Log (C99 Annex G's special values), with log|z|
// accurate where |z| is near 1 (½·log1p((x-1)(x+1) + y²): log(1 + 1e-10i)
// is 5e-21, not 0), where |z| overflows (log|z/2| + log 2) and where it
// is tiny.
func complexLog(z complex128) complex128 {
	re, im := real(z), imag(z)
	h := math.Hypot(re, im)
	switch {
	case h >= 0.5 && h <= 2:
		return complex(0.5*math.Log1p((re-1)*(re+1)+im*im), math.Atan2(im, re))
	case math.IsInf(h, 0) && !math.IsInf(re, 0) && !math.IsInf(im, 0) && !math.IsNaN(re) && !math.IsNaN(im):
		return complex(math.Log(math.Hypot(re/2, im/2))+math.Ln2, math.Atan2(im, re))
	case h > 0 && h < 0x1p-1000:
		return complex(logF64(h), math.Atan2(im, re))
	}
	return cmplx.Log(z)
}

// logF64 is math.Log, but for subnormal operands scaled into the normal
// range first: Go's math.Log on amd64 (log_amd64.s) does not normalize
// them, so math.Log(1e-308) is -708.718… and math.Log(5e-324) -709.09…,
// not -709.196… and -744.440….
func logF64(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p54) - 54*math.Ln2
	}
	return math.Log(x)
}
