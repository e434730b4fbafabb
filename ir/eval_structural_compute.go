package ir

import (
	"fmt"
	"slices"
)

// Contractions (dot_general, convolution) and reductions (reduce,
// reduce_window).
//
// Contractions accumulate in a domain chosen by the result element type,
// then round once into it:
//
//	floats   float64, rounded once to the result type (so an f16 result is
//	         the correctly rounded sum of exact products, whatever order a
//	         backend uses internally within f64's precision)
//	complex  complex128
//	integers uint64 arithmetic, which wraps modulo 2^64 and so, truncated,
//	         modulo 2^bits: two's-complement wrap-around for signed types
//	i1       or of ands, i.e. (number of true products) != 0
//
// Reductions evaluate their body region on scalars in plain sequential
// order, starting from the init values: the spec leaves the tree shape
// unspecified, and the sequential order is the one a reader can check.
//
// The loops here are the definitions. Large contractions take the blocked
// paths of eval_structural_blocked.go, and reductions whose body is
// elementwise fold every result element at once (eval_structural_lifted.go);
// both give the same results bit for bit.

// sxAccum is a running sum of products in the accumulation domain of a
// result element type.
type sxAccum struct {
	dt DType
	f  float64
	c  complex128
	u  uint64
	b  bool
}

// sxNewAccum checks that operands of types x and y can be multiplied and
// summed into a result of type r.
func sxNewAccum(x, y, r DType) (*sxAccum, error) {
	ok := false
	switch {
	case r.IsFloat():
		ok = !x.IsComplex() && !y.IsComplex()
	case r.IsComplex():
		ok = true
	case r.IsInteger():
		ok = (x.IsInteger() || x.IsBool()) && (y.IsInteger() || y.IsBool())
	case r.IsBool():
		ok = x.IsBool() && y.IsBool()
	}
	if !ok {
		return nil, fmt.Errorf("cannot accumulate %v × %v into %v", x, y, r)
	}
	return &sxAccum{dt: r}, nil
}

func (a *sxAccum) reset() { a.f, a.c, a.u, a.b = 0, 0, 0, false }

// mac adds x[i]*y[j]. The product is rounded to the accumulation type
// before it is added: the explicit conversion keeps the compiler from
// fusing the multiply and the add into one FMA, which Go allows on some
// machines and which would make the sum depend on the machine.
func (a *sxAccum) mac(x *Literal, i int, y *Literal, j int) {
	switch {
	case a.dt.IsFloat():
		a.f += float64(sxF64At(x, i) * sxF64At(y, j))
	case a.dt.IsComplex():
		a.c += complex128(sxC128At(x, i) * sxC128At(y, j))
	case a.dt.IsInteger():
		a.u += sxU64At(x, i) * sxU64At(y, j)
	default:
		a.b = a.b || (x.Data.([]bool)[i] && y.Data.([]bool)[j])
	}
}

// store rounds the sum into element i of l (of the accumulator's type).
func (a *sxAccum) store(l *Literal, i int) {
	switch d := l.Data.(type) {
	case []bool:
		d[i] = a.b
	case []int8:
		d[i] = int8(a.u)
	case []int16:
		d[i] = int16(a.u)
	case []int32:
		d[i] = int32(a.u)
	case []int64:
		d[i] = int64(a.u)
	case []uint8:
		d[i] = uint8(a.u)
	case []uint16:
		d[i] = uint16(a.u)
	case []uint32:
		d[i] = uint32(a.u)
	case []uint64:
		d[i] = a.u
	case []Float16:
		d[i] = Float16FromFloat64(a.f)
	case []BFloat16:
		d[i] = BFloat16FromFloat64(a.f)
	case []float32:
		d[i] = float32(a.f)
	case []float64:
		d[i] = a.f
	case []complex64:
		d[i] = complex64(a.c)
	case []complex128:
		d[i] = a.c
	default:
		if d := l.Type.DType; d.IsNarrowFloat() {
			l.SetElem(i, FromFloat64(d, a.f))
			return
		} else if d.IsNarrow() {
			l.SetElem(i, FromUint64(d, a.u))
			return
		}
		panic(fmt.Sprintf("accumulator store into %T", l.Data))
	}
}

// sxF64At reads element i of a real literal exactly as a float64 (every
// element type here but 64-bit integers beyond 2^53 converts exactly).
func sxF64At(l *Literal, i int) float64 {
	switch d := l.Data.(type) {
	case []bool:
		if d[i] {
			return 1
		}
		return 0
	case []int8:
		return float64(d[i])
	case []int16:
		return float64(d[i])
	case []int32:
		return float64(d[i])
	case []int64:
		return float64(d[i])
	case []uint8:
		return float64(d[i])
	case []uint16:
		return float64(d[i])
	case []uint32:
		return float64(d[i])
	case []uint64:
		return float64(d[i])
	case []Float16:
		return float64(d[i].Float32())
	case []BFloat16:
		return float64(d[i].Float32())
	case []float32:
		return float64(d[i])
	case []float64:
		return d[i]
	}
	if d := l.Type.DType; d.IsNarrow() {
		return ToFloat64(d, l.Elem(i))
	}
	panic(fmt.Sprintf("real read from %T", l.Data))
}

// sxC128At reads element i of any numeric literal as a complex128.
func sxC128At(l *Literal, i int) complex128 {
	switch d := l.Data.(type) {
	case []complex64:
		return complex128(d[i])
	case []complex128:
		return d[i]
	}
	return complex(sxF64At(l, i), 0)
}

// sxU64At reads element i of an integer or i1 literal as its two's-complement
// bits widened to 64 (sign-extended for signed types).
func sxU64At(l *Literal, i int) uint64 {
	switch d := l.Data.(type) {
	case []bool:
		if d[i] {
			return 1
		}
		return 0
	case []int8:
		return uint64(int64(d[i]))
	case []int16:
		return uint64(int64(d[i]))
	case []int32:
		return uint64(int64(d[i]))
	case []int64:
		return uint64(d[i])
	case []uint8:
		return uint64(d[i])
	case []uint16:
		return uint64(d[i])
	case []uint32:
		return uint64(d[i])
	case []uint64:
		return d[i]
	}
	if d := l.Type.DType; d.IsNarrow() {
		return uint64(ToInt64(d, l.Elem(i)))
	}
	panic(fmt.Sprintf("integer read from %T", l.Data))
}

func evalDotGeneral(in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	d, err := sxNewDot(in, args)
	if err != nil {
		return nil, err
	}
	if d.work() < sxBlockedMinWork {
		d.spec()
	} else {
		d.blocked()
	}
	return []*Literal{d.out}, nil
}

// sxNewDot checks a dot_general against its operands and makes its zero
// result.
func sxNewDot(in *Instr, args []*Literal) (*sxDot, error) {
	a, err := sxAttr[DotGeneralAttr](in)
	if err != nil {
		return nil, err
	}
	if err := sxArgs(args, 2); err != nil {
		return nil, err
	}
	lhs, rhs := args[0], args[1]
	lt, rt := lhs.Type, rhs.Type
	if len(a.LhsBatch) != len(a.RhsBatch) || len(a.LhsContract) != len(a.RhsContract) {
		return nil, fmt.Errorf("batch dims %v/%v or contracting dims %v/%v differ in length", a.LhsBatch, a.RhsBatch, a.LhsContract, a.RhsContract)
	}
	if err := sxDimsOK("lhs batch and contracting dims", slices.Concat(a.LhsBatch, a.LhsContract), lt.Rank()); err != nil {
		return nil, err
	}
	if err := sxDimsOK("rhs batch and contracting dims", slices.Concat(a.RhsBatch, a.RhsContract), rt.Rank()); err != nil {
		return nil, err
	}
	for k := range a.LhsBatch {
		if lt.Shape[a.LhsBatch[k]] != rt.Shape[a.RhsBatch[k]] {
			return nil, fmt.Errorf("batch dimension sizes differ: lhs %v dim %d, rhs %v dim %d", lt, a.LhsBatch[k], rt, a.RhsBatch[k])
		}
	}
	contract := make([]int, len(a.LhsContract))
	for k := range a.LhsContract {
		if lt.Shape[a.LhsContract[k]] != rt.Shape[a.RhsContract[k]] {
			return nil, fmt.Errorf("contracting dimension sizes differ: lhs %v dim %d, rhs %v dim %d", lt, a.LhsContract[k], rt, a.RhsContract[k])
		}
		contract[k] = lt.Shape[a.LhsContract[k]]
	}
	lfree := sxComplement(lt.Rank(), a.LhsBatch, a.LhsContract)
	rfree := sxComplement(rt.Rank(), a.RhsBatch, a.RhsContract)
	var shape []int
	for _, d := range a.LhsBatch {
		shape = append(shape, lt.Shape[d])
	}
	for _, d := range lfree {
		shape = append(shape, lt.Shape[d])
	}
	for _, d := range rfree {
		shape = append(shape, rt.Shape[d])
	}
	rtype, err := sxResultType(in, 0)
	if err != nil {
		return nil, err
	}
	t := TensorOf(rtype.DType, shape...)
	if err := sxCheckResult(in, 0, t); err != nil {
		return nil, err
	}
	if _, err := sxNewAccum(lt.DType, rt.DType, t.DType); err != nil {
		return nil, err
	}
	return &sxDot{attr: a, lhs: lhs, rhs: rhs, out: Zeros(t), contract: contract, lfree: lfree, rfree: rfree}, nil
}

// sxDot is a checked dot_general: its operands, the zero result it fills,
// the contracting dimension sizes (in LhsContract's order) and the free
// dimensions of each side.
type sxDot struct {
	attr         DotGeneralAttr
	lhs, rhs     *Literal
	out          *Literal
	contract     []int
	lfree, rfree []int
}

// work is the number of products the contraction takes.
func (d *sxDot) work() int {
	n := d.out.Type.NumElements()
	for _, c := range d.contract {
		n *= c
	}
	return n
}

// spec fills the result the way the spec defines it: for each result
// index, the sum over every contracting index, in row-major order of the
// contracting dimensions, of the product of the two operand elements it
// selects. It is the definition the blocked path (blocked) must match bit
// for bit.
func (d *sxDot) spec() {
	a, lhs, rhs, out := d.attr, d.lhs, d.rhs, d.out
	lt, rt := lhs.Type, rhs.Type
	acc, _ := sxNewAccum(lt.DType, rt.DType, out.Type.DType)
	ls, rs := Strides(lt.Shape), Strides(rt.Shape)
	li, ri := make([]int, lt.Rank()), make([]int, rt.Rank())
	nb, nl := len(a.LhsBatch), len(d.lfree)
	i := 0
	sxEach(out.Type.Shape, func(idx []int) error {
		for k := range nb {
			li[a.LhsBatch[k]] = idx[k]
			ri[a.RhsBatch[k]] = idx[k]
		}
		for k, dim := range d.lfree {
			li[dim] = idx[nb+k]
		}
		for k, dim := range d.rfree {
			ri[dim] = idx[nb+nl+k]
		}
		acc.reset()
		sxEach(d.contract, func(c []int) error {
			for k, x := range c {
				li[a.LhsContract[k]] = x
				ri[a.RhsContract[k]] = x
			}
			acc.mac(lhs, sxOffset(li, ls), rhs, sxOffset(ri, rs))
			return nil
		})
		acc.store(out, i)
		i++
		return nil
	})
}

// evalConvolution follows the spec's definition: every output element is a
// dot product of a window of the padded, lhs-dilated input with the
// (rhs-dilated, optionally reversed) kernel, over the kernel's spatial
// dimensions and input features. feature_group_count splits the input
// features and the output features into matching groups;
// batch_group_count splits the input batch and the output features into
// matching groups. Padding is zero, so padded positions are skipped.
func evalConvolution(in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	c, err := sxNewConv(in, args)
	if err != nil {
		return nil, err
	}
	if c.work() < sxBlockedMinWork {
		c.spec()
	} else {
		c.blocked()
	}
	return []*Literal{c.out}, nil
}

// sxNewConv checks a convolution against its operands and makes its zero
// result.
func sxNewConv(in *Instr, args []*Literal) (*sxConv, error) {
	a, err := sxAttr[ConvolutionAttr](in)
	if err != nil {
		return nil, err
	}
	if err := sxArgs(args, 2); err != nil {
		return nil, err
	}
	lhs, rhs := args[0], args[1]
	lt, kt := lhs.Type, rhs.Type
	ns := len(a.InputSpatialDims)
	if len(a.KernelSpatialDims) != ns || len(a.OutputSpatialDims) != ns {
		return nil, fmt.Errorf("spatial dims %v, %v and %v differ in length", a.InputSpatialDims, a.KernelSpatialDims, a.OutputSpatialDims)
	}
	if lt.Rank() != ns+2 || kt.Rank() != ns+2 {
		return nil, fmt.Errorf("lhs %v and rhs %v must have rank %d (%d spatial dims)", lt, kt, ns+2, ns)
	}
	if err := sxDimsOK("input dims", slices.Concat([]int{a.InputBatchDim, a.InputFeatureDim}, a.InputSpatialDims), ns+2); err != nil {
		return nil, err
	}
	if err := sxDimsOK("kernel dims", slices.Concat([]int{a.KernelInputFeatureDim, a.KernelOutputFeatureDim}, a.KernelSpatialDims), ns+2); err != nil {
		return nil, err
	}
	if err := sxDimsOK("output dims", slices.Concat([]int{a.OutputBatchDim, a.OutputFeatureDim}, a.OutputSpatialDims), ns+2); err != nil {
		return nil, err
	}
	strides, err := sxOnes("window strides", a.WindowStrides, ns)
	if err != nil {
		return nil, err
	}
	ldil, err := sxOnes("lhs dilation", a.LhsDilation, ns)
	if err != nil {
		return nil, err
	}
	rdil, err := sxOnes("rhs dilation", a.RhsDilation, ns)
	if err != nil {
		return nil, err
	}
	pad, err := sxPairs("padding", a.Padding, ns)
	if err != nil {
		return nil, err
	}
	rev := a.WindowReversal
	if len(rev) == 0 {
		rev = make([]bool, ns)
	} else if len(rev) != ns {
		return nil, fmt.Errorf("window reversal has %d entries, want %d", len(rev), ns)
	}
	fgc, bgc := a.FeatureGroupCount, a.BatchGroupCount
	if fgc < 1 || bgc < 1 {
		return nil, fmt.Errorf("feature_group_count %d and batch_group_count %d must both be at least 1", fgc, bgc)
	}
	if fgc > 1 && bgc > 1 {
		return nil, fmt.Errorf("feature_group_count %d and batch_group_count %d cannot both exceed 1", fgc, bgc)
	}
	batch, feat := lt.Shape[a.InputBatchDim], lt.Shape[a.InputFeatureDim]
	kin, kout := kt.Shape[a.KernelInputFeatureDim], kt.Shape[a.KernelOutputFeatureDim]
	if feat != kin*fgc {
		return nil, fmt.Errorf("input features %d must be kernel input features %d × feature_group_count %d", feat, kin, fgc)
	}
	if kout%fgc != 0 || kout%bgc != 0 || batch%bgc != 0 {
		return nil, fmt.Errorf("kernel output features %d and input batch %d must divide by the group counts (%d, %d)", kout, batch, fgc, bgc)
	}
	shape := make([]int, ns+2)
	shape[a.OutputBatchDim] = batch / bgc
	shape[a.OutputFeatureDim] = kout
	ksize := make([]int, ns)
	for d := range ns {
		n, k := lt.Shape[a.InputSpatialDims[d]], kt.Shape[a.KernelSpatialDims[d]]
		ksize[d] = k
		dn, dk := 0, 0
		if n > 0 {
			dn = (n-1)*ldil[d] + 1
		}
		if k > 0 {
			dk = (k-1)*rdil[d] + 1
		}
		padded := pad[d][0] + dn + pad[d][1]
		if padded < dk {
			shape[a.OutputSpatialDims[d]] = 0
		} else {
			shape[a.OutputSpatialDims[d]] = (padded-dk)/strides[d] + 1
		}
	}
	rtype, err := sxResultType(in, 0)
	if err != nil {
		return nil, err
	}
	t := TensorOf(rtype.DType, shape...)
	if err := sxCheckResult(in, 0, t); err != nil {
		return nil, err
	}
	if _, err := sxNewAccum(lt.DType, kt.DType, t.DType); err != nil {
		return nil, err
	}
	return &sxConv{attr: a, lhs: lhs, rhs: rhs, out: Zeros(t), strides: strides, ldil: ldil, rdil: rdil, pad: pad, rev: rev, ksize: ksize}, nil
}

// sxConv is a checked convolution: its operands, the zero result it
// fills, and the attribute's lists with their defaults filled in.
type sxConv struct {
	attr                ConvolutionAttr
	lhs, rhs, out       *Literal
	strides, ldil, rdil []int
	pad                 [][2]int
	rev                 []bool
	ksize               []int // the kernel's spatial sizes
}

// work is the number of products the convolution takes at most (padding
// and dilation holes skip some).
func (c *sxConv) work() int {
	n := c.out.Type.NumElements() * c.rhs.Type.Shape[c.attr.KernelInputFeatureDim]
	for _, k := range c.ksize {
		n *= k
	}
	return n
}

// spec fills the result as the spec defines it, one result element at a
// time: the sum, over the window positions in row-major order and within
// each over the input features of the element's feature group, of input ×
// kernel, skipping window positions that fall on padding or dilation
// holes. It is the definition the blocked path (blocked) must match bit for
// bit.
func (c *sxConv) spec() {
	a, lhs, rhs, out := c.attr, c.lhs, c.rhs, c.out
	lt, kt := lhs.Type, rhs.Type
	ns := len(c.ksize)
	strides, ldil, rdil, pad, rev, ksize := c.strides, c.ldil, c.rdil, c.pad, c.rev, c.ksize
	fgc, bgc := a.FeatureGroupCount, a.BatchGroupCount
	batch := lt.Shape[a.InputBatchDim]
	kin, kout := kt.Shape[a.KernelInputFeatureDim], kt.Shape[a.KernelOutputFeatureDim]
	acc, _ := sxNewAccum(lt.DType, kt.DType, out.Type.DType)
	ls, ks := Strides(lt.Shape), Strides(kt.Shape)
	li, ki := make([]int, ns+2), make([]int, ns+2)
	outFeatPerFGroup, outFeatPerBGroup := kout/fgc, kout/bgc
	i := 0
	sxEach(out.Type.Shape, func(idx []int) error {
		b, o := idx[a.OutputBatchDim], idx[a.OutputFeatureDim]
		// The feature group picks which slice of input features this output
		// feature reads; the batch group picks which slice of the batch.
		fg := o / outFeatPerFGroup
		bg := o / outFeatPerBGroup
		li[a.InputBatchDim] = bg*(batch/bgc) + b
		ki[a.KernelOutputFeatureDim] = o
		acc.reset()
		sxEach(ksize, func(k []int) error {
			for d := range ns {
				// Window position k sits at this padded, dilated input
				// coordinate; it is real input only on the dilation grid.
				p := idx[a.OutputSpatialDims[d]]*strides[d] + k[d]*rdil[d] - pad[d][0]
				if p < 0 || p%ldil[d] != 0 || p/ldil[d] >= lt.Shape[a.InputSpatialDims[d]] {
					return nil // padding or a dilation hole: contributes zero
				}
				li[a.InputSpatialDims[d]] = p / ldil[d]
				// Window reversal reverses the input window, which pairs
				// window position k with kernel position size-1-k.
				if rev[d] {
					ki[a.KernelSpatialDims[d]] = ksize[d] - 1 - k[d]
				} else {
					ki[a.KernelSpatialDims[d]] = k[d]
				}
			}
			for c := range kin {
				li[a.InputFeatureDim] = fg*kin + c
				ki[a.KernelInputFeatureDim] = c
				acc.mac(lhs, sxOffset(li, ls), rhs, sxOffset(ki, ks))
			}
			return nil
		})
		acc.store(out, i)
		i++
		return nil
	})
}

// sxSplitReduceArgs splits (inputs..., inits...) and checks that the inputs
// share a shape and the inits are scalars.
func sxSplitReduceArgs(args []*Literal) (inputs, inits []*Literal, err error) {
	if err := sxArgs(args, 2); err != nil {
		return nil, nil, err
	}
	if len(args)%2 != 0 {
		return nil, nil, fmt.Errorf("%d operands, want inputs and as many init values", len(args))
	}
	n := len(args) / 2
	inputs, inits = args[:n], args[n:]
	for i, x := range inputs {
		if !ShapeEqual(x.Type.Shape, inputs[0].Type.Shape) {
			return nil, nil, fmt.Errorf("input #%d has type %v, want the shape of %v", i, x.Type, inputs[0].Type)
		}
		if inits[i].Type.Rank() != 0 {
			return nil, nil, fmt.Errorf("init value #%d has type %v, want a scalar", i, inits[i].Type)
		}
	}
	return inputs, inits, nil
}

// sxStoreScalars writes the scalars vals into element i of the results,
// converting to each result's element type.
func sxStoreScalars(results []*Literal, i int, vals []*Literal) error {
	for k, v := range vals {
		if v.Type.Rank() != 0 {
			return fmt.Errorf("region result #%d has type %v, want a scalar", k, v.Type)
		}
		c, err := sxConvertTo(v, results[k].Type.DType)
		if err != nil {
			return err
		}
		results[k].CopyElem(i, c, 0)
	}
	return nil
}

func evalReduce(in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	a, err := sxAttr[ReduceAttr](in)
	if err != nil {
		return nil, err
	}
	inputs, inits, err := sxSplitReduceArgs(args)
	if err != nil {
		return nil, err
	}
	if len(in.Regions) != 1 || in.Regions[0] == nil {
		return nil, fmt.Errorf("want one body region")
	}
	body := in.Regions[0]
	n := len(inputs)
	xshape := inputs[0].Type.Shape
	if err := sxDimsOK("dims", a.Dims, len(xshape)); err != nil {
		return nil, err
	}
	keep := sxComplement(len(xshape), a.Dims)
	shape := make([]int, len(keep))
	for k, d := range keep {
		shape[k] = xshape[d]
	}
	// The reduced dimensions are walked in increasing dimension order, so
	// the sequential order is the row-major order of the input.
	order := slices.Clone(a.Dims)
	slices.Sort(order)
	rdims := make([]int, len(order))
	for k, d := range order {
		rdims[k] = xshape[d]
	}
	results := make([]*Literal, n)
	for k := range n {
		rt, err := sxResultType(in, k)
		if err != nil {
			return nil, err
		}
		t := TensorOf(rt.DType, shape...)
		if err := sxCheckResult(in, k, t); err != nil {
			return nil, err
		}
		results[k] = Zeros(t)
	}
	xs := Strides(xshape)
	if p := results[0].Type.NumElements(); p > 0 {
		if lifted, ok := sxLiftRegion(body, p); ok {
			// Step s reads, for every result element, the s-th element of
			// its fold: result elements follow the kept dimensions in
			// row-major order, fold steps the reduced ones.
			at, steps := sxGroupOffsets(xshape, xs, keep), sxGroupOffsets(xshape, xs, order)
			err := sxFoldLifted(lifted, results, inits, len(steps), func(s int) []*Literal {
				xs := make([]*Literal, n)
				for k, x := range inputs {
					xs[k] = sxGather(x, at, steps[s], nil)
				}
				return xs
			})
			if err != nil {
				return nil, err
			}
			return results, nil
		}
	}
	src := make([]int, len(xshape))
	bargs := make([]*Literal, 2*n)
	i := 0
	err = sxEach(shape, func(idx []int) error {
		for k, d := range keep {
			src[d] = idx[k]
		}
		copy(bargs, inits)
		err := sxEach(rdims, func(r []int) error {
			for k, d := range order {
				src[d] = r[k]
			}
			off := sxOffset(src, xs)
			for k, x := range inputs {
				bargs[n+k] = sxScalarAt(x, off)
			}
			accs, err := sxCall("body", body, bargs, n)
			if err != nil {
				return err
			}
			copy(bargs, accs)
			return nil
		})
		if err != nil {
			return err
		}
		if err := sxStoreScalars(results, i, bargs[:n]); err != nil {
			return err
		}
		i++
		return nil
	})
	if err != nil {
		return nil, err
	}
	return results, nil
}

// evalReduceWindow follows the spec: the inputs are padded with the init
// values (edge padding, and base dilation as interior padding), and every
// result element reduces one strided, dilated window of the padded inputs.
// Padding elements take part in the reduction as init values, which
// matters when the init is not the body's identity.
func evalReduceWindow(in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	a, err := sxAttr[ReduceWindowAttr](in)
	if err != nil {
		return nil, err
	}
	inputs, inits, err := sxSplitReduceArgs(args)
	if err != nil {
		return nil, err
	}
	if len(in.Regions) != 1 || in.Regions[0] == nil {
		return nil, fmt.Errorf("want one body region")
	}
	body := in.Regions[0]
	n := len(inputs)
	xshape := inputs[0].Type.Shape
	r := len(xshape)
	if len(a.WindowDims) != r {
		return nil, fmt.Errorf("window %v has %d entries for inputs of rank %d", a.WindowDims, len(a.WindowDims), r)
	}
	for _, w := range a.WindowDims {
		if w < 0 {
			return nil, fmt.Errorf("window %v has a negative size", a.WindowDims)
		}
	}
	strides, err := sxOnes("strides", a.Strides, r)
	if err != nil {
		return nil, err
	}
	bdil, err := sxOnes("base dilations", a.BaseDilations, r)
	if err != nil {
		return nil, err
	}
	wdil, err := sxOnes("window dilations", a.WindowDilations, r)
	if err != nil {
		return nil, err
	}
	pad, err := sxPairs("padding", a.Padding, r)
	if err != nil {
		return nil, err
	}
	shape := make([]int, r)
	for d := range r {
		dn, dw := 0, 0
		if xshape[d] > 0 {
			dn = (xshape[d]-1)*bdil[d] + 1
		}
		if a.WindowDims[d] > 0 {
			dw = (a.WindowDims[d]-1)*wdil[d] + 1
		}
		padded := pad[d][0] + dn + pad[d][1]
		if padded < dw {
			shape[d] = 0
		} else {
			shape[d] = (padded-dw)/strides[d] + 1
		}
	}
	results := make([]*Literal, n)
	for k := range n {
		rt, err := sxResultType(in, k)
		if err != nil {
			return nil, err
		}
		t := TensorOf(rt.DType, shape...)
		if err := sxCheckResult(in, k, t); err != nil {
			return nil, err
		}
		results[k] = Zeros(t)
	}
	xs := Strides(xshape)
	sameTypes := true
	for k := range inputs {
		sameTypes = sameTypes && inputs[k].Type.DType == inits[k].Type.DType
	}
	if p := results[0].Type.NumElements(); p > 0 && sameTypes {
		if lifted, ok := sxLiftRegion(body, p); ok {
			// Step s is window position s (row-major) of every result
			// element: an input element, or the init value where the
			// position falls on padding or a dilation hole.
			var wins [][]int
			sxEach(a.WindowDims, func(w []int) error {
				wins = append(wins, slices.Clone(w))
				return nil
			})
			offs := make([]int, p)
			err := sxFoldLifted(lifted, results, inits, len(wins), func(s int) []*Literal {
				w, i := wins[s], 0
				sxEach(shape, func(idx []int) error {
					off := 0
					for d := range r {
						q := idx[d]*strides[d] + w[d]*wdil[d] - pad[d][0]
						if q < 0 || q%bdil[d] != 0 || q/bdil[d] >= xshape[d] {
							off = -1
							break
						}
						off += q / bdil[d] * xs[d]
					}
					offs[i] = off
					i++
					return nil
				})
				vs := make([]*Literal, n)
				for k, x := range inputs {
					vs[k] = sxGather(x, offs, 0, inits[k])
				}
				return vs
			})
			if err != nil {
				return nil, err
			}
			return results, nil
		}
	}
	src := make([]int, r)
	bargs := make([]*Literal, 2*n)
	i := 0
	err = sxEach(shape, func(idx []int) error {
		copy(bargs, inits)
		err := sxEach(a.WindowDims, func(w []int) error {
			inside := true
			for d := range r {
				p := idx[d]*strides[d] + w[d]*wdil[d] - pad[d][0]
				if p < 0 || p%bdil[d] != 0 || p/bdil[d] >= xshape[d] {
					inside = false
					break
				}
				src[d] = p / bdil[d]
			}
			if inside {
				off := sxOffset(src, xs)
				for k, x := range inputs {
					bargs[n+k] = sxScalarAt(x, off)
				}
			} else {
				copy(bargs[n:], inits)
			}
			accs, err := sxCall("body", body, bargs, n)
			if err != nil {
				return err
			}
			copy(bargs, accs)
			return nil
		})
		if err != nil {
			return err
		}
		if err := sxStoreScalars(results, i, bargs[:n]); err != nil {
			return err
		}
		i++
		return nil
	})
	if err != nil {
		return nil, err
	}
	return results, nil
}
