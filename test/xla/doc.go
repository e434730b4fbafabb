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
// XLA's SPMD partitioner as the oracle of Stela's "annotate" mode
// (shard_oracle_test.go, shard_test.go): a program whose @main carries
// mhlo.sharding attributes is compiled by run_xla.py as jax.jit compiles a
// sharded program (CompileOptions num_partitions=N, num_replicas=1,
// use_spmd_partitioning, device assignment [[0..N-1]], on N of the host
// devices --xla_force_host_platform_device_count makes; the Python process
// of a batch without sharded programs keeps its one device), run on the
// *global* arguments, cut into shards by the shardings XLA compiled for its
// parameters, and its *global* results assembled from their shards (copies
// of a shard must agree bit for bit). It reports the collectives of XLA's
// partitioned, optimized module: opcode, result shape, bytes in and out per
// device, and the device groups; the shardings XLA compiled for the
// parameters and results; and XLA's canonical text of each mhlo.sharding
// string of the module (compare those, not the strings emitted). The
// helpers: shardBatch (add, addPair for a program and its unpartitioned
// reference, run) and runXLASharded for one program; formatCollectives
// prints XLA's choices next to Stela's. The reference of a sharded program
// is the same text compiled without SPMD for one device: XLA then ignores
// the shardings and drops custom_call @Sharding. TestXLASharded checks the
// oracle on hand-written programs (data-parallel matmul: no collective;
// Megatron MLP: one all-reduce; the MLP on a 2x4 mesh: one all-reduce per
// data row; a @Sharding constraint forcing an all-gather or all-to-all;
// every sharding form below, uneven tiles included), against their
// unpartitioned results: bit for bit without split sums, within
// 2·n·u·Σ|terms| with them. TestXLAShardingCases runs the sharding demo's
// cases (examples.ShardingCases, on 2, 4 and 8 devices) as Stela's
// annotate mode makes them (ShardingCase.Annotated, lowered with
// lowering.Options.Annotate) through the same oracle: partitioned,
// unpartitioned and ir.Eval's results agree within each case's
// tolerance, XLA compiled for @main the shardings Stela meant, and it
// chose the collectives the case calls for.
//
// What the lowering must emit, as XLA in jaxlib 0.10.2 reads it (checked
// by TestXLASharded):
//
//	module @m attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
//	  func.func public @main(%x: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, ...)
//	      -> (tensor<8x16xf32> {mhlo.sharding = "{replicated}"}) {
//	    %c = stablehlo.custom_call @Sharding(%y) {backend_config = "", mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<8x64xf32>) -> tensor<8x64xf32>
//
// A sharding constraint inside the program is custom_call @Sharding, as
// jax emits it. The module attributes are for readers of the text: PJRT
// compiles for the partitions its compile options name, whatever they say
// (run_xla.py checks that they agree). A value inside without a sharding
// gets one from XLA's propagation; @main's parameters and results without
// one are replicated (CompileOptions leaves the build options
// allow_spmd_sharding_propagation_to_parameters and _to_output off; jax
// turns the latter on for results it has no sharding for).
//
// HLO sharding strings. "Devices" are logical device ids 0..N-1: positions
// in the compile's device assignment, the partition ids
// stablehlo.partition_id returns (jax passes its mesh's device order as
// the device assignment and writes shardings over positions in it).
//
//	{replicated}          every device holds the whole value
//	{maximal device=k}    device k alone holds it (and computes it)
//	{devices=[t0,...,tr-1]A}
//	                      a rank-r value cut along dimension i into ti tiles
//	                      of ceil(di/ti) elements (XLA pads the last tiles of
//	                      an uneven dimension; a tile may be all padding);
//	                      A lists the device of each tile, tiles in row-major
//	                      order of their index (i0, ..., ir-1)
//	{devices=[t0,...,tr-1,c]A last_tile_dim_replicate}
//	                      the same with c copies of each tile: tile (i0, ...,
//	                      ir-1) on the devices at (i0, ..., ir-1, 0..c-1) of A
//	                      (XLA sorts those, and prints {replicated} when all
//	                      tile counts are 1; "last_tile_dims={replicated}"
//	                      reads the same)
//	{manual}              inside a manual region (shard_map): per-device
//	                      values between custom_call @SPMDFullToShardShape
//	                      and @SPMDShardToFullShape
//
// The tile assignment A is an explicit list, "0,2,1,3", or an iota:
// "<=[n]" is 0, 1, ..., n-1; "<=[d0,...,dk-1]T(p0,...,pk-1)" is iota
// reshaped to [d0, ..., dk-1], transposed so that result axis j is axis
// pj (numpy's transpose), flattened. An iota over more than one dimension
// must have its T(...), even the identity (which XLA prints as <=[n]):
// "<=[2,4]" alone does not parse, and XLA drops a sharding string it
// cannot parse without an error, replicating the value (the oracle fails
// the program instead). XLA prints the canonical form (runs of axes that
// stay adjacent merged: <=[2,2,2]T(2,0,1) prints as <=[4,2]T(1,0)), so
// compare shardings parsed, not as text.
//
// A mesh of shape (m0, ..., mk-1) over devices 0..N-1 puts device d at the
// row-major position of d (the mesh is iota(m0, ..., mk-1)). A partition
// spec giving tensor dimension i the mesh axes Si (in order) is
//
//	{devices=[t0,...,tr-1(,c)]<=[m0,...,mk-1]T(perm) (last_tile_dim_replicate)}
//
// with ti the product of the sizes of Si, perm the axes of S0, then of
// S1, ..., then the axes no dimension uses in mesh order, c the product of
// the unused axes' sizes (and last_tile_dim_replicate when c > 1). On a
// mesh (data=2, model=4), as jax writes them with Shardy off:
//
//	P()                   {replicated}
//	P(data, None)         {devices=[2,1,4]<=[8] last_tile_dim_replicate}
//	P(None, model)        {devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}
//	P(model, None)        {devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}
//	P(data, model)        {devices=[2,4]<=[8]}
//	P(model, data)        {devices=[4,2]<=[2,4]T(1,0)}
//	P((model, data), None) {devices=[8,1]<=[2,4]T(1,0)}
//
// Shardy: jax 0.10.2 partitions with Shardy by default
// (jax_use_shardy_partitioner=True: jax.jit then emits sdy.mesh and
// sdy.sharding and sets the build option use_shardy_partitioner), but
// xla_client.CompileOptions() leaves use_shardy_partitioner off, and
// mhlo.sharding (GSPMD) is still accepted either way: with the option on,
// XLA logs "Module has GSPMD attrs or ops, but Shardy is enabled.
// Disabling Shardy and falling back to using GSPMD propagation." and
// compiles the same module (TestXLASharded/use_shardy_partitioner). GSPMD
// logs that it "is going to be deprecated". jax's
// jax_use_shardy_partitioner=False makes it emit mhlo.sharding as above.
//
// Collectives as XLA's CPU pipeline leaves them: no reduce-scatter (an
// all-reduce and a dynamic-slice of it instead); all-to-all in its tuple
// form, one operand per device; replica groups printed as lists
// ({{0,1},{2,3}}), as iota ([2,2]<=[4]: the rows of iota reshaped), or
// over a mesh (mesh['axis_0'=2,'axis_1'=4] {'axis_1'}: the devices that
// differ only in the named axes), which run_xla.py expands to device ids.
//
// The tests skip, never fail, when no Python with jaxlib is found:
// STELA_JAXLIB_PYTHONPATH names a directory prepended to PYTHONPATH (CI
// installs jax and jaxlib there with pip), else plain python3 must import
// jaxlib.
package xla
