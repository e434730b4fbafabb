package optim

import (
	"fmt"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// SGD is stochastic gradient descent with optional momentum, Nesterov
// momentum, dampening and (L2) weight decay, torch.optim.SGD's update to
// the operation:
//
//	d = grad + WeightDecay·param
//	buf = d at the first update, else Momentum·buf + (1−Dampening)·d
//	d = d + Momentum·buf with Nesterov, else buf (when Momentum ≠ 0)
//	param = param − lr·d
//
// where lr is LR·Schedule's factor. With Dampening 0 it is also optax's
// sgd(lr, momentum, nesterov) after add_decayed_weights(WeightDecay). The
// zero value of each field is "off"; its one slot, "momentum", exists only
// with a Momentum.
type SGD struct {
	LR          float64
	Momentum    float64
	Dampening   float64
	Nesterov    bool
	WeightDecay float64
	Schedule    Schedule // nil: constant
}

// Slots implements Optimizer: "momentum" when Momentum is not 0.
func (o SGD) Slots() []string {
	if o.Momentum != 0 {
		return []string{"momentum"}
	}
	return nil
}

func (o SGD) validate() error {
	switch {
	case !finite(o.LR) || o.LR < 0:
		return fmt.Errorf("optim.SGD: learning rate %v: want a finite number >= 0", o.LR)
	case !finite(o.Momentum) || o.Momentum < 0:
		return fmt.Errorf("optim.SGD: momentum %v: want a finite number >= 0", o.Momentum)
	case !finite(o.Dampening):
		return fmt.Errorf("optim.SGD: dampening %v: want a finite number", o.Dampening)
	case !finite(o.WeightDecay) || o.WeightDecay < 0:
		return fmt.Errorf("optim.SGD: weight decay %v: want a finite number >= 0", o.WeightDecay)
	case o.Nesterov && (o.Momentum == 0 || o.Dampening != 0):
		return fmt.Errorf("optim.SGD: Nesterov momentum needs a momentum and zero dampening (as torch.optim.SGD)")
	}
	if o.Schedule != nil {
		if err := o.Schedule.Validate(); err != nil {
			return fmt.Errorf("optim.SGD: %w", err)
		}
	}
	return nil
}

// Step implements Optimizer.
func (o SGD) Step(count *tensor.Tensor) (Rule, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	// Per element type: the learning rate, and the factor of d in the
	// momentum update (1 at the first update, as torch starts the buffer
	// at d, else 1 − Dampening).
	scalars := perType{make: func(ct ir.DType) []*tensor.Tensor {
		lr := lrAt(o.LR, o.Schedule, count, ct)
		damp := tensor.ScalarLike(lr, 1-o.Dampening)
		if o.Dampening != 0 {
			damp = tensor.Where(tensor.Equal(count, tensor.ScalarLike(count, 0)), tensor.ScalarLike(lr, 1), damp)
		}
		return []*tensor.Tensor{lr, damp}
	}}
	return func(p, g *tensor.Tensor, slots []*tensor.Tensor) (*tensor.Tensor, []*tensor.Tensor) {
		s := scalars.get(p.DType())
		lr, damp := s[0], s[1]
		d := g
		if o.WeightDecay != 0 {
			d = tensor.Add(d, tensor.Mul(tensor.ScalarLike(p, o.WeightDecay), p))
		}
		if o.Momentum != 0 {
			// The buffer starts at zeros, so Momentum·0 + d is d at the
			// first update, exactly.
			step := d
			if o.Dampening != 0 {
				step = tensor.Mul(damp, d)
			}
			buf := tensor.Add(tensor.Mul(slots[0], tensor.ScalarLike(p, o.Momentum)), step)
			slots = []*tensor.Tensor{buf}
			if o.Nesterov {
				d = tensor.Add(d, tensor.Mul(tensor.ScalarLike(p, o.Momentum), buf))
			} else {
				d = buf
			}
		}
		return tensor.Sub(p, tensor.Mul(lr, d)), slots
	}, nil
}
