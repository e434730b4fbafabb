// Package passes holds Stela's IR-to-IR transformations and the pass manager
// that runs them.
//
// In: a verified *ir.Module (from the frontend's tracer or parsed .sir text).
// Out: the same module rewritten in place, still verified, computing the same
// results (bit for bit for the exact rewrites; see each pass).
//
// A pass is a named value (&Pass{Name, Doc, Run}) whose Run keeps no state
// between calls and touches no globals: the same input gives byte-identical
// output. Pipelines are lists of passes and have a text form
// ("canonicalize,fold,cse,dce") that ParsePipeline and PipelineString
// round-trip. Default is the standard pipeline; the order table says which
// pass must precede which and why, and TestOrder checks Default against it.
//
// The runner (Run), not the passes, does the instrumentation, as in Go's
// cmd/compile/internal/ssa/compile.go and MLIR's pass manager: verifying after
// each pass (Options.VerifyEach; STELA_DEBUG=verify also reruns each pass on
// a fresh parse of its input and demands byte-identical output, and
// STELA_DEBUG=shuffle reorders independent instructions first), printing
// before/after a pass or only when the text changed, timing, dumping numbered
// <func>.<seq>.<pass>.sir files, and collecting remarks (printed with the Go
// line they concern under STELA_LOG=remarks). A pass that returns an error or
// panics is recovered; the runner writes a reproducer (the IR the pass got and
// the rest of the pipeline) that `stela opt --reproduce FILE` replays.
//
// Invariants on exit of every pass: ir.Verify holds; values the pass keeps
// keep their IDs and values it makes get new ones (the default printing
// numbers values densely whatever their IDs; the runner's printing and
// dumps print the IDs, ir.PrintOptions.StableNames, so that one pass's
// output differs from its input only where the pass changed it); locations
// are kept: a value replaced by a new instruction passes its Loc on, and
// values merged by CSE get ir.FusedLoc("cse", members...).
package passes
