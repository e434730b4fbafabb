package ir

// Autodiff rules. Each differentiable op's table entry names a VJP rule
// (reverse mode: the cotangents of its operands from those of its
// results) and, where it is cheap, a JVP rule (forward mode: the tangents
// of its results from those of its operands). Ops without a derivative
// (comparisons, integer and bit ops, iota, custom calls) carry the
// NotDifferentiable trait instead. Package passes/autodiff applies the
// rules to whole functions; the rules only ever see one instruction.
//
// Both kinds of rule emit into the function being built through the AD's
// Builder, at the forward instruction's location, so that the derivative
// ops name the user's Go line like the op they differentiate. A rule
// reads the forward values it needs (residuals) with Arg and Res: the
// transform decides what they are in the new function (a copy of the
// forward computation, or a parameter holding the value the forward pass
// computed).

// VJPFunc is an op's reverse-mode rule. ct holds one cotangent per result
// of a.In (nil: zero, and always nil for results that are not floats);
// the rule returns one cotangent per operand, of the operand's type (nil:
// zero, or the operand is not differentiable).
type VJPFunc func(a *AD, ct []*Value) []*Value

// JVPFunc is an op's forward-mode rule. t holds one tangent per operand of
// a.In (nil: zero, and always nil for operands that are not floats); the
// rule returns one tangent per result (nil: zero).
type JVPFunc func(a *AD, t []*Value) []*Value

// AD is what a rule works with: a Builder into the function being made,
// the forward instruction, its primal values there, and the transform,
// for ops whose regions must be differentiated too.
type AD struct {
	*Builder
	In     *Instr
	T      Differentiator
	Primal func(*Value) *Value
	// Needs says which operands (VJP) or results (JVP) the transform
	// wants a derivative for: the rule may skip computing the others.
	Needs []bool
}

// Need reports whether the transform wants the derivative of operand
// (VJP) or result (JVP) i.
func (a *AD) Need(i int) bool { return a.Needs == nil || a.Needs[i] }

// Arg is the primal value of operand i in the function being built.
func (a *AD) Arg(i int) *Value { return a.Primal(a.In.Args[i]) }

// Res is the primal value of result i in the function being built.
func (a *AD) Res(i int) *Value { return a.Primal(a.In.Results[i]) }

// Attr is the forward instruction's attribute.
func (a *AD) Attr() any { return a.In.Attr }

// Fail stops the transform with a located error at the forward op: the
// user asked for a derivative that does not exist or that Stela cannot
// compute (a while loop without a static trip count).
func (a *AD) Fail(format string, args ...any) {
	panic(Errorf(a.In.Loc, opName(a.In.Op), format, args...))
}

// Differentiator is the transform as rules see it: it differentiates the
// regions of control-flow ops and composites, and says what it knows of
// forward values at transform time.
type Differentiator interface {
	// RegionVJP returns the reverse-mode function of region r:
	// (P..., ct(R_j) for each float result j...) → (ct(P_i) for each i
	// with wrt[i]). It recomputes r's forward values from P.
	RegionVJP(r *Func, wrt []bool) (*Func, error)
	// RegionJVP returns the forward-mode function of region r:
	// (P..., t(P_i) for each i with wrt[i]...) → (R..., t(R_j) for each
	// float result j).
	RegionJVP(r *Func, wrt []bool) (*Func, error)
	// Known returns the value of a forward value of the function being
	// differentiated (a.In's operands, say) when the transform knows it
	// (a constant, or a value computed already when differentiating as
	// the program runs), nil otherwise. Rules use it for shapes of
	// computation that depend on values, such as a loop's trip count.
	Known(v *Value) *Literal
}

// Differentiable reports whether values of dt carry derivatives: floats
// and complex numbers.
func Differentiable(dt DType) bool { return dt.IsFloat() || dt.IsComplex() }

// GradStatus says how an op takes part in autodiff, for `stela ops` and
// docs/ops.md: "vjp+jvp", "vjp", "not differentiable", or "missing".
func (o *OpInfo) GradStatus() string {
	switch {
	case o.Has(NotDifferentiable):
		return "not differentiable"
	case o.VJP != nil && o.JVP != nil:
		return "vjp+jvp"
	case o.VJP != nil:
		return "vjp"
	case o.JVP != nil:
		return "jvp"
	}
	return "missing"
}

// withGrad returns o with its autodiff rules set (jvp may be nil).
func (o OpInfo) withGrad(vjp VJPFunc, jvp JVPFunc) OpInfo {
	o.VJP, o.JVP = vjp, jvp
	return o
}

// noGrad returns o marked not differentiable.
func (o OpInfo) noGrad() OpInfo {
	o.Traits |= NotDifferentiable
	return o
}
