package optim_test

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/optim"
	"github.com/stela-ml/stela/frontend/safetensors"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/frontend/tree"
	"github.com/stela-ml/stela/ir"
)

func factors(t *testing.T, s optim.Schedule, n int) []float64 {
	t.Helper()
	out := make([]float64, n)
	for i := range n {
		out[i] = float64(s.Factor(tensor.Scalar(int32(i)), ir.F32).Float32s()[0])
	}
	return out
}

// TestSchedules checks each schedule's factors against their formulas,
// computed here in float64.
func TestSchedules(t *testing.T) {
	cosine := func(steps, warmup int, final float64) func(int) float64 {
		return func(i int) float64 {
			if i < warmup {
				return float64(i) / float64(warmup)
			}
			d := math.Min(float64(i-warmup), float64(steps-warmup))
			return (1-final)*0.5*(1+math.Cos(math.Pi*d/float64(steps-warmup))) + final
		}
	}
	for _, c := range []struct {
		name  string
		s     optim.Schedule
		n     int
		want  func(int) float64
		wants []float64
	}{
		{name: "constant", s: optim.Constant{}, n: 3, wants: []float64{1, 1, 1}},
		{name: "warmup", s: optim.LinearWarmup{Steps: 4, Start: 0.2}, n: 7, wants: []float64{0.2, 0.4, 0.6, 0.8, 1, 1, 1}},
		{name: "warmup from 0", s: optim.LinearWarmup{Steps: 2}, n: 4, wants: []float64{0, 0.5, 1, 1}},
		{name: "cosine", s: optim.Cosine{Steps: 10}, n: 13, want: cosine(10, 0, 0)},
		{name: "warmup cosine", s: optim.Cosine{Steps: 10, Warmup: 3, Final: 0.1}, n: 13, want: cosine(10, 3, 0.1)},
		{name: "exponential", s: optim.Exponential{Rate: 0.5, Steps: 2}, n: 5, want: func(i int) float64 { return math.Pow(0.5, float64(i)/2) }},
		{name: "staircase", s: optim.Exponential{Rate: 0.5, Steps: 2, Staircase: true}, n: 5, wants: []float64{1, 1, 0.5, 0.5, 0.25}},
	} {
		got := factors(t, c.s, c.n)
		for i, g := range got {
			w := 0.0
			if c.want != nil {
				w = c.want(i)
			} else {
				w = c.wants[i]
			}
			if math.Abs(g-w) > 1e-6 {
				t.Errorf("%s: factor at step %d is %v, want %v", c.name, i, g, w)
			}
		}
	}
	for _, s := range []optim.Schedule{
		optim.LinearWarmup{Steps: -1}, optim.Cosine{Steps: 0}, optim.Cosine{Steps: 5, Warmup: 6},
		optim.Cosine{Steps: 5, Final: math.NaN()}, optim.Exponential{Rate: 0, Steps: 1}, optim.Exponential{Rate: 0.5},
	} {
		if s.Validate() == nil {
			t.Errorf("%#v: no error", s)
		}
	}
}

type model struct {
	Layers []layer
	Name   string // a static leaf
}

type layer struct{ W, B *tensor.Tensor }

func newModel() model {
	return model{
		Layers: []layer{
			{W: tensor.FromSlice([]float32{1, -2, 3, 0.5}, 2, 2), B: tensor.FromSlice([]float32{0.1, -0.1})},
			{W: tensor.FromSlice([]float32{0.3, 0.7}, 2, 1)}, // no bias
		},
		Name: "m",
	}
}

func (m model) loss(x *tensor.Tensor) *tensor.Tensor {
	for i, l := range m.Layers {
		x = tensor.MatMul(x, l.W)
		if l.B != nil {
			x = tensor.Add(x, l.B)
		}
		if i < len(m.Layers)-1 {
			x = tensor.Tanh(x)
		}
	}
	return tensor.Mean(tensor.Mul(x, x))
}

// TestCompiledTraining trains a small model with a compiled step (the
// model and the optimizer state are its arguments and results) and
// eagerly: the two agree, the loss falls, and the compiled step compiles
// once although its learning rate changes every step.
func TestCompiledTraining(t *testing.T) {
	x := tensor.FromSlice([]float32{1, 2, -1, 0.5, 0.3, -0.7}, 3, 2)
	opt := optim.NewAdamW(0.05)
	opt.Schedule = optim.Cosine{Steps: 20, Warmup: 2}
	step := func(m model, s optim.State[model]) (model, optim.State[model], *tensor.Tensor, error) {
		l, g, err := jit.ValueAndGradTree(func(m model) *tensor.Tensor { return m.loss(x) })(m)
		if err != nil {
			return m, s, nil, err
		}
		m, s, err = optim.Update(opt, m, g, s, optim.WithClipByGlobalNorm(1))
		return m, s, l, err
	}
	compiled := jit.Compile(step)
	me, mc := newModel(), newModel()
	se, err := optim.Init(opt, me)
	if err != nil {
		t.Fatal(err)
	}
	sc := se
	first := me.loss(x).Float32s()[0]
	var le, lc *tensor.Tensor
	for i := range 20 {
		if me, se, le, err = step(me, se); err != nil {
			t.Fatal(err)
		}
		misses := jit.CacheStats().Misses
		if mc, sc, lc, err = compiled(mc, sc); err != nil {
			t.Fatal(err)
		}
		if i > 0 && jit.CacheStats().Misses != misses {
			t.Errorf("step %d compiled the step again", i+1)
		}
		if d := math.Abs(float64(le.Float32s()[0] - lc.Float32s()[0])); d > 1e-5 {
			t.Errorf("step %d: eager loss %v, compiled %v", i+1, le.Float32s()[0], lc.Float32s()[0])
		}
	}
	last := me.loss(x).Float32s()[0]
	if !(last < first/2) {
		t.Errorf("the loss went from %v to %v", first, last)
	}
	if mc.Name != "m" || mc.Layers[1].B != nil || sc.Slots["m"].Layers[1].B != nil {
		t.Errorf("the static leaf or the absent bias changed: %+v", mc)
	}
	if sc.Step.Int32s()[0] != 20 {
		t.Errorf("step counter %v", sc.Step.Int32s())
	}

	// The state is a tree: it checkpoints with its paths.
	path := filepath.Join(t.TempDir(), "state.safetensors")
	if err := safetensors.Save(path, sc, nil); err != nil {
		t.Fatal(err)
	}
	f, err := safetensors.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := strings.Join(f.Names(), " "); got != "Slots.m.Layers.0.B Slots.m.Layers.0.W Slots.m.Layers.1.W Slots.v.Layers.0.B Slots.v.Layers.0.W Slots.v.Layers.1.W Step" {
		t.Errorf("checkpoint names: %s", got)
	}
	back, err := safetensors.Load(path, sc)
	if err != nil {
		t.Fatal(err)
	}
	if back.Step.Int32s()[0] != 20 || back.Slots["v"].Layers[0].W.Float32s()[1] != sc.Slots["v"].Layers[0].W.Float32s()[1] {
		t.Errorf("the loaded state differs")
	}
}

func TestInit(t *testing.T) {
	m := newModel()
	s, err := optim.Init(optim.SGD{LR: 0.1}, m)
	if err != nil || s.Slots != nil || s.Step.Int32s()[0] != 0 {
		t.Errorf("SGD without momentum: %+v, %v", s, err)
	}
	s, err = optim.Init(optim.NewAdam(0.1), m)
	if err != nil {
		t.Fatal(err)
	}
	leaves, _ := tree.FlattenWithPaths(s)
	var paths []string
	for _, l := range leaves {
		paths = append(paths, l.Path)
		if l.Path != "Step" && l.Tensor.Float32s()[0] != 0 {
			t.Errorf("%s is not zeros", l.Path)
		}
	}
	if got := strings.Join(paths, " "); got != "Step Slots.m.Layers.0.W Slots.m.Layers.0.B Slots.m.Layers.1.W Slots.v.Layers.0.W Slots.v.Layers.0.B Slots.v.Layers.1.W" {
		t.Errorf("Adam state paths: %s", got)
	}
}

func TestClipByGlobalNorm(t *testing.T) {
	g := layer{W: tensor.FromSlice([]float32{3, 0}, 2), B: tensor.FromSlice([]float32{4})}
	c, norm, err := optim.ClipByGlobalNorm(g, 1)
	if err != nil {
		t.Fatal(err)
	}
	if n := norm.Float32s()[0]; n != 5 {
		t.Errorf("norm %v, want 5", n)
	}
	k := float32(1 / (5 + 1e-6))
	if w, b := c.W.Float32s(), c.B.Float32s(); math.Abs(float64(w[0]-3*k)) > 1e-7 || w[1] != 0 || math.Abs(float64(b[0]-4*k)) > 1e-7 {
		t.Errorf("clipped to %v %v", w, b)
	}
	c, _, err = optim.ClipByGlobalNorm(g, 10)
	if err != nil || c.W.Float32s()[0] != 3 || c.B.Float32s()[0] != 4 {
		t.Errorf("a norm under the limit changed the gradients: %v %v, %v", c.W.Float32s(), c.B.Float32s(), err)
	}
	if _, _, err := optim.ClipByGlobalNorm(g, 0); err == nil || !strings.Contains(err.Error(), "max norm 0") {
		t.Errorf("max norm 0: %v", err)
	}
}

// TestUpdateErrors: trees that do not match and invalid configurations
// are errors naming the problem.
func TestUpdateErrors(t *testing.T) {
	m := newModel()
	adam := optim.NewAdam(0.1)
	s, err := optim.Init(adam, m)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := tree.ZerosLike(m)
	noBias := newModel()
	noBias.Layers[0].B = nil
	f64 := newModel()
	f64.Layers[0].B = tensor.Convert(f64.Layers[0].B, ir.F64)
	sgdState, _ := optim.Init(optim.SGD{LR: 0.1, Momentum: 0.9}, m)
	badStep := s
	badStep.Step = tensor.Scalar(float32(0))
	for _, c := range []struct {
		name string
		opt  optim.Optimizer
		g    model
		s    optim.State[model]
		want string
	}{
		{"missing grad", adam, noBias, s, "the gradients have no leaf at Layers.0.B"},
		{"grad type", adam, f64, s, "at Layers.0.B: the gradient is f64[2], the parameter f32[2]"},
		{"other optimizer's state", adam, g, sgdState, `the state has no slot "m"`},
		{"no state", adam, g, optim.State[model]{}, "the state has no Step: make it with optim.Init"},
		{"float step", adam, g, badStep, "the state's Step is f32[], want si32[]"},
		{"lr", optim.SGD{LR: -1}, g, s, "optim.SGD: learning rate -1"},
		{"nesterov", optim.SGD{LR: 1, Nesterov: true}, g, s, "Nesterov momentum needs a momentum"},
		{"betas", optim.Adam{LR: 1, B1: 1, B2: 0.9}, g, s, "optim.Adam: betas 1, 0.9: want each in [0, 1)"},
		{"schedule", optim.AdamW{LR: 1, Schedule: optim.Cosine{}}, g, s, "optim.AdamW: cosine: 0 steps"},
	} {
		if c.name == "lr" || c.name == "nesterov" {
			c.s, _ = optim.Init(c.opt, m)
		}
		_, _, err := optim.Update(c.opt, m, c.g, c.s)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "optim.Update: ") {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	if _, _, err := optim.Update(adam, m, g, s, optim.WithClipByGlobalNorm(-1)); err == nil || !strings.Contains(err.Error(), "max norm -1") {
		t.Errorf("clip -1: %v", err)
	}
}
