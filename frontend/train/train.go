// Package train is the loop around a training step: it deals minibatches
// of a data set to the step, shows progress, records the loss curve,
// evaluates test accuracy, and writes the curve as CSV and PNG. It is
// what `stela train` runs, and what a program that trains a classifier on
// MNIST can call with its own step.
//
// In: a Config (data, batch size, steps or epochs, seed, where the curve
// goes), a StepFunc that trains on one batch and returns its loss, and an
// EvalFunc that returns logits for a batch of inputs. Out: a Result (the
// curve, the test accuracy, timings), and the files. The step is opaque:
// how it computes gradients and updates parameters (eagerly, or one
// jit.Compile'd program with the parameters donated) is its business.
//
// Data come from frontend/datasets/mnist today; Config names its Sets.
package train

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/stela-ml/stela/frontend/datasets/mnist"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/internal/progress"
	"github.com/stela-ml/stela/ir"
)

// StepFunc trains on one batch: x the inputs (shaped by Config.Layout),
// y the targets (one-hot f32[b,10] with Config.OneHot, else si32[b]
// labels). It returns the batch's loss, which Train records and shows.
type StepFunc func(x, y *tensor.Tensor) (loss float32, err error)

// EvalFunc returns the logits f32[b, classes] for a batch of inputs x; the
// class with the largest logit is the prediction. Probabilities do as
// well as logits: only their argmax counts.
type EvalFunc func(x *tensor.Tensor) (logits *tensor.Tensor, err error)

// Config is a training run.
type Config struct {
	// Name labels the progress lines and the plot: "mlp".
	Name string
	// Train and Test are the data: Train is dealt to the step, Test is
	// what the accuracy is measured on.
	Train, Test *mnist.Set
	// Layout shapes the inputs.
	Layout mnist.Layout
	// OneHot makes the step's y one-hot f32[b,10] rather than si32[b].
	OneHot bool
	// BatchSize is the examples per step (the last partial batch of each
	// epoch is dropped, so that every step has the same shapes).
	BatchSize int
	// Steps is the number of steps; when 0, Epochs whole epochs.
	Steps  int
	Epochs int
	// Seed makes the order of the training examples (mnist.Permutation).
	Seed uint64
	// EvalBatch is the batch size of evaluation (default 1000).
	EvalBatch int
	// EvalEvery evaluates every that many steps during training (0: only
	// at the end), on the first EvalExamples test examples (0: all).
	// The curve records these accuracies at their steps.
	EvalEvery    int
	EvalExamples int
	// Progress is where progress goes (default os.Stderr) and
	// ProgressMode how: "auto" (default), "on", "plain" or "off"
	// (internal/progress).
	Progress     io.Writer
	ProgressMode string
	// CSV and PNG are the files the loss curve is written to, "" for
	// none; PNGWidth and PNGHeight are the image's size in pixels
	// (default 800×500).
	CSV, PNG            string
	PNGWidth, PNGHeight int
}

// Result is what a run did.
type Result struct {
	// Steps is the number of steps run, Epochs how many passes over the
	// training set they made.
	Steps  int
	Epochs float64
	// Curve is the loss of every step and the evaluations' accuracies.
	Curve Curve
	// TestAccuracy is Correct/Total on the whole test set, after training.
	TestAccuracy   float64
	Correct, Total int
	// FirstStep is the first step's time (it compiles, usually);
	// ExamplesPerSecond is the training rate after it, making the batches
	// included, the evaluations during training not; Duration is the
	// whole run, evaluations included.
	FirstStep         time.Duration
	ExamplesPerSecond float64
	Duration          time.Duration
}

// Train runs cfg: the steps, the evaluation, the files. A step's error,
// a loss that is NaN or infinite, or logits that are not f32[b, classes]
// stop it with an error that says at which step; the curve up to there is
// in the Result and still written to the files, which help to see what
// went wrong.
func Train(cfg Config, step StepFunc, eval EvalFunc) (*Result, error) {
	if err := cfg.check(step, eval); err != nil {
		return nil, err
	}
	start := time.Now()
	loader, err := cfg.Train.Loader(mnist.LoaderOptions{
		BatchSize: cfg.BatchSize, Layout: cfg.Layout, Shuffle: true, Seed: cfg.Seed,
	})
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	steps := cfg.Steps
	if steps == 0 {
		steps = cfg.Epochs * loader.StepsPerEpoch()
	}
	out := cfg.Progress
	if out == nil {
		out = os.Stderr
	}
	mode := cfg.ProgressMode
	if mode == "" {
		mode = "auto"
	}
	bar, err := progress.New(out, progress.Mode(mode), progress.Options{Label: cfg.Name, Total: steps})
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	evalSet := cfg.Test
	if n := cfg.EvalExamples; n > 0 && n < cfg.Test.Len() {
		if evalSet, err = cfg.Test.Slice(0, n); err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
	}

	res := &Result{}
	var runErr error
	var rateStart time.Time
	var evalTime time.Duration // of the evaluations during training, not counted in the rate
	for s := 1; s <= steps; s++ {
		b := loader.Next()
		y := b.Labels
		if cfg.OneHot {
			y = b.OneHot
		}
		t0 := time.Now()
		loss, err := callStep(step, b.X, y)
		if err != nil {
			runErr = fmt.Errorf("train: step %d: %w", s, err)
			break
		}
		if s == 1 {
			res.FirstStep = time.Since(t0)
			rateStart = time.Now()
		}
		res.Steps = s
		res.Curve = append(res.Curve, Point{Step: s, Loss: float64(loss), Accuracy: math.NaN()})
		if math.IsNaN(float64(loss)) || math.IsInf(float64(loss), 0) {
			runErr = fmt.Errorf("train: step %d: the loss is %v", s, loss)
			break
		}
		bar.Step(s, float64(loss), b.Size())
		if cfg.EvalEvery > 0 && s%cfg.EvalEvery == 0 && s < steps {
			t := time.Now()
			c, n, err := Evaluate(evalSet, cfg.Layout, cfg.EvalBatch, eval)
			evalTime += time.Since(t)
			if err != nil {
				runErr = fmt.Errorf("train: evaluation after step %d: %w", s, err)
				break
			}
			acc := float64(c) / float64(n)
			res.Curve[len(res.Curve)-1].Accuracy = acc
			bar.Printf("%sstep %d: accuracy %.4f on %s", prefix(cfg.Name), s, acc, evalSet.Name())
		}
	}
	if res.Steps > 1 {
		res.ExamplesPerSecond = float64((res.Steps-1)*cfg.BatchSize) / (time.Since(rateStart) - evalTime).Seconds()
	}
	res.Epochs = float64(res.Steps*cfg.BatchSize) / float64(cfg.Train.Len())
	bar.Done()
	if runErr == nil {
		res.Correct, res.Total, runErr = Evaluate(cfg.Test, cfg.Layout, cfg.EvalBatch, eval)
		if runErr != nil {
			runErr = fmt.Errorf("train: evaluation after training: %w", runErr)
		} else {
			res.TestAccuracy = float64(res.Correct) / float64(res.Total)
			if len(res.Curve) > 0 {
				res.Curve[len(res.Curve)-1].Accuracy = res.TestAccuracy
			}
		}
	}
	res.Duration = time.Since(start)
	if err := cfg.write(res); err != nil {
		return res, errors.Join(runErr, err)
	}
	return res, runErr
}

func prefix(name string) string {
	if name == "" {
		return ""
	}
	return name + ": "
}

// check validates cfg and fills in its defaults.
func (cfg *Config) check(step StepFunc, eval EvalFunc) error {
	switch {
	case step == nil || eval == nil:
		return errors.New("train: no step or eval function")
	case cfg.Train == nil || cfg.Test == nil:
		return errors.New("train: Config.Train and Config.Test must be set")
	case cfg.BatchSize < 1:
		return fmt.Errorf("train: batch size %d: want at least 1", cfg.BatchSize)
	case cfg.Steps < 0 || cfg.Epochs < 0 || cfg.Steps == 0 && cfg.Epochs == 0:
		return fmt.Errorf("train: %d steps, %d epochs: want a positive number of one", cfg.Steps, cfg.Epochs)
	case cfg.Steps > 0 && cfg.Epochs > 0:
		return fmt.Errorf("train: both %d steps and %d epochs: want one", cfg.Steps, cfg.Epochs)
	case cfg.EvalBatch < 0 || cfg.EvalEvery < 0 || cfg.EvalExamples < 0:
		return fmt.Errorf("train: negative EvalBatch, EvalEvery or EvalExamples")
	case cfg.PNGWidth < 0 || cfg.PNGHeight < 0:
		return fmt.Errorf("train: PNG size %d×%d: want positive", cfg.PNGWidth, cfg.PNGHeight)
	}
	if cfg.EvalBatch == 0 {
		cfg.EvalBatch = 1000
	}
	if cfg.PNGWidth == 0 {
		cfg.PNGWidth = 800
	}
	if cfg.PNGHeight == 0 {
		cfg.PNGHeight = 500
	}
	return nil
}

// write writes the curve to cfg's files.
func (cfg *Config) write(res *Result) error {
	var errs []error
	if cfg.CSV != "" {
		errs = append(errs, writeFile(cfg.CSV, res.Curve.WriteCSV))
	}
	if cfg.PNG != "" {
		title := "MNIST"
		if cfg.Name != "" {
			title += " " + cfg.Name
		}
		if res.Total > 0 {
			title += fmt.Sprintf(": test accuracy %.4f", res.TestAccuracy)
		}
		errs = append(errs, writeFile(cfg.PNG, func(w io.Writer) error {
			return res.Curve.WritePNG(w, cfg.PNGWidth, cfg.PNGHeight, title)
		}))
	}
	return errors.Join(errs...)
}

// writeFile writes a file with write, reporting the path with any error.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("train: writing %s: %w", path, err)
	}
	return nil
}

// callStep calls the step, turning a panic of a tensor op (their errors
// are panics, located at the user's line) into an error.
func callStep(step StepFunc, x, y *tensor.Tensor) (loss float32, err error) {
	perr := tensor.Catch(func() { loss, err = step(x, y) })
	if perr != nil {
		return 0, perr
	}
	return loss, err
}

// Evaluate measures eval's accuracy on set, batch examples at a time
// (the last batch smaller): the number of examples whose largest logit is
// their label's, and the number of examples.
func Evaluate(set *mnist.Set, layout mnist.Layout, batch int, eval EvalFunc) (correct, total int, err error) {
	if batch < 1 {
		return 0, 0, fmt.Errorf("evaluate: batch size %d: want at least 1", batch)
	}
	for b := range set.Batches(batch, layout) {
		var logits *tensor.Tensor
		if perr := tensor.Catch(func() { logits, err = eval(b.X) }); perr != nil {
			err = perr
		}
		if err != nil {
			return 0, 0, fmt.Errorf("examples %d to %d of %s: %w", b.Indices[0], b.Indices[len(b.Indices)-1], set.Name(), err)
		}
		c, err := Correct(logits, b.Y)
		if err != nil {
			return 0, 0, fmt.Errorf("examples %d to %d of %s: %w", b.Indices[0], b.Indices[len(b.Indices)-1], set.Name(), err)
		}
		correct += c
		total += b.Size()
	}
	if total == 0 {
		return 0, 0, fmt.Errorf("evaluate: %s is empty", set.Name())
	}
	return correct, total, nil
}

// Correct counts the rows of logits f32[b, classes] whose largest element
// (the first, on a tie) is at the label's index. Logits of another type or
// shape, labels outside [0, classes), and NaN logits are errors: a NaN
// has no argmax, and counting it either way would hide a diverged model.
func Correct(logits *tensor.Tensor, labels []int32) (int, error) {
	if logits == nil {
		return 0, errors.New("no logits")
	}
	if err := logits.Err(); err != nil {
		return 0, err
	}
	typ := logits.Type()
	if typ.DType != ir.F32 || len(typ.Shape) != 2 || typ.Shape[0] != len(labels) {
		return 0, fmt.Errorf("logits are %v, want f32[%d, classes]", typ, len(labels))
	}
	classes := typ.Shape[1]
	v := logits.Float32s()
	correct := 0
	for i, y := range labels {
		if y < 0 || int(y) >= classes {
			return 0, fmt.Errorf("label %d of example %d is not among %d classes", y, i, classes)
		}
		row := v[i*classes : (i+1)*classes]
		best := 0
		for j, x := range row {
			if math.IsNaN(float64(x)) {
				return 0, fmt.Errorf("logit %d of example %d is NaN", j, i)
			}
			if x > row[best] {
				best = j
			}
		}
		if best == int(y) {
			correct++
		}
	}
	return correct, nil
}
