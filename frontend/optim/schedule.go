package optim

import (
	"fmt"
	"math"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Schedule scales an optimizer's learning rate with the step: the
// learning rate of the update after count updates is LR·Factor(count),
// as torch.optim.lr_scheduler.LambdaLR multiplies the base rate, and as
// optax's schedules do with the peak value 1. A nil Schedule is the
// constant factor 1.
//
// The factor is computed from the step counter inside the program (count
// is the optimizer state's si32 counter), so a compiled training step is
// one program for every step: no recompiles as the rate changes.
type Schedule interface {
	// Factor returns the factor after count updates (an si32 scalar, 0
	// for the first update) as a scalar of the float type dt.
	Factor(count *tensor.Tensor, dt ir.DType) *tensor.Tensor
	// Validate reports an invalid configuration.
	Validate() error
}

// lrAt returns lr·s.Factor(count) as a scalar of type dt.
func lrAt(lr float64, s Schedule, count *tensor.Tensor, dt ir.DType) *tensor.Tensor {
	if s == nil {
		s = Constant{}
	}
	f := s.Factor(count, dt)
	return tensor.Mul(f, tensor.ScalarLike(f, lr))
}

// Constant is the factor 1 at every step, the same as a nil Schedule.
type Constant struct{}

// Factor implements Schedule.
func (Constant) Factor(count *tensor.Tensor, dt ir.DType) *tensor.Tensor {
	return tensor.ScalarLike(steps(count, dt), 1)
}

// Validate implements Schedule.
func (Constant) Validate() error { return nil }

// LinearWarmup ramps the factor linearly from Start (at the first update)
// to 1 over Steps updates, then keeps it at 1: Start + (1−Start)·
// min(count/Steps, 1). optax.linear_schedule(Start, 1, Steps); a warmup
// from 0 (the default) makes the first update's learning rate 0, as
// optax's and Hugging Face's warmups do.
type LinearWarmup struct {
	Steps int
	Start float64
}

// Factor implements Schedule.
func (w LinearWarmup) Factor(count *tensor.Tensor, dt ir.DType) *tensor.Tensor {
	t := steps(count, dt)
	k := func(v float64) *tensor.Tensor { return tensor.ScalarLike(t, v) }
	if w.Steps <= 0 {
		return k(1)
	}
	frac := tensor.Minimum(tensor.Div(t, k(float64(w.Steps))), k(1))
	return tensor.Add(k(w.Start), tensor.Mul(k(1-w.Start), frac))
}

// Validate implements Schedule.
func (w LinearWarmup) Validate() error {
	if w.Steps < 0 || !finite(w.Start) {
		return fmt.Errorf("linear warmup: %d steps from %v: want steps >= 0 and a finite start", w.Steps, w.Start)
	}
	return nil
}

// Cosine warms the factor up linearly from 0 to 1 over Warmup updates,
// then decays it along a half cosine to Final at update Steps (Steps
// counts the warmup), and keeps it at Final after:
// optax.warmup_cosine_decay_schedule(0, 1, Warmup, Steps, Final).
// Without warmup the first factor is 1:
// optax.cosine_decay_schedule(1, Steps, alpha=Final), PyTorch's
// CosineAnnealingLR with eta_min = Final·LR.
type Cosine struct {
	Steps  int     // the updates the schedule spans, warmup included
	Warmup int     // the warmup updates (0: none)
	Final  float64 // the factor from update Steps on (0: decay to 0)
}

// Factor implements Schedule.
func (c Cosine) Factor(count *tensor.Tensor, dt ir.DType) *tensor.Tensor {
	t := steps(count, dt)
	full := func(v float64) *tensor.Tensor { return tensor.ScalarLike(t, v) }
	decay := max(c.Steps-c.Warmup, 1)
	d := tensor.Minimum(tensor.Maximum(tensor.Sub(t, full(float64(c.Warmup))), full(0)), full(float64(decay)))
	cos := tensor.Mul(full(0.5), tensor.Add(full(1), tensor.Cos(tensor.Mul(d, full(math.Pi/float64(decay))))))
	f := tensor.Add(tensor.Mul(full(1-c.Final), cos), full(c.Final))
	if c.Warmup > 0 {
		warm := tensor.Div(t, full(float64(c.Warmup)))
		f = tensor.Where(tensor.Less(t, full(float64(c.Warmup))), warm, f)
	}
	return f
}

// Validate implements Schedule.
func (c Cosine) Validate() error {
	if c.Steps < 1 || c.Warmup < 0 || c.Warmup > c.Steps || !finite(c.Final) {
		return fmt.Errorf("cosine: %d steps, %d of warmup, final %v: want steps >= 1, 0 <= warmup <= steps, a finite final factor", c.Steps, c.Warmup, c.Final)
	}
	return nil
}

// Exponential multiplies the factor by Rate every Steps updates:
// Rate^(count/Steps), or Rate^⌊count/Steps⌋ with Staircase.
// optax.exponential_decay(1, Steps, Rate, staircase=Staircase); with
// Steps 1, PyTorch's ExponentialLR(gamma=Rate).
type Exponential struct {
	Rate      float64
	Steps     int
	Staircase bool
}

// Factor implements Schedule.
func (e Exponential) Factor(count *tensor.Tensor, dt ir.DType) *tensor.Tensor {
	t := steps(count, dt)
	p := tensor.Div(t, tensor.ScalarLike(t, float64(max(e.Steps, 1))))
	if e.Staircase {
		p = tensor.Floor(p)
	}
	return tensor.Pow(tensor.ScalarLike(p, e.Rate), p)
}

// Validate implements Schedule.
func (e Exponential) Validate() error {
	if !(e.Rate > 0) || !finite(e.Rate) || e.Steps < 1 {
		return fmt.Errorf("exponential: rate %v every %d steps: want a positive rate and steps >= 1", e.Rate, e.Steps)
	}
	return nil
}

// steps is count as a scalar of dt.
func steps(count *tensor.Tensor, dt ir.DType) *tensor.Tensor { return tensor.Convert(count, dt) }

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
