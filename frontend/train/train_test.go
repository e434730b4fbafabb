package train

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/datasets/mnist"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

func load(t *testing.T) (train, test *mnist.Set) {
	t.Helper()
	train, test, err := mnist.Load()
	if err != nil {
		t.Fatal(err)
	}
	return train, test
}

// hostCentroidCorrect classifies test by the nearest class mean of train,
// in float64 on the host, independently of Stela: what the harness must
// report for NearestCentroid.
func hostCentroidCorrect(train, test *mnist.Set) int {
	var sums [mnist.Classes][mnist.Pixels]float64
	var counts [mnist.Classes]float64
	for i := range train.Len() {
		y := train.Label(i)
		counts[y]++
		for j, v := range train.Image(i) {
			sums[y][j] += float64(v)
		}
	}
	for c := range sums {
		for j := range sums[c] {
			sums[c][j] /= counts[c]
		}
	}
	correct := 0
	for i := range test.Len() {
		x := test.Image(i)
		best, bestD := -1, math.Inf(1)
		for c := range sums {
			d := 0.0
			for j, v := range x {
				e := float64(v) - sums[c][j]
				d += e * e
			}
			if d < bestD {
				best, bestD = c, d
			}
		}
		if best == test.Label(i) {
			correct++
		}
	}
	return correct
}

// TestNearestCentroidOnMNIST runs the harness for one epoch of the
// nearest-centroid classifier on the CPU plugin (every training example
// once: batch 250 divides 60,000), with evaluations on the way: the test
// accuracy must be what the same classifier computed on the host in
// float64 scores (82.03%), the CSV must read back as the curve, and the PNG
// must be an image of the size asked for.
func TestNearestCentroidOnMNIST(t *testing.T) {
	train, test := load(t)
	if err := tensor.SetDefaultDevice("cpu"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var log bytes.Buffer
	m := NewNearestCentroid(mnist.Pixels, mnist.Classes)
	cfg := Config{
		Name: "centroid", Train: train, Test: test, Layout: mnist.Flat, OneHot: true,
		BatchSize: 250, Epochs: 1, Seed: 1, EvalEvery: 80, EvalExamples: 2000,
		Progress: &log, ProgressMode: "plain",
		CSV: filepath.Join(dir, "loss.csv"), PNG: filepath.Join(dir, "loss.png"), PNGWidth: 640, PNGHeight: 480,
	}
	res, err := Train(cfg, m.Step, m.Logits)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("test accuracy %.4f (%d/%d); %.0f examples/s after a first step of %v\n%s", res.TestAccuracy, res.Correct, res.Total, res.ExamplesPerSecond, res.FirstStep, log.String())
	want := hostCentroidCorrect(train, test)
	// f32 on the plugin against f64 here: a near tie may go the other way.
	if res.Total != 10000 || res.Steps != 240 || res.Epochs != 1 || abs(res.Correct-want) > 3 {
		t.Errorf("%d/%d correct after %d steps (%v epochs); the host's nearest centroid gets %d/10000", res.Correct, res.Total, res.Steps, res.Epochs, want)
	}
	if res.TestAccuracy < 0.81 || res.TestAccuracy > 0.83 {
		t.Errorf("test accuracy %.4f, want about 0.8203", res.TestAccuracy)
	}
	if !strings.Contains(log.String(), "centroid: step 1/240 (0%), loss ") || !strings.Contains(log.String(), "centroid: step 80: accuracy 0.") ||
		!strings.Contains(log.String(), "centroid: step 240/240 (100%), loss ") {
		t.Errorf("progress lines:\n%s", log.String())
	}

	f, err := os.Open(cfg.CSV)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	curve, err := ReadCSV(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(curve) != 240 || len(res.Curve) != 240 {
		t.Fatalf("the CSV holds %d points, the result %d; want 240", len(curve), len(res.Curve))
	}
	evals := 0
	for i, p := range curve {
		q := res.Curve[i]
		if p.Step != i+1 || p.Loss != q.Loss || !(p.Accuracy == q.Accuracy || math.IsNaN(p.Accuracy) && math.IsNaN(q.Accuracy)) {
			t.Fatalf("CSV point %d is %+v, the result's %+v", i, p, q)
		}
		if !(p.Loss > 0) {
			t.Errorf("step %d: loss %v", p.Step, p.Loss)
		}
		if !math.IsNaN(p.Accuracy) {
			evals++
		}
	}
	if evals != 3 || curve[239].Accuracy != res.TestAccuracy {
		t.Errorf("%d evaluations in the curve (want 80, 160 and the final), last accuracy %v", evals, curve[239].Accuracy)
	}
	// The loss falls as the centroids settle.
	if s := curve.MovingAverage(21); !(s[229] < s[10]) {
		t.Errorf("mean loss around step 230 (%v) is not below that around step 11 (%v)", s[229], s[10])
	}
	checkPNG(t, cfg.PNG, 640, 480)
}

func abs(x int) int { return max(x, -x) }

// checkPNG decodes a PNG file and checks its size.
func checkPNG(t *testing.T, path string, w, h int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if got := img.Bounds(); got != image.Rect(0, 0, w, h) {
		t.Errorf("%s is %v, want %d×%d", path, got, w, h)
	}
	// Something was drawn: not every pixel is the background.
	bg := img.At(0, 0)
	for y := range h {
		for x := range w {
			if img.At(x, y) != bg {
				return
			}
		}
	}
	t.Errorf("%s is blank", path)
}

// TestCurveFiles: the CSV round-trips exactly, missing accuracies
// included; PNGs of several sizes decode at their size, with and without
// the accuracy panel; bad sizes and bad CSVs are errors.
func TestCurveFiles(t *testing.T) {
	var c Curve
	for s := 1; s <= 500; s++ {
		p := Point{Step: s, Loss: 2.3 * math.Exp(-float64(s)/100) * (1 + 0.1*math.Sin(float64(s))), Accuracy: math.NaN()}
		if s%100 == 0 {
			p.Accuracy = 1 - 0.5*math.Exp(-float64(s)/150)
		}
		c = append(c, p)
	}
	var b bytes.Buffer
	if err := c.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "step,loss,test_accuracy\n1,") || !strings.Contains(b.String(), "\n2,") {
		t.Errorf("CSV starts %q", b.String()[:40])
	}
	back, err := ReadCSV(&b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range c {
		if back[i].Step != c[i].Step || back[i].Loss != c[i].Loss || !(back[i].Accuracy == c[i].Accuracy || math.IsNaN(back[i].Accuracy) && math.IsNaN(c[i].Accuracy)) {
			t.Fatalf("point %d read back as %+v, want %+v", i, back[i], c[i])
		}
	}
	for _, bad := range []string{"", "a,b,c\n", "step,loss,test_accuracy\n1,x,\n", "step,loss,test_accuracy\n1,2\n"} {
		if _, err := ReadCSV(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadCSV(%q): no error", bad)
		}
	}

	ma := Curve{{Loss: 1}, {Loss: 2}, {Loss: 6}, {Loss: 3}}.MovingAverage(3)
	if want := []float64{1.5, 3, 11.0 / 3, 4.5}; !slices.Equal(ma, want) {
		t.Errorf("MovingAverage(3) = %v, want %v", ma, want)
	}

	dir := t.TempDir()
	for _, tc := range []struct {
		w, h  int
		curve Curve
	}{{800, 500, c}, {333, 211, c}, {1200, 900, c[:99]}} {
		p := filepath.Join(dir, "c.png")
		if err := writeFile(p, func(w io.Writer) error { return tc.curve.WritePNG(w, tc.w, tc.h, "test") }); err != nil {
			t.Fatal(err)
		}
		checkPNG(t, p, tc.w, tc.h)
	}
	if err := c.WritePNG(&b, 50, 500, "x"); err == nil {
		t.Error("a 50-pixel-wide plot: no error")
	}
	if err := Curve(nil).WritePNG(&b, 500, 500, "x"); err == nil {
		t.Error("an empty curve: no error")
	}
}

// TestCorrect: argmax against labels, first on ties; NaNs, bad labels
// and logits of the wrong type or shape are errors.
func TestCorrect(t *testing.T) {
	if err := tensor.SetDefaultDevice("host"); err != nil {
		t.Fatal(err)
	}
	logits := tensor.FromSlice([]float32{
		0, 1, 0, // 1
		5, 5, 0, // tie: 0
		-3, -2, -1, // 2
		2, 0, 1, // 0
	}, 4, 3)
	if got, err := Correct(logits, []int32{1, 0, 2, 1}); err != nil || got != 3 {
		t.Errorf("Correct = %d, %v; want 3", got, err)
	}
	if got, _ := Correct(logits, []int32{1, 1, 2, 0}); got != 3 {
		t.Errorf("a tie counted for the second index: %d correct, want 3", got)
	}
	for _, tc := range []struct {
		logits *tensor.Tensor
		labels []int32
		want   string
	}{
		{logits, []int32{1, 0, 2}, "logits are f32[4,3], want f32[3, classes]"},
		{logits, []int32{1, 0, 3, 0}, "label 3 of example 2 is not among 3 classes"},
		{tensor.FromSlice([]float64{1, 2}, 1, 2), []int32{0}, "logits are f64[1,2], want f32[1, classes]"},
		{tensor.FromSlice([]float32{1, float32(math.NaN())}, 1, 2), []int32{0}, "logit 1 of example 0 is NaN"},
		{nil, nil, "no logits"},
	} {
		if _, err := Correct(tc.logits, tc.labels); err == nil || err.Error() != tc.want {
			t.Errorf("Correct: %v, want %s", err, tc.want)
		}
	}
}

// TestTrainErrors: a step's error, a panicking op in the step, a NaN
// loss and logits of the wrong shape stop the run with an error that
// says where; the curve so far is still written; bad configs are errors.
func TestTrainErrors(t *testing.T) {
	train, test := load(t)
	if err := tensor.SetDefaultDevice("host"); err != nil {
		t.Fatal(err)
	}
	small, _ := test.Slice(0, 100)
	dir := t.TempDir()
	base := Config{Train: small, Test: small, BatchSize: 10, Steps: 5, ProgressMode: "off", CSV: filepath.Join(dir, "c.csv")}
	goodEval := func(x *tensor.Tensor) (*tensor.Tensor, error) {
		return tensor.Zeros(ir.F32, x.Shape()[0], 10), nil
	}
	n := 0
	failing := func(x, y *tensor.Tensor) (float32, error) {
		n++
		if n == 3 {
			return 0, errors.New("out of memory")
		}
		return 1, nil
	}
	_, err := Train(base, failing, goodEval)
	if err == nil || err.Error() != "train: step 3: out of memory" {
		t.Errorf("a failing step: %v", err)
	}
	if b, _ := os.ReadFile(base.CSV); strings.Count(string(b), "\n") != 3 {
		t.Errorf("the CSV after a failure at step 3 holds %q, want the header and 2 steps", b)
	}
	badOp := func(x, y *tensor.Tensor) (float32, error) {
		tensor.Add(x, y) // f32[10,784] + si32[10]: an op error, as a panic
		return 1, nil
	}
	if _, err := Train(base, badOp, goodEval); err == nil || !strings.HasPrefix(err.Error(), "train: step 1: ") || !strings.Contains(err.Error(), "train_test.go:") {
		t.Errorf("a step whose op fails: %v, want the error located in this file", err)
	}
	nan := func(x, y *tensor.Tensor) (float32, error) { return float32(math.NaN()), nil }
	if _, err := Train(base, nan, goodEval); err == nil || err.Error() != "train: step 1: the loss is NaN" {
		t.Errorf("a NaN loss: %v", err)
	}
	ok := func(x, y *tensor.Tensor) (float32, error) { return 1, nil }
	wrongShape := func(x *tensor.Tensor) (*tensor.Tensor, error) { return tensor.Zeros(ir.F32, 10), nil }
	if _, err := Train(base, ok, wrongShape); err == nil || err.Error() != "train: evaluation after training: examples 0 to 99 of test[0:100]: logits are f32[10], want f32[100, classes]" {
		t.Errorf("logits of the wrong shape: %v", err)
	}
	// Batches have the layout asked for; labels or one-hot as asked.
	shapes := func(cfg Config, wantX, wantY string) {
		t.Helper()
		check := func(x, y *tensor.Tensor) (float32, error) {
			if x.Type().String() != wantX || y.Type().String() != wantY {
				return 0, errors.New("got " + x.Type().String() + " and " + y.Type().String())
			}
			return 1, nil
		}
		if _, err := Train(cfg, check, goodEval); err != nil {
			t.Errorf("%v", err)
		}
	}
	cfg := base
	cfg.CSV = ""
	shapes(cfg, "f32[10,784]", "si32[10]")
	cfg.Layout, cfg.OneHot = mnist.NHWC, true
	shapes(cfg, "f32[10,28,28,1]", "f32[10,10]")
	// Epochs: 2 epochs of 100 examples in batches of 30 are 2×3 steps.
	cfg.Steps, cfg.Epochs, cfg.BatchSize = 0, 2, 30
	res, err := Train(cfg, ok, goodEval)
	if err != nil || res.Steps != 6 || res.Epochs != 1.8 {
		t.Errorf("2 epochs: %v steps, %v epochs, %v; want 6 steps, 1.8 epochs", res.Steps, res.Epochs, err)
	}

	for _, tc := range []struct {
		mod  func(*Config)
		want string
	}{
		{func(c *Config) { c.BatchSize = 0 }, "train: batch size 0: want at least 1"},
		{func(c *Config) { c.Steps = 0 }, "train: 0 steps, 0 epochs: want a positive number of one"},
		{func(c *Config) { c.Epochs = 1 }, "train: both 5 steps and 1 epochs: want one"},
		{func(c *Config) { c.Test = nil }, "train: Config.Train and Config.Test must be set"},
		{func(c *Config) { c.BatchSize = 101 }, "train: mnist: test[0:100].Loader: batch size 101: want 1 to 100"},
		{func(c *Config) { c.ProgressMode = "loud" }, `train: progress mode "loud": want auto, on, plain or off`},
		{func(c *Config) { c.Train = train; c.Layout = 9 }, "train: mnist: train.Loader: unknown layout Layout(9)"},
	} {
		cfg := base
		tc.mod(&cfg)
		if _, err := Train(cfg, ok, goodEval); err == nil || err.Error() != tc.want {
			t.Errorf("Train: %v, want %s", err, tc.want)
		}
	}
}
