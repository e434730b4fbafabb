package tensor

import (
	"fmt"

	"github.com/stela-ml/stela/ir"
)

// Gradient tapes. A tape is the trace that jit's Grad, VJP and JVP open
// around the function they differentiate. Its tensors stand one level
// above ordinary ones: each op on them is recorded into the tape's
// function, as in any trace, and also run at the level below on their
// primal tensors (the values the op computes), so the user's function
// runs op by op with real values, as in JAX without jit. Below may be
// concrete tensors (the op runs eagerly on their device), a jit trace
// (the op is recorded there: jit.Compile(jit.Grad(f)) compiles forward
// and backward as one program) or another tape (grad of grad). When the
// function returns, the tape's function is the function to differentiate,
// passes/autodiff turns it into its derivative, and Apply runs that,
// again one level below, on the primal tensors the derivative reads.
//
// The level of a tape is its place in the order traces were opened
// (Tracer.seq), carried by its tensors: a tensor of an older trace that
// an op combines with tape tensors is captured as a constant of the
// function being differentiated, which is how nested derivatives keep
// apart what each one differentiates (JAX's perturbation levels).

// NewTape starts a gradient tape for a function with the given name.
func NewTape(name string) *Tracer { return newTracer(name, tapeTrace) }

// IsTape reports whether tr is a gradient tape.
func (tr *Tracer) IsTape() bool { return tr.kind == tapeTrace }

// TapeParam declares the next parameter of a tape: the tensor returned
// stands for primal, one level above it. A weak primal (a Go number)
// stays weak, without its value, so that ops record instead of folding
// it on the host.
func (tr *Tracer) TapeParam(primal *Tensor, loc ir.Loc) *Tensor {
	if tr.kind != tapeTrace {
		panic("tensor: TapeParam on trace @" + tr.fn.Name + ", which is not a tape")
	}
	if primal == nil {
		panic("tensor: TapeParam of a nil tensor")
	}
	p := tr.Param(primal.typ, loc)
	p.sym.primal = primal
	p.meta = commitment(primal.Committed())
	p.setWeak(primal.weakKind(), nil)
	tr.primal[p.sym.val] = primal
	return p
}

// lower is the tensor that t stands for one level below this tape: its
// primal when it is the tape's own, else t itself (a constant of the
// differentiated function).
func (tr *Tracer) lower(t *Tensor) *Tensor {
	if t.sym != nil && t.sym.tr == tr {
		return t.sym.primal
	}
	return t
}

// Lower is the tensor one level below that stands for t, a result of the
// tape's function or a tensor of an older level (returned as is).
func (tr *Tracer) Lower(t *Tensor) *Tensor { return tr.lower(t) }

// recordTape records an op into the tape and runs it one level below.
func (tr *Tracer) recordTape(like *Tensor, loc ir.Loc, op ir.Op, args []*Tensor, attr any, regions []*ir.Func) []*Tensor {
	vals := make([]*ir.Value, len(args))
	lower := make([]*Tensor, len(args))
	for i, a := range args {
		v, err := tr.valueOf(a, loc)
		if err != nil {
			panic(ir.Errorf(loc, op.String(), "operand #%d: %v", i, err))
		}
		vals[i] = v
		lower[i] = tr.lower(a)
	}
	// Emit makes the regions its instruction's own; the level below gets
	// copies.
	low := make([]*ir.Func, len(regions))
	for i, r := range regions {
		low[i] = ir.CloneFunc(r)
	}
	outs, err := tr.fn.Emit(loc, op, vals, attr, regions...)
	if err != nil {
		panic(located(err, loc, op.String()))
	}
	var lowLike *Tensor
	if like != nil {
		lowLike = tr.lower(like)
	}
	res := emitAt(nil, lowLike, loc, op, lower, attr, low...)
	dst := make([]*Tensor, 0, len(outs))
	for i, v := range outs {
		p := res[i]
		t := &Tensor{typ: v.Type, sym: &symbol{val: v, tr: tr, primal: p}, meta: commitment(p.Committed())}
		tr.primal[v] = p
		dst = append(dst, t)
	}
	return dst
}

// Primals returns the tensors one level below that the values of the
// tape's function stand for: what each computed, or what each parameter
// and captured tensor is.
func (tr *Tracer) Primals(vs []*ir.Value) ([]*Tensor, error) {
	out := make([]*Tensor, len(vs))
	for i, v := range vs {
		p, ok := tr.primal[v]
		if !ok {
			return nil, fmt.Errorf("tape @%s: value %s has no primal", tr.fn.Name, v)
		}
		out[i] = p
	}
	return out, nil
}

// Known returns the value of v, a value of the tape's function, when it
// is a small concrete tensor (at most 64 elements, read to the host),
// else nil: what passes/autodiff asks to size derivatives that depend on
// values, such as a loop's trip count.
func (tr *Tracer) Known(v *ir.Value) *ir.Literal {
	p, ok := tr.primal[v]
	if !ok || v.Type.NumElements() > 64 {
		return nil
	}
	c := p.concrete()
	if c == nil {
		return nil
	}
	l, err := c.buf.Literal()
	if err != nil {
		return nil
	}
	return l
}

// Apply runs f on args, one instruction at a time, each through the same
// dispatch as the op functions: recorded into the newest trace among its
// operands, or run eagerly on their device (a one-op program, cached).
// Instructions keep their locations, so errors name the user's lines.
// Constants go where the argument of the newest trace is (the first
// argument when none is traced). Apply is how a derivative computed by
// passes/autodiff runs on the level below a tape.
func Apply(f *ir.Func, args ...*Tensor) ([]*Tensor, error) {
	if len(args) != len(f.Params) {
		return nil, fmt.Errorf("apply @%s: %d arguments, want %d", f.Name, len(args), len(f.Params))
	}
	var like *Tensor
	for i, a := range args {
		if a == nil {
			return nil, fmt.Errorf("apply @%s: argument #%d is nil", f.Name, i)
		}
		if !a.typ.Equal(f.Params[i].Type) {
			return nil, fmt.Errorf("apply @%s: argument #%d has type %v, want %v", f.Name, i, a.typ, f.Params[i].Type)
		}
		if like == nil || (a.sym != nil && (like.sym == nil || a.sym.tr.seq > like.sym.tr.seq)) {
			like = a
		}
	}
	env := make(map[*ir.Value]*Tensor, len(f.Params)+len(f.Body))
	for i, p := range f.Params {
		env[p] = strong(args[i])
	}
	err := Catch(func() {
		for _, in := range f.Body {
			ops := make([]*Tensor, len(in.Args))
			for i, a := range in.Args {
				ops[i] = env[a]
			}
			var l *Tensor
			if len(ops) == 0 {
				l = like
			}
			regions := make([]*ir.Func, len(in.Regions))
			for i, r := range in.Regions {
				regions[i] = ir.CloneFunc(r)
			}
			outs := emitAt(nil, l, in.Loc, in.Op, ops, in.Attr, regions...)
			for i, r := range in.Results {
				env[r] = outs[i]
			}
		}
	})
	if err != nil {
		return nil, inDerivative(err, f)
	}
	out := make([]*Tensor, len(f.Results))
	for i, r := range f.Results {
		out[i] = env[r]
	}
	return out, nil
}

// StopGradient is x, as a constant for every derivative being taken: no
// gradient flows back through it (jax.lax.stop_gradient). It costs
// nothing: a tensor being differentiated gives its value one level below,
// which the derivative's tape captures as a constant. Stable softmax uses
// it on the max it subtracts, whose gradient is zero in exact arithmetic.
func StopGradient(x *Tensor) *Tensor {
	checkNotNil("stop_gradient", x)
	for x.sym != nil && x.sym.tr.kind == tapeTrace {
		if x.sym.tr.done {
			panic(fail("stop_gradient", "tensor %v belongs to trace @%s, which has finished (a traced tensor escaped its function)", x.typ, x.sym.tr.Name()))
		}
		p := x.sym.primal
		x = &Tensor{typ: p.typ, buf: p.buf, sym: p.sym, meta: x.meta}
	}
	return x
}
