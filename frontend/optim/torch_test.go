package optim_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/optim"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/internal/torchbench"
	"github.com/stela-ml/stela/ir"
)

type jarr struct {
	Shape []int     `json:"shape"`
	Data  []float64 `json:"data"`
}

func toJ(t *tensor.Tensor) jarr {
	s := t.Shape()
	if s == nil {
		s = []int{}
	}
	return jarr{s, tensor.Convert(t, ir.F64).Float64s()}
}

// params is the tree the optimizers update: a matrix, a vector, a scalar,
// and an integer leaf that they must leave alone.
type params struct {
	W, B, S *tensor.Tensor
	Count   *tensor.Tensor // si32: not a parameter of the optimizer
}

func (p params) floats() []*tensor.Tensor { return []*tensor.Tensor{p.W, p.B, p.S} }

func randn(r *rand.Rand, shape ...int) *tensor.Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return tensor.FromSlice(v, shape...)
}

type torchOpt struct {
	Kind        string  `json:"kind"`
	LR          float64 `json:"lr"`
	Momentum    float64 `json:"momentum,omitempty"`
	Dampening   float64 `json:"dampening,omitempty"`
	Nesterov    bool    `json:"nesterov,omitempty"`
	WeightDecay float64 `json:"weight_decay,omitempty"`
	B1          float64 `json:"b1,omitempty"`
	B2          float64 `json:"b2,omitempty"`
	Eps         float64 `json:"eps"`
}

type torchSched struct {
	Kind   string  `json:"kind"`
	Steps  int     `json:"steps,omitempty"`
	Warmup int     `json:"warmup,omitempty"`
	Final  float64 `json:"final"`
	Start  float64 `json:"start,omitempty"`
	Rate   float64 `json:"rate,omitempty"`
}

type optCase struct {
	Name     string      `json:"name"`
	Opt      torchOpt    `json:"opt"`
	Schedule *torchSched `json:"schedule,omitempty"`
	Clip     float64     `json:"clip,omitempty"`
	Params   []jarr      `json:"params"`
	Grads    [][]jarr    `json:"grads"`
	opt      optim.Optimizer
}

type torchResult struct {
	Params [][]jarr          `json:"params"`
	Norms  []float64         `json:"norms"`
	State  map[string][]jarr `json:"state"`
}

// TestOptimizersMatchPyTorch runs 8 steps of each optimizer
// configuration, with schedules and clipping, on the same parameters and
// gradients in Stela (eagerly, and as one compiled step) and in PyTorch
// 1.13 (testdata/torch_optim.py, a PyTorch training loop), and compares
// the parameters after every step, the slots at the end and the clipping
// norms. They agree within 2 f32 ulps at the operands' magnitude (PyTorch
// fuses the multiply-add of its alpha arguments; Stela rounds each op);
// the test allows 4. Skips without a python3 that imports torch.
func TestOptimizersMatchPyTorch(t *testing.T) {
	py, err := torchbench.Python("")
	if err != nil {
		t.Skipf("no PyTorch to compare with: %v", err)
	}
	const steps = 8
	r := rand.New(rand.NewPCG(5, 5))
	p0 := params{W: randn(r, 3, 4), B: randn(r, 4), S: randn(r), Count: tensor.FromSlice([]int32{7})}
	grads := make([]params, steps)
	for i := range grads {
		grads[i] = params{W: randn(r, 3, 4), B: randn(r, 4), S: randn(r), Count: tensor.FromSlice([]int32{0})}
	}
	adam := optim.NewAdam(0.05)
	adamL2 := optim.Adam{LR: 0.02, B1: 0.8, B2: 0.99, Eps: 1e-6, WeightDecay: 0.1}
	adamw := optim.NewAdamW(0.05)
	adamw.WeightDecay = 0.1
	cases := []*optCase{
		{Name: "sgd", Opt: torchOpt{Kind: "sgd", LR: 0.1}, opt: optim.SGD{LR: 0.1}},
		{Name: "sgd_momentum", Opt: torchOpt{Kind: "sgd", LR: 0.1, Momentum: 0.9}, opt: optim.SGD{LR: 0.1, Momentum: 0.9}},
		{Name: "sgd_nesterov_decay", Opt: torchOpt{Kind: "sgd", LR: 0.05, Momentum: 0.9, Nesterov: true, WeightDecay: 0.01},
			opt: optim.SGD{LR: 0.05, Momentum: 0.9, Nesterov: true, WeightDecay: 0.01}},
		{Name: "sgd_dampening", Opt: torchOpt{Kind: "sgd", LR: 0.1, Momentum: 0.8, Dampening: 0.3, WeightDecay: 0.05},
			opt: optim.SGD{LR: 0.1, Momentum: 0.8, Dampening: 0.3, WeightDecay: 0.05}},
		{Name: "adam", Opt: torchOpt{Kind: "adam", LR: 0.05, B1: 0.9, B2: 0.999, Eps: 1e-8}, opt: adam},
		{Name: "adam_l2", Opt: torchOpt{Kind: "adam", LR: 0.02, B1: 0.8, B2: 0.99, Eps: 1e-6, WeightDecay: 0.1}, opt: adamL2},
		{Name: "adamw", Opt: torchOpt{Kind: "adamw", LR: 0.05, B1: 0.9, B2: 0.999, Eps: 1e-8, WeightDecay: 0.1}, opt: adamw},
	}
	// Schedules and clipping.
	cos := adamw
	cos.Schedule = optim.Cosine{Steps: steps, Final: 0.1}
	warm := optim.SGD{LR: 0.1, Momentum: 0.9, Schedule: optim.LinearWarmup{Steps: 3, Start: 0.25}}
	exp := adam
	exp.Schedule = optim.Exponential{Rate: 0.8, Steps: 1}
	wcos := adam
	wcos.Schedule = optim.Cosine{Steps: steps, Warmup: 3, Final: 0.2}
	cases = append(cases,
		&optCase{Name: "adamw_cosine", Opt: cases[6].Opt, Schedule: &torchSched{Kind: "cosine", Steps: steps, Final: 0.1}, opt: cos},
		&optCase{Name: "sgd_warmup", Opt: cases[1].Opt, Schedule: &torchSched{Kind: "warmup", Steps: 3, Start: 0.25}, opt: warm},
		&optCase{Name: "adam_exponential", Opt: cases[4].Opt, Schedule: &torchSched{Kind: "exponential", Rate: 0.8}, opt: exp},
		&optCase{Name: "adam_warmup_cosine", Opt: cases[4].Opt, Schedule: &torchSched{Kind: "warmup_cosine", Steps: steps, Warmup: 3, Final: 0.2}, opt: wcos},
		&optCase{Name: "adam_clipped", Opt: cases[4].Opt, Clip: 1.5, opt: adam},
		&optCase{Name: "sgd_clipped", Opt: cases[1].Opt, Clip: 1.5, opt: optim.SGD{LR: 0.1, Momentum: 0.9}},
	)
	for _, c := range cases {
		for _, p := range p0.floats() {
			c.Params = append(c.Params, toJ(p))
		}
		for _, g := range grads {
			var gs []jarr
			for _, x := range g.floats() {
				gs = append(gs, toJ(x))
			}
			c.Grads = append(c.Grads, gs)
		}
	}

	dir := t.TempDir()
	in, out := filepath.Join(dir, "cases.json"), filepath.Join(dir, "out.json")
	b, _ := json.Marshal(cases)
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if o, err := exec.Command(py, filepath.Join("testdata", "torch_optim.py"), in, out).CombinedOutput(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 3 {
			t.Skipf("torch is not importable: %s", o)
		}
		t.Fatalf("torch_optim.py: %v\n%s", err, o)
	}
	b, err = os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]torchResult
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}

	worstAll := 0.0
	for _, c := range cases {
		w := want[c.Name]
		var opts []optim.UpdateOption
		if c.Clip != 0 {
			opts = append(opts, optim.WithClipByGlobalNorm(c.Clip))
		}
		update := func(p params, g params, s optim.State[params]) (params, optim.State[params], error) {
			return optim.Update(c.opt, p, g, s, opts...)
		}
		for _, mode := range []string{"eager", "compiled"} {
			step := update
			if mode == "compiled" {
				step = jit.Compile(update)
			}
			p := p0
			s, err := optim.Init(c.opt, p)
			if err != nil {
				t.Fatal(err)
			}
			worst := 0.0 // in units of the f32 spacing at the value
			for i, g := range grads {
				if c.Clip != 0 {
					_, norm, err := optim.ClipByGlobalNorm(g, c.Clip)
					if err != nil {
						t.Fatal(err)
					}
					if d := math.Abs(float64(norm.Float32s()[0]) - w.Norms[i]); d > 1e-6*w.Norms[i] {
						t.Errorf("%s: step %d: global norm %v, PyTorch's %v", c.Name, i+1, norm.Float32s()[0], w.Norms[i])
					}
				}
				if p, s, err = step(p, g, s); err != nil {
					t.Fatalf("%s %s: step %d: %v", c.Name, mode, i+1, err)
				}
				for k, x := range p.floats() {
					worst = max(worst, compare(t, fmt.Sprintf("%s %s: step %d: param %d", c.Name, mode, i+1, k), x, w.Params[i][k]))
				}
			}
			for name, ws := range w.State {
				slot, ok := s.Slots[name]
				if !ok {
					t.Errorf("%s: no slot %q (PyTorch has it)", c.Name, name)
					continue
				}
				for k, x := range slot.floats() {
					worst = max(worst, compare(t, fmt.Sprintf("%s %s: slot %s %d", c.Name, mode, name, k), x, ws[k]))
				}
			}
			if len(w.State) != len(c.opt.Slots()) {
				t.Errorf("%s: slots %v, PyTorch's state has %d", c.Name, c.opt.Slots(), len(w.State))
			}
			if got := s.Step.Int32s()[0]; got != steps {
				t.Errorf("%s %s: state step %d, want %d", c.Name, mode, got, steps)
			}
			if got := p.Count.Int32s()[0]; got != 7 {
				t.Errorf("%s %s: the integer leaf changed to %d", c.Name, mode, got)
			}
			if testing.Verbose() {
				t.Logf("%s %s: at most %.2f f32 ulps from PyTorch", c.Name, mode, worst)
			}
			worstAll = max(worstAll, worst)
		}
	}
	t.Logf("every parameter and slot within %.2f f32 ulps of PyTorch's", worstAll)
}

// compare checks got against want within 4 f32 ulps at the larger of
// want's magnitude and 1, the magnitude of the operands (parameters and
// gradients are standard normal: a value near 0 is a difference of such
// numbers, and carries their rounding), and returns the largest distance
// in those ulps.
func compare(t *testing.T, what string, got *tensor.Tensor, want jarr) float64 {
	t.Helper()
	g := tensor.Convert(got, ir.F64).Float64s()
	if len(g) != len(want.Data) {
		t.Errorf("%s: %d elements, PyTorch has %d", what, len(g), len(want.Data))
		return math.Inf(1)
	}
	worst := 0.0
	for i := range g {
		ulp := ulp32(max(math.Abs(want.Data[i]), 1))
		d := math.Abs(g[i]-want.Data[i]) / ulp
		if !(d <= 4) {
			t.Errorf("%s: element %d is %.9g, PyTorch's %.9g (%.1f ulps)", what, i, g[i], want.Data[i], d)
			return d
		}
		worst = max(worst, d)
	}
	return worst
}

// ulp32 is the spacing of float32 values at |v|.
func ulp32(v float64) float64 {
	f := float32(math.Abs(v))
	return float64(math.Nextafter32(f, float32(math.Inf(1))) - f)
}
