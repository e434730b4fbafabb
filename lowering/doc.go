// Package lowering turns an ir.Func into a stablehlo.Module, one rule per
// op, and back: Import (import.go) makes an ir.Module of a StableHLO
// module, Stela's own or another producer's (docs/import.md).
//
// In: an *ir.Func (or *ir.Module) that ir.Verify accepts; Options.Verify
// runs the verifier first. Out: a *stablehlo.Module shaped as JAX shapes
// its modules — named jit_<name>, with a public @main whose entry block
// arguments are the function's parameters and whose func.return returns
// its results — ready for the stablehlo printer and PJRT.
//
// Rules are keyed by the op table's ir.Op (rules.go), one small function
// per op or per family (every elementwise op whose ir name is its
// StableHLO name shares lowerSame); a test fails if an op of ir.AllOps has
// none. The mapping follows StableHLO's semantics, which the ir ops mirror:
//
//   - element types: signed integers become signless iN, unsigned ones
//     uiN, c64 and c128 complex<f32> and complex<f64>;
//   - constants become dense elements from the literal's memory image, so
//     every value (f16, bf16, NaN payloads) lowers bit-exactly;
//   - compare's NOTYPE becomes the compare_type JAX writes: FLOAT for
//     floats and complex, SIGNED for signed integers, UNSIGNED for
//     unsigned integers and i1;
//   - regions (reduce, reduce_window and scatter bodies, sort comparators,
//     while's cond and body) are isolated ir Funcs whose parameters become
//     block arguments; case branches take no block arguments in StableHLO, so
//     each branch is lowered with its parameters standing for the lowered
//     operands it would receive, which the branch then captures;
//   - a composite becomes stablehlo.composite naming a private func.func
//     that holds its decomposition, one function per distinct
//     decomposition;
//   - attributes whose empty ir form means StableHLO's default (window
//     strides, dilations, padding, indices_are_sorted false) are left out;
//   - collectives print in the generic form JAX prints: replica_groups as a
//     2-d i64 tensor (rows of smaller groups padded with -1, no groups as
//     dense<> : tensor<0x0xi64>), a channel_id > 0 as channel_handle<handle
//     = id, type = 1> (DEVICE_TO_DEVICE, as JAX writes it), flattened ids
//     as the unit attribute use_global_device_ids; replica_id and
//     partition_id in their custom form. Options.NumReplicas and
//     NumPartitions give the grid (mhlo.num_replicas, mhlo.num_partitions).
//
// Invariants on exit: every lowered op carries its instruction's location
// (a file and line as loc("file.go":LINE:0), a fused location as
// loc(fused<"pass">[...]), unknown as none), every block argument its
// parameter's; inside a region an unknown location is replaced by that of
// the op holding the region, so that XLA's messages about a reduction body
// still name the user's line. The printer's Locations option decides
// whether locations print.
// A problem (an op without a rule, a form the lowering cannot express, a
// malformed instruction) is returned as a located *ir.Error naming the op;
// Lower never panics on a malformed function.
package lowering
