package bytecode

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/stela-ml/stela/stablehlo"
)

// Attributes decode straight into the StableHLO model: a stablehlo.Attr,
// or a stablehlo.Loc for location attributes. VHLO's attributes map one
// to one onto builtin/StableHLO ones (vhlo.integer_v1 -> IntAttr,
// vhlo.tensor_v1 -> *DenseElements, enums -> EnumAttr); what differs per
// op (dense arrays, dimension numbers, defaults) is done by the
// conversion in vhlo.go.

// asAttr checks that v is an attribute (not a location).
func (d *decoder) asAttr(r *reader, v any, what string) stablehlo.Attr {
	a, ok := v.(stablehlo.Attr)
	if !ok {
		r.fail("%s: expected an attribute, found %s", what, describe(v))
	}
	return a
}

func (d *decoder) attrV(r *reader, what string) stablehlo.Attr {
	return d.asAttr(r, d.attr(r), what)
}

func (d *decoder) locV(r *reader) stablehlo.Loc {
	at := r.off()
	v := d.attr(r)
	l, ok := v.(stablehlo.Loc)
	if !ok {
		fail(at, "expected a location, found %s", describe(v))
	}
	return l
}

func (d *decoder) stringV(r *reader, what string) string {
	at := r.off()
	v := d.attr(r)
	s, ok := v.(stablehlo.StringAttr)
	if !ok {
		fail(at, "%s: expected a string attribute, found %s", what, describe(v))
	}
	return string(s)
}

func (d *decoder) list(r *reader, what string, each func()) {
	n := r.count(what, 1)
	for i := 0; i < n; i++ {
		each()
	}
}

func (d *decoder) svarints(r *reader, what string) []int64 {
	n := r.count(what, 1)
	out := make([]int64, n)
	for i := range out {
		out[i] = r.svarint()
	}
	return out
}

func (d *decoder) typeList(r *reader, what string) []stablehlo.Type {
	var out []stablehlo.Type
	d.list(r, what, func() { out = append(out, d.typ(r)) })
	return out
}

// apint reads an integer of the given width: one byte up to 8 bits, a
// signed varint up to 64 bits.
func (d *decoder) apint(r *reader, bits int) uint64 {
	switch {
	case bits <= 0:
		r.fail("integer of width %d", bits)
	case bits <= 8:
		return uint64(r.byte())
	case bits <= 64:
		v := uint64(r.svarint())
		if bits < 64 {
			v &= 1<<bits - 1
		}
		return v
	}
	r.fail("integers wider than 64 bits (%d) are not supported", bits)
	return 0
}

func elemOf(r *reader, t stablehlo.Type, what string) stablehlo.ElementType {
	e, ok := t.(stablehlo.ElementType)
	if !ok {
		r.fail("%s: expected a scalar type, found %s", what, t)
	}
	return e
}

func intAttr(r *reader, d *decoder, t stablehlo.Type) stablehlo.IntAttr {
	e := elemOf(r, t, "integer attribute")
	bits := e.Bits()
	if !e.IsInteger() || bits == 0 {
		r.fail("integer attribute of type %s", e)
	}
	v := d.apint(r, bits)
	// Sign-extend signless and signed values (the model's convention).
	if !e.IsUnsigned() && bits < 64 && v&(1<<(bits-1)) != 0 {
		v |= ^uint64(0) << bits
	}
	return stablehlo.IntAttr{Value: int64(v), Type: e}
}

func floatAttr(r *reader, d *decoder, t stablehlo.Type) stablehlo.FloatAttr {
	e := elemOf(r, t, "float attribute")
	bits := e.Bits()
	if !e.IsFloat() || bits == 0 {
		r.fail("float attribute of type %s", e)
	}
	b := d.apint(r, bits)
	v, ok := stablehlo.FloatFromBits(e, b)
	if !ok {
		r.fail("float attribute of type %s is not supported", e)
	}
	return stablehlo.FloatAttr{Value: v, Type: e}
}

// denseFromRaw makes dense elements from MLIR's raw data; i1 data may be
// bit-packed (8 elements a byte, a splat 0x00/0xFF).
func denseFromRaw(r *reader, t stablehlo.Type, raw []byte, vhlo bool) stablehlo.Attr {
	tt, ok := t.(stablehlo.TensorType)
	if !ok {
		r.fail("dense elements of non-tensor type %s", t)
	}
	if tt.Elem == stablehlo.I1 {
		n := tt.NumElements()
		// VHLO's reader unpacks whenever the size is the packed size;
		// the builtin dialect's keeps a single byte as a splat.
		if n > 0 && int64(len(raw)) == (n+7)/8 && int64(len(raw)) != n && (vhlo || len(raw) != 1) {
			un := make([]byte, n)
			for i := range un {
				un[i] = (raw[i/8] >> (i % 8)) & 1
			}
			raw = un
		}
	}
	if elemSizeOK(tt.Elem) {
		dn, err := stablehlo.NewDense(tt, raw)
		if err != nil {
			r.fail("%v", err)
		}
		return dn
	}
	// Element types the model keeps as text (f8, quantized): the hex form.
	return stablehlo.OpaqueAttr{Text: fmt.Sprintf("dense<\"0x%X\"> : %s", raw, tt)}
}

func elemSizeOK(e stablehlo.ElementType) bool {
	if e.IsInteger() {
		return true
	}
	switch e {
	case stablehlo.F16, stablehlo.BF16, stablehlo.F32, stablehlo.F64, stablehlo.Complex64, stablehlo.Complex128:
		return true
	}
	return false
}

// decodeAttr decodes one attribute entry of the given dialect.
func (d *decoder) decodeAttr(dialect string, custom bool, r *reader) any {
	if !custom {
		text := r.nulString()
		a, err := stablehlo.ParseAttr(text)
		if err != nil {
			// Keep what the model cannot read verbatim (a dialect
			// attribute such as #sdy.sharding<...>).
			return stablehlo.OpaqueAttr{Text: text}
		}
		return a
	}
	switch dialect {
	case "builtin":
		return d.builtinAttr(r)
	case "vhlo":
		return d.vhloAttr(r)
	case "stablehlo", "chlo":
		// Plain bytecode of these dialects has no compatibility promise
		// (the encodings change between StableHLO versions): only the
		// portable artifact (VHLO) is read.
		r.fail("%s attributes in plain (unversioned) MLIR bytecode are not read; send a StableHLO portable artifact (VHLO), as XLA's PJRT client does, or text", dialect)
	}
	// Another dialect's own encoding (Shardy's #sdy.mesh and
	// #sdy.sharding on a JAX program): kept undecoded, as the bytes in
	// hex, like any attribute the model does not interpret.
	return stablehlo.OpaqueAttr{Text: fmt.Sprintf("#%s.bytecode<\"%X\">", dialect, r.bytes(uint64(r.remaining())))}
}

func (d *decoder) builtinAttr(r *reader) any {
	at := r.off()
	code := r.varint()
	switch code {
	case 0: // ArrayAttr
		var a stablehlo.ArrayAttr
		d.list(r, "array element", func() { a = append(a, d.attrV(r, "array element")) })
		if a == nil {
			a = stablehlo.ArrayAttr{}
		}
		return a
	case 1: // DictionaryAttr
		dict := stablehlo.DictAttr{}
		d.list(r, "dictionary entry", func() {
			k := d.stringV(r, "dictionary key")
			dict = append(dict, stablehlo.NamedAttr{Name: k, Value: d.attrV(r, k)})
		})
		return dict
	case 2: // StringAttr
		return stablehlo.StringAttr(d.str(r))
	case 3: // StringAttr with type
		s := d.str(r)
		d.typ(r)
		return stablehlo.StringAttr(s)
	case 4: // FlatSymbolRefAttr
		return stablehlo.SymbolRefAttr{Name: d.stringV(r, "symbol")}
	case 5: // SymbolRefAttr
		ref := stablehlo.SymbolRefAttr{Name: d.stringV(r, "symbol")}
		d.list(r, "nested symbol", func() {
			at := r.off()
			n, ok := d.attr(r).(stablehlo.SymbolRefAttr)
			if !ok {
				fail(at, "nested symbol reference is not a flat symbol")
			}
			ref.Nested = append(ref.Nested, n.Name)
		})
		return ref
	case 6: // TypeAttr
		return stablehlo.TypeAttr{Type: d.typ(r)}
	case 7: // UnitAttr
		return stablehlo.UnitAttr{}
	case 8: // IntegerAttr
		t := d.typ(r)
		if t == stablehlo.I1 {
			return stablehlo.BoolAttr(r.byte() != 0)
		}
		return intAttr(r, d, t)
	case 9: // FloatAttr
		return floatAttr(r, d, d.typ(r))
	case 10: // CallSiteLoc
		return stablehlo.CallSiteLoc{Callee: d.locV(r), Caller: d.locV(r)}
	case 11: // FileLineColLoc: file, line, column
		file := d.stringV(r, "location file")
		line, col := r.varint(), r.varint()
		if line > math.MaxInt32 || col > math.MaxInt32 {
			fail(at, "file location number too large")
		}
		return stablehlo.FileLineColLoc{File: file, Line: int(line), Col: int(col)}
	case 12, 13: // FusedLoc, FusedLoc with metadata
		var f stablehlo.FusedLoc
		d.list(r, "fused location", func() { f.Locs = append(f.Locs, d.locV(r)) })
		if code == 13 {
			f.Metadata = d.attrV(r, "fused location metadata")
		}
		return f
	case 14: // NameLoc
		name := d.stringV(r, "location name")
		child := d.locV(r)
		if _, unknown := child.(stablehlo.UnknownLoc); unknown {
			child = nil
		}
		return stablehlo.NameLoc{Name: name, Child: child}
	case 15: // UnknownLoc
		return stablehlo.UnknownLoc{}
	case 16: // DenseResourceElementsAttr
		t := d.typ(r)
		hat := r.off()
		h := r.varint()
		if h >= uint64(len(d.resources)) {
			fail(hat, "resource handle %d out of range (%d resources)", h, len(d.resources))
		}
		res := d.resources[h]
		if res.kind != 2 {
			fail(hat, "dense resource %q has no blob", res.key)
		}
		// In bytecode the blob is the raw data (its alignment is
		// encoded apart, unlike the text form's 4-byte prefix).
		return denseFromRaw(r, t, res.blob, false)
	case 17: // DenseArrayAttr
		e := elemOf(r, d.typ(r), "dense array")
		n := r.varint()
		raw := d.blob(r)
		return denseArray(r, e, n, raw)
	case 18: // DenseIntOrFPElementsAttr
		t := d.typ(r)
		return denseFromRaw(r, t, d.blob(r), false)
	case 21: // DistinctAttr
		return d.attr(r)
	case 22: // FileLineColRange (newer MLIR): file, then a list of up to 4 numbers
		file := d.stringV(r, "location file")
		n := r.count("location number", 1)
		if n > 4 {
			fail(at, "file location with %d numbers", n)
		}
		var nums [4]int
		for i := 0; i < n; i++ {
			v := r.varint()
			if v > math.MaxInt32 {
				fail(at, "file location number %d is too large", v)
			}
			nums[i] = int(v)
		}
		l := stablehlo.FileLineColLoc{File: file, Line: nums[0], Col: nums[1]}
		switch n {
		case 3:
			l.EndLine, l.EndCol = nums[0], nums[2]
		case 4:
			l.EndLine, l.EndCol = nums[2], nums[3]
		}
		return l
	}
	fail(at, "builtin attribute code %d is not supported (19: dense string elements, 20: sparse elements)", code)
	return nil
}

func (d *decoder) blob(r *reader) []byte {
	n := r.varint()
	return r.bytes(n)
}

func denseArray(r *reader, e stablehlo.ElementType, n uint64, raw []byte) stablehlo.DenseArray {
	size := 0
	switch {
	case e == stablehlo.I1:
		size = 1
	case e.IsInteger():
		size = (e.Bits() + 7) / 8
	case e == stablehlo.F32:
		size = 4
	case e == stablehlo.F64:
		size = 8
	default:
		r.fail("dense array of %s is not supported", e)
	}
	if uint64(len(raw)) != n*uint64(size) || n > uint64(len(raw)) && size > 0 {
		r.fail("dense array of %d %s needs %d bytes, has %d", n, e, n*uint64(size), len(raw))
	}
	a := stablehlo.DenseArray{Elem: e}
	for i := uint64(0); i < n; i++ {
		var v uint64
		for j := size - 1; j >= 0; j-- {
			v = v<<8 | uint64(raw[int(i)*size+j])
		}
		switch {
		case e == stablehlo.F32:
			a.Floats = append(a.Floats, float64(math.Float32frombits(uint32(v))))
		case e == stablehlo.F64:
			a.Floats = append(a.Floats, math.Float64frombits(v))
		case e == stablehlo.I1:
			a.Ints = append(a.Ints, int64(v&1))
		default:
			bits := e.Bits()
			if !e.IsUnsigned() && bits < 64 && v&(1<<(bits-1)) != 0 {
				v |= ^uint64(0) << bits
			}
			a.Ints = append(a.Ints, int64(v))
		}
	}
	if a.Ints == nil && !e.IsFloat() {
		a.Ints = []int64{}
	}
	return a
}

var vhloEnums = map[uint64]struct {
	kind   string
	values []string
}{
	3:  {"comparison_direction", []string{"EQ", "NE", "GE", "GT", "LE", "LT"}},
	4:  {"comparison_type", []string{"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"}},
	5:  {"custom_call_api_version", []string{"API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING", "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"}},
	7:  {"fft_type", []string{"FFT", "IFFT", "RFFT", "IRFFT"}},
	11: {"precision", []string{"DEFAULT", "HIGH", "HIGHEST"}},
	12: {"rng_algorithm", []string{"DEFAULT", "THREE_FRY", "PHILOX"}},
	13: {"rng_distribution", []string{"", "UNIFORM", "NORMAL"}},
	16: {"transpose", []string{"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}},
	19: {"result_accuracy_mode", []string{"DEFAULT", "HIGHEST", "TOLERANCE"}},
}

// vhloAttr decodes an attribute of the VHLO dialect (stablehlo's
// VhloBytecode.cpp encodings).
func (d *decoder) vhloAttr(r *reader) any {
	at := r.off()
	code := r.varint()
	if e, ok := vhloEnums[code]; ok {
		v := r.varint()
		if v >= uint64(len(e.values)) || e.values[v] == "" {
			fail(at, "vhlo %s value %d is out of range", e.kind, v)
		}
		if code == 5 {
			return stablehlo.OpaqueAttr{Text: "#stablehlo<custom_call_api_version " + e.values[v] + ">"}
		}
		return stablehlo.EnumAttr{Dialect: "stablehlo", Kind: e.kind, Value: e.values[v]}
	}
	switch code {
	case 1: // ArrayV1
		a := stablehlo.ArrayAttr{}
		d.list(r, "array element", func() { a = append(a, d.attrV(r, "array element")) })
		return a
	case 2: // BooleanV1
		v := r.varint()
		if v > 1 {
			fail(at, "vhlo boolean value %d", v)
		}
		return stablehlo.BoolAttr(v == 1)
	case 6: // DictionaryV1: (key attribute, value attribute) pairs
		dict := stablehlo.DictAttr{}
		d.list(r, "dictionary entry", func() {
			k := d.stringV(r, "dictionary key")
			dict = append(dict, stablehlo.NamedAttr{Name: k, Value: d.attrV(r, k)})
		})
		return dict
	case 8: // FloatV1
		return floatAttr(r, d, d.typ(r))
	case 9: // IntegerV1
		return intAttr(r, d, d.typ(r))
	case 10: // OutputOperandAliasV1
		outIdx := d.svarints(r, "output tuple index")
		opIdx := r.svarint()
		opTup := d.svarints(r, "operand tuple index")
		return stablehlo.OpaqueAttr{Text: fmt.Sprintf("#stablehlo.output_operand_alias<output_tuple_indices = %s, operand_index = %d, operand_tuple_indices = %s>",
			intList(outIdx), opIdx, intList(opTup))}
	case 14: // StringV1
		return stablehlo.StringAttr(d.str(r))
	case 15: // TensorV1
		t := d.typ(r)
		return denseFromRaw(r, t, d.blob(r), true)
	case 17: // TypeV1
		return stablehlo.TypeAttr{Type: d.typ(r)}
	case 18: // TypeExtensionsV1: bounds of a tensor type's encoding
		b := d.svarints(r, "bound")
		return boundsAttr(b)
	case 20: // ResultAccuracyV1
		atol := math.Float64frombits(d.apint(r, 64))
		rtol := math.Float64frombits(d.apint(r, 64))
		ulps := r.svarint()
		mode := d.attrV(r, "result accuracy mode")
		m, ok := mode.(stablehlo.EnumAttr)
		if !ok || m.Kind != "result_accuracy_mode" {
			fail(at, "result accuracy mode is %s", mode)
		}
		return resultAccuracy{atol: atol, rtol: rtol, ulps: ulps, mode: m.Value}.attr()
	}
	fail(at, "vhlo attribute code %d is not supported", code)
	return nil
}

// resultAccuracy is #stablehlo.result_accuracy<...> (the accuracy
// request of transcendental ops); the default one is dropped.
type resultAccuracy struct {
	atol, rtol float64
	ulps       int64
	mode       string
}

// defaultResultAccuracy is the text of the default result accuracy,
// which the conversion drops as StableHLO does.
var defaultResultAccuracy = resultAccuracy{mode: "DEFAULT"}.attr().String()

func (a resultAccuracy) attr() stablehlo.Attr {
	return stablehlo.OpaqueAttr{Text: fmt.Sprintf("#stablehlo.result_accuracy<atol = %s, rtol = %s, ulps = %d, mode = #stablehlo.result_accuracy_mode<%s>>",
		strconv.FormatFloat(a.atol, 'e', 6, 64), strconv.FormatFloat(a.rtol, 'e', 6, 64), a.ulps, a.mode)}
}

func intList(v []int64) string {
	var sb strings.Builder
	sb.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(strconv.FormatInt(x, 10))
	}
	sb.WriteByte(']')
	return sb.String()
}

func boundsAttr(b []int64) stablehlo.Attr {
	var sb strings.Builder
	sb.WriteString("#stablehlo.bounds<")
	for i, x := range b {
		if i > 0 {
			sb.WriteString(", ")
		}
		if x == stablehlo.Dynamic {
			sb.WriteByte('?')
		} else {
			sb.WriteString(strconv.FormatInt(x, 10))
		}
	}
	sb.WriteByte('>')
	return stablehlo.OpaqueAttr{Text: sb.String()}
}

// decodeType decodes one type entry of the given dialect.
func (d *decoder) decodeType(dialect string, custom bool, r *reader) any {
	if !custom {
		text := r.nulString()
		t, err := stablehlo.ParseType(text)
		if err != nil {
			return stablehlo.OpaqueType{Text: text}
		}
		return t
	}
	switch dialect {
	case "builtin":
		return d.builtinType(r)
	case "vhlo":
		return d.vhloType(r)
	case "stablehlo", "chlo":
		r.fail("%s types in plain (unversioned) MLIR bytecode are not read; send a StableHLO portable artifact (VHLO), as XLA's PJRT client does, or text", dialect)
	}
	return stablehlo.OpaqueType{Text: fmt.Sprintf("!%s.bytecode<\"%X\">", dialect, r.bytes(uint64(r.remaining())))}
}

func (d *decoder) tensor(r *reader, encoding stablehlo.Attr) stablehlo.TensorType {
	shape := d.svarints(r, "dimension")
	for _, s := range shape {
		if s < 0 && s != stablehlo.Dynamic {
			r.fail("tensor dimension %d", s)
		}
	}
	e := elemOf(r, d.typ(r), "tensor element type")
	return stablehlo.TensorType{Shape: shape, Elem: e, Encoding: encoding}
}

func (d *decoder) builtinType(r *reader) any {
	at := r.off()
	code := r.varint()
	switch code {
	case 0: // IntegerType: width << 2 | signedness
		v := r.varint()
		w, s := v>>2, v&3
		if w == 0 || w > 64 {
			fail(at, "integer type of width %d is not supported", w)
		}
		pfx := [...]string{"i", "si", "ui", ""}[s]
		if pfx == "" {
			fail(at, "integer signedness %d", s)
		}
		if pfx == "si" {
			pfx = "i" // StableHLO writes signed integers signless
		}
		return stablehlo.ElementType(pfx + strconv.FormatUint(w, 10))
	case 1:
		return stablehlo.Index
	case 2: // FunctionType
		return stablehlo.FunctionType{Inputs: d.typeList(r, "function input"), Results: d.typeList(r, "function result")}
	case 3:
		return stablehlo.BF16
	case 4:
		return stablehlo.F16
	case 5:
		return stablehlo.F32
	case 6:
		return stablehlo.F64
	case 9: // ComplexType
		e := elemOf(r, d.typ(r), "complex element type")
		if e != stablehlo.F32 && e != stablehlo.F64 {
			fail(at, "complex<%s> is not supported", e)
		}
		return stablehlo.ElementType("complex<" + string(e) + ">")
	case 12:
		return stablehlo.OpaqueType{Text: "none"}
	case 13:
		return d.tensor(r, nil)
	case 14:
		enc := d.attrV(r, "tensor encoding")
		return d.tensor(r, enc)
	case 15:
		return stablehlo.TupleType{Elems: d.typeList(r, "tuple element")}
	case 18: // UnrankedTensorType
		e := elemOf(r, d.typ(r), "tensor element type")
		return stablehlo.TensorType{Elem: e, Unranked: true}
	}
	fail(at, "builtin type code %d is not supported", code)
	return nil
}

var vhloScalarTypes = map[uint64]stablehlo.ElementType{
	0: stablehlo.I1, 2: stablehlo.BF16, 3: stablehlo.F16, 4: stablehlo.F32, 5: stablehlo.F64,
	6: "f8E4M3FN", 7: "f8E5M2", 9: stablehlo.Index,
	10: stablehlo.I4, 11: stablehlo.I8, 12: stablehlo.I16, 13: stablehlo.I32, 14: stablehlo.I64,
	15: stablehlo.UI4, 16: stablehlo.UI8, 17: stablehlo.UI16, 18: stablehlo.UI32, 19: stablehlo.UI64,
	27: "f8E4M3FNUZ", 28: "f8E5M2FNUZ", 29: "f8E4M3B11FNUZ", 31: stablehlo.I2, 32: stablehlo.UI2,
	34: "tf32", 35: "f8E4M3", 36: "f8E3M4", 37: "f4E2M1FN", 38: "f6E2M3FN", 39: "f6E3M2FN", 40: "f8E8M0FNU",
}

// vhloType decodes a type of the VHLO dialect.
func (d *decoder) vhloType(r *reader) any {
	at := r.off()
	code := r.varint()
	if t, ok := vhloScalarTypes[code]; ok {
		return t
	}
	switch code {
	case 1: // ComplexV1
		e := elemOf(r, d.typ(r), "complex element type")
		if e != stablehlo.F32 && e != stablehlo.F64 {
			fail(at, "complex<%s> is not supported", e)
		}
		return stablehlo.ElementType("complex<" + string(e) + ">")
	case 8: // FunctionV1
		return stablehlo.FunctionType{Inputs: d.typeList(r, "function input"), Results: d.typeList(r, "function result")}
	case 20:
		return d.tensor(r, nil)
	case 21:
		enc := d.attrV(r, "tensor encoding")
		return d.tensor(r, enc)
	case 22:
		return stablehlo.TokenType{}
	case 23:
		return stablehlo.TupleType{Elems: d.typeList(r, "tuple element")}
	case 25: // UnrankedTensorV1
		e := elemOf(r, d.typ(r), "tensor element type")
		return stablehlo.TensorType{Elem: e, Unranked: true}
	case 33: // NoneV1
		return stablehlo.OpaqueType{Text: "none"}
	case 24, 30:
		fail(at, "quantized types are not supported")
	}
	fail(at, "vhlo type code %d is not supported", code)
	return nil
}
