package train

import (
	"errors"
	"fmt"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/nn"
	"github.com/stela-ml/stela/frontend/optim"
	"github.com/stela-ml/stela/frontend/tensor"
)

// Classifier trains a model of type P (a parameter tree, such as a struct
// of frontend/nn layers) that maps a batch of inputs to class logits,
// minimizing the softmax cross-entropy with opt. Its Step and Logits are
// a StepFunc and an EvalFunc for Train. Each is one program compiled by
// jit.Compile the first time it sees a batch shape: the step is the
// forward pass, the gradients (jit.ValueAndGradTree) and the optimizer's
// update (optim.Update), with the model and the optimizer state as
// arguments and results, donated (jit.Donate): the step updates them in
// place, and the Model and State of before a step are gone after it.
type Classifier[P any] struct {
	// Model and State are the parameters and the optimizer's state after
	// the steps so far: save them (frontend/safetensors) to checkpoint.
	Model P
	State optim.State[P]

	step   func(P, optim.State[P], *tensor.Tensor, *tensor.Tensor) (P, optim.State[P], *tensor.Tensor, error)
	logits func(P, *tensor.Tensor) *tensor.Tensor
}

// NewClassifier returns a Classifier of model (its initial parameters)
// whose logits are forward(model, x), trained by opt.
func NewClassifier[P any](model P, forward func(model P, x *tensor.Tensor) *tensor.Tensor, opt optim.Optimizer) (*Classifier[P], error) {
	if forward == nil || opt == nil {
		return nil, errors.New("train.NewClassifier: no forward function or optimizer")
	}
	state, err := optim.Init(opt, model)
	if err != nil {
		return nil, fmt.Errorf("train.NewClassifier: %w", err)
	}
	// step takes the targets as labels (an integer y) or as one-hot rows
	// (a float y): which is static, fixed when the step is traced.
	step := func(m P, s optim.State[P], x, y *tensor.Tensor) (P, optim.State[P], *tensor.Tensor, error) {
		loss := func(m P) *tensor.Tensor {
			logits := forward(m, x)
			if y.DType().IsInteger() {
				return nn.SparseSoftmaxCrossEntropy(logits, y)
			}
			return nn.SoftmaxCrossEntropy(logits, y)
		}
		l, g, err := jit.ValueAndGradTree(loss)(m)
		if err != nil {
			return m, s, nil, err
		}
		m, s, err = optim.Update(opt, m, g, s)
		return m, s, l, err
	}
	return &Classifier[P]{
		Model: model, State: state,
		// The model and the state (arguments 0 and 1) are replaced by the
		// step's results: their buffers are donated to them, so the step
		// updates them in place.
		step:   jit.Compile(step, jit.WithName("train_step"), jit.Donate(0, 1)),
		logits: jit.Compile(forward, jit.WithName("logits")),
	}, nil
}

// Step trains on one batch: x the inputs, y the labels (si32[b]) or
// one-hot targets (f32[b, classes]). It returns the batch's loss, before
// the update.
func (c *Classifier[P]) Step(x, y *tensor.Tensor) (float32, error) {
	m, s, l, err := c.step(c.Model, c.State, x, y)
	if err != nil {
		return 0, err
	}
	c.Model, c.State = m, s
	v := l.Float32s()
	if err := l.Err(); err != nil {
		return 0, err
	}
	return v[0], nil
}

// Logits returns the model's logits for a batch of inputs.
func (c *Classifier[P]) Logits(x *tensor.Tensor) (logits *tensor.Tensor, err error) {
	if perr := tensor.Catch(func() { logits = c.logits(c.Model, x) }); perr != nil {
		return nil, perr
	}
	return logits, nil
}

// NewMLP returns the perceptron `stela train --model mlp` trains on flat
// MNIST images (mnist.Flat): 784 → 256 → 256 → 10 with ReLU, LeCun-normal
// weights and zero biases drawn from key. Its forward function is
// nn.MLP.Forward.
func NewMLP(key *tensor.Tensor) nn.MLP {
	return nn.NewMLP(key, []int{784, 256, 256, 10})
}

// CNN is the convolutional network `stela train --model cnn` trains on
// MNIST images in NHWC (mnist.NHWC): two 3×3 convolutions with ReLU and
// 2×2 max pooling (28×28×1 → 14×14×32 → 7×7×64), then a dense layer of
// 128 with ReLU and one of 10 logits.
type CNN struct {
	Conv1, Conv2 nn.Conv2D
	Hidden, Out  nn.Linear
}

// NewCNN returns a CNN with LeCun-normal weights and zero biases drawn
// from key.
func NewCNN(key *tensor.Tensor) CNN {
	k := tensor.SplitKey(key, 4)
	return CNN{
		Conv1:  nn.NewConv2D(k[0], 1, 32, 3, 3),
		Conv2:  nn.NewConv2D(k[1], 32, 64, 3, 3),
		Hidden: nn.NewLinear(k[2], 7*7*64, 128),
		Out:    nn.NewLinear(k[3], 128, 10),
	}
}

// Forward returns the logits f32[b, 10] of images x f32[b, 28, 28, 1].
func (m CNN) Forward(x *tensor.Tensor) *tensor.Tensor {
	pool := nn.MaxPool2D{Window: [2]int{2, 2}}
	h := pool.Forward(tensor.Relu(m.Conv1.Forward(x)))
	h = pool.Forward(tensor.Relu(m.Conv2.Forward(h)))
	h = tensor.Relu(m.Hidden.Forward(nn.Flatten{}.Forward(h)))
	return m.Out.Forward(h)
}
