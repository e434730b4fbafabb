package bytecode

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/stela-ml/stela/stablehlo"
)

// Read reads MLIR bytecode holding a StableHLO program (a portable
// artifact: VHLO ops in a builtin module) and returns the module in
// Stela's StableHLO model. Errors are *Error for malformed bytecode and
// name the op for programs the model cannot hold.
func Read(data []byte) (*stablehlo.Module, error) {
	d, top, err := decodeFile(data)
	if err != nil {
		return nil, err
	}
	c := &converter{d: d}
	m, err := c.module(top)
	if err != nil {
		return nil, fmt.Errorf("mlir bytecode (%s, version %d): %w", d.producerDesc(), d.version, err)
	}
	sinkConstants(m)
	return m, nil
}

// ToText reads MLIR bytecode and returns the module as StableHLO text,
// what stablehlo.Parse reads back to the same module.
func ToText(data []byte) ([]byte, error) {
	m, err := Read(data)
	if err != nil {
		return nil, err
	}
	return stablehlo.Format(m, stablehlo.PrintOptions{Locations: true}), nil
}

func (d *decoder) producerDesc() string {
	if d.producer == "" {
		return "no producer"
	}
	return "producer " + fmt.Sprintf("%q", d.producer)
}

// VHLO versions this reader converts (StableHLO's VHLO dialect, as the
// Stela CPU plugin reports them in stablehlo_minimum_version and
// stablehlo_current_version).
var (
	MinVersion     = [3]int64{0, 9, 0}
	CurrentVersion = [3]int64{1, 17, 0}
)

type converter struct {
	d *decoder
	// forward maps the results of dropped ops (sdy.sharding_constraint)
	// to the values they stand for.
	forward map[*stablehlo.Value]*stablehlo.Value
	err     error
}

func (c *converter) attrs(o *stablehlo.Op) *rawAttrs { return c.d.rawAttrs[o] }

func (c *converter) module(top []*stablehlo.Op) (*stablehlo.Module, error) {
	m := &stablehlo.Module{}
	body := top
	if len(top) == 1 && top[0].Name == "builtin.module" {
		mo := top[0]
		ra := c.attrs(mo)
		for _, a := range append(append([]stablehlo.NamedAttr{}, ra.props...), ra.attrs...) {
			switch a.Name {
			case "sym_name":
				s, ok := a.Value.(stablehlo.StringAttr)
				if !ok {
					return nil, fmt.Errorf("builtin.module: sym_name is %s, not a string", a.Value)
				}
				m.Name = string(s)
			case "sym_visibility":
			default:
				m.Attrs = append(m.Attrs, a)
			}
		}
		m.Loc = mo.Loc
		if len(mo.Regions) != 1 || len(mo.Regions[0].Blocks) != 1 {
			return nil, fmt.Errorf("builtin.module: expected one region with one block")
		}
		body = mo.Regions[0].Blocks[0].Ops
	} else {
		m.Bare = true
	}
	for _, o := range body {
		switch o.Name {
		case "vhlo.func_v1", "func.func":
			f, err := c.fn(o)
			if err != nil {
				return nil, err
			}
			m.Funcs = append(m.Funcs, f)
		case "sdy.mesh":
			// Shardy's device meshes: the functions' sdy.sharding
			// attributes refer to them (kept verbatim). A single-device
			// program has only the empty mesh; the model keeps no
			// module-level op other than functions.
		default:
			return nil, fmt.Errorf("%s: only functions (and sdy.mesh) may appear in a module", o.Name)
		}
	}
	return m, nil
}

func (c *converter) fn(o *stablehlo.Op) (*stablehlo.Func, error) {
	ra := c.attrs(o)
	f := &stablehlo.Func{Loc: o.Loc}
	var ft stablehlo.FunctionType
	haveType := false
	var argAttrs, resAttrs stablehlo.ArrayAttr
	for _, a := range append(append([]stablehlo.NamedAttr{}, ra.props...), ra.attrs...) {
		switch a.Name {
		case "sym_name":
			s, ok := a.Value.(stablehlo.StringAttr)
			if !ok {
				return nil, fmt.Errorf("%s: sym_name is %s, not a string", o.Name, a.Value)
			}
			f.Name = string(s)
		case "function_type":
			t, ok := a.Value.(stablehlo.TypeAttr)
			if ok {
				ft, haveType = t.Type.(stablehlo.FunctionType)
			}
			if !haveType {
				return nil, fmt.Errorf("%s: function_type is %s, not a function type", o.Name, a.Value)
			}
		case "sym_visibility":
			s, ok := a.Value.(stablehlo.StringAttr)
			if !ok {
				return nil, fmt.Errorf("%s: sym_visibility is %s, not a string", o.Name, a.Value)
			}
			f.Visibility = string(s)
		case "arg_attrs", "res_attrs":
			arr, ok := a.Value.(stablehlo.ArrayAttr)
			if !ok {
				return nil, fmt.Errorf("%s: %s is %s, not an array", o.Name, a.Name, a.Value)
			}
			if a.Name == "arg_attrs" {
				argAttrs = arr
			} else {
				resAttrs = arr
			}
		default:
			f.Attrs = append(f.Attrs, a)
		}
	}
	if f.Name == "" || !haveType {
		return nil, fmt.Errorf("%s: a function needs sym_name and function_type", o.Name)
	}
	dicts := func(arr stablehlo.ArrayAttr, n int, what string) ([][]stablehlo.NamedAttr, error) {
		if len(arr) == 0 {
			return nil, nil
		}
		if len(arr) != n {
			return nil, fmt.Errorf("function @%s: %d %s for %d values", f.Name, len(arr), what, n)
		}
		out := make([][]stablehlo.NamedAttr, n)
		for i, a := range arr {
			dict, ok := a.(stablehlo.DictAttr)
			if !ok {
				return nil, fmt.Errorf("function @%s: %s entry %d is %s, not a dictionary", f.Name, what, i, a)
			}
			out[i] = []stablehlo.NamedAttr(dict)
		}
		return out, nil
	}
	args, err := dicts(argAttrs, len(ft.Inputs), "argument attributes")
	if err != nil {
		return nil, err
	}
	res, err := dicts(resAttrs, len(ft.Results), "result attributes")
	if err != nil {
		return nil, err
	}
	for i, t := range ft.Inputs {
		p := stablehlo.Param{Type: t}
		if args != nil {
			p.Attrs = args[i]
		}
		f.Args = append(f.Args, p)
	}
	f.ResultTypes = ft.Results
	if res != nil {
		f.ResultAttrs = res
	}
	if len(o.Regions) == 1 && len(o.Regions[0].Blocks) > 0 {
		blk := o.Regions[0].Blocks[0]
		if len(blk.Args) != len(ft.Inputs) {
			return nil, fmt.Errorf("function @%s: %d block arguments for %d parameters", f.Name, len(blk.Args), len(ft.Inputs))
		}
		for i, a := range blk.Args {
			if !stablehlo.TypesEqual(a.Type, ft.Inputs[i]) {
				return nil, fmt.Errorf("function @%s: argument %d has type %s, the signature says %s", f.Name, i, a.Type, ft.Inputs[i])
			}
		}
		if err := c.block(blk, true); err != nil {
			return nil, fmt.Errorf("function @%s: %w", f.Name, err)
		}
		if c.err != nil {
			return nil, fmt.Errorf("function @%s: %w", f.Name, c.err)
		}
		f.Body = o.Regions[0]
	}
	return f, nil
}

var versionSuffix = regexp.MustCompile(`_v[0-9]+$`)

func (c *converter) block(blk *stablehlo.Block, inFunc bool) error {
	ops := blk.Ops[:0]
	for _, o := range blk.Ops {
		if err := c.op(o, inFunc); err != nil {
			return err
		}
		if forwarded(o) {
			if c.forward == nil {
				c.forward = map[*stablehlo.Value]*stablehlo.Value{}
			}
			c.forward[o.Results[0]] = o.Operands[0]
			continue
		}
		ops = append(ops, o)
	}
	blk.Ops = ops
	if c.forward != nil {
		for _, o := range blk.Ops {
			c.rewire(o)
		}
	}
	return nil
}

// forwarded reports whether o is an op the conversion drops, its result
// replaced by its operand.
func forwarded(o *stablehlo.Op) bool {
	return (o.Name == "sdy.sharding_constraint" || o.Name == "builtin.unrealized_conversion_cast") &&
		len(o.Operands) == 1 && len(o.Results) == 1
}

// rewire makes o (and the ops of its regions) read what dropped ops
// forwarded.
func (c *converter) rewire(o *stablehlo.Op) {
	for i, v := range o.Operands {
		orig := v
		for {
			w, ok := c.forward[v]
			if !ok {
				break
			}
			v = w
		}
		if v != orig && !stablehlo.TypesEqual(v.Type, orig.Type) && c.err == nil {
			c.err = fmt.Errorf("%s reads a %s made from a %s by casts (builtin.unrealized_conversion_cast) the model cannot express",
				o.Name, orig.Type, v.Type)
		}
		o.Operands[i] = v
	}
	for _, r := range o.Regions {
		for _, b := range r.Blocks {
			for _, p := range b.Ops {
				c.rewire(p)
			}
		}
	}
}

// op converts one op in place: its name and attributes to StableHLO's,
// then the ops of its regions.
func (c *converter) op(o *stablehlo.Op, inFunc bool) error {
	ra := c.attrs(o)
	attrs := append(append([]stablehlo.NamedAttr{}, ra.props...), ra.attrs...)
	vname := o.Name
	switch {
	case strings.HasPrefix(o.Name, "vhlo."):
		base := versionSuffix.ReplaceAllString(strings.TrimPrefix(o.Name, "vhlo."), "")
		if base == strings.TrimPrefix(o.Name, "vhlo.") {
			return fmt.Errorf("%s: not a versioned VHLO op name", o.Name)
		}
		switch base {
		case "func":
			return fmt.Errorf("%s: nested functions are not supported", o.Name)
		case "call":
			o.Name = "func.call"
		case "return":
			if inFunc {
				o.Name = "func.return"
			} else {
				o.Name = "stablehlo.return"
			}
		default:
			o.Name = "stablehlo." + base
		}
		var err error
		attrs, err = convertVhloAttrs(base, vname, attrs)
		if err != nil {
			return err
		}
	case o.Name == "func.call":
		for i, a := range attrs {
			if s, ok := a.Value.(stablehlo.StringAttr); ok && a.Name == "callee" {
				attrs[i].Value = stablehlo.SymbolRefAttr{Name: string(s)}
			}
		}
	case strings.HasPrefix(o.Name, "stablehlo."), strings.HasPrefix(o.Name, "chlo."), strings.HasPrefix(o.Name, "func."):
	case forwarded(o):
		// A sharding hint (the identity on one device), or a cast
		// between JAX's key types and their uint32 data around one:
		// block drops it and its users read the operand, where the
		// types agree (the model holds neither op).
		return nil
	default:
		return fmt.Errorf("op %s (dialect %q) is not StableHLO", o.Name, strings.SplitN(o.Name, ".", 2)[0])
	}
	o.Attrs = attrs
	for _, rg := range o.Regions {
		for _, b := range rg.Blocks {
			if err := c.block(b, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// Per-op attribute conversions (stablehlo's VhloLegalizeToStablehlo).
var denseI64Attrs = map[string][]string{
	"fft":                      {"fft_length"},
	"broadcast":                {"broadcast_sizes"},
	"dynamic_slice":            {"slice_sizes"},
	"reverse":                  {"dimensions"},
	"transpose":                {"permutation"},
	"pad":                      {"edge_padding_low", "edge_padding_high", "interior_padding"},
	"slice":                    {"start_indices", "limit_indices", "strides"},
	"broadcast_in_dim":         {"broadcast_dimensions"},
	"dynamic_broadcast_in_dim": {"broadcast_dimensions", "known_expanding_dimensions", "known_nonexpanding_dimensions"},
	"select_and_scatter":       {"window_dimensions", "window_strides"},
	"reduce_window":            {"window_dimensions", "window_strides", "base_dilations", "window_dilations"},
	"map":                      {"dimensions"},
	"reduce":                   {"dimensions"},
	"gather":                   {"slice_sizes"},
	"convolution":              {"lhs_dilation", "rhs_dilation", "window_strides"},
	"dynamic_conv":             {"lhs_dilation", "rhs_dilation", "window_strides"},
}

type attrSet struct {
	op    string
	attrs []stablehlo.NamedAttr
	err   error
}

func (s *attrSet) get(name string) stablehlo.Attr { return stablehlo.LookupAttr(s.attrs, name) }

func (s *attrSet) drop(names ...string) {
	out := s.attrs[:0]
	for _, a := range s.attrs {
		keep := true
		for _, n := range names {
			if a.Name == n {
				keep = false
			}
		}
		if keep {
			out = append(out, a)
		}
	}
	s.attrs = out
}

func (s *attrSet) set(name string, v stablehlo.Attr) { stablehlo.SetAttr(&s.attrs, name, v) }

func (s *attrSet) fail(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf("%s: %s", s.op, fmt.Sprintf(format, args...))
	}
}

func (s *attrSet) ints(name string) []int64 {
	a := s.get(name)
	d, ok := a.(*stablehlo.DenseElements)
	if !ok {
		s.fail("attribute %s is %v, expected an integer tensor", name, a)
		return nil
	}
	v, err := d.Int64s()
	if err != nil {
		s.fail("attribute %s: %v", name, err)
	}
	if v == nil {
		v = []int64{}
	}
	return v
}

func (s *attrSet) int1(name string) int64 {
	a := s.get(name)
	i, ok := a.(stablehlo.IntAttr)
	if !ok {
		s.fail("attribute %s is %v, expected an integer", name, a)
	}
	return i.Value
}

func isBool(a stablehlo.Attr, v bool) bool {
	b, ok := a.(stablehlo.BoolAttr)
	return ok && bool(b) == v
}

func isInt(a stablehlo.Attr, v int64) bool { i, ok := a.(stablehlo.IntAttr); return ok && i.Value == v }

func isEmptyArray(a stablehlo.Attr) bool { x, ok := a.(stablehlo.ArrayAttr); return ok && len(x) == 0 }

func isEmptyDict(a stablehlo.Attr) bool { x, ok := a.(stablehlo.DictAttr); return ok && len(x) == 0 }

func isString(a stablehlo.Attr, v string) bool {
	x, ok := a.(stablehlo.StringAttr)
	return ok && string(x) == v
}

func isEmptyTensor(a stablehlo.Attr) bool {
	x, ok := a.(*stablehlo.DenseElements)
	return ok && x.NumElements() == 0
}

// isSplatInt reports whether a is an integer (or bool) tensor whose
// elements all equal v.
func isSplatInt(a stablehlo.Attr, v int64) bool {
	var vals []int64
	switch x := a.(type) {
	case *stablehlo.DenseElements:
		var err error
		if vals, err = x.Int64s(); err != nil {
			return false
		}
	case stablehlo.DenseArray:
		vals = x.Ints
	default:
		return false
	}
	for _, e := range vals {
		if e != v {
			return false
		}
	}
	return true
}

func isSplatEnum(a stablehlo.Attr, v string) bool {
	x, ok := a.(stablehlo.ArrayAttr)
	if !ok {
		return false
	}
	for _, e := range x {
		en, ok := e.(stablehlo.EnumAttr)
		if !ok || en.Value != v {
			return false
		}
	}
	return true
}

func isNone(a stablehlo.Attr) bool {
	t, ok := a.(stablehlo.TypeAttr)
	if !ok {
		return false
	}
	o, ok := t.Type.(stablehlo.OpaqueType)
	return ok && o.Text == "none"
}

func convertVhloAttrs(base, vname string, attrs []stablehlo.NamedAttr) ([]stablehlo.NamedAttr, error) {
	s := &attrSet{op: vname, attrs: attrs}
	s.removeDefaults(base)
	s.implode(base)
	for _, name := range denseI64Attrs[base] {
		if a := s.get(name); a != nil {
			s.set(name, s.denseArray(name, a, stablehlo.I64))
		}
	}
	if base == "convolution" || base == "dynamic_conv" {
		if a := s.get("window_reversal"); a != nil {
			s.set("window_reversal", s.denseArray("window_reversal", a, stablehlo.I1))
		}
	}
	switch base {
	case "all_gather", "all_reduce", "all_to_all", "collective_permute", "reduce_scatter", "collective_broadcast":
		if a := s.get("channel_id"); a != nil {
			id := s.int1("channel_id")
			s.drop("channel_id")
			s.set("channel_handle", stablehlo.ChannelHandle{Handle: id, Type: 0})
		}
		if a := s.get("use_global_device_ids"); a != nil {
			s.drop("use_global_device_ids")
			if isBool(a, true) {
				s.set("use_global_device_ids", stablehlo.UnitAttr{})
			}
		}
	case "custom_call":
		// Layouts are index tensors, which the text form of the model
		// does not read: i64 tensors of the same numbers.
		for _, name := range []string{"operand_layouts", "result_layouts"} {
			if arr, ok := s.get(name).(stablehlo.ArrayAttr); ok {
				out := stablehlo.ArrayAttr{}
				for _, e := range arr {
					if d, ok := e.(*stablehlo.DenseElements); ok && d.Type.Elem == stablehlo.Index {
						v, err := d.Int64s()
						if err != nil {
							s.fail("%s: %v", name, err)
							continue
						}
						t := d.Type
						t.Elem = stablehlo.I64
						if e, err = stablehlo.DenseFromInt64s(t, v); err != nil {
							s.fail("%s: %v", name, err)
							continue
						}
					}
					out = append(out, e)
				}
				s.set(name, out)
			}
		}
		if arr, ok := s.get("called_computations").(stablehlo.ArrayAttr); ok {
			out := stablehlo.ArrayAttr{}
			for _, e := range arr {
				str, ok := e.(stablehlo.StringAttr)
				if !ok {
					s.fail("called_computations holds %s, not a symbol name", e)
				}
				out = append(out, stablehlo.SymbolRefAttr{Name: string(str)})
			}
			s.set("called_computations", out)
		}
	case "composite":
		s.symbol("decomposition")
	case "call":
		s.symbol("callee")
	}
	return s.attrs, s.err
}

func (s *attrSet) symbol(name string) {
	if a := s.get(name); a != nil {
		str, ok := a.(stablehlo.StringAttr)
		if !ok {
			s.fail("%s is %s, not a symbol name", name, a)
			return
		}
		s.set(name, stablehlo.SymbolRefAttr{Name: string(str)})
	}
}

func (s *attrSet) denseArray(name string, a stablehlo.Attr, elem stablehlo.ElementType) stablehlo.Attr {
	d, ok := a.(*stablehlo.DenseElements)
	if !ok {
		s.fail("attribute %s is %s, expected a tensor", name, a)
		return a
	}
	if elem == stablehlo.I1 {
		b, err := d.Bools()
		if err != nil {
			s.fail("attribute %s: %v", name, err)
		}
		return stablehlo.BoolArray(b...)
	}
	v, err := d.Int64s()
	if err != nil {
		s.fail("attribute %s: %v", name, err)
	}
	return stablehlo.I64Array(v...)
}

func (s *attrSet) implode(base string) {
	switch base {
	case "convolution", "dynamic_conv":
		c := stablehlo.ConvDims{
			InputBatchDim: s.int1("input_batch_dimension"), InputFeatureDim: s.int1("input_feature_dimension"),
			InputSpatialDims:      s.ints("input_spatial_dimensions"),
			KernelInputFeatureDim: s.int1("kernel_input_feature_dimension"), KernelOutputFeatureDim: s.int1("kernel_output_feature_dimension"),
			KernelSpatialDims: s.ints("kernel_spatial_dimensions"),
			OutputBatchDim:    s.int1("output_batch_dimension"), OutputFeatureDim: s.int1("output_feature_dimension"),
			OutputSpatialDims: s.ints("output_spatial_dimensions"),
		}
		s.drop("input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions", "kernel_input_feature_dimension",
			"kernel_output_feature_dimension", "kernel_spatial_dimensions", "output_batch_dimension", "output_feature_dimension",
			"output_spatial_dimensions")
		s.set("dimension_numbers", c)
	case "dot_general":
		dd := stablehlo.DotDims{
			LhsBatchingDims: s.ints("lhs_batching_dimensions"), RhsBatchingDims: s.ints("rhs_batching_dimensions"),
			LhsContractingDims: s.ints("lhs_contracting_dimensions"), RhsContractingDims: s.ints("rhs_contracting_dimensions"),
		}
		s.drop("lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions", "rhs_contracting_dimensions")
		s.set("dot_dimension_numbers", dd)
		algo := []string{"lhs_precision_type", "rhs_precision_type", "accumulation_type", "lhs_component_count",
			"rhs_component_count", "num_primitive_operations", "allow_imprecise_accumulation"}
		if a := s.get("lhs_precision_type"); a != nil && !isNone(a) {
			var parts []string
			for _, n := range algo {
				v := s.get(n)
				txt := fmt.Sprint(v)
				switch v := v.(type) {
				case stablehlo.IntAttr:
					txt = fmt.Sprint(v.Value)
				case stablehlo.BoolAttr:
					txt = fmt.Sprint(bool(v))
				}
				parts = append(parts, n+" = "+txt)
			}
			s.set("algorithm", stablehlo.OpaqueAttr{Text: "#stablehlo.dot_algorithm<" + strings.Join(parts, ", ") + ">"})
		}
		s.drop(algo...)
	case "gather", "dynamic_gather":
		g := stablehlo.GatherDims{
			OffsetDims: s.ints("offset_dims"), CollapsedSliceDims: s.ints("collapsed_slice_dims"),
			StartIndexMap: s.ints("start_index_map"), IndexVectorDim: s.int1("index_vector_dim"),
		}
		if s.get("operand_batching_dims") != nil {
			g.OperandBatchingDims = s.ints("operand_batching_dims")
			g.StartIndicesBatchingDims = s.ints("start_indices_batching_dims")
		}
		s.drop("offset_dims", "collapsed_slice_dims", "operand_batching_dims", "start_indices_batching_dims", "start_index_map", "index_vector_dim")
		s.set("dimension_numbers", g)
	case "scatter":
		sd := stablehlo.ScatterDims{
			UpdateWindowDims: s.ints("update_window_dims"), InsertedWindowDims: s.ints("inserted_window_dims"),
			ScatterDimsToOperandDims: s.ints("scatter_dims_to_operand_dims"), IndexVectorDim: s.int1("index_vector_dim"),
		}
		if s.get("input_batching_dims") != nil {
			sd.InputBatchingDims = s.ints("input_batching_dims")
			sd.ScatterIndicesBatchingDims = s.ints("scatter_indices_batching_dims")
		}
		s.drop("update_window_dims", "inserted_window_dims", "input_batching_dims", "scatter_indices_batching_dims", "scatter_dims_to_operand_dims", "index_vector_dim")
		s.set("scatter_dimension_numbers", sd)
	case "recv", "send":
		ch := stablehlo.ChannelHandle{Handle: s.int1("channel_id"), Type: s.int1("channel_type")}
		s.drop("channel_id", "channel_type")
		s.set("channel_handle", ch)
	}
}

func (s *attrSet) dropIf(name string, cond func(stablehlo.Attr) bool) {
	if a := s.get(name); a != nil && cond(a) {
		s.drop(name)
	}
}

func (s *attrSet) removeDefaults(base string) {
	boolF := func(a stablehlo.Attr) bool { return isBool(a, false) }
	int0 := func(a stablehlo.Attr) bool { return isInt(a, 0) }
	splat := func(v int64) func(stablehlo.Attr) bool {
		return func(a stablehlo.Attr) bool { return isSplatInt(a, v) }
	}
	defPrec := func(a stablehlo.Attr) bool { return isSplatEnum(a, "DEFAULT") }
	switch base {
	case "all_gather", "all_reduce", "reduce_scatter":
		s.dropIf("channel_id", int0)
		s.dropIf("use_global_device_ids", boolF)
	case "all_to_all", "collective_permute", "collective_broadcast":
		s.dropIf("channel_id", int0)
	case "cholesky":
		s.dropIf("lower", boolF)
	case "compare":
		s.dropIf("compare_type", func(a stablehlo.Attr) bool {
			e, ok := a.(stablehlo.EnumAttr)
			return ok && e.Value == "NOTYPE"
		})
	case "composite":
		s.dropIf("version", int0)
		s.dropIf("composite_attributes", isEmptyDict)
	case "convolution", "dynamic_conv":
		s.dropIf("window_strides", splat(1))
		if base == "convolution" {
			s.dropIf("padding", splat(0))
		}
		s.dropIf("lhs_dilation", splat(1))
		s.dropIf("rhs_dilation", splat(1))
		s.dropIf("window_reversal", splat(0))
		s.dropIf("precision_config", defPrec)
	case "custom_call":
		s.dropIf("has_side_effect", boolF)
		s.dropIf("backend_config", func(a stablehlo.Attr) bool { return isString(a, "") || isEmptyDict(a) })
		s.dropIf("api_version", func(a stablehlo.Attr) bool {
			o, ok := a.(stablehlo.OpaqueAttr)
			return ok && o.Text == "#stablehlo<custom_call_api_version API_VERSION_ORIGINAL>"
		})
		s.dropIf("called_computations", isEmptyArray)
		if isEmptyArray(s.get("operand_layouts")) && isEmptyArray(s.get("result_layouts")) {
			s.drop("operand_layouts", "result_layouts")
		}
		s.dropIf("output_operand_aliases", isEmptyArray)
	case "dot_general", "dot":
		s.dropIf("precision_config", defPrec)
	case "dynamic_broadcast_in_dim":
		s.dropIf("known_expanding_dimensions", isEmptyTensor)
		s.dropIf("known_nonexpanding_dimensions", isEmptyTensor)
	case "gather", "dynamic_gather":
		s.dropIf("indices_are_sorted", boolF)
	case "infeed":
		s.dropIf("infeed_config", func(a stablehlo.Attr) bool { return isString(a, "") })
		s.dropIf("layout", isEmptyArray)
	case "outfeed":
		s.dropIf("outfeed_config", func(a stablehlo.Attr) bool { return isString(a, "") })
	case "recv", "send":
		s.dropIf("is_host_transfer", boolF)
		s.dropIf("source_target_pairs", isEmptyTensor)
	case "reduce_window":
		s.dropIf("window_strides", splat(1))
		s.dropIf("base_dilations", splat(1))
		s.dropIf("window_dilations", splat(1))
		s.dropIf("padding", splat(0))
	case "scatter":
		s.dropIf("indices_are_sorted", boolF)
		s.dropIf("unique_indices", boolF)
	case "select_and_scatter":
		s.dropIf("window_strides", splat(1))
		s.dropIf("padding", splat(0))
	case "sort":
		s.dropIf("dimension", func(a stablehlo.Attr) bool { return isInt(a, -1) })
		s.dropIf("is_stable", boolF)
	case "func":
		s.dropIf("sym_visibility", func(a stablehlo.Attr) bool { return isString(a, "") })
		s.dropIf("arg_attrs", isEmptyArray)
		s.dropIf("res_attrs", isEmptyArray)
	}
	s.dropIf("result_accuracy", func(a stablehlo.Attr) bool {
		o, ok := a.(stablehlo.OpaqueAttr)
		return ok && o.Text == defaultResultAccuracy
	})
}
