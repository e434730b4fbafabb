package examples

import (
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// CNN is a small convolutional classifier on NHWC images:
// conv3x3(C1)+ReLU, 2x2 max pool, conv3x3(C2)+ReLU, global mean pool,
// dense to class logits.
type CNN struct {
	Batch, Height, Width, Channels int
	C1, C2, Classes                int
}

// DefaultCNN is MNIST-sized: 8x28x28x1 → 16 → 32 → 10.
func DefaultCNN() *CNN {
	return &CNN{Batch: 8, Height: 28, Width: 28, Channels: 1, C1: 16, C2: 32, Classes: 10}
}

// Name implements Example.
func (c *CNN) Name() string { return "cnn" }

// Doc implements Example.
func (c *CNN) Doc() string {
	return "small NHWC conv net (conv+relu, max pool, conv+relu, mean pool, dense)"
}

// Func implements Example.
func (c *CNN) Func() any { return c.Forward }

// Specs implements Example: x, then k1, b1, k2, b2, w, b.
func (c *CNN) Specs() []ir.Type {
	return []ir.Type{
		f32(c.Batch, c.Height, c.Width, c.Channels),
		f32(3, 3, c.Channels, c.C1), f32(c.C1),
		f32(3, 3, c.C1, c.C2), f32(c.C2),
		f32(c.C2, c.Classes), f32(c.Classes),
	}
}

// Inputs implements Example.
func (c *CNN) Inputs(seed uint64) []*tensor.Tensor {
	r := rng(seed)
	return []*tensor.Tensor{
		uniform(r, c.Batch, c.Height, c.Width, c.Channels),
		normal(r, heInit(9*c.Channels), 3, 3, c.Channels, c.C1), normal(r, 0.01, c.C1),
		normal(r, heInit(9*c.C1), 3, 3, c.C1, c.C2), normal(r, 0.01, c.C2),
		normal(r, heInit(c.C2), c.C2, c.Classes), normal(r, 0.01, c.Classes),
	}
}

// Forward returns class logits [batch, classes] for x [batch, h, w, c].
func (c *CNN) Forward(x, k1, b1, k2, b2, w, b *tensor.Tensor) *tensor.Tensor {
	same := tensor.Conv2DOptions{Padding: tensor.Same}
	h := tensor.Relu(tensor.Add(tensor.Conv2D(x, k1, same), b1))
	h = tensor.MaxPool2D(h, [2]int{2, 2}, [2]int{2, 2}, tensor.Valid)
	h = tensor.Relu(tensor.Add(tensor.Conv2D(h, k2, same), b2))
	h = tensor.Mean(h, 1, 2) // global average pool: [batch, c2]
	return dense(h, w, b)
}
