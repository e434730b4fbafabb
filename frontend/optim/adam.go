package optim

import (
	"fmt"
	"math"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Adam is Kingma and Ba's Adam with bias correction, torch.optim.Adam's
// update to the operation (and optax.adam's, whose eps sits in the same
// place):
//
//	g = grad + WeightDecay·param        (L2 regularization, as torch's Adam)
//	m = B1·m + (1−B1)·g
//	v = B2·v + (1−B2)·g²
//	param = param − lr/(1−B1ᵗ) · m / (√v/√(1−B2ᵗ) + Eps)
//
// where t is the update's number (1 for the first) and lr is LR·Schedule's
// factor. Its slots are "m" and "v". Make one with NewAdam, which sets
// PyTorch's defaults; in a literal, a zero B1, B2 or Eps is zero.
type Adam struct {
	LR          float64
	B1, B2      float64 // in [0, 1)
	Eps         float64
	WeightDecay float64
	Schedule    Schedule // nil: constant
}

// NewAdam returns Adam with learning rate lr and PyTorch's (and optax's)
// defaults: B1 0.9, B2 0.999, Eps 1e-8.
func NewAdam(lr float64) Adam { return Adam{LR: lr, B1: 0.9, B2: 0.999, Eps: 1e-8} }

// AdamW is Adam with decoupled weight decay (Loshchilov and Hutter),
// torch.optim.AdamW's update: the parameter decays by lr·WeightDecay of
// itself before Adam's step (without the L2 term in the gradient),
//
//	param = param·(1 − lr·WeightDecay)
//
// which is optax.adamw's update too. Make one with NewAdamW.
type AdamW struct {
	LR          float64
	B1, B2      float64
	Eps         float64
	WeightDecay float64
	Schedule    Schedule
}

// NewAdamW returns AdamW with learning rate lr and PyTorch's defaults: B1
// 0.9, B2 0.999, Eps 1e-8, WeightDecay 0.01.
func NewAdamW(lr float64) AdamW {
	return AdamW{LR: lr, B1: 0.9, B2: 0.999, Eps: 1e-8, WeightDecay: 0.01}
}

// Slots implements Optimizer: "m" and "v", the moving averages of the
// gradient and of its square.
func (Adam) Slots() []string { return []string{"m", "v"} }

// Slots implements Optimizer, as Adam's.
func (AdamW) Slots() []string { return []string{"m", "v"} }

// Step implements Optimizer.
func (o Adam) Step(count *tensor.Tensor) (Rule, error) {
	return adamStep("optim.Adam", o.LR, o.B1, o.B2, o.Eps, o.WeightDecay, false, o.Schedule, count)
}

// Step implements Optimizer.
func (o AdamW) Step(count *tensor.Tensor) (Rule, error) {
	return adamStep("optim.AdamW", o.LR, o.B1, o.B2, o.Eps, o.WeightDecay, true, o.Schedule, count)
}

func adamStep(name string, lr0, b1, b2, eps, wd float64, decoupled bool, sched Schedule, count *tensor.Tensor) (Rule, error) {
	switch {
	case !finite(lr0) || lr0 < 0:
		return nil, fmt.Errorf("%s: learning rate %v: want a finite number >= 0", name, lr0)
	case !(b1 >= 0 && b1 < 1) || !(b2 >= 0 && b2 < 1):
		return nil, fmt.Errorf("%s: betas %v, %v: want each in [0, 1)", name, b1, b2)
	case !finite(eps) || eps < 0:
		return nil, fmt.Errorf("%s: eps %v: want a finite number >= 0", name, eps)
	case !finite(wd) || wd < 0:
		return nil, fmt.Errorf("%s: weight decay %v: want a finite number >= 0", name, wd)
	}
	if sched != nil {
		if err := sched.Validate(); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	// Per element type: −lr/(1−B1ᵗ), √(1−B2ᵗ), and 1 − lr·WeightDecay.
	// 1 − βᵗ is computed as −expm1(t·ln β), with ln β from the host in
	// float64: 1 − pow(β, t) in f32 would lose most of its digits to
	// cancellation at small t (1 − 0.999f is 0.000999987, not 0.001),
	// where torch computes in float64.
	scalars := perType{make: func(ct ir.DType) []*tensor.Tensor {
		lr := lrAt(lr0, sched, count, ct)
		t := tensor.Add(tensor.Convert(count, ct), tensor.ScalarLike(lr, 1))
		bc := func(beta float64) *tensor.Tensor {
			return tensor.Neg(tensor.Expm1(tensor.Mul(t, tensor.ScalarLike(t, math.Log(beta)))))
		}
		negStep := tensor.Neg(tensor.Div(lr, bc(b1)))
		bc2sqrt := tensor.Sqrt(bc(b2))
		decay := tensor.Sub(tensor.ScalarLike(lr, 1), tensor.Mul(lr, tensor.ScalarLike(lr, wd)))
		return []*tensor.Tensor{negStep, bc2sqrt, decay}
	}}
	return func(p, g *tensor.Tensor, slots []*tensor.Tensor) (*tensor.Tensor, []*tensor.Tensor) {
		s := scalars.get(p.DType())
		negStep, bc2sqrt, decay := s[0], s[1], s[2]
		k := func(v float64) *tensor.Tensor { return tensor.ScalarLike(p, v) }
		if wd != 0 {
			if decoupled {
				p = tensor.Mul(p, decay)
			} else {
				g = tensor.Add(g, tensor.Mul(k(wd), p))
			}
		}
		// The operations in torch's order (mul_ then add_ with alpha;
		// addcmul_ and addcdiv_ multiply by the value first).
		m := tensor.Add(tensor.Mul(slots[0], k(b1)), tensor.Mul(k(1-b1), g))
		v := tensor.Add(tensor.Mul(slots[1], k(b2)), tensor.Mul(tensor.Mul(k(1-b2), g), g))
		denom := tensor.Add(tensor.Div(tensor.Sqrt(v), bc2sqrt), k(eps))
		p = tensor.Add(p, tensor.Div(tensor.Mul(negStep, m), denom))
		return p, []*tensor.Tensor{m, v}
	}, nil
}
