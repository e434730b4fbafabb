package codegen_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// Differential tests of the element types beyond f32, f64, si32, si64 and
// i1: si8, si16, ui8 ... ui64, f16, bf16, c64 and c128, against the
// reference evaluator. Every elementwise op is tried on every one of these
// types, and ir's type rules (the op table) decide which pairs exist; the
// data-movement ops, dot_general and reduce run on each type too, and
// convert on every pair of types (complex → real excepted: ir and XLA
// reject it).
//
// Bit-exact (NaN matching any NaN) except for txULP's ops.

var txDTypes = []ir.DType{ir.S8, ir.S16, ir.U8, ir.U16, ir.U32, ir.U64, ir.F16, ir.BF16, ir.C64, ir.C128}

// The default run samples, to stay within the package's time budget (each
// kernel costs opt and llc some 20 ms): one type of each family that
// shares code (txFullTypes) gets every op, the others txCoreOps; compare
// directions and convert targets rotate over the types. -types.full runs
// every op on every type, every direction and every convert pair.
var txFull = flag.Bool("types.full", false, "test every op on every new element type and every convert pair (slow; the default samples)")

var txFullTypes = map[ir.DType]bool{ir.S8: true, ir.U16: true, ir.F16: true, ir.C128: true}

var txCoreOps = map[ir.Op]bool{ir.OpAdd: true, ir.OpMultiply: true, ir.OpDivide: true, ir.OpRemainder: true,
	ir.OpMaximum: true, ir.OpPower: true, ir.OpNegate: true, ir.OpAbs: true, ir.OpSqrt: true, ir.OpExp: true,
	ir.OpShiftRightArithmetic: true, ir.OpPopcnt: true, ir.OpReal: true, ir.OpComplex: true}

// txKeep says whether the sampled run tests op on d.
func txKeep(d ir.DType, op ir.Op) bool { return *txFull || txFullTypes[d] || txCoreOps[op] }

// txULP bounds the transcendental ops on the new float types, in
// ULPs of the type (per part for complex), against the evaluator, as
// measured on this test's inputs (the complex ones on moderate values,
// |parts| <= 4; see complex.go). Every other op is bit-exact.
var txULP = map[ir.DType]map[string]int{
	ir.F16: {"exponential": 1, "exponential_minus_one": 1, "log": 1, "log_plus_one": 1, "logistic": 1,
		"cbrt": 1, "tanh": 1, "sine": 1, "cosine": 1, "tan": 1, "power": 1, "atan2": 1},
	ir.BF16: {"exponential": 1, "exponential_minus_one": 1, "log": 1, "log_plus_one": 1, "logistic": 1,
		"cbrt": 1, "tanh": 1, "sine": 1, "cosine": 1, "tan": 1, "power": 1, "atan2": 1},
	ir.C64: {"exponential": 1, "exponential_minus_one": 1, "log": 1, "log_plus_one": 1, "logistic": 1,
		"cbrt": 1, "tanh": 1, "sine": 1, "cosine": 1, "tan": 1, "power": 1, "atan2": 1},
	ir.C128: {"exponential": 2, "exponential_minus_one": 3, "log": 2, "log_plus_one": 2, "logistic": 4,
		"cbrt": 4, "tanh": 4, "sine": 2, "cosine": 3, "tan": 4, "power": 32, "atan2": 2},
}

var (
	txUnary = []ir.Op{ir.OpAbs, ir.OpNegate, ir.OpSign, ir.OpExp, ir.OpExpm1, ir.OpLog, ir.OpLog1p,
		ir.OpLogistic, ir.OpSqrt, ir.OpRsqrt, ir.OpCbrt, ir.OpTanh, ir.OpSine, ir.OpCosine, ir.OpTan,
		ir.OpFloor, ir.OpCeil, ir.OpRoundNearestAfz, ir.OpRoundNearestEven, ir.OpIsFinite, ir.OpNot,
		ir.OpPopcnt, ir.OpClz, ir.OpReal, ir.OpImag}
	txBinary = []ir.Op{ir.OpAdd, ir.OpSubtract, ir.OpMultiply, ir.OpDivide, ir.OpRemainder, ir.OpPower,
		ir.OpMaximum, ir.OpMinimum, ir.OpAtan2, ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpComplex}
	// transcendental ops get moderate complex operands (|parts| <= 4).
	txTranscendental = map[ir.Op]bool{ir.OpExp: true, ir.OpExpm1: true, ir.OpLog: true, ir.OpLog1p: true,
		ir.OpLogistic: true, ir.OpCbrt: true, ir.OpTanh: true, ir.OpSine: true, ir.OpCosine: true,
		ir.OpTan: true, ir.OpPower: true, ir.OpAtan2: true}
)

// txLiteral makes a literal of type t with the type's edge cases mixed
// in: integer limits, float specials, random bit patterns for f16 and
// bf16 (subnormals and NaN payloads included), complex pairs of specials.
// moderate keeps complex parts in [-4, 4].
func txLiteral(r *rand.Rand, t ir.Type, moderate bool) *ir.Literal {
	n := t.NumElements()
	d := t.DType
	switch {
	case d.IsComplex():
		v := make([]complex128, n)
		p := ir.TensorOf(d.ComplexPart(), n)
		re, im := randLiteral(r, p).Float64s(), randLiteral(r, p).Float64s()
		for i := range v {
			if moderate {
				re[i], im[i] = r.Float64()*8-4, r.Float64()*8-4
				if r.IntN(8) == 0 {
					im[i] = 0
				}
			}
			v[i] = complex(re[i], im[i])
		}
		return ir.LiteralFromComplex128s(t, v)
	case d == ir.F16 || d == ir.BF16:
		l := randLiteral(r, t)
		for i := range n {
			if r.IntN(3) == 0 {
				l.SetElem(i, ir.ElemFromBits(d, uint64(r.Uint32()&0xffff)))
			}
		}
		return l
	case d.IsInteger():
		bits := d.Bits()
		lo, hi := int64(-1)<<(bits-1), int64(uint64(1)<<(bits-1)-1)
		if d.IsUnsigned() {
			lo, hi = 0, -1 // all ones: the maximum, wrapped
		}
		sp := []int64{0, 1, -1, 2, 7, lo, hi, lo + 1, hi - 1, int64(bits - 1), int64(bits), int64(bits + 1)}
		v := make([]int64, n)
		for i := range v {
			switch r.IntN(3) {
			case 0:
				v[i] = sp[r.IntN(len(sp))]
			case 1:
				v[i] = int64(r.IntN(21) - 10)
			default:
				v[i] = int64(r.Uint64())
			}
		}
		return ir.LiteralFromInt64s(t, v)
	}
	return randLiteral(r, t)
}

// txDiff compares got with want: bit-exact (any NaN matching any NaN)
// when ulp < 0, else floats (each part of complex numbers) within ulp
// ULPs of the type. It returns the largest distance seen.
func txDiff(got, want *ir.Literal, ulp int) (uint64, error) {
	d := want.Type.DType
	if !got.Type.Equal(want.Type) {
		return 0, fmt.Errorf("type %v, want %v", got.Type, want.Type)
	}
	if ulp < 0 || !d.IsFloat() && !d.IsComplex() {
		for i := range want.Len() {
			g, w := ir.Zeros(ir.Scalar(d)), ir.Zeros(ir.Scalar(d))
			g.CopyElem(0, got, i)
			w.CopyElem(0, want, i)
			if !ir.LiteralEqual(g, w) {
				return 0, fmt.Errorf("element %d: got %v, want %v", i, got.Elem(i), want.Elem(i))
			}
		}
		return 0, nil
	}
	var worst uint64
	for i := range want.Len() {
		gc, wc := ir.ToComplex128(d, got.Elem(i)), ir.ToComplex128(d, want.Elem(i))
		u := ir.ULPDistance(d, real(gc), real(wc))
		if d.IsComplex() {
			u = max(u, ir.ULPDistance(d, imag(gc), imag(wc)))
			if u > 0 && u != math.MaxUint64 {
				u = txNormwiseULP(d, gc, wc)
			}
		}
		worst = max(worst, u)
		if u > uint64(ulp) {
			return worst, fmt.Errorf("element %d: got %v, want %v (%d ULP > %d)", i, got.Elem(i), want.Elem(i), u, ulp)
		}
	}
	return worst, nil
}

// txNormwiseULP is the error of a complex result in ULPs of its larger
// part: a part much smaller than the other inherits the other's absolute
// error in any formula (e^z = e^x(cos y + i sin y) with cos y near 0), so
// per-part ULPs measure the condition of the function, not the code.
func txNormwiseULP(d ir.DType, got, want complex128) uint64 {
	m := max(math.Abs(real(want)), math.Abs(imag(want)))
	var ulp float64
	if d == ir.C64 {
		f := float32(m)
		ulp = float64(math.Nextafter32(f, float32(math.Inf(1))) - f)
	} else {
		ulp = math.Nextafter(m, math.Inf(1)) - m
	}
	e := max(math.Abs(real(got)-real(want)), math.Abs(imag(got)-imag(want)))
	return uint64(math.Ceil(e / ulp))
}

// txEvalAndCompare is evalAndCompare with txDiff.
func txEvalAndCompare(t *testing.T, f *ir.Func, names []checked, args ...*ir.Literal) map[string]uint64 {
	t.Helper()
	return evalAndCompareBy(t, txDiff, f, names, args...)
}

// txTryEmit emits op if ir's type rules allow it on these operands.
func txTryEmit(b *builder, op ir.Op, attr any, args ...*ir.Value) *ir.Value {
	v, err := b.f.Emit1(ir.UnknownLoc, op, args, attr)
	if err != nil {
		return nil
	}
	return v
}

// TestNewTypesElementwise runs every elementwise op that ir accepts on
// each new element type (one module per type), plus compare in every
// direction and comparison type, select, clamp and convert to every type.
func TestNewTypesElementwise(t *testing.T) {
	worst := newWorstULP(t)
	for seed, d := range txDTypes {
		t.Run(d.String(), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(uint64(seed), 17))
			shape := []int{29}
			if seed%2 == 1 {
				shape = []int{3, 11}
			}
			tt, st, bt := ir.TensorOf(d, shape...), ir.TensorOf(d), ir.TensorOf(ir.Bool, shape...)
			// x, y, pred, lo, hi, shift counts / moderate x, small exponents / moderate y
			b := newBuilder(t, "ew_"+d.String(), tt, tt, bt, st, st, tt, tt)
			x, y, pred, lo, hi, p5, p6 := b.f.Params[0], b.f.Params[1], b.f.Params[2], b.f.Params[3], b.f.Params[4], b.f.Params[5], b.f.Params[6]
			var outs []*ir.Value
			var names []checked
			add := func(name string, ulp int, v *ir.Value) {
				if v != nil {
					outs = append(outs, v)
					names = append(names, checked{name, ulp})
				}
			}
			ulpOf := func(op ir.Op) int {
				if u, ok := txULP[d][op.String()]; ok {
					return u
				}
				return -1
			}
			ux, uy := x, y
			for _, op := range txUnary {
				if !txKeep(d, op) {
					continue
				}
				if d.IsComplex() && txTranscendental[op] {
					ux = p5
				} else {
					ux = x
				}
				add(op.String(), ulpOf(op), txTryEmit(b, op, nil, ux))
			}
			for _, op := range txBinary {
				if !txKeep(d, op) {
					continue
				}
				ux, uy = x, y
				if d.IsComplex() && txTranscendental[op] {
					ux, uy = p5, p6
				}
				if d.IsInteger() && op == ir.OpPower {
					uy = p6
				}
				add(op.String(), ulpOf(op), txTryEmit(b, op, nil, ux, uy))
			}
			if d.IsInteger() {
				for _, op := range []ir.Op{ir.OpShiftLeft, ir.OpShiftRightArithmetic, ir.OpShiftRightLogical} {
					if txKeep(d, op) {
						add(op.String(), -1, txTryEmit(b, op, nil, x, p5))
					}
				}
			}
			for i, dir := range dirs {
				if !*txFull && i != seed%len(dirs) && (!txFullTypes[d] || i != (seed+3)%len(dirs)) {
					continue
				}
				add("compare "+dir.String(), -1, txTryEmit(b, ir.OpCompare, ir.CompareAttr{Direction: dir}, x, y))
				add("compare TOTALORDER "+dir.String(), -1, txTryEmit(b, ir.OpCompare, ir.CompareAttr{Direction: dir, Type: ir.CmpTotalOrder}, x, y))
			}
			add("select", -1, b.emit(ir.OpSelect, nil, pred, x, y))
			add("clamp scalar", -1, b.emit(ir.OpClamp, nil, lo, x, hi))
			if *txFull || txFullTypes[d] {
				add("clamp full", -1, b.emit(ir.OpClamp, nil, y, x, y))
			}
			// Convert to every type (sampled: three, rotating, so that the
			// types together reach every target twice).
			for i, to := range ir.AllDTypes {
				if !*txFull && (i-3*seed+3*len(ir.AllDTypes))%len(ir.AllDTypes) >= 3 {
					continue
				}
				add("convert to "+to.String(), -1, txTryEmit(b, ir.OpConvert, ir.ConvertAttr{To: to}, x))
			}
			b.f.Return(outs...)

			args := []*ir.Literal{txLiteral(r, tt, false), txLiteral(r, tt, false), randLiteral(r, bt),
				txLiteral(r, st, false), txLiteral(r, st, false)}
			switch {
			case d.IsInteger():
				args = append(args, smallInts(r, tt, -2, int64(d.Bits())+6), smallInts(r, tt, -3, 12))
				if d.IsUnsigned() {
					args[6] = smallInts(r, tt, 0, 12)
				}
			default:
				args = append(args, txLiteral(r, tt, true), txLiteral(r, tt, true))
			}
			for name, w := range txEvalAndCompare(t, b.f, names, args...) {
				worst.note(d.String()+" "+name, w)
			}
		})
	}
}

// txTieLiteral makes f32 or f64 values that stress rounding to f16 and bf16
// (midpoints between neighbors and their float neighbors, values around
// the largest finite value and the subnormals) mixed with random ones; for
// integers, values around 2^k ties of the 8- and 11-bit significands.
func txTieLiteral(r *rand.Rand, t ir.Type) *ir.Literal {
	n := t.NumElements()
	d := t.DType
	if d.IsInteger() {
		v := make([]int64, n)
		for i := range v {
			k := 9 + r.IntN(50)
			m := int64(1<<8 | r.IntN(1<<8))
			v[i] = m<<k | 1<<(k-1)
			switch r.IntN(4) {
			case 0:
				v[i]++
			case 1:
				v[i]--
			case 2:
				v[i] = int64(r.Uint64())
			}
			if r.IntN(2) == 0 {
				v[i] = -v[i]
			}
			if r.IntN(4) == 0 {
				v[i] = int64(r.IntN(70000)) - 35000
			}
		}
		return ir.LiteralFromInt64s(t, v)
	}
	v := make([]float64, n)
	for i := range v {
		h := ir.F16
		if r.IntN(2) == 0 {
			h = ir.BF16
		}
		a := ir.ToFloat64(h, ir.ElemFromBits(h, uint64(r.IntN(0x7c00))))
		next := ir.ToFloat64(h, ir.ElemFromBits(h, ir.ElemBits(h, ir.FromFloat64(h, a))+1))
		mid := (a + next) / 2
		switch r.IntN(6) {
		case 0:
			v[i] = mid
		case 1:
			v[i] = math.Nextafter(mid, math.Inf(1))
		case 2:
			v[i] = math.Nextafter(mid, math.Inf(-1))
		case 3:
			v[i] = 65504 + float64(r.IntN(40))
		default:
			v[i] = randLiteral(r, ir.TensorOf(ir.F64, 1)).Float64s()[0]
		}
		if d == ir.F32 && r.IntN(2) == 0 {
			v[i] = float64(math.Float32frombits(r.Uint32()))
		}
		if r.IntN(2) == 0 {
			v[i] = -v[i]
		}
	}
	return ir.LiteralFromFloat64s(t, v)
}

// TestNewTypesConvertFrom converts from f32, f64, si32, si64 and i1 to
// each new type (the other direction is in TestNewTypesElementwise), on
// values at the rounding boundaries of f16 and bf16.
func TestNewTypesConvertFrom(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	from := []ir.DType{ir.F32, ir.F64, ir.S32, ir.S64, ir.Bool}
	var params []ir.Type
	for _, d := range from {
		params = append(params, ir.TensorOf(d, 64))
	}
	b := newBuilder(t, "convert_from", params...)
	var outs []*ir.Value
	var names []checked
	for i, d := range from {
		for j, to := range txDTypes {
			// Sampled: f32 and f64 to f16, bf16 and complex (the rounding
			// paths), and two integer targets per source.
			if !*txFull && !to.IsFloat() && !to.IsComplex() && (j+2*i)%6 >= 2 {
				continue
			}
			outs = append(outs, b.emit(ir.OpConvert, ir.ConvertAttr{To: to}, b.f.Params[i]))
			names = append(names, checked{fmt.Sprintf("convert %v to %v", d, to), -1})
		}
	}
	b.f.Return(outs...)
	var args []*ir.Literal
	for _, p := range params {
		if p.DType == ir.Bool {
			args = append(args, randLiteral(r, p))
			continue
		}
		args = append(args, txTieLiteral(r, p))
	}
	txEvalAndCompare(t, b.f, names, args...)
}

// TestNewTypesStructural runs the data-movement ops and iota on every new
// type (they move bytes of the element's size), bit-exact.
func TestNewTypesStructural(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	var params []ir.Type
	for range txDTypes {
		shape := randShape(r, 3)
		if len(shape) == 0 {
			shape = []int{3}
		}
		params = append(params, ir.TensorOf(txDTypes[len(params)], shape...))
	}
	b := newBuilder(t, "structural_new", params...)
	var outs []*ir.Value
	var names []checked
	add := func(name string, v *ir.Value) {
		outs = append(outs, v)
		names = append(names, checked{name, -1})
	}
	for i, x := range b.f.Params {
		xt := params[i]
		rank := xt.Rank()
		d := xt.DType.String()
		k := 0
		add := func(name string, v *ir.Value) {
			// Sampled: four of the seven ops per type, rotating.
			if *txFull || (k+i)%7 < 4 {
				add(name, v)
			}
			k++
		}
		out := append([]int{2}, xt.Shape...)
		dims := make([]int, rank)
		for k := range dims {
			dims[k] = k + 1
		}
		add(d+" broadcast_in_dim", b.emit(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: out, Dims: dims}, x))
		add(d+" transpose", b.emit(ir.OpTranspose, ir.TransposeAttr{Perm: r.Perm(rank)}, x))
		var start, limit, stride []int
		for _, n := range xt.Shape {
			s := r.IntN(n)
			start, limit, stride = append(start, s), append(limit, n), append(stride, 1+r.IntN(2))
		}
		add(d+" slice", b.emit(ir.OpSlice, ir.SliceAttr{Start: start, Limit: limit, Stride: stride}, x))
		add(d+" concatenate", b.emit(ir.OpConcatenate, ir.ConcatenateAttr{Dim: r.IntN(rank)}, x, x))
		add(d+" reverse", b.emit(ir.OpReverse, ir.ReverseAttr{Dims: []int{r.IntN(rank)}}, x))
		flat := b.emit(ir.OpReshape, ir.ReshapeAttr{Shape: []int{xt.NumElements()}}, x)
		pv := b.emit(ir.OpSlice, ir.SliceAttr{Start: []int{0}, Limit: []int{1}, Stride: []int{1}}, flat)
		pv = b.emit(ir.OpReshape, ir.ReshapeAttr{Shape: []int{}}, pv)
		lo, hi, in := make([]int, rank), make([]int, rank), make([]int, rank)
		for k := range rank {
			lo[k], hi[k], in[k] = r.IntN(3)-1, r.IntN(3), r.IntN(2)
		}
		add(d+" pad", b.emit(ir.OpPad, ir.PadAttr{Low: lo, High: hi, Interior: in}, x, pv))
		add(d+" iota", b.emit(ir.OpIota, ir.IotaAttr{Type: ir.TensorOf(xt.DType, 3, 300), Dim: 1}, nil...))
	}
	b.f.Return(outs...)
	var args []*ir.Literal
	for _, p := range params {
		args = append(args, txLiteral(r, p, false))
	}
	txEvalAndCompare(t, b.f, names, args...)
}

// TestNewTypesDotReduce: dot_general (every form of dotCases) and reduce
// (add, maximum, minimum and an argmax body over several dimension sets)
// on the new types, bit-exact: the evaluator sums in f64/complex128 and
// the integer types wrap, and so do the kernels.
func TestNewTypesDotReduce(t *testing.T) {
	if !*txFull {
		txDotReduceSampled(t)
		return
	}
	for seed, d := range txDTypes {
		t.Run(d.String(), func(t *testing.T) {
			t.Parallel()
			dotDifferential(t, rand.New(rand.NewPCG(31, uint64(seed))), d)
			reduceDifferential(t, rand.New(rand.NewPCG(32, uint64(seed))), []ir.DType{d})
		})
	}
}

// txDotReduceSampled is the default run's dot_general and reduce: one
// module, every new type, a matmul with a contraction long enough to round
// and a batched product with two contracting dimensions; reduce with add
// over one dimension and maximum over two (argmax on f16 and ui32).
func txDotReduceSampled(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 33))
	var params []ir.Type
	for _, d := range txDTypes {
		params = append(params, ir.TensorOf(d, 3, 37), ir.TensorOf(d, 37, 5), ir.TensorOf(d, 2, 3, 4, 2), ir.TensorOf(d, 2, 2, 4, 3), ir.TensorOf(d))
	}
	params = append(params, ir.TensorOf(ir.S32, 2, 3, 4, 2), ir.TensorOf(ir.S32))
	b := newBuilder(t, "dot_reduce_new", params...)
	p := b.f.Params
	idx, idxInit := p[len(p)-2], p[len(p)-1]
	var outs []*ir.Value
	var names []checked
	add := func(name string, vs ...*ir.Value) {
		for _, v := range vs {
			outs = append(outs, v)
			names = append(names, checked{name, -1})
		}
	}
	for i, d := range txDTypes {
		a, w, x, y, init := p[5*i], p[5*i+1], p[5*i+2], p[5*i+3], p[5*i+4]
		add(d.String()+" matmul", b.emit(ir.OpDotGeneral, ir.DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{0}}, a, w))
		add(d.String()+" batched", b.emit(ir.OpDotGeneral, ir.DotGeneralAttr{LhsBatch: []int{0}, RhsBatch: []int{0},
			LhsContract: []int{2, 3}, RhsContract: []int{2, 1}}, x, y))
		for _, c := range []struct {
			op   ir.Op
			dims []int
		}{{ir.OpAdd, []int{1}}, {ir.OpMaximum, []int{0, 2}}} {
			body := region(t, d, 1, func(b *builder, acc, x []*ir.Value) []*ir.Value {
				return []*ir.Value{b.emit(c.op, nil, acc[0], x[0])}
			})
			add(fmt.Sprintf("%v reduce %v over %v", d, c.op, c.dims), b.emitN(ir.OpReduce, ir.ReduceAttr{Dims: c.dims}, []*ir.Func{body}, x, init)...)
		}
		if d == ir.F16 || d == ir.U32 {
			body := region2(t, d, ir.S32)
			add(d.String()+" argmax", b.emitN(ir.OpReduce, ir.ReduceAttr{Dims: []int{1, 3}}, []*ir.Func{body}, x, idx, init, idxInit)...)
		}
	}
	b.f.Return(outs...)
	var args []*ir.Literal
	for i, pt := range params {
		switch {
		case i == len(params)-2:
			v := make([]int64, pt.NumElements())
			for j := range v {
				v[j] = int64(j)
			}
			args = append(args, ir.LiteralFromInt64s(pt, v))
		case pt.DType.IsFloat() && i%5 < 2:
			args = append(args, smallIntFloats(r, pt))
		default:
			args = append(args, txLiteral(r, pt, false))
		}
	}
	txEvalAndCompare(t, b.f, names, args...)
}

// TestHalfExhaustive runs the float ops on all 65536 f16 and bf16 bit
// patterns (binary ops against a shuffled copy), within txULP (and
// measures how often the transcendental results differ at all: computed
// in f32 and rounded, they match the evaluator's f64 result rounded
// except where the f32 result falls within an f32 ULP of a rounding
// boundary of the narrow type). rsqrt, correctly rounded, must be
// bit-exact. The sampled run takes a few ops, rsqrt among them.
func TestHalfExhaustive(t *testing.T) {
	for seed, d := range []ir.DType{ir.F16, ir.BF16} {
		t.Run(d.String(), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(uint64(seed), 65536))
			tt := ir.TensorOf(d, 1<<16)
			b := newBuilder(t, "exhaustive_"+d.String(), tt, tt)
			x, y := b.f.Params[0], b.f.Params[1]
			var outs []*ir.Value
			var names []checked
			ulpOf := func(op ir.Op) int {
				if u, ok := txULP[d][op.String()]; ok {
					return u
				}
				return -1
			}
			sampled := map[ir.Op]bool{ir.OpExp: true, ir.OpLog: true, ir.OpTanh: true, ir.OpDivide: true, ir.OpSqrt: true,
				ir.OpRsqrt: true}
			for _, op := range append(append([]ir.Op{}, floatUnary...), floatBinary...) {
				if !*txFull && !sampled[op] {
					continue
				}
				args := []*ir.Value{x}
				if op.Info().NumArgs == 2 {
					args = append(args, y)
				}
				outs = append(outs, b.emit(op, nil, args...))
				names = append(names, checked{op.String(), ulpOf(op)})
			}
			if *txFull {
				for _, to := range []ir.DType{ir.F32, ir.F64, ir.S32, ir.U8, ir.F16, ir.BF16, ir.C64} {
					if to != d {
						outs = append(outs, b.emit(ir.OpConvert, ir.ConvertAttr{To: to}, x))
						names = append(names, checked{"convert to " + to.String(), -1})
					}
				}
			}
			b.f.Return(outs...)
			all := ir.Zeros(tt)
			for i := range 1 << 16 {
				all.SetElem(i, ir.ElemFromBits(d, uint64(i)))
			}
			shuffled := ir.Zeros(tt)
			for i, j := range r.Perm(1 << 16) {
				shuffled.SetElem(i, ir.ElemFromBits(d, uint64(j)))
			}
			want, err := ir.Eval(b.f, all, shuffled)
			if err != nil {
				t.Fatal(err)
			}
			p := compile(t, lowerText(t, b.f))
			got, rc, msg := p.run(t, all, shuffled)
			if rc != 0 {
				t.Fatal(msg)
			}
			for i := range want {
				w, err := txDiff(got[i], want[i], names[i].ulp)
				if err != nil {
					t.Errorf("%s: %v", names[i].name, err)
					continue
				}
				if names[i].ulp >= 0 {
					differ := 0
					for k := range want[i].Len() {
						if ir.ElemBits(d, got[i].Elem(k)) != ir.ElemBits(d, want[i].Elem(k)) {
							if g, w := ir.ToFloat64(d, got[i].Elem(k)), ir.ToFloat64(d, want[i].Elem(k)); g == g || w == w {
								differ++
							}
						}
					}
					t.Logf("%s: max %d ULP, %d of 65536 results differ", names[i].name, w, differ)
				}
			}
		})
	}
}

// TestNewTypesChecks: the check ops on the new types: exact, almost-equal
// and ULP comparisons of f16, bf16 (values compared as floats, ULPs of
// the type), complex numbers (per part; the larger ULP distance of the
// parts), unsigned and narrow integers; and the failure messages, which
// print the values in their type (unsigned as unsigned, complex as pairs).
func TestNewTypesChecks(t *testing.T) {
	pass := `
func.func @main() {
  %h = stablehlo.constant dense<[1.0, 0x7E00, -0.0, 65504.0]> : tensor<4xf16>
  check.expect_eq_const %h, dense<[1.0, 0x7E01, 0.0, 65504.0]> : tensor<4xf16>
  check.expect_almost_eq_const %h, dense<[1.0004, 0x7E00, 0.0, 65504.0]> : tensor<4xf16>, tolerance = 0.001
  %h2 = stablehlo.constant dense<[1.0009766, 0x7E00, 0.0, 65472.0]> : tensor<4xf16>
  check.expect_close %h, %h2, max_ulp_difference = 1 : tensor<4xf16>, tensor<4xf16>
  %b = stablehlo.constant dense<[1.0, -2.0]> : tensor<2xbf16>
  %b2 = stablehlo.constant dense<[1.0078125, -2.015625]> : tensor<2xbf16>
  check.expect_close %b, %b2, max_ulp_difference = 1, min_ulp_difference = 1 : tensor<2xbf16>, tensor<2xbf16>
  %c = stablehlo.constant dense<[(1.0, 2.0), (0x7FC00000, -0.0)]> : tensor<2xcomplex<f32>>
  check.expect_eq_const %c, dense<[(1.0, 2.0), (0x7FC00000, 0.0)]> : tensor<2xcomplex<f32>>
  %c2 = stablehlo.constant dense<[(1.0000001, 2.0000002), (0x7FC00000, 1.0e-45)]> : tensor<2xcomplex<f32>>
  check.expect_close %c, %c2, max_ulp_difference = 1, min_ulp_difference = 1 : tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>
  %z = stablehlo.constant dense<(1.0, -1.0)> : tensor<complex<f64>>
  check.expect_almost_eq_const %z, dense<(1.00001, -1.0)> : tensor<complex<f64>>, tolerance = 0.0001
  %u = stablehlo.constant dense<[18446744073709551615, 0]> : tensor<2xui64>
  check.expect_eq_const %u, dense<[18446744073709551615, 0]> : tensor<2xui64>
  %u2 = stablehlo.constant dense<[18446744073709551614, 1]> : tensor<2xui64>
  check.expect_close %u, %u2, max_ulp_difference = 1 : tensor<2xui64>, tensor<2xui64>
  %s = stablehlo.constant dense<[-128, 127]> : tensor<2xi8>
  check.expect_eq_const %s, dense<[-128, 127]> : tensor<2xi8>
  return
}`
	p := compile(t, pass)
	if _, rc, msg := p.run(t); rc != 0 {
		t.Errorf("expectations that hold: rc %d, %q", rc, msg)
	}
	for _, c := range []struct{ src, want string }{
		{`func.func @main() {
  %h = stablehlo.constant dense<[1.0, 1.5]> : tensor<2xf16>
  %h2 = stablehlo.constant dense<[1.0, 1.5029297]> : tensor<2xf16>
  check.expect_close %h, %h2, max_ulp_difference = 2 : tensor<2xf16>, tensor<2xf16>
  return
}`, "check failed: check.expect_close in @main: at index [1] of tensor<2xf16>: actual 1.5, expected 1.5029 (ULP distance not in [0, 2])"},
		{`func.func @main() {
  %c = stablehlo.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>
  check.expect_eq_const %c, dense<[(1.0, 2.0), (3.0, 4.5)]> : tensor<2xcomplex<f32>>
  return
}`, "check failed: check.expect_eq_const in @main: at index [1] of tensor<2xcomplex<f32>>: actual (3, 4), expected (3, 4.5)"},
		{`func.func @main() {
  %u = stablehlo.constant dense<[18446744073709551615]> : tensor<1xui64>
  check.expect_eq_const %u, dense<[1]> : tensor<1xui64>
  return
}`, "check failed: check.expect_eq_const in @main: at index [0] of tensor<1xui64>: actual 18446744073709551615, expected 1"},
	} {
		p := compile(t, c.src)
		_, rc, msg := p.run(t)
		if rc != 2 || msg != c.want {
			t.Errorf("got rc %d, %q\nwant rc 2, %q", rc, msg, c.want)
		}
	}
}
