package ir

// MatmulFlops counts the floating-point operations of f's dot_generals and
// convolutions (those in regions included, once each), two per
// multiply-add, the way XLA's cost analysis counts them: a dot is
// 2 × (result elements) × (contracted elements); a convolution counts,
// per spatial dimension, only the (output, kernel) position pairs that
// land on the input rather than on its padding or between dilated
// elements. Other ops count nothing: this is the part of a program's cost
// that dominates a model and that the compiler cannot change.
func MatmulFlops(f *Func) float64 {
	var total float64
	f.Walk(func(in *Instr) {
		switch in.Op {
		case OpDotGeneral:
			total += dotFlops(in)
		case OpConvolution:
			total += convFlops(in)
		}
	})
	return total
}

func dotFlops(in *Instr) float64 {
	var a DotGeneralAttr
	switch x := in.Attr.(type) {
	case DotGeneralAttr:
		a = x
	case *DotGeneralAttr:
		a = *x
	default:
		return 0
	}
	n := 2 * float64(in.Results[0].Type.NumElements())
	for _, d := range a.LhsContract {
		n *= float64(in.Args[0].Type.Shape[d])
	}
	return n
}

func convFlops(in *Instr) float64 {
	var a ConvolutionAttr
	switch x := in.Attr.(type) {
	case ConvolutionAttr:
		a = x
	case *ConvolutionAttr:
		a = *x
	default:
		return 0
	}
	lhs, rhs, out := in.Args[0].Type.Shape, in.Args[1].Type.Shape, in.Results[0].Type.Shape
	n := 2 * float64(out[a.OutputBatchDim]) * float64(out[a.OutputFeatureDim]) * float64(rhs[a.KernelInputFeatureDim])
	at := func(s []int, i, def int) int {
		if i < len(s) && s[i] != 0 {
			return s[i]
		}
		return def
	}
	for i, od := range a.OutputSpatialDims {
		inSize, k, o := lhs[a.InputSpatialDims[i]], rhs[a.KernelSpatialDims[i]], out[od]
		stride, lhsDil, rhsDil := at(a.WindowStrides, i, 1), at(a.LhsDilation, i, 1), at(a.RhsDilation, i, 1)
		padLow := 0
		if i < len(a.Padding) {
			padLow = a.Padding[i][0]
		}
		dilated := (inSize-1)*lhsDil + 1
		valid := 0
		for op := 0; op < o; op++ {
			for kp := 0; kp < k; kp++ {
				pos := op*stride + kp*rhsDil - padLow
				if pos >= 0 && pos < dilated && pos%lhsDil == 0 {
					valid++
				}
			}
		}
		n *= float64(valid)
	}
	return n
}
