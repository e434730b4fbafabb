package tensor

import (
	"fmt"
)

// Placement: where a computation runs, and which of its inputs move.
//
// A concrete tensor is committed to its device when the user put it there
// (To, FromBuffer) or when it was computed from a committed tensor; a
// tensor made without naming a device (FromSlice, Scalar, Zeros, ...,
// results of computations on uncommitted inputs only) is uncommitted.
// This is JAX's rule, and it serves the same purpose: a tensor the user
// placed stays where it is put, and everything else follows it.
//
//  1. If some inputs are committed, they must all be on one device D
//     (else it is an error naming both devices); the computation runs on
//     D, and uncommitted inputs elsewhere are copied to D.
//  2. Otherwise, if all inputs are on one device, it runs there.
//  3. Otherwise (uncommitted tensors made before SetDefaultDevice changed
//     the default) it runs on the default device, and the inputs elsewhere
//     are copied there.
//
// The results are committed when some input was. The rule is the same for
// eager ops and for jit-compiled functions, whose inputs are their
// arguments and the tensors they close over; jit copies a closed-over
// tensor once per compiled signature, and arguments on every call.

// Placement decides where a computation over the concrete tensors ts runs,
// by the rule above, and whether its results are committed. name(i)
// describes ts[i] for the error of two committed inputs on two devices
// ("argument #0", "captured tensor #1"); it is called only then. Without
// tensors the computation runs on the default device.
func Placement(ts []*Tensor, name func(i int) string) (dev Device, committed bool, err error) {
	var first Device // the device of ts[0]
	same := true
	cf := -1 // the first committed tensor
	for i, t := range ts {
		d := t.buf.Device()
		if i == 0 {
			first = d
		} else if d != first {
			same = false
		}
		if !t.Committed() {
			continue
		}
		if cf < 0 {
			cf = i
			continue
		}
		if c := ts[cf].buf.Device(); d != c {
			return nil, false, fmt.Errorf("%s is committed to device %s and %s to device %s: copy one to the other's device with To", name(cf), c.Name(), name(i), d.Name())
		}
	}
	switch {
	case cf >= 0:
		return ts[cf].buf.Device(), true, nil
	case first != nil && same:
		return first, false, nil
	}
	return DefaultDevice(), false, nil
}

// MoveTo returns ts with each tensor that is not on dev replaced by an
// uncommitted copy on dev (ts itself when none moves). name(i) describes
// ts[i] for the error of a copy that fails, as for Placement.
func MoveTo(ts []*Tensor, dev Device, name func(i int) string) ([]*Tensor, error) {
	out, copied := ts, false
	for i, t := range ts {
		if t.buf.Device() == dev {
			continue
		}
		b, err := copyBuffer(t.buf, dev)
		if err != nil {
			return nil, fmt.Errorf("copying %s from %s to %s: %w", name(i), t.buf.Device().Name(), dev.Name(), err)
		}
		if !copied {
			out, copied = append([]*Tensor(nil), ts...), true
		}
		out[i] = &Tensor{typ: t.typ, buf: b, meta: t.weakOnly()}
	}
	return out, nil
}

// eagerPlace is Placement for an eager op, and the operands moved there.
// like places ops without operands (constants, iota). The common case, all
// operands on one device, costs one pass over them.
func eagerPlace(like *Tensor, args []*Tensor) (Device, bool, []*Tensor, error) {
	if len(args) == 0 {
		if like != nil && like.buf != nil {
			return like.buf.Device(), like.Committed(), args, nil
		}
		return DefaultDevice(), false, args, nil
	}
	dev := args[0].buf.Device()
	committed := false
	for _, a := range args {
		if a.buf.Device() != dev {
			return eagerPlaceMixed(args)
		}
		committed = committed || a.Committed()
	}
	return dev, committed, args, nil
}

func eagerPlaceMixed(args []*Tensor) (Device, bool, []*Tensor, error) {
	name := func(i int) string { return fmt.Sprintf("operand #%d", i) }
	dev, committed, err := Placement(args, name)
	if err != nil {
		return nil, false, nil, err
	}
	moved, err := MoveTo(args, dev, name)
	return dev, committed, moved, err
}
