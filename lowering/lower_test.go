package lowering

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

func TestModuleShape(t *testing.T) {
	b := newFB(t, "mlp", tt(ir.F32, 2), tt(ir.S32, 2))
	f := b.ret(b.e1(ir.OpAdd, nil, b.p(0), b.p(0)), b.p(1))
	m, err := Lower(f, Options{ResultInfo: true, NumReplicas: 1, NumPartitions: 1})
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "jit_mlp" {
		t.Errorf("module name %q, want jit_mlp", m.Name)
	}
	if len(m.Funcs) != 1 {
		t.Fatalf("%d functions, want 1", len(m.Funcs))
	}
	main := m.Funcs[0]
	if main.Name != "main" || main.Visibility != "public" {
		t.Errorf("function @%s visibility %q, want public @main", main.Name, main.Visibility)
	}
	ret := main.Entry().Ops[len(main.Entry().Ops)-1]
	if ret.Name != "func.return" || len(ret.Operands) != 2 || ret.Operands[1] != main.Arg(1) {
		t.Errorf("terminator %s with %d operands, want func.return of (sum, %%arg1)", ret.Name, len(ret.Operands))
	}
	for i, want := range []string{`"result[0]"`, `"result[1]"`} {
		if a := stablehlo.LookupAttr(main.ResultAttrs[i], "jax.result_info"); a == nil || a.String() != want {
			t.Errorf("result #%d jax.result_info = %v, want %s", i, a, want)
		}
	}
	golden(t, "module_options.mlir", m.String())

	m, err = Lower(f, Options{ModuleName: "custom"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "custom" || len(m.Attrs) != 0 || m.Funcs[0].ResultAttrs != nil {
		t.Errorf("with ModuleName only: name %q, attrs %v, result attrs %v", m.Name, m.Attrs, m.Funcs[0].ResultAttrs)
	}
}

func TestElementTypes(t *testing.T) {
	want := map[ir.DType]string{
		ir.Bool: "i1", ir.S8: "i8", ir.S16: "i16", ir.S32: "i32", ir.S64: "i64",
		ir.U8: "ui8", ir.U16: "ui16", ir.U32: "ui32", ir.U64: "ui64",
		ir.F16: "f16", ir.BF16: "bf16", ir.F32: "f32", ir.F64: "f64",
		ir.C64: "complex<f32>", ir.C128: "complex<f64>",
	}
	for _, d := range ir.AllDTypes {
		got, err := tensorType(tt(d, 2))
		if err != nil {
			t.Errorf("%v: %v", d, err)
			continue
		}
		if w := "tensor<2x" + want[d] + ">"; got.String() != w {
			t.Errorf("%v lowers to %s, want %s", d, got, w)
		}
	}
	if _, err := tensorType(ir.Type{DType: ir.F32, Shape: []int{ir.DynamicDim}}); err == nil {
		t.Errorf("dynamic dimension lowered without error")
	}
	if _, err := tensorType(ir.Scalar(ir.InvalidDType)); err == nil {
		t.Errorf("invalid element type lowered without error")
	}
}

// TestConstantsBitExact lowers a constant of every element type and
// checks the dense attribute's memory image against the literal's.
func TestConstantsBitExact(t *testing.T) {
	lits := constantLiterals()
	b := newFB(t, "constants")
	var outs []*ir.Value
	for _, l := range lits {
		outs = append(outs, b.e1(ir.OpConstant, ir.ConstantAttr{Value: l}))
	}
	m := lower(t, b.ret(outs...))
	var consts []*stablehlo.Op
	for _, o := range allOps(m) {
		if o.Name == "stablehlo.constant" {
			consts = append(consts, o)
		}
	}
	if len(consts) != len(lits) {
		t.Fatalf("%d constants, want %d", len(consts), len(lits))
	}
	for i, o := range consts {
		d, ok := o.Attr("value").(*stablehlo.DenseElements)
		if !ok {
			t.Errorf("constant #%d: value is %T, want dense elements", i, o.Attr("value"))
			continue
		}
		want := lits[i].Bytes()
		if got := d.Bytes(); string(got) != string(want) {
			t.Errorf("constant #%d (%v): bytes %x, want %x", i, lits[i].Type, got, want)
		}
	}
	golden(t, "constants.mlir", m.String())
}

// constantLiterals has a literal of every element type, with the values
// where a decimal round trip would lose bits (NaN payloads, subnormals,
// the extremes of each integer type).
func constantLiterals() []*ir.Literal {
	return []*ir.Literal{
		ir.LiteralOf([]int{2}, true, false),
		ir.LiteralOf([]int{3}, int8(-128), 0, 127),
		ir.LiteralOf([]int{2}, int16(-32768), 7),
		ir.LiteralOf([]int{2}, int32(math.MinInt32), -1),
		ir.LiteralOf([]int{2}, int64(math.MinInt64), math.MaxInt64),
		ir.LiteralOf([]int{2}, uint8(255), 1),
		ir.LiteralOf([]int{2}, uint16(65535), 2),
		ir.LiteralOf([]int{2}, uint32(math.MaxUint32), 3),
		ir.LiteralOf([]int{2}, uint64(math.MaxUint64), 4),
		ir.LiteralOf([]int{4}, ir.Float16(0x0001), ir.Float16(0x7BFF), ir.Float16(0x7E01), ir.Float16(0x8000)),
		ir.LiteralOf([]int{4}, ir.BFloat16(0x3F81), ir.BFloat16(0x0001), ir.BFloat16(0xFF80), ir.BFloat16(0x7FC1)),
		ir.LiteralOf([]int{3}, float32(0.1), float32FromBits(0x7FA00001), float32(math.Inf(-1))),
		ir.LiteralOf([]int{3}, 0.1, math.Float64frombits(0x7FF0000000000001), math.SmallestNonzeroFloat64),
		ir.LiteralOf([]int{2}, complex64(complex(0.1, -2)), complex64(complex(float32(math.Inf(1)), 0))),
		ir.LiteralOf([]int{1}, complex(math.Pi, math.E)),
		ir.ScalarOf(float32(1.5)),
		ir.LiteralOf([]int{2, 2}, int32(7), 7, 7, 7), // a splat
		ir.LiteralOf([]int{0}, []float32{}...),       // no elements
	}
}

func TestCompareType(t *testing.T) {
	for _, c := range []struct {
		d    ir.DType
		typ  ir.ComparisonType
		want string
	}{
		{ir.F32, ir.CmpNoType, "FLOAT"},
		{ir.BF16, ir.CmpNoType, "FLOAT"},
		{ir.C64, ir.CmpNoType, "FLOAT"},
		{ir.S8, ir.CmpNoType, "SIGNED"},
		{ir.S64, ir.CmpNoType, "SIGNED"},
		{ir.U32, ir.CmpNoType, "UNSIGNED"},
		{ir.Bool, ir.CmpNoType, "UNSIGNED"},
		{ir.F64, ir.CmpTotalOrder, "TOTALORDER"},
		{ir.F16, ir.CmpFloat, "FLOAT"},
	} {
		t.Run(c.d.String()+"_"+c.typ.String(), func(t *testing.T) {
			dir := ir.CmpGE
			if c.d.IsComplex() {
				dir = ir.CmpEQ // complex numbers compare for equality only
			}
			b := newFB(t, "cmp", tt(c.d, 3), tt(c.d, 3))
			m := lower(t, b.ret(b.e1(ir.OpCompare, ir.CompareAttr{Direction: dir, Type: c.typ}, b.p(0), b.p(1))))
			o := findOp(m, "stablehlo.compare")
			if got := o.Attr("compare_type").String(); got != "#stablehlo<comparison_type "+c.want+">" {
				t.Errorf("compare_type %s, want %s", got, c.want)
			}
			if got := o.Attr("comparison_direction").String(); got != "#stablehlo<comparison_direction "+dir.String()+">" {
				t.Errorf("comparison_direction %s, want %v", got, dir)
			}
		})
	}
}

// TestCaseCaptures checks that case branches take no block arguments and
// use the values passed to the ir branches directly.
func TestCaseCaptures(t *testing.T) {
	var f *ir.Func
	for _, c := range opCases() {
		if c.name == "case" {
			f = c.build(t)
		}
	}
	m := lower(t, f)
	o := findOp(m, "stablehlo.case")
	if len(o.Operands) != 1 || o.Operands[0] != m.Funcs[0].Arg(0) {
		t.Fatalf("case operands %v, want only the index %%arg0", o.Operands)
	}
	if len(o.Regions) != 2 {
		t.Fatalf("%d branches, want 2", len(o.Regions))
	}
	main := m.Funcs[0]
	for i, r := range o.Regions {
		if n := len(r.Blocks[0].Args); n != 0 {
			t.Errorf("branch #%d has %d block arguments, want none", i, n)
		}
	}
	add := o.Regions[0].Blocks[0].Ops[0]
	if add.Name != "stablehlo.add" || add.Operands[0] != main.Arg(1) || add.Operands[1] != main.Arg(2) {
		t.Errorf("branch #0 computes %s of %v, want stablehlo.add of %%arg1, %%arg2", add.Name, add.Operands)
	}
	ret := o.Regions[1].Blocks[0].Ops[0]
	if ret.Name != "stablehlo.return" || ret.Operands[0] != main.Arg(2) {
		t.Errorf("branch #1 is %s of %v, want stablehlo.return %%arg2", ret.Name, ret.Operands)
	}
}

// TestRegionsHaveScalarBlockArgs checks reduce's body: block arguments of
// rank-0 tensors, (acc, x) order, terminated by stablehlo.return.
func TestRegionsHaveScalarBlockArgs(t *testing.T) {
	var f *ir.Func
	for _, c := range opCases() {
		if c.name == "reduce_variadic" {
			f = c.build(t)
		}
	}
	m := lower(t, f)
	o := findOp(m, "stablehlo.reduce")
	blk := o.Regions[0].Blocks[0]
	var got []string
	for _, a := range blk.Args {
		got = append(got, a.Type.String())
	}
	if want := "tensor<f32> tensor<i32> tensor<f32> tensor<i32>"; strings.Join(got, " ") != want {
		t.Errorf("block arguments %v, want %s", got, want)
	}
	last := blk.Ops[len(blk.Ops)-1]
	if last.Name != "stablehlo.return" || len(last.Operands) != 2 {
		t.Errorf("region ends with %s of %d values, want stablehlo.return of 2", last.Name, len(last.Operands))
	}
	cmp := blk.Ops[0]
	if cmp.Name != "stablehlo.compare" || cmp.Operands[0] != blk.Args[2] || cmp.Operands[1] != blk.Args[0] {
		t.Errorf("first body op %s of %v, want compare of x (arg 2) and acc (arg 0)", cmp.Name, cmp.Operands)
	}
}

// TestCompositeDedup checks that composites with the same decomposition
// share one private function and different ones get their own.
func TestCompositeDedup(t *testing.T) {
	ty := tt(ir.F32, 4)
	b := newFB(t, "composites", ty)
	attr := ir.CompositeAttr{Name: "stela.double"}
	x := b.emit(ir.OpComposite, attr, []*ir.Value{b.p(0)}, doubler(t, ty))[0]
	b.loc = ir.Loc{File: "other.go", Line: 9} // locations do not make content differ
	y := b.emit(ir.OpComposite, attr, []*ir.Value{x}, doubler(t, ty))[0]
	square := region(t, "square", []ir.Type{ty}, func(r *fb) []*ir.Value {
		return []*ir.Value{r.e1(ir.OpMultiply, nil, r.p(0), r.p(0))}
	})
	z := b.emit(ir.OpComposite, attr, []*ir.Value{y}, square)[0]
	// A composite inside a decomposition gets its own function, or shares
	// one with the same content.
	outer := region(t, "outer", []ir.Type{ty}, func(r *fb) []*ir.Value {
		neg := region(t, "neg", []ir.Type{ty}, func(r *fb) []*ir.Value {
			return []*ir.Value{r.e1(ir.OpNegate, nil, r.p(0))}
		})
		x := r.emit(ir.OpComposite, ir.CompositeAttr{Name: "stela.inner"}, []*ir.Value{r.p(0)}, neg)[0]
		return r.emit(ir.OpComposite, ir.CompositeAttr{Name: "stela.inner2"}, []*ir.Value{x}, doubler(t, ty))
	})
	w := b.emit(ir.OpComposite, ir.CompositeAttr{Name: "stela.outer", Version: 1}, []*ir.Value{z}, outer)[0]
	m := lower(t, b.ret(w))
	var names []string
	for _, f := range m.Funcs {
		names = append(names, f.Visibility+" @"+f.Name)
	}
	want := "public @main, private @stela.double_impl, private @stela.double_impl_0, private @stela.outer_impl, private @stela.inner_impl"
	if got := strings.Join(names, ", "); got != want {
		t.Errorf("functions %s, want %s", got, want)
	}
	var decomps []string
	for _, o := range m.Funcs[0].Entry().Ops {
		if o.Name == "stablehlo.composite" {
			decomps = append(decomps, o.Attr("decomposition").String())
		}
	}
	if got := strings.Join(decomps, " "); got != "@stela.double_impl @stela.double_impl @stela.double_impl_0 @stela.outer_impl" {
		t.Errorf("decompositions %s", got)
	}
	golden(t, "composite_dedup.mlir", m.String())
}

// TestLocations checks that instruction and parameter locations reach the
// model and the printed text, and that unknown locations stay unknown.
func TestLocations(t *testing.T) {
	b := newFB(t, "mlp", tt(ir.F32, 4))
	b.p(0).SetParamLoc(ir.Loc{File: "/src/mlp.go", Line: 10})
	b.loc = ir.Loc{File: "/src/mlp.go", Line: 42}
	x := b.e1(ir.OpExp, nil, b.p(0))
	b.loc = ir.FusedLoc("fuse", ir.Loc{File: "/src/mlp.go", Line: 43}, ir.Loc{File: "/src/layers.go", Line: 7})
	y := b.e1(ir.OpNegate, nil, x)
	b.loc = ir.UnknownLoc
	z := b.e1(ir.OpAbs, nil, y)
	b.loc = ir.Loc{File: "/src/mlp.go", Line: 50}
	s := ir.Scalar(ir.F32)
	body := region(t, "sum", []ir.Type{s, s}, func(r *fb) []*ir.Value {
		r.loc = ir.Loc{File: "/src/mlp.go", Line: 51}
		return []*ir.Value{r.e1(ir.OpAdd, nil, r.p(0), r.p(1))}
	})
	zero := b.e1(ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarOf(float32(0))})
	red := b.emit(ir.OpReduce, ir.ReduceAttr{Dims: []int{0}}, []*ir.Value{z, zero}, body)[0]
	m := lower(t, b.ret(red))

	ops := m.Funcs[0].Entry().Ops
	locOf := func(o *stablehlo.Op) string {
		if o.Loc == nil {
			return "<nil>"
		}
		return o.Loc.String()
	}
	for _, c := range []struct {
		op   *stablehlo.Op
		want string
	}{
		{ops[0], `"/src/mlp.go":42:0`},
		{ops[1], `fused<"fuse">["/src/mlp.go":43:0, "/src/layers.go":7:0]`},
		{ops[2], "<nil>"},
		{ops[4], `"/src/mlp.go":50:0`},
		{ops[4].Regions[0].Blocks[0].Ops[0], `"/src/mlp.go":51:0`},
	} {
		if got := locOf(c.op); got != c.want {
			t.Errorf("%s has location %s, want %s", c.op.Name, got, c.want)
		}
	}
	if l := m.Funcs[0].Arg(0).Loc; l == nil || l.String() != `"/src/mlp.go":10:0` {
		t.Errorf("argument location %v, want \"/src/mlp.go\":10:0", l)
	}
	text := string(stablehlo.Format(m, stablehlo.PrintOptions{Locations: true}))
	for _, want := range []string{`loc("/src/mlp.go":42:0)`, `loc("/src/mlp.go":10:0)`, `"/src/layers.go":7:0`, `loc("/src/mlp.go":51:0)`} {
		if !strings.Contains(text, want) {
			t.Errorf("printed module lacks %s:\n%s", want, text)
		}
	}
	if strings.Contains(m.String(), "loc(") {
		t.Errorf("printed without locations, the module has loc(...):\n%s", m)
	}
	golden(t, "locations.mlir", text)
}

func TestLowerLoc(t *testing.T) {
	for _, c := range []struct {
		in   ir.Loc
		want string
	}{
		{ir.UnknownLoc, "<nil>"},
		{ir.Loc{File: "", Line: 7}, "<nil>"},
		{ir.Loc{File: "a.go", Line: 3}, `"a.go":3:0`},
		{ir.Loc{File: "a.go", Line: -1}, `"a.go":0:0`},
		{ir.Loc{Pass: "cse", Fused: []ir.Loc{{File: "a.go", Line: 1}, {File: "b.go", Line: 2}}}, `fused<"cse">["a.go":1:0, "b.go":2:0]`},
		{ir.Loc{Fused: []ir.Loc{{File: "a.go", Line: 1}, {Pass: "fuse", Fused: []ir.Loc{{File: "b.go", Line: 2}, ir.UnknownLoc}}}}, `fused["a.go":1:0, fused<"fuse">["b.go":2:0]]`},
		{ir.Loc{Pass: "cse", Fused: []ir.Loc{ir.UnknownLoc}}, "<nil>"},
	} {
		got := "<nil>"
		if l := lowerLoc(c.in); l != nil {
			got = l.String()
		}
		if got != c.want {
			t.Errorf("lowerLoc(%v) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestRegionLocFallback checks that ops and block arguments of a region
// with unknown locations get the location of the op holding the region.
func TestRegionLocFallback(t *testing.T) {
	at := ir.Loc{File: "sum.go", Line: 3}
	b := newFB(t, "f", tt(ir.F32, 4), tt(ir.F32))
	b.loc = at
	red := b.emit(ir.OpReduce, ir.ReduceAttr{Dims: []int{0}}, []*ir.Value{b.p(0), b.p(1)}, adder(t, ir.F32))[0]
	m := lower(t, b.ret(red))
	blk := findOp(m, "stablehlo.reduce").Regions[0].Blocks[0]
	for _, a := range blk.Args {
		if a.Loc == nil || a.Loc.String() != `"sum.go":3:0` {
			t.Errorf("block argument location %v, want \"sum.go\":3:0", a.Loc)
		}
	}
	for _, o := range blk.Ops {
		if o.Loc == nil || o.Loc.String() != `"sum.go":3:0` {
			t.Errorf("%s location %v, want \"sum.go\":3:0", o.Name, o.Loc)
		}
	}
}

func TestErrors(t *testing.T) {
	at := ir.Loc{File: "bad.go", Line: 7}
	for _, c := range []struct {
		name  string
		build func(t *testing.T) *ir.Func
		want  string // the error text
	}{
		{"no rule", func(t *testing.T) *ir.Func {
			f := ir.NewFunc("f")
			f.Body = append(f.Body, &ir.Instr{Op: ir.Op(60000), Loc: at, Func: f})
			return f
		}, "bad.go:7: op(60000): no lowering rule"},
		{"composite attribute", func(t *testing.T) *ir.Func {
			b := newFB(t, "f", tt(ir.F32))
			b.loc = at
			return b.ret(b.emit(ir.OpComposite, ir.CompositeAttr{Name: "stela.x", Attrs: []ir.NamedAttr{{Name: "names", Value: []string{"a"}}}},
				[]*ir.Value{b.p(0)}, doubler(t, tt(ir.F32)))...)
		}, `bad.go:7: composite: stela.x: attribute "names" has a value of type []string, which has no StableHLO form`},
		{"precision", func(t *testing.T) *ir.Func {
			b := newFB(t, "f", tt(ir.F32, 2), tt(ir.F32, 2))
			b.loc = at
			v := b.e1(ir.OpDotGeneral, ir.DotGeneralAttr{LhsContract: []int{0}, RhsContract: []int{0}}, b.p(0), b.p(1))
			v.Def.Attr = ir.DotGeneralAttr{LhsContract: []int{0}, RhsContract: []int{0}, Precision: []ir.Precision{9, 0}}
			return b.ret(v)
		}, "bad.go:7: dot_general: precision 9 has no StableHLO form"},
		{"missing attribute", func(t *testing.T) *ir.Func {
			b := newFB(t, "f", tt(ir.F32, 2))
			b.loc = at
			v := b.e1(ir.OpTranspose, ir.TransposeAttr{Perm: []int{0}}, b.p(0))
			v.Def.Attr = nil
			return b.ret(v)
		}, "bad.go:7: transpose: attribute is <nil>, want ir.TransposeAttr"},
		{"missing operand", func(t *testing.T) *ir.Func {
			b := newFB(t, "f", tt(ir.F32, 2))
			b.loc = at
			v := b.e1(ir.OpNegate, nil, b.p(0))
			v.Def.Args = nil
			return b.ret(v)
		}, "bad.go:7: negate: has 0 operands, want 1"},
		{"undefined operand", func(t *testing.T) *ir.Func {
			b := newFB(t, "f", tt(ir.F32, 2))
			b.loc = at
			other := ir.NewFunc("g", tt(ir.F32, 2))
			v := b.e1(ir.OpNegate, nil, b.p(0))
			v.Def.Args[0] = other.Params[0]
			return b.ret(v)
		}, "bad.go:7: negate: operand #0 %0 is not defined before its use in @f"},
		{"bad literal", func(t *testing.T) *ir.Func {
			b := newFB(t, "f", tt(ir.F32, 2))
			b.loc = at
			v := b.e1(ir.OpConstant, ir.ConstantAttr{Value: ir.LiteralOf([]int{2}, float32(1), 2)})
			v.Def.Attr = ir.ConstantAttr{Value: &ir.Literal{Type: tt(ir.F32, 2), Data: []float64{1, 2}}}
			return b.ret(v)
		}, "bad.go:7: constant: literal: data is []float64, want []float32 for f32[2]"},
		{"case branch arity", func(t *testing.T) *ir.Func {
			b := newFB(t, "f", tt(ir.S32), tt(ir.F32))
			b.loc = at
			br := region(t, "br", []ir.Type{tt(ir.F32)}, func(r *fb) []*ir.Value { return []*ir.Value{r.p(0)} })
			v := b.emit(ir.OpCase, nil, []*ir.Value{b.p(0), b.p(1)}, br)[0]
			br.Params = nil
			return b.ret(v)
		}, "bad.go:7: case: region takes 0 parameters, want 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Lower(c.build(t), Options{})
			if err == nil {
				t.Fatalf("no error, want %q", c.want)
			}
			var ie *ir.Error
			if !errors.As(err, &ie) {
				t.Errorf("error %T is not an *ir.Error", err)
			}
			if err.Error() != c.want {
				t.Errorf("error\n%s\nwant\n%s", err, c.want)
			}
		})
	}
}

func TestVerifyOption(t *testing.T) {
	b := newFB(t, "f", tt(ir.F32, 2))
	v := b.e1(ir.OpNegate, nil, b.p(0))
	v.Type = tt(ir.F32, 3) // a result type the type rule does not give
	f := b.ret(v)
	if _, err := Lower(f, Options{Verify: true}); err == nil {
		t.Errorf("Lower with Verify accepted a function that does not verify")
	}
}

func TestLowerModule(t *testing.T) {
	f := newFB(t, "entry", tt(ir.F32))
	g := newFB(t, "main", tt(ir.F32)) // collides with the entry's name
	h := newFB(t, "", tt(ir.S32))
	m, err := LowerModule(&ir.Module{Funcs: []*ir.Func{
		f.ret(f.e1(ir.OpNegate, nil, f.p(0))),
		g.ret(g.p(0)),
		h.ret(h.p(0)),
	}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range m.Funcs {
		names = append(names, f.Visibility+" @"+f.Name)
	}
	if got := strings.Join(names, ", "); got != "public @main, private @main_0, private @func" {
		t.Errorf("functions %s", got)
	}
	if m.Name != "jit_entry" {
		t.Errorf("module name %s, want jit_entry", m.Name)
	}
	if _, err := LowerModule(&ir.Module{}, Options{}); err == nil {
		t.Errorf("empty module lowered without error")
	}
}

// TestDeterministic lowers every case twice and compares the text.
func TestDeterministic(t *testing.T) {
	for _, c := range opCases() {
		a := lower(t, c.build(t)).String()
		b := lower(t, c.build(t)).String()
		if a != b {
			t.Errorf("%s: two lowerings differ:\n%s\n%s", c.name, a, b)
		}
	}
}
