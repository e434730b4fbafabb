package check

import (
	"fmt"
	"math"
	"strings"

	"github.com/stela-ml/stela/ir"
)

// Runner compiles MLIR text (whose entry is @main, without arguments) on a
// device and returns its results on the host.
type Runner interface {
	Run(mlir []byte) ([]*ir.Literal, error)
}

// Failure is one expectation that did not hold.
type Failure struct {
	Entry string
	Exp   Expectation
	Msg   string // first mismatching index, actual vs expected
}

// String is "LINE: OP: MSG", which `stela check` prints after the file
// name (FILE:LINE: check.expect_eq_const: element [0]: actual 3, expected
// 4); "@ENTRY: OP: MSG" when the line is unknown.
func (f Failure) String() string {
	if f.Exp.Line > 0 {
		return fmt.Sprintf("%d: %s: %s", f.Exp.Line, f.Exp.Op, f.Msg)
	}
	return fmt.Sprintf("@%s: %s: %s", f.Entry, f.Exp.Op, f.Msg)
}

// Report is the outcome of a check file.
type Report struct {
	Entries  int
	Checks   int
	Failures []Failure
}

// OK reports whether every expectation held.
func (r *Report) OK() bool { return len(r.Failures) == 0 }

// Run prepares, runs and judges every entry of a check file. A malformed
// or unsupported program, or one the device rejects, is a *Rejected error.
func Run(src []byte, r Runner) (*Report, error) {
	if r == nil {
		return nil, errNoRunner
	}
	ps, err := Prepare(src)
	if err != nil {
		return nil, err
	}
	rep := &Report{}
	for _, p := range ps {
		outs, err := r.Run(p.MLIR)
		if err != nil {
			return nil, err
		}
		rep.Entries++
		fs, err := Judge(p, outs)
		if err != nil {
			return nil, err
		}
		rep.Checks += len(p.Expectations)
		rep.Failures = append(rep.Failures, fs...)
	}
	return rep, nil
}

// Judge evaluates the expectations of a prepared entry on its results.
func Judge(p *Prepared, outs []*ir.Literal) ([]Failure, error) {
	var fails []Failure
	for _, e := range p.Expectations {
		if e.Actual >= len(outs) || (e.Expected >= 0 && e.Expected >= len(outs)) {
			return nil, fmt.Errorf("check: @%s returned %d results, want more than %d", p.Entry, len(outs), max(e.Actual, e.Expected))
		}
		actual := outs[e.Actual]
		expected := e.Const
		if expected == nil {
			expected = outs[e.Expected]
		}
		if msg := compare(e, actual, expected); msg != "" {
			fails = append(fails, Failure{Entry: p.Entry, Exp: e, Msg: msg})
		}
	}
	return fails, nil
}

// compare returns "" when the expectation holds, else a message naming the
// first mismatching index with actual and expected values.
func compare(e Expectation, a, b *ir.Literal) string {
	if !ir.ShapeEqual(a.Type.Shape, b.Type.Shape) {
		return fmt.Sprintf("shape %v, expected %v", a.Type, b.Type)
	}
	if a.Type.DType.Bits() != b.Type.DType.Bits() || a.Type.DType.IsFloat() != b.Type.DType.IsFloat() || a.Type.DType.IsComplex() != b.Type.DType.IsComplex() {
		return fmt.Sprintf("element type %v, expected %v", a.Type.DType, b.Type.DType)
	}
	d := a.Type.DType
	n := a.Type.NumElements()
	kind := e.Kind
	if !d.IsFloat() && !d.IsComplex() {
		kind = Exact // integers and booleans compare exactly in every form
	}
	for i := 0; i < n; i++ {
		x, y := a.Elem(i), b.Elem(i)
		var ok bool
		switch kind {
		case Exact:
			ok = exactEqual(d, x, y)
		case AlmostEq:
			ok = almostEqual(d, x, y, e.Tol)
		case Close:
			dist, comparable := ulpDistance(d, x, y)
			ok = comparable && dist >= uint64(max(e.MinULP, 0)) && dist <= uint64(max(e.MaxULP, 0))
		}
		if !ok {
			return fmt.Sprintf("element %s: actual %s, expected %s%s", index(a.Type.Shape, i), ir.FormatElem(d, x), ir.FormatElem(b.Type.DType, y), detail(e, d, x, y))
		}
	}
	return ""
}

func detail(e Expectation, d ir.DType, x, y any) string {
	switch e.Kind {
	case AlmostEq:
		return fmt.Sprintf(" (tolerance %g)", e.Tol)
	case Close:
		if dist, ok := ulpDistance(d, x, y); ok {
			return fmt.Sprintf(" (%d ULP, allowed [%d, %d])", dist, e.MinULP, e.MaxULP)
		}
		return " (non-finite values differ)"
	}
	return ""
}

// index prints a flat index as a multi-index: [1, 2].
func index(shape []int, flat int) string {
	idx := make([]string, len(shape))
	for k := len(shape) - 1; k >= 0; k-- {
		if shape[k] == 0 {
			break
		}
		idx[k] = fmt.Sprint(flat % shape[k])
		flat /= shape[k]
	}
	return "[" + strings.Join(idx, ", ") + "]"
}

func parts(d ir.DType, v any) []float64 {
	if d.IsComplex() {
		c := ir.ToComplex128(d, v)
		return []float64{real(c), imag(c)}
	}
	return []float64{ir.ToFloat64(d, v)}
}

func exactEqual(d ir.DType, x, y any) bool {
	switch {
	case d.IsFloat() || d.IsComplex():
		px, py := parts(d, x), parts(d, y)
		for k := range px {
			if px[k] != py[k] && !(math.IsNaN(px[k]) && math.IsNaN(py[k])) {
				return false
			}
		}
		return true
	case d.IsUnsigned() || d.IsBool():
		return ir.ToUint64(d, x) == ir.ToUint64(d, y)
	}
	return ir.ToInt64(d, x) == ir.ToInt64(d, y)
}

// almostEqual: |a-b| <= tol per part; equal values (equal infinities too)
// pass, NaN matches NaN, an infinity against a finite value fails.
func almostEqual(d ir.DType, x, y any, tol float64) bool {
	px, py := parts(d, x), parts(d, y)
	for k := range px {
		a, b := px[k], py[k]
		switch {
		case a == b, math.IsNaN(a) && math.IsNaN(b):
		case math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0):
			return false
		case math.Abs(a-b) <= tol:
		default:
			return false
		}
	}
	return true
}

// ulpDistance: the distance of the bit patterns of |a| and |b|, summed
// across zero when the signs differ; NaN against NaN is 0; any other
// non-finite pair must be bitwise equal (then 0), else not comparable. For
// complex, the larger distance of the two parts.
func ulpDistance(d ir.DType, x, y any) (uint64, bool) {
	pd := d.ComplexPart()
	px, py := parts(d, x), parts(d, y)
	var worst uint64
	for k := range px {
		a, b := px[k], py[k]
		if math.IsNaN(a) && math.IsNaN(b) {
			continue
		}
		ba, sa := magBits(pd, a)
		bb, sb := magBits(pd, b)
		if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
			if ba != bb || sa != sb {
				return 0, false
			}
			continue
		}
		var dist uint64
		if sa == sb {
			dist = max(ba, bb) - min(ba, bb)
		} else {
			dist = ba + bb
		}
		worst = max(worst, dist)
	}
	return worst, true
}

// magBits returns the bit pattern of |v| in type d, and the sign.
func magBits(d ir.DType, v float64) (uint64, bool) {
	neg := math.Signbit(v)
	bits := ir.ElemBits(d, ir.FromFloat64(d, math.Abs(v)))
	return bits, neg
}
