package train

import (
	"fmt"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// NearestCentroid is a classifier that learns without gradients: each
// class's centroid is the mean of its training examples, and an input's
// class is that of the nearest centroid (Euclidean). On raw MNIST pixels
// it scores about 82% (82.03% with every training example): a baseline,
// and a model that exercises Train, the progress display, the curve and
// the accuracy computation before autodiff exists. Its Step takes one-hot
// targets (Config.OneHot) and flat inputs (mnist.Flat).
type NearestCentroid struct {
	features, classes int
	sums              *tensor.Tensor // f32[classes, features]: the examples seen, summed by class
	counts            *tensor.Tensor // f32[classes]: how many of each
}

// NewNearestCentroid makes an untrained classifier of inputs with
// features elements into classes classes.
func NewNearestCentroid(features, classes int) *NearestCentroid {
	return &NearestCentroid{
		features: features, classes: classes,
		sums:   tensor.Zeros(ir.F32, classes, features),
		counts: tensor.Zeros(ir.F32, classes),
	}
}

// Step returns the cross-entropy of a batch x f32[b, features] with
// one-hot targets y f32[b, classes] under the softmax of the logits
// (Logits) of the centroids so far, then adds the batch to the class sums.
// The loss, for the curve, starts at ln 10 (no centroids yet: every logit
// 0) and falls as the centroids settle.
func (m *NearestCentroid) Step(x, y *tensor.Tensor) (float32, error) {
	if err := m.check(x); err != nil {
		return 0, err
	}
	if got, want := y.Type(), ir.TensorOf(ir.F32, x.Shape()[0], m.classes); !got.Equal(want) {
		return 0, fmt.Errorf("nearest centroid: targets are %v, want one-hot %v", got, want)
	}
	// The loss is measured before the batch joins the centroids, so that
	// it is the loss on examples the model has not seen.
	logp := tensor.LogSoftmax(m.logits(x), 1)
	loss := tensor.Neg(tensor.Mean(tensor.Sum(tensor.Mul(y, logp), 1)))
	// sums += yᵀ·x: row c gains the sum of the batch's examples of class c.
	m.sums = tensor.Add(m.sums, tensor.MatMul(tensor.Transpose(y, 1, 0), x))
	m.counts = tensor.Add(m.counts, tensor.Sum(y, 0))
	return loss.Float32s()[0], nil
}

// Logits returns −‖x − c‖² + ‖x‖² = 2·x·cᵀ − ‖c‖² for each centroid c,
// f32[b, classes]: the largest is the nearest centroid (‖x‖² is the same
// for every class, so it is left out).
func (m *NearestCentroid) Logits(x *tensor.Tensor) (*tensor.Tensor, error) {
	if err := m.check(x); err != nil {
		return nil, err
	}
	return m.logits(x), nil
}

func (m *NearestCentroid) logits(x *tensor.Tensor) *tensor.Tensor {
	// A class not seen yet has the zero centroid rather than 0/0.
	c := tensor.Div(m.sums, tensor.ExpandDims(tensor.Maximum(m.counts, tensor.Scalar(1.0)), 1))
	xc := tensor.MatMul(x, tensor.Transpose(c, 1, 0))
	cc := tensor.Sum(tensor.Mul(c, c), 1)
	return tensor.Sub(tensor.Mul(xc, tensor.Scalar(2.0)), cc)
}

func (m *NearestCentroid) check(x *tensor.Tensor) error {
	if x == nil {
		return fmt.Errorf("nearest centroid: no input")
	}
	if t := x.Type(); t.DType != ir.F32 || len(t.Shape) != 2 || t.Shape[1] != m.features {
		return fmt.Errorf("nearest centroid: input is %v, want f32[b, %d] (mnist.Flat)", t, m.features)
	}
	return nil
}
