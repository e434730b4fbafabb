package stablehlo

import (
	"github.com/stela-ml/stela/internal/minifloat"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
	"sync"
)

// Powers of 5 and 10 for float formatting, computed once: the exponents
// of finite f64 values stay below 1100.
var (
	powOnce sync.Once
	pow5    []*big.Int
	pow10   []*big.Int
)

const powMax = 1200

// pow returns base^n (base 5 or 10); the result must not be modified.
func pow(base, n int) *big.Int {
	powOnce.Do(func() {
		pow5 = make([]*big.Int, powMax)
		pow10 = make([]*big.Int, powMax)
		pow5[0], pow10[0] = big.NewInt(1), big.NewInt(1)
		for i := 1; i < powMax; i++ {
			pow5[i] = new(big.Int).Mul(pow5[i-1], big.NewInt(5))
			pow10[i] = new(big.Int).Mul(pow10[i-1], big.NewInt(10))
		}
	})
	if n >= powMax {
		return new(big.Int).Exp(big.NewInt(int64(base)), big.NewInt(int64(n)), nil)
	}
	if base == 5 {
		return pow5[n]
	}
	return pow10[n]
}

// floatSem describes an IEEE-754-like binary format: p significand bits
// (with the implicit one) and ebits exponent bits.
type floatSem struct {
	name  string
	p     int
	ebits int
	mini  *minifloat.Format // the 8-, 6- and 4-bit formats: their own rules
}

// miniSems are the semantics of the f8, f6 and f4 types.
var miniSems = func() map[ElementType]*floatSem {
	m := map[ElementType]*floatSem{}
	for name, f := range minifloat.Formats {
		f := f
		m[ElementType(name)] = &floatSem{name: name, p: f.Mant + 1, ebits: f.Exp, mini: &f}
	}
	return m
}()

var (
	semF16  = &floatSem{"f16", 11, 5, nil}
	semBF16 = &floatSem{"bf16", 8, 8, nil}
	semF32  = &floatSem{"f32", 24, 8, nil}
	semF64  = &floatSem{"f64", 53, 11, nil}
)

// floatSemOf returns the semantics of a float element type the model
// interprets (f16, bf16, f32, f64), or nil.
func floatSemOf(e ElementType) *floatSem {
	switch e {
	case F16:
		return semF16
	case BF16:
		return semBF16
	case F32:
		return semF32
	case F64:
		return semF64
	}
	return miniSems[e]
}

func (s *floatSem) bits() int {
	if s.mini != nil {
		return s.mini.Bits
	}
	return 1 + s.ebits + s.p - 1
}

func (s *floatSem) bytes() int { return (s.bits() + 7) / 8 }
func (s *floatSem) emax() int  { return 1<<uint(s.ebits-1) - 1 }
func (s *floatSem) emin() int  { return 1 - s.emax() }
func (s *floatSem) fracMask() uint64 {
	return 1<<uint(s.p-1) - 1
}
func (s *floatSem) expMask() uint64 { return 1<<uint(s.ebits) - 1 }

// decode splits a bit pattern into sign, class and |v| = m * 2^e.
// class: 0 zero, 1 finite nonzero, 2 infinity, 3 NaN.
func (s *floatSem) decode(b uint64) (neg bool, class int, m uint64, e int) {
	if s.mini != nil {
		v := s.mini.Decode(b)
		neg = math.Signbit(v)
		switch {
		case v != v:
			return neg, 3, 1, 0
		case math.IsInf(v, 0):
			return neg, 2, 0, 0
		case v == 0:
			return neg, 0, 0, 0
		}
		fr, ex := math.Frexp(math.Abs(v))
		return neg, 1, uint64(math.Ldexp(fr, 53)), ex - 53
	}
	neg = b>>uint(s.bits()-1)&1 == 1
	ef := b >> uint(s.p-1) & s.expMask()
	frac := b & s.fracMask()
	switch {
	case ef == s.expMask():
		if frac == 0 {
			return neg, 2, 0, 0
		}
		return neg, 3, frac, 0
	case ef == 0:
		if frac == 0 {
			return neg, 0, 0, 0
		}
		return neg, 1, frac, s.emin() - (s.p - 1)
	default:
		return neg, 1, frac | 1<<uint(s.p-1), int(ef) - s.emax() - (s.p - 1)
	}
}

// toFloat64 converts a bit pattern of s to a float64, exactly (NaN
// payloads are shifted into the float64 payload).
func (s *floatSem) toFloat64(b uint64) float64 {
	if s == semF64 {
		return math.Float64frombits(b)
	}
	if s.mini != nil {
		return s.mini.Decode(b)
	}
	neg, class, m, e := s.decode(b)
	var f float64
	switch class {
	case 0:
		f = 0
	case 1:
		f = math.Ldexp(float64(m), e)
	case 2:
		f = math.Inf(1)
	case 3:
		sign := uint64(0)
		if neg {
			sign = 1 << 63
		}
		return math.Float64frombits(sign | 0x7FF<<52 | m<<uint(53-s.p))
	}
	if neg {
		f = -f
	}
	return f
}

// fromFloat64 converts f to s with round-to-nearest-even (exact when f is
// representable). NaN payloads keep their top bits.
func (s *floatSem) fromFloat64(f float64) uint64 {
	fb := math.Float64bits(f)
	if s == semF64 {
		return fb
	}
	if s.mini != nil {
		return s.mini.Encode(f)
	}
	sign := fb >> 63 << uint(s.bits()-1)
	if math.IsNaN(f) {
		payload := (fb & (1<<52 - 1)) >> uint(53-s.p)
		if payload == 0 {
			payload = 1 << uint(s.p-2) // quiet NaN
		}
		return sign | s.expMask()<<uint(s.p-1) | payload
	}
	if math.IsInf(f, 0) {
		return sign | s.expMask()<<uint(s.p-1)
	}
	if f == 0 {
		return sign
	}
	// |f| = m * 2^e with m < 2^53.
	ef := int(fb >> 52 & 0x7FF)
	m := fb & (1<<52 - 1)
	e := -1074
	if ef != 0 {
		m |= 1 << 52
		e = ef - 1075
	}
	lead := e + bits.Len64(m) - 1
	te := lead
	if te < s.emin() {
		te = s.emin()
	}
	shift := te - (s.p - 1) - e
	var q uint64
	if shift <= 0 {
		q = m << uint(-shift)
	} else if shift >= 64 {
		q = 0
	} else {
		q = m >> uint(shift)
		rem := m & (1<<uint(shift) - 1)
		half := uint64(1) << uint(shift-1)
		if rem > half || rem == half && q&1 == 1 {
			q++
		}
	}
	if q == 1<<uint(s.p) {
		q >>= 1
		te++
	}
	if te > s.emax() {
		return sign | s.expMask()<<uint(s.p-1)
	}
	if q < 1<<uint(s.p-1) {
		return sign | q
	}
	return sign | uint64(te+s.emax())<<uint(s.p-1) | q&s.fracMask()
}

// parseDecimal parses a decimal float literal into s the way MLIR does:
// to the nearest double, then rounded to s.
func (s *floatSem) parseDecimal(text string) (uint64, bool) {
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return 0, false
	}
	return s.fromFloat64(f), true
}

// formatFloat formats the bit pattern b of semantics s as MLIR's
// printFloatValue does: `%.6e`-style when that reads back exactly,
// otherwise APFloat's shortest natural form, otherwise the raw bits in hex
// (`0x7F800000`), which is also the form for NaN and infinities.
func formatFloat(b uint64, s *floatSem) string {
	neg, class, m, e := s.decode(b)
	if class == 0 || class == 1 {
		str := apfloatString(neg, class, m, e, s.p, 6, 0, false)
		if rb, ok := s.parseDecimal(str); ok && rb == b {
			return str
		}
		str = apfloatString(neg, class, m, e, s.p, 0, 3, true)
		if strings.ContainsRune(str, '.') {
			if rb, ok := s.parseDecimal(str); ok && rb == b {
				return str
			}
		}
	}
	return "0x" + strings.ToUpper(strconv.FormatUint(b, 16))
}

// apfloatString is llvm::APFloat::toString for a finite value
// (-1)^neg * m * 2^e of a format with semPrec significand bits.
func apfloatString(neg bool, class int, m uint64, e int, semPrec, formatPrecision, maxPadding int, truncateZero bool) string {
	var sb strings.Builder
	if neg {
		sb.WriteByte('-')
	}
	if class == 0 {
		if maxPadding == 0 {
			if truncateZero {
				sb.WriteString("0.0E+0")
			} else {
				sb.WriteString("0.0")
				if formatPrecision > 1 {
					sb.WriteString(strings.Repeat("0", formatPrecision-1))
				}
				sb.WriteString("e+00")
			}
		} else {
			sb.WriteByte('0')
		}
		return sb.String()
	}
	if formatPrecision == 0 {
		formatPrecision = 2 + semPrec*59/196
	}
	// Drop trailing binary zeros.
	tz := bits.TrailingZeros64(m)
	m >>= uint(tz)
	exp := e + tz
	sig := new(big.Int).SetUint64(m)
	if exp > 0 {
		sig.Lsh(sig, uint(exp))
		exp = 0
	} else if exp < 0 {
		sig.Mul(sig, pow(5, -exp))
	}
	// AdjustToPrecision on the integer: drop (truncate) decimal digits
	// far beyond the precision.
	{
		bitsHave := sig.BitLen()
		bitsRequired := (formatPrecision*196 + 58) / 59
		if bitsHave > bitsRequired {
			tens := (bitsHave - bitsRequired) * 59 / 196
			if tens > 0 {
				exp += tens
				sig.Quo(sig, pow(10, tens))
			}
		}
	}
	digits := sig.String() // most significant first
	// Drop trailing decimal zeros.
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	// AdjustToPrecision on the digits: round half up.
	if n := len(digits); n > formatPrecision {
		if digits[formatPrecision] < '5' {
			kept := strings.TrimRight(digits[:formatPrecision], "0")
			exp += n - len(kept)
			digits = kept
		} else {
			kept := []byte(digits[:formatPrecision])
			i := len(kept) - 1
			for i >= 0 && kept[i] == '9' {
				i--
			}
			if i < 0 {
				exp += n
				digits = "1"
			} else {
				kept[i]++
				kept = kept[:i+1]
				exp += n - len(kept)
				digits = string(kept)
			}
		}
	}
	nd := len(digits)
	var scientific bool
	if maxPadding == 0 {
		scientific = true
	} else if exp >= 0 {
		scientific = exp > maxPadding || nd+exp > formatPrecision
	} else {
		msd := exp + nd - 1
		if msd >= 0 {
			scientific = false
		} else {
			scientific = -msd > maxPadding
		}
	}
	if scientific {
		exp += nd - 1
		sb.WriteByte(digits[0])
		sb.WriteByte('.')
		if nd == 1 && truncateZero {
			sb.WriteByte('0')
		} else {
			sb.WriteString(digits[1:])
		}
		if !truncateZero && formatPrecision > nd-1 {
			sb.WriteString(strings.Repeat("0", formatPrecision-nd+1))
		}
		if truncateZero {
			sb.WriteByte('E')
		} else {
			sb.WriteByte('e')
		}
		if exp >= 0 {
			sb.WriteByte('+')
		} else {
			sb.WriteByte('-')
			exp = -exp
		}
		es := strconv.Itoa(exp)
		if !truncateZero && len(es) < 2 {
			es = "0" + es
		}
		sb.WriteString(es)
		return sb.String()
	}
	if exp >= 0 {
		sb.WriteString(digits)
		sb.WriteString(strings.Repeat("0", exp))
		return sb.String()
	}
	whole := exp + nd
	if whole > 0 {
		sb.WriteString(digits[:whole])
		sb.WriteByte('.')
		sb.WriteString(digits[whole:])
	} else {
		sb.WriteString("0.")
		sb.WriteString(strings.Repeat("0", -whole))
		sb.WriteString(digits)
	}
	return sb.String()
}

// FloatFromBits returns the value of the floating-point bit pattern b of
// element type e (f16, bf16, f32, f64, f8 variants, ...); ok is false for
// types the model does not interpret.
func FloatFromBits(e ElementType, b uint64) (v float64, ok bool) {
	s := floatSemOf(e)
	if s == nil {
		return 0, false
	}
	return s.toFloat64(b), true
}
