// Command example trains the same GoMLX model (an MLP classifier built
// with GoMLX's graph, model and train packages: its Trainer, Adam
// optimizer and sparse categorical cross-entropy) on GoMLX's Go backend
// and on Stela (frontend/gomlx), from the same initial weights and data,
// and compares the losses step by step.
//
//	cd test/gomlx/example && go run . [-steps 100] [-tol 1e-4]
//
// It exits with status 1 when a step's loss differs by more than tol
// (relative) between the backends.
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"time"

	"github.com/gomlx/compute"
	_ "github.com/gomlx/compute/gobackend"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train"
	"github.com/gomlx/gomlx/ml/train/loss"
	"github.com/gomlx/gomlx/ml/train/optimizer"

	_ "github.com/stela-ml/stela/frontend/gomlx"
)

var (
	steps  = flag.Int("steps", 100, "training steps")
	tol    = flag.Float64("tol", 1e-4, "largest relative difference of a step's loss")
	batch  = flag.Int("batch", 256, "batch size")
	hidden = flag.Int("hidden", 64, "hidden width")
)

const (
	inputs  = 32
	classes = 10
)

func randSlice(r *rand.Rand, n int, scale float64) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(r.NormFloat64() * scale)
	}
	return s
}

// data is a fixed synthetic classification task: the class of x is the
// argmax of x·M for a fixed random M.
func data() (*tensors.Tensor, *tensors.Tensor) {
	r := rand.New(rand.NewPCG(1, 2))
	x := randSlice(r, *batch*inputs, 1)
	m := randSlice(r, inputs*classes, 1)
	labels := make([]int32, *batch)
	for b := range *batch {
		best, bi := math.Inf(-1), 0
		for c := range classes {
			var s float64
			for i := range inputs {
				s += float64(x[b*inputs+i]) * float64(m[i*classes+c])
			}
			if s > best {
				best, bi = s, c
			}
		}
		labels[b] = int32(bi)
	}
	return tensors.FromFlatDataAndDimensions(x, *batch, inputs), tensors.FromFlatDataAndDimensions(labels, *batch, 1)
}

// train runs the steps on backend config and returns the losses and the
// median step time.
func trainOn(config string) ([]float64, time.Duration, error) {
	backend, err := compute.NewWithConfig(config)
	if err != nil {
		return nil, 0, err
	}
	r := rand.New(rand.NewPCG(3, 4))
	dims := [][2]int{{inputs, *hidden}, {*hidden, *hidden}, {*hidden, classes}}
	var ws, bs [][]float32
	for _, d := range dims {
		ws = append(ws, randSlice(r, d[0]*d[1], 1/math.Sqrt(float64(d[0]))))
		bs = append(bs, make([]float32, d[1]))
	}
	modelFn := func(scope *model.Scope, spec any, in []*Node) []*Node {
		x := in[0]
		for i, d := range dims {
			l := scope.In(fmt.Sprintf("dense_%d", i))
			w := l.VariableWithValue("weights", tensors.FromFlatDataAndDimensions(ws[i], d[0], d[1])).NodeValue(x)
			b := l.VariableWithValue("biases", tensors.FromFlatDataAndDimensions(bs[i], d[1])).NodeValue(x)
			x = Add(MatMul(x, w), ExpandLeftToRank(b, 2))
			if i < len(dims)-1 {
				x = Tanh(x)
			}
		}
		return []*Node{x}
	}
	store := model.NewStore()
	opt := optimizer.Adam().LearningRate(1e-2).Done()
	trainer := train.NewTrainer(backend, store, modelFn, loss.SparseCategoricalCrossEntropyLogits, opt, nil, nil)
	var losses []float64
	var times []time.Duration
	for range *steps {
		x, y := data() // the trainer takes (and frees) the batch's tensors
		start := time.Now()
		metrics, err := trainer.TrainStep(train.Batch{Inputs: []*tensors.Tensor{x}, Labels: []*tensors.Tensor{y}})
		if err != nil {
			return nil, 0, err
		}
		l := metrics[0].Value().(float32)
		times = append(times, time.Since(start))
		losses = append(losses, float64(l))
	}
	return losses, median(times[1:]), nil
}

func median(ts []time.Duration) time.Duration {
	if len(ts) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ts...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s[len(s)/2]
}

func main() {
	flag.Parse()
	goLoss, goT, err := trainOn("go")
	if err != nil {
		fmt.Fprintln(os.Stderr, "go backend:", err)
		os.Exit(2)
	}
	stLoss, stT, err := trainOn("stela")
	if err != nil {
		fmt.Fprintln(os.Stderr, "stela backend:", err)
		os.Exit(2)
	}
	worst := 0.0
	for i := range goLoss {
		d := math.Abs(goLoss[i]-stLoss[i]) / math.Max(math.Abs(goLoss[i]), 1e-12)
		worst = math.Max(worst, d)
		if i%10 == 0 || i == len(goLoss)-1 {
			fmt.Printf("step %3d  loss go %.6f  stela %.6f\n", i, goLoss[i], stLoss[i])
		}
	}
	fmt.Printf("largest relative loss difference %.2e over %d steps (tolerance %.0e)\n", worst, len(goLoss), *tol)
	fmt.Printf("median train step: go %v, stela %v\n", goT, stT)
	if worst > *tol || goLoss[len(goLoss)-1] >= goLoss[0] {
		fmt.Println("FAIL")
		os.Exit(1)
	}
	fmt.Println("PASS")
}
