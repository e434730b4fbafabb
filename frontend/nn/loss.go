package nn

import (
	"math"
	"slices"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Losses. Each returns a scalar, the mean over the examples (every
// dimension but the class dimension, which is the last), as PyTorch's
// losses do with reduction="mean"; optax's return one loss per example,
// whose mean this is.

// SoftmaxCrossEntropy is the cross-entropy of the softmax of logits
// [..., classes] against target distributions of the same shape (one-hot
// rows, or soft labels): mean(−Σ targets·log_softmax(logits)), optax's
// softmax_cross_entropy averaged, torch.nn.CrossEntropyLoss with
// probabilities as targets.
func SoftmaxCrossEntropy(logits, targets *tensor.Tensor) *tensor.Tensor {
	const op = "nn.SoftmaxCrossEntropy"
	defer named(op)
	checkInput(op, logits, 1)
	if targets == nil || !targets.Type().Equal(logits.Type()) {
		panic(fail(op, "the logits are %v and the targets %v: want the same type", logits.Type(), typeOf(targets)))
	}
	logp := tensor.LogSoftmax(logits, -1)
	return tensor.Neg(tensor.Mean(tensor.Sum(tensor.Mul(targets, logp), -1)))
}

// SparseSoftmaxCrossEntropy is the cross-entropy of the softmax of logits
// [..., classes] against integer labels [...]: mean(−log_softmax(logits)
// at each label), torch.nn.CrossEntropyLoss with class indices, optax's
// softmax_cross_entropy_with_integer_labels averaged. A label outside
// [0, classes) makes the loss NaN, so that it does not pass unnoticed
// (STELA_DEBUG=nans names the line).
func SparseSoftmaxCrossEntropy(logits, labels *tensor.Tensor) *tensor.Tensor {
	const op = "nn.SparseSoftmaxCrossEntropy"
	defer named(op)
	checkInput(op, logits, 1)
	checkLabels(op, logits, labels)
	logp := tensor.LogSoftmax(logits, -1)
	picked, ok := pick(logp, labels)
	nll := tensor.Where(ok, tensor.Neg(picked), tensor.ScalarLike(picked, math.NaN()))
	return tensor.Mean(nll)
}

// pick returns x[..., labels[...]] for x [..., classes] (a one-hot mask
// and a sum, which differentiates into a scatter-free one-hot product),
// and whether each label is in range.
func pick(x, labels *tensor.Tensor) (picked, ok *tensor.Tensor) {
	shape := x.Shape()
	last := len(shape) - 1
	classes := shape[last]
	l := tensor.BroadcastTo(tensor.ExpandDims(labels, last), shape...)
	hot := tensor.Equal(tensor.IotaLike(labels, labels.DType(), shape, last), l)
	picked = tensor.Sum(tensor.Where(hot, x, tensor.ScalarLike(x, 0)), last)
	ok = tensor.And(tensor.GreaterEqual(labels, tensor.ScalarLike(labels, 0)), tensor.Less(labels, tensor.ScalarLike(labels, float64(classes))))
	return picked, ok
}

// checkLabels panics unless labels is an integer tensor of logits' shape
// without the last dimension.
func checkLabels(op string, logits, labels *tensor.Tensor) {
	s := logits.Shape()
	if labels == nil || !labels.DType().IsInteger() || !slices.Equal(labels.Shape(), s[:len(s)-1]) {
		panic(fail(op, "the logits are %v and the labels %v: want integer labels of shape %v", logits.Type(), typeOf(labels), s[:len(s)-1]))
	}
}

// MSE is the mean squared error mean((predictions − targets)²) over every
// element, torch.nn.MSELoss.
func MSE(predictions, targets *tensor.Tensor) *tensor.Tensor {
	const op = "nn.MSE"
	defer named(op)
	checkInput(op, predictions, 0)
	if targets == nil || !targets.Type().Equal(predictions.Type()) {
		panic(fail(op, "the predictions are %v and the targets %v: want the same type", predictions.Type(), typeOf(targets)))
	}
	d := tensor.Sub(predictions, targets)
	return tensor.Mean(tensor.Mul(d, d))
}

// BinaryCrossEntropyWithLogits is the binary cross-entropy of
// sigmoid(logits) against targets in [0, 1] of the same shape, averaged
// over every element: torch.nn.BCEWithLogitsLoss, optax's
// sigmoid_binary_cross_entropy averaged. It is computed as
// max(x, 0) − x·t + log(1 + e^−|x|), which neither overflows nor loses
// the small losses of confident right answers.
func BinaryCrossEntropyWithLogits(logits, targets *tensor.Tensor) *tensor.Tensor {
	const op = "nn.BinaryCrossEntropyWithLogits"
	defer named(op)
	checkInput(op, logits, 0)
	if targets == nil || !targets.Type().Equal(logits.Type()) {
		panic(fail(op, "the logits are %v and the targets %v: want the same type", logits.Type(), typeOf(targets)))
	}
	l := tensor.Sub(tensor.Relu(logits), tensor.Mul(logits, targets))
	l = tensor.Add(l, tensor.Log1p(tensor.Exp(tensor.Neg(tensor.Abs(logits)))))
	return tensor.Mean(l)
}

// Accuracy is the fraction (an f32 scalar) of examples whose largest
// logit (the first, on a tie) is at their label: logits [..., classes],
// integer labels [...].
func Accuracy(logits, labels *tensor.Tensor) *tensor.Tensor {
	const op = "nn.Accuracy"
	defer named(op)
	checkInput(op, logits, 1)
	checkLabels(op, logits, labels)
	pred := tensor.ArgMax(logits, logits.Rank()-1)
	if pred.DType() != labels.DType() {
		pred = tensor.Convert(pred, labels.DType())
	}
	return tensor.Mean(tensor.Convert(tensor.Equal(pred, labels), ir.F32))
}
