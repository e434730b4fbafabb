package ir

import "fmt"

// evalSort sorts every row of the operands along the dimension (a row: all
// the other indices fixed) by the comparator region, evaluated on scalars
// as reduce's body is, and permutes every operand alike.
//
// The sort is the bottom-up merge sort of the CPU plugin
// (pjrt/cpu/codegen/sort.go), step for step: runs of width 1, 2, 4, ...
// are merged, and a merge takes the right run's element only when the
// comparator says it goes strictly before the left run's. That is stable,
// for is_stable = false too (the spec leaves the order of equivalent
// elements open there; one deterministic order is the useful choice), and
// it ends after n·⌈log2 n⌉ comparisons with a permutation whatever the
// comparator answers: a comparator that is not a strict weak order (one
// that says a < b and b < a) gives some permutation of the row, the same
// one the plugin gives, and no crash.
func evalSort(in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	a, err := sxAttr[SortAttr](in)
	if err != nil {
		return nil, err
	}
	if err := sxArgs(args, 1); err != nil {
		return nil, err
	}
	if len(in.Regions) != 1 || in.Regions[0] == nil {
		return nil, fmt.Errorf("want one comparator region")
	}
	cmp := in.Regions[0]
	shape := args[0].Type.Shape
	for k, x := range args {
		if !ShapeEqual(x.Type.Shape, shape) {
			return nil, fmt.Errorf("operand #%d has type %v, want the shape of %v", k, x.Type, args[0].Type)
		}
		if err := sxCheckResult(in, k, x.Type); err != nil {
			return nil, err
		}
	}
	if a.Dim < 0 || a.Dim >= len(shape) {
		return nil, fmt.Errorf("dim %d is out of range for rank %d", a.Dim, len(shape))
	}
	if len(in.Results) != len(args) {
		return nil, fmt.Errorf("internal error: instruction has %d results, want %d", len(in.Results), len(args))
	}
	size := shape[a.Dim]
	if size <= 1 || args[0].Type.NumElements() == 0 {
		return args, nil // nothing moves; results may share operands' storage
	}
	n := len(args)
	results := make([]*Literal, n)
	copiers := make([]sxCopier, n)
	for k, x := range args {
		results[k] = Zeros(x.Type)
		copiers[k] = sxNewCopier(results[k], x)
	}
	stride := Strides(shape)[a.Dim]
	rows := append([]int{}, shape...)
	rows[a.Dim] = 1
	xs := Strides(shape)

	// elems[e][k] is element e of the row of operand k as a scalar, made
	// once per row; cargs is the comparator's argument list.
	elems := make([][]*Literal, size)
	for e := range elems {
		elems[e] = make([]*Literal, n)
	}
	cargs := make([]*Literal, 2*n)
	// before reports whether row element p goes strictly before q.
	before := func(p, q int) (bool, error) {
		for k := range n {
			cargs[2*k], cargs[2*k+1] = elems[p][k], elems[q][k]
		}
		res, err := sxCall("comparator", cmp, cargs, 1)
		if err != nil {
			return false, err
		}
		b, ok := res[0].Data.([]bool)
		if !ok || res[0].Type.Rank() != 0 {
			return false, fmt.Errorf("comparator returns %v, want i1[]", res[0].Type)
		}
		return b[0], nil
	}
	perm := make([]int, 2*size)
	err = sxEach(rows, func(idx []int) error {
		base := sxOffset(idx, xs)
		for e := range size {
			for k, x := range args {
				elems[e][k] = sxScalarAt(x, base+e*stride)
			}
		}
		src, err := sxMergeSort(perm, size, before)
		if err != nil {
			return err
		}
		for e := range size {
			from, to := base+perm[src+e]*stride, base+e*stride
			for k := range n {
				copiers[k].copy(to, from)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return results, nil
}

// sxMergeSort sorts 0..size-1 by before in the buffer perm (2·size long)
// and returns the offset in perm where the sorted order starts. It merges
// as the CPU plugin does (see evalSort), calling before only where both
// runs still have elements: the plugin's extra comparisons past the end of
// a run do not change its choice.
func sxMergeSort(perm []int, size int, before func(p, q int) (bool, error)) (int, error) {
	for i := range size {
		perm[i] = i
	}
	src := 0
	for w := 1; w < size; w *= 2 {
		dst := size - src
		for lo := 0; lo < size; lo += 2 * w {
			mid, hi := min(lo+w, size), min(lo+2*w, size)
			i, j := lo, mid
			for k := lo; k < hi; k++ {
				right := j < hi
				if right && i < mid {
					b, err := before(perm[src+j], perm[src+i])
					if err != nil {
						return 0, err
					}
					right = b
				}
				if right {
					perm[dst+k] = perm[src+j]
					j++
				} else {
					perm[dst+k] = perm[src+i]
					i++
				}
			}
		}
		src = dst
	}
	return src, nil
}
