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
// Supported: element types f32, f64, i32 and i64 (signed, as StableHLO's
// signless integers are) and i1 (stored as one byte, 0 or 1); static
// shapes. Ops: constant (every dense form, NaN payloads kept), iota, every
// elementwise op (abs ... xor, shifts, popcnt, count_leading_zeros,
// is_finite, compare in all directions and comparison types, select,
// clamp, convert), broadcast_in_dim, broadcast, reshape, transpose, slice,
// concatenate, reverse, pad, dot_general, dot, reduce with any scalar
// body, optimization_barrier, func.call and func.return, and the
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
//   - exp, log, sin, cos, pow (LLVM intrinsics) and expm1, log1p, cbrt,
//     tanh, tan, atan2 (libm) call glibc, so they do not vectorize yet.
//     Measured against ir.Eval: f32 within 1 ULP, f64 within 2 ULP
//     (beyond that only where Go's math is the inaccurate side: sin/cos/tan
//     of huge arguments, pow near underflow); logistic is
//     1/(1+e^-|x|) arranged not to overflow, rsqrt is 1/sqrt(x);
//   - reductions are sequential: each result element folds its inputs in
//     increasing index order, exactly as ir.Eval does, so float sums are
//     bit-identical to it. There is no reassociation; loops vectorize when
//     the innermost input dimension is kept (reductions over leading
//     dimensions);
//   - dot_general sums products in the element type (f32 in f32, no
//     fused multiply-add, so results do not depend on the CPU), over the
//     contracting dimensions in increasing order, after transposing the
//     operands to [batch, free, contracting] × [batch, contracting, free]
//     where they are not already; the result is computed in tiles of 4
//     rows × 512 columns, vectorized along the columns. ir.Eval sums in
//     f64 and rounds once, so f32 results differ within K·2⁻²⁴·Σ|aᵢbᵢ|.
//     Measured on one core of an AVX2 (Zen 3) machine: 25-45 GFLOP/s in
//     f32; a blocked micro-kernel or a BLAS is the way further.
//
// Invariants of the emitted module: it carries the x86-64 Linux triple
// and data layout (without them LLVM's vectorizer has no cost model);
// each op is one internal noinline kernel whose buffer parameters are
// noalias and align 64 — buffer planning guarantees both: a kernel's
// output never shares bytes with a live input, and every buffer (argument,
// result, constant, arena slice) starts at a multiple of 64. Kernels loop
// over the flat element index (elementwise) or over the result's
// dimensions with adjacent dimensions merged where the access is
// contiguous (transposing copies in 16×16 tiles), in the rotated
// canonical form LLVM's loop passes expect.
// Float constants are printed bit-exactly (hexadecimal where a decimal
// would not be exact).
package codegen
