package tensor

import (
	"fmt"
	"math"

	"github.com/stela-ml/stela/ir"
)

// Random numbers: JAX's counter-based, splittable PRNG (threefry2x32 with
// jax_threefry_partitionable, the default in JAX 0.10.2), bit for bit.
//
// A key is an ordinary ui32[2] tensor, the raw data of a JAX key
// (jax.random.key_data(jax.random.key(seed))). There is no hidden state:
// the same key gives the same numbers, and a program that needs several
// streams splits its key (SplitKey) or folds data into it (FoldIn), as in
// JAX. Being a tensor, a key passes through jit.Compile as an argument,
// lives on any device and is traced like any other operand.
//
// The samplers are compositions of the IR's integer and float ops (add,
// xor, shifts, bitcast_convert, ...): eagerly each runs as one program
// (program.go), compiled once per shape, on the key's device, in a trace they become plain StableHLO, with no custom call
// and no rng_bit_generator, so a stream is the same on every device and
// plugin. The hash is threefry2x32 (Salmon et al., "Parallel random
// numbers: as easy as 1, 2, 3", SC 2011), 20 rounds, applied once to the
// whole array of counters. With jax_threefry_partitionable the counter of
// element i (row-major) of an output is the 64-bit number i, as the pair
// of words (i >> 32, i & 0xffffffff); a split key i is the hash of counter
// i, and 32 random bits are the xor of the hash's two words.
//
// What follows JAX exactly and what does not (each function says which):
// keys, SplitKey, FoldIn, RandomBits, RandomUniform and RandomBernoulli
// are JAX's to the bit. RandomNormal and RandomTruncatedNormal go through
// the inverse error function, which Stela builds from the same polynomial
// XLA uses (Giles, "Approximating the erfinv function", 2010) but over its
// own log1p and without XLA's contraction of the polynomial's steps into
// fused multiply-adds: they are JAX's within a few ulps (the tests state
// the bound). RandomCategorical takes two logarithms and an argmax: equal
// to JAX's except where two candidates are within an ulp of each other.

// Names of the random functions, for errors (names.go explains).
const (
	opSplitKey              = "split_key"
	opFoldIn                = "fold_in"
	opRandomBits            = "random_bits"
	opRandomUniform         = "random_uniform"
	opRandomNormal          = "random_normal"
	opRandomTruncatedNormal = "random_truncated_normal"
	opRandomBernoulli       = "random_bernoulli"
	opRandomCategorical     = "random_categorical"
)

// The random functions are composites (names.go): registered here, beside
// their names, rather than in names.go's table.
func init() {
	for _, n := range []string{opSplitKey, opFoldIn, opRandomBits, opRandomUniform, opRandomNormal,
		opRandomTruncatedNormal, opRandomBernoulli, opRandomCategorical} {
		composites[n] = true
	}
}

// RandomKey makes the key for seed: a concrete ui32[2] tensor holding the
// seed's high and low 32-bit words. It equals JAX's
// jax.random.PRNGKey(seed) (jax.random.key_data(jax.random.key(seed))) for
// every seed with jax_enable_x64, and for seeds below 2^32 without it
// (JAX then truncates the seed to 32 bits). A negative JAX seed s is
// RandomKey(uint64(s)) under x64. Like FromSlice it is a data constructor:
// inside a traced function the key becomes a parameter of the program.
func RandomKey(seed uint64) *Tensor {
	return FromSlice([]uint32{uint32(seed >> 32), uint32(seed)})
}

// SplitKey derives n new keys from key: key i is
// jax.random.split(key, n)[i]. The new keys are independent of each other
// and of key; use one for each purpose and do not reuse key itself.
// n may be 0 (no keys).
func SplitKey(key *Tensor, n int) []*Tensor {
	if n > 0 && allConcrete([]*Tensor{key}) {
		return asProgram(opSplitKey, fmt.Sprint(n), []*Tensor{key}, func(a []*Tensor) []*Tensor { return SplitKey(a[0], n) })
	}
	defer named(opSplitKey)
	k1, k2 := keyWords(opSplitKey, key)
	if n < 0 {
		panic(fail(opSplitKey, "cannot split a key into %d keys", n))
	}
	out := make([]*Tensor, n)
	if n == 0 {
		return out
	}
	hi, lo := counters(k1, []int{n})
	b1, b2 := threefry2x32(k1, k2, hi, lo)
	keys := Concat(1, Reshape(b1, n, 1), Reshape(b2, n, 1))
	for i := range out {
		out[i] = Reshape(Slice(keys, []int{i, 0}, []int{i + 1, 2}, nil), 2)
	}
	return out
}

// FoldIn derives a new key from key and data: jax.random.fold_in(key,
// data), the hash of the counter pair (0, data). Folding in a step number
// or an example index gives each its own stream without splitting. As in
// JAX, split key i hashes the same counter: FoldIn(key, i) equals
// SplitKey(key, n)[i], so derive keys meant to differ one way or the
// other, not both.
func FoldIn(key *Tensor, data uint32) *Tensor {
	if allConcrete([]*Tensor{key}) {
		return asProgram(opFoldIn, fmt.Sprint(data), []*Tensor{key}, func(a []*Tensor) []*Tensor { return []*Tensor{FoldIn(a[0], data)} })[0]
	}
	defer named(opFoldIn)
	k1, k2 := keyWords(opFoldIn, key)
	y0, y1 := threefry2x32(k1, k2, ScalarLike(k1, 0), ScalarLike(k1, float64(data)))
	return Concat(0, Reshape(y0, 1), Reshape(y1, 1))
}

// RandomBits returns uniformly random bits as unsigned integers of type dt
// (ui8, ui16, ui32 or ui64) and the given shape: jax.random.bits(key,
// shape, dt). ui32 elements are the xor of the two words threefry makes
// for the element's counter, ui64 elements the two words side by side
// (first word high), ui8 and ui16 the low bits of the xor.
func RandomBits(key *Tensor, dt ir.DType, shape ...int) *Tensor {
	if allConcrete([]*Tensor{key}) {
		return asProgram(opRandomBits, fmt.Sprint(dt, shape), []*Tensor{key}, func(a []*Tensor) []*Tensor { return []*Tensor{RandomBits(a[0], dt, shape...)} })[0]
	}
	defer named(opRandomBits)
	k1, k2 := keyWords(opRandomBits, key)
	if !dt.IsUnsigned() {
		panic(fail(opRandomBits, "element type %v is not an unsigned integer type (want ui8, ui16, ui32 or ui64)", dt))
	}
	checkRandomShape(opRandomBits, shape)
	return randomBits(k1, k2, dt, shape)
}

// RandomUniform returns floats of type dt (f16, bf16, f32 or f64) drawn
// uniformly from [lo, hi): jax.random.uniform(key, shape, dt, lo, hi), bit
// for bit. lo and hi are rounded to dt first; they must be finite there,
// with lo <= hi.
//
// As JAX does, it sets the mantissa of 1.0 to random bits (for bf16, 8
// random bits shifted right by one), subtracts 1 and scales:
// max(lo, u·(hi-lo) + lo). On CPU and GPU, XLA contracts u·(hi-lo) + lo
// into one fused multiply-add (for f16, f32 and f64; bf16 is computed in
// f32 op by op), so JAX's numbers are that sum rounded once. Stela's IR
// has no fused multiply-add and rounds every op, so the sum is computed
// exactly with error-free transformations (fusedMulAdd) and rounded once,
// the same numbers on every device. When hi-lo is a power of two the
// product is exact and a plain multiply and add give them too.
func RandomUniform(key *Tensor, dt ir.DType, shape []int, lo, hi float64) *Tensor {
	if allConcrete([]*Tensor{key}) {
		return asProgram(opRandomUniform, fmt.Sprint(dt, shape, lo, hi), []*Tensor{key}, func(a []*Tensor) []*Tensor { return []*Tensor{RandomUniform(a[0], dt, shape, lo, hi)} })[0]
	}
	defer named(opRandomUniform)
	k1, k2 := keyWords(opRandomUniform, key)
	checkRandomFloat(opRandomUniform, dt)
	checkRandomShape(opRandomUniform, shape)
	l, h := roundTo(dt, lo), roundTo(dt, hi)
	if math.IsNaN(l) || math.IsInf(l, 0) || math.IsNaN(h) || math.IsInf(h, 0) {
		panic(fail(opRandomUniform, "bounds [%v, %v) are not finite in %v", lo, hi, dt))
	}
	if l > h {
		panic(fail(opRandomUniform, "lower bound %v is above the upper bound %v", lo, hi))
	}
	return uniform(k1, k2, dt, shape, l, h)
}

// RandomNormal returns standard normal floats of type dt (f16, bf16, f32
// or f64): jax.random.normal(key, shape, dt), computed as JAX computes it,
// √2·erfinv(u) for u uniform in (-1, 1), with XLA's erfinv polynomial (f16
// and bf16 in f32). It equals JAX's numbers within a few ulps: XLA
// evaluates the polynomial with fused multiply-adds and its own log1p,
// which Stela does not copy; the uniform numbers underneath are JAX's
// exactly.
func RandomNormal(key *Tensor, dt ir.DType, shape ...int) *Tensor {
	if allConcrete([]*Tensor{key}) {
		return asProgram(opRandomNormal, fmt.Sprint(dt, shape), []*Tensor{key}, func(a []*Tensor) []*Tensor { return []*Tensor{RandomNormal(a[0], dt, shape...)} })[0]
	}
	defer named(opRandomNormal)
	k1, k2 := keyWords(opRandomNormal, key)
	checkRandomFloat(opRandomNormal, dt)
	checkRandomShape(opRandomNormal, shape)
	_, mant := floatBits(dt)
	// nextafter(-1, 0) in dt: erfinv(-1) would be -inf.
	u := uniform(k1, k2, dt, shape, -(1 - math.Ldexp(1, -(mant+1))), 1)
	return Mul(ScalarLike(u, math.Sqrt2), erfInv(u))
}

// RandomTruncatedNormal returns standard normal floats of type dt (f16,
// bf16, f32 or f64) conditioned on lo < x < hi:
// jax.random.truncated_normal(key, lo, hi, shape, dt), the initializers'
// sampler. As in JAX it maps uniform numbers between erf(lo/√2) and
// erf(hi/√2) through √2·erfinv and clamps the result to the open interval.
// lo and hi are rounded to dt; lo < hi, and either may be infinite.
//
// It equals JAX's numbers within a few ulps, for the reasons RandomNormal
// gives, and because erf(lo/√2) and erf(hi/√2) are computed on the host
// (Go's math.Erf, rounded to dt; f16 and bf16 through f32, as XLA does)
// where XLA uses its own erf: they may differ by an ulp, and the uniform
// numbers between them then do slightly.
func RandomTruncatedNormal(key *Tensor, dt ir.DType, lo, hi float64, shape ...int) *Tensor {
	if allConcrete([]*Tensor{key}) {
		return asProgram(opRandomTruncatedNormal, fmt.Sprint(dt, shape, lo, hi), []*Tensor{key}, func(a []*Tensor) []*Tensor { return []*Tensor{RandomTruncatedNormal(a[0], dt, lo, hi, shape...)} })[0]
	}
	defer named(opRandomTruncatedNormal)
	k1, k2 := keyWords(opRandomTruncatedNormal, key)
	checkRandomFloat(opRandomTruncatedNormal, dt)
	checkRandomShape(opRandomTruncatedNormal, shape)
	l, h := roundTo(dt, lo), roundTo(dt, hi)
	if math.IsNaN(l) || math.IsNaN(h) || !(l < h) {
		panic(fail(opRandomTruncatedNormal, "bounds (%v, %v) are not an interval in %v: want lo < hi", lo, hi, dt))
	}
	sqrt2 := roundTo(dt, math.Sqrt2)
	erf := func(x float64) float64 {
		// x/√2 in dt: the f64 quotient of two dt values rounds to dt
		// as a division in dt would (53 >= 2·24+2 bits: the double
		// rounding is innocuous).
		q := roundTo(dt, x/sqrt2)
		if dt == ir.F64 {
			return math.Erf(q)
		}
		return roundTo(dt, roundTo(ir.F32, math.Erf(q)))
	}
	u := uniform(k1, k2, dt, shape, erf(l), erf(h))
	out := Mul(ScalarLike(u, sqrt2), erfInv(u))
	return Clamp(out, ScalarLike(out, nextToward(dt, l, math.Inf(1))), ScalarLike(out, nextToward(dt, h, math.Inf(-1))))
}

// RandomBernoulli returns i1 values that are true with probability p:
// jax.random.bernoulli(key, p, shape) with p an f32 (JAX's default without
// jax_enable_x64; the same as passing jnp.float32(p)), that is, an f32
// RandomUniform below p. p must be in [0, 1].
func RandomBernoulli(key *Tensor, p float64, shape ...int) *Tensor {
	if allConcrete([]*Tensor{key}) {
		return asProgram(opRandomBernoulli, fmt.Sprint(shape, p), []*Tensor{key}, func(a []*Tensor) []*Tensor { return []*Tensor{RandomBernoulli(a[0], p, shape...)} })[0]
	}
	defer named(opRandomBernoulli)
	k1, k2 := keyWords(opRandomBernoulli, key)
	if !(p >= 0 && p <= 1) {
		panic(fail(opRandomBernoulli, "probability %v is not in [0, 1]", p))
	}
	checkRandomShape(opRandomBernoulli, shape)
	u := uniform(k1, k2, ir.F32, shape, 0, 1)
	return Less(u, ScalarLike(u, p))
}

// RandomCategorical draws one index (si32) along axis for each
// distribution that logits (a float tensor of unnormalized log
// probabilities) holds along that axis; the result has logits' shape
// without axis: jax.random.categorical(key, logits, axis). As in JAX it
// uses the Gumbel-max trick, argmax(logits + g) with g = -log(-log(u)) for
// u uniform in [tiny, 1) of logits' shape and type. It equals JAX's
// indices except where two of the sums are within an ulp of each other
// (the logarithms are Stela's, within an ulp of XLA's).
func RandomCategorical(key *Tensor, logits *Tensor, axis int) *Tensor {
	if allConcrete([]*Tensor{key, logits}) {
		return asProgram(opRandomCategorical, fmt.Sprint(axis), []*Tensor{key, logits}, func(a []*Tensor) []*Tensor { return []*Tensor{RandomCategorical(a[0], a[1], axis)} })[0]
	}
	defer named(opRandomCategorical)
	k1, k2 := keyWords(opRandomCategorical, key)
	checkNotNil(opRandomCategorical, logits)
	dt := logits.DType()
	if !dt.IsFloat() {
		panic(fail(opRandomCategorical, "logits are %v, want a float type (f16, bf16, f32 or f64)", logits.typ))
	}
	a := normAxis(opRandomCategorical, axis, logits.Rank())
	if logits.typ.Shape[a] == 0 {
		panic(fail(opRandomCategorical, "logits %v have no categories along axis %d", logits.typ, axis))
	}
	exp, _ := floatBits(dt)
	tiny := math.Ldexp(1, 2-(1<<(exp-1))) // the smallest normal number
	u := uniform(k1, k2, dt, logits.typ.Shape, tiny, 1)
	g := Neg(Log(Neg(Log(u))))
	return ArgMax(Add(g, logits), a)
}

// keyWords checks that key is a key (ui32[2]) and returns its two words as
// ui32 scalars.
func keyWords(op string, key *Tensor) (k1, k2 *Tensor) {
	checkNotNil(op, key)
	if key.typ.DType != ir.U32 || !ir.ShapeEqual(key.typ.Shape, []int{2}) {
		panic(fail(op, "key is %v, want ui32[2] (a key from RandomKey, SplitKey or FoldIn)", key.typ))
	}
	return Reshape(Slice(key, []int{0}, []int{1}, nil)), Reshape(Slice(key, []int{1}, []int{2}, nil))
}

func checkRandomShape(op string, shape []int) {
	if err := checkShape(shape); err != nil {
		panic(fail(op, "%v", err))
	}
}

func checkRandomFloat(op string, dt ir.DType) {
	if !dt.IsFloat() {
		panic(fail(op, "element type %v is not a float type (want f16, bf16, f32 or f64)", dt))
	}
}

// floatBits returns the exponent and stored mantissa widths of a float
// type.
func floatBits(dt ir.DType) (exp, mant int) {
	switch dt {
	case ir.F16:
		return 5, 10
	case ir.BF16:
		return 8, 7
	case ir.F32:
		return 8, 23
	}
	return 11, 52
}

// uintOfBits is the unsigned integer type of a width.
func uintOfBits(bits int) ir.DType {
	switch bits {
	case 8:
		return ir.U8
	case 16:
		return ir.U16
	case 32:
		return ir.U32
	}
	return ir.U64
}

// roundTo rounds v to the float type dt (as Convert would) and returns it
// as a float64.
func roundTo(dt ir.DType, v float64) float64 { return ir.ScalarLiteral(dt, v).Float64s()[0] }

// nextToward is C's nextafter in the float type dt: the neighbour of v (a
// value of dt) in the direction of dir.
func nextToward(dt ir.DType, v, dir float64) float64 {
	if v == dir || math.IsNaN(v) || math.IsNaN(dir) {
		return v
	}
	l := ir.ScalarLiteral(dt, v)
	b := ir.ElemBits(dt, l.Elem(0))
	switch {
	case v == 0: // the smallest subnormal, signed toward dir
		b = 1
		if dir < 0 {
			b |= 1 << (dt.Bits() - 1)
		}
	case (v < dir) == (v > 0): // away from zero: the magnitude grows
		b++
	default:
		b--
	}
	l.SetElem(0, ir.ElemFromBits(dt, b))
	return l.Float64s()[0]
}

// counters are JAX's iota_2x32_shape: the row-major index of each element
// of shape as a 64-bit number, split into its high and low 32-bit words.
func counters(like *Tensor, shape []int) (hi, lo *Tensor) {
	n := 1
	for _, d := range shape {
		n *= d
	}
	i := IotaLike(like, ir.U64, []int{n}, 0)
	lo = Reshape(Convert(i, ir.U32), shape...)
	hi = Reshape(Convert(shiftRight(i, 32), ir.U32), shape...)
	return hi, lo
}

// randomBits is RandomBits after the checks: JAX's
// _threefry_random_bits_partitionable.
func randomBits(k1, k2 *Tensor, dt ir.DType, shape []int) *Tensor {
	hi, lo := counters(k1, shape)
	b1, b2 := threefry2x32(k1, k2, hi, lo)
	switch dt {
	case ir.U64:
		return Or(shiftLeft(Convert(b1, ir.U64), 32), Convert(b2, ir.U64))
	case ir.U32:
		return Xor(b1, b2)
	}
	return Convert(Xor(b1, b2), dt) // integer converts wrap: the low bits
}

// threefry2x32 hashes the counter pairs (x0, x1), ui32 tensors of one
// shape, under the key (k1, k2), ui32 scalars: 20 rounds of Threefry-2x32
// with a key injection after every 4, as JAX's _threefry2x32_lowering. The
// key words are added to the counters as scalars broadcast to their shape,
// and the rotations are a shift left, a logical shift right and an or.
func threefry2x32(k1, k2, x0, x1 *Tensor) (*Tensor, *Tensor) {
	rotations := [2][4]uint32{{13, 15, 26, 6}, {17, 29, 16, 24}}
	ks := [3]*Tensor{k1, k2, Xor(Xor(k1, k2), ScalarLike(k1, 0x1BD11BDA))}
	// Shift amounts, as tensors of the counters' shape, made once.
	amounts := map[uint32]*Tensor{}
	amount := func(r uint32) *Tensor {
		if a, ok := amounts[r]; ok {
			return a
		}
		a := FullLike(x1, float64(r))
		amounts[r] = a
		return a
	}
	x0 = Add(x0, ks[0])
	x1 = Add(x1, ks[1])
	for i := range 5 {
		for _, r := range rotations[i%2] {
			x0 = Add(x0, x1)
			rot := Or(binary(ir.OpShiftLeft, x1, amount(r)), binary(ir.OpShiftRightLogical, x1, amount(32-r)))
			x1 = Xor(x0, rot)
		}
		// (x1 + k) + (i+1) = x1 + (k + (i+1)) in wrapping arithmetic:
		// the constant is added to the scalar key word, not the array.
		x0 = Add(x0, ks[(i+1)%3])
		x1 = Add(x1, Add(ks[(i+2)%3], ScalarLike(k1, float64(i+1))))
	}
	return x0, x1
}

// shiftLeft and shiftRight shift the unsigned integers x by n bits.
func shiftLeft(x *Tensor, n int) *Tensor {
	return binary(ir.OpShiftLeft, x, FullLike(x, float64(n)))
}

func shiftRight(x *Tensor, n int) *Tensor {
	return binary(ir.OpShiftRightLogical, x, FullLike(x, float64(n)))
}

// uniform is RandomUniform after the checks, with lo and hi values of dt:
// JAX's _uniform.
func uniform(k1, k2 *Tensor, dt ir.DType, shape []int, lo, hi float64) *Tensor {
	nbits := dt.Bits()
	_, nmant := floatBits(dt)
	// bf16 has only 7 mantissa bits: JAX draws 8 random bits for it.
	rngBits := nbits
	if nmant < 8 {
		rngBits = 8
	}
	bits := randomBits(k1, k2, uintOfBits(rngBits), shape)
	udt := uintOfBits(nbits)
	bits = Convert(bits, udt)
	one := ir.ElemBits(dt, ir.FromFloat64(dt, 1))
	fbits := Or(shiftRight(bits, rngBits-nmant), FullLike(bits, float64(one)))
	f := BitcastConvert(fbits, dt)
	f = Sub(f, ScalarLike(f, 1))
	return Maximum(ScalarLike(f, lo), scaleUniform(f, lo, hi))
}

// scaleUniform is f·(hi-lo) + lo for f in [0, 1), rounded as XLA rounds it
// on CPU and GPU (see RandomUniform): once for f16, f32 and f64, after each
// op for bf16.
func scaleUniform(f *Tensor, lo, hi float64) *Tensor {
	dt := f.DType()
	// hi-lo in dt: the f64 difference of two values of dt, rounded, is
	// their difference rounded in dt (for f16, bf16 and f32 the double
	// rounding is innocuous: 53 >= 2·24+2).
	d := roundTo(dt, hi-lo)
	if dt == ir.BF16 || exactScale(dt, d) {
		return Add(Mul(f, ScalarLike(f, d)), ScalarLike(f, lo))
	}
	return fusedMulAdd(f, ScalarLike(f, d), ScalarLike(f, lo))
}

// exactScale reports whether f·d is exact for every f in [0, 1) of dt's
// uniform numbers (multiples of 2^-nmant): d is zero or a power of two
// whose products stay normal.
func exactScale(dt ir.DType, d float64) bool {
	if d == 0 {
		return true
	}
	frac, e := math.Frexp(math.Abs(d))
	exp, mant := floatBits(dt)
	minExp := 2 - (1 << (exp - 1)) // the smallest normal is 2^minExp
	return frac == 0.5 && e-1-mant >= minExp
}

// fusedMulAdd is a·b + c rounded once, for float tensors of one type (b
// and c may be scalars), built from ops that each round: the IR has no
// fused multiply-add. f16 and f32 are computed in f64, where a·b is exact,
// the sum is rounded to odd (Boldo and Melquiond, "Emulation of FMA and
// correctly rounded sums: proved algorithms using rounding to odd", IEEE
// Trans. Computers 57(4), 2008: rounding to odd with at least two more
// bits, then to nearest, is rounding to nearest once) and converted. f64
// is their emulated FMA: the exact product as a pair (Dekker's product of
// Veltkamp halves), a Two-Sum with c, the two low parts added rounded to
// odd, and the final sum rounded to nearest. Exact when no intermediate
// overflows or underflows (|a|, |b| below 2^995, products of the halves
// above 2^-969), which holds for the uniform numbers it scales.
func fusedMulAdd(a, b, c *Tensor) *Tensor {
	dt := a.DType()
	if dt != ir.F64 {
		p := Mul(Convert(a, ir.F64), Convert(b, ir.F64))
		s, e := twoSum(p, Convert(c, ir.F64))
		return Convert(roundOdd(s, e), dt)
	}
	uh, ul := twoProd(a, b)
	th, tl := twoSum(c, uh)
	v := roundOdd(twoSum(tl, ul))
	return Add(th, v)
}

// twoSum returns s = a+b rounded and its error e: s + e = a + b exactly
// (Knuth's Two-Sum, six ops, no condition on the operands' order).
func twoSum(a, b *Tensor) (s, e *Tensor) {
	s = Add(a, b)
	bv := Sub(s, a)
	av := Sub(s, bv)
	return s, Add(Sub(a, av), Sub(b, bv))
}

// twoProd returns p = a·b rounded and its error e, p + e = a·b exactly,
// for f64 (Dekker's product; a and b split into 26-bit halves by
// Veltkamp's method, so that the halves' products are exact).
func twoProd(a, b *Tensor) (p, e *Tensor) {
	split := func(x *Tensor) (hi, lo *Tensor) {
		g := Mul(x, ScalarLike(x, 1<<27+1))
		hi = Sub(g, Sub(g, x))
		return hi, Sub(x, hi)
	}
	ah, al := split(a)
	bh, bl := split(b)
	p = Mul(a, b)
	e = Add(Add(Add(Sub(Mul(ah, bh), p), Mul(ah, bl)), Mul(al, bh)), Mul(al, bl))
	return p, e
}

// roundOdd turns s, the f64 sum rounded to nearest of two numbers whose
// exact sum is s + e, into their sum rounded to odd: when the sum was
// inexact and s is even (its last mantissa bit clear), the neighbour of s
// toward the exact sum, which is odd.
func roundOdd(s, e *Tensor) *Tensor {
	sb := BitcastConvert(s, ir.U64)
	even := Equal(And(sb, ScalarLike(sb, 1)), ScalarLike(sb, 0))
	inexact := And(NotEqual(e, ScalarLike(e, 0)), IsFinite(s))
	// e and s of one sign: the exact sum is farther from zero than s.
	away := Equal(Less(e, ScalarLike(e, 0)), Less(s, ScalarLike(s, 0)))
	next := Where(away, Add(sb, ScalarLike(sb, 1)), Sub(sb, ScalarLike(sb, 1)))
	return BitcastConvert(Where(And(even, inexact), next, sb), ir.F64)
}

// erfInv is XLA's inverse error function (xla/hlo/builder/lib/math.cc,
// ErfInv32 and ErfInv64: Giles's single and double precision
// approximations), op for op as JAX 0.10.2 lowers it; f16 and bf16 are
// computed in f32, as XLA does.
func erfInv(x *Tensor) *Tensor {
	switch dt := x.DType(); dt {
	case ir.F64:
		return erfInv64(x)
	case ir.F32:
		return erfInv32(x)
	default:
		return Convert(erfInv32(Convert(x, ir.F32)), dt)
	}
}

// Giles's coefficients, highest degree first, for w = -log(1-x²) below 5
// (in w-2.5) and from 5 (in √w-3).
var (
	erfInv32Small = [9]float32{2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
		0.00021858087, -0.00125372503, -0.00417768164, 0.246640727, 1.50140941}
	erfInv32Large = [9]float32{-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844,
		0.00573950773, -0.0076224613, 0.00943887047, 1.00167406, 2.83297682}
)

func erfInv32(x *Tensor) *Tensor {
	c := func(v float64) *Tensor { return ScalarLike(x, v) }
	w := Neg(Log1p(Mul(x, Neg(x))))
	small := Less(w, c(5))
	w = Where(small, Add(w, c(-2.5)), Add(Sqrt(w), c(-3)))
	p := Where(small, c(float64(erfInv32Small[0])), c(float64(erfInv32Large[0])))
	for i := 1; i < len(erfInv32Small); i++ {
		coef := Where(small, c(float64(erfInv32Small[i])), c(float64(erfInv32Large[i])))
		p = Add(coef, Mul(p, w))
	}
	return erfInvEdges(x, Mul(p, x))
}

// Giles's double precision coefficients, highest degree first, for w
// below 6.25 (in w-3.125), below 16 (in √w-3.25) and beyond (in √w-5).
var (
	erfInv64Small = [23]float64{-3.6444120640178196996e-21, -1.685059138182016589e-19,
		1.2858480715256400167e-18, 1.115787767802518096e-17, -1.333171662854620906e-16,
		2.0972767875968561637e-17, 6.6376381343583238325e-15, -4.0545662729752068639e-14,
		-8.1519341976054721522e-14, 2.6335093153082322977e-12, -1.2975133253453532498e-11,
		-5.4154120542946279317e-11, 1.051212273321532285e-09, -4.1126339803469836976e-09,
		-2.9070369957882005086e-08, 4.2347877827932403518e-07, -1.3654692000834678645e-06,
		-1.3882523362786468719e-05, 0.0001867342080340571352, -0.00074070253416626697512,
		-0.0060336708714301490533, 0.24015818242558961693, 1.6536545626831027356}
	erfInv64Medium = [19]float64{2.2137376921775787049e-09, 9.0756561938885390979e-08,
		-2.7517406297064545428e-07, 1.8239629214389227755e-08, 1.5027403968909827627e-06,
		-4.013867526981545969e-06, 2.9234449089955446044e-06, 1.2475304481671778723e-05,
		-4.7318229009055733981e-05, 6.8284851459573175448e-05, 2.4031110387097893999e-05,
		-0.0003550375203628474796, 0.00095328937973738049703, -0.0016882755560235047313,
		0.0024914420961078508066, -0.0037512085075692412107, 0.005370914553590063617,
		1.0052589676941592334, 3.0838856104922207635}
	erfInv64Large = [17]float64{-2.7109920616438573243e-11, -2.5556418169965252055e-10,
		1.5076572693500548083e-09, -3.7894654401267369937e-09, 7.6157012080783393804e-09,
		-1.4960026627149240478e-08, 2.9147953450901080826e-08, -6.7711997758452339498e-08,
		2.2900482228026654717e-07, -9.9298272942317002539e-07, 4.5260625972231537039e-06,
		-1.9681778105531670567e-05, 7.5995277030017761139e-05, -0.00021503011930044477347,
		-0.00013871931833623122026, 1.0103004648645343977, 4.8499064014085844221}
)

// erfInv64 evaluates the three polynomials as one: step i uses the
// coefficient of the polynomial each element needs, and the steps past the
// shorter polynomials' degrees leave their elements alone.
func erfInv64(x *Tensor) *Tensor {
	c := func(v float64) *Tensor { return ScalarLike(x, v) }
	w := Neg(Log1p(Mul(x, Neg(x))))
	small, medium := Less(w, c(6.25)), Less(w, c(16))
	coef := func(i int) *Tensor {
		k := c(erfInv64Small[i])
		if i < len(erfInv64Medium) {
			k = Where(small, k, c(erfInv64Medium[i]))
		}
		if i < len(erfInv64Large) {
			k = Where(medium, k, c(erfInv64Large[i]))
		}
		return k
	}
	w = Where(small, Sub(w, c(3.125)), Sub(Sqrt(w), Where(medium, c(3.25), c(5))))
	p := coef(0)
	for i := 1; i < len(erfInv64Small); i++ {
		q := Add(coef(i), Mul(p, w))
		switch {
		case i >= len(erfInv64Medium):
			q = Where(small, q, p)
		case i >= len(erfInv64Large):
			q = Where(medium, q, p)
		}
		p = q
	}
	return erfInvEdges(x, Mul(p, x))
}

// erfInvEdges gives erfinv(±1) = ±inf, where the polynomial is undefined.
func erfInvEdges(x, r *Tensor) *Tensor {
	one := Equal(Abs(x), ScalarLike(x, 1))
	return Where(one, Mul(x, ScalarLike(x, math.Inf(1))), r)
}
