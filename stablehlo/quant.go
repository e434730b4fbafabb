package stablehlo

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// QuantType is a !quant.uniform element type: values of integer type
// Storage in [StorageMin, StorageMax] standing for floats of type
// Expressed, f = (q - zero_point) * scale, with one scale and zero point
// (Axis -1) or one per index of dimension Axis.
type QuantType struct {
	Storage, Expressed     ElementType
	StorageMin, StorageMax int64
	Axis                   int
	Scales                 []float64
	ZeroPoints             []int64
}

// ParseQuant reads a quantized element type as the parser keeps it
// ("!quant.uniform<i8<-127:127>:f32:1, {0.1:-30,0.5:-20}>").
func ParseQuant(e ElementType) (*QuantType, error) {
	s, ok := strings.CutPrefix(string(e), "!quant.uniform<")
	if !ok || !strings.HasSuffix(s, ">") {
		return nil, fmt.Errorf("%s is not a !quant.uniform type", e)
	}
	s = strings.TrimSuffix(s, ">")
	head, params, ok := strings.Cut(s, ",")
	if !ok {
		return nil, fmt.Errorf("%s: no quantization parameters", e)
	}
	q := &QuantType{Axis: -1}
	// head: storage[<min:max>]:expressed[:axis]
	storage := head
	if i := strings.Index(head, "<"); i >= 0 {
		j := strings.Index(head, ">")
		if j < i {
			return nil, fmt.Errorf("%s: bad storage range", e)
		}
		lo, hi, ok := strings.Cut(head[i+1:j], ":")
		a, err1 := strconv.ParseInt(strings.TrimSpace(lo), 10, 64)
		b, err2 := strconv.ParseInt(strings.TrimSpace(hi), 10, 64)
		if !ok || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s: bad storage range", e)
		}
		q.StorageMin, q.StorageMax = a, b
		storage = head[:i] + head[j+1:]
	}
	parts := strings.Split(storage, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return nil, fmt.Errorf("%s: want storage:expressed[:axis]", e)
	}
	q.Storage, q.Expressed = ElementType(strings.TrimSpace(parts[0])), ElementType(strings.TrimSpace(parts[1]))
	if strings.HasPrefix(string(q.Storage), "si") {
		q.Storage = "i" + q.Storage[2:]
	}
	bits, unsigned, ok := q.Storage.intWidth()
	if !ok || !q.Expressed.IsFloat() {
		return nil, fmt.Errorf("%s: storage %s must be an integer type and %s a float type", e, q.Storage, q.Expressed)
	}
	if !strings.Contains(head, "<") {
		if unsigned {
			q.StorageMin, q.StorageMax = 0, int64(uint64(1)<<bits-1)
		} else {
			q.StorageMin, q.StorageMax = -(int64(1) << (bits - 1)), int64(1)<<(bits-1)-1
		}
	}
	if len(parts) == 3 {
		a, err := strconv.Atoi(strings.TrimSpace(parts[2]))
		if err != nil || a < 0 {
			return nil, fmt.Errorf("%s: bad quantization dimension", e)
		}
		q.Axis = a
	}
	params = strings.TrimSpace(params)
	params = strings.TrimSuffix(strings.TrimPrefix(params, "{"), "}")
	for _, p := range strings.Split(params, ",") {
		sc, zp, hasZP := strings.Cut(strings.TrimSpace(p), ":")
		f, err := strconv.ParseFloat(strings.TrimSpace(sc), 64)
		if err != nil || !(f > 0) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%s: bad scale %q", e, sc)
		}
		z := int64(0)
		if hasZP {
			if z, err = strconv.ParseInt(strings.TrimSpace(zp), 10, 64); err != nil {
				return nil, fmt.Errorf("%s: bad zero point %q", e, zp)
			}
		}
		q.Scales, q.ZeroPoints = append(q.Scales, f), append(q.ZeroPoints, z)
	}
	if q.Axis < 0 && len(q.Scales) != 1 {
		return nil, fmt.Errorf("%s: per-tensor quantization takes one scale", e)
	}
	return q, nil
}

// quantOf returns the quantized element type of t, or nil.
func quantOf(t Type) (*QuantType, TensorType, error) {
	tt, ok := t.(TensorType)
	if !ok || !tt.Elem.IsQuantized() {
		return nil, tt, nil
	}
	q, err := ParseQuant(tt.Elem)
	return q, tt, err
}

// storageOps move or pick elements without arithmetic: on quantized
// tensors whose types all agree they work on the stored integers.
var storageOps = map[string]bool{
	"stablehlo.reshape": true, "stablehlo.transpose": true, "stablehlo.broadcast_in_dim": true,
	"stablehlo.slice": true, "stablehlo.concatenate": true, "stablehlo.reverse": true,
	"stablehlo.dynamic_slice": true, "stablehlo.gather": true, "stablehlo.select": true,
	"stablehlo.optimization_barrier": true, "stablehlo.bitcast_convert": true,
	"func.call": true, "call": true, "func.return": true, "return": true,
}

// LowerQuant rewrites a module's quantized types and ops into integer and
// float ones, in place: a quantized tensor becomes its storage integers;
// uniform_quantize and uniform_dequantize become the spec's arithmetic
// (quantize: clamp(round_nearest_even(x / scale) + zero_point) into the
// storage range; dequantize: (q - zero_point) * scale, in the expressed
// type; per-axis parameters broadcast along their dimension); ops that
// only move elements (reshape, slice, ...) work on the stored integers
// when their quantized types agree; any other op on quantized tensors is
// computed as the spec's dequantize–compute–quantize. Quantized types in
// regions and quantized constants are errors.
func (m *Module) LowerQuant() error {
	for _, f := range m.Funcs {
		for i, a := range f.Args {
			if q, t, err := quantOf(a.Type); err != nil {
				return fmt.Errorf("@%s: %w", f.Name, err)
			} else if q != nil {
				f.Args[i].Type = TensorType{Shape: t.Shape, Elem: q.Storage}
			}
		}
		for i, r := range f.ResultTypes {
			if q, t, err := quantOf(r); err != nil {
				return fmt.Errorf("@%s: %w", f.Name, err)
			} else if q != nil {
				f.ResultTypes[i] = TensorType{Shape: t.Shape, Elem: q.Storage}
			}
		}
		if f.Body == nil {
			continue
		}
		for _, blk := range f.Body.Blocks {
			qtype := map[*Value]*QuantType{}
			for _, a := range blk.Args {
				if q, t, _ := quantOf(a.Type); q != nil {
					a.Type = TensorType{Shape: t.Shape, Elem: q.Storage}
					qtype[a] = q
				}
			}
			if err := lowerQuantBlock(blk, qtype); err != nil {
				return fmt.Errorf("@%s: %w", f.Name, err)
			}
		}
	}
	return nil
}

func hasQuant(op *Op) bool {
	for _, x := range op.Operands {
		if t, ok := x.Type.(TensorType); ok && t.Elem.IsQuantized() {
			return true
		}
	}
	for _, x := range op.Results {
		if t, ok := x.Type.(TensorType); ok && t.Elem.IsQuantized() {
			return true
		}
	}
	return false
}

// lowerQuantBlock lowers the ops of blk; qtype holds the quantized type
// of each value already made storage.
func lowerQuantBlock(blk *Block, qtype map[*Value]*QuantType) error {
	var out []*Op
	emit := &Block{}
	b := NewBuilder(emit, "stablehlo.return")
	flush := func() {
		out = append(out, emit.Ops...)
		emit.Ops = nil
	}
	for _, op := range blk.Ops {
		// Region bodies (reduce, sort, while, ...): their quantized
		// arguments become storage integers and their ops are lowered
		// like any other, each quantized op of the body computing
		// dequantize–compute–quantize.
		for _, r := range op.Regions {
			for _, rb := range r.Blocks {
				for _, a := range rb.Args {
					q, t, err := quantOf(a.Type)
					if err != nil {
						return err
					}
					if q != nil {
						a.Type = TensorType{Shape: t.Shape, Elem: q.Storage}
						qtype[a] = q
					}
				}
				if err := lowerQuantBlock(rb, qtype); err != nil {
					return err
				}
			}
		}
		// Operands already lowered carry storage types; find the
		// quantized types of this op's operands from their definitions.
		if !hasQuant(op) && !anyQ(op.Operands, qtype) {
			out = append(out, op)
			continue
		}
		b.Loc = op.Loc
		var inQ []*QuantType
		for _, x := range op.Operands {
			q := qtype[x]
			if q == nil {
				var err error
				if q, _, err = quantOf(x.Type); err != nil {
					return err
				}
			}
			inQ = append(inQ, q)
		}
		var outQ []*QuantType
		for _, r := range op.Results {
			q, _, err := quantOf(r.Type)
			if err != nil {
				return err
			}
			outQ = append(outQ, q)
		}
		storage := func(v *Value, q *QuantType) {
			t := v.Type.(TensorType)
			v.Type = TensorType{Shape: t.Shape, Elem: q.Storage}
			qtype[v] = q
		}
		switch {
		case op.Name == "stablehlo.constant":
			d, err := quantConstant(op, outQ[0])
			if err != nil {
				return fmt.Errorf("stablehlo.constant: %w", err)
			}
			SetAttr(&op.Attrs, "value", d)
			storage(op.Results[0], outQ[0])
			out = append(out, op)
		case isTerminator(op.Name):
			// Returns pass the stored integers on (the function's and
			// the regions' result types are storage types too).
			out = append(out, op)
		case len(op.Regions) > 0:
			// The op moves its operands through its bodies (lowered
			// above) unchanged: the quantized types must agree.
			if !sameQuant(inQ, outQ) {
				return fmt.Errorf("%s: quantized operands and results of different quantization parameters in an op with regions are not supported", op.Name)
			}
			for i, r := range op.Results {
				if outQ[i] != nil {
					storage(r, outQ[i])
				}
			}
			out = append(out, op)
		case op.Name == "stablehlo.uniform_dequantize":
			d := dequantize(b, op.Operands[0], inQ[0])
			flush()
			renameUses(blk, op, op.Results[0], d)
		case op.Name == "stablehlo.uniform_quantize":
			x := op.Operands[0]
			if inQ[0] != nil {
				x = dequantize(b, x, inQ[0])
			}
			rt := op.Results[0].Type.(TensorType)
			qv := quantize(b, x, outQ[0], rt.Shape)
			flush()
			renameUses(blk, op, op.Results[0], qv)
			qtype[qv] = outQ[0]
		case storageOps[op.Name] && sameQuant(inQ, outQ):
			for i, r := range op.Results {
				if outQ[i] != nil {
					storage(r, outQ[i])
				}
			}
			out = append(out, op)
		default:
			// dequantize – compute – quantize.
			for i, x := range op.Operands {
				if inQ[i] != nil {
					op.Operands[i] = dequantize(b, x, inQ[i])
				}
			}
			flush()
			out = append(out, op)
			for i, r := range op.Results {
				if outQ[i] == nil {
					continue
				}
				rt := r.Type.(TensorType)
				r.Type = TensorType{Shape: rt.Shape, Elem: outQ[i].Expressed}
				// The uses of r read the quantized value instead.
				qv := quantize(b, r, outQ[i], rt.Shape)
				qtype[qv] = outQ[i]
				renameUses(blk, op, r, qv)
			}
			flush()
		}
	}
	blk.Ops = out
	return nil
}

func anyQ(vs []*Value, qtype map[*Value]*QuantType) bool {
	for _, v := range vs {
		if qtype[v] != nil {
			return true
		}
	}
	return false
}

func sameQuant(in, out []*QuantType) bool {
	var first *QuantType
	for _, q := range slices.Concat(in, out) {
		if q == nil {
			continue
		}
		if first == nil {
			first = q
			continue
		}
		if q.Storage != first.Storage || q.Expressed != first.Expressed || q.Axis != first.Axis ||
			!slices.Equal(q.Scales, first.Scales) || !slices.Equal(q.ZeroPoints, first.ZeroPoints) ||
			q.StorageMin != first.StorageMin || q.StorageMax != first.StorageMax {
			return false
		}
	}
	return true
}

// renameUses makes the ops after op in blk (and in their regions) use nv
// instead of v.
func renameUses(blk *Block, op *Op, v, nv *Value) {
	after := false
	for _, o := range blk.Ops {
		if after {
			remap(o, map[*Value]*Value{v: nv})
		}
		if o == op {
			after = true
		}
	}
}

func perAxis(b *Builder, vals []float64, e ElementType, q *QuantType, shape []int64) *Value {
	if q.Axis < 0 {
		d, _ := DenseFromFloat64s(TensorType{Elem: e}, vals[:1])
		c := b.Constant(d)
		if len(shape) == 0 {
			return c // a scalar (in region bodies: no broadcast there)
		}
		return b.Op1("stablehlo.broadcast_in_dim", []*Value{c}, TensorType{Shape: shape, Elem: e}, NA("broadcast_dimensions", I64Array()))
	}
	d, _ := DenseFromFloat64s(TensorType{Shape: []int64{int64(len(vals))}, Elem: e}, vals)
	c := b.Constant(d)
	return b.Op1("stablehlo.broadcast_in_dim", []*Value{c}, TensorType{Shape: shape, Elem: e}, NA("broadcast_dimensions", I64Array(int64(q.Axis))))
}

func zps(q *QuantType) []float64 {
	out := make([]float64, len(q.ZeroPoints))
	for i, z := range q.ZeroPoints {
		out[i] = float64(z)
	}
	return out
}

// dequantize: (convert(q) - zero_point) * scale in the expressed type.
func dequantize(b *Builder, x *Value, q *QuantType) *Value {
	t := x.Type.(TensorType)
	et := TensorType{Shape: t.Shape, Elem: q.Expressed}
	if t.Elem != q.Storage {
		x.Type = TensorType{Shape: t.Shape, Elem: q.Storage}
	}
	f := b.Op1("stablehlo.convert", []*Value{x}, et)
	f = b.Op1("stablehlo.subtract", []*Value{f, perAxis(b, zps(q), q.Expressed, q, t.Shape)}, et)
	return b.Op1("stablehlo.multiply", []*Value{f, perAxis(b, q.Scales, q.Expressed, q, t.Shape)}, et)
}

// quantize: clamp(round_nearest_even(x / scale) + zero_point) into the
// storage range, converted to the storage type.
func quantize(b *Builder, x *Value, q *QuantType, shape []int64) *Value {
	xt := x.Type.(TensorType)
	e := xt.Elem
	et := TensorType{Shape: shape, Elem: e}
	y := b.Op1("stablehlo.divide", []*Value{x, perAxis(b, q.Scales, e, q, shape)}, et)
	y = b.Op1("stablehlo.round_nearest_even", []*Value{y}, et)
	y = b.Op1("stablehlo.add", []*Value{y, perAxis(b, zps(q), e, q, shape)}, et)
	lo, _ := DenseFromFloat64s(TensorType{Elem: e}, []float64{float64(q.StorageMin)})
	hi, _ := DenseFromFloat64s(TensorType{Elem: e}, []float64{float64(q.StorageMax)})
	y = b.Op1("stablehlo.clamp", []*Value{b.Constant(lo), y, b.Constant(hi)}, et)
	return b.Op1("stablehlo.convert", []*Value{y}, TensorType{Shape: shape, Elem: q.Storage})
}

// quantConstant returns the stored integers of a quantized constant, as
// dense elements of the storage type: its value is either dense elements
// of the storage type (the generic form `"stablehlo.constant"() <{value =
// dense<[1, 2]> : tensor<2xi8>}> : () -> tensor<2x!quant.uniform<...>>`)
// or a literal of the quantized type, read as the stored integers. Each
// must lie in the storage range.
func quantConstant(op *Op, q *QuantType) (*DenseElements, error) {
	if q == nil || len(op.Results) != 1 {
		return nil, fmt.Errorf("want one quantized result")
	}
	rt := op.Results[0].Type.(TensorType)
	st := TensorType{Shape: rt.Shape, Elem: q.Storage}
	v, ok := op.Attr("value").(*DenseElements)
	if !ok {
		return nil, fmt.Errorf("value is not dense elements")
	}
	d := v
	switch {
	case TypesEqual(v.Type, st):
	case v.Literal() != "" && TypesEqual(v.Type, rt):
		a, err := ParseAttr("dense<" + v.Literal() + "> : " + st.String())
		if err != nil {
			return nil, fmt.Errorf("value %s read as %s: %v", v.Literal(), st, err)
		}
		if d, ok = a.(*DenseElements); !ok {
			return nil, fmt.Errorf("value %s read as %s is not dense elements", v.Literal(), st)
		}
	default:
		return nil, fmt.Errorf("value of type %s for a result of type %s: want the storage type %s", v.Type, rt, st)
	}
	ints, err := d.Int64s()
	if err != nil {
		return nil, err
	}
	for _, x := range ints {
		if x < q.StorageMin || x > q.StorageMax {
			return nil, fmt.Errorf("stored value %d is outside the storage range [%d, %d]", x, q.StorageMin, q.StorageMax)
		}
	}
	return d, nil
}
