// Command mnist trains GoMLX's MNIST CNN, written as GoMLX's example
// writes it (layers.Convolution, activation.Relu, graph.MaxPool,
// layers.DenseWithBias, train.Trainer with optimizer.Adam and
// loss.SparseCategoricalCrossEntropyLogits, train.Loop), on the real
// MNIST images of frontend/datasets/mnist, on GoMLX's Go backend and on
// Stela (frontend/gomlx), from the same initial weights and batches, and
// compares the losses step by step. It then continues on Stela alone
// and evaluates the test set with the trainer's eval loop
// (train.Trainer.Eval, mean loss and sparse categorical accuracy).
//
//	cd test/gomlx && go run -tags noxla ./mnist [-compare 40] [-steps 500] [-tol 1e-4]
//
// It exits with status 1 when a step's loss differs by more than tol
// (relative) between the backends, when the loss does not fall, or when
// the test accuracy is below -min-accuracy.
//
// The initial weights: the store's RNG seed is fixed, but GoMLX's Go
// backend draws random numbers with PCG and Stela with XLA's Philox
// (docs/gomlx.md), so the same seed gives different weights on the two
// backends. The variables are therefore initialized once, by GoMLX's
// default (He) initializer on the Go backend, and both runs start from
// copies of those values.
package main

import (
	"flag"
	"fmt"
	"iter"
	"math"
	"os"
	"slices"
	"time"

	"github.com/gomlx/compute"
	_ "github.com/gomlx/compute/gobackend"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers"
	"github.com/gomlx/gomlx/ml/layers/activation"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train"
	"github.com/gomlx/gomlx/ml/train/loss"
	"github.com/gomlx/gomlx/ml/train/metric"
	"github.com/gomlx/gomlx/ml/train/optimizer"

	"github.com/stela-ml/stela/frontend/datasets/mnist"
	_ "github.com/stela-ml/stela/frontend/gomlx"
)

var (
	compareSteps = flag.Int("compare", 40, "steps trained on both backends and compared")
	totalSteps   = flag.Int("steps", 500, "steps trained on Stela in all")
	batchSize    = flag.Int("batch", 64, "training batch size")
	evalBatch    = flag.Int("eval-batch", 1000, "evaluation batch size")
	tol          = flag.Float64("tol", 1e-4, "largest relative difference of a step's loss")
	minAccuracy  = flag.Float64("min-accuracy", 0.9, "least test accuracy after -steps")
	seed         = flag.Int64("seed", 42, "store RNG seed (initial weights) and shuffling seed")
	otherBackend = flag.String("backend", "stela", "the GoMLX backend checked against GoMLX's Go backend")
	perturb      = flag.Float64("perturb", 0, "relative change of the checked backend's initial weights (to measure how fast rounding differences grow: -backend go -perturb 1e-7)")
)

// Standard MNIST normalization: the training set's pixel mean and
// standard deviation (of pixels scaled to [0, 1]).
const (
	pixelMean = 0.1307
	pixelStd  = 0.3081
)

// cnn is the model: conv 3x3 (16) → relu → max pool 2 → conv 3x3 (32) →
// relu → max pool 2 → dense 10 (logits).
func cnn(scope *model.Scope, images *Node) *Node {
	x := images // [batch, 28, 28, 1], channels last
	x = layers.Convolution(scope.In("conv_0"), x).KernelSize(3).Channels(16).Done()
	x = activation.Relu(x)
	x = MaxPool(x).Window(2).Done() // [batch, 13, 13, 16]
	x = layers.Convolution(scope.In("conv_1"), x).KernelSize(3).Channels(32).Done()
	x = activation.Relu(x)
	x = MaxPool(x).Window(2).Done() // [batch, 5, 5, 32]
	x = Reshape(x, x.Shape().Dimensions[0], -1)
	return layers.DenseWithBias(scope.In("readout"), x, mnist.Classes)
}

// batch makes the inputs ([n, 28, 28, 1] normalized pixels) and labels
// ([n, 1] int32) of examples idx of s.
func batch(s *mnist.Set, idx []int) train.Batch {
	pix := make([]float32, 0, len(idx)*mnist.Pixels)
	labels := make([]int32, len(idx))
	for i, e := range idx {
		for _, p := range s.Image(e) {
			pix = append(pix, (p-pixelMean)/pixelStd)
		}
		labels[i] = int32(s.Label(e))
	}
	return train.Batch{
		Inputs: []*tensors.Tensor{tensors.FromFlatDataAndDimensions(pix, len(idx), mnist.Rows, mnist.Cols, 1)},
		Labels: []*tensors.Tensor{tensors.FromFlatDataAndDimensions(labels, len(idx), 1)},
	}
}

// trainData deals the training set in shuffled batches
// (mnist.Permutation), epoch after epoch. Its position survives Iter,
// so that a second Loop.RunSteps continues where the first stopped.
type trainData struct {
	set   *mnist.Set
	size  int
	epoch int
	pos   int
	perm  []int
}

func (d *trainData) Name() string { return "mnist-train" }

func (d *trainData) Iter() iter.Seq2[train.Batch, error] {
	return func(yield func(train.Batch, error) bool) {
		for {
			if d.perm == nil || d.pos+d.size > len(d.perm) {
				if d.perm != nil {
					d.epoch++
				}
				d.perm, d.pos = mnist.Permutation(d.set.Len(), uint64(*seed), d.epoch), 0
			}
			b := batch(d.set, d.perm[d.pos:d.pos+d.size])
			d.pos += d.size
			if !yield(b, nil) {
				return
			}
		}
	}
}

// testData is the test set in order, once.
type testData struct {
	set  *mnist.Set
	size int
}

func (d testData) Name() string { return "mnist-test" }

func (d testData) Iter() iter.Seq2[train.Batch, error] {
	return func(yield func(train.Batch, error) bool) {
		for start := 0; start < d.set.Len(); start += d.size {
			idx := make([]int, 0, d.size)
			for i := start; i < min(start+d.size, d.set.Len()); i++ {
				idx = append(idx, i)
			}
			if !yield(batch(d.set, idx), nil) {
				return
			}
		}
	}
}

// initialWeights initializes the model's variables on GoMLX's Go backend
// (store RNG seeded with seed) and returns host copies of them by path.
func initialWeights(set *mnist.Set) (map[string]*tensors.Tensor, error) {
	backend, err := compute.NewWithConfig("go")
	if err != nil {
		return nil, err
	}
	store := model.NewStore()
	if err := store.SetRNGStateFromSeed(*seed); err != nil {
		return nil, err
	}
	exec, err := model.NewExec(backend, store, func(scope *model.Scope, x *Node) *Node { return cnn(scope, x) })
	if err != nil {
		return nil, err
	}
	b := batch(set, []int{0})
	if _, err := exec.Exec(b.Inputs[0]); err != nil {
		return nil, err
	}
	weights := map[string]*tensors.Tensor{}
	for v := range store.IterVariables() {
		val, err := v.Value()
		if err != nil {
			return nil, err
		}
		local, err := val.LocalClone()
		if err != nil {
			return nil, err
		}
		weights[v.Path()] = local
	}
	return weights, nil
}

type run struct {
	trainer *train.Trainer
	loop    *train.Loop
	losses  []float64
}

// newRun makes a trainer on backend config whose store holds copies of
// weights.
func newRun(config string, weights map[string]*tensors.Tensor, perturb float64) (*run, error) {
	backend, err := compute.NewWithConfig(config)
	if err != nil {
		return nil, err
	}
	store := model.NewStore()
	if err := store.SetRNGStateFromSeed(*seed); err != nil {
		return nil, err
	}
	for path, w := range weights {
		c, err := w.LocalClone()
		if err != nil {
			return nil, err
		}
		if perturb != 0 && c.DType().IsFloat() && c.Shape().Rank() > 1 {
			tensors.MutableFlatData(c, func(flat []float32) {
				for i := range flat {
					flat[i] *= float32(1 + perturb)
				}
			})
		}
		scope, name := model.SplitPath(path)
		store.Scope(scope).VariableWithValue(name, c)
	}
	r := &run{}
	opt := optimizer.Adam().LearningRate(1e-3).Done()
	r.trainer = train.NewTrainer(backend, store, cnn, loss.SparseCategoricalCrossEntropyLogits, opt,
		nil, []metric.Interface{metric.NewSparseCategoricalAccuracy("Mean Accuracy", "#acc")})
	r.loop = train.NewLoop(r.trainer)
	r.loop.OnStep("record loss", 0, func(_ *train.Loop, metrics []*tensors.Tensor) error {
		r.losses = append(r.losses, float64(metrics[0].Value().(float32)))
		return nil
	})
	return r, nil
}

// medianStep is the median training step time, the first (compiling)
// step left out.
func medianStep(loop *train.Loop) time.Duration {
	ts := slices.Clone(loop.TrainStepDurations)
	if len(ts) > 1 {
		ts = ts[1:]
	}
	if len(ts) == 0 {
		return 0
	}
	slices.Sort(ts)
	return ts[len(ts)/2]
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(2)
}

func main() {
	flag.Parse()
	trainSet, testSet, err := mnist.Load()
	if err != nil {
		fail("%v", err)
	}
	weights, err := initialWeights(trainSet)
	if err != nil {
		fail("initializing on the go backend: %v", err)
	}

	goRun, err := newRun("go", weights, 0)
	if err != nil {
		fail("go backend: %v", err)
	}
	if _, err := goRun.loop.RunSteps(&trainData{set: trainSet, size: *batchSize}, *compareSteps); err != nil {
		fail("go backend: %v", err)
	}
	goStep := medianStep(goRun.loop)

	st, err := newRun(*otherBackend, weights, *perturb)
	if err != nil {
		fail("%s backend: %v", *otherBackend, err)
	}
	data := &trainData{set: trainSet, size: *batchSize}
	if _, err := st.loop.RunSteps(data, *compareSteps); err != nil {
		fail("%s backend: %v", *otherBackend, err)
	}
	stStep := medianStep(st.loop)

	worst, worstAt := 0.0, 0
	fmt.Printf("%5s  %12s  %12s  %9s\n", "step", "loss go", "loss "+*otherBackend, "rel diff")
	for i := range goRun.losses {
		d := math.Abs(goRun.losses[i]-st.losses[i]) / math.Max(math.Abs(goRun.losses[i]), 1e-12)
		if d > worst || math.IsNaN(d) {
			worst, worstAt = d, i
		}
		if i%5 == 0 || i == len(goRun.losses)-1 {
			fmt.Printf("%5d  %12.6f  %12.6f  %9.2e\n", i+1, goRun.losses[i], st.losses[i], d)
		}
	}
	fmt.Printf("largest relative loss difference %.2e (step %d) over %d steps, tolerance %.0e\n",
		worst, worstAt+1, len(goRun.losses), *tol)
	fmt.Printf("median train step (batch %d, first step left out): go %v, %s %v\n",
		*batchSize, goStep.Round(time.Microsecond), *otherBackend, stStep.Round(time.Microsecond))

	ok := true
	if !(worst <= *tol) {
		fmt.Println("FAIL: losses differ")
		ok = false
	}
	if n := len(goRun.losses); n < 2 || !(goRun.losses[n-1] < goRun.losses[0]) {
		fmt.Println("FAIL: the loss did not fall")
		ok = false
	}

	if rest := *totalSteps - *compareSteps; rest > 0 {
		start := time.Now()
		if _, err := st.loop.RunSteps(data, rest); err != nil {
			fail("%s backend: %v", *otherBackend, err)
		}
		fmt.Printf("%s alone: steps %d-%d in %v (median step %v), loss %.4f at step %d\n", *otherBackend,
			*compareSteps+1, *totalSteps, time.Since(start).Round(time.Millisecond),
			medianStep(st.loop).Round(time.Microsecond), st.losses[len(st.losses)-1], len(st.losses))
	}
	start := time.Now()
	evals, err := st.trainer.Eval(testData{set: testSet, size: *evalBatch})
	if err != nil {
		fail("%s backend eval: %v", *otherBackend, err)
	}
	testLoss, acc := float64(evals[0].Value().(float32)), float64(evals[1].Value().(float32))
	fmt.Printf("test set (%d images) after %d steps on %s: mean loss %.4f, accuracy %.4f (eval %v)\n",
		testSet.Len(), len(st.losses), *otherBackend, testLoss, acc, time.Since(start).Round(time.Millisecond))
	if !(acc >= *minAccuracy) {
		fmt.Printf("FAIL: accuracy below %.2f\n", *minAccuracy)
		ok = false
	}
	if !ok {
		os.Exit(1)
	}
	fmt.Println("PASS")
}
