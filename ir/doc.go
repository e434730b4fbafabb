// Package ir is Stela's intermediate representation: element types and
// tensor types, functions in SSA form, the op table, the verifier, the .sir
// text form, source locations, and the reference evaluator.
//
// In: programs built by the frontend's tracer (through Func.Emit) or parsed
// from .sir text. Out: a *Func that passes rewrite, the lowering turns into
// StableHLO, and Eval runs on host literals (EvalSPMD on a grid of devices,
// for programs with collectives: collective.go, eval_spmd.go).
//
// Invariants on a verified Func: every operand is defined before its use in
// the same Func (regions are nested Funcs isolated from above: they see only
// their own parameters); every instruction's operand count, attribute type
// and region count match its op table entry, and its result types are what
// the op's type rule gives; every value has a location, possibly unknown.
//
// The op table (ops.go) is the single source of truth for an op: name,
// doc, arity, attribute struct, traits, type rule and evaluation rule. The
// lowering package keys its rules by the same Op, and a test there fails if
// any op in AllOps has none.
package ir
