// Package optim is Stela's optimizers: SGD (momentum, Nesterov, weight
// decay), Adam and AdamW, learning-rate schedules, and gradient clipping,
// for parameter trees (frontend/tree) such as models made of frontend/nn
// layers.
//
// Go methods cannot have type parameters, so the design splits in two:
// an Optimizer (SGD, Adam, AdamW: plain config structs) is an update rule
// for one tensor, and the generic functions Init and Update walk the
// trees:
//
//	opt := optim.NewAdam(1e-3)
//	state, err := optim.Init(opt, model)       // optim.State[Model]
//	...
//	loss, grads, err := jit.ValueAndGradTree(lossFn)(model)
//	model, state, err = optim.Update(opt, model, grads, state)
//
// State[P] is itself a tree, the step counter and one tree of P's
// structure per slot (Adam's "m" and "v"), so a compiled training step
// takes and returns it like the model, and a checkpoint can hold it.
//
// The update formulas are PyTorch's (torch.optim.SGD, Adam, AdamW), in
// the same order of operations, and agree with optax's; the tests run the
// same steps in PyTorch and compare. Learning-rate schedules (Constant,
// LinearWarmup, Cosine, Exponential) are factors of the learning rate
// computed from the state's step counter inside the program, so a
// compiled step is compiled once, not once per learning rate.
// ClipByGlobalNorm (and Update's WithClipByGlobalNorm) is
// torch.nn.utils.clip_grad_norm_.
//
// Update returns an error, rather than panicking, when the trees do not
// match or a configuration is invalid; it names the path of the leaf.
package optim
