package codegen

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/stela-ml/stela/stablehlo"
)

// The planner turns the entry function of a StableHLO module into a flat
// list of nodes over tensor values: calls are inlined, every op is checked
// (types static and supported, attributes well formed), attributes are
// decoded into the node, dot_general operands are put into canonical
// layout by explicit transposes, reshapes become views of their operand,
// and ops whose results nobody uses are dropped. What comes out is what
// the emitter needs and nothing it must check again.

// opKind is the kind of kernel a node needs.
type opKind int

const (
	kUnary     opKind = iota + 1 // elementwise, one operand
	kBinary                      // elementwise, two operands
	kCompare                     // elementwise → i1
	kSelect                      // pred (scalar or full), on_true, on_false
	kClamp                       // lo (scalar or full), x, hi (scalar or full)
	kConvert                     // elementwise element type change
	kConstant                    // data in a global
	kFill                        // a large splat constant, filled at run time
	kIota                        // index along dim
	kBroadcast                   // broadcast_in_dim (dims)
	kReshape                     // a view: no code
	kTranspose                   // dims is the permutation
	kSlice                       // start, limit, stride
	kConcat                      // dim
	kReverse                     // dims
	kPad                         // start=low, limit=high, stride=interior; in[1] is the padding value
	kDot                         // canonical [B,M,K] x [B,K,N] → [B,M,N]
	kReduce                      // dims, body
	kCheck                       // an expectation

	// control.go, sort.go, gather.go, misc.go
	kWhile     // plan: *ctlPlan
	kCase      // plan: *ctlPlan
	kSort      // plan: *sortPlan
	kGather    // plan: *gatherPlan
	kScatter   // plan: *scatterPlan
	kDynSlice  // start indices are operands 1..rank
	kDynUpdate // operand, update, start indices
	kRng       // plan: *rngPlan
	kTuple     // never emitted: the def of a tuple value; in are its elements

	// conv.go, window.go
	kConv          // plan: *convPlan
	kReduceWindow  // plan: *windowPlan; body is the reducer
	kSelectScatter // plan: *windowPlan; body is select
	kConvGEMM      // plan: *convGEMMPlan; outputs: result, scratch

	// collective.go
	kAllReduce     // plan: *collPlan
	kAllGather     // plan: *collPlan
	kReduceScatter // plan: *collPlan
	kAllToAll      // plan: *collPlan
	kCollPermute   // plan: *collPlan
	kCollBroadcast // plan: *collPlan
	kDeviceID      // replica_id or partition_id; plan: *collPlan

	// attention.go
	kAttention // plan: *attnPlan; in: q, k, v[, mask]

	// fft.go
	kFFT // plan: *fftPlan
)

// node is one operation of the flattened entry function.
type node struct {
	kind opKind
	name string        // StableHLO op name
	src  *stablehlo.Op // nil for nodes the planner made
	fn   string        // function the op came from (after inlining)
	in   []*tval
	out  []*tval

	dims                 []int64
	start, limit, stride []int64
	dim                  int64
	cmpDir               string // EQ, NE, GE, GT, LE, LT
	cmpType              string // SIGNED, UNSIGNED, FLOAT, TOTALORDER
	b, m, k, n           int64  // dot sizes
	data                 []byte // constant bytes (one element for kFill)
	body                 *stablehlo.Block
	check                checkPlan
	// gemm is set for a dot through the runtime's GEMM (dot.go); nil
	// means generated loops.
	gemm *dotGemm
	// acc is set for a GEMM that accumulates into its third operand,
	// out = in[2] + alpha·dot(in[0], in[1]) (gemmacc.go).
	acc   bool
	alpha float64
	// plan is the op-specific plan of the kinds defined in control.go,
	// sort.go, gather.go and misc.go.
	plan any
	// fused is set for a kernel that computes its producers inline
	// (fusion.go); in then holds the buffers it reads.
	fused *fusion
	// inPlace lists the inputs the kernel reads through its output's
	// pointer: an aliased argument it overwrites element by element
	// (alias.go).
	inPlace []int
}

func (n *node) where() string {
	s := n.name
	if n.fn != "" {
		s += " in @" + n.fn
	}
	if n.src != nil && n.src.Loc != nil {
		if _, unknown := n.src.Loc.(stablehlo.UnknownLoc); !unknown {
			s += " at " + n.src.Loc.String()
		}
	}
	return s
}

// checkPlan describes an expectation.
type checkPlan struct {
	label    string // "check.expect_eq", "custom_call @check.eq", ...
	mode     checkMode
	tol      float64
	minULP   int64
	maxULP   int64
	expFirst bool // operands are (expected, actual): custom_call @check.eq
	result   bool // the op has an i1 result: all elements matched
}

type checkMode int

const (
	checkExact checkMode = iota + 1
	checkAlmost
	checkClose
)

// storage says where a value's bytes live.
type storage int

const (
	stNone   storage = iota
	stArena          // the per-call arena, at off
	stArg            // entry argument index
	stResult         // result buffer index
	stConst          // a global holding the constant node's data
)

// tval is a tensor value of the flattened program.
type tval struct {
	t   ttype
	def *node
	arg int // entry argument index, or -1
	// view is set for reshape results: the bytes are view's.
	view *tval

	// Filled by the buffer planner (for values with view == nil).
	used        bool
	first, last int // node indexes of definition and last use
	st          storage
	off         int64 // arena offset
	idx         int   // argument or result index
}

// root is the value that owns v's bytes.
func (v *tval) root() *tval {
	for v.view != nil {
		v = v.view
	}
	return v
}

// Program is a checked, flattened entry function ready for emission.
type Program struct {
	Entry string // the entry function's name
	// optimized is Options.OptimizedProgram.
	optimized string
	args      []*tval
	results   []*tval
	nodes     []*node
	checks    int
	// arenaSize is the size in bytes of the per-call scratch memory.
	arenaSize int64
	// intermediateBytes is the sum of the arena values' sizes (no sharing).
	intermediateBytes int64
	// copies are results whose bytes must be copied into the result
	// buffer at the end (arguments, constants, values returned twice,
	// aliased results that could not be computed in place), in order.
	copies []resultCopy
	// aliases holds per result the argument whose buffer it lives in
	// (tf.aliasing_output), or -1; nil when none (alias.go).
	aliases []int
	// inPlaceResults counts the aliased results that need no copy.
	inPlaceResults int
	// dev is the execution the program is compiled for (collective.go).
	dev devices
}

// resultCopy copies src into result buffer res at the end of the entry,
// or, when to is set, into the arena value to (a staging copy, alias.go).
type resultCopy struct {
	res int
	src *tval
	to  *tval
}

// Signature returns the signature string of the compiled program, as
// docs/cpu-plugin.md defines it: one line per parameter then per result,
// `arg <dtype> <d0>x<d1>...` / `res <dtype> <dims>`.
func (p *Program) Signature() string {
	var sb strings.Builder
	line := func(kind string, t ttype) {
		sb.WriteString(kind)
		sb.WriteByte(' ')
		sb.WriteString(t.elem.sir())
		sb.WriteByte(' ')
		for i, d := range t.shape {
			if i > 0 {
				sb.WriteByte('x')
			}
			fmt.Fprintf(&sb, "%d", d)
		}
		sb.WriteByte('\n')
	}
	for _, a := range p.args {
		line("arg", a.t)
	}
	for _, r := range p.results {
		line("res", r.t)
	}
	return sb.String()
}

// NumChecks is the number of expectations (check.* ops) the program
// evaluates.
func (p *Program) NumChecks() int { return p.checks }

// Options configures planning and emission.
type Options struct {
	// Entry names the function to compile; "" picks @main, else the only
	// public function, else the only function.
	Entry string
	// NoFusion gives every op a kernel of its own (fusion.go); so does
	// STELA_DEBUG=nofusion.
	NoFusion bool
	// NoAttention leaves attention as its ops instead of one fused
	// kernel (attention.go); so do NoFusion and STELA_DEBUG=noattention.
	NoAttention bool
	// NumReplicas and NumPartitions are the devices the program runs on
	// (the compile options'), for its collectives; 0 takes the module's
	// mhlo.num_replicas and mhlo.num_partitions attributes, else 1.
	NumReplicas, NumPartitions int
	// OptimizedProgram, when set, is exported as the object's
	// stela_optimized_program (a NUL-terminated string): the program
	// the worker compiled after rewriting the one it was given (the SPMD
	// partitioner's per-device StableHLO), which the plugin returns from
	// PJRT_Executable_OptimizedProgram.
	OptimizedProgram string
}

// Plan checks the module's entry function and flattens it (inlining
// func.call) into a Program. Errors for valid StableHLO that the code
// generator does not handle are *UnsupportedError. Calls inside region
// bodies are inlined into m first (Module.InlineRegionCalls).
func Plan(m *stablehlo.Module, opts Options) (*Program, error) {
	if m == nil {
		return nil, fmt.Errorf("nil module")
	}
	if err := m.InlineRegionCalls(); err != nil {
		return nil, err
	}
	// Dynamic-shape ops with shapes known at compile time become static
	// ones; the others are refused, naming the op.
	if err := m.RefineShapes(); err != nil {
		return nil, unsupportedf("%v", err)
	}
	// chlo.scan, ragged_dot, constant and constant_like become StableHLO
	// (Module.LowerChlo).
	if err := m.LowerChlo(); err != nil {
		return nil, err
	}
	// Quantized types become their storage integers, quantized ops the
	// spec's arithmetic (Module.LowerQuant).
	if err := m.LowerQuant(); err != nil {
		return nil, unsupportedf("%v", err)
	}
	entry, err := pickEntry(m, opts.Entry)
	if err != nil {
		return nil, err
	}
	if err := scanOps(m, entry, map[string]bool{}); err != nil {
		return nil, err
	}
	dev, err := deviceShape(m, opts)
	if err != nil {
		return nil, err
	}
	p := &planner{mod: m, prog: &Program{Entry: entry.Name, dev: dev, optimized: opts.OptimizedProgram}, dev: dev}
	var args []*tval
	for i, a := range entry.Args {
		t, err := tensorType(a.Type)
		if err != nil {
			return nil, inContext(fmt.Sprintf("argument #%d of @%s", i, entry.Name), err)
		}
		args = append(args, &tval{t: t, arg: i})
	}
	p.prog.args = args
	results, err := p.inline(entry, args, nil)
	if err != nil {
		return nil, err
	}
	for i, r := range results {
		if i < len(entry.ResultTypes) {
			t, err := tensorType(entry.ResultTypes[i])
			if err != nil {
				return nil, inContext(fmt.Sprintf("result #%d of @%s", i, entry.Name), err)
			}
			if !t.equal(r.t) {
				return nil, fmt.Errorf("@%s: result #%d has type %s, the function declares %s", entry.Name, i, r.t, t)
			}
		}
	}
	if len(results) != len(entry.ResultTypes) {
		return nil, fmt.Errorf("@%s: returns %d values, the function declares %d results", entry.Name, len(results), len(entry.ResultTypes))
	}
	p.prog.results = results
	if p.prog.aliases, err = entryAliases(entry, args, results); err != nil {
		return nil, err
	}
	p.prog.nodes = p.nodes
	p.dce()
	p.gemmAccumulate()
	p.dce() // the constants the folded updates multiplied by
	if !opts.NoFusion && !nofusionEnv() {
		if !opts.NoAttention && !noattentionEnv() {
			p.fuseAttention() // attention.go
		}
		p.fuse()
	}
	p.assignBuffers()
	return p.prog, nil
}

func pickEntry(m *stablehlo.Module, name string) (*stablehlo.Func, error) {
	if name != "" {
		f := m.Func(name)
		if f == nil {
			return nil, fmt.Errorf("no function @%s", name)
		}
		if f.Body == nil {
			return nil, fmt.Errorf("@%s is a declaration without a body", name)
		}
		return f, nil
	}
	if f := m.Func("main"); f != nil && f.Body != nil {
		return f, nil
	}
	var public, all []*stablehlo.Func
	for _, f := range m.Funcs {
		if f.Body == nil {
			continue
		}
		all = append(all, f)
		if f.Visibility == "public" || f.Visibility == "" {
			public = append(public, f)
		}
	}
	switch {
	case len(public) == 1:
		return public[0], nil
	case len(all) == 1:
		return all[0], nil
	case len(all) == 0:
		return nil, fmt.Errorf("module has no function with a body")
	}
	return nil, fmt.Errorf("module has no @main and %d public functions: cannot pick the entry", len(public))
}

type planner struct {
	mod   *stablehlo.Module
	prog  *Program
	dev   devices // the execution the program is compiled for
	nodes []*node
	// lookup finds the values visible where ops are being planned, for
	// the regions of while/case, which may use values from outside.
	lookup func(*stablehlo.Value) (*tval, bool)
}

// maxCallDepth bounds inlining (it also catches recursion).
const maxCallDepth = 64

// inline appends the ops of f's body, with args bound to f's parameters,
// and returns the values f returns.
func (p *planner) inline(f *stablehlo.Func, args []*tval, stack []string) ([]*tval, error) {
	if slices.Contains(stack, f.Name) {
		return nil, unsupportedf("recursive call of @%s", f.Name)
	}
	if len(stack) >= maxCallDepth {
		return nil, unsupportedf("calls nested deeper than %d", maxCallDepth)
	}
	stack = append(stack, f.Name)
	blk := f.Entry()
	if blk == nil {
		return nil, fmt.Errorf("@%s has no body", f.Name)
	}
	if f.Body != nil && len(f.Body.Blocks) != 1 {
		return nil, unsupportedf("function @%s with %d blocks", f.Name, len(f.Body.Blocks))
	}
	if len(blk.Args) != len(args) {
		return nil, fmt.Errorf("@%s takes %d arguments, called with %d", f.Name, len(blk.Args), len(args))
	}
	env := map[*stablehlo.Value]*tval{}
	defer p.scopeOf(env)()
	for i, a := range blk.Args {
		t, err := tensorType(a.Type)
		if err != nil {
			return nil, inContext(fmt.Sprintf("argument #%d of @%s", i, f.Name), err)
		}
		if !t.equal(args[i].t) {
			return nil, fmt.Errorf("@%s: argument #%d has type %s, called with %s", f.Name, i, t, args[i].t)
		}
		env[a] = args[i]
	}
	for _, op := range blk.Ops {
		ins := make([]*tval, len(op.Operands))
		for i, o := range op.Operands {
			v, ok := env[o]
			if !ok {
				return nil, fmt.Errorf("%s in @%s: operand #%d is not defined before its use", op.Name, f.Name, i)
			}
			ins[i] = v
		}
		ctx := op.Name + " in @" + f.Name + opLoc(op)
		switch op.Name {
		case "func.return", "return":
			return ins, nil
		case "func.call", "call", "stablehlo.composite":
			// A composite means what its decomposition computes: it is
			// expanded like a call of that function.
			callee, ok := op.Attr(calleeAttr(op.Name)).(stablehlo.SymbolRefAttr)
			if !ok || len(callee.Nested) > 0 {
				return nil, fmt.Errorf("%s: missing or nested %s", ctx, calleeAttr(op.Name))
			}
			g := p.mod.Func(callee.Name)
			if g == nil || g.Body == nil {
				return nil, fmt.Errorf("%s: no function @%s with a body", ctx, callee.Name)
			}
			outs, err := p.inline(g, ins, stack)
			if err != nil {
				return nil, err
			}
			if len(outs) != len(op.Results) {
				return nil, fmt.Errorf("%s: @%s returns %d values, the call has %d results", ctx, callee.Name, len(outs), len(op.Results))
			}
			for i, r := range op.Results {
				t, err := tensorType(r.Type)
				if err != nil {
					return nil, inContext(ctx, err)
				}
				if !t.equal(outs[i].t) {
					return nil, fmt.Errorf("%s: result #%d has type %s, @%s returns %s", ctx, i, t, callee.Name, outs[i].t)
				}
				env[r] = outs[i]
			}
			continue
		}
		outs, err := p.op(op, f.Name, ins)
		if err != nil {
			return nil, inContext(ctx, err)
		}
		if len(outs) != len(op.Results) {
			return nil, fmt.Errorf("%s: internal error: %d results planned for %d", ctx, len(outs), len(op.Results))
		}
		for i, r := range op.Results {
			env[r] = outs[i]
		}
	}
	return nil, fmt.Errorf("@%s: body does not end with func.return", f.Name)
}

// resultTypes converts and returns the op's result types.
func resultTypes(op *stablehlo.Op) ([]ttype, error) {
	var ts []ttype
	for i, r := range op.Results {
		t, err := tensorType(r.Type)
		if err != nil {
			return nil, inContext(fmt.Sprintf("result #%d", i), err)
		}
		ts = append(ts, t)
	}
	return ts, nil
}

// add appends a node with fresh result values of types outs.
func (p *planner) add(n *node, outs ...ttype) []*tval {
	for _, t := range outs {
		n.out = append(n.out, &tval{t: t, def: n, arg: -1})
	}
	p.nodes = append(p.nodes, n)
	return n.out
}

// unaryOps and binaryOps are the elementwise StableHLO ops computed by
// scalar.go's unary and binary (short names), from the op table
// (stablehlo.OpDefs).
var (
	unaryOps  = kernelOps(stablehlo.KernelUnary)
	binaryOps = kernelOps(stablehlo.KernelBinary)
)

// widensTo reports whether every value of kind from is exactly a value of
// kind to: the same kind, a wider integer (of the same signedness, or
// unsigned into a wider signed one), a wider float, or a complex of a
// part at least as wide. dot_general and convolution take operands of
// such kinds into a result of kind to (mixed precision).
func widensTo(from, to elemKind) bool {
	switch {
	case from == to:
		return true
	case from.isInt() && to.isInt():
		if from.isUnsigned() == to.isUnsigned() {
			return to.bits() >= from.bits()
		}
		return from.isUnsigned() && to.bits() > from.bits()
	case from.isFloat() && to.isFloat():
		if from.isMini() {
			return to.bits() >= 32 // f8E8M0FNU's range is not f16's
		}
		return to.bits() > from.bits() || from.isHalf() && to.bits() >= 32
	case from.isFloat() && to.isComplex():
		return widensTo(from, to.part())
	case from.isComplex() && to.isComplex():
		return to.bits() >= from.bits()
	}
	return false
}

// widen returns x converted to kind k (a convert node), or x itself when
// it has that kind.
func (p *planner) widen(n *node, x *tval, k elemKind) *tval {
	if x.t.elem == k {
		return x
	}
	cn := &node{name: "stablehlo.convert", src: n.src, fn: n.fn, in: []*tval{x}, kind: kConvert}
	return p.add(cn, ttype{elem: k, shape: x.t.shape})[0]
}

// kernelOps returns the short names of the StableHLO ops the op table
// gives kernel k.
func kernelOps(k stablehlo.Kernel) map[string]bool {
	m := map[string]bool{}
	for _, d := range stablehlo.OpDefs() {
		if short, ok := strings.CutPrefix(d.Name, "stablehlo."); ok && d.Kernel == k {
			m[short] = true
		}
	}
	return m
}

// kernelOf is the op table's kernel of the op with this full name
// (stablehlo.NoKernel for ops not in the table).
func kernelOf(name string) stablehlo.Kernel {
	if d, ok := stablehlo.LookupOp(name); ok {
		return d.Kernel
	}
	return stablehlo.NoKernel
}

// elemOK says whether an elementwise op is defined on an element kind.
func elemOK(name string, k elemKind) bool {
	if ok, handled := elemOKExt(name, k); handled { // types_ext.go
		return ok
	}
	switch name {
	case "add", "multiply", "maximum", "minimum", "and", "or", "xor", "not":
		return true
	case "subtract", "divide", "power", "negate", "sign", "abs", "remainder":
		return k != kBool
	case "shift_left", "shift_right_arithmetic", "shift_right_logical", "popcnt", "count_leading_zeros":
		return k.isInt()
	}
	// floats only: transcendental, rounding, atan2, is_finite
	return k.isFloat()
}

func (p *planner) op(op *stablehlo.Op, fn string, ins []*tval) ([]*tval, error) {
	name := op.Name
	short, isHLO := strings.CutPrefix(name, "stablehlo.")
	n := &node{name: name, src: op, fn: fn, in: ins}
	if strings.HasPrefix(name, "check.") {
		return p.checkOp(n, op, ins)
	}
	if outs, ok, err := p.extOp(n, op, ins); ok {
		return outs, err
	}
	if outs, ok, err := p.windowOp(n, op, ins); ok { // conv.go, window.go
		return outs, err
	}
	if !isHLO {
		return nil, unsupportedf("%s", name)
	}
	if len(op.Regions) > 0 && short != "reduce" {
		return nil, unsupportedf("%s", name)
	}
	outs, err := resultTypes(op)
	if err != nil {
		if IsUnsupported(err) {
			// An unsupported op is the clearer message when both apply.
			if !knownOp(short) {
				return nil, unsupportedf("%s", name)
			}
		}
		return nil, err
	}
	nargs := func(k int) error {
		if len(ins) != k {
			return fmt.Errorf("has %d operands, want %d", len(ins), k)
		}
		if len(outs) != 1 {
			return fmt.Errorf("has %d results, want 1", len(outs))
		}
		return nil
	}
	switch {
	case unaryOps[short]:
		if err := nargs(1); err != nil {
			return nil, err
		}
		x, r := ins[0].t, outs[0]
		if !elemOK(short, x.elem) {
			return nil, fmt.Errorf("element type %s is not allowed", x.elem.mlir())
		}
		want := ttype{elem: unaryResultKind(short, x.elem), shape: x.shape}
		if !r.equal(want) {
			return nil, fmt.Errorf("result type %s, want %s", r, want)
		}
		n.kind = kUnary
		return p.add(n, r), nil
	case binaryOps[short]:
		if err := nargs(2); err != nil {
			return nil, err
		}
		x, y, r := ins[0].t, ins[1].t, outs[0]
		if !x.equal(y) || !r.equal(ttype{elem: binaryResultKind(short, x.elem), shape: x.shape}) {
			return nil, fmt.Errorf("operand and result types %s, %s -> %s do not fit", x, y, r)
		}
		if !elemOK(short, x.elem) {
			return nil, fmt.Errorf("element type %s is not allowed", x.elem.mlir())
		}
		n.kind = kBinary
		return p.add(n, r), nil
	}
	switch short {
	case "compare":
		if err := nargs(2); err != nil {
			return nil, err
		}
		r := outs[0]
		dir, ct, err := compareAttrs(op, ins[0].t, ins[1].t, r)
		if err != nil {
			return nil, err
		}
		n.cmpDir, n.cmpType = dir, ct
		n.kind = kCompare
		return p.add(n, r), nil
	case "select":
		if err := nargs(3); err != nil {
			return nil, err
		}
		pt, a, b, r := ins[0].t, ins[1].t, ins[2].t, outs[0]
		if pt.elem != kBool || (pt.rank() != 0 && !slices.Equal(pt.shape, a.shape)) || !a.equal(b) || !a.equal(r) {
			return nil, fmt.Errorf("types %s, %s, %s -> %s do not fit", pt, a, b, r)
		}
		n.kind = kSelect
		return p.add(n, r), nil
	case "clamp":
		if err := nargs(3); err != nil {
			return nil, err
		}
		lo, x, hi, r := ins[0].t, ins[1].t, ins[2].t, outs[0]
		for _, b := range []ttype{lo, hi} {
			if b.elem != x.elem || (b.rank() != 0 && !slices.Equal(b.shape, x.shape)) {
				return nil, fmt.Errorf("bound type %s does not fit operand %s", b, x)
			}
		}
		if !x.equal(r) {
			return nil, fmt.Errorf("result type %s, want %s", r, x)
		}
		n.kind = kClamp // on i1, maximum/minimum are or/and
		return p.add(n, r), nil
	case "convert":
		if err := nargs(1); err != nil {
			return nil, err
		}
		if !slices.Equal(ins[0].t.shape, outs[0].shape) {
			return nil, fmt.Errorf("result shape %s differs from operand %s", outs[0], ins[0].t)
		}
		if err := convertOK(ins[0].t.elem, outs[0].elem); err != nil {
			return nil, err
		}
		n.kind = kConvert
		return p.add(n, outs[0]), nil
	case "constant":
		if err := nargs(0); err != nil {
			return nil, err
		}
		d, ok := op.Attr("value").(*stablehlo.DenseElements)
		if !ok {
			return nil, unsupportedf("constant value %v", op.Attr("value"))
		}
		return p.constant(n, d, outs[0])
	case "iota":
		if err := nargs(0); err != nil {
			return nil, err
		}
		dim, ok := op.Attr("iota_dimension").(stablehlo.IntAttr)
		r := outs[0]
		if !ok || dim.Value < 0 || int(dim.Value) >= r.rank() {
			return nil, fmt.Errorf("iota_dimension missing or out of range for %s", r)
		}
		if r.elem == kBool {
			return nil, fmt.Errorf("element type i1 is not allowed")
		}
		n.kind, n.dim = kIota, dim.Value
		return p.add(n, r), nil
	case "broadcast_in_dim", "broadcast":
		if err := nargs(1); err != nil {
			return nil, err
		}
		x, r := ins[0].t, outs[0]
		var dims []int64
		if short == "broadcast" {
			sizes, ok := intArray(op.Attr("broadcast_sizes"))
			if !ok {
				return nil, fmt.Errorf("missing broadcast_sizes")
			}
			for i := range x.shape {
				dims = append(dims, int64(len(sizes)+i))
			}
		} else {
			var ok bool
			if dims, ok = intArray(op.Attr("broadcast_dimensions")); !ok {
				return nil, fmt.Errorf("missing broadcast_dimensions")
			}
		}
		if len(dims) != x.rank() || x.elem != r.elem {
			return nil, fmt.Errorf("dims %v do not fit %s -> %s", dims, x, r)
		}
		for i, d := range dims {
			if d < 0 || int(d) >= r.rank() || (x.shape[i] != 1 && x.shape[i] != r.shape[d]) {
				return nil, fmt.Errorf("dims %v do not fit %s -> %s", dims, x, r)
			}
		}
		if !distinctIn(dims, r.rank()) {
			return nil, fmt.Errorf("dims %v are not distinct", dims)
		}
		if x.numElems() == r.numElems() && keepsOrder(dims, x.shape) {
			// Only dimensions of size 1 are added: a reshape.
			return p.view(n, ins[0], r), nil
		}
		n.kind, n.dims = kBroadcast, dims
		return p.add(n, r), nil
	case "reshape":
		if err := nargs(1); err != nil {
			return nil, err
		}
		x, r := ins[0].t, outs[0]
		if x.elem != r.elem || x.numElems() != r.numElems() {
			return nil, fmt.Errorf("cannot reshape %s to %s", x, r)
		}
		return p.view(n, ins[0], r), nil
	case "transpose":
		if err := nargs(1); err != nil {
			return nil, err
		}
		perm, ok := intArray(op.Attr("permutation"))
		x, r := ins[0].t, outs[0]
		if !ok || !isPerm(perm, x.rank()) || x.elem != r.elem {
			return nil, fmt.Errorf("permutation %v does not fit %s", perm, x)
		}
		for i, d := range perm {
			if r.shape[i] != x.shape[d] {
				return nil, fmt.Errorf("result %s is not %s permuted by %v", r, x, perm)
			}
		}
		return []*tval{p.transpose(n, ins[0], perm)}, nil
	case "slice":
		if err := nargs(1); err != nil {
			return nil, err
		}
		x, r := ins[0].t, outs[0]
		start, ok1 := intArray(op.Attr("start_indices"))
		limit, ok2 := intArray(op.Attr("limit_indices"))
		stride, ok3 := intArray(op.Attr("strides"))
		if !ok3 && ok1 {
			stride = slices.Repeat([]int64{1}, len(start))
			ok3 = true
		}
		if !ok1 || !ok2 || !ok3 || len(start) != x.rank() || len(limit) != x.rank() || len(stride) != x.rank() || x.elem != r.elem || r.rank() != x.rank() {
			return nil, fmt.Errorf("start, limit and strides do not fit %s -> %s", x, r)
		}
		for d := range start {
			if start[d] < 0 || limit[d] < start[d] || limit[d] > x.shape[d] || stride[d] < 1 {
				return nil, fmt.Errorf("slice [%d:%d:%d] out of range in dim %d of %s", start[d], limit[d], stride[d], d, x)
			}
			if want := (limit[d] - start[d] + stride[d] - 1) / stride[d]; r.shape[d] != want {
				return nil, fmt.Errorf("result %s does not fit the slice", r)
			}
		}
		n.kind, n.start, n.limit, n.stride = kSlice, start, limit, stride
		return p.add(n, r), nil
	case "concatenate":
		if len(ins) < 1 || len(outs) != 1 {
			return nil, fmt.Errorf("has %d operands and %d results", len(ins), len(outs))
		}
		dim, ok := op.Attr("dimension").(stablehlo.IntAttr)
		r := outs[0]
		if !ok || dim.Value < 0 || int(dim.Value) >= r.rank() {
			return nil, fmt.Errorf("dimension missing or out of range for %s", r)
		}
		total := int64(0)
		for _, x := range ins {
			if x.t.elem != r.elem || x.t.rank() != r.rank() {
				return nil, fmt.Errorf("operand %s does not fit result %s", x.t, r)
			}
			for d := range r.shape {
				if int64(d) != dim.Value && x.t.shape[d] != r.shape[d] {
					return nil, fmt.Errorf("operand %s does not fit result %s", x.t, r)
				}
			}
			total += x.t.shape[dim.Value]
		}
		if total != r.shape[dim.Value] {
			return nil, fmt.Errorf("operands do not add up to result %s", r)
		}
		n.kind, n.dim = kConcat, dim.Value
		return p.add(n, r), nil
	case "reverse":
		if err := nargs(1); err != nil {
			return nil, err
		}
		dims, ok := intArray(op.Attr("dimensions"))
		x, r := ins[0].t, outs[0]
		if !ok || !x.equal(r) {
			return nil, fmt.Errorf("dimensions missing or types %s -> %s differ", x, r)
		}
		for _, d := range dims {
			if d < 0 || int(d) >= x.rank() {
				return nil, fmt.Errorf("dimension %d out of range for %s", d, x)
			}
		}
		n.kind, n.dims = kReverse, dims
		return p.add(n, r), nil
	case "pad":
		if err := nargs(2); err != nil {
			return nil, err
		}
		x, v, r := ins[0].t, ins[1].t, outs[0]
		lo, ok1 := intArray(op.Attr("edge_padding_low"))
		hi, ok2 := intArray(op.Attr("edge_padding_high"))
		in, ok3 := intArray(op.Attr("interior_padding"))
		if !ok1 || !ok2 || !ok3 || len(lo) != x.rank() || len(hi) != x.rank() || len(in) != x.rank() ||
			v.rank() != 0 || v.elem != x.elem || r.elem != x.elem || r.rank() != x.rank() {
			return nil, fmt.Errorf("padding does not fit %s, %s -> %s", x, v, r)
		}
		for d := range lo {
			if in[d] < 0 {
				return nil, fmt.Errorf("negative interior padding")
			}
			size := lo[d] + hi[d] + x.shape[d]
			if x.shape[d] > 0 {
				size += (x.shape[d] - 1) * in[d]
			}
			if size != r.shape[d] {
				return nil, fmt.Errorf("result %s does not fit the padding", r)
			}
		}
		n.kind, n.start, n.limit, n.stride = kPad, lo, hi, in
		return p.add(n, r), nil
	case "dot_general", "dot":
		if err := nargs(2); err != nil {
			return nil, err
		}
		return p.dot(n, op, short, ins, outs[0])
	case "reduce":
		return p.reduce(n, op, ins, outs)
	case "custom_call":
		target, _ := op.Attr("call_target_name").(stablehlo.StringAttr)
		if strings.HasPrefix(string(target), "check.") {
			return p.checkOp(n, op, ins)
		}
		return nil, unsupportedf("stablehlo.custom_call @%s", string(target))
	case "optimization_barrier":
		if len(ins) != len(outs) {
			return nil, fmt.Errorf("has %d operands and %d results", len(ins), len(outs))
		}
		res := make([]*tval, len(ins))
		for i, x := range ins {
			if !x.t.equal(outs[i]) {
				return nil, fmt.Errorf("result #%d type %s differs from operand %s", i, outs[i], x.t)
			}
			res[i] = x
		}
		return res, nil
	}
	return nil, unsupportedf("%s", name)
}

// scanOps reports the first op the code generator does not handle in f
// or the functions it calls, before anything else is checked: a program
// using stablehlo.fft on complex numbers is unsupported because of the
// op, which is the useful thing to say.
func scanOps(m *stablehlo.Module, f *stablehlo.Func, seen map[string]bool) error {
	if seen[f.Name] || f.Body == nil {
		return nil
	}
	seen[f.Name] = true
	var walk func(r *stablehlo.Region) error
	walk = func(r *stablehlo.Region) error {
		for _, blk := range r.Blocks {
			for _, op := range blk.Ops {
				name := op.Name
				switch {
				case name == "func.return" || name == "return" || name == "stablehlo.return":
				case name == "func.call" || name == "call" || name == "stablehlo.composite":
					if c, ok := op.Attr(calleeAttr(name)).(stablehlo.SymbolRefAttr); ok {
						if g := m.Func(c.Name); g != nil {
							if err := scanOps(m, g, seen); err != nil {
								return err
							}
						}
					}
				case name == "stablehlo.custom_call":
					target, _ := op.Attr("call_target_name").(stablehlo.StringAttr)
					if !strings.HasPrefix(string(target), "check.") && !customCallOK(string(target)) {
						return &UnsupportedError{What: "stablehlo.custom_call @" + string(target), Context: "in @" + f.Name + opLoc(op)}
					}
				case strings.HasPrefix(name, "check."):
					switch strings.TrimSuffix(name, "_const") {
					case "check.expect_eq", "check.expect_almost_eq", "check.expect_close":
					default:
						return &UnsupportedError{What: name, Context: "in @" + f.Name + opLoc(op)}
					}
				default:
					short, ok := strings.CutPrefix(name, "stablehlo.")
					if (!ok || !knownOp(short)) && !extKnown(name) {
						return &UnsupportedError{What: name, Context: "in @" + f.Name + opLoc(op)}
					}
				}
				for _, sub := range op.Regions {
					if err := walk(sub); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	return walk(f.Body)
}

// calleeAttr names the attribute that holds the function a call-like op
// runs: a composite's decomposition, a call's callee.
func calleeAttr(op string) string {
	if op == "stablehlo.composite" {
		return "decomposition"
	}
	return "callee"
}

// knownOp reports whether the planner handles ops named stablehlo.<short>.
// The op table (stablehlo.OpDefs) says which: the ops of kernels unary,
// binary, planner (this file's op switch), ext, window and collective,
// and those inlined (composite) or ending a body (return).
func knownOp(short string) bool {
	switch kernelOf("stablehlo." + short) {
	case stablehlo.KernelUnary, stablehlo.KernelBinary, stablehlo.KernelPlanner,
		stablehlo.KernelExt, stablehlo.KernelWindow, stablehlo.KernelCollective, stablehlo.KernelFunc:
		return true
	}
	return false
}

// compareType returns the comparison type of a compare op on kind k:
// its compare_type attribute, or the default for k when absent or
// NOTYPE.
// foldRegion is the region of op that folds one element of each of
// operands into as many accumulators of the same types (the body of reduce
// and reduce_window, scatter's update), checked: one block taking
// (acc..., x...) and returning acc....
func foldRegion(op *stablehlo.Op, operands []*tval) (*stablehlo.Block, error) {
	if len(op.Regions) != 1 || len(op.Regions[0].Blocks) != 1 {
		return nil, fmt.Errorf("want one region with one block")
	}
	k := len(operands)
	body := op.Regions[0].Blocks[0]
	want := make([]elemKind, 2*k)
	for i, x := range operands {
		want[i], want[k+i] = x.t.elem, x.t.elem
	}
	return body, checkScalarBlock(body, want, want[:k])
}

// compareAttrs checks a compare of x and y into r and decodes its
// direction and comparison type.
func compareAttrs(op *stablehlo.Op, x, y, r ttype) (dir, ct string, err error) {
	if !x.equal(y) || !r.equal(ttype{elem: kBool, shape: x.shape}) {
		return "", "", fmt.Errorf("types %s, %s -> %s do not fit", x, y, r)
	}
	d, ok := op.Attr("comparison_direction").(stablehlo.EnumAttr)
	if !ok {
		return "", "", fmt.Errorf("missing comparison_direction")
	}
	switch d.Value {
	case "EQ", "NE", "GE", "GT", "LE", "LT":
	default:
		return "", "", fmt.Errorf("invalid comparison direction %q", d.Value)
	}
	ct, err = compareType(op, x.elem)
	return d.Value, ct, err
}

func compareType(op *stablehlo.Op, k elemKind) (string, error) {
	ct, ok := op.Attr("compare_type").(stablehlo.EnumAttr)
	if !ok || ct.Value == "NOTYPE" {
		return defaultCompareType(k), nil
	}
	switch {
	case ct.Value == "TOTALORDER" && k.isFloat(),
		ct.Value == "FLOAT" && (k.isFloat() || k.isComplex()),
		ct.Value == "SIGNED" && k.isInt(),
		ct.Value == "UNSIGNED" && !k.isFloat() && !k.isComplex():
		return ct.Value, nil
	}
	return "", fmt.Errorf("comparison type %s is not valid for %s", ct.Value, k.mlir())
}

func defaultCompareType(k elemKind) string {
	switch {
	case k.isFloat() || k.isComplex():
		return "FLOAT"
	case k == kBool || k.isUnsigned():
		return "UNSIGNED"
	}
	return "SIGNED"
}

func intArray(a stablehlo.Attr) ([]int64, bool) {
	switch a := a.(type) {
	case stablehlo.DenseArray:
		if a.Floats != nil {
			return nil, false
		}
		return append([]int64{}, a.Ints...), true
	case *stablehlo.DenseElements:
		v, err := a.Int64s()
		if err != nil || a.Type.Rank() > 1 {
			return nil, false
		}
		return v, true
	case stablehlo.ArrayAttr:
		var out []int64
		for _, e := range a {
			i, ok := e.(stablehlo.IntAttr)
			if !ok {
				return nil, false
			}
			out = append(out, i.Value)
		}
		return out, true
	}
	return nil, false
}

func isPerm(perm []int64, rank int) bool {
	if len(perm) != rank {
		return false
	}
	seen := make([]bool, rank)
	for _, d := range perm {
		if d < 0 || int(d) >= rank || seen[d] {
			return false
		}
		seen[d] = true
	}
	return true
}

// keepsOrder reports whether the operand dimensions of size > 1 map to
// increasing result dimensions (then the element order is unchanged).
func keepsOrder(dims, shape []int64) bool {
	last := int64(-1)
	for i, d := range dims {
		if shape[i] == 1 {
			continue
		}
		if d < last {
			return false
		}
		last = d
	}
	return true
}

// view makes r a view of x's bytes (reshape).
func (p *planner) view(n *node, x *tval, r ttype) []*tval {
	return []*tval{{t: r, def: n, arg: -1, view: x}}
}

// transpose appends a transpose of x by perm (or returns a view when perm
// only moves dimensions of size 1).
func (p *planner) transpose(n *node, x *tval, perm []int64) *tval {
	shape := make([]int64, len(perm))
	for i, d := range perm {
		shape[i] = x.t.shape[d]
	}
	r := ttype{elem: x.t.elem, shape: shape}
	// The element order is unchanged when the dimensions of size > 1 keep
	// their relative order.
	last := int64(-1)
	same := true
	for _, d := range perm {
		if x.t.shape[d] == 1 {
			continue
		}
		if d < last {
			same = false
			break
		}
		last = d
	}
	if same {
		return p.view(n, x, r)[0]
	}
	if n == nil {
		n = &node{name: "stablehlo.transpose", in: []*tval{x}}
	}
	n.kind, n.dims, n.in = kTranspose, perm, []*tval{x}
	return p.add(n, r)[0]
}

// smallConst is the size up to which a splat constant is stored expanded
// in the object; larger splats are filled at run time.
const smallConst = 256

func (p *planner) constant(n *node, d *stablehlo.DenseElements, r ttype) ([]*tval, error) {
	t, err := tensorType(d.Type)
	if err != nil {
		return nil, err
	}
	if !t.equal(r) {
		return nil, fmt.Errorf("value type %s differs from result type %s", t, r)
	}
	if !d.HasBytes() && r.numElems() > 0 {
		return nil, unsupportedf("constant value %s", d.Literal())
	}
	// A splat stays one element until it is small: a splat of 10¹²
	// elements must not become 10¹² copies in the worker.
	if one := d.SplatBytes(); one != nil && r.bytes() > smallConst {
		n.kind, n.data = kFill, one[:r.elem.size()]
		return p.add(n, r), nil
	}
	raw := d.Bytes()
	if raw == nil && r.numElems() > 0 {
		return nil, unsupportedf("constant value %s", d.Literal())
	}
	n.kind, n.data = kConstant, raw
	return p.add(n, r), nil
}

// constVal appends a constant node for an attribute (check.*_const).
func (p *planner) constVal(fn string, d *stablehlo.DenseElements) (*tval, error) {
	t, err := tensorType(d.Type)
	if err != nil {
		return nil, err
	}
	outs, err := p.constant(&node{name: "stablehlo.constant", fn: fn}, d, t)
	if err != nil {
		return nil, err
	}
	return outs[0], nil
}

func (p *planner) dot(n *node, op *stablehlo.Op, short string, ins []*tval, r ttype) ([]*tval, error) {
	lhs, rhs := ins[0], ins[1]
	lt, rt := lhs.t, rhs.t
	var dd stablehlo.DotDims
	if short == "dot" {
		if lt.rank() < 1 || lt.rank() > 2 || rt.rank() < 1 || rt.rank() > 2 {
			return nil, fmt.Errorf("operands %s and %s must have rank 1 or 2", lt, rt)
		}
		dd.LhsContractingDims = []int64{int64(lt.rank() - 1)}
		dd.RhsContractingDims = []int64{0}
	} else {
		var ok bool
		dd, ok = op.Attr("dot_dimension_numbers").(stablehlo.DotDims)
		if !ok {
			return nil, fmt.Errorf("missing dot_dimension_numbers")
		}
	}
	if !widensTo(lt.elem, r.elem) || !widensTo(rt.elem, r.elem) {
		return nil, unsupportedf("dot of %s and %s into %s (mixed element types)", lt.elem.mlir(), rt.elem.mlir(), r.elem.mlir())
	}
	// Mixed precision (i8 × i8 → i32, f32 × f32 → f64, real × complex):
	// the operands are converted exactly to the result type first.
	lhs, rhs = p.widen(n, lhs, r.elem), p.widen(n, rhs, r.elem)
	if r.elem == kF32 {
		// An f32 dot of bf16 values (a bf16 weight converted to f32, or
		// dot(bf16, bf16) -> f32) reads the bf16 values (dot.go).
		lhs, rhs = p.bf16Source(lhs), p.bf16Source(rhs)
	}
	lt, rt = lhs.t, rhs.t
	lb, rb, lc, rc := dd.LhsBatchingDims, dd.RhsBatchingDims, dd.LhsContractingDims, dd.RhsContractingDims
	if len(lb) != len(rb) || len(lc) != len(rc) {
		return nil, fmt.Errorf("batching or contracting dimensions differ in number")
	}
	if !distinctIn(slices.Concat(lb, lc), lt.rank()) || !distinctIn(slices.Concat(rb, rc), rt.rank()) {
		return nil, fmt.Errorf("invalid dimension numbers %s for %s and %s", dd, lt, rt)
	}
	B, K := int64(1), int64(1)
	var shape []int64
	for i := range lb {
		if lt.shape[lb[i]] != rt.shape[rb[i]] {
			return nil, fmt.Errorf("batch dimension sizes differ")
		}
		B *= lt.shape[lb[i]]
		shape = append(shape, lt.shape[lb[i]])
	}
	for i := range lc {
		if lt.shape[lc[i]] != rt.shape[rc[i]] {
			return nil, fmt.Errorf("contracting dimension sizes differ")
		}
		K *= lt.shape[lc[i]]
	}
	lfree := complement(lt.rank(), lb, lc)
	rfree := complement(rt.rank(), rb, rc)
	M, N := int64(1), int64(1)
	for _, d := range lfree {
		M *= lt.shape[d]
		shape = append(shape, lt.shape[d])
	}
	for _, d := range rfree {
		N *= rt.shape[d]
		shape = append(shape, rt.shape[d])
	}
	if !slices.Equal(shape, r.shape) {
		return nil, fmt.Errorf("result %s, want shape %v", r, shape)
	}
	// The operands as they are for the GEMM where their layout allows,
	// else transposed to lhs [batch, free, contracting], rhs [batch,
	// contracting, free] (dot.go).
	l, rr := p.dotOperands(n, r.elem, lhs, rhs, lb, lc, lfree, rb, rc, rfree)
	n.kind, n.in = kDot, []*tval{l, rr}
	n.b, n.m, n.k, n.n = B, M, K, N
	return p.add(n, r), nil
}

func distinctIn(dims []int64, rank int) bool {
	seen := make([]bool, rank)
	for _, d := range dims {
		if d < 0 || int(d) >= rank || seen[d] {
			return false
		}
		seen[d] = true
	}
	return true
}

// complement returns the dimensions of [0, rank) in none of the lists,
// ascending.
func complement(rank int, lists ...[]int64) []int64 {
	var out []int64
	for d := range rank {
		found := false
		for _, l := range lists {
			if slices.Contains(l, int64(d)) {
				found = true
			}
		}
		if !found {
			out = append(out, int64(d))
		}
	}
	return out
}

func (p *planner) reduce(n *node, op *stablehlo.Op, ins []*tval, outs []ttype) ([]*tval, error) {
	if len(ins) < 2 || len(ins)%2 != 0 || len(outs) != len(ins)/2 {
		return nil, fmt.Errorf("has %d operands and %d results, want 2N and N", len(ins), len(outs))
	}
	k := len(outs)
	dims, ok := intArray(op.Attr("dimensions"))
	if !ok {
		return nil, fmt.Errorf("missing dimensions")
	}
	x0 := ins[0].t
	if !distinctIn(dims, x0.rank()) {
		return nil, fmt.Errorf("dimensions %v out of range for %s", dims, x0)
	}
	var kept []int64
	for d := range x0.rank() {
		if !slices.Contains(dims, int64(d)) {
			kept = append(kept, x0.shape[d])
		}
	}
	for i := range k {
		x, init, r := ins[i].t, ins[k+i].t, outs[i]
		if !slices.Equal(x.shape, x0.shape) {
			return nil, fmt.Errorf("input #%d has type %s, want the shape of %s", i, x, x0)
		}
		if init.rank() != 0 || init.elem != x.elem || r.elem != x.elem || !slices.Equal(r.shape, kept) {
			return nil, fmt.Errorf("input %s, init %s and result %s do not fit", x, init, r)
		}
	}
	body, err := foldRegion(op, ins[:k])
	if err != nil {
		return nil, inContext("reduce body", err)
	}
	n.kind, n.dims, n.body = kReduce, dims, body
	return p.add(n, outs...), nil
}

// checkScalarBlock checks that a region body computes on scalars with ops
// the scalar emitter handles, taking arguments of kinds args and returning
// kinds res.
func checkScalarBlock(blk *stablehlo.Block, args, res []elemKind) error {
	if len(blk.Args) != len(args) {
		return fmt.Errorf("block has %d arguments, want %d", len(blk.Args), len(args))
	}
	kinds := map[*stablehlo.Value]elemKind{}
	scalar := func(t stablehlo.Type) (elemKind, error) {
		tt, err := tensorType(t)
		if err != nil {
			return 0, err
		}
		if tt.rank() != 0 {
			return 0, unsupportedf("non-scalar %s in a region", tt)
		}
		return tt.elem, nil
	}
	for i, a := range blk.Args {
		k, err := scalar(a.Type)
		if err != nil {
			return err
		}
		if k != args[i] {
			return fmt.Errorf("block argument #%d has element type %s, want %s", i, k.mlir(), args[i].mlir())
		}
		kinds[a] = k
	}
	for _, op := range blk.Ops {
		var in []elemKind
		for _, o := range op.Operands {
			k, ok := kinds[o]
			if !ok {
				return unsupportedf("value defined outside the region used in %s", op.Name)
			}
			in = append(in, k)
		}
		if op.Name == "stablehlo.return" {
			if len(in) != len(res) {
				return fmt.Errorf("returns %d values, want %d", len(in), len(res))
			}
			for i := range in {
				if in[i] != res[i] {
					return fmt.Errorf("result #%d has element type %s, want %s", i, in[i].mlir(), res[i].mlir())
				}
			}
			return nil
		}
		if len(op.Results) != 1 || len(op.Regions) > 0 {
			return unsupportedf("%s in a region", op.Name)
		}
		out, err := scalar(op.Results[0].Type)
		if err != nil {
			return inContext(op.Name+opLoc(op), err)
		}
		if err := checkScalarOp(op, in, out); err != nil {
			return inContext(op.Name+opLoc(op), err)
		}
		kinds[op.Results[0]] = out
	}
	return fmt.Errorf("block does not end with stablehlo.return")
}

// checkScalarOp checks one op of a region body.
func checkScalarOp(op *stablehlo.Op, in []elemKind, out elemKind) error {
	short, _ := strings.CutPrefix(op.Name, "stablehlo.")
	bad := func() error { return fmt.Errorf("operand and result element types do not fit") }
	switch {
	case unaryOps[short]:
		want := unaryResultKind(short, in[0])
		if len(in) != 1 || out != want {
			return bad()
		}
		if !elemOK(short, in[0]) {
			return fmt.Errorf("element type %s is not allowed", in[0].mlir())
		}
		return nil
	case binaryOps[short]:
		if len(in) != 2 || in[0] != in[1] || out != binaryResultKind(short, in[0]) {
			return bad()
		}
		if !elemOK(short, in[0]) {
			return fmt.Errorf("element type %s is not allowed", in[0].mlir())
		}
		return nil
	}
	switch short {
	case "compare":
		if len(in) != 2 || in[0] != in[1] || out != kBool {
			return bad()
		}
		dir, ok := op.Attr("comparison_direction").(stablehlo.EnumAttr)
		if !ok {
			return fmt.Errorf("missing comparison_direction")
		}
		switch dir.Value {
		case "EQ", "NE", "GE", "GT", "LE", "LT":
		default:
			return fmt.Errorf("invalid comparison direction %q", dir.Value)
		}
		_, err := compareType(op, in[0])
		return err
	case "select":
		if len(in) != 3 || in[0] != kBool || in[1] != in[2] || out != in[1] {
			return bad()
		}
		return nil
	case "clamp":
		if len(in) != 3 || in[0] != in[1] || in[2] != in[1] || out != in[1] {
			return bad()
		}
		return nil
	case "convert":
		if len(in) != 1 {
			return bad()
		}
		return convertOK(in[0], out)
	case "reshape", "broadcast_in_dim", "optimization_barrier":
		if len(in) != 1 || in[0] != out {
			return bad()
		}
		return nil
	case "bitcast_convert":
		// On scalars only the same width can fit (the spec adds or
		// drops a dimension otherwise).
		if len(in) != 1 || in[0].size() != out.size() || in[0].valueBits() != out.valueBits() || isComplexKind(in[0]) != isComplexKind(out) {
			return bad()
		}
		if (in[0] == kBool) != (out == kBool) {
			return unsupportedf("bitcast_convert between i1 and %s", map[bool]string{true: in[0].mlir(), false: out.mlir()}[out == kBool])
		}
		return nil
	case "constant":
		d, ok := op.Attr("value").(*stablehlo.DenseElements)
		if !ok || len(in) != 0 {
			return unsupportedf("constant value %v", op.Attr("value"))
		}
		if !d.HasBytes() {
			return unsupportedf("constant value %s", d.Literal())
		}
		return nil
	}
	return extCheckScalar(op, in, out)
}

func (p *planner) checkOp(n *node, op *stablehlo.Op, ins []*tval) ([]*tval, error) {
	c := checkPlan{label: op.Name}
	name := op.Name
	if name == "stablehlo.custom_call" {
		target, _ := op.Attr("call_target_name").(stablehlo.StringAttr)
		name = string(target)
		c.label = "custom_call @" + name
		switch name {
		case "check.expect_eq":
			c.mode = checkExact
		case "check.expect_almost_eq":
			c.mode, c.tol = checkAlmost, 1e-3
		case "check.expect_close":
			c.mode, c.minULP, c.maxULP = checkClose, 0, 3
		case "check.eq":
			c.mode, c.tol, c.expFirst, c.result = checkAlmost, 1e-4, true, true
		default:
			return nil, unsupportedf("stablehlo.custom_call @%s", name)
		}
	} else {
		switch strings.TrimSuffix(name, "_const") {
		case "check.expect_eq":
			c.mode = checkExact
		case "check.expect_almost_eq":
			c.mode, c.tol = checkAlmost, 1e-4
			if a := op.Attr("tolerance"); a != nil {
				f, ok := a.(stablehlo.FloatAttr)
				if !ok {
					return nil, fmt.Errorf("tolerance is %s, want a float", a)
				}
				c.tol = f.Value
			}
		case "check.expect_close":
			c.mode, c.minULP, c.maxULP = checkClose, 0, 1
			for _, k := range []struct {
				name string
				dst  *int64
			}{{"max_ulp_difference", &c.maxULP}, {"min_ulp_difference", &c.minULP}} {
				if a := op.Attr(k.name); a != nil {
					i, ok := a.(stablehlo.IntAttr)
					if !ok {
						return nil, fmt.Errorf("%s is %s, want an integer", k.name, a)
					}
					*k.dst = i.Value
				}
			}
		default:
			return nil, unsupportedf("%s", name)
		}
	}
	if strings.HasSuffix(name, "_const") {
		d, ok := op.Attr("value").(*stablehlo.DenseElements)
		if !ok {
			return nil, fmt.Errorf("missing value")
		}
		if len(ins) != 1 {
			return nil, fmt.Errorf("has %d operands, want 1", len(ins))
		}
		ev, err := p.constVal(n.fn, d)
		if err != nil {
			return nil, err
		}
		ins = []*tval{ins[0], ev}
	}
	if len(ins) != 2 {
		return nil, fmt.Errorf("has %d operands, want 2", len(ins))
	}
	if !ins[0].t.equal(ins[1].t) {
		return nil, fmt.Errorf("compares %s with %s", ins[0].t, ins[1].t)
	}
	if c.expFirst {
		ins = []*tval{ins[1], ins[0]}
	}
	if c.mode == checkAlmost && (math.IsNaN(c.tol) || c.tol < 0) {
		return nil, fmt.Errorf("invalid tolerance %g", c.tol)
	}
	n.kind, n.in, n.check = kCheck, ins, c
	p.prog.checks++
	var outs []ttype
	if c.result {
		if len(op.Results) != 1 {
			return nil, fmt.Errorf("want one i1 result")
		}
		t, err := tensorType(op.Results[0].Type)
		if err != nil {
			return nil, err
		}
		if t.elem != kBool || t.numElems() != 1 {
			return nil, fmt.Errorf("result type %s, want tensor<i1>", t)
		}
		outs = append(outs, t)
	} else if len(op.Results) != 0 {
		return nil, fmt.Errorf("has %d results, want none", len(op.Results))
	}
	return p.add(n, outs...), nil
}

// Handles reports whether the code generator compiles the op with this
// full name ("stablehlo.add") on at least one of its element types. `stela
// ops` shows it as the CPU plugin column. stablehlo.custom_call counts only
// for the check.* targets.
func Handles(name string) bool {
	short, ok := strings.CutPrefix(name, "stablehlo.")
	return ok && knownOp(short)
}

// CompilesOn reports whether the code generator compiles the op of that
// full name on element type e (one the spec allows for it, by the op
// table), or why not. It goes by the op table's kernel, the element
// kinds the code generator has, and for the elementwise ops their
// per-type rules (elemOK); `stela ops` lists it per op and type.
func CompilesOn(name string, e stablehlo.ElementType) (bool, string) {
	d, ok := stablehlo.LookupOp(name)
	switch {
	case !ok:
		return false, "not in the op table"
	case d.Kernel == stablehlo.NoKernel:
		return false, d.Refused
	case e.IsQuantized() && (d.Name == "stablehlo.tuple" || d.Name == "stablehlo.get_tuple_element"):
		return false, "quantized tuple elements are not supported yet"
	case e.IsQuantized():
		// Module.LowerQuant: stored as integers, computed as the spec's
		// dequantize–compute–quantize.
		return true, ""
	case d.Kernel == stablehlo.KernelRefined && d.Name == "stablehlo.dynamic_conv":
		d, _ = stablehlo.LookupOp("stablehlo.convolution")
	}
	k, ok := elemOf(e)
	if !ok {
		return false, "element type not supported by the code generator yet"
	}
	short := d.Short()
	switch d.Kernel {
	case stablehlo.KernelUnary, stablehlo.KernelBinary:
		if !elemOK(short, k) {
			return false, "not implemented on this element type"
		}
	case stablehlo.KernelChlo:
		if t := chloBroadcast[short]; (t == "" && short != "top_k" || t != "" && !binaryOps[t] && t != "select" && t != "compare") && narrowChloRefused(k) {
			return false, "the chlo math functions are not implemented on the sub-byte integer types"
		}
		if t := chloBroadcast[short]; t != "" && binaryOps[t] && !elemOK(t, k) {
			return false, "not implemented on this element type"
		}
		if chloUnary[short] != "" && !chloComplexOps[short] && k.isComplex() {
			return false, "not implemented on this element type"
		}
	case stablehlo.KernelExt:
		if short == "fft" && k.isHalf() {
			return false, "not implemented on this element type"
		}
	}
	return true, ""
}
