package stablehlo

import (
	"fmt"
)

// The batch norm ops are rewritten by LowerChlo (with the chlo
// compositions) into the StableHLO ops of the spec's definitions:
// reductions over every dimension but feature_index, and elementwise
// arithmetic on the operand's shape, all in the operand's element type
// (as the spec writes them; f16 and bf16 are not widened). The spec's
// batch_norm_grad follows XLA's BatchNormExpander. Quantized operands are
// dequantized first and the results quantized to their types (the spec's
// dequantize-op-quantize), the arithmetic in the expressed type.

var batchNormOps = map[string]int{
	// name: number of operands.
	"stablehlo.batch_norm_inference": 5,
	"stablehlo.batch_norm_training":  3,
	"stablehlo.batch_norm_grad":      5,
}

type batchNorm struct {
	b       *Builder
	xt      TensorType // the operand's type
	ft      TensorType // the feature vector's type
	feature int64
	eps     *Value // epsilon broadcast to xt
	n       *Value // elements per feature broadcast to xt
	nf      *Value // elements per feature broadcast to ft
	dims    []int64
}

func lowerBatchNorm(b *Builder, op *Op) ([]*Value, error) {
	want := batchNormOps[op.Name]
	nres := 1
	if op.Name != "stablehlo.batch_norm_inference" {
		nres = 3
	}
	if len(op.Operands) != want || len(op.Results) != nres {
		return nil, fmt.Errorf("want %d operands and %d results, have %d and %d", want, nres, len(op.Operands), len(op.Results))
	}
	// Quantized operands are dequantized and the results quantized to
	// their types (the spec's dequantize-op-quantize); the arithmetic is
	// then in the expressed type.
	ops := make([]*Value, len(op.Operands))
	for i, v := range op.Operands {
		vt, err := tensorOf(v)
		if err != nil {
			return nil, fmt.Errorf("operand %d: %w", i, err)
		}
		ops[i] = v
		if vt.Elem.IsQuantized() {
			q, err := ParseQuant(vt.Elem)
			if err != nil {
				return nil, err
			}
			ops[i] = b.Op1("stablehlo.uniform_dequantize", []*Value{v}, TensorType{Shape: vt.Shape, Elem: q.Expressed})
		}
	}
	x := ops[0]
	xt, _ := tensorOf(x)
	if !xt.Elem.IsFloat() {
		return nil, fmt.Errorf("element type %s: want a floating-point or quantized operand", xt.Elem)
	}
	fi, ok := intAttrOf(op.Attr("feature_index"))
	if !ok {
		return nil, fmt.Errorf("feature_index %v: want an integer", op.Attr("feature_index"))
	}
	if fi < 0 || fi >= int64(len(xt.Shape)) {
		return nil, fmt.Errorf("feature_index %d: want an integer in [0, %d) (the operand's rank)", fi, len(xt.Shape))
	}
	epsA, ok := op.Attr("epsilon").(FloatAttr)
	if !ok {
		return nil, fmt.Errorf("epsilon %v: want a float", op.Attr("epsilon"))
	}
	ft := TensorType{Shape: []int64{xt.Shape[fi]}, Elem: xt.Elem}
	// Every feature vector operand and result has type ft; the others xt
	// (after dequantizing).
	check := func(what string, v *Value, t TensorType) error {
		vt, err := tensorOf(v)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if vt.Elem.IsQuantized() {
			q, err := ParseQuant(vt.Elem)
			if err != nil {
				return err
			}
			vt.Elem = q.Expressed
		}
		if !TypesEqual(vt, t) {
			return fmt.Errorf("%s has type %s, want %s (the operand's element type)", what, v.Type, t)
		}
		return nil
	}
	var names []string
	var types []TensorType
	switch op.Name {
	case "stablehlo.batch_norm_inference":
		names = []string{"scale", "offset", "mean", "variance"}
		types = []TensorType{ft, ft, ft, ft}
	case "stablehlo.batch_norm_training":
		names = []string{"scale", "offset"}
		types = []TensorType{ft, ft}
	default:
		names = []string{"scale", "mean", "variance", "grad_output"}
		types = []TensorType{ft, ft, ft, xt}
	}
	for i, nm := range names {
		if err := check(nm, op.Operands[i+1], types[i]); err != nil {
			return nil, err
		}
	}
	rtypes := []TensorType{xt, ft, ft}
	for i, r := range op.Results {
		if err := check(fmt.Sprintf("result %d", i), r, rtypes[i]); err != nil {
			return nil, err
		}
	}
	res, err := batchNormFloat(b, op.Name, ops, xt, ft, fi, epsA.Value)
	if err != nil {
		return nil, err
	}
	for i, r := range op.Results {
		if rt, _ := tensorOf(r); rt.Elem.IsQuantized() {
			res[i] = b.Op1("stablehlo.uniform_quantize", []*Value{res[i]}, rt)
		}
	}
	return res, nil
}

// batchNormFloat emits the op on floating-point values a (x of type xt,
// feature vectors of type ft).
func batchNormFloat(b *Builder, name string, a []*Value, xt, ft TensorType, fi int64, epsilon float64) ([]*Value, error) {
	x := a[0]
	bn := &batchNorm{b: b, xt: xt, ft: ft, feature: fi}
	for d := range int64(len(xt.Shape)) {
		if d != fi {
			bn.dims = append(bn.dims, d)
		}
	}
	eps, err := scalarConst(b, xt.Elem, epsilon)
	if err != nil {
		return nil, err
	}
	bn.eps = splat(b, eps, xt)
	per := float64(xt.NumElements())
	if xt.Shape[fi] != 0 {
		per /= float64(xt.Shape[fi])
	}
	n, err := scalarConst(b, xt.Elem, per)
	if err != nil {
		return nil, err
	}
	bn.n = splat(b, n, xt)
	bn.nf = splat(b, n, ft)
	switch name {
	case "stablehlo.batch_norm_inference":
		return []*Value{bn.inference(x, a[1], a[2], a[3], a[4])}, nil
	case "stablehlo.batch_norm_training":
		mean := bn.mean(x)
		c := bn.bin("subtract", x, bn.bcast(mean))
		variance := bn.mean(bn.bin("multiply", c, c))
		return []*Value{bn.inference(x, a[1], a[2], mean, variance), mean, variance}, nil
	}
	return bn.grad(x, a[1], a[2], a[3], a[4]), nil
}

// bin is the elementwise binary op `name` of two values of one type.
func (bn *batchNorm) bin(name string, x, y *Value) *Value {
	return bn.b.Op1("stablehlo."+name, []*Value{x, y}, x.Type)
}

// bcast broadcasts a feature vector along feature_index to the operand's
// shape.
func (bn *batchNorm) bcast(v *Value) *Value {
	return bn.b.Op1("stablehlo.broadcast_in_dim", []*Value{v}, bn.xt, NA("broadcast_dimensions", I64Array(bn.feature)))
}

// sum adds v over every dimension but feature_index.
func (bn *batchNorm) sum(v *Value) *Value {
	e := bn.xt.Elem
	zero, _ := scalarConst(bn.b, e, 0.0) // a float element type: no error
	red := bn.b.Op("stablehlo.reduce", []*Value{v, zero}, []Type{bn.ft}, NA("dimensions", I64Array(bn.dims...)))
	rb := red.NewRegion(TensorType{Elem: e}, TensorType{Elem: e})
	rb.Loc = bn.b.Loc
	rb.Return(rb.Op1("stablehlo.add", []*Value{rb.Arg(0), rb.Arg(1)}, TensorType{Elem: e}))
	return red.Results[0]
}

// mean is the spec's compute_mean: sum divided by the elements per
// feature.
func (bn *batchNorm) mean(v *Value) *Value {
	return bn.bin("divide", bn.sum(v), bn.nf)
}

func (bn *batchNorm) inference(x, scale, offset, mean, variance *Value) *Value {
	c := bn.bin("subtract", x, bn.bcast(mean))
	stddev := bn.b.Op1("stablehlo.sqrt", []*Value{bn.bin("add", bn.bcast(variance), bn.eps)}, bn.xt)
	norm := bn.bin("divide", c, stddev)
	return bn.bin("add", bn.bin("multiply", bn.bcast(scale), norm), bn.bcast(offset))
}

func (bn *batchNorm) grad(x, scale, mean, variance, gy *Value) []*Value {
	c := bn.bin("subtract", x, bn.bcast(mean))
	ve := bn.bin("add", bn.bcast(variance), bn.eps)
	stddev := bn.b.Op1("stablehlo.sqrt", []*Value{ve}, bn.xt)
	norm := bn.bin("divide", c, stddev)
	i1 := bn.bin("multiply", gy, bn.n)
	gySum := bn.sum(gy)
	i2 := bn.bcast(gySum)
	i3 := bn.bcast(bn.sum(bn.bin("multiply", gy, c)))
	i4 := bn.bin("multiply", i3, c)
	i5 := bn.bin("divide", i4, ve)
	i6 := bn.bin("subtract", bn.bin("subtract", i1, i2), i5)
	gx := bn.bin("multiply", bn.bin("divide", bn.bin("divide", bn.bcast(scale), stddev), bn.n), i6)
	gScale := bn.sum(bn.bin("multiply", gy, norm))
	return []*Value{gx, gScale, gySum}
}
