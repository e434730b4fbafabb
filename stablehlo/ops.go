package stablehlo

import (
	"sort"
	"strconv"
	"strings"
)

// opInfo is what the printer and parser know about an op: its inherent
// attributes (printed as properties `<{...}>` in generic form) and its
// custom (pretty) syntax, if it has one. print returns false when the op
// does not fit its pretty form (then it prints generically); parse reads
// the text after the op name.
type opInfo struct {
	props []string
	print func(p *printer, o *Op) bool
	parse func(p *parser, o *Op, nres int)
	// regions is the number of regions the pretty form prints.
	regions int
}

// opTable holds every op the package knows, keyed by full name. Filled by
// init (the parse functions refer back to the parser, which reads the
// table).
var opTable = map[string]*opInfo{}

// typeForm is how a pretty op writes its trailing type.
type typeForm int

const (
	// typeSame: `: T` when every operand and result has type T,
	// otherwise `: (ins) -> outs`.
	typeSame typeForm = iota
	// typeFunc: always `: (ins) -> outs`.
	typeFunc
	// typeResult: `: R`, the single result type.
	typeResult
	// typeFuncOrResult: printed `: (ins) -> outs`; parsed from that or
	// from `: R`, the single result type (uniform_quantize's short form:
	// the operand's type is known from its definition).
	typeFuncOrResult
)

// kwKind is the value syntax of a keyword argument of a pretty op.
type kwKind int

const (
	kwI64List   kwKind = iota // [1, 2] : array<i64: 1, 2>
	kwI64                     // 0 : IntAttr i64
	kwI32                     // 0 : IntAttr i32
	kwEnum                    // GT : #stablehlo<kind GT>
	kwBool                    // true
	kwString                  // "ab,bc->ac"
	kwPrecision               // [DEFAULT, HIGH] : [#stablehlo<precision DEFAULT>, ...]
	kwEM                      // e5m10 : exponent_bits, mantissa_bits (i32)
)

// kwArg is one `key = value` of a pretty op.
type kwArg struct {
	key  string
	attr string
	kind kwKind
	enum string // enum kind for kwEnum
	opt  bool
}

// format returns the text of the attribute value, or false if the value
// does not fit the keyword syntax.
func (k kwArg) format(o *Op) (string, bool) {
	a := o.Attr(k.attr)
	switch k.kind {
	case kwI64List:
		d, ok := a.(DenseArray)
		if !ok || d.Elem != I64 {
			return "", false
		}
		var sb strings.Builder
		writeIntList(&sb, d.Ints)
		return sb.String(), true
	case kwI64, kwI32:
		want := I64
		if k.kind == kwI32 {
			want = I32
		}
		i, ok := a.(IntAttr)
		if !ok || !TypesEqual(i.Type, want) {
			return "", false
		}
		return formatIntOfType(i.Value, i.Type), true
	case kwEnum:
		e, ok := a.(EnumAttr)
		if !ok || e.Dialect != "stablehlo" || e.Kind != k.enum || !isBareID(e.Value) {
			return "", false
		}
		return e.Value, true
	case kwBool:
		b, ok := a.(BoolAttr)
		if !ok {
			return "", false
		}
		return BoolAttr(b).String(), true
	case kwString:
		s, ok := a.(StringAttr)
		if !ok {
			return "", false
		}
		return s.String(), true
	case kwPrecision:
		return formatPrecisionList(a)
	case kwEM:
		e, ok1 := a.(IntAttr)
		m, ok2 := o.Attr("mantissa_bits").(IntAttr)
		if !ok1 || !ok2 || !TypesEqual(e.Type, I32) || !TypesEqual(m.Type, I32) || e.Value < 0 || m.Value < 0 {
			return "", false
		}
		return "e" + strconv.FormatInt(e.Value, 10) + "m" + strconv.FormatInt(m.Value, 10), true
	}
	return "", false
}

func formatPrecisionList(a Attr) (string, bool) {
	arr, ok := a.(ArrayAttr)
	if !ok {
		return "", false
	}
	var sb strings.Builder
	sb.WriteByte('[')
	for i, e := range arr {
		en, ok := e.(EnumAttr)
		if !ok || en.Dialect != "stablehlo" || en.Kind != "precision" || !isBareID(en.Value) {
			return "", false
		}
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(en.Value)
	}
	sb.WriteByte(']')
	return sb.String(), true
}

// parseValue reads the keyword's value and sets the attribute(s).
func (k kwArg) parseValue(p *parser, o *Op) {
	switch k.kind {
	case kwI64List:
		o.Attrs = append(o.Attrs, NA(k.attr, I64Array(p.intList()...)))
	case kwI64:
		o.Attrs = append(o.Attrs, NA(k.attr, I64Attr(p.int64Lit())))
	case kwI32:
		at := p.here()
		v := p.int64Lit()
		if v != int64(int32(v)) {
			p.failAt(at, "value out of range for i32")
		}
		o.Attrs = append(o.Attrs, NA(k.attr, I32Attr(v)))
	case kwEnum:
		o.Attrs = append(o.Attrs, NA(k.attr, EnumAttr{"stablehlo", k.enum, p.expectIdent(k.enum)}))
	case kwBool:
		switch {
		case p.tryKw("true"):
			o.Attrs = append(o.Attrs, NA(k.attr, BoolAttr(true)))
		case p.tryKw("false"):
			o.Attrs = append(o.Attrs, NA(k.attr, BoolAttr(false)))
		default:
			p.fail("expected true or false%s", p.found())
		}
	case kwString:
		o.Attrs = append(o.Attrs, NA(k.attr, StringAttr(p.expectString("string"))))
	case kwPrecision:
		o.Attrs = append(o.Attrs, NA(k.attr, p.precisionList()))
	case kwEM:
		at := p.here()
		s := p.expectIdent("format like e5m10")
		var e, m int64
		ok := false
		if rest, found := strings.CutPrefix(s, "e"); found {
			if es, ms, found := strings.Cut(rest, "m"); found {
				var err1, err2 error
				e, err1 = strconv.ParseInt(es, 10, 32)
				m, err2 = strconv.ParseInt(ms, 10, 32)
				ok = err1 == nil && err2 == nil && e >= 0 && m >= 0 && es[0] != '+' && ms[0] != '+'
			}
		}
		if !ok {
			p.failAt(at, "expected format like e5m10, found %q", s)
		}
		o.Attrs = append(o.Attrs, NA("exponent_bits", I32Attr(e)), NA("mantissa_bits", I32Attr(m)))
	}
}

func (p *parser) precisionList() ArrayAttr {
	p.expect("[")
	out := ArrayAttr{}
	if p.try("]") {
		return out
	}
	for {
		out = append(out, Precision(p.expectIdent("precision")))
		if p.try("]") {
			return out
		}
		p.expect(",")
	}
}

// simpleFmt is the common pretty shape:
// `name %a, %b, key = value, ... {attrs} : type`.
type simpleFmt struct {
	kws   []kwArg
	types typeForm
}

func (f simpleFmt) print(p *printer, o *Op) bool {
	// A single type stands for one result (the parser makes one).
	if f.types != typeFunc && len(o.Results) != 1 {
		return false
	}
	p.w(o.Name)
	sep := " "
	if len(o.Operands) > 0 {
		p.wb(' ')
		p.vals(o.Operands)
		sep = ", "
	}
	var elided []string
	for _, k := range f.kws {
		if o.Attr(k.attr) == nil {
			if k.opt {
				continue
			}
			return false
		}
		s, ok := k.format(o)
		if !ok {
			return false
		}
		p.w(sep)
		sep = ", "
		p.w(k.key)
		p.w(" = ")
		p.w(s)
		elided = append(elided, k.attr)
		if k.kind == kwEM {
			elided = append(elided, "mantissa_bits")
		}
	}
	p.attrDict(o.Attrs, elided...)
	p.w(" : ")
	return p.trailingType(o, f.types)
}

// trailingType writes the op's type in the given form.
func (p *printer) trailingType(o *Op, form typeForm) bool {
	switch form {
	case typeSame:
		p.sameType(o)
	case typeFunc, typeFuncOrResult:
		p.opFuncType(o)
	case typeResult:
		if len(o.Results) != 1 {
			return false
		}
		p.typ(o.Results[0].Type)
	}
	return true
}

// sameType writes `T` if every operand and result has type T, else the
// function type.
func (p *printer) sameType(o *Op) {
	ts := append(valueTypes(o.Operands), valueTypes(o.Results)...)
	if len(ts) > 0 {
		same := true
		for _, t := range ts[1:] {
			if !TypesEqual(t, ts[0]) {
				same = false
				break
			}
		}
		if same {
			if _, isFn := ts[0].(FunctionType); !isFn {
				p.typ(ts[0])
				return
			}
		}
	}
	p.opFuncType(o)
}

func (f simpleFmt) parse(p *parser, o *Op, nres int) {
	o.Operands = p.operandList()
	needComma := len(o.Operands) > 0
	seen := map[string]bool{}
	for {
		save := p.pos
		if needComma && !p.try(",") {
			break
		}
		at := p.here()
		key := p.ident()
		var k *kwArg
		for i := range f.kws {
			if f.kws[i].key == key {
				k = &f.kws[i]
			}
		}
		if k == nil {
			if needComma {
				p.failAt(at, "%s: unexpected %s", o.Name, p.found()[2:])
			}
			p.pos = save
			break
		}
		if seen[key] {
			p.failAt(at, "%s: duplicate %s", o.Name, key)
		}
		seen[key] = true
		p.expect("=")
		k.parseValue(p, o)
		needComma = true
	}
	for _, k := range f.kws {
		if !k.opt && !seen[k.key] {
			p.fail("%s: expected %s = ...", o.Name, k.key)
		}
	}
	p.mergeAttrDict(o)
	p.expect(":")
	p.typeSpec(o, 1, f.types)
}

// mergeAttrDict reads an optional attribute dictionary into o.Attrs.
func (p *parser) mergeAttrDict(o *Op) {
	at := p.here()
	for _, a := range p.optAttrDict() {
		if LookupAttr(o.Attrs, a.Name) != nil {
			p.failAt(at, "%s: duplicate attribute %q", o.Name, a.Name)
		}
		o.Attrs = append(o.Attrs, a)
	}
}

func simple(props []string, types typeForm, kws ...kwArg) *opInfo {
	f := simpleFmt{kws: kws, types: types}
	return &opInfo{props: props, print: f.print, parse: f.parse}
}

func generic(props ...string) *opInfo { return &opInfo{props: props} }

func init() {
	// The elementwise unary and binary ops of the op table (opdefs.go)
	// print as `stablehlo.add %a, %b : T` (compare, complex and
	// reduce_precision have forms of their own, set below).
	for _, d := range OpDefs() {
		if strings.HasPrefix(d.Name, "stablehlo.") && d.Has(Elementwise) && (d.Operands == 1 || d.Operands == 2) {
			opTable[d.Name] = simple([]string{"result_accuracy"}, typeSame)
		}
	}
	for _, n := range []string{"convert", "clamp", "after_all", "create_token", "replica_id", "partition_id"} {
		opTable["stablehlo."+n] = simple([]string{"result_accuracy"}, typeSame)
	}
	for _, n := range []string{"reshape", "dynamic_reshape", "bitcast_convert", "dynamic_update_slice",
		"real_dynamic_slice", "dynamic_pad"} {
		opTable["stablehlo."+n] = simple(nil, typeFunc)
	}
	for _, n := range []string{"uniform_quantize", "uniform_dequantize"} {
		opTable["stablehlo."+n] = simple(nil, typeFuncOrResult)
	}
	kw := func(key, attr string, kind kwKind) kwArg { return kwArg{key: key, attr: attr, kind: kind} }
	enum := func(key, attr, kind string) kwArg { return kwArg{key: key, attr: attr, kind: kwEnum, enum: kind} }
	opTable["stablehlo.tuple"] = simple(nil, typeResult)
	opTable["stablehlo.iota"] = simple([]string{"iota_dimension"}, typeSame, kw("dim", "iota_dimension", kwI64))
	opTable["stablehlo.dynamic_iota"] = simple([]string{"iota_dimension"}, typeFunc, kw("dim", "iota_dimension", kwI64))
	opTable["stablehlo.broadcast_in_dim"] = simple([]string{"broadcast_dimensions"}, typeFunc, kw("dims", "broadcast_dimensions", kwI64List))
	opTable["stablehlo.dynamic_broadcast_in_dim"] = simple([]string{"broadcast_dimensions", "known_expanding_dimensions", "known_nonexpanding_dimensions"}, typeFunc, kw("dims", "broadcast_dimensions", kwI64List))
	opTable["stablehlo.broadcast"] = simple([]string{"broadcast_sizes"}, typeFunc, kw("sizes", "broadcast_sizes", kwI64List))
	opTable["stablehlo.transpose"] = simple([]string{"permutation"}, typeFunc, kw("dims", "permutation", kwI64List))
	opTable["stablehlo.reverse"] = simple([]string{"dimensions"}, typeSame, kw("dims", "dimensions", kwI64List))
	opTable["stablehlo.dynamic_slice"] = simple([]string{"slice_sizes"}, typeFunc, kw("sizes", "slice_sizes", kwI64List))
	opTable["stablehlo.concatenate"] = simple([]string{"dimension"}, typeFunc, kw("dim", "dimension", kwI64))
	opTable["stablehlo.pad"] = simple([]string{"edge_padding_low", "edge_padding_high", "interior_padding"}, typeFunc,
		kw("low", "edge_padding_low", kwI64List), kw("high", "edge_padding_high", kwI64List), kw("interior", "interior_padding", kwI64List))
	opTable["stablehlo.get_dimension_size"] = simple([]string{"dimension"}, typeFunc, kw("dim", "dimension", kwI64))
	opTable["stablehlo.set_dimension_size"] = simple([]string{"dimension"}, typeFunc, kw("dim", "dimension", kwI64))
	opTable["stablehlo.fft"] = simple([]string{"fft_type", "fft_length"}, typeFunc, enum("type", "fft_type", "fft_type"), kw("length", "fft_length", kwI64List))
	opTable["stablehlo.rng"] = simple([]string{"rng_distribution"}, typeFunc, enum("distribution", "rng_distribution", "rng_distribution"))
	opTable["stablehlo.rng_bit_generator"] = simple([]string{"rng_algorithm"}, typeFunc, enum("algorithm", "rng_algorithm", "rng_algorithm"))
	opTable["stablehlo.reduce_precision"] = simple([]string{"exponent_bits", "mantissa_bits"}, typeSame, kw("format", "exponent_bits", kwEM))
	opTable["stablehlo.cholesky"] = simple([]string{"lower"}, typeSame, kwArg{key: "lower", attr: "lower", kind: kwBool, opt: true})
	opTable["stablehlo.dot"] = simple([]string{"precision_config"}, typeFunc, kwArg{key: "precision", attr: "precision_config", kind: kwPrecision, opt: true})
	opTable["stablehlo.einsum"] = simple([]string{"einsum_config"}, typeFunc, kw("config", "einsum_config", kwString))
	opTable["stablehlo.unary_einsum"] = simple([]string{"einsum_config"}, typeFunc, kw("config", "einsum_config", kwString))

	opTable["stablehlo.complex"] = &opInfo{print: printComplex, parse: parseComplex}
	opTable["stablehlo.compare"] = &opInfo{props: []string{"comparison_direction", "compare_type"}, print: printCompare, parse: parseCompare}
	opTable["stablehlo.slice"] = &opInfo{props: []string{"start_indices", "limit_indices", "strides"}, print: printSlice, parse: parseSlice}
	opTable["stablehlo.dot_general"] = &opInfo{props: []string{"dot_dimension_numbers", "precision_config", "algorithm"}, print: printDotGeneral, parse: parseDotGeneral}
	opTable["stablehlo.convolution"] = &opInfo{props: convProps, print: printConv, parse: parseConv}
	opTable["stablehlo.reduce"] = &opInfo{props: []string{"dimensions"}, print: printReduce, parse: parseReduce, regions: 1}
	opTable["stablehlo.while"] = &opInfo{print: printWhile, parse: parseWhile, regions: 2}
	opTable["stablehlo.custom_call"] = &opInfo{props: []string{"call_target_name", "has_side_effect", "backend_config", "api_version",
		"called_computations", "operand_layouts", "result_layouts", "output_operand_aliases"}, print: printCustomCall, parse: parseCustomCall}
	opTable["stablehlo.composite"] = &opInfo{props: []string{"name", "composite_attributes", "decomposition", "version"}, print: printComposite, parse: parseComposite}
	opTable["stablehlo.constant"] = &opInfo{props: []string{"value"}, print: printConstant, parse: parseConstant}
	opTable["stablehlo.get_tuple_element"] = &opInfo{props: []string{"index"}, print: printGetTupleElement, parse: parseGetTupleElement}
	opTable["stablehlo.select"] = &opInfo{print: printSelect, parse: parseSelect}
	opTable["stablehlo.optimization_barrier"] = &opInfo{print: printOptBarrier, parse: parseOptBarrier}
	opTable["stablehlo.return"] = &opInfo{print: printReturn, parse: parseReturn}
	opTable["func.return"] = &opInfo{print: printReturn, parse: parseReturn}
	opTable["func.call"] = &opInfo{props: []string{"callee", "arg_attrs", "res_attrs", "no_inline"}, print: printCall, parse: parseCall}

	// Ops JAX prints in generic form.
	opTable["stablehlo.gather"] = generic("dimension_numbers", "slice_sizes", "indices_are_sorted")
	opTable["stablehlo.dynamic_gather"] = generic("dimension_numbers", "indices_are_sorted")
	opTable["stablehlo.scatter"] = generic("scatter_dimension_numbers", "indices_are_sorted", "unique_indices")
	opTable["stablehlo.reduce_window"] = generic("window_dimensions", "window_strides", "base_dilations", "window_dilations", "padding")
	opTable["stablehlo.select_and_scatter"] = generic("window_dimensions", "window_strides", "padding")
	opTable["stablehlo.sort"] = generic("dimension", "is_stable")
	opTable["stablehlo.map"] = generic("dimensions")
	opTable["stablehlo.case"] = generic()
	opTable["stablehlo.if"] = generic()
	opTable["stablehlo.triangular_solve"] = generic("left_side", "lower", "unit_diagonal", "transpose_a")
	opTable["stablehlo.batch_norm_inference"] = generic("epsilon", "feature_index")
	opTable["stablehlo.batch_norm_training"] = generic("epsilon", "feature_index")
	opTable["stablehlo.batch_norm_grad"] = generic("epsilon", "feature_index")
	opTable["stablehlo.all_reduce"] = generic("replica_groups", "channel_handle", "use_global_device_ids")
	opTable["stablehlo.all_gather"] = generic("all_gather_dim", "replica_groups", "channel_handle", "use_global_device_ids")
	opTable["stablehlo.reduce_scatter"] = generic("scatter_dimension", "replica_groups", "channel_handle", "use_global_device_ids")
	opTable["stablehlo.all_to_all"] = generic("split_dimension", "concat_dimension", "split_count", "replica_groups", "channel_handle")
	opTable["stablehlo.collective_permute"] = generic("source_target_pairs", "channel_handle")
	opTable["stablehlo.collective_broadcast"] = generic("replica_groups", "channel_handle")
	opTable["stablehlo.infeed"] = generic("infeed_config", "layout")
	opTable["stablehlo.outfeed"] = generic("outfeed_config")
	opTable["stablehlo.send"] = generic("channel_handle", "is_host_transfer", "source_target_pairs")
	opTable["stablehlo.recv"] = generic("channel_handle", "is_host_transfer", "source_target_pairs")
	opTable["stablehlo.dynamic_conv"] = generic(convProps...)
	opTable["stablehlo.torch_index_select"] = generic("dim", "batch_dims")

	opTable["chlo.top_k"] = &opInfo{parse: parseChloTopK}
	opTable["chlo.scan"] = &opInfo{props: []string{"dimension", "is_reverse", "is_associative", "scan_dim_size", "operandSegmentSizes", "resultSegmentSizes"}, parse: parseChloScan, regions: 1}
	opTable["chlo.constant"] = &opInfo{props: []string{"value"}, print: printConstant, parse: parseConstant}
	opTable["chlo.erf"] = generic() // the lowering of the IR's erf
	for _, n := range []string{"expect_eq", "expect_eq_const", "expect_almost_eq", "expect_almost_eq_const",
		"expect_close", "expect_serialized_eq"} {
		opTable["check."+n] = &opInfo{props: checkProps, print: printCheck, parse: parseCheck}
	}
}

var convProps = []string{"window_strides", "padding", "lhs_dilation", "rhs_dilation", "window_reversal",
	"dimension_numbers", "feature_group_count", "batch_group_count", "precision_config"}

// ------------------------------------------------------------ complex

func printComplex(p *printer, o *Op) bool {
	if len(o.Operands) != 2 || len(o.Results) != 1 {
		return false
	}
	p.w(o.Name)
	p.wb(' ')
	p.vals(o.Operands)
	p.attrDict(o.Attrs)
	p.w(" : ")
	lt, ok1 := o.Operands[0].Type.(TensorType)
	rt, ok2 := o.Results[0].Type.(TensorType)
	if ok1 && ok2 && TypesEqual(o.Operands[0].Type, o.Operands[1].Type) && rt.Elem.ComplexPart() == lt.Elem && lt.Encoding == nil {
		want := lt
		want.Elem = rt.Elem
		if TypesEqual(want, rt) {
			p.typ(rt)
			return true
		}
	}
	p.opFuncType(o)
	return true
}

func parseComplex(p *parser, o *Op, nres int) {
	o.Operands = p.operandList()
	p.mergeAttrDict(o)
	p.expect(":")
	at := p.here()
	if p.peek() == '(' {
		p.typeSpec(o, nres, typeFunc)
		return
	}
	t := p.typ()
	rt, ok := t.(TensorType)
	if !ok || rt.Elem.ComplexPart() == "" {
		p.failAt(at, "stablehlo.complex: expected a complex tensor type, found %s", t)
	}
	part := rt
	part.Elem = rt.Elem.ComplexPart()
	types := make([]Type, len(o.Operands))
	for i := range types {
		types[i] = part
	}
	p.checkOperandTypes(o, types, at)
	setResults(o, []Type{rt})
}

// ------------------------------------------------------------ compare

func printCompare(p *printer, o *Op) bool {
	dir, ok := o.Attr("comparison_direction").(EnumAttr)
	if !ok || len(o.Operands) != 2 || dir.Dialect != "stablehlo" || dir.Kind != "comparison_direction" || !isBareID(dir.Value) {
		return false
	}
	ct := o.Attr("compare_type")
	if ct != nil {
		c, ok := ct.(EnumAttr)
		if !ok || c.Dialect != "stablehlo" || c.Kind != "comparison_type" || !isBareID(c.Value) {
			return false
		}
	}
	p.w(o.Name)
	p.w("  ")
	p.w(dir.Value)
	p.w(", ")
	p.vals(o.Operands)
	if ct != nil {
		p.w(",  ")
		p.w(ct.(EnumAttr).Value)
	}
	p.attrDict(o.Attrs, "comparison_direction", "compare_type")
	p.w(" : ")
	p.opFuncType(o)
	return true
}

func parseCompare(p *parser, o *Op, nres int) {
	o.Attrs = append(o.Attrs, NA("comparison_direction", ComparisonDirection(p.expectIdent("comparison direction"))))
	p.expect(",")
	o.Operands = append(o.Operands, p.operand())
	p.expect(",")
	o.Operands = append(o.Operands, p.operand())
	if p.try(",") {
		o.Attrs = append(o.Attrs, NA("compare_type", ComparisonType(p.expectIdent("comparison type"))))
	}
	p.mergeAttrDict(o)
	p.expect(":")
	p.typeSpec(o, nres, typeFunc)
}

// ------------------------------------------------------------ slice

func printSlice(p *printer, o *Op) bool {
	s, ok1 := o.Attr("start_indices").(DenseArray)
	l, ok2 := o.Attr("limit_indices").(DenseArray)
	st, ok3 := o.Attr("strides").(DenseArray)
	if !ok1 || !ok2 || !ok3 || s.Elem != I64 || l.Elem != I64 || st.Elem != I64 ||
		len(s.Ints) != len(l.Ints) || len(s.Ints) != len(st.Ints) || len(o.Operands) != 1 {
		return false
	}
	p.w(o.Name)
	p.wb(' ')
	p.vals(o.Operands)
	p.w(" [")
	for i := range s.Ints {
		if i > 0 {
			p.w(", ")
		}
		p.w(strconv.FormatInt(s.Ints[i], 10))
		p.wb(':')
		p.w(strconv.FormatInt(l.Ints[i], 10))
		if st.Ints[i] != 1 {
			p.wb(':')
			p.w(strconv.FormatInt(st.Ints[i], 10))
		}
	}
	p.wb(']')
	p.attrDict(o.Attrs, "start_indices", "limit_indices", "strides")
	p.w(" : ")
	p.opFuncType(o)
	return true
}

func parseSlice(p *parser, o *Op, nres int) {
	o.Operands = []*Value{p.operand()}
	p.expect("[")
	start, limit, strides := []int64{}, []int64{}, []int64{}
	if !p.try("]") {
		for {
			start = append(start, p.int64Lit())
			p.expect(":")
			limit = append(limit, p.int64Lit())
			if p.try(":") {
				strides = append(strides, p.int64Lit())
			} else {
				strides = append(strides, 1)
			}
			if p.try("]") {
				break
			}
			p.expect(",")
		}
	}
	o.Attrs = append(o.Attrs, NA("start_indices", I64Array(start...)), NA("limit_indices", I64Array(limit...)), NA("strides", I64Array(strides...)))
	p.mergeAttrDict(o)
	p.expect(":")
	p.typeSpec(o, nres, typeFunc)
}

// ------------------------------------------------------------ dot_general

const dotAlgorithmPrefix = "#stablehlo.dot_algorithm"

func printDotGeneral(p *printer, o *Op) bool {
	d, ok := o.Attr("dot_dimension_numbers").(DotDims)
	if !ok || len(o.Operands) != 2 {
		return false
	}
	p.w(o.Name)
	p.wb(' ')
	p.vals(o.Operands)
	var sb strings.Builder
	if len(d.LhsBatchingDims) > 0 || len(d.RhsBatchingDims) > 0 {
		sb.WriteString(", batching_dims = ")
		writeIntList(&sb, d.LhsBatchingDims)
		sb.WriteString(" x ")
		writeIntList(&sb, d.RhsBatchingDims)
	}
	sb.WriteString(", contracting_dims = ")
	writeIntList(&sb, d.LhsContractingDims)
	sb.WriteString(" x ")
	writeIntList(&sb, d.RhsContractingDims)
	p.w(sb.String())
	if pc := o.Attr("precision_config"); pc != nil {
		s, ok := formatPrecisionList(pc)
		if !ok {
			return false
		}
		p.w(", precision = ")
		p.w(s)
	}
	if alg := o.Attr("algorithm"); alg != nil {
		oa, ok := alg.(OpaqueAttr)
		if !ok || !strings.HasPrefix(oa.Text, dotAlgorithmPrefix+"<") {
			return false
		}
		p.w(", algorithm = ")
		p.w(strings.TrimPrefix(oa.Text, dotAlgorithmPrefix))
	}
	p.attrDict(o.Attrs, "dot_dimension_numbers", "precision_config", "algorithm")
	p.w(" : ")
	p.opFuncType(o)
	return true
}

func parseDotGeneral(p *parser, o *Op, nres int) {
	o.Operands = append(o.Operands, p.operand())
	p.expect(",")
	o.Operands = append(o.Operands, p.operand())
	var d DotDims
	p.expect(",")
	if p.tryKw("batching_dims") {
		p.expect("=")
		d.LhsBatchingDims = p.intList()
		p.expectKw("x")
		d.RhsBatchingDims = p.intList()
		p.expect(",")
	}
	p.expectKw("contracting_dims")
	p.expect("=")
	d.LhsContractingDims = p.intList()
	p.expectKw("x")
	d.RhsContractingDims = p.intList()
	d = normalizeDot(d)
	o.Attrs = append(o.Attrs, NA("dot_dimension_numbers", d))
	for p.try(",") {
		switch key := p.ident(); key {
		case "precision":
			p.expect("=")
			o.Attrs = append(o.Attrs, NA("precision_config", p.precisionList()))
		case "algorithm":
			p.expect("=")
			if p.peek() != '<' {
				p.fail("expected '<'")
			}
			start := p.pos
			p.balanced()
			o.Attrs = append(o.Attrs, NA("algorithm", OpaqueAttr{Text: dotAlgorithmPrefix + string(p.src[start:p.pos])}))
		default:
			p.fail("dot_general: unexpected %q", key)
		}
	}
	p.mergeAttrDict(o)
	p.expect(":")
	p.typeSpec(o, nres, typeFunc)
}

// normalizeDot makes empty dimension lists nil, as the struct parser
// gives them.
func normalizeDot(d DotDims) DotDims {
	nilIfEmpty := func(l []int64) []int64 {
		if len(l) == 0 {
			return nil
		}
		return l
	}
	return DotDims{nilIfEmpty(d.LhsBatchingDims), nilIfEmpty(d.RhsBatchingDims), nilIfEmpty(d.LhsContractingDims), nilIfEmpty(d.RhsContractingDims)}
}

// ------------------------------------------------------------ convolution

var windowKeys = []struct{ key, attr string }{
	{"stride", "window_strides"},
	{"pad", "padding"},
	{"lhs_dilate", "lhs_dilation"},
	{"rhs_dilate", "rhs_dilation"},
	{"reverse", "window_reversal"},
}

func printConv(p *printer, o *Op) bool {
	dn, ok := o.Attr("dimension_numbers").(ConvDims)
	if !ok || len(o.Operands) != 2 {
		return false
	}
	compact, ok := dn.compact()
	if !ok {
		return false
	}
	var sb strings.Builder
	first := true
	for _, k := range windowKeys {
		a := o.Attr(k.attr)
		if a == nil {
			continue
		}
		if !first {
			sb.WriteString(", ")
		}
		first = false
		sb.WriteString(k.key)
		sb.WriteString(" = ")
		switch k.attr {
		case "padding":
			d, ok := a.(*DenseElements)
			if !ok || d.Type.Elem != I64 || len(d.Type.Shape) != 2 || d.Type.Shape[1] != 2 {
				return false
			}
			v, err := d.Int64s()
			if err != nil {
				return false
			}
			sb.WriteByte('[')
			for i := 0; i+1 < len(v); i += 2 {
				if i > 0 {
					sb.WriteString(", ")
				}
				writeIntList(&sb, v[i:i+2])
			}
			sb.WriteByte(']')
		case "window_reversal":
			d, ok := a.(DenseArray)
			if !ok || d.Elem != I1 {
				return false
			}
			writeIntList(&sb, d.Ints)
		default:
			d, ok := a.(DenseArray)
			if !ok || d.Elem != I64 {
				return false
			}
			writeIntList(&sb, d.Ints)
		}
	}
	p.w(o.Name)
	p.wb('(')
	p.vals(o.Operands)
	p.w(") dim_numbers = ")
	p.w(compact)
	p.w(", window = {")
	p.w(sb.String())
	p.wb('}')
	var elided []string
	for _, k := range windowKeys {
		elided = append(elided, k.attr)
	}
	p.attrDict(o.Attrs, append(elided, "dimension_numbers")...)
	p.w(" : ")
	p.opFuncType(o)
	return true
}

func parseConv(p *parser, o *Op, nres int) {
	p.expect("(")
	o.Operands = p.operandList()
	p.expect(")")
	p.expectKw("dim_numbers")
	p.expect("=")
	o.Attrs = append(o.Attrs, NA("dimension_numbers", p.convCompact()))
	if p.try(",") {
		p.expectKw("window")
		p.expect("=")
		p.expect("{")
		seen := map[string]bool{}
		for !p.try("}") {
			if len(seen) > 0 {
				p.expect(",")
			}
			at := p.here()
			key := p.expectIdent("window attribute")
			attr := ""
			for _, k := range windowKeys {
				if k.key == key {
					attr = k.attr
				}
			}
			if attr == "" || seen[key] {
				p.failAt(at, "convolution: unexpected window attribute %q", key)
			}
			seen[key] = true
			p.expect("=")
			switch key {
			case "pad":
				var vals []int64
				p.expect("[")
				rows := int64(0)
				if !p.try("]") {
					for {
						l := p.intList()
						if len(l) != 2 {
							p.failAt(at, "convolution: pad needs pairs")
						}
						vals = append(vals, l...)
						rows++
						if p.try("]") {
							break
						}
						p.expect(",")
					}
				}
				d, err := DenseFromInt64s(Tensor(I64, rows, 2), vals)
				if err != nil {
					d = &DenseElements{Type: Tensor(I64, 0, 2)}
				}
				o.Attrs = append(o.Attrs, NA(attr, d))
			case "reverse":
				p.expect("[")
				var bs []bool
				for !p.try("]") {
					if len(bs) > 0 {
						p.expect(",")
					}
					switch {
					case p.tryKw("true"):
						bs = append(bs, true)
					case p.tryKw("false"):
						bs = append(bs, false)
					default:
						bs = append(bs, p.int64Lit() != 0)
					}
				}
				o.Attrs = append(o.Attrs, NA(attr, BoolArray(bs...)))
			default:
				o.Attrs = append(o.Attrs, NA(attr, I64Array(p.intList()...)))
			}
		}
	}
	p.mergeAttrDict(o)
	p.expect(":")
	p.typeSpec(o, nres, typeFunc)
}

// ------------------------------------------------------------ reduce

// reduceCompact returns the name of the single binary op of a reduce body
// that can print as `applies NAME`, or "".
func (p *printer) reduceCompact(o *Op) string {
	if len(o.Operands) != 2 || len(o.Regions) != 1 || len(o.Regions[0].Blocks) != 1 {
		return ""
	}
	blk := o.Regions[0].Blocks[0]
	if len(blk.Args) != 2 || len(blk.Ops) != 2 {
		return ""
	}
	inner, ret := blk.Ops[0], blk.Ops[1]
	if inner == nil || ret == nil || len(inner.Operands) != 2 || inner.Operands[0] != blk.Args[0] || inner.Operands[1] != blk.Args[1] ||
		len(inner.Results) != 1 || len(inner.Regions) != 0 || len(inner.Attrs) != 0 ||
		ret.Name != "stablehlo.return" || len(ret.Operands) != 1 || ret.Operands[0] != inner.Results[0] ||
		len(ret.Attrs) != 0 || len(ret.Results) != 0 || len(ret.Regions) != 0 ||
		!strings.HasPrefix(inner.Name, "stablehlo.") || !isBareID(inner.Name) {
		return ""
	}
	t := blk.Args[0].Type
	if t == nil || !TypesEqual(blk.Args[1].Type, t) || !TypesEqual(inner.Results[0].Type, t) {
		return ""
	}
	// The parser rebuilds the body with rank-0 arguments of the init's
	// element type.
	if it, ok := o.Operands[1].Type.(TensorType); !ok || !TypesEqual(t, TensorType{Elem: it.Elem}) {
		return ""
	}
	if p.opts.Locations {
		k := locKey(o.Loc)
		if locKey(inner.Loc) != k || locKey(ret.Loc) != k || locKey(blk.Args[0].Loc) != k || locKey(blk.Args[1].Loc) != k {
			return ""
		}
	}
	return inner.Name
}

func printReduce(p *printer, o *Op) bool {
	dims, ok := o.Attr("dimensions").(DenseArray)
	n := len(o.Operands) / 2
	if !ok || dims.Elem != I64 || len(o.Operands)%2 != 0 || n == 0 || len(o.Regions) != 1 ||
		len(o.Regions[0].Blocks) != 1 || len(o.Regions[0].Blocks[0].Args) != 2*n {
		return false
	}
	for _, a := range o.Regions[0].Blocks[0].Args {
		if a == nil || a.Type == nil {
			return false
		}
	}
	p.w(o.Name)
	for i := 0; i < n; i++ {
		if i > 0 {
			p.w(", ")
		}
		p.wb('(')
		p.val(o.Operands[i])
		p.w(" init: ")
		p.val(o.Operands[n+i])
		p.wb(')')
	}
	compact := p.reduceCompact(o)
	if compact != "" {
		p.w(" applies ")
		p.w(compact)
	}
	var sb strings.Builder
	writeIntList(&sb, dims.Ints)
	p.w(" across dimensions = ")
	p.w(sb.String())
	p.attrDict(o.Attrs, "dimensions")
	p.w(" : ")
	p.opFuncType(o)
	if compact != "" {
		return true
	}
	p.nl()
	p.w(" reducer")
	args := o.Regions[0].Blocks[0].Args
	for i := 0; i < n; i++ {
		if i > 0 {
			p.wb(' ')
		}
		p.wb('(')
		p.regionArg(args[i])
		p.w(", ")
		p.regionArg(args[n+i])
		p.wb(')')
	}
	p.w("  ")
	p.region(o.Regions[0], false)
	return true
}

// regionArg writes `%name: type` and the location.
func (p *printer) regionArg(a *Value) {
	p.val(a)
	p.w(": ")
	p.typ(a.Type)
	p.loc(a.Loc)
}

func parseReduce(p *parser, o *Op, nres int) {
	var inputs, inits []*Value
	for {
		p.expect("(")
		inputs = append(inputs, p.operand())
		p.expectKw("init")
		p.expect(":")
		inits = append(inits, p.operand())
		p.expect(")")
		if !p.try(",") {
			break
		}
	}
	o.Operands = append(inputs, inits...)
	applies := ""
	if p.tryKw("applies") {
		applies = p.expectIdent("op name")
	}
	p.expectKw("across")
	p.expectKw("dimensions")
	p.expect("=")
	o.Attrs = append(o.Attrs, NA("dimensions", I64Array(p.intList()...)))
	p.mergeAttrDict(o)
	p.expect(":")
	p.typeSpec(o, nres, typeFunc)
	n := len(inputs)
	blk := &Block{}
	if applies != "" {
		if n != 1 {
			p.fail("reduce: applies needs one input")
		}
		t := inits[0].Type
		if tt, ok := t.(TensorType); ok {
			t = TensorType{Shape: []int64{}, Elem: tt.Elem}
		}
		a0, a1 := blk.AddArg(t), blk.AddArg(t)
		inner := &Op{Name: applies, Operands: []*Value{a0, a1}}
		setResults(inner, []Type{t})
		ret := &Op{Name: "stablehlo.return", Operands: []*Value{inner.Results[0]}}
		blk.Ops = []*Op{inner, ret}
		o.Regions = []*Region{{Blocks: []*Block{blk}}}
		p.locCopies = append(p.locCopies, locCopy{src: &o.Loc, dsts: []*Loc{&inner.Loc, &ret.Loc, &a0.Loc, &a1.Loc}})
		return
	}
	p.expectKw("reducer")
	args := make([]*Value, 2*n)
	p.pushScope()
	for i := 0; i < n; i++ {
		p.expect("(")
		args[i] = p.regionArgDef()
		p.expect(",")
		args[n+i] = p.regionArgDef()
		p.expect(")")
	}
	for i, a := range args {
		a.Block, a.Index = blk, i
	}
	blk.Args = args
	o.Regions = []*Region{p.region(blk)}
}

// regionArgDef reads `%name: type loc(...)` and defines it in the
// current scope.
func (p *parser) regionArgDef() *Value {
	at := p.here()
	name := p.valueName()
	if name == "" {
		p.fail("expected argument%s", p.found())
	}
	p.expect(":")
	v := &Value{Type: p.typ()}
	p.define(name, []*Value{v}, at)
	p.optLoc(&v.Loc)
	return v
}

// ------------------------------------------------------------ while

func printWhile(p *printer, o *Op) bool {
	if len(o.Regions) != 2 {
		return false
	}
	for _, r := range o.Regions {
		if len(r.Blocks) != 1 || len(r.Blocks[0].Args) != len(o.Operands) {
			return false
		}
		for i, a := range r.Blocks[0].Args {
			if a == nil || !TypesEqual(a.Type, o.Operands[i].Type) {
				return false
			}
			if p.opts.Locations && a.Loc != nil {
				if _, unknown := a.Loc.(UnknownLoc); !unknown {
					return false
				}
			}
		}
	}
	if len(o.Results) != len(o.Operands) {
		return false
	}
	for i, r := range o.Results {
		if !TypesEqual(r.Type, o.Operands[i].Type) {
			return false
		}
	}
	body := o.Regions[1].Blocks[0].Args
	p.w(o.Name)
	p.wb('(')
	for i, v := range o.Operands {
		if i > 0 {
			p.w(", ")
		}
		p.val(body[i])
		p.w(" = ")
		p.val(v)
	}
	p.wb(')')
	if len(o.Operands) > 0 {
		p.w(" : ")
		p.types(valueTypes(o.Operands))
	}
	if len(o.Attrs) > 0 {
		p.w(" attributes")
		p.attrDict(o.Attrs)
	}
	p.nl()
	p.w(" cond ")
	p.region(o.Regions[0], false)
	p.w(" do ")
	p.region(o.Regions[1], false)
	return true
}

func parseWhile(p *parser, o *Op, nres int) {
	p.expect("(")
	var names []string
	var positions []int
	if !p.try(")") {
		for {
			positions = append(positions, p.pos)
			name := p.valueName()
			if name == "" {
				p.fail("expected iteration argument%s", p.found())
			}
			names = append(names, name)
			p.expect("=")
			o.Operands = append(o.Operands, p.operand())
			if p.try(")") {
				break
			}
			p.expect(",")
		}
	}
	types := valueTypes(o.Operands)
	if p.try(":") {
		at := p.here()
		declared := p.typeList()
		p.checkOperandTypes(o, declared, at)
	}
	for _, a := range p.optAttrDictWithKeyword() {
		o.Attrs = append(o.Attrs, a)
	}
	region := func() *Region {
		blk := &Block{}
		p.pushScope()
		for i, n := range names {
			p.define(n, []*Value{blk.AddArg(types[i])}, positions[i])
		}
		return p.region(blk)
	}
	p.expectKw("cond")
	o.Regions = append(o.Regions, region())
	p.expectKw("do")
	o.Regions = append(o.Regions, region())
	setResults(o, types)
}

// ------------------------------------------------------------ custom_call, composite, call

func printCustomCall(p *printer, o *Op) bool {
	name, ok := o.Attr("call_target_name").(StringAttr)
	if !ok || name == "" {
		return false
	}
	p.w(o.Name)
	p.wb(' ')
	p.tmp.Reset()
	writeSymbol(&p.tmp, string(name))
	p.w(p.tmp.String())
	p.wb('(')
	p.vals(o.Operands)
	p.wb(')')
	p.attrDict(o.Attrs, "call_target_name")
	p.w(" : ")
	p.opFuncType(o)
	return true
}

func parseCustomCall(p *parser, o *Op, nres int) {
	o.Attrs = append(o.Attrs, NA("call_target_name", StringAttr(p.expectSymbol())))
	p.expect("(")
	o.Operands = p.operandList()
	p.expect(")")
	p.mergeAttrDict(o)
	p.expect(":")
	p.typeSpec(o, nres, typeFunc)
}

func printComposite(p *printer, o *Op) bool {
	name, ok := o.Attr("name").(StringAttr)
	if !ok {
		return false
	}
	p.w(o.Name)
	p.wb(' ')
	p.w(name.String())
	if len(o.Operands) > 0 {
		p.wb(' ')
		p.vals(o.Operands)
	}
	p.attrDict(o.Attrs, "name")
	p.w(" : ")
	p.opFuncType(o)
	return true
}

func parseComposite(p *parser, o *Op, nres int) {
	o.Attrs = append(o.Attrs, NA("name", StringAttr(p.expectString("composite name"))))
	o.Operands = p.operandList()
	p.mergeAttrDict(o)
	p.expect(":")
	p.typeSpec(o, nres, typeFunc)
}

func printCall(p *printer, o *Op) bool {
	callee, ok := o.Attr("callee").(SymbolRefAttr)
	if !ok {
		return false
	}
	if p.inFuncBody() {
		p.w("call ")
	} else {
		p.w("func.call ")
	}
	p.w(callee.String())
	p.wb('(')
	p.vals(o.Operands)
	p.wb(')')
	p.attrDict(o.Attrs, "callee")
	p.w(" : ")
	p.opFuncType(o)
	return true
}

func parseCall(p *parser, o *Op, nres int) {
	ref := SymbolRefAttr{Name: p.expectSymbol()}
	for p.try("::") {
		ref.Nested = append(ref.Nested, p.expectSymbol())
	}
	o.Attrs = append(o.Attrs, NA("callee", ref))
	p.expect("(")
	o.Operands = p.operandList()
	p.expect(")")
	p.mergeAttrDict(o)
	p.expect(":")
	p.typeSpec(o, nres, typeFunc)
}

// ------------------------------------------------------------ return

func printReturn(p *printer, o *Op) bool {
	if len(o.Results) != 0 || len(o.Regions) != 0 {
		return false
	}
	if o.Name == "func.return" {
		if p.inFuncBody() {
			p.w("return")
		} else {
			p.w("func.return")
		}
		p.attrDict(o.Attrs)
	} else {
		p.w(o.Name)
	}
	if len(o.Operands) > 0 {
		p.wb(' ')
		p.vals(o.Operands)
	}
	if o.Name != "func.return" {
		p.attrDict(o.Attrs)
	}
	if len(o.Operands) > 0 {
		p.w(" : ")
		p.types(valueTypes(o.Operands))
	}
	return true
}

func parseReturn(p *parser, o *Op, nres int) {
	p.mergeAttrDict(o)
	o.Operands = p.operandList()
	p.mergeAttrDict(o)
	if len(o.Operands) > 0 {
		p.expect(":")
		at := p.here()
		p.checkOperandTypes(o, p.typeList(), at)
	}
}

// ------------------------------------------------------------ constant

func printConstant(p *printer, o *Op) bool {
	if len(o.Operands) != 0 || len(o.Results) != 1 || len(o.Regions) != 0 {
		return false
	}
	rt := o.Results[0].Type
	switch v := o.Attr("value").(type) {
	case *DenseElements:
		if !TypesEqual(v.Type, rt) {
			return false
		}
	case OpaqueAttr:
		if !strings.HasSuffix(v.Text, "> : "+rt.String()) {
			return false
		}
	default:
		return false
	}
	p.w(o.Name)
	p.attrDict(o.Attrs, "value")
	p.wb(' ')
	p.attr(o.Attr("value"))
	return true
}

func parseConstant(p *parser, o *Op, nres int) {
	p.mergeAttrDict(o)
	at := p.here()
	v := p.attr()
	var t Type
	switch v := v.(type) {
	case *DenseElements:
		t = v.Type
	case OpaqueAttr:
		if i := strings.LastIndex(v.Text, "> : "); i >= 0 {
			sub := &parser{src: []byte(v.Text[i+4:]), locAliases: map[string]Loc{}}
			t = sub.typ()
		}
	}
	if t == nil {
		p.failAt(at, "stablehlo.constant: expected dense elements with a type")
	}
	if LookupAttr(o.Attrs, "value") != nil {
		p.failAt(at, "stablehlo.constant: duplicate value")
	}
	o.Attrs = append(o.Attrs, NA("value", v))
	setResults(o, []Type{t})
}

// ------------------------------------------------------------ get_tuple_element, select, optimization_barrier

func printGetTupleElement(p *printer, o *Op) bool {
	idx, ok := o.Attr("index").(IntAttr)
	if !ok || !TypesEqual(idx.Type, I32) || len(o.Operands) != 1 || idx.Value < 0 {
		return false
	}
	p.w(o.Name)
	p.wb(' ')
	p.vals(o.Operands)
	p.wb('[')
	p.w(strconv.FormatInt(idx.Value, 10))
	p.wb(']')
	p.attrDict(o.Attrs, "index")
	p.w(" : ")
	p.opFuncType(o)
	return true
}

func parseGetTupleElement(p *parser, o *Op, nres int) {
	o.Operands = []*Value{p.operand()}
	p.expect("[")
	at := p.here()
	v := p.int64Lit()
	if v < 0 || v > 1<<31-1 {
		p.failAt(at, "index out of range")
	}
	p.expect("]")
	o.Attrs = append(o.Attrs, NA("index", I32Attr(v)))
	p.mergeAttrDict(o)
	p.expect(":")
	p.typeSpec(o, nres, typeFunc)
}

func printSelect(p *printer, o *Op) bool {
	if len(o.Operands) != 3 || len(o.Results) != 1 {
		return false
	}
	p.w(o.Name)
	p.wb(' ')
	p.vals(o.Operands)
	p.attrDict(o.Attrs)
	p.w(" : ")
	pt, tt, ft, rt := o.Operands[0].Type, o.Operands[1].Type, o.Operands[2].Type, o.Results[0].Type
	// MLIR's select syntax always names the predicate type and the result
	// type (`: tensor<3xi1>, tensor<3xi1>` even when they are equal); a
	// single type does not parse in MLIR.
	switch {
	case TypesEqual(tt, ft) && TypesEqual(tt, rt):
		p.typ(pt)
		p.w(", ")
		p.typ(rt)
	default:
		p.opFuncType(o)
	}
	return true
}

func parseSelect(p *parser, o *Op, nres int) {
	o.Operands = p.operandList()
	p.mergeAttrDict(o)
	p.expect(":")
	at := p.here()
	if p.peek() == '(' {
		p.typeSpec(o, nres, typeFunc)
		return
	}
	ts := p.typeList()
	var pt, t Type
	switch len(ts) {
	case 1:
		pt, t = ts[0], ts[0]
	case 2:
		pt, t = ts[0], ts[1]
	default:
		p.failAt(at, "stablehlo.select: expected 1 or 2 types")
	}
	p.checkOperandTypes(o, []Type{pt, t, t}, at)
	setResults(o, []Type{t})
}

func printOptBarrier(p *printer, o *Op) bool {
	if len(o.Operands) != len(o.Results) {
		return false
	}
	for i, r := range o.Results {
		if !TypesEqual(r.Type, o.Operands[i].Type) {
			return false
		}
	}
	p.w(o.Name)
	p.attrDict(o.Attrs)
	if len(o.Operands) == 0 {
		p.w("()")
		return true
	}
	p.wb(' ')
	p.vals(o.Operands)
	p.w(" : ")
	p.types(valueTypes(o.Operands))
	return true
}

func parseOptBarrier(p *parser, o *Op, nres int) {
	p.mergeAttrDict(o)
	if p.try("(") {
		p.expect(")")
		return
	}
	o.Operands = p.operandList()
	p.expect(":")
	at := p.here()
	ts := p.typeList()
	p.checkOperandTypes(o, ts, at)
	setResults(o, ts)
}

// ------------------------------------------------------------ chlo

// parseChloTopK reads `chlo.top_k(%x, k = 2) : A -> (B, C)`.
func parseChloTopK(p *parser, o *Op, nres int) {
	p.expect("(")
	o.Operands = []*Value{p.operand()}
	p.expect(",")
	p.expectKw("k")
	p.expect("=")
	o.Attrs = append(o.Attrs, NA("k", I64Attr(p.int64Lit())))
	p.expect(")")
	p.mergeAttrDict(o)
	p.expect(":")
	p.typeSpec(o, nres, typeSame)
}

// ------------------------------------------------------------ check

// checkProps are the attributes of the check dialect's ops.
var checkProps = []string{"value", "tolerance", "max_ulp_difference", "min_ulp_difference", "probe_id"}

// checkKeywords are printed after the operands, in this order.
var checkKeywords = []string{"tolerance", "max_ulp_difference", "min_ulp_difference", "probe_id"}

func isConstCheck(name string) bool { return strings.HasSuffix(name, "_const") }

func printCheck(p *printer, o *Op) bool {
	if len(o.Results) != 0 || len(o.Regions) != 0 || len(o.Operands) == 0 {
		return false
	}
	value := o.Attr("value")
	if isConstCheck(o.Name) {
		d, ok := value.(*DenseElements)
		if !ok || len(o.Operands) != 1 || !TypesEqual(d.Type, o.Operands[0].Type) {
			return false
		}
	} else if value != nil {
		return false
	}
	p.w(o.Name)
	p.wb(' ')
	p.vals(o.Operands)
	if value != nil {
		p.w(", ")
		p.attr(value)
	}
	elided := []string{"value"}
	for _, k := range checkKeywords {
		a := o.Attr(k)
		if a == nil {
			continue
		}
		switch a := a.(type) {
		case FloatAttr:
			if k != "tolerance" || !TypesEqual(a.Type, F64) {
				return false
			}
			p.w(", " + k + " = ")
			p.w(formatFloatAttrValue(a))
		case IntAttr:
			if k == "tolerance" || k == "probe_id" || !TypesEqual(a.Type, I64) {
				return false
			}
			p.w(", " + k + " = ")
			p.w(strconv.FormatInt(a.Value, 10))
		case StringAttr:
			if k != "probe_id" {
				return false
			}
			p.w(", " + k + " = ")
			p.w(a.String())
		default:
			return false
		}
		elided = append(elided, k)
	}
	p.attrDict(o.Attrs, elided...)
	if value == nil {
		p.w(" : ")
		ts := valueTypes(o.Operands)
		same := true
		for _, t := range ts {
			same = same && TypesEqual(t, ts[0])
		}
		// expect_close writes type($actual), type($expected); the others
		// one type for all operands.
		if same && o.Name != "check.expect_close" {
			p.typ(ts[0])
		} else {
			p.types(ts)
		}
	}
	return true
}

func parseCheck(p *parser, o *Op, nres int) {
	o.Operands = p.operandList()
	for p.try(",") {
		at := p.here()
		if !isIDStart(p.peek()) || p.peekKw("dense") {
			if LookupAttr(o.Attrs, "value") != nil {
				p.failAt(at, "%s: duplicate value", o.Name)
			}
			o.Attrs = append(o.Attrs, NA("value", p.attr()))
			continue
		}
		key := p.ident()
		if LookupAttr(o.Attrs, key) != nil {
			p.failAt(at, "%s: duplicate %s", o.Name, key)
		}
		p.expect("=")
		vat := p.here()
		switch key {
		case "tolerance":
			text, _, ok := p.number()
			if !ok {
				p.failAt(vat, "expected number%s", p.found())
			}
			sem := semF64
			var t Type = F64
			save := p.pos
			if p.try(":") {
				if id := p.ident(); floatSemOf(ElementType(id)) != nil {
					t = ElementType(id)
					sem = floatSemOf(ElementType(id))
				} else {
					p.pos = save
				}
			}
			o.Attrs = append(o.Attrs, NA(key, FloatAttr{Value: sem.toFloat64(p.floatBits(text, sem, vat)), Type: t}))
		case "max_ulp_difference", "min_ulp_difference":
			v := p.int64Lit()
			save := p.pos
			if p.try(":") {
				if id := p.ident(); !ElementType(id).IsInteger() {
					p.pos = save
				}
			}
			o.Attrs = append(o.Attrs, NA(key, I64Attr(v)))
		default:
			o.Attrs = append(o.Attrs, NA(key, p.attr()))
		}
	}
	p.mergeAttrDict(o)
	if p.try(":") {
		at := p.here()
		ts := p.typeList()
		if len(ts) == 1 && len(o.Operands) > 1 {
			for len(ts) < len(o.Operands) {
				ts = append(ts, ts[0])
			}
		}
		p.checkOperandTypes(o, ts, at)
	}
	setResults(o, nil)
}

// ------------------------------------------------------------ helpers

// inFuncBody reports whether the op being printed is directly in a
// function body (where func ops print without the dialect prefix).
func (p *printer) inFuncBody() bool {
	return len(p.blocks) > 0 && p.funcBody[p.blocks[len(p.blocks)-1]]
}

// KnownOps returns the names of the ops whose syntax the package knows,
// sorted.
func KnownOps() []string {
	names := make([]string, 0, len(opTable))
	for n := range opTable {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
