// Package xla tests Stela against XLA's real CPU compiler, a black-box oracle
// that nobody here wrote.
//
// In: every op of ir.AllOps (but custom_call, whose targets XLA does not
// have), built with ir.NewFunc and Func.Emit on each element type the op's
// type rule accepts, on random inputs from a fixed seed plus the special
// values of each type (NaN, infinities, signed zeros, subnormals, integer
// extremes, out-of-range indices), and the built-in examples (mlp, cnn,
// transformer) traced from frontend/examples.
//
// Each program is lowered (lowering.Lower), printed (stablehlo.Format), and
// run twice: by ir.Eval, and by XLA through run_xla.py, a Python script
// that compiles the MLIR text with jaxlib's CPU PJRT client and exchanges
// tensors as .npy files (package ir/npy). All programs go to one Python
// process, since starting jaxlib costs seconds and a program milliseconds;
// the cases of one op share a program, and a program that fails is split
// into one per case and rerun, so that the failure names its case.
//
// Out: a test that fails when the two disagree beyond the stated bound,
// each justified by the StableHLO spec: exactly (bit for bit, NaN payloads
// included) for integers, i1 and data movement, and exactly but for NaN
// payloads for the float ops the spec defines as correctly rounded IEEE-754
// operations (+, -, ×, ÷, sqrt, conversions, roundings); within a stated
// number of units in the last place per op and element type for the ops
// whose precision the spec leaves to the implementation ("Numeric precision
// is implementation-defined": the transcendental functions, rsqrt among
// them, and all complex arithmetic), each with its reason next to it in
// known_test.go (the worst measured, where XLA's code is the same on every
// x86-64 processor; for rsqrt, whose code refines a hardware estimate that
// Intel and AMD compute differently, the worst a model of XLA's code gives
// for any estimate the instruction allows, rsqrt_model_test.go); within
// n·u·Σ|terms| for contractions and sums, whose order the spec leaves
// implementation-defined; and within a relative tolerance for the examples. Every understood
// disagreement is listed in known_test.go with its kind and reason (XLA's
// flush to zero of subnormals, its integer power, complex special values,
// and the bugs found in Stela, until they are fixed); an entry that no
// longer matches anything fails the test too, so the tables stay true.
//
// The collectives: TestXLA runs them on one device (XLA's default grid,
// as ir.Eval does), and TestXLASPMD runs SPMD programs of every collective,
// in each process-group strategy, on grids of 1 to 8 devices of XLA's CPU
// client (run_xla_spmd.py, with --xla_force_host_platform_device_count=8
// and the program's arguments and results marked {manual}), comparing
// each device's results with ir.EvalSPMD's exactly.
//
// XLA runs with fastXLAFlags (LLVM -O0, elemental emitters), which compile
// several times faster than its defaults; STELA_XLA_FLAGS=default runs it as
// jax.jit does, against the tables' entries for that mode. Flags: -xla.v
// logs the agreeing op/type pairs, the measured ULP table and the examples'
// errors; -xla.measure ignores the ULP bounds to measure them again;
// -xla.show=N prints N disagreeing elements per case. STELA_XLA_KEEP=DIR
// keeps every program, input and output under DIR.
//
// JAX as the oracle for Stela's derivatives (grad_xla.py,
// grad_oracle_test.go): grad_xla.py parses a lowered program's MLIR text
// with the MLIR Python bindings jaxlib ships and interprets it op by op
// with jax.lax primitives (attributes read from the MLIR attributes;
// regions of reduce, reduce_window, scatter, while and case as Python
// callables of lax.reduce, lax.reduce_window, scatter's update computation,
// lax.while_loop and lax.switch; composites call their decomposition), so
// that jax.vjp and jax.jvp of the interpreter are JAX's own derivatives of
// exactly the program Stela runs. Its jobs, batched in one process like
// run_xla.py's, are "eval" (the results), "vjp" (the results and the
// arguments' cotangents for given result cotangents) and "jvp" (the results
// and the results' tangents for given argument tangents); values that are
// not inexact (integers, i1) have no derivative and come back nil. JAX
// cannot reverse-differentiate lax.while_loop: a vjp job of a program with
// a while loop runs it once eagerly to record each loop's trip count and
// each case's branch, then differentiates that path, loops unrolled. An op
// the interpreter does not map (custom_call), or a scatter update
// computation JAX has no derivative rule for, fails its job with an error
// naming the op. The helpers for tests: jaxBatch (vjp, jvp, eval, then run
// once for all), and jaxVJP and jaxJVP for a single function.
//
// Two tests check the oracle itself. TestXLA/jax_interpreter runs every
// program of TestXLA through the interpreter's eval, at the same time as
// through run_xla.py, and compares: bit for bit where TestXLA does,
// exactly (but NaN payloads) for other elementwise results, within
// TestXLA's sum bound for contractions and sums (lax reduces from the
// identity and adds the init value after); the places where XLA departs
// from the spec and the interpreter follows it (reduce over no dimensions,
// reduce_window padding with an init value that is not an identity, and
// with XLA's default flags the order of complex numbers) compare with
// ir.Eval instead (interpOffSpec). Where jax lowers
// a primitive to other ops than the StableHLO op Stela wrote (logistic,
// complex sine and cosine, complex convolution on CPU) grad_xla.py lowers
// it as that op, keeping JAX's derivative rules. TestJAXGradOracle
// compares vjp and jvp jobs on small f64 programs (elementwise chains,
// dot_general, convolution, reduce and reduce_window with sum and max,
// broadcast, transpose, reshape, reverse, slice, pad, concatenate,
// dynamic_slice and dynamic_update_slice, gather and scatter with indices
// out of range, select, clamp, while with a fixed trip count, case, a while
// holding a case, composite, a small network) with central finite
// differences of ir.Eval in f64, within 1e-6 of the sum of the terms.
//
// The tests skip, never fail, when no Python with jaxlib is found:
// STELA_JAXLIB_PYTHONPATH names a directory prepended to PYTHONPATH (CI
// installs jax and jaxlib there with pip), else plain python3 must import
// jaxlib.
package xla
