package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/stela-ml/stela/frontend/datasets/mnist"
	"github.com/stela-ml/stela/frontend/nn"
	"github.com/stela-ml/stela/frontend/optim"
	"github.com/stela-ml/stela/frontend/safetensors"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/frontend/train"
)

// trainModel is a model `stela train` can train: the data layout and
// targets its step wants, its default epochs and learning rate, and a
// constructor of its run.
type trainModel struct {
	name, doc string
	layout    mnist.Layout
	oneHot    bool
	epochs    int     // the default of --epochs
	lr        float64 // the default of --lr; 0: the model takes none
	make      func(c trainSetup) (*trainRun, error)
}

// trainSetup is what a model's constructor gets: seed initializes the
// parameters of models that have random ones, lr and steps (the run's
// length, for the schedule) configure the optimizer of those that have
// one.
type trainSetup struct {
	seed  uint64
	lr    float64
	steps int
}

// trainRun is a model ready to train: its step and evaluation, and save,
// which writes its parameters to a checkpoint (nil for models without
// parameters to save).
type trainRun struct {
	step train.StepFunc
	eval train.EvalFunc
	save func(path string, metadata map[string]string) error
}

// trainModels are the models, in the order help lists them.
var trainModels = []trainModel{
	{"centroid", "nearest class mean, no gradients: about 82%", mnist.Flat, true, 1, 0,
		func(trainSetup) (*trainRun, error) {
			m := train.NewNearestCentroid(mnist.Pixels, mnist.Classes)
			return &trainRun{step: m.Step, eval: m.Logits}, nil
		}},
	{"mlp", "a 784-256-256-10 ReLU perceptron, Adam with a cosine decay: about 98% in 5 epochs", mnist.Flat, false, 5, 1e-3,
		func(c trainSetup) (*trainRun, error) {
			return classifierRun(train.NewMLP(tensor.RandomKey(c.seed)), nn.MLP.Forward, c)
		}},
	{"cnn", "two 3x3 convolutions with max pooling and a dense layer of 128, Adam with a cosine decay: about 98.8% in 2 epochs", mnist.NHWC, false, 2, 1e-3,
		func(c trainSetup) (*trainRun, error) {
			return classifierRun(train.NewCNN(tensor.RandomKey(c.seed)), train.CNN.Forward, c)
		}},
}

// classifierRun trains model with Adam (learning rate c.lr, decayed along
// a cosine to 0 over the run) on the labels.
func classifierRun[P any](model P, forward func(P, *tensor.Tensor) *tensor.Tensor, c trainSetup) (*trainRun, error) {
	opt := optim.NewAdam(c.lr)
	opt.Schedule = optim.Cosine{Steps: c.steps}
	m, err := train.NewClassifier(model, forward, opt)
	if err != nil {
		return nil, err
	}
	return &trainRun{
		step: m.Step, eval: m.Logits,
		save: func(path string, metadata map[string]string) error {
			return safetensors.Save(path, m.Model, metadata)
		},
	}, nil
}

// trainModelHelp lists the models with their docs, for --model's help.
func trainModelHelp() string {
	var docs []string
	for _, m := range trainModels {
		docs = append(docs, m.name+", "+m.doc)
	}
	return strings.Join(docs, "; ")
}

func trainModelNames() string {
	var names []string
	for _, m := range trainModels {
		names = append(names, m.name)
	}
	return strings.Join(names, ", ")
}

// runTrain trains a model on MNIST with frontend/train's loop: progress
// on stderr, the loss curve to --csv and --png, and the test accuracy as
// the last line of stdout.
func runTrain(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("train")
	model := fs.String("model", trainModels[0].name, "the `MODEL` to train: "+trainModelHelp())
	steps := fs.Int("steps", 0, "train for `N` steps (0: --epochs whole epochs)")
	epochs := fs.Int("epochs", 0, "`N` passes over the training set, when --steps is 0 (0: the model's default, 1 for centroid, 5 for mlp, 2 for cnn)")
	lr := fs.Float64("lr", 0, "the peak learning `RATE` of the models with an optimizer (0: the model's default, 0.001)")
	checkpoint := fs.String("checkpoint", "", "save the trained parameters to `FILE.safetensors` (mlp and cnn; frontend/safetensors.Load reads it back)")
	batch := fs.Int("batch", 128, "the `BATCH` size of a training step")
	seed := fs.Uint64("seed", 1, "the `SEED` of the examples' order and the parameters' initial values")
	evalEvery := fs.Int("eval-every", 0, "measure the test accuracy every `N` steps too (on --eval-examples examples), not only at the end")
	evalExamples := fs.Int("eval-examples", 1000, "the first `N` test examples are what --eval-every measures on")
	csvPath := fs.String("csv", "", "write the loss curve to `FILE.csv` (step, loss, test_accuracy)")
	pngPath := fs.String("png", "", "draw the loss curve into `FILE.png`")
	device := fs.String("device", "cpu", "the `DEVICE` to train on (cpu, cpu:1, cuda, host, ...)")
	progressMode := fs.String("progress", "auto", "how progress goes to stderr: `auto|on|plain|off` (auto: a redrawn line on a terminal, plain lines elsewhere)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || pos[0] != "mnist" {
		return usagef("want the data set mnist, got %q", pos)
	}
	var m *trainModel
	for i := range trainModels {
		if trainModels[i].name == *model {
			m = &trainModels[i]
		}
	}
	if m == nil {
		return usagef("--model %q: want one of %s", *model, trainModelNames())
	}
	epochsSet := false
	fs.Visit(func(f *flag.Flag) { epochsSet = epochsSet || f.Name == "epochs" })
	if *epochs == 0 && !epochsSet {
		*epochs = m.epochs
	}
	if *steps < 0 || *epochs < 1 && *steps == 0 {
		return usagef("--steps %d, --epochs %d: want a positive number of steps or epochs", *steps, *epochs)
	}
	if *steps > 0 {
		*epochs = 0
	}
	if *lr == 0 {
		*lr = m.lr
	}
	if *lr < 0 || *lr > 0 && m.lr == 0 {
		return usagef("--lr %v: want a positive rate, for a model with an optimizer (mlp, cnn)", *lr)
	}
	if *batch < 1 {
		return usagef("--batch %d: want a positive batch size", *batch)
	}
	if err := tensor.SetDefaultDevice(*device); err != nil {
		return err
	}
	trainSet, testSet, err := mnist.Load()
	if err != nil {
		return err
	}
	total := *steps
	if total == 0 {
		total = *epochs * (trainSet.Len() / *batch) // Train drops each epoch's partial batch
	}
	if *checkpoint != "" && m.name == "centroid" {
		return usagef("--checkpoint: the %s model has no parameters to save", m.name)
	}
	run, err := m.make(trainSetup{seed: *seed, lr: *lr, steps: total})
	if err != nil {
		return err
	}
	res, err := train.Train(train.Config{
		Name: m.name, Train: trainSet, Test: testSet, Layout: m.layout, OneHot: m.oneHot,
		BatchSize: *batch, Steps: *steps, Epochs: *epochs, Seed: *seed,
		EvalEvery: *evalEvery, EvalExamples: *evalExamples,
		Progress: stderr, ProgressMode: *progressMode,
		CSV: *csvPath, PNG: *pngPath,
	}, run.step, run.eval)
	if err != nil {
		return err
	}
	if *checkpoint != "" {
		meta := map[string]string{
			"model": m.name, "steps": fmt.Sprint(res.Steps), "batch": fmt.Sprint(*batch),
			"seed": fmt.Sprint(*seed), "test_accuracy": fmt.Sprintf("%.4f", res.TestAccuracy),
		}
		if err := run.save(*checkpoint, meta); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "mnist %s on %s: %d steps of %d (%.2f epochs) in %s; first step %s, then %.0f examples/s\n",
		m.name, *device, res.Steps, *batch, res.Epochs, fmtDur(res.Duration), fmtDur(res.FirstStep), res.ExamplesPerSecond)
	for _, f := range []struct{ what, path string }{{"loss curve", *csvPath}, {"plot", *pngPath}, {"checkpoint", *checkpoint}} {
		if f.path != "" {
			fmt.Fprintf(stdout, "%s: %s\n", f.what, f.path)
		}
	}
	fmt.Fprintf(stdout, "test accuracy: %.4f\n", res.TestAccuracy)
	return nil
}
