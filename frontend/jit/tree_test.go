package jit_test

import (
	"math"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/jit"
	T "github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

type linear struct{ W, B *T.Tensor }

type model struct {
	Layers []linear
	Scale  float64 // a static leaf: part of the signature
	Steps  *T.Tensor
}

func (m model) forward(x *T.Tensor) *T.Tensor {
	for i, l := range m.Layers {
		x = T.Add(T.MatMul(x, l.W), l.B)
		if i < len(m.Layers)-1 {
			x = T.Tanh(x)
		}
	}
	return T.Mul(x, T.Scalar(m.Scale))
}

func newModel() model {
	return model{
		Layers: []linear{
			{W: T.FromSlice([]float64{0.5, -0.2, 0.1, 0.3, 0.7, -0.4}, 2, 3), B: f64s(0.1, 0, -0.1)},
			{W: T.FromSlice([]float64{0.2, -0.5, 0.4}, 3, 1), B: f64s(0.05)},
		},
		Scale: 2,
		Steps: T.FromSlice([]int32{0}),
	}
}

// Trees pass through jit.Compile as arguments and results, and
// ValueAndGradTree differentiates a loss with respect to one.
func TestTreeTraining(t *testing.T) {
	x := T.FromSlice([]float64{1, 2, -1, 0.5}, 2, 2)
	y := T.FromSlice([]float64{0.3, -0.2}, 2, 1)
	loss := func(x, y *T.Tensor) func(m model) *T.Tensor {
		return func(m model) *T.Tensor {
			d := T.Sub(m.forward(x), y)
			return T.Mean(T.Mul(d, d))
		}
	}
	step := func(m model, x, y *T.Tensor) (model, *T.Tensor, error) {
		l, g, err := jit.ValueAndGradTree(loss(x, y))(m)
		if err != nil {
			return model{}, nil, err
		}
		for i := range m.Layers {
			m.Layers[i].W = T.Sub(m.Layers[i].W, T.Mul(g.Layers[i].W, T.Scalar(0.1)))
			m.Layers[i].B = T.Sub(m.Layers[i].B, T.Mul(g.Layers[i].B, T.Scalar(0.1)))
		}
		if g.Steps.DType() != ir.S32 || !g.Steps.Traced() && g.Steps.Int32s()[0] != 0 {
			t.Errorf("integer leaf's gradient: %v", g.Steps)
		}
		m.Steps = T.Add(m.Steps, T.ScalarLike(m.Steps, 1))
		return m, l, nil
	}
	eager, compiled := newModel(), newModel()
	cstep := jit.Compile(step)
	var le, lc *T.Tensor
	for range 5 {
		var err error
		if eager, le, err = step(eager, x, y); err != nil {
			t.Fatal(err)
		}
		if compiled, lc, err = cstep(compiled, x, y); err != nil {
			t.Fatal(err)
		}
		near(t, "loss", lc, le.Float64s(), 1e-12)
	}
	near(t, "W0", compiled.Layers[0].W, eager.Layers[0].W.Float64s(), 1e-12)
	if compiled.Scale != 2 || compiled.Steps.Int32s()[0] != 5 {
		t.Errorf("static leaf %v, counter %v", compiled.Scale, compiled.Steps)
	}
	if s := jit.CacheStats(); s.Entries == 0 {
		t.Errorf("no cached signature")
	}
	// The loss went down.
	first := loss(x, y)(newModel()).Float64s()[0]
	if !(le.Float64s()[0] < first) || math.IsNaN(first) {
		t.Errorf("loss %v after 5 steps, %v before", le, first)
	}
}

// A changed static leaf of a tree is a new signature; STELA_LOG names it.
func TestTreeSignature(t *testing.T) {
	f := jit.Compile(func(m model, x *T.Tensor) *T.Tensor { return m.forward(x) })
	x := T.FromSlice([]float64{1, 2}, 1, 2)
	m := newModel()
	a := f(m, x).Float64s()[0]
	m.Scale = 3
	b := f(m, x).Float64s()[0]
	if math.Abs(b-1.5*a) > 1e-12 {
		t.Errorf("scale 3 gave %v, scale 2 gave %v", b, a)
	}
	_, _, err := jit.ValueAndGradTree(func(m model) *T.Tensor { return m.forward(x) })(m)
	if err == nil || !strings.Contains(err.Error(), "want a float scalar") {
		t.Errorf("non-scalar loss: %v", err)
	}
}

// A tree argument can be donated: its leaves' buffers become the results'.
func TestTreeDonate(t *testing.T) {
	step := jit.Compile(func(m model) model {
		for i := range m.Layers {
			m.Layers[i].W = T.Mul(m.Layers[i].W, T.Scalar(0.5))
		}
		return m
	}, jit.Donate(0))
	m := newModel()
	old := m.Layers[0].W
	m2 := step(m)
	near(t, "halved", m2.Layers[0].W, []float64{0.25, -0.1, 0.05, 0.15, 0.35, -0.2}, 0)
	if err := T.Catch(func() { old.Literal() }); err == nil || !strings.Contains(err.Error(), "donated") {
		t.Errorf("reading a donated leaf: %v", err)
	}
}
