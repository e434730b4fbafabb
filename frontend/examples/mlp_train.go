package examples

import (
	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// MLPTrain is one training step of a ReLU perceptron classifier: softmax
// cross-entropy against one-hot labels, its gradients by reverse-mode
// autodiff (jit.ValueAndGrad), and a plain SGD update, all in one
// function, so that compiled it is one program: forward, backward and
// update. Its sizes default to benchmark W4's.
type MLPTrain struct {
	Batch, In, Hidden1, Hidden2, Out int
	LR                               float64
}

// DefaultMLPTrain is W4: batch 256, 784 → 1024 → 1024 → 10, learning
// rate 0.01.
func DefaultMLPTrain() *MLPTrain {
	return &MLPTrain{Batch: 256, In: 784, Hidden1: 1024, Hidden2: 1024, Out: 10, LR: 0.01}
}

// Name implements Example.
func (m *MLPTrain) Name() string { return "mlp-train" }

// Doc implements Example.
func (m *MLPTrain) Doc() string {
	return "one SGD training step of a relu perceptron: cross-entropy, its gradients, the update"
}

// Func implements Example: the step, returning the loss, then the
// updated weights.
func (m *MLPTrain) Func() any { return m.Step }

// Specs implements Example: x, one-hot y, then w1, b1, w2, b2, w3, b3.
func (m *MLPTrain) Specs() []ir.Type {
	return []ir.Type{
		f32(m.Batch, m.In), f32(m.Batch, m.Out),
		f32(m.In, m.Hidden1), f32(m.Hidden1),
		f32(m.Hidden1, m.Hidden2), f32(m.Hidden2),
		f32(m.Hidden2, m.Out), f32(m.Out),
	}
}

// Inputs implements Example.
func (m *MLPTrain) Inputs(seed uint64) []*tensor.Tensor {
	r := rng(seed)
	labels := make([]float32, m.Batch*m.Out)
	for i := range m.Batch {
		labels[i*m.Out+r.IntN(m.Out)] = 1
	}
	return []*tensor.Tensor{
		uniform(r, m.Batch, m.In), tensor.FromSlice(labels, m.Batch, m.Out),
		normal(r, heInit(m.In), m.In, m.Hidden1), normal(r, 0.01, m.Hidden1),
		normal(r, heInit(m.Hidden1), m.Hidden1, m.Hidden2), normal(r, 0.01, m.Hidden2),
		normal(r, heInit(m.Hidden2), m.Hidden2, m.Out), normal(r, 0.01, m.Out),
	}
}

// Loss is the mean softmax cross-entropy of the perceptron's logits for x
// against the one-hot labels y.
func (m *MLPTrain) Loss(x, y, w1, b1, w2, b2, w3, b3 *tensor.Tensor) *tensor.Tensor {
	h := tensor.Relu(dense(x, w1, b1))
	h = tensor.Relu(dense(h, w2, b2))
	logp := tensor.LogSoftmax(dense(h, w3, b3), -1)
	return tensor.Neg(tensor.Mean(tensor.Sum(tensor.Mul(y, logp), -1)))
}

// Step returns the loss and the weights after one SGD step.
func (m *MLPTrain) Step(x, y, w1, b1, w2, b2, w3, b3 *tensor.Tensor) []*tensor.Tensor {
	loss, grads, err := jit.ValueAndGrad(m.Loss, 2, 3, 4, 5, 6, 7)(x, y, w1, b1, w2, b2, w3, b3)
	if err != nil {
		panic(err) // a located error, which Trace and Compile report
	}
	out := []*tensor.Tensor{loss}
	for i, w := range []*tensor.Tensor{w1, b1, w2, b2, w3, b3} {
		out = append(out, tensor.Sub(w, tensor.Mul(grads[i], tensor.Scalar(m.LR))))
	}
	return out
}
