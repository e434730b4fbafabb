package jit

import (
	"fmt"
	"reflect"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/frontend/tree"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// Donate gives the buffers of the tensor arguments at the given parameter
// indices of fn to the compiled program, as JAX's donate_argnums does: a
// result may then be written into a donated argument's memory instead of
// a new buffer, so that a training step updates its parameters and
// optimizer state in place. A []*tensor.Tensor parameter, or a parameter
// tree (a model, an optimizer state), donates all its tensors.
//
// Each donated argument is paired, when the signature is compiled, with
// the first result of its type (element type and shape) that no earlier
// donated argument took, in order, as XLA's clients and JAX pair them;
// the pairs are compiled into the program (its @main's
// tf.aliasing_output attributes), so the same program donates on every
// PJRT plugin that honours donation. A donated argument with no result
// of its type is released after the call.
//
// After a call, a donated argument can no longer be used, paired or not:
// reading it (Literal, Array, Float32s, String...), passing it to an op
// or to a compiled function is an error that says so ("tensor f32[2,3]
// was donated to jit @step at train.go:42"). Keep the results instead:
// w = step(w, g). Tensors sharing the donated buffer (a To on its own
// device) go with it, as with Free.
//
// A donated argument must not also be another argument of the same call
// (f(w, w) donating either) nor a tensor fn closes over: both are errors
// of the call, which then donates nothing. A donated argument that is
// copied to the device the call runs on (an uncommitted tensor elsewhere,
// see Compile) donates the copy: the original stays valid, and that call
// saves no memory. A call traced into an enclosing trace donates nothing
// (the enclosing compiled function decides). Devices without donation
// (the host reference device) run the call without it, and the arguments
// stay valid.
func Donate(argIndices ...int) Option {
	return func(c *compileConfig) { c.donate = append(c.donate, argIndices...) }
}

// checkDonate checks Donate's indices against fn's parameters.
func (c *compiledFunc) checkDonate() error {
	for _, i := range c.cfg.donate {
		if i < 0 || i >= c.ft.NumIn() {
			return fmt.Errorf("Donate(%d): fn has %d parameters", i, c.ft.NumIn())
		}
		if t := c.ft.In(i); t != tensorType && t != sliceType && !isTree(t) {
			return fmt.Errorf("Donate(%d): parameter #%d is %v: only *tensor.Tensor, []*tensor.Tensor and parameter-tree parameters can be donated", i, i, t)
		}
	}
	return nil
}

// donateMask is, per tensor of the call's flattened arguments, whether
// Donate gives it away; nil when it gives none.
func (c *compiledFunc) donateMask(in []reflect.Value) []bool {
	if len(c.cfg.donate) == 0 {
		return nil
	}
	var mask []bool
	some := false
	for i, v := range in {
		d := false
		for _, k := range c.cfg.donate {
			d = d || k == i
		}
		n := 0
		switch {
		case v.Type() == tensorType:
			n = 1
		case v.Type() == sliceType:
			n = v.Len()
		case isTree(v.Type()):
			leaves, _ := tree.Flatten(v.Interface()) // args() checked it
			n = len(leaves)
		}
		for range n {
			mask = append(mask, d)
			some = some || d
		}
	}
	if !some {
		return nil
	}
	return mask
}

// compileEntry compiles e.fn for e.dev (nil for a device that only
// runs functions): with the donated arguments paired with results when
// Donate asks for it and the device can donate (runtime.AliasingCompiler),
// else as it is.
func (c *compiledFunc) compileEntry(e *entry, in []reflect.Value) (runtime.Executable, error) {
	comp, ok := e.dev.(runtime.Compiler)
	if !ok {
		return nil, nil
	}
	mask := c.donateMask(in)
	ac, ok := e.dev.(runtime.AliasingCompiler)
	if mask == nil || !ok {
		return comp.Compile(e.fn)
	}
	var params, results []ir.Type
	for _, p := range e.fn.Params {
		params = append(params, p.Type)
	}
	for _, r := range e.fn.Results {
		results = append(results, r.Type)
	}
	// The captured tensors, after the arguments, are never donated.
	exe, err := ac.CompileAliased(e.fn, runtime.Aliases(params, results, mask))
	if err != nil {
		return nil, err
	}
	e.donate = mask
	return exe, nil
}

// execute runs the entry's executable on bufs (the arguments as moved to
// e.dev, then the captured tensors), giving away the argument buffers
// e.donate marks.
func (e *entry) execute(c *compiledFunc, a callArgs, moved []*tensor.Tensor, bufs []tensor.Buffer) ([]tensor.Buffer, error) {
	loc := ir.CallerLoc()
	d, ok := e.exe.(runtime.Donator)
	if e.donate == nil || !ok {
		return e.exe.Run(bufs, loc)
	}
	if err := e.checkDonation(a, moved); err != nil {
		return nil, err
	}
	mask := make([]bool, len(bufs))
	copy(mask, e.donate)
	return d.RunDonated(bufs, mask, "jit @"+c.cfg.name, loc)
}

// checkDonation refuses a call whose donated buffer is also another
// argument or a captured tensor: the program would read memory it
// overwrites, and the captured tensor would die with the call.
func (e *entry) checkDonation(a callArgs, moved []*tensor.Tensor) error {
	for k, give := range e.donate {
		if !give {
			continue
		}
		b := moved[k].Buffer()
		for j, t := range moved {
			if j != k && t.Buffer() == b {
				return fmt.Errorf("%s is donated and %s is the same buffer: a donated tensor cannot also be another argument of the call (pass a copy)", a.names[k], a.names[j])
			}
		}
		for i, t := range e.captured {
			if t.Buffer() == b || (e.copies[i] != nil && e.copies[i].Buffer() == b) {
				return fmt.Errorf("%s is donated but fn also closes over it (%s): a captured tensor cannot be donated", a.names[k], capturedName(i, t))
			}
		}
	}
	return nil
}

// gone says why a tensor that Freed reports can no longer be used: "was
// donated to jit @step at train.go:42" or "was freed".
func gone(t *tensor.Tensor) string {
	if de := runtime.DonatedTo(t.Buffer()); de != nil {
		return fmt.Sprintf("was donated to %s at %v", de.To, de.At)
	}
	return "was freed"
}
