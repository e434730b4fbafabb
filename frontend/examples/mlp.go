package examples

import (
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// MLP is a three-layer perceptron classifier: Dense+ReLU, Dense+GELU,
// Dense, softmax.
type MLP struct {
	Batch, In, Hidden1, Hidden2, Out int
}

// DefaultMLP is MNIST-sized: batch 8, 784 → 128 → 64 → 10.
func DefaultMLP() *MLP { return &MLP{Batch: 8, In: 784, Hidden1: 128, Hidden2: 64, Out: 10} }

// Name implements Example.
func (m *MLP) Name() string { return "mlp" }

// Doc implements Example.
func (m *MLP) Doc() string {
	return "3-layer perceptron (dense+relu, dense+gelu, dense, softmax)"
}

// Func implements Example.
func (m *MLP) Func() any { return m.Forward }

// Specs implements Example: x, then w1, b1, w2, b2, w3, b3.
func (m *MLP) Specs() []ir.Type {
	return []ir.Type{
		f32(m.Batch, m.In),
		f32(m.In, m.Hidden1), f32(m.Hidden1),
		f32(m.Hidden1, m.Hidden2), f32(m.Hidden2),
		f32(m.Hidden2, m.Out), f32(m.Out),
	}
}

// Inputs implements Example.
func (m *MLP) Inputs(seed uint64) []*tensor.Tensor {
	r := rng(seed)
	return []*tensor.Tensor{
		uniform(r, m.Batch, m.In),
		normal(r, heInit(m.In), m.In, m.Hidden1), normal(r, 0.01, m.Hidden1),
		normal(r, heInit(m.Hidden1), m.Hidden1, m.Hidden2), normal(r, 0.01, m.Hidden2),
		normal(r, heInit(m.Hidden2), m.Hidden2, m.Out), normal(r, 0.01, m.Out),
	}
}

// Forward returns class probabilities [batch, out] for x [batch, in].
func (m *MLP) Forward(x, w1, b1, w2, b2, w3, b3 *tensor.Tensor) *tensor.Tensor {
	h := tensor.Relu(dense(x, w1, b1))
	h = tensor.GELU(dense(h, w2, b2))
	return tensor.Softmax(dense(h, w3, b3), -1)
}
