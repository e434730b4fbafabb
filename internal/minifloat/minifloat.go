// Package minifloat is the arithmetic of the 8-, 6- and 4-bit float
// formats of StableHLO (f8E4M3FN, f8E5M2, ..., f4E2M1FN), shared by the
// StableHLO model (dense literals), the IR's reference evaluator and the
// CPU code generator.
//
// Values widen to float64 exactly and round from it once, to nearest
// with ties to even, with each format's own rules for what does not fit,
// as ml_dtypes (and LLVM's APFloat) define them:
//
//   - f8E5M2, f8E4M3, f8E3M4 are IEEE-like: ±Inf at the all-ones exponent
//     with a zero mantissa, NaNs above it; overflow gives ±Inf;
//   - f8E4M3FN ("finite, NaN"): no Inf, NaN only at S.1111.111; overflow
//     and ±Inf give NaN;
//   - f8E4M3FNUZ, f8E5M2FNUZ, f8E4M3B11FNUZ ("unsigned zero"): one NaN, at
//     0x80 (the bit pattern of -0), no Inf, no -0 (a negative value that
//     rounds to zero gives +0); overflow and ±Inf give NaN; the exponent
//     bias is one more than IEEE's (11 for B11);
//   - f8E8M0FNU is an exponent only: 2^(e-127), no sign, no zero, NaN at
//     0xFF; a value rounds by its significand (1.5·2^e and up go to
//     2^(e+1)); zero, negative values and NaN give NaN, values below 2^-127
//     give 2^-127, overflow gives NaN;
//   - f6E2M3FN, f6E3M2FN, f4E2M1FN have neither Inf nor NaN: overflow and
//     ±Inf saturate to ±max; NaN gives +0 (ml_dtypes gives a zero of the
//     opposite sign; a NaN has no meaning in these types).
package minifloat

import "math"

// NaNKind is how a narrow float format encodes what does not fit.
type NaNKind uint8

// NaN kinds.
const (
	NaNIEEE   NaNKind = iota // ±Inf at exponent all ones, mantissa 0; NaNs above
	NaNFN                    // no Inf; NaN = S.1...1.1...1
	NaNFNUZ                  // no Inf, no -0; one NaN at 0x80
	NaNE8M0                  // exponent only; NaN = 0xFF
	NaNFinite                // no Inf, no NaN: overflow saturates
)

// Format describes a narrow float type.
type Format struct {
	Bits, Exp, Mant int // total, exponent and explicit mantissa bits
	Bias            int
	Kind            NaNKind
}

// Formats are the formats by their MLIR names.
var Formats = map[string]Format{
	"f8E4M3FN":      {8, 4, 3, 7, NaNFN},
	"f8E5M2":        {8, 5, 2, 15, NaNIEEE},
	"f8E4M3FNUZ":    {8, 4, 3, 8, NaNFNUZ},
	"f8E5M2FNUZ":    {8, 5, 2, 16, NaNFNUZ},
	"f8E4M3B11FNUZ": {8, 4, 3, 11, NaNFNUZ},
	"f8E4M3":        {8, 4, 3, 7, NaNIEEE},
	"f8E3M4":        {8, 3, 4, 3, NaNIEEE},
	"f8E8M0FNU":     {8, 8, 0, 127, NaNE8M0},
	"f6E2M3FN":      {6, 2, 3, 1, NaNFinite},
	"f6E3M2FN":      {6, 3, 2, 3, NaNFinite},
	"f4E2M1FN":      {4, 2, 1, 1, NaNFinite},
}

// Emin is the exponent of the smallest normal value.
func (f Format) Emin() int { return 1 - f.Bias }

func (f Format) signBit() uint64 {
	if f.Kind == NaNE8M0 {
		return 0
	}
	return 1 << (f.Bits - 1)
}

// MaxCode is the bit pattern of the largest finite value.
func (f Format) MaxCode() uint64 {
	switch f.Kind {
	case NaNIEEE:
		return (1<<f.Exp-1)<<f.Mant - 1
	case NaNFN:
		return 1<<(f.Bits-1) - 2
	case NaNE8M0:
		return 0xFE
	}
	return 1<<(f.Bits-1) - 1
}

// NaNCode is the bit pattern a NaN converts to (with sign bit clear; the
// IEEE and FN kinds keep the NaN's sign), or 0 for the finite-only types.
func (f Format) NaNCode() uint64 {
	switch f.Kind {
	case NaNIEEE:
		return (1<<f.Exp-1)<<f.Mant | 1<<(f.Mant-1)
	case NaNFN:
		return 1<<(f.Bits-1) - 1
	case NaNFNUZ:
		return 1 << (f.Bits - 1)
	case NaNE8M0:
		return 0xFF
	}
	return 0
}

// Decode widens a bit pattern (the low f.Bits bits of b) to float64,
// exactly.
func (f Format) Decode(b uint64) float64 {
	b &= 1<<f.Bits - 1
	if f.Kind == NaNE8M0 {
		if b == 0xFF {
			return math.NaN()
		}
		return math.Ldexp(1, int(b)-127)
	}
	neg := b&f.signBit() != 0
	mag := b &^ f.signBit()
	e := int(mag >> f.Mant)
	m := mag & (1<<f.Mant - 1)
	var v float64
	switch {
	case f.Kind == NaNFNUZ && b == f.NaNCode():
		return math.NaN()
	case f.Kind == NaNFN && mag == f.NaNCode():
		return math.Copysign(math.NaN(), sgn(neg))
	case f.Kind == NaNIEEE && e == 1<<f.Exp-1:
		if m == 0 {
			return math.Inf(int(sgn(neg)))
		}
		return math.Copysign(math.NaN(), sgn(neg))
	case e == 0:
		v = math.Ldexp(float64(m), 1-f.Bias-f.Mant)
	default:
		v = math.Ldexp(float64(m|1<<f.Mant), e-f.Bias-f.Mant)
	}
	return math.Copysign(v, sgn(neg))
}

func sgn(neg bool) float64 {
	if neg {
		return -1
	}
	return 1
}

// Encode rounds x once to nearest even into the format and returns the
// bit pattern (see the rules at the top of this file).
func (f Format) Encode(x float64) uint64 {
	if f.Kind == NaNE8M0 {
		if x != x || x <= 0 || math.IsInf(x, 1) {
			return 0xFF
		}
		fr, e := math.Frexp(x) // x = fr·2^e, fr in [0.5, 1)
		e--
		if fr >= 0.75 {
			e++
		}
		switch {
		case e < -127:
			return 0
		case e > 127:
			return 0xFF
		}
		return uint64(e + 127)
	}
	var sign uint64
	if math.Signbit(x) {
		sign = f.signBit()
	}
	if x != x {
		switch f.Kind {
		case NaNIEEE, NaNFN:
			return sign | f.NaNCode()
		}
		return f.NaNCode()
	}
	code := f.MaxCode() + 1 // overflow, unless x rounds to a finite value
	if !math.IsInf(x, 0) {
		a := math.Abs(x)
		emin := 1 - f.Bias
		e := emin
		if a != 0 {
			_, e = math.Frexp(a)
			e = max(e-1, emin)
		}
		q := e - f.Mant
		n := math.RoundToEven(math.Ldexp(a, -q)) // at most 2^(Mant+1)
		c := uint64(n) + uint64(e-emin)<<f.Mant
		if c <= f.MaxCode() {
			code = c
		}
	}
	if code > f.MaxCode() {
		switch f.Kind {
		case NaNIEEE:
			code = (1<<f.Exp - 1) << f.Mant
		case NaNFN:
			code = f.NaNCode()
		case NaNFNUZ:
			return f.NaNCode()
		default:
			code = f.MaxCode()
		}
	}
	if code == 0 && f.Kind == NaNFNUZ {
		return 0
	}
	return sign | code
}
