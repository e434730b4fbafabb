package ir

// Reductions a step at a time over all result elements at once.
//
// reduce and reduce_window fold each result element's inputs through a
// scalar body region, one call per input element: sequential in the
// input's row-major order, as eval_structural_compute.go defines it. When
// the body is made of elementwise ops only (add, maximum, compare, select,
// ...), the evaluator instead runs step s of every result element's fold
// in one call of a lifted body, whose values are vectors with one element
// per result element. An elementwise op's result element i depends only
// on its operands' elements i, so element i of the lifted body's results
// is exactly what the scalar body computes on the i-th arguments, and each
// result element still folds its inputs in the same order. What changes
// is only how many calls it takes: one per step instead of one per step
// and result element.

// sxLiftRegion is sxLift, reached through a variable set in init for the
// reason sxEval is: sxLift builds instructions, which consults the op
// table, which refers to the rules that call it.
var sxLiftRegion func(r *Func, n int) (*Func, bool)

func init() { sxLiftRegion = sxLift }

// sxLift returns a copy of the scalar region r in which every parameter
// and value is a vector of n elements: each elementwise op applies to the
// vectors as it is, and each constant is broadcast. ok is false when r
// has a value that is not a scalar or an op that is neither elementwise
// nor a constant (or has regions); such a region is called element by
// element.
func sxLift(r *Func, n int) (lifted *Func, ok bool) {
	f := NewFunc(r.Name)
	vals := make(map[*Value]*Value, len(r.Params)+len(r.Body))
	for _, p := range r.Params {
		if p.Type.Rank() != 0 {
			return nil, false
		}
		vals[p] = f.AddParam(TensorOf(p.Type.DType, n), UnknownLoc)
	}
	vec := []int{n}
	for _, in := range r.Body {
		if in == nil || len(in.Regions) > 0 {
			return nil, false
		}
		for _, v := range in.Results {
			if v.Type.Rank() != 0 {
				return nil, false
			}
		}
		info := in.Op.Info()
		switch {
		case in.Op == OpConstant && len(in.Results) == 1:
			c, err := f.Emit1(UnknownLoc, OpConstant, nil, in.Attr)
			if err != nil {
				return nil, false
			}
			b, err := f.Emit1(UnknownLoc, OpBroadcastInDim, []*Value{c}, BroadcastInDimAttr{Shape: vec, Dims: []int{}})
			if err != nil {
				return nil, false
			}
			vals[in.Results[0]] = b
		case info != nil && info.Has(Elementwise):
			args := make([]*Value, len(in.Args))
			for i, a := range in.Args {
				if args[i] = vals[a]; args[i] == nil {
					return nil, false
				}
			}
			rs, err := f.Emit(UnknownLoc, in.Op, args, in.Attr)
			if err != nil || len(rs) != len(in.Results) {
				return nil, false
			}
			for i, v := range in.Results {
				vals[v] = rs[i]
			}
		default:
			return nil, false
		}
	}
	res := make([]*Value, len(r.Results))
	for i, v := range r.Results {
		if v == nil || v.Type.Rank() != 0 || vals[v] == nil {
			return nil, false
		}
		res[i] = vals[v]
	}
	f.Return(res...)
	return f, true
}

// sxGather returns the vector of l's elements at base+offs[i]; a negative
// offset takes fill's one element instead (fill has l's element type).
func sxGather(l *Literal, offs []int, base int, fill *Literal) *Literal {
	t := TensorOf(l.Type.DType, len(offs))
	var data any
	switch d := l.Data.(type) {
	case []bool:
		data = sxGatherData(d, offs, base, fill)
	case []int8:
		data = sxGatherData(d, offs, base, fill)
	case []int16:
		data = sxGatherData(d, offs, base, fill)
	case []int32:
		data = sxGatherData(d, offs, base, fill)
	case []int64:
		data = sxGatherData(d, offs, base, fill)
	case []uint8:
		data = sxGatherData(d, offs, base, fill)
	case []uint16:
		data = sxGatherData(d, offs, base, fill)
	case []uint32:
		data = sxGatherData(d, offs, base, fill)
	case []uint64:
		data = sxGatherData(d, offs, base, fill)
	case []Float16:
		data = sxGatherData(d, offs, base, fill)
	case []BFloat16:
		data = sxGatherData(d, offs, base, fill)
	case []Int2:
		data = sxGatherData(d, offs, base, fill)
	case []Int4:
		data = sxGatherData(d, offs, base, fill)
	case []Uint2:
		data = sxGatherData(d, offs, base, fill)
	case []Uint4:
		data = sxGatherData(d, offs, base, fill)
	case []Float8E4M3FN:
		data = sxGatherData(d, offs, base, fill)
	case []Float8E5M2:
		data = sxGatherData(d, offs, base, fill)
	case []Float8E4M3FNUZ:
		data = sxGatherData(d, offs, base, fill)
	case []Float8E5M2FNUZ:
		data = sxGatherData(d, offs, base, fill)
	case []Float8E4M3B11FNUZ:
		data = sxGatherData(d, offs, base, fill)
	case []Float8E4M3:
		data = sxGatherData(d, offs, base, fill)
	case []Float8E3M4:
		data = sxGatherData(d, offs, base, fill)
	case []Float8E8M0FNU:
		data = sxGatherData(d, offs, base, fill)
	case []Float6E2M3FN:
		data = sxGatherData(d, offs, base, fill)
	case []Float6E3M2FN:
		data = sxGatherData(d, offs, base, fill)
	case []Float4E2M1FN:
		data = sxGatherData(d, offs, base, fill)
	case []float32:
		data = sxGatherData(d, offs, base, fill)
	case []float64:
		data = sxGatherData(d, offs, base, fill)
	case []complex64:
		data = sxGatherData(d, offs, base, fill)
	case []complex128:
		data = sxGatherData(d, offs, base, fill)
	default:
		panic("gather from literal data of type " + t.String())
	}
	return &Literal{Type: t, Data: data}
}

func sxGatherData[T any](src []T, offs []int, base int, fill *Literal) []T {
	out := make([]T, len(offs))
	for i, o := range offs {
		if o < 0 {
			out[i] = fill.Data.([]T)[0]
		} else {
			out[i] = src[base+o]
		}
	}
	return out
}

// sxFoldLifted runs the fold of every result element at once: accs
// starts as the init values broadcast to one per result element, and
// each step calls the lifted body on (accs, step(s)) as sxCall calls the
// scalar body, converting arguments to the parameters' element types. It
// returns the final accumulators converted into the results' element
// types, in place of the zero results.
func sxFoldLifted(body *Func, results, inits []*Literal, steps int, step func(s int) []*Literal) error {
	n, p := len(inits), results[0].Type.NumElements()
	zeros := make([]int, p)
	accs := make([]*Literal, n)
	for k, init := range inits {
		accs[k] = sxGather(init, zeros, 0, nil)
	}
	bargs := make([]*Literal, 2*n)
	for s := range steps {
		copy(bargs, accs)
		copy(bargs[n:], step(s))
		outs, err := sxCall("body", body, bargs, n)
		if err != nil {
			return err
		}
		copy(accs, outs)
	}
	for k, acc := range accs {
		c, err := sxConvertTo(acc, results[k].Type.DType)
		if err != nil {
			return err
		}
		results[k] = &Literal{Type: results[k].Type, Data: c.Data}
	}
	return nil
}
