package optim

import (
	"errors"
	"fmt"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/frontend/tree"
	"github.com/stela-ml/stela/ir"
)

// ClipByGlobalNorm scales the gradients down when their global norm (the
// 2-norm of all their floating-point elements together) exceeds maxNorm,
// and returns them with that norm (before clipping, an f32 scalar, f64
// when every gradient is f64). It is torch.nn.utils.clip_grad_norm_: every
// gradient is multiplied by min(maxNorm/(norm + 1e-6), 1). (optax's
// clip_by_global_norm divides by the norm itself, without the 1e-6, when
// it exceeds maxNorm; the two differ by a relative 1e-6/norm.) Leaves of
// other types pass through. It works eagerly and in compiled steps, and
// is Update's WithClipByGlobalNorm.
func ClipByGlobalNorm[P any](grads P, maxNorm float64) (P, *tensor.Tensor, error) {
	var zero P
	leaves, err := tree.Flatten(grads)
	if err != nil {
		return zero, nil, fmt.Errorf("optim.ClipByGlobalNorm: %w", err)
	}
	var clipped []*tensor.Tensor
	var norm *tensor.Tensor
	if perr := tensor.Catch(func() { clipped, norm, err = clip(leaves, maxNorm) }); perr != nil {
		err = perr
	}
	if err != nil {
		return zero, nil, fmt.Errorf("optim.ClipByGlobalNorm: %w", err)
	}
	out, err := tree.Unflatten(grads, clipped)
	if err != nil {
		return zero, nil, fmt.Errorf("optim.ClipByGlobalNorm: %w", err)
	}
	return out, norm, nil
}

// clip is ClipByGlobalNorm on a list of leaves.
func clip(gs []*tensor.Tensor, maxNorm float64) ([]*tensor.Tensor, *tensor.Tensor, error) {
	if !(maxNorm > 0) || !finite(maxNorm) {
		return nil, nil, fmt.Errorf("max norm %v: want a positive number", maxNorm)
	}
	ct := ir.F64
	var float []int
	for i, g := range gs {
		if ir.Differentiable(g.DType()) {
			if g.DType().IsComplex() {
				return nil, nil, errors.New("complex gradients are not supported")
			}
			float = append(float, i)
			if g.DType() != ir.F64 {
				ct = ir.F32
			}
		}
	}
	if len(float) == 0 {
		return nil, nil, errors.New("no floating-point gradients")
	}
	// As torch: the norm of the leaves' norms.
	var sq *tensor.Tensor
	for _, i := range float {
		g := gs[i]
		if g.DType() != ct {
			g = tensor.Convert(g, ct)
		}
		n := tensor.Sqrt(tensor.Sum(tensor.Mul(g, g)))
		if sq == nil {
			sq = tensor.Mul(n, n)
		} else {
			sq = tensor.Add(sq, tensor.Mul(n, n))
		}
	}
	norm := tensor.Sqrt(sq)
	coef := tensor.Minimum(tensor.Div(tensor.ScalarLike(norm, maxNorm), tensor.Add(norm, tensor.ScalarLike(norm, 1e-6))), tensor.ScalarLike(norm, 1))
	out := append([]*tensor.Tensor(nil), gs...)
	for _, i := range float {
		c := coef
		if gs[i].DType() != ct {
			c = tensor.Convert(coef, gs[i].DType())
		}
		out[i] = tensor.Mul(gs[i], c)
	}
	return out, norm, nil
}
