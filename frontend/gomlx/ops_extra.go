package gomlx

import (
	"slices"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapeinference"
	"github.com/pkg/errors"

	"github.com/stela-ml/stela/ir"
)

// ArgMinMax is a two-operand reduce of (value, index) pairs whose body
// keeps GoMLX's rule: a NaN wins over any number, and among equal values
// (or NaNs) the lowest index wins. The body is commutative and
// associative, so any reduction order gives the same answer.
func (fn *Function) ArgMinMax(x compute.Value, axis int, outDType dtypes.DType, isMin bool) (compute.Value, error) {
	return fn.build1("ArgMinMax", []compute.Value{x}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		v := a[0]
		if v.Type.DType == ir.Bool {
			v = b.Convert(v, ir.U8) // false < true, as GoMLX's Go backend orders them
		}
		if _, err := shapeinference.ArgMinMax(fn.shapeOf(v), axis, outDType); err != nil {
			return nil, err
		}
		it, ok := dtypeMap[outDType]
		if !ok || !it.IsInteger() {
			return nil, errors.Errorf("output dtype %s is not an integer type", outDType)
		}
		dt := v.Type.DType
		idx := b.Emit1(ir.OpIota, nil, ir.IotaAttr{Type: ir.TensorOf(it, slices.Clone(v.Type.Shape)...), Dim: axis})
		body := argMinMaxBody(dt, it, isMin, b.Loc)
		rs := b.Emit(ir.OpReduce, []*ir.Value{v, idx, b.Literal(extreme(dt, isMin)), b.Literal(extreme(it, true))}, ir.ReduceAttr{Dims: []int{axis}}, body)
		return rs[1], nil
	})
}

func argMinMaxBody(dt, it ir.DType, isMin bool, loc ir.Loc) *ir.Func {
	f := ir.NewFunc("argminmax", ir.Scalar(dt), ir.Scalar(it), ir.Scalar(dt), ir.Scalar(it))
	b := ir.NewBuilder(f, loc)
	av, ai, ev, ei := f.Params[0], f.Params[1], f.Params[2], f.Params[3]
	dir := ir.CmpGT
	if isMin {
		dir = ir.CmpLT
	}
	better := b.Compare(dir, ev, av)
	tie := b.Emit1(ir.OpAnd, []*ir.Value{b.Compare(ir.CmpEQ, ev, av), b.Compare(ir.CmpLT, ei, ai)}, nil)
	take := b.Emit1(ir.OpOr, []*ir.Value{better, tie}, nil)
	if dt.IsFloat() {
		aNaN := b.Compare(ir.CmpNE, av, av)
		eNaN := b.Compare(ir.CmpNE, ev, ev)
		not := func(x *ir.Value) *ir.Value { return b.Unary(ir.OpNot, x) }
		and := func(x, y *ir.Value) *ir.Value { return b.Emit1(ir.OpAnd, []*ir.Value{x, y}, nil) }
		or := func(x, y *ir.Value) *ir.Value { return b.Emit1(ir.OpOr, []*ir.Value{x, y}, nil) }
		bothNaNTie := and(and(aNaN, eNaN), b.Compare(ir.CmpLT, ei, ai))
		// acc not NaN: take a NaN element, or a better/tied number;
		// acc NaN: only a NaN element with a lower index.
		take = or(and(not(aNaN), or(eNaN, take)), bothNaNTie)
	}
	f.Return(b.Select(take, ev, av), b.Select(take, ei, ai))
	return f
}

// featureBroadcast broadcasts a rank-1 per-feature value v to shape
// along axis.
func featureBroadcast(b *ir.Builder, v *ir.Value, shape []int, axis int) *ir.Value {
	return b.Emit1(ir.OpBroadcastInDim, []*ir.Value{v}, ir.BroadcastInDimAttr{Shape: slices.Clone(shape), Dims: []int{axis}})
}

func otherAxes(rank, axis int) []int {
	var ds []int
	for i := range rank {
		if i != axis {
			ds = append(ds, i)
		}
	}
	return ds
}

func checkFeatureAxis(x *ir.Value, axis int, vs ...*ir.Value) error {
	if axis < 0 || axis >= x.Type.Rank() {
		return errors.Errorf("feature axis %d out of range for %s", axis, x.Type)
	}
	n := x.Type.Shape[axis]
	for _, v := range vs {
		if v.Type.Rank() != 1 || v.Type.Shape[0] != n || v.Type.DType != x.Type.DType {
			return errors.Errorf("per-feature operand %s does not match operand %s on axis %d", v.Type, x.Type, axis)
		}
	}
	return nil
}

// BatchNormForInference is XLA's expansion of batch_norm_inference:
// (x - mean) * rsqrt(variance + epsilon) * scale + offset.
func (fn *Function) BatchNormForInference(operand, scale, offset, mean, variance compute.Value, epsilon float32, axis int) (compute.Value, error) {
	return fn.build1("BatchNormForInference", []compute.Value{operand, scale, offset, mean, variance}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		x := a[0]
		if err := checkFeatureAxis(x, axis, a[1:]...); err != nil {
			return nil, err
		}
		dt, sh := x.Type.DType, x.Type.Shape
		bc := func(v *ir.Value) *ir.Value { return featureBroadcast(b, v, sh, axis) }
		inv := b.Unary(ir.OpRsqrt, b.Add(a[4], b.Full(a[4].Type, float64(epsilon))))
		_ = dt
		return b.Add(b.Mul(b.Mul(b.Sub(x, bc(a[3])), bc(inv)), bc(a[1])), bc(a[2])), nil
	})
}

// batchStats are the mean and (biased) variance over every axis but
// axis, as XLA's expander computes them: E[x] and E[x²] - E[x]².
func batchStats(b *ir.Builder, x *ir.Value, axis int) (mean, variance *ir.Value) {
	dims := otherAxes(x.Type.Rank(), axis)
	n := 1
	for _, d := range dims {
		n *= x.Type.Shape[d]
	}
	dt := x.Type.DType
	inv := b.Const(dt, 1/float64(n))
	sum := b.Reduce(x, b.Const(dt, 0), ir.OpAdd, dims...)
	sq := b.Reduce(b.Mul(x, x), b.Const(dt, 0), ir.OpAdd, dims...)
	mean = b.Mul(sum, broadcastTo(b, inv, sum.Type.Shape))
	meanSq := b.Mul(sq, broadcastTo(b, inv, sq.Type.Shape))
	variance = b.Sub(meanSq, b.Mul(mean, mean))
	return mean, variance
}

// BatchNormForTraining is XLA's expansion of batch_norm_training.
func (fn *Function) BatchNormForTraining(operand, scale, offset compute.Value, epsilon float32, axis int) (compute.Value, compute.Value, compute.Value, error) {
	outs, err := fn.build("BatchNormForTraining", []compute.Value{operand, scale, offset}, func(b *ir.Builder, a []*ir.Value) ([]*ir.Value, error) {
		x := a[0]
		if err := checkFeatureAxis(x, axis, a[1:]...); err != nil {
			return nil, err
		}
		sh := x.Type.Shape
		bc := func(v *ir.Value) *ir.Value { return featureBroadcast(b, v, sh, axis) }
		mean, variance := batchStats(b, x, axis)
		inv := b.Unary(ir.OpRsqrt, b.Add(variance, b.Full(variance.Type, float64(epsilon))))
		y := b.Add(b.Mul(b.Mul(b.Sub(x, bc(mean)), bc(inv)), bc(a[1])), bc(a[2]))
		return []*ir.Value{y, mean, variance}, nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	return outs[0], outs[1], outs[2], nil
}

// BatchNormGradient is XLA's expansion of batch_norm_grad:
//
//	grad_offset = Σ dy
//	grad_scale  = Σ dy·(x-mean) · rsqrt(var+ε)
//	grad_x      = scale·rsqrt(var+ε) · (dy - mean(dy) - (x-mean)·mean(dy·(x-mean))/(var+ε))
func (fn *Function) BatchNormGradient(operand, scale, mean, variance, gradOutput compute.Value, epsilon float32, axis int) (compute.Value, compute.Value, compute.Value, error) {
	outs, err := fn.build("BatchNormGradient", []compute.Value{operand, scale, mean, variance, gradOutput}, func(b *ir.Builder, a []*ir.Value) ([]*ir.Value, error) {
		x, sc, mu, vr, dy := a[0], a[1], a[2], a[3], a[4]
		if err := checkFeatureAxis(x, axis, sc, mu, vr); err != nil {
			return nil, err
		}
		if !dy.Type.Equal(x.Type) {
			return nil, errors.Errorf("gradOutput %s does not match operand %s", dy.Type, x.Type)
		}
		sh := x.Type.Shape
		dt := x.Type.DType
		bc := func(v *ir.Value) *ir.Value { return featureBroadcast(b, v, sh, axis) }
		dims := otherAxes(x.Type.Rank(), axis)
		n := 1
		for _, d := range dims {
			n *= sh[d]
		}
		varEps := b.Add(vr, b.Full(vr.Type, float64(epsilon)))
		inv := b.Unary(ir.OpRsqrt, varEps)
		xc := b.Sub(x, bc(mu))
		sumDy := b.Reduce(dy, b.Const(dt, 0), ir.OpAdd, dims...)
		sumDyXc := b.Reduce(b.Mul(dy, xc), b.Const(dt, 0), ir.OpAdd, dims...)
		gradScale := b.Mul(sumDyXc, inv)
		invN := b.Full(sumDy.Type, 1/float64(n))
		meanDy := b.Mul(sumDy, invN)
		meanDyXc := b.Mul(sumDyXc, invN)
		t := b.Sub(b.Sub(dy, bc(meanDy)), b.Mul(xc, bc(b.Div(meanDyXc, varEps))))
		gradX := b.Mul(bc(b.Mul(sc, inv)), t)
		return []*ir.Value{gradX, gradScale, sumDy}, nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	return outs[0], outs[1], outs[2], nil
}

// selectAndScatter is XLA's select_and_scatter with a GE (max) or LE
// (min) select and an add scatter, expanded over the window's positions:
// the first element of each window (in row-major window order) that
// equals the window's max (min) receives the window's source value; the
// contributions are padded back into place and summed.
func (fn *Function) selectAndScatter(name string, isMax bool, operand, source compute.Value, window, strides []int, paddings [][2]int) (compute.Value, error) {
	return fn.build1(name, []compute.Value{operand, source}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		x, src := a[0], a[1]
		n := x.Type.Rank()
		if len(strides) == 0 {
			strides = window
		}
		if _, err := shapeinference.SelectAndScatter(fn.shapeOf(x), fn.shapeOf(src), window, strides, paddings); err != nil {
			return nil, err
		}
		if len(window) != n || len(strides) != n {
			return nil, errors.Errorf("window %v and strides %v for a rank-%d operand", window, strides, n)
		}
		pad := make([][2]int, n)
		copy(pad, paddings)
		dt := x.Type.DType
		init := extreme(dt, !isMax)
		op := ir.OpMaximum
		if !isMax {
			op = ir.OpMinimum
		}
		at := ir.ReduceWindowAttr{WindowDims: slices.Clone(window), Strides: slices.Clone(strides), Padding: pad}
		r := b.Emit1(ir.OpReduceWindow, []*ir.Value{x, b.Literal(init)}, at, ir.BinaryRegion(op, dt, b.Loc))
		if !r.Type.Equal(src.Type.WithDType(dt)) || src.Type.DType != dt {
			return nil, errors.Errorf("source %s does not match the windows' shape %s", src.Type, r.Type)
		}
		lo, hi := make([]int, n), make([]int, n)
		for d := range n {
			lo[d], hi[d] = pad[d][0], pad[d][1]
		}
		p := b.Pad(x, b.Literal(init), lo, hi, make([]int, n))
		zero := b.ZerosLike(src)
		var taken, sum *ir.Value
		k := make([]int, n)
		for {
			start, limit := make([]int, n), make([]int, n)
			for d := range n {
				start[d] = k[d]
				limit[d] = start[d] + (r.Type.Shape[d]-1)*strides[d] + 1
			}
			if r.Type.NumElements() > 0 {
				patch := b.Slice(p, start, limit, slices.Clone(strides))
				win := b.Compare(ir.CmpEQ, patch, r)
				if taken != nil {
					win = b.Emit1(ir.OpAnd, []*ir.Value{win, b.Unary(ir.OpNot, taken)}, nil)
					taken = b.Emit1(ir.OpOr, []*ir.Value{taken, win}, nil)
				} else {
					taken = win
				}
				c := b.Select(win, src, zero)
				plo, phi, pin := make([]int, n), make([]int, n), make([]int, n)
				for d := range n {
					plo[d], phi[d], pin[d] = start[d], p.Type.Shape[d]-limit[d], strides[d]-1
				}
				c = b.Pad(c, b.Const(dt, 0), plo, phi, pin)
				if sum == nil {
					sum = c
				} else {
					sum = b.Add(sum, c)
				}
			}
			d := n - 1
			for ; d >= 0; d-- {
				k[d]++
				if k[d] < window[d] {
					break
				}
				k[d] = 0
			}
			if d < 0 {
				break
			}
		}
		if sum == nil {
			return b.ZerosLike(x), nil
		}
		start, limit := make([]int, n), make([]int, n)
		for d := range n {
			start[d], limit[d] = pad[d][0], pad[d][0]+x.Type.Shape[d]
		}
		return b.Slice(sum, start, limit, ones(n)), nil
	})
}

func (fn *Function) SelectAndScatterMax(operand, source compute.Value, window, strides []int, paddings [][2]int) (compute.Value, error) {
	return fn.selectAndScatter("SelectAndScatterMax", true, operand, source, window, strides, paddings)
}

func (fn *Function) SelectAndScatterMin(operand, source compute.Value, window, strides []int, paddings [][2]int) (compute.Value, error) {
	return fn.selectAndScatter("SelectAndScatterMin", false, operand, source, window, strides, paddings)
}

// erfAlpha and erfBeta are the odd numerator and even denominator
// polynomials (highest degree first, in x²) of the rational
// approximation of erf on [-4, 4] that XLA uses for f32 (its CHLO
// legalization, from Eigen's generic_fast_erf_float); outside [-4, 4]
// erf is ±1 to f32 precision.
var (
	erfAlpha = []float64{-2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06, -5.69250639462346e-05, -7.34990630326855e-04, -2.95459980854025e-03, -1.60960333262415e-02}
	erfBeta  = []float64{-1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03, -7.37332916720468e-03, -1.42647390514189e-02}
)

// Erf is XLA's f32 expansion of erf (computed in f32 for f16 and bf16,
// as XLA does), and the IR's erf op (chlo.erf; on the CPU plugin libm's
// erf) for Float64.
func (fn *Function) Erf(x compute.Value) (compute.Value, error) {
	return fn.unary(compute.OpTypeErf, x, func(b *ir.Builder, x *ir.Value) *ir.Value {
		dt := x.Type.DType
		if dt.IsComplex() {
			panic(&ir.BuildError{Err: errors.Wrapf(compute.ErrNotImplemented, "Erf on %s (erf of complex numbers)", fn.shapeOf(x))})
		}
		return erfOf(b, x)
	})
}

// erfOf is XLA's f32 erf of x (f16, bf16 or f32; computed in f32), or
// the IR's erf for f64.
func erfOf(b *ir.Builder, x *ir.Value) *ir.Value {
	if x.Type.DType == ir.F64 {
		return b.Unary(ir.OpErf, x)
	}
	dt := x.Type.DType
	v := x
	if dt != ir.F32 {
		v = b.Convert(v, ir.F32)
	}
	c := func(f float64) *ir.Value { return b.Full(v.Type, f) }
	v = b.Emit1(ir.OpClamp, []*ir.Value{b.Const(ir.F32, -4), v, b.Const(ir.F32, 4)}, nil)
	x2 := b.Mul(v, v)
	horner := func(cs []float64) *ir.Value {
		p := c(cs[0])
		for _, k := range cs[1:] {
			p = b.Add(b.Mul(p, x2), c(k))
		}
		return p
	}
	r := b.Div(b.Mul(v, horner(erfAlpha)), horner(erfBeta))
	if dt != ir.F32 {
		r = b.Convert(r, dt)
	}
	return r
}

// FFT is Stela's fft op (GoMLX's FFTType values are StableHLO's order:
// FFT, IFFT, RFFT, IRFFT over the last len(fftLength) axes).
func (fn *Function) FFT(x compute.Value, fftType compute.FFTType, fftLength []int) (compute.Value, error) {
	kinds := map[compute.FFTType]ir.FFTType{
		compute.FFTForward: ir.FFTForward, compute.FFTInverse: ir.FFTInverse,
		compute.FFTForwardReal: ir.FFTReal, compute.FFTInverseReal: ir.FFTInverseReal,
	}
	return fn.build1(compute.OpTypeFFT.String(), []compute.Value{x}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		k, ok := kinds[fftType]
		if !ok {
			return nil, errors.Errorf("unknown FFT type %v", fftType)
		}
		return b.Emit1(ir.OpFFT, a, ir.FFTAttr{Type: k, Length: slices.Clone(fftLength)}), nil
	})
}
