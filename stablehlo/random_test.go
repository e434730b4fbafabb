package stablehlo

import (
	"math"
	"math/rand"
	"testing"
)

// TestRandomModulesRoundTrip builds random modules with the builder
// (random ops of the op table, random operands, types, attributes and
// locations) and checks that those that verify print, parse back and
// print identically.
func TestRandomModulesRoundTrip(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	for seed := int64(0); seed < int64(n); seed++ {
		r := rand.New(rand.NewSource(seed))
		m := randModule(r)
		if err := m.Verify(); err != nil {
			t.Fatalf("seed %d: random module does not verify: %v", seed, err)
		}
		for _, opts := range []PrintOptions{{}, {Locations: true}} {
			text := string(Format(m, opts))
			m2, err := Parse([]byte(text))
			if err != nil {
				t.Fatalf("seed %d: parse(print(m)) with %+v: %v\n%s", seed, opts, err, text)
			}
			if text2 := string(Format(m2, opts)); text2 != text {
				t.Fatalf("seed %d: parse(print(m)) prints differently with %+v:\n%s\n%s", seed, opts, lineDiff(text, text2), text)
			}
		}
	}
}

var randElems = []ElementType{I1, I4, I8, I16, I32, I64, UI8, UI32, UI64, F16, BF16, F32, F64, Complex64, Complex128}

func randTensor(r *rand.Rand) TensorType {
	dims := make([]int64, r.Intn(4))
	for i := range dims {
		dims[i] = int64(r.Intn(4))
		if r.Intn(20) == 0 {
			dims[i] = Dynamic
		}
	}
	return Tensor(randElems[r.Intn(len(randElems))], dims...)
}

func randType(r *rand.Rand) Type {
	switch r.Intn(12) {
	case 0:
		return TokenType{}
	case 1:
		return TupleType{Elems: []Type{randTensor(r), randTensor(r)}}
	case 2:
		t := randTensor(r)
		t.Elem = "!quant.uniform<i8:f32, 5.000000e-01:-128>"
		return t
	}
	return randTensor(r)
}

func randString(r *rand.Rand) string {
	b := make([]byte, r.Intn(6))
	for i := range b {
		b[i] = byte(r.Intn(256))
	}
	return string(b)
}

func randInts(r *rand.Rand) []int64 {
	out := make([]int64, r.Intn(4))
	for i := range out {
		out[i] = int64(r.Intn(5))
	}
	return out
}

func randDense(r *rand.Rand) *DenseElements {
	t := randTensor(r)
	for i, d := range t.Shape {
		if d < 0 {
			t.Shape[i] = 2
		}
	}
	if r.Intn(10) == 0 {
		t.Shape = []int64{int64(101 + r.Intn(20))}
	}
	n := int(t.NumElements())
	if r.Intn(3) == 0 && n > 0 {
		n = 1
	}
	var d *DenseElements
	var err error
	switch e := t.Elem; {
	case e.IsComplex():
		v := make([]complex128, n)
		for i := range v {
			v[i] = complex(r.NormFloat64(), float64(r.Intn(3)))
		}
		d, err = DenseFromComplex128s(t, v)
	case e.IsFloat():
		v := make([]float64, n)
		for i := range v {
			switch r.Intn(6) {
			case 0:
				v[i] = math.Inf(1 - 2*r.Intn(2))
			case 1:
				v[i] = math.Float64frombits(0x7FF0000000000000 | r.Uint64()&(1<<52-1) | 1)
			case 2:
				v[i] = float64(r.Intn(100)) / 8
			default:
				v[i] = r.NormFloat64() * math.Pow(10, float64(r.Intn(40)-20))
			}
		}
		d, err = DenseFromFloat64s(t, v)
	default:
		v := make([]int64, n)
		for i := range v {
			v[i] = int64(r.Uint64())
		}
		d, err = DenseFromInt64s(t, v)
	}
	if err != nil {
		panic(err)
	}
	return d
}

func randLoc(r *rand.Rand, depth int) Loc {
	k := r.Intn(7)
	if depth > 2 {
		k = r.Intn(3)
	}
	switch k {
	case 0:
		return nil
	case 1:
		return UnknownLoc{}
	case 2:
		l := FileLoc(randString(r), r.Intn(100), r.Intn(3))
		if r.Intn(3) == 0 {
			l.EndLine, l.EndCol = l.Line+r.Intn(2), r.Intn(9)+1
		}
		return l
	case 3:
		return NameLoc{Name: randString(r), Child: randLoc(r, depth+1)}
	case 4:
		c := randLoc(r, depth+1)
		if c == nil {
			c = UnknownLoc{}
		}
		return CallSiteLoc{Callee: c, Caller: FileLoc("main.go", 1, 0)}
	case 5:
		return FusedLoc{Locs: []Loc{FileLoc("a.go", 1, 2), FileLoc("b.go", 3, 4)}}
	default:
		return FusedLoc{Metadata: StringAttr("fuse"), Locs: []Loc{FileLoc("a.go", 1, 2)}}
	}
}

func randAttr(r *rand.Rand, depth int) Attr {
	k := r.Intn(18)
	if depth > 2 {
		k = r.Intn(8)
	}
	switch k {
	case 0:
		ts := []Type{nil, I64, I32, UI64, I1, I8, Index}
		return IntAttr{Value: int64(r.Uint64()), Type: ts[r.Intn(len(ts))]}
	case 1:
		ts := []Type{nil, F32, F64, BF16, F16}
		return FloatAttr{Value: r.NormFloat64(), Type: ts[r.Intn(len(ts))]}
	case 2:
		return BoolAttr(r.Intn(2) == 0)
	case 3:
		return StringAttr(randString(r))
	case 4:
		return UnitAttr{}
	case 5:
		return I64Array(randInts(r)...)
	case 6:
		return BoolArray(r.Intn(2) == 0, true)
	case 7:
		return ComparisonDirection([]string{"EQ", "NE", "LT", "GT"}[r.Intn(4)])
	case 8:
		return ArrayAttr{randAttr(r, depth+1), randAttr(r, depth+1)}
	case 9:
		return DictAttr{NA("b", randAttr(r, depth+1)), NA("a.x", randAttr(r, depth+1)), NA(randString(r)+"k", UnitAttr{})}
	case 10:
		return randDense(r)
	case 11:
		return TypeAttr{Type: randType(r)}
	case 12:
		return SymbolRefAttr{Name: "f" + randString(r), Nested: []string{"g"}}
	case 13:
		return DotDims{LhsBatchingDims: randInts(r), RhsBatchingDims: randInts(r), LhsContractingDims: randInts(r), RhsContractingDims: randInts(r)}
	case 14:
		return GatherDims{OffsetDims: randInts(r), StartIndexMap: randInts(r), IndexVectorDim: int64(r.Intn(3))}
	case 15:
		return ConvDims{InputBatchDim: 0, InputFeatureDim: int64(r.Intn(3)), InputSpatialDims: randInts(r), KernelInputFeatureDim: 1, KernelOutputFeatureDim: 0, OutputBatchDim: 1, OutputFeatureDim: 0, Raw: r.Intn(2) == 0}
	case 16:
		return PrecisionConfig("DEFAULT", "HIGHEST")
	default:
		return OpaqueAttr{Text: "#sdy.sharding<@mesh, [{\"a\"}, {}]>"}
	}
}

// attrFor returns an attribute that fits a known attribute name, or a
// random one.
func attrFor(r *rand.Rand, name string) Attr {
	if r.Intn(4) == 0 {
		return randAttr(r, 0)
	}
	switch name {
	case "comparison_direction":
		return ComparisonDirection("GE")
	case "compare_type":
		return ComparisonType("FLOAT")
	case "iota_dimension", "dimension", "feature_group_count", "batch_group_count", "all_gather_dim":
		return I64Attr(int64(r.Intn(3)))
	case "index", "exponent_bits", "mantissa_bits", "api_version", "version":
		return I32Attr(int64(r.Intn(3)))
	case "value":
		return randDense(r)
	case "dot_dimension_numbers":
		return DotDims{LhsContractingDims: randInts(r), RhsContractingDims: randInts(r), LhsBatchingDims: randInts(r)}
	case "dimension_numbers":
		return ConvDims{InputBatchDim: 0, InputFeatureDim: 1, InputSpatialDims: []int64{2}, KernelInputFeatureDim: 1, KernelOutputFeatureDim: 0, KernelSpatialDims: []int64{2}, OutputBatchDim: 0, OutputFeatureDim: 2, OutputSpatialDims: []int64{1}}
	case "padding":
		return MustDense(DenseFromInt64s(Tensor(I64, 1, 2), []int64{1, 0}))
	case "window_reversal":
		return BoolArray(true)
	case "precision_config":
		return PrecisionConfig("DEFAULT", "HIGH")
	case "call_target_name", "name", "einsum_config":
		return StringAttr(randString(r))
	case "callee", "decomposition":
		return SymbolRefAttr{Name: "f"}
	case "lower", "has_side_effect", "indices_are_sorted", "is_stable":
		return BoolAttr(r.Intn(2) == 0)
	case "fft_type":
		return FFTType("IFFT")
	case "rng_algorithm":
		return RngAlgorithm("PHILOX")
	case "rng_distribution":
		return RngDistribution("NORMAL")
	case "tolerance":
		return FloatAttr{Value: 1e-3, Type: F64}
	case "max_ulp_difference", "min_ulp_difference":
		return I64Attr(int64(r.Intn(5)))
	}
	return I64Array(randInts(r)...)
}

func randModule(r *rand.Rand) *Module {
	m := NewModule([]string{"", "jit_f", "a b"}[r.Intn(3)])
	if r.Intn(2) == 0 {
		m.Attrs = []NamedAttr{NA("mhlo.num_partitions", I32Attr(1)), NA("z", randAttr(r, 0))}
	}
	m.Loc = randLoc(r, 0)
	names := KnownOps()
	names = append(names, "chlo.erf", "my.op", "weird")
	for fi := 0; fi < 1+r.Intn(3); fi++ {
		var args []Type
		for i := 0; i < r.Intn(4); i++ {
			args = append(args, randType(r))
		}
		f := m.NewFunc([]string{"main", "f", "g h"}[fi], args, []Type{randType(r)})
		f.Visibility = []string{"", "public", "private"}[r.Intn(3)]
		f.Loc = randLoc(r, 0)
		for i := range f.Args {
			if r.Intn(3) == 0 {
				f.SetArgAttr(i, "mhlo.sharding", StringAttr("{replicated}"))
			}
			f.Arg(i).Loc = randLoc(r, 0)
		}
		if r.Intn(2) == 0 {
			f.SetResultAttr(0, "jax.result_info", StringAttr(""))
		}
		if r.Intn(4) == 0 {
			f.Attrs = []NamedAttr{NA("no_inline", UnitAttr{})}
		}
		b := f.Builder()
		randBlock(r, b, f.Entry().Args, names, 0)
		if r.Intn(5) == 0 {
			m.Funcs = append(m.Funcs, &Func{Name: "decl" + string(rune('a'+fi)) + randString(r), Visibility: "private", Args: []Param{{Type: randType(r)}}, ResultTypes: []Type{randType(r)}})
		}
	}
	return m
}

// randBlock appends random ops using visible values, then a terminator.
func randBlock(r *rand.Rand, b *Builder, visible []*Value, names []string, depth int) {
	visible = append([]*Value(nil), visible...)
	pick := func() *Value {
		if len(visible) == 0 {
			v := b.Constant(randDense(r))
			visible = append(visible, v)
			return v
		}
		return visible[r.Intn(len(visible))]
	}
	for i := 0; i < r.Intn(8); i++ {
		name := names[r.Intn(len(names))]
		if name == "func.return" || name == "stablehlo.return" {
			continue
		}
		// Ops of the op table get the operand and region counts it says
		// (the parser and Verify check them).
		nops, nreg := r.Intn(4), 0
		if r.Intn(6) == 0 {
			nreg = 1 + r.Intn(2)
		}
		if d, ok := LookupOp(name); ok {
			nops, nreg = d.Operands, d.Regions
			if nops < 0 {
				nops = d.MinOperands + r.Intn(3)
			}
			if nreg < 0 {
				nreg = 1 + r.Intn(2)
			}
			if nreg > 0 && depth >= 2 {
				continue
			}
		}
		var operands []*Value
		for j := 0; j < nops; j++ {
			operands = append(operands, pick())
		}
		// Same-typed operands make pretty forms likely.
		if r.Intn(2) == 0 && len(operands) > 0 {
			for j := range operands {
				operands[j] = operands[0]
			}
		}
		var results []Type
		nres := r.Intn(3)
		for j := 0; j < nres; j++ {
			if r.Intn(2) == 0 && len(operands) > 0 {
				results = append(results, operands[0].Type)
			} else {
				results = append(results, randType(r))
			}
		}
		var attrs []NamedAttr
		if info := opTable[name]; info != nil {
			for _, p := range info.props {
				if r.Intn(4) != 0 {
					attrs = append(attrs, NA(p, attrFor(r, p)))
				}
			}
		}
		if r.Intn(4) == 0 {
			attrs = append(attrs, NamedAttr{Name: "mhlo.extra", Value: randAttr(r, 0), Prop: r.Intn(2) == 0})
		}
		b.Loc = randLoc(r, 0)
		op := b.Op(name, operands, results, attrs...)
		if depth < 2 {
			for k := 0; k < nreg; k++ {
				var argTypes []Type
				if name == "stablehlo.while" {
					argTypes = valueTypes(operands)
				} else {
					for j := 0; j < r.Intn(3); j++ {
						argTypes = append(argTypes, randTensor(r))
					}
					if name == "stablehlo.reduce" && len(operands) == 2 && r.Intn(2) == 0 {
						// A compact-printable body.
						s := TensorType{Elem: Tensor(F32).Elem}
						if it, ok := operands[1].Type.(TensorType); ok {
							s.Elem = it.Elem
						}
						rb := op.NewRegion(s, s)
						rb.Loc = op.Loc
						rb.Block().Args[0].Loc, rb.Block().Args[1].Loc = op.Loc, op.Loc
						rb.Return(rb.Op1("stablehlo.add", []*Value{rb.Arg(0), rb.Arg(1)}, s))
						continue
					}
				}
				rb := op.NewRegion(argTypes...)
				for _, a := range rb.Block().Args {
					a.Loc = randLoc(r, 0)
				}
				randBlock(r, rb, append(visible, rb.Block().Args...), names, depth+1)
			}
		}
		visible = append(visible, op.Results...)
	}
	var rets []*Value
	for i := 0; i < r.Intn(3); i++ {
		rets = append(rets, pick())
	}
	b.Loc = randLoc(r, 0)
	b.Return(rets...)
}
