package codegen_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// miniF32Probes are f32 values around every rounding boundary of the
// narrow float type d: each value, the midpoints between neighbours and
// the f32 values just beside them, both signs, out-of-range values, ±0,
// ±Inf and NaN.
func miniF32Probes(d ir.DType) []float32 {
	f, _ := ir.NarrowFormat(d)
	var vals []float64
	for b := uint64(0); b < 1<<f.Bits; b++ {
		if v := f.Decode(b); !math.IsNaN(v) && !math.IsInf(v, 0) && v >= 0 {
			vals = append(vals, v)
		}
	}
	slices.Sort(vals)
	var out []float32
	add := func(x float64) {
		for _, s := range []float32{1, -1} {
			v := float32(x) * s
			out = append(out, v, math.Nextafter32(v, float32(math.Inf(1))), math.Nextafter32(v, float32(math.Inf(-1))))
		}
	}
	for i, v := range vals {
		add(v)
		if i+1 < len(vals) {
			add(v + (vals[i+1]-v)/2)
		}
	}
	top := vals[len(vals)-1]
	for _, m := range []float64{1.0625, 1.125, 1.25, 1.5, 2, 1e6} {
		add(top * m)
	}
	add(vals[0] / 4)
	add(math.Ldexp(1, -140))
	return append(out, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 0x1p127, 3e38)
}

// TestMiniFloatExhaustive compiles, for each f8, f6 and f4 type, the
// conversions of every code to and from the other types (f32 probes
// around every rounding boundary in, every code out), the arithmetic ops
// on every code against a shuffled partner, reduce_precision to several
// formats, compare, select and the data movement ops, and compares with the reference evaluator bit for bit
// (any NaN matches any NaN).
func TestMiniFloatExhaustive(t *testing.T) {
	for seed, d := range ir.NarrowDTypes {
		if !d.IsNarrowFloat() {
			continue
		}
		t.Run(d.String(), func(t *testing.T) {
			t.Parallel()
			n := 1 << d.Bits()
			r := rand.New(rand.NewPCG(uint64(seed), 8))
			tt := ir.TensorOf(d, n)
			probes := miniF32Probes(d)
			pt := ir.TensorOf(ir.F32, len(probes))
			pd := ir.TensorOf(ir.F64, len(probes))
			it := ir.TensorOf(ir.S32, 64)
			b := newBuilder(t, "mini_"+d.String(), tt, tt, pt, pd, it)
			x, y, pf, pf64, pi := b.f.Params[0], b.f.Params[1], b.f.Params[2], b.f.Params[3], b.f.Params[4]
			var outs []*ir.Value
			var names []checked
			out := func(name string, v *ir.Value) {
				outs = append(outs, v)
				names = append(names, checked{name, -1})
			}
			for _, to := range append([]ir.DType{ir.F32, ir.F64, ir.F16, ir.BF16, ir.S32, ir.U8, ir.S64, ir.Bool, ir.C64}, ir.NarrowDTypes...) {
				if to != d {
					out("convert to "+to.String(), b.emit(ir.OpConvert, ir.ConvertAttr{To: to}, x))
				}
			}
			out("convert from f32", b.emit(ir.OpConvert, ir.ConvertAttr{To: d}, pf))
			out("convert from f64", b.emit(ir.OpConvert, ir.ConvertAttr{To: d}, pf64))
			out("convert from si32", b.emit(ir.OpConvert, ir.ConvertAttr{To: d}, pi))
			for _, op := range []ir.Op{ir.OpAdd, ir.OpSubtract, ir.OpMultiply, ir.OpDivide, ir.OpMaximum, ir.OpMinimum, ir.OpRemainder, ir.OpPower} {
				out(op.String(), b.emit(op, nil, x, y))
			}
			for _, op := range []ir.Op{ir.OpNegate, ir.OpAbs, ir.OpSqrt, ir.OpFloor, ir.OpSign, ir.OpIsFinite} {
				out(op.String(), b.emit(op, nil, x))
			}
			// reduce_precision: widened to f32, reduced, encoded back.
			for _, f := range [][2]int{{2, 1}, {3, 0}, {8, 1}, {4, 2}, {5, 10}, {1, 0}} {
				out(fmt.Sprintf("reduce_precision e%dm%d", f[0], f[1]), b.emit(ir.OpReducePrecision, ir.ReducePrecisionAttr{ExponentBits: f[0], MantissaBits: f[1]}, x))
			}
			for _, ct := range []ir.ComparisonType{ir.CmpFloat, ir.CmpTotalOrder} {
				for _, dir := range []ir.ComparisonDirection{ir.CmpEQ, ir.CmpLT, ir.CmpGE} {
					cmp := b.emit(ir.OpCompare, ir.CompareAttr{Direction: dir, Type: ct}, x, y)
					out("compare "+dir.String()+" "+ct.String(), cmp)
					if ct == ir.CmpFloat && dir == ir.CmpLT {
						out("select", b.emit(ir.OpSelect, nil, cmp, x, y))
					}
				}
			}
			sq := b.emit(ir.OpReshape, ir.ReshapeAttr{Shape: []int{n / 16, 16}}, x)
			out("reshape", sq)
			out("transpose", b.emit(ir.OpTranspose, ir.TransposeAttr{Perm: []int{1, 0}}, sq))
			out("reverse", b.emit(ir.OpReverse, ir.ReverseAttr{Dims: []int{0}}, x))
			out("slice", b.emit(ir.OpSlice, ir.SliceAttr{Start: []int{1}, Limit: []int{n - 1}, Stride: []int{3}}, x))
			out("concatenate", b.emit(ir.OpConcatenate, ir.ConcatenateAttr{Dim: 0}, x, y))
			b.f.Return(outs...)

			all := ir.Zeros(tt)
			for i := range n {
				all.SetElem(i, ir.ElemFromBits(d, uint64(i)))
			}
			shuffled := ir.Zeros(tt)
			for i, j := range r.Perm(n) {
				shuffled.SetElem(i, ir.ElemFromBits(d, uint64(j)))
			}
			pl := ir.MustLiteral(pt, probes)
			p64 := make([]float64, len(probes))
			for i, v := range probes {
				// f64 values between the f32 probes: a rounding twice
				// through f32 would go wrong on them.
				p64[i] = float64(v) * (1 + 0x1p-30)
			}
			ints := make([]int32, 64)
			for i := range ints {
				ints[i] = int32(i*i*i - 5000)
			}
			args := []*ir.Literal{all, shuffled, pl, ir.MustLiteral(pd, p64), ir.MustLiteral(it, ints)}
			want, err := ir.Eval(b.f, args...)
			if err != nil {
				t.Fatal(err)
			}
			p := compile(t, lowerText(t, b.f))
			got, rc, msg := p.run(t, args...)
			if rc != 0 {
				t.Fatal(msg)
			}
			for i := range want {
				if _, err := txDiff(got[i], want[i], -1); err != nil {
					t.Errorf("%s: %v", names[i].name, err)
				}
			}
		})
	}
}

// TestSubByteExhaustive compiles every elementwise op on every pair of
// values of i2, i4, ui2 and ui4, the conversions to and from the other
// types (floats saturating into the narrow range, integers wrapping),
// bitcast_convert to the other signedness and the data movement ops, and
// compares with the reference evaluator bit for bit.
func TestSubByteExhaustive(t *testing.T) {
	for _, d := range []ir.DType{ir.S2, ir.S4, ir.U2, ir.U4} {
		t.Run(d.String(), func(t *testing.T) {
			t.Parallel()
			n := 1 << d.Bits()
			tt := ir.TensorOf(d, n*n)
			ft := ir.TensorOf(ir.F32, 12)
			it := ir.TensorOf(ir.S32, 9)
			b := newBuilder(t, "sub_"+d.String(), tt, tt, ft, it)
			x, y, pf, pi := b.f.Params[0], b.f.Params[1], b.f.Params[2], b.f.Params[3]
			var outs []*ir.Value
			var names []string
			out := func(name string, v *ir.Value) {
				if v != nil {
					outs = append(outs, v)
					names = append(names, name)
				}
			}
			for _, op := range []ir.Op{ir.OpAdd, ir.OpSubtract, ir.OpMultiply, ir.OpDivide, ir.OpRemainder, ir.OpPower,
				ir.OpMaximum, ir.OpMinimum, ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpShiftLeft, ir.OpShiftRightArithmetic,
				ir.OpShiftRightLogical} {
				out(op.String(), b.emit(op, nil, x, y))
			}
			for _, op := range []ir.Op{ir.OpNot, ir.OpNegate, ir.OpAbs, ir.OpSign, ir.OpPopcnt, ir.OpClz} {
				out(op.String(), txTryEmit(b, op, nil, x))
			}
			for _, dir := range []ir.ComparisonDirection{ir.CmpEQ, ir.CmpLT, ir.CmpGE} {
				cmp := b.emit(ir.OpCompare, ir.CompareAttr{Direction: dir}, x, y)
				out("compare "+dir.String(), cmp)
				if dir == ir.CmpLT {
					out("select", b.emit(ir.OpSelect, nil, cmp, x, y))
				}
			}
			for _, to := range append([]ir.DType{ir.F32, ir.F64, ir.BF16, ir.S8, ir.U8, ir.S32, ir.U64, ir.Bool}, ir.NarrowDTypes...) {
				if to != d {
					out("convert to "+to.String(), b.emit(ir.OpConvert, ir.ConvertAttr{To: to}, x))
				}
			}
			out("convert from f32", b.emit(ir.OpConvert, ir.ConvertAttr{To: d}, pf))
			out("convert from si32", b.emit(ir.OpConvert, ir.ConvertAttr{To: d}, pi))
			other := map[ir.DType]ir.DType{ir.S2: ir.U2, ir.U2: ir.S2, ir.S4: ir.U4, ir.U4: ir.S4}[d]
			out("bitcast_convert", b.emit(ir.OpBitcastConvert, ir.BitcastConvertAttr{To: other}, x))
			sq := b.emit(ir.OpReshape, ir.ReshapeAttr{Shape: []int{n, n}}, x)
			out("transpose", b.emit(ir.OpTranspose, ir.TransposeAttr{Perm: []int{1, 0}}, sq))
			out("reverse", b.emit(ir.OpReverse, ir.ReverseAttr{Dims: []int{0}}, x))
			out("concatenate", b.emit(ir.OpConcatenate, ir.ConcatenateAttr{Dim: 0}, x, y))
			b.f.Return(outs...)

			xs, ys := ir.Zeros(tt), ir.Zeros(tt)
			for i := range n * n {
				xs.SetElem(i, ir.ElemFromBits(d, uint64(i/n)))
				ys.SetElem(i, ir.ElemFromBits(d, uint64(i%n)))
			}
			fl := ir.MustLiteral(ft, []float32{0, -0.5, 1.9, -2.5, 3.99, -8.5, 7.5, 100, -100, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))})
			il := ir.MustLiteral(it, []int32{0, 1, -1, 5, -5, 9, 17, -129, 1 << 30})
			args := []*ir.Literal{xs, ys, fl, il}
			want, err := ir.Eval(b.f, args...)
			if err != nil {
				t.Fatal(err)
			}
			p := compile(t, lowerText(t, b.f))
			got, rc, msg := p.run(t, args...)
			if rc != 0 {
				t.Fatal(msg)
			}
			for i := range want {
				if _, err := txDiff(got[i], want[i], -1); err != nil {
					t.Errorf("%s: %v", names[i], err)
				}
			}
		})
	}
}

// TestNarrowStructural: dot_general (a matmul long enough to round, in
// f64 for the floats and wrapping for the integers), reduce (add over one
// dimension, maximum over two), pad, iota and broadcast_in_dim on every
// narrow type, in one module, against the evaluator bit for bit. The
// operands are random bit patterns (NaN included).
func TestNarrowStructural(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 34))
	var params []ir.Type
	for _, d := range ir.NarrowDTypes {
		params = append(params, ir.TensorOf(d, 3, 37), ir.TensorOf(d, 37, 5), ir.TensorOf(d, 2, 3, 4), ir.TensorOf(d))
	}
	b := newBuilder(t, "narrow_structural", params...)
	p := b.f.Params
	var outs []*ir.Value
	var names []checked
	add := func(name string, vs ...*ir.Value) {
		for _, v := range vs {
			outs = append(outs, v)
			names = append(names, checked{name, -1})
		}
	}
	for i, d := range ir.NarrowDTypes {
		a, w, x, init := p[4*i], p[4*i+1], p[4*i+2], p[4*i+3]
		add(d.String()+" matmul", b.emit(ir.OpDotGeneral, ir.DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{0}}, a, w))
		for _, c := range []struct {
			op   ir.Op
			dims []int
		}{{ir.OpAdd, []int{1}}, {ir.OpMaximum, []int{0, 2}}} {
			body := region(t, d, 1, func(b *builder, acc, x []*ir.Value) []*ir.Value {
				return []*ir.Value{b.emit(c.op, nil, acc[0], x[0])}
			})
			add(d.String()+" reduce "+c.op.String(), b.emitN(ir.OpReduce, ir.ReduceAttr{Dims: c.dims}, []*ir.Func{body}, x, init)...)
		}
		add(d.String()+" pad", b.emit(ir.OpPad, ir.PadAttr{Low: []int{1, -1, 0}, High: []int{0, 2, 1}, Interior: []int{1, 0, 1}}, x, init))
		add(d.String()+" iota", b.emit(ir.OpIota, ir.IotaAttr{Type: ir.TensorOf(d, 3, 40), Dim: 1}, nil...))
		add(d.String()+" broadcast_in_dim", b.emit(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: []int{2, 2, 3, 4}, Dims: []int{1, 2, 3}}, x))
		add(d.String()+" sort", b.emitN(ir.OpSort, ir.SortAttr{Dim: 1, IsStable: true}, []*ir.Func{sortRegion(t, "asc", 0, d)}, a)...)
		one := b.emit(ir.OpConstant, ir.ConstantAttr{Value: ir.MustLiteral(ir.Scalar(ir.S32), []int32{1})})
		add(d.String()+" dynamic_slice", b.emit(ir.OpDynamicSlice, ir.DynamicSliceAttr{Sizes: []int{2, 5}}, a, one, one))
	}
	b.f.Return(outs...)
	var args []*ir.Literal
	for _, pt := range params {
		l := ir.Zeros(pt)
		for j := range l.Len() {
			l.SetElem(j, ir.ElemFromBits(pt.DType, r.Uint64()))
		}
		args = append(args, l)
	}
	want, err := ir.Eval(b.f, args...)
	if err != nil {
		t.Fatal(err)
	}
	prog := compile(t, lowerText(t, b.f))
	got, rc, msg := prog.run(t, args...)
	if rc != 0 {
		t.Fatal(msg)
	}
	for i := range want {
		if _, err := txDiff(got[i], want[i], -1); err != nil {
			t.Errorf("%s: %v", names[i].name, err)
		}
	}
}
