package tensor

import (
	"fmt"
	"strings"
	"sync"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// Composite functions as one program. A composite made of many ops (a
// random sampler is some two hundred) costs, eagerly, one dispatch per op
// and, the first time a shape is seen, one compile per op. asProgram runs
// such a function on concrete tensors as one program instead: traced once
// per signature (the function, its static arguments, the tensors' types
// and device), compiled once and cached here, then run with a single
// dispatch. On traced tensors (inside jit, on a gradient tape) the
// function just runs, and its ops record where the tensors are.

// programCache holds the compiled composites, at most maxPrograms of them
// (when full it starts again: composites are cheap to rebuild).
var programCache = struct {
	sync.Mutex
	m map[string]*program
}{m: map[string]*program{}}

const maxPrograms = 512

// program is one compiled signature of a composite.
type program struct {
	mu   sync.Mutex
	fn   *ir.Func
	caps []*Tensor // captured concrete tensors, on dev
	exe  runtime.Executable
	err  error
}

// allConcrete reports whether every tensor is concrete.
func allConcrete(ts []*Tensor) bool {
	for _, t := range ts {
		if t == nil || t.buf == nil {
			return false
		}
	}
	return true
}

// asProgram runs body on args as one compiled program when they are all
// concrete, else calls body. sig spells body's static arguments (what,
// besides the tensors' types and device, decides the program).
func asProgram(name, sig string, args []*Tensor, body func(args []*Tensor) []*Tensor) []*Tensor {
	if !allConcrete(args) || CurrentEagerMode() == EagerFused {
		// Traced, or fused eager mode: the ops record where they go (in
		// fused mode, into the open window, with whatever else it holds).
		return body(args)
	}
	what := func(i int) string { return fmt.Sprintf("operand #%d", i) }
	dev, committed, err := Placement(args, what)
	if err != nil {
		panic(fail(name, "%v", err))
	}
	var kb strings.Builder
	kb.WriteString(name)
	kb.WriteByte(0)
	kb.WriteString(sig)
	for _, a := range args {
		fmt.Fprintf(&kb, "\x00%v/%d", a.typ, a.weakKind())
	}
	kb.WriteString("\x00")
	kb.WriteString(dev.Name())
	key := kb.String()
	programCache.Lock()
	p := programCache.m[key]
	if p == nil {
		if len(programCache.m) >= maxPrograms {
			programCache.m = map[string]*program{}
		}
		p = &program{}
		programCache.m[key] = p
	}
	programCache.Unlock()
	// A mutex, not a sync.Once: a failed build is not kept (its error is
	// located at this call's line), and the build must see the user's
	// frame as its caller's, with no frame of package sync between.
	p.mu.Lock()
	if p.fn == nil {
		p.build(name, dev, args, body)
		if err := p.err; err != nil {
			p.err = nil
			p.mu.Unlock()
			panic(err)
		}
	}
	p.mu.Unlock()
	moved, err := MoveTo(args, dev, what)
	if err != nil {
		panic(fail(name, "%v", err))
	}
	bufs := make([]Buffer, 0, len(moved)+len(p.caps))
	for _, a := range moved {
		bufs = append(bufs, a.dbuf())
	}
	for _, c := range p.caps {
		bufs = append(bufs, c.dbuf())
	}
	var rs []Buffer
	if p.exe != nil {
		rs, err = p.exe.Run(bufs, ir.CallerLoc())
	} else {
		rs, err = dev.Run(p.fn, bufs)
	}
	if err != nil {
		panic(located(err, ir.CallerLoc(), name))
	}
	out := make([]*Tensor, len(rs))
	for i, b := range rs {
		out[i] = FromResult(b, committed)
	}
	return out
}

// build traces body on parameters like args and compiles the result for
// dev; a failure (a located error of an op in body) is kept in p.err.
func (p *program) build(name string, dev Device, args []*Tensor, body func([]*Tensor) []*Tensor) {
	p.caps = nil
	tr := NewTracer(strings.ReplaceAll(name, ".", "_"))
	defer func() {
		if !tr.done {
			tr.Discard()
		}
	}()
	loc := ir.CallerLoc()
	params := make([]*Tensor, len(args))
	for i, a := range args {
		params[i] = tr.ParamLike(a, loc)
	}
	var outs []*Tensor
	if p.err = Catch(func() { outs = body(params) }); p.err != nil {
		return
	}
	f, caps, err := tr.Finish(outs...)
	if err != nil {
		p.err = err
		return
	}
	for _, c := range caps {
		if c.buf.Device() != dev {
			moved, err := MoveTo([]*Tensor{c}, dev, func(int) string { return "captured tensor" })
			if err != nil {
				p.err = fail(name, "%v", err)
				return
			}
			c = moved[0]
		}
		p.caps = append(p.caps, c)
	}
	if comp, ok := dev.(runtime.Compiler); ok {
		exe, err := comp.Compile(f)
		if err != nil {
			p.err = located(err, loc, name)
			return
		}
		p.exe = exe
	}
	p.fn = f
}
