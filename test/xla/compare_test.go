package xla

import (
	"fmt"
	"math"
	"math/cmplx"
	"sort"
	"strings"
	"sync"

	"github.com/stela-ml/stela/ir"
)

// elemDiff is one element on which Stela's evaluator and XLA disagree.
type elemDiff struct {
	c      *tcase
	result int   // which result of the case
	index  int   // element index (row-major)
	in     []any // for elementwise cases: the operands' elements at index
	stela  any   // ir.Eval's element
	xla    any   // XLA's element
	ulps   uint64
	within bool // inside the bound, reported only for the ULP table
}

// inF reads operand k as a float64 (the real part for complex).
func (e elemDiff) inF(k int) float64 {
	return ir.ToFloat64(e.c.in[k].Type.DType, e.in[k])
}

// inC reads operand k as a complex128.
func (e elemDiff) inC(k int) complex128 {
	return ir.ToComplex128(e.c.in[k].Type.DType, e.in[k])
}

// inI reads operand k as an int64 (unsigned values wrap).
func (e elemDiff) inI(k int) int64 { return ir.ToInt64(e.c.in[k].Type.DType, e.in[k]) }

func (e elemDiff) String() string {
	d := e.c.want[e.result].Type.DType
	var ins []string
	for k, v := range e.in {
		ins = append(ins, ir.FormatElem(e.c.in[k].Type.DType, v))
	}
	s := fmt.Sprintf("%s: result #%d[%d]", e.c.name, e.result, e.index)
	if len(ins) > 0 {
		s += fmt.Sprintf(" of (%s)", strings.Join(ins, ", "))
	}
	sv, xv := ir.FormatElem(d, e.stela), ir.FormatElem(d, e.xla)
	if sv == xv && d != ir.C128 {
		// Same text, other bits: NaN payloads.
		sv += fmt.Sprintf(" (%#x)", ir.ElemBits(d, e.stela))
		xv += fmt.Sprintf(" (%#x)", ir.ElemBits(d, e.xla))
	}
	s += fmt.Sprintf(": Stela %s, XLA %s", sv, xv)
	if e.ulps > 0 && e.ulps != math.MaxUint64 {
		s += fmt.Sprintf(" (%d ulp)", e.ulps)
	}
	return s
}

// stats collects the largest ULP distance seen per op and element type of
// the operands, outside the known differences: the measured numbers behind
// ulpBounds, with the element that shows it.
type stats struct {
	mu    sync.Mutex
	max   map[string]uint64 // "op dtype"
	worst map[string]string
}

func (s *stats) note(e elemDiff) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := e.c.op.String() + " " + e.c.dtype.String()
	if e.ulps > s.max[k] || s.worst[k] == "" {
		s.max[k] = e.ulps
		s.worst[k] = e.String()
	}
}

func (s *stats) table() string {
	var keys []string
	for k := range s.max {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		if s.max[k] > 0 {
			fmt.Fprintf(&b, "  %-34s %3d   %s\n", k, s.max[k], s.worst[k])
		}
	}
	return b.String()
}

// unitRoundoff is half the distance from 1 to the next float of type d.
func unitRoundoff(d ir.DType) float64 {
	_, m := floatFormat(d.ComplexPart())
	return math.Ldexp(1, -m-1)
}

// ulpOf is the spacing of d's floats at |x|.
func ulpOf(d ir.DType, x float64) float64 {
	_, m := floatFormat(d)
	x = math.Abs(x)
	if x < minNormal(d) {
		return minSubnormal(d)
	}
	_, e := math.Frexp(x)
	return math.Ldexp(1, e-1-m)
}

// compare checks XLA's results of c against ir.Eval's and returns the
// elements that differ at all (within says whether inside the bound); a
// type or count mismatch comes back as an error. scale, for sumTerms cases,
// is ir.Eval's result on |inputs|.
func compare(c *tcase, scale []*ir.Literal) ([]elemDiff, error) {
	if len(c.got) != len(c.want) {
		return nil, fmt.Errorf("XLA gave %d results, ir.Eval %d", len(c.got), len(c.want))
	}
	var diffs []elemDiff
	for k, want := range c.want {
		got := c.got[k]
		if !got.Type.Equal(want.Type) {
			return nil, fmt.Errorf("result #%d: XLA's type %v, ir.Eval's %v", k, got.Type, want.Type)
		}
		d := want.Type.DType
		bound := c.ulp
		if bound < 0 {
			bound = ulpBound(c.op, c.dtype)
		}
		if *measure {
			bound = 1 << 62
		}
		for i := range want.Len() {
			w, g := want.Elem(i), got.Elem(i)
			var ok bool
			var u uint64
			switch {
			case c.bits || !d.IsFloat() && !d.IsComplex():
				ok = sameBits(d, w, g)
			default:
				ok, u = floatClose(c, d, w, g, bound, scale, k, i)
			}
			if ok && u == 0 {
				continue
			}
			e := elemDiff{c: c, result: k, index: i, stela: w, xla: g, ulps: u, within: ok}
			if c.elementwise {
				for _, a := range c.in {
					if a.Type.Rank() == 0 {
						e.in = append(e.in, a.Elem(0))
					} else {
						e.in = append(e.in, a.Elem(i))
					}
				}
			}
			diffs = append(diffs, e)
		}
	}
	return diffs, nil
}

// floatClose compares one float or complex element. NaN must meet NaN (any
// payload) and an infinity itself, part by part. Real floats compare by
// ULPDistance; complex numbers normwise, |got - want| in units in the last
// place of |want|, which is how complex functions are specified and
// measured (a tiny part next to a large one has no accuracy of its own);
// sums (sumTerms) against their terms. It returns whether the element is
// within the bound and its distance in ULPs.
func floatClose(c *tcase, d ir.DType, w, g any, bound int, scale []*ir.Literal, k, i int) (bool, uint64) {
	wc, gc := ir.ToComplex128(d, w), ir.ToComplex128(d, g)
	part := d.ComplexPart()
	nparts := 1
	if d.IsComplex() {
		nparts = 2
	}
	special := false
	for p := range nparts {
		wv, gv := real(wc), real(gc)
		if p == 1 {
			wv, gv = imag(wc), imag(gc)
		}
		switch {
		case math.IsNaN(wv) || math.IsNaN(gv):
			if !(math.IsNaN(wv) && math.IsNaN(gv)) {
				return false, math.MaxUint64
			}
			special = true
		case math.IsInf(wv, 0) || math.IsInf(gv, 0):
			if wv != gv {
				return false, math.MaxUint64
			}
			special = true
		}
	}
	if c.sumTerms > 0 && scale != nil && !special {
		// A sum's error is bounded by its terms, not by its result,
		// which cancellation can make arbitrarily small.
		sc := ir.ToComplex128(d, scale[k].Elem(i))
		s := math.Abs(real(sc)) + math.Abs(imag(sc))
		if c.sumScale > 0 {
			s = c.sumScale
		}
		tol := float64(c.sumTerms)*unitRoundoff(part)*s + ulpOf(part, cmplx.Abs(wc))
		err := cmplx.Abs(gc - wc)
		return err <= tol, ulpsOf(err, ulpOf(part, cmplx.Abs(wc)))
	}
	var u uint64
	switch {
	case !d.IsComplex():
		u = ir.ULPDistance(part, real(wc), real(gc))
	case special:
		// Compare the finite parts one by one.
		for _, pv := range [][2]float64{{real(wc), real(gc)}, {imag(wc), imag(gc)}} {
			if !math.IsNaN(pv[0]) && !math.IsInf(pv[0], 0) {
				u = max(u, ir.ULPDistance(part, pv[0], pv[1]))
			}
		}
	default:
		u = ulpsOf(cmplx.Abs(gc-wc), ulpOf(part, cmplx.Abs(wc)))
	}
	return u <= uint64(bound), u
}

// ulpsOf is err in units of unit, rounded up, saturating.
func ulpsOf(err, unit float64) uint64 {
	r := math.Ceil(err / unit)
	if r >= 1<<62 || math.IsNaN(r) {
		return 1 << 62
	}
	return uint64(r)
}

// sameBits compares the bit patterns of two elements.
func sameBits(d ir.DType, a, b any) bool {
	if d == ir.C128 {
		x, y := a.(complex128), b.(complex128)
		return math.Float64bits(real(x)) == math.Float64bits(real(y)) && math.Float64bits(imag(x)) == math.Float64bits(imag(y))
	}
	return ir.ElemBits(d, a) == ir.ElemBits(d, b)
}
