package codegen_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// ULP bounds of the float ops computed with libm (or with a formula over
// libm), against the reference evaluator (Go's math in f64, then rounded to
// the type). Measured: f32 ≤ 1 ULP for all of them (the evaluator's f32
// results are nearly correctly rounded, and so are glibc's f32 functions);
// f64 ≤ 2 ULP, except where Go's math is itself the less accurate side:
// sin/cos/tan of huge arguments (1e30: Go is 40 ULP from the correctly
// rounded value glibc returns) and pow near underflow (11 ULP). Every
// other float op is bit-exact, rsqrt included (correctly rounded on both
// sides: rsqrt.go).
var transcendentalULP = map[ir.DType]map[string]int{
	ir.F32: {"exponential": 2, "exponential_minus_one": 2, "log": 2, "log_plus_one": 2, "logistic": 2,
		"cbrt": 2, "tanh": 2, "sine": 2, "cosine": 2, "tan": 2, "power": 2, "atan2": 2},
	ir.F64: {"exponential": 2, "exponential_minus_one": 2, "log": 2, "log_plus_one": 2, "logistic": 2,
		"cbrt": 2, "tanh": 2, "sine": 64, "cosine": 64, "tan": 64, "power": 16, "atan2": 2},
}

var (
	floatUnary = []ir.Op{ir.OpAbs, ir.OpNegate, ir.OpSign, ir.OpExp, ir.OpExpm1, ir.OpLog, ir.OpLog1p,
		ir.OpLogistic, ir.OpSqrt, ir.OpRsqrt, ir.OpCbrt, ir.OpTanh, ir.OpSine, ir.OpCosine, ir.OpTan,
		ir.OpFloor, ir.OpCeil, ir.OpRoundNearestAfz, ir.OpRoundNearestEven, ir.OpIsFinite}
	intUnary    = []ir.Op{ir.OpAbs, ir.OpNegate, ir.OpSign, ir.OpNot, ir.OpPopcnt, ir.OpClz}
	floatBinary = []ir.Op{ir.OpAdd, ir.OpSubtract, ir.OpMultiply, ir.OpDivide, ir.OpRemainder, ir.OpPower,
		ir.OpMaximum, ir.OpMinimum, ir.OpAtan2}
	intBinary = []ir.Op{ir.OpAdd, ir.OpSubtract, ir.OpMultiply, ir.OpDivide, ir.OpRemainder,
		ir.OpMaximum, ir.OpMinimum, ir.OpAnd, ir.OpOr, ir.OpXor}
	intShift   = []ir.Op{ir.OpShiftLeft, ir.OpShiftRightArithmetic, ir.OpShiftRightLogical}
	boolBinary = []ir.Op{ir.OpAdd, ir.OpMultiply, ir.OpMaximum, ir.OpMinimum, ir.OpAnd, ir.OpOr, ir.OpXor}
	dirs       = []ir.ComparisonDirection{ir.CmpEQ, ir.CmpNE, ir.CmpGE, ir.CmpGT, ir.CmpLE, ir.CmpLT}
	dtypes     = []ir.DType{ir.F32, ir.F64, ir.S32, ir.S64, ir.Bool}
)

// TestElementwiseDifferential runs every elementwise op on every supported
// element type (one module per type, on a random shape with special
// values mixed in) and compares with the reference evaluator: bit-exact
// except for the libm-based functions, which are within transcendentalULP.
func TestElementwiseDifferential(t *testing.T) {
	worst := newWorstULP(t)
	for seed, d := range dtypes {
		t.Run(d.String(), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(uint64(seed), 7))
			shape := randShape(r, 3)
			if len(shape) == 0 || shape[0] < 3 {
				shape = append([]int{17}, shape...) // enough elements for the specials
			}
			tt := ir.TensorOf(d, shape...)
			st := ir.TensorOf(d)
			bt := ir.TensorOf(ir.Bool, shape...)
			// x, y, pred, lo (scalar), hi (scalar), shift counts, small
			// exponents.
			b := newBuilder(t, "ew_"+d.String(), tt, tt, bt, st, st, tt, tt)
			x, y, pred, lo, hi, sh, ex := b.f.Params[0], b.f.Params[1], b.f.Params[2], b.f.Params[3], b.f.Params[4], b.f.Params[5], b.f.Params[6]
			var outs []*ir.Value
			var names []checked
			add := func(name string, ulp int, v *ir.Value) {
				outs = append(outs, v)
				names = append(names, checked{name, ulp})
			}
			var unary, binary []ir.Op
			switch {
			case d.IsFloat():
				unary, binary = floatUnary, floatBinary
			case d == ir.Bool:
				unary, binary = []ir.Op{ir.OpNot}, boolBinary
			default:
				unary, binary = intUnary, intBinary
			}
			ulpOf := func(op ir.Op) int {
				if u, ok := transcendentalULP[d][op.String()]; ok {
					return u
				}
				return -1
			}
			for _, op := range unary {
				add(op.String(), ulpOf(op), b.emit(op, nil, x))
			}
			for _, op := range binary {
				add(op.String(), ulpOf(op), b.emit(op, nil, x, y))
			}
			if d.IsInteger() {
				for _, op := range intShift {
					add(op.String(), -1, b.emit(op, nil, x, sh))
				}
				add("power", -1, b.emit(ir.OpPower, nil, x, ex))
			}
			for _, dir := range dirs {
				add("compare "+dir.String(), -1, b.emit(ir.OpCompare, ir.CompareAttr{Direction: dir}, x, y))
				if d.IsFloat() {
					add("compare TOTALORDER "+dir.String(), -1, b.emit(ir.OpCompare, ir.CompareAttr{Direction: dir, Type: ir.CmpTotalOrder}, x, y))
				}
			}
			add("select", -1, b.emit(ir.OpSelect, nil, pred, x, y))
			p0 := b.emit(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpEQ}, lo, lo)
			add("select scalar pred", -1, b.emit(ir.OpSelect, nil, p0, x, y))
			add("clamp scalar", -1, b.emit(ir.OpClamp, nil, lo, x, hi))
			add("clamp full", -1, b.emit(ir.OpClamp, nil, y, x, y))
			for _, to := range dtypes {
				add("convert to "+to.String(), -1, b.emit(ir.OpConvert, ir.ConvertAttr{To: to}, x))
			}
			b.f.Return(outs...)

			args := []*ir.Literal{randLiteral(r, tt), randLiteral(r, tt), randLiteral(r, bt), randLiteral(r, st), randLiteral(r, st)}
			if d.IsInteger() {
				args = append(args, smallInts(r, tt, -2, 70), smallInts(r, tt, -3, 12))
			} else {
				args = append(args, randLiteral(r, tt), randLiteral(r, tt))
			}
			for name, w := range evalAndCompare(t, b.f, names, args...) {
				worst.note(fmt.Sprintf("%s %s", d, name), w)
			}
		})
	}
}
