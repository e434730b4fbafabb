package tensor

import "github.com/stela-ml/stela/ir"

// TraceRegion traces fn into a region function for an op that a package
// outside tensor adds (sharding.Map's manual_computation), as While and
// Switch trace their closures: the region's parameters have the given
// types; tensors fn uses but did not make are captured as trailing
// parameters, returned in order, for the op to pass in as extra trailing
// operands. fn gets the region's tracer, for ops without operands that
// must record there (Tracer.Emit). Errors panic as the op functions' do,
// located at loc.
func TraceRegion(op, name string, loc ir.Loc, types []ir.Type, fn func(tr *Tracer, params []*Tensor) []*Tensor) (*ir.Func, []*Tensor) {
	rt := traceRegionIn(op, name, loc, types, fn)
	extra := alignCaptures(loc, rt)
	return rt.fn, extra
}

// Emit records one op into tr, whatever its operands' traces (those of
// other traces are captured), at the user's call site: for ops without
// operands (partition_id) that belong to a region being traced. It panics
// when tr has finished.
func (tr *Tracer) Emit(op ir.Op, attr any, args []*Tensor, regions ...*ir.Func) []*Tensor {
	loc := ir.CallerLoc()
	if tr.done {
		panic(ir.Errorf(loc, op.String(), "trace @%s has finished", tr.fn.Name))
	}
	for i, a := range args {
		if a == nil {
			panic(ir.Errorf(loc, op.String(), "operand #%d is nil", i))
		}
	}
	outs := record(tr, loc, op, args, attr, regions)
	res := make([]*Tensor, len(outs))
	for i, v := range outs {
		res[i] = symbolic(tr, v)
	}
	return res
}
