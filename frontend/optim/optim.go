package optim

import (
	"errors"
	"fmt"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/frontend/tree"
	"github.com/stela-ml/stela/ir"
)

// Optimizer is an update rule applied leaf by leaf: SGD, Adam, AdamW, or
// one of your own. Go methods cannot have type parameters, so an
// Optimizer never sees a parameter tree: Init and Update walk the trees
// and call it for one leaf at a time.
type Optimizer interface {
	// Slots names the state the optimizer keeps per parameter (SGD with
	// momentum: "momentum"; Adam: "m" and "v"): each is a tree of the
	// parameters' structure, zeros at first.
	Slots() []string
	// Step returns the rule of one update, the one after count updates
	// (count is an si32 scalar, 0 for the first), or an error for an
	// invalid configuration. Values that depend only on count (the
	// learning rate of a schedule, Adam's bias corrections) are computed
	// here once, from the tensor, so that a compiled training step does
	// not change from one step to the next.
	Step(count *tensor.Tensor) (Rule, error)
}

// Rule updates one parameter: from its value, its gradient (of the same
// type) and its slots (in Slots' order, each of the same type), the new
// value and the new slots. Update calls it for every floating-point leaf.
type Rule func(param, grad *tensor.Tensor, slots []*tensor.Tensor) (newParam *tensor.Tensor, newSlots []*tensor.Tensor)

// State is an optimizer's state for parameters of type P: a tree, so it
// passes through jit.Compile (as an argument and a result) and saves into
// a checkpoint with the parameters (paths "Step", "Slots.m.Layers.0.W").
type State[P any] struct {
	// Step is the number of updates applied so far, an si32 scalar.
	Step *tensor.Tensor
	// Slots holds the optimizer's trees by name (Optimizer.Slots), each
	// of P's structure.
	Slots map[string]P
}

// Init returns the initial state of opt for params: Step 0, and one tree
// of zeros of params' structure per slot (on the devices of the
// parameters).
func Init[P any](opt Optimizer, params P) (State[P], error) {
	if opt == nil {
		return State[P]{}, errors.New("optim.Init: no optimizer")
	}
	s := State[P]{Step: tensor.Scalar(int32(0))}
	for _, name := range opt.Slots() {
		z, err := tree.ZerosLike(params)
		if err != nil {
			return State[P]{}, fmt.Errorf("optim.Init: %w", err)
		}
		if s.Slots == nil {
			s.Slots = map[string]P{}
		}
		s.Slots[name] = z
	}
	return s, nil
}

// UpdateOption is an option of Update.
type UpdateOption struct {
	apply func(*updateConfig)
}

type updateConfig struct {
	clip float64 // max global norm; 0 for none
}

// WithClipByGlobalNorm clips the gradients by their global norm before
// the update, as ClipByGlobalNorm does: torch's
// clip_grad_norm_(max_norm) before optimizer.step().
func WithClipByGlobalNorm(maxNorm float64) UpdateOption {
	return UpdateOption{func(c *updateConfig) { c.clip = maxNorm }}
}

// Update applies one step of opt: the new parameters and the new state,
// for the gradients grads of params (a tree of params' structure, as
// jit.ValueAndGradTree returns). Leaves that are not floating-point (a
// step counter, token ids kept in the model) are left as they are, with
// their slots. It works eagerly and inside jit.Compile, where the whole
// update is part of the compiled step.
//
// It returns an error when the trees do not match (a leaf of grads or of
// a slot missing, or of another type than the parameter's) or opt's
// configuration is invalid; the error names the path.
func Update[P any](opt Optimizer, params, grads P, state State[P], opts ...UpdateOption) (P, State[P], error) {
	var zero P
	fail := func(err error) (P, State[P], error) { return zero, State[P]{}, fmt.Errorf("optim.Update: %w", err) }
	if opt == nil {
		return fail(errors.New("no optimizer"))
	}
	var cfg updateConfig
	for _, o := range opts {
		if o.apply == nil {
			return fail(errors.New("a zero UpdateOption: make options with the optim.With functions"))
		}
		o.apply(&cfg)
	}
	if err := checkStep(state.Step); err != nil {
		return fail(err)
	}
	names := opt.Slots()
	pl, err := tree.FlattenWithPaths(params)
	if err != nil {
		return fail(fmt.Errorf("the parameters: %w", err))
	}
	gl, err := matching("gradient", pl, grads)
	if err != nil {
		return fail(err)
	}
	slots := make([][]tree.Leaf, len(names))
	for k, name := range names {
		st, ok := state.Slots[name]
		if !ok {
			return fail(fmt.Errorf("the state has no slot %q (made by Init for another optimizer?)", name))
		}
		if slots[k], err = matching(fmt.Sprintf("slot %q", name), pl, st); err != nil {
			return fail(err)
		}
	}
	if len(state.Slots) != len(names) {
		return fail(fmt.Errorf("the state has slots %v, the optimizer %v (made by Init for another optimizer?)", keys(state.Slots), names))
	}

	gs := make([]*tensor.Tensor, len(gl))
	for i, l := range gl {
		gs[i] = l.Tensor
	}
	newParams := make([]*tensor.Tensor, len(pl))
	newSlots := make([][]*tensor.Tensor, len(names))
	for k := range names {
		newSlots[k] = make([]*tensor.Tensor, len(pl))
	}
	var newStep *tensor.Tensor
	perr := tensor.Catch(func() {
		if cfg.clip != 0 {
			if gs, _, err = clip(gs, cfg.clip); err != nil {
				return
			}
		}
		var rule Rule
		if rule, err = opt.Step(state.Step); err != nil {
			return
		}
		for i, l := range pl {
			s := make([]*tensor.Tensor, len(names))
			for k := range names {
				s[k] = slots[k][i].Tensor
			}
			if !ir.Differentiable(l.Tensor.DType()) {
				newParams[i] = l.Tensor
				for k := range names {
					newSlots[k][i] = s[k]
				}
				continue
			}
			p, ns := rule(l.Tensor, gs[i], s)
			if p == nil || len(ns) != len(names) {
				err = fmt.Errorf("at %s: the rule returned %d slots and %v, want %d slots and a parameter", l.Path, len(ns), p, len(names))
				return
			}
			newParams[i] = p
			for k := range names {
				newSlots[k][i] = ns[k]
			}
		}
		newStep = tensor.Add(state.Step, tensor.ScalarLike(state.Step, 1))
	})
	if perr != nil {
		err = perr
	}
	if err != nil {
		return fail(err)
	}
	np, err := tree.Unflatten(params, newParams)
	if err != nil {
		return fail(err)
	}
	ns := State[P]{Step: newStep}
	for k, name := range names {
		t, err := tree.Unflatten(params, newSlots[k])
		if err != nil {
			return fail(err)
		}
		if ns.Slots == nil {
			ns.Slots = map[string]P{}
		}
		ns.Slots[name] = t
	}
	return np, ns, nil
}

// checkStep checks a state's step counter.
func checkStep(step *tensor.Tensor) error {
	if step == nil {
		return errors.New("the state has no Step: make it with optim.Init")
	}
	if t := step.Type(); !t.Equal(ir.Scalar(ir.S32)) {
		return fmt.Errorf("the state's Step is %v, want si32[]", t)
	}
	return nil
}

// matching flattens t and checks that its leaves are at params' paths,
// of the same types.
func matching[P any](what string, params []tree.Leaf, t P) ([]tree.Leaf, error) {
	l, err := tree.FlattenWithPaths(t)
	if err != nil {
		return nil, fmt.Errorf("the %ss: %w", what, err)
	}
	at := make(map[string]int, len(l))
	for i, x := range l {
		at[x.Path] = i
	}
	for _, p := range params {
		i, ok := at[p.Path]
		switch {
		case !ok:
			return nil, fmt.Errorf("the %ss have no leaf at %s", what, p.Path)
		case !l[i].Tensor.Type().Equal(p.Tensor.Type()):
			return nil, fmt.Errorf("at %s: the %s is %v, the parameter %v", p.Path, what, l[i].Tensor.Type(), p.Tensor.Type())
		}
		delete(at, p.Path)
	}
	for _, x := range l {
		if _, extra := at[x.Path]; extra {
			return nil, fmt.Errorf("the %ss have a leaf at %s, the parameters none", what, x.Path)
		}
	}
	// The same paths in a tree of the same type come in the same order;
	// make sure, since the update pairs leaves by index.
	for i := range l {
		if l[i].Path != params[i].Path {
			return nil, fmt.Errorf("the %ss' leaves are in another order than the parameters' (%s, %s)", what, l[i].Path, params[i].Path)
		}
	}
	return l, nil
}

func keys[P any](m map[string]P) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// computeType is the type an update's scalars are computed in for
// parameters of type dt: f64 for f64, else f32 (f16 and bf16 scalars are
// rounded from f32 ones).
func computeType(dt ir.DType) ir.DType {
	if dt == ir.F64 {
		return ir.F64
	}
	return ir.F32
}

// perType computes scalars once per parameter element type: make gets
// the compute type (computeType) and returns the scalars, which are then
// converted to the parameters' type.
type perType struct {
	make func(ct ir.DType) []*tensor.Tensor
	m    map[ir.DType][]*tensor.Tensor
}

func (p *perType) get(dt ir.DType) []*tensor.Tensor {
	if s, ok := p.m[dt]; ok {
		return s
	}
	if p.m == nil {
		p.m = map[ir.DType][]*tensor.Tensor{}
	}
	ct := computeType(dt)
	s, ok := p.m[ct]
	if !ok {
		s = p.make(ct)
		p.m[ct] = s
	}
	if dt != ct {
		c := make([]*tensor.Tensor, len(s))
		for i, x := range s {
			c[i] = tensor.Convert(x, dt)
		}
		s = c
		p.m[dt] = s
	}
	return s
}
