package tensor

import (
	"github.com/stela-ml/stela/ir"
)

// Convolution and pooling over NHWC images (batch, height, width,
// channels), with HWIO kernels (height, width, in channels, out channels),
// the layout of TensorFlow and JAX's defaults for images.

// PadMode says how a window op pads its input.
type PadMode uint8

// Padding modes.
const (
	PadValid    PadMode = iota // no padding: windows lie inside the input
	PadSame                    // pad so that output size = ceil(input / stride); the odd element goes high
	PadExplicit                // Padding.Explicit gives (low, high) per spatial dimension
)

// Padding of the spatial dimensions of a window op.
type Padding struct {
	Mode     PadMode
	Explicit [][2]int // for PadExplicit: (low, high) per spatial dimension
}

// Valid and Same are the common paddings.
var (
	Valid = Padding{Mode: PadValid}
	Same  = Padding{Mode: PadSame}
)

// ExplicitPadding pads each spatial dimension by (low, high).
func ExplicitPadding(p ...[2]int) Padding { return Padding{Mode: PadExplicit, Explicit: p} }

// resolve returns (low, high) per spatial dimension for inputs of size in,
// windows of size window dilated by dilation, and strides.
func (p Padding) resolve(op string, in, window, stride, dilation []int) [][2]int {
	out := make([][2]int, len(in))
	switch p.Mode {
	case PadValid:
	case PadSame:
		for i := range in {
			eff := (window[i]-1)*dilation[i] + 1
			n := (in[i] + stride[i] - 1) / stride[i]
			total := max((n-1)*stride[i]+eff-in[i], 0)
			out[i] = [2]int{total / 2, total - total/2}
		}
	case PadExplicit:
		if len(p.Explicit) != len(in) {
			panic(fail(op, "explicit padding %v has %d entries, want one per spatial dimension (%d)", p.Explicit, len(p.Explicit), len(in)))
		}
		copy(out, p.Explicit)
	default:
		panic(fail(op, "unknown padding mode %d", p.Mode))
	}
	return out
}

// Conv2DOptions are the knobs of Conv2D; zero values mean the defaults.
type Conv2DOptions struct {
	Strides  [2]int // default 1, 1
	Padding  Padding
	Dilation [2]int // kernel (atrous) dilation; default 1, 1
	Groups   int    // feature groups; default 1. Depthwise: Groups = in channels
}

func ones2(a [2]int) []int {
	out := []int{a[0], a[1]}
	for i, v := range out {
		if v == 0 {
			out[i] = 1
		}
	}
	return out
}

// Conv2D convolves NHWC input x with the HWIO kernel. With groups g, the
// kernel's I dimension is C/g and its O dimension a multiple of g.
func Conv2D(x, kernel *Tensor, opts Conv2DOptions) *Tensor {
	defer named(opConv2D)
	checkNotNil(opConv2D, x, kernel)
	if x.Rank() != 4 || kernel.Rank() != 4 {
		panic(fail(opConv2D, "needs an NHWC input and an HWIO kernel (rank 4), got %v and %v", x.typ, kernel.typ))
	}
	if x.typ.DType != kernel.typ.DType {
		panic(fail(opConv2D, "operand types %v and %v differ: element types must match (no implicit promotion; use Convert)", x.typ, kernel.typ))
	}
	g := max(opts.Groups, 1)
	xs, ks := x.typ.Shape, kernel.typ.Shape
	if xs[3] != ks[2]*g || ks[3]%g != 0 {
		panic(fail(opConv2D, "input %v has %d channels: with %d group(s) the kernel %v needs I = %d and O a multiple of %d", x.typ, xs[3], g, kernel.typ, xs[3]/g, g))
	}
	strides, dil := ones2(opts.Strides), ones2(opts.Dilation)
	pad := opts.Padding.resolve(opConv2D, xs[1:3], ks[0:2], strides, dil)
	a := ir.ConvolutionAttr{
		WindowStrides:    strides,
		Padding:          pad,
		InputBatchDim:    0,
		InputFeatureDim:  3,
		InputSpatialDims: []int{1, 2},

		KernelInputFeatureDim:  2,
		KernelOutputFeatureDim: 3,
		KernelSpatialDims:      []int{0, 1},

		OutputBatchDim:    0,
		OutputFeatureDim:  3,
		OutputSpatialDims: []int{1, 2},

		FeatureGroupCount: g,
		BatchGroupCount:   1,
	}
	if dil[0] != 1 || dil[1] != 1 {
		a.RhsDilation = dil
	}
	return Convolution(x, kernel, a)
}

// Convolution is StableHLO's convolution with explicit dimension numbers.
// A floating-point convolution whose attribute sets no Precision gets
// DefaultPrecision for both operands; an integer one gets none.
func Convolution(x, kernel *Tensor, attr ir.ConvolutionAttr) *Tensor {
	checkNotNil("convolution", x, kernel)
	attr.Precision = precisionFor(x.typ.DType, attr.Precision)
	return emit(nil, ir.OpConvolution, []*Tensor{x, kernel}, attr)[0]
}

// poolAttr makes the reduce_window attribute of a 2-D pool over NHWC.
func poolAttr(op string, x *Tensor, window, strides [2]int, pad Padding) ir.ReduceWindowAttr {
	if x.Rank() != 4 {
		panic(fail(op, "pooling needs an NHWC input (rank 4), got %v", x.typ))
	}
	w := ones2(window)
	s := []int{strides[0], strides[1]}
	for i := range s {
		if s[i] == 0 {
			s[i] = w[i]
		}
	}
	p := pad.resolve(op, x.typ.Shape[1:3], w, s, []int{1, 1})
	return ir.ReduceWindowAttr{
		WindowDims: []int{1, w[0], w[1], 1},
		Strides:    []int{1, s[0], s[1], 1},
		Padding:    [][2]int{{0, 0}, p[0], p[1], {0, 0}},
	}
}

func reduceWindow(k reduction, x *Tensor, a ir.ReduceWindowAttr) *Tensor {
	lit, err := k.init(x.typ.DType)
	if err != nil {
		panic(fail(ir.OpReduceWindow.String(), "%v", err))
	}
	init := constantAt(x, lit)
	body := binaryRegion(k.name, k.op, x.typ.DType, ir.CallerLoc())
	return emit(nil, ir.OpReduceWindow, []*Tensor{x, init}, a, body)[0]
}

// MaxPool2D takes the maximum over windows of an NHWC input. Zero strides
// mean strides equal to the window (non-overlapping windows); padded
// elements never win.
func MaxPool2D(x *Tensor, window, strides [2]int, pad Padding) *Tensor {
	defer named(opMaxPool2D)
	checkNotNil(opMaxPool2D, x)
	return reduceWindow(maxReduction, x, poolAttr(opMaxPool2D, x, window, strides, pad))
}

// AvgPool2D averages over windows of an NHWC input. Zero strides mean
// strides equal to the window. Padded elements are not counted: a window
// that hangs over the edge averages only the elements it covers.
func AvgPool2D(x *Tensor, window, strides [2]int, pad Padding) *Tensor {
	defer named(opAvgPool2D)
	checkNotNil(opAvgPool2D, x)
	a := poolAttr(opAvgPool2D, x, window, strides, pad)
	sum := reduceWindow(sumReduction, x, a)
	padded := false
	for _, p := range a.Padding {
		padded = padded || p[0] != 0 || p[1] != 0
	}
	if !padded {
		return Div(sum, ScalarLike(sum, float64(a.WindowDims[1]*a.WindowDims[2])))
	}
	return Div(sum, reduceWindow(sumReduction, OnesLike(x), a))
}
