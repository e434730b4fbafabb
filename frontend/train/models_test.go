package train

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/datasets/mnist"
	"github.com/stela-ml/stela/frontend/nn"
	"github.com/stela-ml/stela/frontend/optim"
	"github.com/stela-ml/stela/frontend/safetensors"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// TestMLPOnMNIST is a shortened `stela train --model mlp`: 300 steps of
// 128 (0.64 epochs) of the MLP with Adam and a cosine schedule, which
// must reach 90% on the test set (it reaches 94%), then a checkpoint of
// the trained model, loaded back into a model of the same structure,
// which must score the same, example for example.
func TestMLPOnMNIST(t *testing.T) {
	trainSet, testSet := load(t)
	if err := tensor.SetDefaultDevice("cpu"); err != nil {
		t.Fatal(err)
	}
	const steps = 300
	opt := optim.NewAdam(1e-3)
	opt.Schedule = optim.Cosine{Steps: steps}
	c, err := NewClassifier(NewMLP(tensor.RandomKey(1)), nn.MLP.Forward, opt)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	res, err := Train(Config{
		Name: "mlp", Train: trainSet, Test: testSet, Layout: mnist.Flat,
		BatchSize: 128, Steps: steps, Seed: 1, Progress: &log, ProgressMode: "plain",
	}, c.Step, c.Logits)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("test accuracy %.4f after %d steps; first step %v, then %.0f examples/s", res.TestAccuracy, res.Steps, res.FirstStep, res.ExamplesPerSecond)
	if res.TestAccuracy < 0.90 {
		t.Errorf("test accuracy %.4f after %d steps, want at least 0.90", res.TestAccuracy, steps)
	}
	if first, last := res.Curve[:20].MovingAverage(20)[19], res.Curve[steps-20:].MovingAverage(20)[19]; !(last < first/3) {
		t.Errorf("the loss went from about %v to about %v", first, last)
	}
	if got := c.State.Step.Int32s()[0]; got != steps {
		t.Errorf("the optimizer state counts %d steps, want %d", got, steps)
	}

	path := filepath.Join(t.TempDir(), "mlp.safetensors")
	if err := safetensors.Save(path, c.Model, map[string]string{"steps": "300"}); err != nil {
		t.Fatal(err)
	}
	// A model of the same structure, without drawing random numbers.
	like := nn.NewMLP(tensor.RandomKey(0), []int{784, 256, 256, 10}, nn.WithKernelInit(nn.Zeros))
	loaded, err := safetensors.Load(path, like)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := NewClassifier(loaded, nn.MLP.Forward, opt)
	if err != nil {
		t.Fatal(err)
	}
	correct, total, err := Evaluate(testSet, mnist.Flat, 1000, fresh.Logits)
	if err != nil {
		t.Fatal(err)
	}
	if correct != res.Correct || total != res.Total {
		t.Errorf("the loaded checkpoint scores %d/%d, the trained model %d/%d", correct, total, res.Correct, res.Total)
	}
}

// TestCNNStep checks the CNN's shapes and that its compiled step trains:
// a few steps on one batch lower its loss. (The full run is `stela train
// --model cnn`; docs/guide.md has its numbers.)
func TestCNNStep(t *testing.T) {
	trainSet, _ := load(t)
	if err := tensor.SetDefaultDevice("cpu"); err != nil {
		t.Fatal(err)
	}
	m := NewCNN(tensor.RandomKey(2))
	c, err := NewClassifier(m, CNN.Forward, optim.NewAdam(1e-3))
	if err != nil {
		t.Fatal(err)
	}
	loader, err := trainSet.Loader(mnist.LoaderOptions{BatchSize: 32, Layout: mnist.NHWC})
	if err != nil {
		t.Fatal(err)
	}
	b := loader.Next()
	logits, err := c.Logits(b.X)
	if err != nil {
		t.Fatal(err)
	}
	if got := logits.Type(); !got.Equal(ir.TensorOf(ir.F32, 32, 10)) {
		t.Errorf("logits %v", got)
	}
	var losses []float32
	for range 5 {
		// One-hot targets this time: the step's other loss.
		l, err := c.Step(b.X, b.OneHot)
		if err != nil {
			t.Fatal(err)
		}
		losses = append(losses, l)
	}
	if !(losses[4] < losses[0]) {
		t.Errorf("losses on one batch: %v", losses)
	}
	// Inputs of the wrong layout are an error of the step, not a crash.
	_, err = c.Step(tensor.Zeros(ir.F32, 32, 784), b.Labels)
	if err == nil || !strings.Contains(err.Error(), "nn.Conv2D") {
		t.Errorf("flat inputs to the CNN: %v", err)
	}
}
