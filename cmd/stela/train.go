package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/stela-ml/stela/frontend/datasets/mnist"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/frontend/train"
)

// trainModel is a model `stela train` can train: the data layout and
// targets its step wants, and a constructor of its step and evaluation
// (seed initializes the parameters of models that have random ones).
type trainModel struct {
	name, doc string
	layout    mnist.Layout
	oneHot    bool
	make      func(seed uint64) (train.StepFunc, train.EvalFunc, error)
}

// trainModels are the models, in the order help lists them.
var trainModels = []trainModel{
	{"centroid", "nearest class mean, no gradients (about 82%)", mnist.Flat, true,
		func(uint64) (train.StepFunc, train.EvalFunc, error) {
			m := train.NewNearestCentroid(mnist.Pixels, mnist.Classes)
			return m.Step, m.Logits, nil
		}},
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
	model := fs.String("model", trainModels[0].name, "the `MODEL` to train: "+trainModelNames())
	steps := fs.Int("steps", 0, "train for `N` steps (0: --epochs whole epochs)")
	epochs := fs.Int("epochs", 1, "`N` passes over the training set, when --steps is 0")
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
	if *steps < 0 || *epochs < 1 && *steps == 0 {
		return usagef("--steps %d, --epochs %d: want a positive number of steps or epochs", *steps, *epochs)
	}
	if *steps > 0 {
		*epochs = 0
	}
	if err := tensor.SetDefaultDevice(*device); err != nil {
		return err
	}
	trainSet, testSet, err := mnist.Load()
	if err != nil {
		return err
	}
	step, eval, err := m.make(*seed)
	if err != nil {
		return err
	}
	res, err := train.Train(train.Config{
		Name: m.name, Train: trainSet, Test: testSet, Layout: m.layout, OneHot: m.oneHot,
		BatchSize: *batch, Steps: *steps, Epochs: *epochs, Seed: *seed,
		EvalEvery: *evalEvery, EvalExamples: *evalExamples,
		Progress: stderr, ProgressMode: *progressMode,
		CSV: *csvPath, PNG: *pngPath,
	}, step, eval)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "mnist %s on %s: %d steps of %d (%.2f epochs) in %s; first step %s, then %.0f examples/s\n",
		m.name, *device, res.Steps, *batch, res.Epochs, fmtDur(res.Duration), fmtDur(res.FirstStep), res.ExamplesPerSecond)
	for _, f := range []struct{ what, path string }{{"loss curve", *csvPath}, {"plot", *pngPath}} {
		if f.path != "" {
			fmt.Fprintf(stdout, "%s: %s\n", f.what, f.path)
		}
	}
	fmt.Fprintf(stdout, "test accuracy: %.4f\n", res.TestAccuracy)
	return nil
}
