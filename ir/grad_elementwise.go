package ir

import "math"

// Autodiff rules of the elementwise ops. The derivative of a holomorphic
// elementwise op is multiplication by f'(x), the same in both modes: the
// VJP multiplies the cotangent and the JVP the tangent, without
// conjugation, as JAX's transposes do. Where JAX's rule has a particular
// form (tanh's (g + g·y)(1 - y), max's split of ties), Stela's follows it,
// so that the two agree to rounding on the same program.

// elemUnary makes both rules of a unary elementwise op from apply(a, g),
// the derivative applied to g (a cotangent or a tangent).
func elemUnary(apply func(a *AD, g *Value) *Value) (VJPFunc, JVPFunc) {
	return func(a *AD, ct []*Value) []*Value {
			if ct[0] == nil || !a.Need(0) {
				return []*Value{nil}
			}
			return []*Value{apply(a, ct[0])}
		}, func(a *AD, t []*Value) []*Value {
			if t[0] == nil {
				return []*Value{nil}
			}
			return []*Value{apply(a, t[0])}
		}
}

// zeroGrad is the rule pair of ops whose derivative is zero wherever it
// exists (sign, floor, the roundings): no error, no contribution.
func zeroGrad() (VJPFunc, JVPFunc) {
	return func(a *AD, ct []*Value) []*Value { return make([]*Value, len(a.In.Args)) },
		func(a *AD, t []*Value) []*Value { return make([]*Value, len(a.In.Results)) }
}

// linearUnary is the rule pair of a unary op that is linear in its
// operand and its own transpose (negate): apply it to the derivative.
func linearUnary(op Op) (VJPFunc, JVPFunc) {
	return elemUnary(func(a *AD, g *Value) *Value { return a.Emit1(op, []*Value{g}, a.Attr()) })
}

func one(a *AD, x *Value) *Value { return a.Const(x.Type.DType, 1) }

var (
	vjpNegate, jvpNegate                   = linearUnary(OpNegate)
	vjpReducePrecision, jvpReducePrecision = linearUnary(OpReducePrecision)
	vjpExp, jvpExp                         = elemUnary(func(a *AD, g *Value) *Value { return a.Mul(g, a.Res(0)) })
	vjpExpm1, jvpExpm1                     = elemUnary(func(a *AD, g *Value) *Value { return a.Mul(g, a.Add(a.Res(0), one(a, g))) })
	vjpLog, jvpLog                         = elemUnary(func(a *AD, g *Value) *Value { return a.Div(g, a.Arg(0)) })
	vjpLog1p, jvpLog1p                     = elemUnary(func(a *AD, g *Value) *Value { return a.Div(g, a.Add(a.Arg(0), one(a, g))) })
	vjpLogistic, jvpLogistic               = elemUnary(func(a *AD, g *Value) *Value { y := a.Res(0); return a.Mul(g, a.Mul(y, a.Sub(one(a, y), y))) })
	vjpSqrt, jvpSqrt                       = elemUnary(func(a *AD, g *Value) *Value { return a.Mul(g, a.Div(a.Const(g.Type.DType, 0.5), a.Res(0))) })
	vjpRsqrt, jvpRsqrt                     = elemUnary(func(a *AD, g *Value) *Value {
		return a.Mul(g, a.Mul(a.Const(g.Type.DType, -0.5), a.Div(a.Res(0), a.Arg(0))))
	})
	vjpCbrt, jvpCbrt = elemUnary(func(a *AD, g *Value) *Value {
		y := a.Res(0)
		return a.Mul(g, a.Mul(a.Const(g.Type.DType, 1.0/3), a.Div(one(a, y), a.Mul(y, y))))
	})
	vjpTanh, jvpTanh     = elemUnary(func(a *AD, g *Value) *Value { y := a.Res(0); return a.Mul(a.Add(g, a.Mul(g, y)), a.Sub(one(a, y), y)) })
	vjpSine, jvpSine     = elemUnary(func(a *AD, g *Value) *Value { return a.Mul(g, a.Unary(OpCosine, a.Arg(0))) })
	vjpCosine, jvpCosine = elemUnary(func(a *AD, g *Value) *Value { return a.Neg(a.Mul(g, a.Unary(OpSine, a.Arg(0)))) })
	vjpErf, jvpErf       = elemUnary(func(a *AD, g *Value) *Value {
		x := a.Arg(0)
		return a.Mul(g, a.Scale(a.Unary(OpExp, a.Neg(a.Mul(x, x))), 2/math.SqrtPi))
	})
	vjpTan, jvpTan             = elemUnary(func(a *AD, g *Value) *Value { y := a.Res(0); return a.Mul(g, a.Add(one(a, y), a.Mul(y, y))) })
	vjpZero, jvpZero           = zeroGrad()
	vjpAbs, jvpAbs             = absGrad()
	vjpReal, jvpReal           = realGrad()
	vjpImag, jvpImag           = imagGrad()
	vjpAdd, jvpAdd             = addSubGrad(false)
	vjpSubtract, jvpSubtract   = addSubGrad(true)
	vjpMultiply, jvpMultiply   = elemBinary(func(a *AD, g *Value) *Value { return a.Mul(g, a.Arg(1)) }, func(a *AD, g *Value) *Value { return a.Mul(a.Arg(0), g) })
	vjpDivide, jvpDivide       = elemBinary(divGradX, divGradY)
	vjpRemainder, jvpRemainder = elemBinary(func(a *AD, g *Value) *Value { return g }, remGradY)
	vjpPower, jvpPower         = elemBinary(powGradX, powGradY)
	vjpMaximum, jvpMaximum     = elemBinary(chooserGrad(0), chooserGrad(1))
	vjpMinimum, jvpMinimum     = elemBinary(chooserGrad(0), chooserGrad(1))
	vjpAtan2, jvpAtan2         = elemBinary(atan2GradX, atan2GradY)
	vjpComplex, jvpComplex     = complexGrad()
	vjpSelect, jvpSelect       = selectGrad()
	vjpClamp, jvpClamp         = clampGrad()
	vjpConvert, jvpConvert     = convertGrad()
)

// absGrad: sign(x)·g for real x, taking g itself at 0 as JAX does; for
// complex x, |·| is not holomorphic: the tangent is re(g·conj(x)/|x|),
// and the cotangent its transpose, complex(ct)·conj(x)/|x| (0 at 0).
func absGrad() (VJPFunc, JVPFunc) {
	unit := func(a *AD) *Value { // conj(x)/|x| with |0| replaced by 1
		x, r := a.Arg(0), a.Res(0)
		r = a.Select(a.Compare(CmpEQ, r, a.ZerosLike(r)), a.FullLike(r, 1), r)
		conj := a.Emit1(OpComplex, []*Value{a.Unary(OpReal, x), a.Neg(a.Unary(OpImag, x))}, nil)
		return a.Div(conj, a.Emit1(OpComplex, []*Value{r, a.ZerosLike(r)}, nil))
	}
	vjp := func(a *AD, ct []*Value) []*Value {
		if ct[0] == nil || !a.Need(0) {
			return []*Value{nil}
		}
		x := a.Arg(0)
		if x.Type.DType.IsComplex() {
			c := a.Emit1(OpComplex, []*Value{ct[0], a.ZerosLike(ct[0])}, nil)
			return []*Value{a.Mul(c, unit(a))}
		}
		return []*Value{a.Select(a.Compare(CmpGE, x, a.ZerosLike(x)), ct[0], a.Neg(ct[0]))}
	}
	jvp := func(a *AD, t []*Value) []*Value {
		if t[0] == nil {
			return []*Value{nil}
		}
		x := a.Arg(0)
		if x.Type.DType.IsComplex() {
			return []*Value{a.Unary(OpReal, a.Mul(t[0], unit(a)))}
		}
		return []*Value{a.Select(a.Compare(CmpGE, x, a.ZerosLike(x)), t[0], a.Neg(t[0]))}
	}
	return vjp, jvp
}

// realGrad: real is linear; its transpose puts the cotangent in the real
// part (the identity on a real operand).
func realGrad() (VJPFunc, JVPFunc) {
	vjp := func(a *AD, ct []*Value) []*Value {
		if ct[0] == nil || !a.Need(0) {
			return []*Value{nil}
		}
		if !a.In.Args[0].Type.DType.IsComplex() {
			return []*Value{ct[0]}
		}
		return []*Value{a.Emit1(OpComplex, []*Value{ct[0], a.ZerosLike(ct[0])}, nil)}
	}
	jvp := func(a *AD, t []*Value) []*Value {
		if t[0] == nil {
			return []*Value{nil}
		}
		return []*Value{a.Unary(OpReal, t[0])}
	}
	return vjp, jvp
}

// imagGrad: imag is linear; its transpose is complex(0, -ct) (JAX's). The
// imaginary part of a real operand is the constant 0.
func imagGrad() (VJPFunc, JVPFunc) {
	vjp := func(a *AD, ct []*Value) []*Value {
		if ct[0] == nil || !a.Need(0) || !a.In.Args[0].Type.DType.IsComplex() {
			return []*Value{nil}
		}
		return []*Value{a.Emit1(OpComplex, []*Value{a.ZerosLike(ct[0]), a.Neg(ct[0])}, nil)}
	}
	jvp := func(a *AD, t []*Value) []*Value {
		if t[0] == nil || !a.In.Args[0].Type.DType.IsComplex() {
			return []*Value{nil}
		}
		return []*Value{a.Unary(OpImag, t[0])}
	}
	return vjp, jvp
}

// elemBinary makes both rules of a binary elementwise op from its
// partial derivatives applied to g.
func elemBinary(dx, dy func(a *AD, g *Value) *Value) (VJPFunc, JVPFunc) {
	vjp := func(a *AD, ct []*Value) []*Value {
		out := make([]*Value, 2)
		if ct[0] == nil {
			return out
		}
		if a.Need(0) {
			out[0] = dx(a, ct[0])
		}
		if a.Need(1) {
			out[1] = dy(a, ct[0])
		}
		return out
	}
	jvp := func(a *AD, t []*Value) []*Value {
		var x, y *Value
		if t[0] != nil {
			x = dx(a, t[0])
		}
		if t[1] != nil {
			y = dy(a, t[1])
		}
		return []*Value{a.AddN(x, y)}
	}
	return vjp, jvp
}

func addSubGrad(sub bool) (VJPFunc, JVPFunc) {
	vjp := func(a *AD, ct []*Value) []*Value {
		if ct[0] == nil {
			return []*Value{nil, nil}
		}
		y := ct[0]
		if sub && a.Need(1) {
			y = a.Neg(y)
		}
		return []*Value{ct[0], y}
	}
	jvp := func(a *AD, t []*Value) []*Value {
		switch {
		case t[1] == nil:
			return []*Value{t[0]}
		case !sub:
			return []*Value{a.AddN(t[0], t[1])}
		case t[0] == nil:
			return []*Value{a.Neg(t[1])}
		}
		return []*Value{a.Sub(t[0], t[1])}
	}
	return vjp, jvp
}

func divGradX(a *AD, g *Value) *Value { return a.Div(g, a.Arg(1)) }

// divGradY is JAX's -g·x·y⁻².
func divGradY(a *AD, g *Value) *Value {
	y := a.Arg(1)
	return a.Mul(a.Mul(a.Neg(g), a.Arg(0)), a.Div(one(a, y), a.Mul(y, y)))
}

// remGradY: x rem y = x - y·trunc(x/y), so ∂/∂y = -trunc(x/y), written
// as JAX writes it: -sign(x/y)·floor(|x/y|).
func remGradY(a *AD, g *Value) *Value {
	q := a.Div(a.Arg(0), a.Arg(1))
	return a.Mul(a.Neg(g), a.Mul(a.Unary(OpSign, q), a.Unary(OpFloor, a.Unary(OpAbs, q))))
}

// powGradX is y·x^(y-1) (JAX's rule for a float exponent).
func powGradX(a *AD, g *Value) *Value {
	x, y := a.Arg(0), a.Arg(1)
	return a.Mul(g, a.Mul(y, a.Binary(OpPower, x, a.Sub(y, one(a, y)))))
}

// powGradY is log(x)·x^y, with log(0) read as log(1) so that 0^y has a
// zero derivative in y instead of NaN (JAX's _replace_zero).
func powGradY(a *AD, g *Value) *Value {
	x := a.Arg(0)
	nz := a.Select(a.Compare(CmpEQ, x, a.ZerosLike(x)), a.FullLike(x, 1), x)
	return a.Mul(g, a.Mul(a.Unary(OpLog, nz), a.Res(0)))
}

// chooserGrad is the derivative of max or min in operand i: 1 where it
// is the result, 0 where the other operand is, and ½ where they tie (JAX's
// _balanced_eq), so that max(x, x) has derivative 1 in x.
func chooserGrad(i int) func(a *AD, g *Value) *Value {
	return func(a *AD, g *Value) *Value {
		x, other, r := a.Arg(i), a.Arg(1-i), a.Res(0)
		half := a.Select(a.Compare(CmpEQ, other, r), a.FullLike(r, 0.5), a.FullLike(r, 1))
		w := a.Select(a.Compare(CmpEQ, x, r), half, a.ZerosLike(r))
		return a.Mul(g, w)
	}
}

// atan2 here is atan(x/y) of operands (x, y): ∂x = y/(x²+y²), ∂y = -x/(x²+y²).
func atan2GradX(a *AD, g *Value) *Value {
	x, y := a.Arg(0), a.Arg(1)
	return a.Mul(g, a.Div(y, a.Add(a.Mul(x, x), a.Mul(y, y))))
}

func atan2GradY(a *AD, g *Value) *Value {
	x, y := a.Arg(0), a.Arg(1)
	return a.Div(a.Mul(g, a.Neg(x)), a.Add(a.Mul(x, x), a.Mul(y, y)))
}

// complexGrad: complex(re, im) is linear; its transpose is (real(ct),
// imag(-ct)).
func complexGrad() (VJPFunc, JVPFunc) {
	vjp := func(a *AD, ct []*Value) []*Value {
		if ct[0] == nil {
			return []*Value{nil, nil}
		}
		out := make([]*Value, 2)
		if a.Need(0) {
			out[0] = a.Unary(OpReal, ct[0])
		}
		if a.Need(1) {
			out[1] = a.Unary(OpImag, a.Neg(ct[0]))
		}
		return out
	}
	jvp := func(a *AD, t []*Value) []*Value {
		if t[0] == nil && t[1] == nil {
			return []*Value{nil}
		}
		re, im := t[0], t[1]
		if re == nil {
			re = a.ZerosLike(a.Arg(0))
		}
		if im == nil {
			im = a.ZerosLike(a.Arg(1))
		}
		return []*Value{a.Emit1(OpComplex, []*Value{re, im}, nil)}
	}
	return vjp, jvp
}

// selectGrad routes the cotangent to the operand that was chosen.
func selectGrad() (VJPFunc, JVPFunc) {
	vjp := func(a *AD, ct []*Value) []*Value {
		out := make([]*Value, 3)
		if ct[0] == nil {
			return out
		}
		p, z := a.Arg(0), a.ZerosLike(ct[0])
		if a.Need(1) {
			out[1] = a.Select(p, ct[0], z)
		}
		if a.Need(2) {
			out[2] = a.Select(p, z, ct[0])
		}
		return out
	}
	jvp := func(a *AD, t []*Value) []*Value {
		if t[1] == nil && t[2] == nil {
			return []*Value{nil}
		}
		x, y := t[1], t[2]
		if x == nil {
			x = a.ZerosLike(a.Res(0))
		}
		if y == nil {
			y = a.ZerosLike(a.Res(0))
		}
		return []*Value{a.Select(a.Arg(0), x, y)}
	}
	return vjp, jvp
}

// clampGrad: clamp is min(max(x, lo), hi), so x's derivative is 1
// strictly between the bounds, lo's where lo > x and lo < hi, and hi's
// where hi < max(x, lo) (JAX has hi < x, which misses lo > hi). A rank-0
// bound collects the derivative of every element.
func clampGrad() (VJPFunc, JVPFunc) {
	masks := func(a *AD) [3]*Value {
		lo, x, hi := a.Arg(0), a.Arg(1), a.Arg(2)
		and := func(p, q *Value) *Value { return a.Emit1(OpAnd, []*Value{p, q}, nil) }
		if lo.Type.Rank() == 0 {
			lo = a.BroadcastInDim(lo, x.Type.Shape, nil)
		}
		if hi.Type.Rank() == 0 {
			hi = a.BroadcastInDim(hi, x.Type.Shape, nil)
		}
		return [3]*Value{
			and(a.Compare(CmpGT, lo, x), a.Compare(CmpLT, lo, hi)),
			and(a.Compare(CmpGT, x, lo), a.Compare(CmpLT, x, hi)),
			a.Emit1(OpOr, []*Value{a.Compare(CmpLT, hi, x), a.Compare(CmpLT, hi, lo)}, nil),
		}
	}
	vjp := func(a *AD, ct []*Value) []*Value {
		out := make([]*Value, 3)
		if ct[0] == nil {
			return out
		}
		m := masks(a)
		z := a.ZerosLike(ct[0])
		for i := range 3 {
			if !a.Need(i) {
				continue
			}
			g := a.Select(m[i], ct[0], z)
			if a.In.Args[i].Type.Rank() == 0 && g.Type.Rank() > 0 {
				g = a.SumTo(g, nil)
			}
			out[i] = g
		}
		return out
	}
	jvp := func(a *AD, t []*Value) []*Value {
		m := masks(a)
		r := a.Res(0)
		var sum *Value
		for i := range 3 {
			if t[i] == nil {
				continue
			}
			g := t[i]
			if g.Type.Rank() == 0 && r.Type.Rank() > 0 {
				g = a.BroadcastInDim(g, r.Type.Shape, nil)
			}
			sum = a.AddN(sum, a.Select(m[i], g, a.ZerosLike(r)))
		}
		return []*Value{sum}
	}
	return vjp, jvp
}

// convertGrad: between float types the derivative converts back; from
// real to complex, the cotangent's real part comes back (the IR has no
// complex to real convert; the case is there for completeness). Integer
// and i1 operands take no derivative (the transform never asks), and
// integer results carry none.
func convertGrad() (VJPFunc, JVPFunc) {
	back := func(a *AD, g *Value, to DType) *Value {
		from := g.Type.DType
		switch {
		case from.IsComplex() && !to.IsComplex():
			return a.Convert(a.Unary(OpReal, g), to)
		case !from.IsComplex() && to.IsComplex():
			re := a.Convert(g, to.ComplexPart())
			return a.Emit1(OpComplex, []*Value{re, a.ZerosLike(re)}, nil)
		}
		return a.Convert(g, to)
	}
	vjp := func(a *AD, ct []*Value) []*Value {
		x := a.In.Args[0]
		if ct[0] == nil || !a.Need(0) || !Differentiable(x.Type.DType) {
			return []*Value{nil}
		}
		return []*Value{back(a, ct[0], x.Type.DType)}
	}
	jvp := func(a *AD, t []*Value) []*Value {
		to := a.In.Results[0].Type.DType
		if t[0] == nil || !Differentiable(to) {
			return []*Value{nil}
		}
		return []*Value{back(a, t[0], to)}
	}
	return vjp, jvp
}
