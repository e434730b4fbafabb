package codegen

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
)

// A long loop body is a long chain of dependent instructions per element
// (the inline exp, logistic or tanh, a dozen ops of a fused chain). LLVM's
// vectorizer interleaves such loops once (one vector per iteration), and
// the core then waits on the chain: on the fused GELU of W2 a 4x
// interleave (four independent vectors per iteration) ran 20% faster.
// Short bodies keep the vectorizer's own choice: their iterations are
// already short, and a 4x interleave would leave small arrays to the
// scalar remainder loop.
const (
	interleaveMinInsts = 24
	interleaveCount    = 4
)

// interleaveMap marks br, the back edge of the loop whose single body
// block is body, with an interleave count for LLVM's loop vectorizer when
// the body is long and the loop is a map: no value carried from one
// iteration to the next other than the induction variable (its one phi),
// so interleaving cannot reorder any computation.
func (e *emitter) interleaveMap(br *ir.TermCondBr, body *ir.Block) {
	phis := 0
	for _, inst := range body.Insts {
		if _, ok := inst.(*ir.InstPhi); ok {
			phis++
		}
	}
	if phis != 1 || len(body.Insts) < interleaveMinInsts {
		return
	}
	hint := &metadata.Tuple{MetadataID: -1, Fields: []metadata.Field{
		&metadata.String{Value: "llvm.loop.interleave.count"},
		constant.NewInt(types.I32, interleaveCount),
	}}
	loop := &metadata.Tuple{MetadataID: -1, Distinct: true}
	loop.Fields = []metadata.Field{loop, hint}
	e.m.MetadataDefs = append(e.m.MetadataDefs, loop, hint)
	br.Metadata = append(br.Metadata, &metadata.Attachment{Name: "llvm.loop", Node: loop})
}
