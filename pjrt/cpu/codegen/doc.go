// Package codegen is the Stela CPU plugin's code generator: a StableHLO
// module in, an LLVM 14 IR module (text, written with
// github.com/llir/llvm) out, which the compile worker (package cpu) turns
// into a shared object with opt, llc and cc.
//
// In: a *stablehlo.Module (parsed from any producer's text). Plan picks the
// entry (@main, else the only public function), inlines func.call,
// checks every op and type, decodes attributes, drops dead ops and plans
// buffers; Program.LLVM emits the module. Out: the module text, exporting
// the symbols docs/cpu-plugin.md defines (stela_signature,
// stela_num_checks, stela_entry). Program.Signature is the signature
// text.
//
// Supported: element types f32, f64, i8, i16, i32 and i64 (signed, as
// StableHLO's signless integers are), ui8, ui16, ui32 and ui64, f16 and
// bf16 (stored as such, computed in f32 and rounded once to nearest even,
// as XLA does; half.go), complex<f32> and complex<f64> (interleaved
// (re, im) pairs; complex.go), i1 (stored as one byte, 0 or 1), the
// narrow floats f8E4M3FN ... f8E8M0FNU, f6E2M3FN, f6E3M2FN and f4E2M1FN
// (one byte each, computed in f32, f8E8M0FNU in f64, and rounded once
// with each format's rules; minifloat.go) and the sub-byte integers
// i2/i4/ui2/ui4 (one byte each, computed as 8-bit integers and wrapped;
// subbyte.go); static shapes (types_ext.go says how each kind is held). Every op takes the
// element types StableHLO defines it for (convert from complex to a real,
// integer or i1 type takes the real part, as the spec says). Ops: constant (every dense form, NaN payloads kept), iota, every
// elementwise op (abs ... xor, shifts, popcnt, count_leading_zeros,
// is_finite, compare in all directions and comparison types, select,
// clamp, convert), broadcast_in_dim, broadcast, reshape, transpose, slice,
// concatenate, reverse, pad, dot_general, dot, reduce with any scalar
// body, convolution (any dimension numbers, strides, padding, lhs and rhs
// dilation, window reversal, feature or batch groups; conv.go),
// reduce_window with any scalar body and select_and_scatter (window.go),
// optimization_barrier, func.call and func.return, while, case and if
// (real loops and branches; regions may use values from outside;
// control.go), sort (any number of operands, any comparator; a stable
// merge sort, is_stable or not; sort.go), dynamic_slice,
// dynamic_update_slice, gather and scatter (all dimension numbers,
// batching dimensions included; gather.go), rng_bit_generator (XLA's
// THREE_FRY and PHILOX bits; DEFAULT is PHILOX, as on XLA's CPU),
// bitcast_convert, reduce_precision, get_dimension_size, tuple and
// get_tuple_element, custom_call @Sharding (the identity), the
// collectives all_reduce, all_gather, reduce_scatter, all_to_all (each
// variadic), collective_permute and collective_broadcast, and replica_id
// and partition_id, on the devices of the compile options (Options;
// collective.go), the chlo ops
// erf, erfc, erf_inv, lgamma, digamma, tan, sinh, cosh, asin, acos,
// atan, asinh, acosh, atanh, conj, is_inf, is_pos_inf, is_neg_inf,
// next_after, mulhi, square, bessel_i1e (real), zeta and polygamma
// (zeta.go: Cephes's Hurwitz zeta in double), top_k and broadcast_* (add
// ... xor, shifts, compare, select, next_after, zeta, polygamma,
// complex) (misc.go; chlo.scan, ragged_dot, constant and constant_like
// are StableHLO after Module.LowerChlo; other chlo ops are rejected by
// name), and the
// expectations check.expect_{eq,almost_eq,close}[_const] and
// custom_call @check.{expect_eq,expect_almost_eq,expect_close,eq}.
// Anything else, op or type, is an *UnsupportedError ("unsupported:
// stablehlo.fft (in @main)"); the worker exits with status 2 for it.
//
// Semantics follow Stela's reference evaluator (ir.Eval) element for
// element; see scalar.go for the integer and NaN edge cases. Numerics:
//
//   - +, -, ×, ÷, sqrt, remainder, min/max, rounding, converts and
//     compares are correctly rounded or exact: bit-identical to ir.Eval;
//   - rsqrt on f16, bf16, f32 and f64 is correctly rounded (IEEE 754
//     rSqrt, x^(-1/2) rounded once), bit-identical to ir.Eval, in
//     straight-line vectorizing code (rsqrt.go): f16 and bf16 as 1/sqrt(x)
//     in double, rounded once (proved safe: no such x^(-1/2) lies within
//     2^-37 of a midpoint); f32 as the f32 1/sqrt(x) and its neighbour
//     towards x^(-1/2), chosen by signs computed exactly with double
//     fused multiply-adds (exhaustive test); f64 as 1/sqrt(x) and its
//     neighbour, chosen by the exact sign of m²·x - 1 at their midpoint m,
//     an error-free expansion of fused multiply-adds and Two-Sums
//     (Shewchuk's Scale-Expansion and Grow-Expansion); complex rsqrt is
//     1/sqrt(z) (no IEEE operation to round to), as in ir.Eval;
//   - exp, log, tanh and logistic (f32 and f64) and expm1, log1p and
//     erf (f32) are inline polynomial approximations without calls or
//     branches, so loops over them vectorize, their polynomials evaluated
//     with llvm.fmuladd (FMA where the CPU has it) (mathfn.go): within 1 ULP of
//     ir.Eval, except f32 expm1 and logistic and f64 exp, tanh and
//     logistic within 2 (Go's own f64 exp is not correctly rounded),
//     checked over dense sweeps of each type; logistic is 1/(1+e^-|x|)
//     arranged not to overflow. sin, cos, pow (LLVM intrinsics), cbrt, tan, atan2 and
//     f64 expm1, log1p, erf (libm) call glibc and do not vectorize:
//     measured f32 within 1 ULP, f64 within 2 ULP (beyond that only where
//     Go's math is the inaccurate side: sin/cos/tan of huge arguments,
//     pow near underflow);
//   - convolution: f32/f64 layers with at least 4 output features and
//     window elements per group are im2col tiles (copied in parallel on
//     the runtime's pool) times the runtime's sgemm/dgemm (sums in the
//     element type, in the GEMM's order: within K·ε·Σ|x·w| of ir.Eval);
//     the rest (integers, i1, depthwise) is a direct loop summing in the
//     evaluator's order and domain (f64 for floats), bit-identical to it. Padding and lhs
//     dilation are zeros that take part, as the spec says (ir.Eval skips
//     them: they differ only where a kernel element is Inf or NaN);
//     reduce_window folds each window sequentially in row-major order with
//     padding as the init value, bit-identical to ir.Eval;
//   - f16 and bf16: +, -, ×, ÷, sqrt, rsqrt, remainder, min/max, roundings,
//     compares and every convert (f64 and 64-bit integers round to f16/bf16
//     once, through round-to-odd) are bit-identical to ir.Eval; the
//     transcendental functions are glibc's (or mathfn.go's) f32 result
//     rounded, within 1 ULP of ir.Eval and equal to it on all but at most
//     20 of the 65536 inputs per function (exhaustive test);
//   - complex: +, -, ×, ÷ (Go's Smith division with C99 recovery), abs,
//     sqrt, rsqrt, sign, min/max, compares and converts repeat Go's
//     operations and are bit-identical to ir.Eval (c64 computes in double
//     and rounds each part, as ir.Eval does); exp, log, expm1, log1p,
//     logistic, sin, cos, tan, tanh, cbrt, power, atan2 follow math/cmplx's
//     formulas and special cases with glibc's functions: c64 results
//     matched ir.Eval exactly on the tests' inputs, c128 ones are within 4
//     ULPs of the larger part (power: 32, its error grows with |y·log x|);
//     tan and tanh use a denominator without cancellation and stay finite
//     for large arguments, where Go's formulas lose accuracy or give NaN;
//   - dot_general on f16, bf16 and complex sums exact products in double
//     (complex128), in the evaluator's order, and rounds once: bit-identical
//     to ir.Eval; integer dot products wrap in the element type;
//   - fft calls the runtime's FFT (fft.go; pocketfft's algorithm, as
//     NumPy 1.x's numpy.fft applies it): complex128/f64 results equal
//     numpy.fft's bit for bit, not ir.Eval's direct DFT, from which they
//     differ by rounding (within 1e-14 of the largest output; complex64
//     and f32, computed in float, within 6e-7), thread count
//     notwithstanding (each line is transformed by one thread);
//   - chlo's functions call glibc (erf_inv: Wichura's AS 241, digamma:
//     reflection, recurrence and asymptotic series, both in f64);
//     measured against correctly rounded values: within 1 ULP in f32 and
//     f64, lgamma 2, erf_inv 3, digamma 4 (absolute 1.4e-15 where
//     |ψ| < 2);
//   - scatter applies its update region one update at a time in
//     row-major order over the updates, as ir.Eval does: duplicate
//     indices combine in that order, bit-identically;
//   - reductions are sequential: each result element folds its inputs in
//     increasing index order, exactly as ir.Eval does, so float sums are
//     bit-identical to it, fused inputs and thread count notwithstanding.
//     There is no reassociation; loops vectorize when the innermost input
//     dimension is kept (reductions over leading dimensions);
//   - all_reduce and reduce_scatter fold the group's values in group
//     order, ((x₀ ⊕ x₁) ⊕ x₂) ⊕ …, each element once (by one device),
//     so every device of a group gets the same bits whatever the sizes
//     and the path (collective.go);
//   - fusion (fusion.go) and threads (parallel.go) change no result: a
//     fused kernel performs each element's operations in the same order
//     as the separate kernels would, and each result element is computed
//     by one thread;
//   - dot_general on f32 and f64 calls the runtime's GEMM (dot.go; a BLAS
//     library such as OpenBLAS, else the plugin's own blocked kernel),
//     which sums in the element type but in its own order: K split into
//     blocks, fused multiply-adds where the CPU has them, possibly
//     depending on the library, the CPU and the thread count. Results are
//     therefore not bit-identical to ir.Eval (which sums in f64 and rounds
//     once) nor across machines; each element is within
//     (K+1)·u·Σ|aᵢbᵢ| + u·|result| of the exact value (u = 2⁻²⁴ for f32,
//     2⁻⁵³ for f64), which is what differential tests check (products of
//     small integers stay exact). Other element types use generated
//     loops that sum over the contracting dimensions in increasing order
//     after transposing the operands to [batch, free, contracting] ×
//     [batch, contracting, free] (integers wrap as ir.Eval does).
//
// Invariants of the emitted module: it carries the x86-64 Linux triple
// and data layout (without them LLVM's vectorizer has no cost model);
// each kernel (an op, or a fused root computing its elementwise,
// broadcast, reshape, slice, reverse, iota and splat-constant producers
// inline: fusion.go) is one internal noinline function whose buffer
// parameters are noalias and align 64 — buffer planning guarantees both:
// a kernel's output never shares bytes with a live input, and every
// buffer (argument, result, constant, arena slice) starts at a multiple
// of 64. Kernels loop over the result's (a reduce: the input's)
// dimensions with adjacent dimensions merged where every access is
// contiguous across them (a flat loop for same-shape elementwise code;
// transposing copies in 16×16 tiles), in the rotated canonical form
// LLVM's loop passes expect; large fused loops split their outer loop
// across the runtime's threads (rt->parallel_for, parallel.go).
// Float constants are printed bit-exactly (hexadecimal where a decimal
// would not be exact).
package codegen
