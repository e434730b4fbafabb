package jit

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/stela-ml/stela/frontend/sharding"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/frontend/tree"
	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes"
	"github.com/stela-ml/stela/runtime"
)

// Option configures Compile.
type Option func(*compileConfig)

type compileConfig struct {
	pipeline []*passes.Pass
	name     string
	maxSigs  int
	donate   []int // Donate's parameter indices (donate.go)
	// in and out are InShardings' and OutShardings' (sharding.go).
	in, out []sharding.Sharding
	buckets []bucketing // Buckets (buckets.go)
}

// WithPipeline replaces the pass pipeline (passes.Default) run on every
// traced function before it is compiled; see passes.ParsePipeline.
func WithPipeline(p []*passes.Pass) Option {
	return func(c *compileConfig) { c.pipeline = p }
}

// WithName names the traced function. The default is fn's Go name, and
// for a function literal the name of the function that contains it and
// the compiler's counter ("main_closure1" for the first literal in main).
func WithName(name string) Option { return func(c *compileConfig) { c.name = name } }

// WithMaxSignatures bounds how many compiled signatures the function
// keeps (default 64); the least recently used goes first.
func WithMaxSignatures(n int) Option { return func(c *compileConfig) { c.maxSigs = max(n, 1) } }

// LogOutput is where STELA_LOG=recompile writes; nil means os.Stderr.
var LogOutput io.Writer

// Stats counts jit-compiled calls over all compiled functions.
type Stats struct {
	Hits     int64 // calls that found a compiled program for their signature
	Misses   int64 // calls that traced and compiled
	Entries  int64 // signatures currently cached
	Inlined  int64 // calls inside another trace, which were traced into it
	Failures int64 // calls whose trace or compile failed
	// Copies counts tensors copied to the device a compiled function runs
	// on: a captured tensor once per compiled signature, an uncommitted
	// argument on another device at every call (see Compile).
	Copies int64
}

var jitStats struct{ hits, misses, entries, inlined, failures, copies atomic.Int64 }

// newCompiledFunc makes the state of a compiled function. When it is
// collected, its entries leave the statistics (the cleanup holds the
// counter, not c).
func newCompiledFunc(fv reflect.Value, cfg compileConfig) *compiledFunc {
	c := &compiledFunc{fv: fv, ft: fv.Type(), cfg: cfg, entries: map[string]*entry{}, live: new(atomic.Int64)}
	goruntime.AddCleanup(c, func(live *atomic.Int64) { jitStats.entries.Add(-live.Swap(0)) }, c.live)
	return c
}

// CacheStats returns the counters since the process started.
func CacheStats() Stats {
	return Stats{
		Hits: jitStats.hits.Load(), Misses: jitStats.misses.Load(), Entries: jitStats.entries.Load(),
		Inlined: jitStats.inlined.Load(), Failures: jitStats.failures.Load(), Copies: jitStats.copies.Load(),
	}
}

// Compile returns a function of fn's type that runs fn compiled. The
// first call with a new signature traces fn on symbolic tensors, runs the
// pass pipeline, compiles the result for the device it runs on and caches
// it; later calls with the same signature only run it.
//
// Where it runs follows tensor.Placement over the tensor arguments and the
// tensors fn closes over: on the device of the committed ones (those put
// there with To), else where all of them are, else on the default device.
// Uncommitted tensors elsewhere are copied there: a closed-over tensor
// once, when the signature is compiled (the copy stays with the cached
// program), an argument on every call. Committed tensors on two devices
// are an error naming both. The results are committed when a committed
// tensor decided the device.
//
// fn's parameters are *tensor.Tensor and []*tensor.Tensor (traced), or
// any other type (static: its value is fixed at trace time and is part of
// the signature, compared by its %#v formatting). Its results are
// *tensor.Tensor and []*tensor.Tensor, optionally followed by an error.
// The signature is each tensor's element type, shape, device and
// commitment (and whether it is a weak scalar, see tensor.Scalar), each
// slice's length and each static value.
//
// Concrete tensors that fn closes over become parameters of the compiled
// program, never constants; a cached program keeps using the tensors it
// captured when it was traced (as JAX does), so rebinding a captured
// variable needs a new Compile. Freeing a captured tensor (Free) makes
// later calls of that signature fail, as using any freed tensor does.
//
// Failures (a bad op in fn, a compile error) come back as the error result
// when fn has one, else as a panic with a located *ir.Error, as eager ops
// do. Device errors surface when the results are read. A call whose
// arguments are themselves traced (Compile used inside a traced function)
// traces fn into the enclosing trace.
//
// STELA_LOG=recompile explains every recompile: which part of the
// signature differed from the nearest cached one, and the Go call site.
// STELA_DUMP=DIR writes per compile the IR before and after the passes
// and the StableHLO given to the plugin.
func Compile[F any](fn F, opts ...Option) F {
	fv := reflect.ValueOf(fn)
	if !fv.IsValid() || fv.Kind() != reflect.Func || fv.IsNil() {
		panic(fmt.Sprintf("jit.Compile: fn is %T, want a func", fn))
	}
	cfg := compileConfig{pipeline: passes.Default, name: funcName(fv), maxSigs: 64}
	for _, o := range opts {
		o(&cfg)
	}
	c := newCompiledFunc(fv, cfg)
	if err := c.checkType(); err != nil {
		panic(fmt.Sprintf("jit.Compile %s: %v", cfg.name, err))
	}
	if err := c.checkDonate(); err != nil {
		panic(fmt.Sprintf("jit.Compile %s: %v", cfg.name, err))
	}
	if err := c.checkBuckets(); err != nil {
		panic(fmt.Sprintf("jit.Compile %s: %v", cfg.name, err))
	}
	return reflect.MakeFunc(c.ft, c.call).Interface().(F)
}

type compiledFunc struct {
	fv  reflect.Value
	ft  reflect.Type
	cfg compileConfig

	mu      sync.Mutex
	entries map[string]*entry
	lru     []*entry // least recently used first
	seq     int      // compiles so far, for dump file names
	// live counts the entries this function adds to jitStats.entries,
	// which a cleanup takes back when the function is collected.
	live *atomic.Int64
}

// entry is one compiled signature.
type entry struct {
	key       string
	parts     []sigPart
	dev       tensor.Device
	committed bool               // results are committed to dev
	fn        *ir.Func           // after the passes
	exe       runtime.Executable // nil for devices that only Run
	captured  []*tensor.Tensor   // as fn closed over them
	// copies holds, per captured tensor, its copy on dev, or nil where it
	// is on dev itself: copied once, when the signature was compiled.
	copies []*tensor.Tensor
	layout []resultLayout // per result of fn, error last
	// traced is the function as traced, before the passes, kept under
	// STELA_DEBUG=nans to run it again op by op when a result has a NaN.
	traced *ir.Func
	// donate is, per tensor argument, whether the call gives its buffer
	// to exe (Donate); nil when none is donated or dev cannot donate.
	donate []bool
}

// resultLayout says how a result of fn is made of the flat results of
// the program: one tensor, a slice of n, or a tree shaped like template
// (its leaves are n flat results).
type resultLayout struct {
	kind     int // layoutTensor, layoutSlice or layoutTree
	n        int
	template any
}

const (
	layoutTensor = iota
	layoutSlice
	layoutTree
)

// sigPart is one element of a signature, for explaining recompiles.
type sigPart struct {
	what, value string
}

func (c *compiledFunc) checkType() error {
	for i := range c.ft.NumOut() {
		switch out := c.ft.Out(i); {
		case out == tensorType || out == sliceType:
		case out == errorType && i == c.ft.NumOut()-1:
		case out.Kind() != reflect.Interface && tree.Contains(out):
		default:
			return fmt.Errorf("result #%d is %v, want *tensor.Tensor, []*tensor.Tensor or a parameter tree of them (then an optional error)", i, out)
		}
	}
	for i := range c.ft.NumIn() {
		switch k := c.ft.In(i).Kind(); k {
		case reflect.Func, reflect.Chan, reflect.UnsafePointer:
			return fmt.Errorf("parameter #%d is %v: static parameters must be values", i, c.ft.In(i))
		}
	}
	return nil
}

func (c *compiledFunc) hasErr() bool {
	n := c.ft.NumOut()
	return n > 0 && c.ft.Out(n-1) == errorType
}

// call is the compiled function's body.
func (c *compiledFunc) call(in []reflect.Value) []reflect.Value {
	outs, err := c.callErr(in)
	if err != nil {
		jitStats.failures.Add(1)
		err = c.located(err)
		if !c.hasErr() {
			panic(err)
		}
		res := make([]reflect.Value, c.ft.NumOut())
		for i := range res {
			res[i] = reflect.Zero(c.ft.Out(i))
		}
		res[len(res)-1] = reflect.ValueOf(&err).Elem()
		return res
	}
	return outs
}

// isTree reports whether a parameter of type t is a parameter tree whose
// tensors jit traces (a struct, pointer, map, array or interface that can
// hold tensors), rather than a static value. *Tensor and []*Tensor are
// handled apart.
func isTree(t reflect.Type) bool {
	return t != tensorType && t != sliceType && tree.Contains(t)
}

// unflattenValue rebuilds the tree v holds with leaves, as a value of v's
// type.
func unflattenValue(v reflect.Value, leaves []*tensor.Tensor) (reflect.Value, error) {
	return unflattenTo(v.Type(), v.Interface(), leaves)
}

// unflattenTo rebuilds the tree like with leaves, as a value of type t
// (the zero value for a nil tree).
func unflattenTo(t reflect.Type, like any, leaves []*tensor.Tensor) (reflect.Value, error) {
	out, err := tree.Unflatten[any](like, leaves)
	if err != nil {
		return reflect.Value{}, err
	}
	w := reflect.New(t).Elem()
	if out != nil {
		w.Set(reflect.ValueOf(out))
	}
	return w, nil
}

// userError is an error fn returned itself: the call returns it as it is.
type userError struct{ err error }

func (e userError) Error() string { return e.err.Error() }

// located is the error a failed call reports: a located error from an op
// in fn (or from the lowering) as it is, at its own line; anything else
// (a signature, placement, pass or compile failure) located at the call,
// prefixed once with "jit @name".
func (c *compiledFunc) located(err error) error {
	switch e := err.(type) {
	case *ir.Error, ir.ErrorList:
		return err
	case userError:
		return e.err
	}
	return ir.Errorf(ir.CallerLoc(), "jit @"+c.cfg.name, "%w", err)
}

// callArgs are a call's arguments, flattened.
type callArgs struct {
	tensors []*tensor.Tensor
	names   []string // per tensor: "argument #0", "argument #1[2]"
	parts   []sigPart
	traced  bool
}

// args flattens the call's arguments: the tensors in order, their names,
// and the signature.
func (c *compiledFunc) args(in []reflect.Value) (a callArgs, err error) {
	add := func(what string, t *tensor.Tensor) error {
		if t == nil {
			return fmt.Errorf("%s is nil", what)
		}
		if t.Traced() {
			a.traced = true
		}
		a.tensors = append(a.tensors, t)
		a.names = append(a.names, what)
		a.parts = append(a.parts, sigPart{what, tensorSig(t)})
		return nil
	}
	for i, v := range in {
		what := fmt.Sprintf("argument #%d", i)
		switch {
		case v.Type() == tensorType:
			if err := add(what, v.Interface().(*tensor.Tensor)); err != nil {
				return callArgs{}, err
			}
		case v.Type() == sliceType:
			s := v.Interface().([]*tensor.Tensor)
			a.parts = append(a.parts, sigPart{what, fmt.Sprintf("%d tensors", len(s))})
			for j, t := range s {
				if err := add(fmt.Sprintf("%s[%d]", what, j), t); err != nil {
					return callArgs{}, err
				}
			}
		case isTree(v.Type()):
			st, err := tree.Structure(v.Interface())
			if err != nil {
				return callArgs{}, fmt.Errorf("%s: %v", what, err)
			}
			leaves, err := tree.FlattenWithPaths(v.Interface())
			if err != nil {
				return callArgs{}, fmt.Errorf("%s: %v", what, err)
			}
			a.parts = append(a.parts, sigPart{what, "tree " + st})
			for _, l := range leaves {
				if err := add(what+" "+l.Path, l.Tensor); err != nil {
					return callArgs{}, err
				}
			}
		default:
			a.parts = append(a.parts, sigPart{what, fmt.Sprintf("static %T %#v", v.Interface(), v.Interface())})
		}
	}
	return a, nil
}

// tensorSig is a tensor argument's part of the signature: its type, weak
// or not, and where it is, committed or not ("f32[2,3] on cpu:0",
// "f64[] weak on cpu:0", "f32[2,3] committed to cpu:1").
func tensorSig(t *tensor.Tensor) string {
	weak, where := "", "on"
	if t.Weak() {
		weak = " weak"
	}
	if t.Committed() {
		where = "committed to"
	}
	if sh := t.Sharding(); sh != nil {
		return fmt.Sprintf("%v%s %s %s sharded %v", t.Type(), weak, where, t.Device(), sh)
	}
	return fmt.Sprintf("%v%s %s %s", t.Type(), weak, where, t.Device())
}

func sigKey(parts []sigPart) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.value)
		b.WriteByte(0)
	}
	return b.String()
}

func (c *compiledFunc) callErr(in []reflect.Value) ([]reflect.Value, error) {
	in, err := c.bucket(in) // buckets.go
	if err != nil {
		return nil, err
	}
	a, err := c.args(in)
	if err != nil {
		return nil, err
	}
	if a.traced {
		// Inside another trace: trace fn into it, as a plain call would.
		jitStats.inlined.Add(1)
		var outs []reflect.Value
		if err := tensor.Catch(func() { outs = c.invoke(in) }); err != nil {
			return nil, err
		}
		return outs, nil
	}
	key := sigKey(a.parts)
	c.mu.Lock()
	e := c.entries[key]
	if e != nil {
		jitStats.hits.Add(1)
		c.touch(e)
		c.mu.Unlock()
	} else {
		defer c.mu.Unlock()
		jitStats.misses.Add(1)
		if env.Log().Recompile {
			c.explain(a.parts)
		}
		if e, err = c.build(in, a, key); err != nil {
			return nil, err
		}
	}
	return e.run(c, a)
}

// invoke calls fn with in, as its type requires.
func (c *compiledFunc) invoke(in []reflect.Value) []reflect.Value {
	if c.ft.IsVariadic() {
		return c.fv.CallSlice(in)
	}
	return c.fv.Call(in)
}

// build traces, optimizes and compiles fn for one signature.
func (c *compiledFunc) build(in []reflect.Value, a callArgs, key string) (*entry, error) {
	tensors := a.tensors
	name := c.cfg.name
	tr := tensor.NewTracer(name)
	defer func() {
		if !tr.Done() {
			tr.Discard()
		}
	}()
	loc := declLoc(c.fv)
	sym := make([]reflect.Value, len(in))
	k := 0
	for i, v := range in {
		switch {
		case v.Type() == tensorType:
			sym[i] = reflect.ValueOf(tr.ParamLike(tensors[k], loc))
			k++
		case v.Type() == sliceType:
			n := v.Len()
			s := make([]*tensor.Tensor, n)
			for j := range s {
				s[j] = tr.ParamLike(tensors[k], loc)
				k++
			}
			sym[i] = reflect.ValueOf(s)
		case isTree(v.Type()):
			n, err := tree.Flatten(v.Interface())
			if err != nil {
				return nil, err
			}
			leaves := make([]*tensor.Tensor, len(n))
			for j := range leaves {
				leaves[j] = tr.ParamLike(tensors[k], loc)
				k++
			}
			t, err := unflattenValue(v, leaves)
			if err != nil {
				return nil, err
			}
			sym[i] = t
		default:
			sym[i] = v
		}
	}
	var outs []reflect.Value
	if err := tensor.Catch(func() { outs = c.invoke(sym) }); err != nil {
		return nil, err
	}
	// An error fn returned is the call's result, whatever its other
	// results are: a function that fails returns nil tensors or zero
	// trees beside its error, which are no reason to report another one.
	if c.hasErr() {
		if err, _ := outs[len(outs)-1].Interface().(error); err != nil {
			return nil, userError{err}
		}
	}
	e := &entry{key: key, parts: a.parts}
	var results []*tensor.Tensor
	for i, o := range outs {
		if o.Type() != tensorType && o.Type() != sliceType && o.Type() != errorType {
			leaves, err := tree.Flatten(o.Interface())
			if err != nil {
				return nil, fmt.Errorf("result #%d: %v", i, err)
			}
			results = append(results, leaves...)
			e.layout = append(e.layout, resultLayout{kind: layoutTree, n: len(leaves), template: o.Interface()})
			continue
		}
		switch v := o.Interface().(type) {
		case *tensor.Tensor:
			if v == nil {
				return nil, fmt.Errorf("result #%d is nil", i)
			}
			results = append(results, v)
			e.layout = append(e.layout, resultLayout{kind: layoutTensor, n: 1})
		case []*tensor.Tensor:
			for j, t := range v {
				if t == nil {
					return nil, fmt.Errorf("result #%d[%d] is nil", i, j)
				}
			}
			results = append(results, v...)
			e.layout = append(e.layout, resultLayout{kind: layoutSlice, n: len(v)})
		case error:
			if v != nil {
				return nil, userError{v}
			}
		case nil:
			if o.Type() == tensorType {
				return nil, fmt.Errorf("result #%d is nil", i)
			}
			if o.Type() == sliceType {
				e.layout = append(e.layout, resultLayout{kind: layoutSlice})
			}
		}
	}
	f, captured, err := tr.Finish(results...)
	if err != nil {
		return nil, err
	}
	mesh, err := sharding.PrepareJit(f, append(slices.Clone(a.tensors), captured...), c.cfg.in, c.cfg.out)
	if err != nil {
		return nil, err
	}
	if err := e.place(a, captured, mesh); err != nil {
		return nil, err
	}
	c.seq++
	dump := os.Getenv("STELA_DUMP")
	if dump != "" {
		c.dump(dump, "before.sir", stableText(f))
	}
	if env.Debug().NaNs {
		e.traced = ir.CloneFunc(f)
	}
	m := &ir.Module{Funcs: []*ir.Func{f}}
	if _, err := passes.Run(m, c.cfg.pipeline, passes.Options{}); err != nil {
		return nil, err
	}
	e.fn = m.Funcs[0]
	if dump != "" {
		c.dump(dump, "after.sir", stableText(e.fn))
		if text, err := runtime.StableHLOLocated(e.fn); err == nil {
			c.dump(dump, "mlir", text)
		}
	}
	if e.exe, err = c.compileEntry(e, in); err != nil { // donate.go
		return nil, err
	}
	c.entries[key] = e
	c.lru = append(c.lru, e)
	jitStats.entries.Add(1)
	c.live.Add(1)
	for len(c.lru) > c.cfg.maxSigs {
		old := c.lru[0]
		c.lru = c.lru[1:]
		delete(c.entries, old.key)
		jitStats.entries.Add(-1)
		c.live.Add(-1)
	}
	return e, nil
}

func (c *compiledFunc) touch(e *entry) {
	if i := slices.Index(c.lru, e); i >= 0 && i != len(c.lru)-1 {
		c.lru = append(append(c.lru[:i:i], c.lru[i+1:]...), e)
	}
}

// stableText prints f for STELA_DUMP with its values named by their IDs,
// which the passes keep, so that before.sir and after.sir differ only
// where the passes changed the program.
func stableText(f *ir.Func) string {
	var b strings.Builder
	ir.Print(&b, f, ir.PrintOptions{StableNames: true})
	return b.String()
}

func (c *compiledFunc) dump(dir, suffix, text string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(logOut(), "stela: STELA_DUMP: %v\n", err)
		return
	}
	path := filepath.Join(dir, fmt.Sprintf("%s.%d.%s", c.cfg.name, c.seq, suffix))
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		fmt.Fprintf(logOut(), "stela: STELA_DUMP: %v\n", err)
	}
}

// explain reports why a call recompiles: against the cached signature
// that shares the most parts with it.
func (c *compiledFunc) explain(parts []sigPart) {
	loc := ir.CallerLoc()
	w := logOut()
	if len(c.lru) == 0 {
		fmt.Fprintf(w, "stela: jit @%s: compiling at %v: first call\n", c.cfg.name, loc)
		return
	}
	var best *entry
	bestScore := -1
	for _, e := range c.lru {
		score := 0
		for i := range min(len(e.parts), len(parts)) {
			if e.parts[i] == parts[i] {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = e, score
		}
	}
	var diffs []string
	for i := range max(len(best.parts), len(parts)) {
		switch {
		case i >= len(parts):
			diffs = append(diffs, fmt.Sprintf("%s missing, was %s", best.parts[i].what, best.parts[i].value))
		case i >= len(best.parts):
			diffs = append(diffs, fmt.Sprintf("%s is %s, new", parts[i].what, parts[i].value))
		case parts[i] != best.parts[i]:
			diffs = append(diffs, fmt.Sprintf("%s is %s, was %s", parts[i].what, parts[i].value, best.parts[i].value))
		}
	}
	fmt.Fprintf(w, "stela: jit @%s: recompiling at %v (%d cached signatures): %s\n", c.cfg.name, loc, len(c.lru), strings.Join(diffs, "; "))
}

func logOut() io.Writer {
	if LogOutput != nil {
		return LogOutput
	}
	return os.Stderr
}

// place decides where the entry runs (tensor.Placement over the arguments
// and the captured tensors) and copies the captured tensors that are
// elsewhere.
func (e *entry) place(a callArgs, captured []*tensor.Tensor, mesh *sharding.Mesh) error {
	all := append(slices.Clone(a.tensors), captured...)
	n := len(a.tensors)
	var dev tensor.Device
	var committed bool
	if mesh != nil {
		// A sharded call runs on its mesh: the tensors that are not laid
		// out over it are copied there and laid out as the program wants.
		dev, committed = mesh.Device(), true
	} else {
		var err error
		dev, committed, err = tensor.Placement(all, func(i int) string {
			if i < n {
				return a.names[i]
			}
			return capturedName(i-n, captured[i-n])
		})
		if err != nil {
			return err
		}
	}
	e.dev, e.committed, e.captured = dev, committed, captured
	e.copies = make([]*tensor.Tensor, len(captured))
	for i, t := range captured {
		if t.Buffer().Device() == dev {
			continue
		}
		if t.Freed() {
			return fmt.Errorf("%s %s", capturedName(i, t), gone(t))
		}
		moved, err := tensor.MoveTo([]*tensor.Tensor{t}, dev, func(int) string { return capturedName(i, t) })
		if err != nil {
			return err
		}
		e.copies[i] = moved[0]
		jitStats.copies.Add(1)
	}
	return nil
}

// findNaN is STELA_DEBUG=nans for a compiled call: when a result has a
// NaN and no argument does, it runs the traced function again op by op,
// which stops at the first op that makes one, with its Go line.
func (e *entry) findNaN(rs, args []tensor.Buffer) error {
	bad := -1
	for i, b := range rs {
		if tensor.FirstNaN(tensor.FromBuffer(b)) >= 0 {
			bad = i
			break
		}
	}
	if bad < 0 {
		return nil
	}
	in := make([]*tensor.Tensor, len(args))
	for i, b := range args {
		in[i] = tensor.FromBuffer(b)
		if tensor.FirstNaN(in[i]) >= 0 {
			return nil // the NaN came in with the arguments
		}
	}
	if _, err := tensor.Apply(e.traced, in...); err != nil {
		return err
	}
	return fmt.Errorf("result #%d has a NaN (STELA_DEBUG=nans), but no op makes one when @%s runs op by op: the compiled program computes differently", bad, e.traced.Name)
}

// capturedName describes the captured tensor t, the i-th, in errors.
func capturedName(i int, t *tensor.Tensor) string {
	return fmt.Sprintf("captured tensor #%d (%v)", i, t.Type())
}

// run executes the entry on concrete tensors and reassembles fn's results.
func (e *entry) run(c *compiledFunc, a callArgs) ([]reflect.Value, error) {
	bufs := make([]tensor.Buffer, 0, len(a.tensors)+len(e.captured))
	for i, t := range a.tensors {
		if t.Freed() {
			return nil, fmt.Errorf("%s (%v) %s", a.names[i], t.Type(), gone(t))
		}
	}
	// An uncommitted argument elsewhere follows the computation; a
	// committed one is on dev (it is part of the signature).
	moved, err := tensor.MoveTo(a.tensors, e.dev, func(i int) string { return a.names[i] })
	if err != nil {
		return nil, err
	}
	for i, t := range moved {
		if t != a.tensors[i] {
			jitStats.copies.Add(1)
		}
		bufs = append(bufs, t.Buffer())
	}
	for i, t := range e.captured {
		if t.Freed() {
			// The copy goes with the original: Free says the values are
			// no longer wanted.
			if cp := e.copies[i]; cp != nil {
				cp.Free()
			}
			return nil, fmt.Errorf("%s %s", capturedName(i, t), gone(t))
		}
		if cp := e.copies[i]; cp != nil {
			bufs = append(bufs, cp.Buffer())
		} else {
			bufs = append(bufs, t.Buffer())
		}
	}
	var rs []tensor.Buffer
	if e.exe != nil {
		rs, err = e.execute(c, a, moved, bufs) // donate.go
	} else {
		rs, err = e.dev.Run(e.fn, bufs)
	}
	if err != nil {
		return nil, err
	}
	if e.traced != nil {
		if err := e.findNaN(rs, bufs); err != nil {
			return nil, err
		}
	}
	outs := make([]reflect.Value, c.ft.NumOut())
	k := 0
	for i := range outs {
		t := c.ft.Out(i)
		if t == errorType {
			outs[i] = reflect.Zero(t)
			continue
		}
		l := e.layout[i]
		s := make([]*tensor.Tensor, l.n)
		for j := range s {
			s[j] = tensor.FromResult(rs[k], e.committed)
			k++
		}
		switch l.kind {
		case layoutTensor:
			outs[i] = reflect.ValueOf(s[0])
		case layoutSlice:
			outs[i] = reflect.ValueOf(s)
		default:
			v, err := unflattenTo(t, l.template, s)
			if err != nil {
				return nil, err
			}
			outs[i] = v
		}
	}
	return outs, nil
}
