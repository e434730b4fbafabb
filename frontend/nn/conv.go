package nn

import (
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Conv2D is a 2-D convolution over NHWC images (batch, height, width,
// channels) with an HWIO kernel (height, width, in channels, out
// channels), Flax's nn.Conv layout. Strides, Padding and Dilation are
// static leaves: part of the structure, not parameters.
type Conv2D struct {
	W        *tensor.Tensor // [kh, kw, in, out]
	B        *tensor.Tensor // [out]; nil without a bias
	Strides  [2]int         // zero means 1
	Padding  tensor.Padding // tensor.Same, tensor.Valid or explicit
	Dilation [2]int         // zero means 1
}

// NewConv2D makes a convolution from in to out channels with a kh×kw
// kernel, stride 1 and SAME padding (Flax's default; the output has the
// input's height and width). W is drawn with LeCunNormal (fan in
// kh·kw·in) from key, B is zeros. Options: WithStrides, WithPadding,
// WithDilation, WithDType, WithKernelInit, WithBiasInit, WithoutBias.
func NewConv2D(key *tensor.Tensor, in, out, kh, kw int, opts ...Option) Conv2D {
	const op = "nn.NewConv2D"
	defer named(op)
	c := config{dtype: ir.F32, kernelInit: LeCunNormal, biasInit: Zeros, strides: [2]int{1, 1}, dilation: [2]int{1, 1}, padding: tensor.Same}
	c.apply(op, opts, "WithStrides", "WithPadding", "WithDilation", "WithDType", "WithKernelInit", "WithBiasInit", "WithoutBias")
	positive(op, "sizes in, out, kh, kw", in, out, kh, kw)
	positive(op, "strides and dilation", c.strides[0], c.strides[1], c.dilation[0], c.dilation[1])
	k := splitKey(op, key, 2)
	l := Conv2D{W: c.kernelInit(k[0], c.dtype, kh, kw, in, out), Strides: c.strides, Padding: c.padding, Dilation: c.dilation}
	if !c.noBias {
		l.B = c.biasInit(k[1], c.dtype, out)
	}
	return l
}

// Forward convolves x [b, h, w, in] (or one image [h, w, in]) with W and
// adds B: [b, h', w', out].
func (l Conv2D) Forward(x *tensor.Tensor) *tensor.Tensor {
	const op = "nn.Conv2D"
	defer named(op)
	checkParam(op, "W", l.W)
	checkInput(op, x, 3)
	if x.Rank() == 3 {
		return tensor.Squeeze(l.Forward(tensor.ExpandDims(x, 0)), 0)
	}
	in := l.W.Shape()[2]
	if x.Rank() != 4 || x.Shape()[3] != in {
		panic(fail(op, "the input is %v, want NHWC with %d channels (W is %v)", x.Type(), in, l.W.Type()))
	}
	y := tensor.Conv2D(x, l.W, tensor.Conv2DOptions{Strides: l.Strides, Padding: l.Padding, Dilation: l.Dilation})
	if l.B != nil {
		y = tensor.Add(y, l.B)
	}
	return y
}

// MaxPool2D is max pooling over NHWC images as a Layer: the largest
// element of each Window, moved by Strides (zero: the window's size, so
// windows do not overlap).
type MaxPool2D struct {
	Window, Strides [2]int
	Padding         tensor.Padding
}

// Forward pools x [b, h, w, c].
func (p MaxPool2D) Forward(x *tensor.Tensor) *tensor.Tensor {
	defer named("nn.MaxPool2D")
	return tensor.MaxPool2D(x, p.Window, p.Strides, p.Padding)
}

// AvgPool2D is average pooling over NHWC images as a Layer, as MaxPool2D.
type AvgPool2D struct {
	Window, Strides [2]int
	Padding         tensor.Padding
}

// Forward pools x [b, h, w, c].
func (p AvgPool2D) Forward(x *tensor.Tensor) *tensor.Tensor {
	defer named("nn.AvgPool2D")
	return tensor.AvgPool2D(x, p.Window, p.Strides, p.Padding)
}
