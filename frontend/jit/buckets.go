package jit

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/ir"
)

// BucketDim names a dynamic dimension for Buckets: axis Axis of the
// tensor argument at parameter index Arg. LengthArg is the index of a
// *tensor.Tensor parameter that receives the dimension's real size, as
// an s32 scalar, whatever the caller passes there (nil included); -1 for
// none.
type BucketDim struct {
	Arg, Axis int
	LengthArg int
}

// bucketing is one Buckets option.
type bucketing struct {
	dim   BucketDim
	sizes []int // sorted, distinct
}

// Buckets makes a dimension dynamic without a compile per size: a call
// pads the argument with zeros along the dimension, at its end, up to the
// smallest of sizes that holds it, and gives fn the real size through
// LengthArg, so that fn can mask the padding (a causal model ignores
// padding after the last token: it only has to read its result at
// length-1). So calls whose sizes range over 1..max compile at most one
// program per bucket (times their other signature differences). A size
// past the largest bucket is an error naming the argument, its size and
// the largest bucket. Buckets can be given several times, for several
// dimensions. STELA_LOG=recompile logs each call's bucket.
//
// A donated argument that is padded donates the padded copy (the caller's
// tensor stays valid), as one copied to another device does.
func Buckets(dim BucketDim, sizes ...int) Option {
	s := slices.Clone(sizes)
	slices.Sort(s)
	s = slices.Compact(s)
	return func(c *compileConfig) { c.buckets = append(c.buckets, bucketing{dim, s}) }
}

// checkBuckets checks the Buckets options against fn's parameters.
func (c *compiledFunc) checkBuckets() error {
	for _, b := range c.cfg.buckets {
		d := b.dim
		if len(b.sizes) == 0 || b.sizes[0] < 1 {
			return fmt.Errorf("Buckets(%+v, %v): want one or more positive sizes", d, b.sizes)
		}
		if d.Arg < 0 || d.Arg >= c.ft.NumIn() || c.ft.In(d.Arg) != tensorType {
			return fmt.Errorf("Buckets: Arg %d is not a *tensor.Tensor parameter of fn (%v)", d.Arg, c.ft)
		}
		if d.Axis < 0 {
			return fmt.Errorf("Buckets: Axis %d is negative", d.Axis)
		}
		if d.LengthArg >= 0 && (d.LengthArg >= c.ft.NumIn() || c.ft.In(d.LengthArg) != tensorType || d.LengthArg == d.Arg) {
			return fmt.Errorf("Buckets: LengthArg %d is not a *tensor.Tensor parameter of fn other than Arg (%v); -1 for none", d.LengthArg, c.ft)
		}
	}
	return nil
}

// bucket pads the call's bucketed arguments and fills their length
// arguments. It returns in itself when there is nothing to do.
func (c *compiledFunc) bucket(in []reflect.Value) ([]reflect.Value, error) {
	if len(c.cfg.buckets) == 0 {
		return in, nil
	}
	in = slices.Clone(in)
	for _, b := range c.cfg.buckets {
		d := b.dim
		x, _ := in[d.Arg].Interface().(*tensor.Tensor)
		if x == nil {
			return nil, fmt.Errorf("argument #%d is nil", d.Arg)
		}
		if d.Axis >= x.Rank() {
			return nil, fmt.Errorf("argument #%d is %v: it has no axis %d to bucket", d.Arg, x.Type(), d.Axis)
		}
		n := x.Shape()[d.Axis]
		i, _ := slices.BinarySearch(b.sizes, n)
		if i == len(b.sizes) {
			return nil, fmt.Errorf("argument #%d is %v: its axis %d (%d) is past the largest bucket, %d", d.Arg, x.Type(), d.Axis, n, b.sizes[len(b.sizes)-1])
		}
		size := b.sizes[i]
		if env.Log().Recompile {
			fmt.Fprintf(logOut(), "stela: jit @%s: argument #%d axis %d is %d: bucket %d (of %v) at %v\n", c.cfg.name, d.Arg, d.Axis, n, size, b.sizes, ir.CallerLoc())
		}
		if size > n && !x.Traced() {
			high := make([]int, x.Rank())
			high[d.Axis] = size - n
			var padded *tensor.Tensor
			if err := tensor.Catch(func() {
				padded = tensor.Pad(x, tensor.ScalarLike(x, 0), make([]int, x.Rank()), high, nil)
			}); err != nil {
				return nil, fmt.Errorf("argument #%d: padding it to bucket %d: %w", d.Arg, size, err)
			}
			in[d.Arg] = reflect.ValueOf(padded)
		}
		if d.LengthArg >= 0 {
			dev := x.Buffer().Device()
			if x.Traced() {
				dev = tensor.DefaultDevice()
			}
			buf, err := dev.Put(&ir.Literal{Type: ir.Scalar(ir.S32), Data: []int32{int32(n)}})
			if err != nil {
				return nil, fmt.Errorf("argument #%d: the length for bucket %d: %w", d.LengthArg, size, err)
			}
			in[d.LengthArg] = reflect.ValueOf(tensor.FromResult(buf, false))
		}
	}
	return in, nil
}
