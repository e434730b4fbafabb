package gomlx

import (
	"math"
	"slices"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/shapeinference"
	"github.com/pkg/errors"

	"github.com/stela-ml/stela/ir"
)

// The fused ops GoMLX offers backends, written out in IR ops (Stela's
// passes and the CPU plugin's fusion then treat them like any other
// program). FusedScaledDotProductAttention, its VJP, the QKV projection
// and the quantized ops are not offered: GoMLX falls back to its own
// decomposition of them.

func init() {
	supportedOps = append(supportedOps, compute.OpTypeFusedSoftmax, compute.OpTypeFusedGelu,
		compute.OpTypeFusedLayerNorm, compute.OpTypeFusedDense)
}

func checkFloat(x *ir.Value, op string) error {
	if !x.Type.DType.IsFloat() {
		return errors.Errorf("%s takes a float operand, got %s", op, x.Type)
	}
	return nil
}

// softmax along axis: exp(x - max) / sum(exp(x - max)).
func softmax(b *ir.Builder, x *ir.Value, axis int) *ir.Value {
	dt := x.Type.DType
	sh := x.Type.Shape
	keep := otherAxes(x.Type.Rank(), axis)
	m := b.Reduce(x, b.Literal(extreme(dt, false)), ir.OpMaximum, axis)
	back := func(v *ir.Value) *ir.Value {
		return b.Emit1(ir.OpBroadcastInDim, []*ir.Value{v}, ir.BroadcastInDimAttr{Shape: slices.Clone(sh), Dims: keep})
	}
	e := b.Unary(ir.OpExp, b.Sub(x, back(m)))
	s := b.Reduce(e, b.Const(dt, 0), ir.OpAdd, axis)
	return b.Div(e, back(s))
}

func (fn *Function) FusedSoftmax(x compute.Value, axis int) (compute.Value, error) {
	return fn.build1("FusedSoftmax", []compute.Value{x}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		if err := checkFloat(a[0], "FusedSoftmax"); err != nil {
			return nil, err
		}
		if axis < 0 || axis >= a[0].Type.Rank() { // GoMLX normalizes negative axes before calling
			return nil, errors.Errorf("axis out of range for %s", a[0].Type)
		}
		return softmax(b, a[0], axis), nil
	})
}

// gelu: exact x·(1+erf(x/√2))/2 (erf as XLA computes it in f32; the IR's erf in f64), or the
// tanh approximation x·(1+tanh(√(2/π)·(x+0.044715·x³)))/2.
func gelu(b *ir.Builder, x *ir.Value, exact bool) (*ir.Value, error) {
	if err := checkFloat(x, "Gelu"); err != nil {
		return nil, err
	}
	c := func(f float64) *ir.Value { return b.Full(x.Type, f) }
	if exact {
		return b.Mul(b.Mul(x, c(0.5)), b.Add(c(1), erfOf(b, b.Mul(x, c(1/math.Sqrt2))))), nil
	}
	x3 := b.Mul(b.Mul(x, x), x)
	in := b.Mul(c(math.Sqrt(2/math.Pi)), b.Add(x, b.Mul(c(0.044715), x3)))
	return b.Mul(b.Mul(x, c(0.5)), b.Add(c(1), b.Unary(ir.OpTanh, in))), nil
}

func (fn *Function) FusedGelu(x compute.Value, exact bool) (compute.Value, error) {
	return fn.build1("FusedGelu", []compute.Value{x}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		return gelu(b, a[0], exact)
	})
}

// FusedLayerNorm: (x - mean) / sqrt(var + ε) · gamma + beta over axes
// (biased variance); gamma and beta have x's dimensions on axes, or x's
// shape.
func (fn *Function) FusedLayerNorm(x compute.Value, axes []int, epsilon float64, gamma, beta compute.Value) (compute.Value, error) {
	ops := []compute.Value{x}
	if gamma != nil {
		ops = append(ops, gamma)
	}
	if beta != nil {
		ops = append(ops, beta)
	}
	return fn.build1("FusedLayerNorm", ops, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		v := a[0]
		if err := checkFloat(v, "FusedLayerNorm"); err != nil {
			return nil, err
		}
		n := v.Type.Rank()
		ax := slices.Clone(axes)
		for i := range ax {
			if ax[i] < 0 {
				ax[i] += n
			}
			if ax[i] < 0 || ax[i] >= n {
				return nil, errors.Errorf("axis %d out of range for %s", axes[i], v.Type)
			}
		}
		slices.Sort(ax)
		dt, sh := v.Type.DType, v.Type.Shape
		count := 1
		for _, d := range ax {
			count *= sh[d]
		}
		var keep []int
		for i := range n {
			if !slices.Contains(ax, i) {
				keep = append(keep, i)
			}
		}
		back := func(r *ir.Value) *ir.Value {
			return b.Emit1(ir.OpBroadcastInDim, []*ir.Value{r}, ir.BroadcastInDimAttr{Shape: slices.Clone(sh), Dims: keep})
		}
		inv := 1 / float64(count)
		mean := b.Mul(b.Reduce(v, b.Const(dt, 0), ir.OpAdd, ax...), b.Full(ir.TensorOf(dt, dimsAt(sh, keep)...), inv))
		xc := b.Sub(v, back(mean))
		vr := b.Mul(b.Reduce(b.Mul(xc, xc), b.Const(dt, 0), ir.OpAdd, ax...), b.Full(mean.Type, inv))
		y := b.Mul(xc, back(b.Unary(ir.OpRsqrt, b.Add(vr, b.Full(vr.Type, epsilon)))))
		param := func(p *ir.Value) (*ir.Value, error) {
			switch {
			case slices.Equal(p.Type.Shape, dimsAt(sh, ax)):
				return b.Emit1(ir.OpBroadcastInDim, []*ir.Value{p}, ir.BroadcastInDimAttr{Shape: slices.Clone(sh), Dims: ax}), nil
			case p.Type.Rank() == n:
				if _, err := shapeinference.BinaryOp(compute.OpTypeMul, gomlxShape(v.Type), gomlxShape(p.Type)); err == nil {
					return broadcastTo(b, p, sh), nil // GoMLX's implicit broadcasting ([1, d] against [b, d])
				}
			}
			// GoMLX then uses its own decomposition.
			return nil, errors.Wrapf(compute.ErrNotImplemented, "gamma/beta %s fit neither %s nor its normalized axes %v", p.Type, v.Type, ax)
		}
		i := 1
		if gamma != nil {
			g, err := param(a[i])
			if err != nil {
				return nil, err
			}
			y = b.Mul(y, g)
			i++
		}
		if beta != nil {
			bb, err := param(a[i])
			if err != nil {
				return nil, err
			}
			y = b.Add(y, bb)
		}
		return y, nil
	})
}

func dimsAt(sh, axes []int) []int {
	out := make([]int, len(axes))
	for i, a := range axes {
		out[i] = sh[a]
	}
	return out
}

// FusedDense: activation(x·W + bias), contracting x's last axis with W's
// first (InputOutputs) or last (OutputsInput) axis.
func (fn *Function) FusedDense(x, weight, bias compute.Value, opts compute.DenseConfig) (compute.Value, error) {
	ops := []compute.Value{x, weight}
	if bias != nil {
		ops = append(ops, bias)
	}
	return fn.build1("FusedDense", ops, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		xv, w := a[0], a[1]
		if xv.Type.DType != w.Type.DType || xv.Type.Rank() < 1 || w.Type.Rank() < 1 {
			return nil, errors.Errorf("x %s and weight %s", xv.Type, w.Type)
		}
		wc := 0
		if opts.WeightLayout == compute.DenseLayoutOutputsInput {
			wc = w.Type.Rank() - 1
		}
		y := b.DotGeneral(xv, w, ir.DotGeneralAttr{LhsContract: []int{xv.Type.Rank() - 1}, RhsContract: []int{wc}})
		if len(a) > 2 {
			bv := a[2]
			n := bv.Type.Rank()
			if n > y.Type.Rank() || !slices.Equal(bv.Type.Shape, y.Type.Shape[y.Type.Rank()-n:]) || bv.Type.DType != y.Type.DType {
				return nil, errors.Wrapf(compute.ErrNotImplemented, "bias %s for a product of %s", bv.Type, y.Type) // GoMLX decomposes
			}
			dims := make([]int, n)
			for i := range dims {
				dims[i] = y.Type.Rank() - n + i
			}
			y = b.Add(y, b.Emit1(ir.OpBroadcastInDim, []*ir.Value{bv}, ir.BroadcastInDimAttr{Shape: slices.Clone(y.Type.Shape), Dims: dims}))
		}
		c := func(f float64) *ir.Value { return b.Full(y.Type, f) }
		switch opts.Activation {
		case compute.ActivationNone:
			return y, nil
		case compute.ActivationRelu:
			return b.Emit1(ir.OpMaximum, []*ir.Value{y, c(0)}, nil), nil
		case compute.ActivationGelu:
			return gelu(b, y, true)
		case compute.ActivationSilu:
			return b.Mul(y, b.Unary(ir.OpLogistic, y)), nil
		case compute.ActivationTanh:
			return b.Unary(ir.OpTanh, y), nil
		case compute.ActivationHardSwish:
			r6 := b.Emit1(ir.OpClamp, []*ir.Value{b.Const(y.Type.DType, 0), b.Add(y, c(3)), b.Const(y.Type.DType, 6)}, nil)
			return b.Div(b.Mul(y, r6), c(6)), nil
		}
		return nil, errors.Wrapf(compute.ErrNotImplemented, "activation %s", opts.Activation)
	})
}

func init() {
	supportedOps = append(supportedOps, compute.OpTypeFusedAttentionQKVProjection)
}

// FusedAttentionQKVProjection: x·wQKV split along the last axis into the
// query, key and value projections, each plus its optional bias.
func (fn *Function) FusedAttentionQKVProjection(x, wQKV, biasQ, biasK, biasV compute.Value, queryDim, keyValueDim int) (compute.Value, compute.Value, compute.Value, error) {
	ops := []compute.Value{x, wQKV}
	has := []bool{biasQ != nil, biasK != nil, biasV != nil}
	for _, b := range []compute.Value{biasQ, biasK, biasV} {
		if b != nil {
			ops = append(ops, b)
		}
	}
	outs, err := fn.build("FusedAttentionQKVProjection", ops, func(b *ir.Builder, a []*ir.Value) ([]*ir.Value, error) {
		xv, w := a[0], a[1]
		r := xv.Type.Rank()
		if r < 1 || w.Type.Rank() != 2 || w.Type.Shape[0] != xv.Type.Shape[r-1] || w.Type.Shape[1] != queryDim+2*keyValueDim || xv.Type.DType != w.Type.DType {
			return nil, errors.Errorf("x %s and wQKV %s do not fit queryDim %d and keyValueDim %d", xv.Type, w.Type, queryDim, keyValueDim)
		}
		// x may keep its leading axes ([batch, seq, in]): the projections
		// contract its last axis.
		y := b.DotGeneral(xv, w, ir.DotGeneralAttr{LhsContract: []int{r - 1}, RhsContract: []int{0}})
		bounds := []int{0, queryDim, queryDim + keyValueDim, queryDim + 2*keyValueDim}
		next := 2
		var res []*ir.Value
		for i := range 3 {
			start, limit := make([]int, r), slices.Clone(y.Type.Shape)
			start[r-1], limit[r-1] = bounds[i], bounds[i+1]
			p := b.Slice(y, start, limit, ones(r))
			if has[i] {
				bias := a[next]
				next++
				if bias.Type.Rank() != 1 || bias.Type.Shape[0] != bounds[i+1]-bounds[i] {
					return nil, errors.Errorf("bias #%d is %s for a projection of %d", i, bias.Type, bounds[i+1]-bounds[i])
				}
				p = b.Add(p, b.Emit1(ir.OpBroadcastInDim, []*ir.Value{bias}, ir.BroadcastInDimAttr{Shape: slices.Clone(p.Type.Shape), Dims: []int{r - 1}}))
			}
			res = append(res, p)
		}
		return res, nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	return outs[0], outs[1], outs[2], nil
}
