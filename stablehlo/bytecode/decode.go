package bytecode

import (
	"fmt"
	"strings"

	"github.com/stela-ml/stela/stablehlo"
)

// opName is an entry of the dialect section's operation names.
type opName struct {
	dialect    string
	name       string // without the dialect prefix
	registered bool
}

func (o opName) full() string { return o.dialect + "." + o.name }

// entry is an attribute or type of the attribute/type section, decoded on
// first use.
type entry struct {
	dialect int
	custom  bool
	data    *reader
	state   int8 // 0: not decoded, 1: decoding, 2: decoded, 3: failed (val is the panic)
	val     any
}

// resource is a dialect resource (a dense_resource blob).
type resource struct {
	dialect string
	key     string
	kind    byte
	blob    []byte
}

// decoder holds the tables of one bytecode file.
type decoder struct {
	version  uint64
	producer string
	strings  []string
	dialects []string
	// dialectVersions holds the raw version entry of versioned dialects.
	dialectVersions map[string]*reader
	opNames         []opName
	attrs, types    []entry
	resources       []resource
	props           []*reader
	depth           int

	// ir state
	scopes   []*scope
	fwd      map[*stablehlo.Value]*stablehlo.Value // placeholder -> definition
	rawAttrs map[*stablehlo.Op]*rawAttrs
}

// rawAttrs are an op's attributes as decoded, before conversion to the
// StableHLO model.
type rawAttrs struct {
	registered bool
	attrs      []stablehlo.NamedAttr // the discardable attribute dictionary
	props      []stablehlo.NamedAttr // properties (native or as a dictionary)
}

func (d *decoder) enter(r *reader) {
	d.depth++
	if d.depth > maxDepth {
		r.fail("nesting too deep (more than %d levels)", maxDepth)
	}
}

func (d *decoder) leave() { d.depth-- }

// decodeFile reads the header and every section and returns the ops of
// the top-level block.
func decodeFile(data []byte) (d *decoder, top []*stablehlo.Op, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			d, top, err = nil, nil, e
		}
	}()
	if !IsBytecode(data) {
		return nil, nil, &Error{Off: 0, Msg: "not MLIR bytecode (the magic bytes \"ML\\xefR\" are missing)"}
	}
	r := &reader{buf: data, pos: 4}
	d = &decoder{dialectVersions: map[string]*reader{}, fwd: map[*stablehlo.Value]*stablehlo.Value{}, rawAttrs: map[*stablehlo.Op]*rawAttrs{}}
	at := r.off()
	d.version = r.varint()
	if d.version > maxBytecodeVersion {
		fail(at, "bytecode version %d is newer than the newest this reader knows (%d)", d.version, maxBytecodeVersion)
	}
	d.producer = r.nulString()
	var secs [numSections]*reader
	for !r.empty() {
		at := r.off()
		id, s := r.section()
		if secs[id] != nil {
			fail(at, "duplicate %s section", sectionNames[id])
		}
		secs[id] = s
	}
	for _, id := range []int{secString, secDialect, secAttrType, secAttrTypeOffset, secIR} {
		if secs[id] == nil {
			fail(len(data), "the %s section is missing", sectionNames[id])
		}
	}
	d.readStrings(secs[secString])
	if secs[secProperties] != nil {
		d.readProperties(secs[secProperties])
	}
	d.readDialects(secs[secDialect])
	if (secs[secResource] == nil) != (secs[secResourceOffset] == nil) {
		fail(len(data), "the resource and resource offset sections must come together")
	}
	if secs[secResource] != nil {
		d.readResources(secs[secResource], secs[secResourceOffset])
	}
	d.readAttrTypeOffsets(secs[secAttrType], secs[secAttrTypeOffset])
	top = d.readIR(secs[secIR])
	return d, top, nil
}

func (d *decoder) readStrings(r *reader) {
	n := r.count("string", 1)
	d.strings = make([]string, n)
	end := len(r.buf)
	for i := n - 1; i >= 0; i-- {
		at := r.off()
		size := r.varint()
		if size == 0 || size > uint64(end) {
			fail(at, "string size %d exceeds the section's data", size)
		}
		start := end - int(size)
		d.strings[i] = string(r.buf[start : end-1])
		end = start
	}
	if r.pos != end {
		r.fail("trailing data between the string sizes and the strings")
	}
}

func (d *decoder) str(r *reader) string {
	at := r.off()
	i := r.varint()
	if i >= uint64(len(d.strings)) {
		fail(at, "string index %d out of range (%d strings)", i, len(d.strings))
	}
	return d.strings[i]
}

func (d *decoder) strAt(at int, i uint64) string {
	if i >= uint64(len(d.strings)) {
		fail(at, "string index %d out of range (%d strings)", i, len(d.strings))
	}
	return d.strings[i]
}

func (d *decoder) readProperties(r *reader) {
	if r.empty() {
		return
	}
	n := r.count("properties", 1)
	d.props = make([]*reader, n)
	for i := range d.props {
		size := r.varint()
		d.props[i] = r.sub(size)
	}
	if !r.empty() {
		r.fail("trailing data in the properties section")
	}
}

func (d *decoder) dialect(r *reader) int {
	at := r.off()
	i := r.varint()
	if i >= uint64(len(d.dialects)) {
		fail(at, "dialect index %d out of range (%d dialects)", i, len(d.dialects))
	}
	return int(i)
}

func (d *decoder) readDialects(r *reader) {
	n := r.count("dialect", 1)
	d.dialects = make([]string, n)
	for i := range d.dialects {
		if d.version < vDialectVersioning {
			d.dialects[i] = d.str(r)
			continue
		}
		at := r.off()
		idx, versioned := r.flagged()
		d.dialects[i] = d.strAt(at, idx)
		if versioned {
			at := r.off()
			id, s := r.section()
			if id != secDialectVersions {
				fail(at, "expected a dialect version section for dialect %q", d.dialects[i])
			}
			d.dialectVersions[d.dialects[i]] = s
		}
	}
	if d.version >= vElideUnknownBlockArgLoc {
		r.varint() // the number of op names, a hint
	}
	for !r.empty() {
		dia := d.dialect(r)
		cnt := r.count("operation name", 1)
		for j := 0; j < cnt; j++ {
			at := r.off()
			var o opName
			o.dialect = d.dialects[dia]
			if d.version < vNativePropertiesEncoding {
				o.name = d.str(r)
			} else {
				idx, reg := r.flagged()
				o.name = d.strAt(at, idx)
				o.registered = reg
			}
			d.opNames = append(d.opNames, o)
		}
	}
}

func (d *decoder) readResources(data, offsets *reader) {
	nExternal := offsets.count("external resource group", 1)
	group := func(dialect string, keep bool) {
		n := offsets.count("resource", 1)
		for i := 0; i < n; i++ {
			key := d.str(offsets)
			size := offsets.varint()
			kind := offsets.byte()
			body := data.sub(size)
			if !keep {
				continue
			}
			res := resource{dialect: dialect, key: key, kind: kind}
			if kind == 2 && size > 0 { // blob
				align := body.varint()
				n := body.varint()
				body.alignTo(align)
				res.blob = body.bytes(n)
			}
			d.resources = append(d.resources, res)
		}
	}
	for i := 0; i < nExternal; i++ {
		d.str(offsets) // the provider's key: external resources are ignored
		group("", false)
	}
	for !offsets.empty() {
		dia := d.dialect(offsets)
		group(d.dialects[dia], true)
	}
}

func (d *decoder) readAttrTypeOffsets(data, offsets *reader) {
	nAttrs := offsets.count("attribute", 0)
	nTypes := offsets.count("type", 0)
	if uint64(nAttrs)+uint64(nTypes) > uint64(len(data.buf))+uint64(offsets.remaining()) {
		offsets.fail("%d attributes and %d types cannot fit in the section", nAttrs, nTypes)
	}
	d.attrs = make([]entry, nAttrs)
	d.types = make([]entry, nTypes)
	cur := uint64(0)
	fill := func(es []entry) {
		i := 0
		for i < len(es) {
			dia := d.dialect(offsets)
			n := offsets.varint()
			if n > uint64(len(es)-i) {
				offsets.fail("attribute/type group of %d entries overflows the table", n)
			}
			for j := uint64(0); j < n; j++ {
				at := offsets.off()
				size, custom := offsets.flagged()
				if cur+size > uint64(len(data.buf)) {
					fail(at, "attribute/type entry points past the end of its section")
				}
				es[i] = entry{dialect: dia, custom: custom, data: &reader{buf: data.buf[cur : cur+size], base: data.base + int(cur)}}
				cur += size
				i++
			}
		}
	}
	fill(d.attrs)
	fill(d.types)
	if !offsets.empty() {
		offsets.fail("trailing data in the attribute/type offset section")
	}
}

// attr returns the attribute of the given index, decoding it on first use.
func (d *decoder) attrAt(at int, i uint64) any {
	if i >= uint64(len(d.attrs)) {
		fail(at, "attribute index %d out of range (%d attributes)", i, len(d.attrs))
	}
	e := &d.attrs[i]
	return d.resolve(e, "attribute", func(r *reader) any { return d.decodeAttr(d.dialects[e.dialect], e.custom, r) })
}

func (d *decoder) typeAt(at int, i uint64) stablehlo.Type {
	if i >= uint64(len(d.types)) {
		fail(at, "type index %d out of range (%d types)", i, len(d.types))
	}
	e := &d.types[i]
	v := d.resolve(e, "type", func(r *reader) any { return d.decodeType(d.dialects[e.dialect], e.custom, r) })
	return v.(stablehlo.Type)
}

func (d *decoder) resolve(e *entry, what string, dec func(*reader) any) any {
	switch e.state {
	case 2:
		return e.val
	case 1:
		fail(e.data.base, "%s refers to itself", what)
	case 3:
		panic(e.val) // it failed before: the same error, without decoding again
	}
	e.state = 1
	defer func() {
		if r := recover(); r != nil {
			e.state, e.val = 3, r
			panic(r)
		}
	}()
	r := &reader{buf: e.data.buf, base: e.data.base}
	d.enter(r)
	v := dec(r)
	d.leave()
	if !r.empty() {
		r.fail("trailing bytes after the %s entry", what)
	}
	e.state, e.val = 2, v
	return v
}

// attr reads an attribute index and returns the attribute.
func (d *decoder) attr(r *reader) any {
	at := r.off()
	return d.attrAt(at, r.varint())
}

// optAttr reads a flagged attribute index; nil when absent.
func (d *decoder) optAttr(r *reader) any {
	at := r.off()
	i, present := r.flagged()
	if !present {
		return nil
	}
	return d.attrAt(at, i)
}

func (d *decoder) typ(r *reader) stablehlo.Type {
	at := r.off()
	return d.typeAt(at, r.varint())
}

// loc reads a location attribute index. A location that is not one (or
// cannot be read) is no error: locations are debug information.
func (d *decoder) loc(r *reader) stablehlo.Loc {
	at := r.off()
	i := r.varint()
	l, _ := d.tryAttr(at, i).(stablehlo.Loc)
	return l
}

// tryAttr decodes attribute i, returning nil instead of failing.
func (d *decoder) tryAttr(at int, i uint64) (v any) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(*Error); !ok {
				panic(r)
			}
			v = nil
		}
	}()
	depth := d.depth
	defer func() { d.depth = depth }()
	return d.attrAt(at, i)
}

// ---- IR ----

// scope is a value scope: the values of an isolated-from-above region and
// the regions nested in it.
type scope struct {
	values  []*stablehlo.Value
	nextIDs []int
	limit   int
}

func (s *scope) push(r *reader, n uint64) {
	if n > uint64(s.limit-len(s.values)) {
		r.fail("region defines %d values, more than the input can hold", n)
	}
	s.nextIDs = append(s.nextIDs, len(s.values))
	s.values = append(s.values, make([]*stablehlo.Value, n)...)
}

func (s *scope) pop(n int) {
	s.values = s.values[:len(s.values)-n]
	s.nextIDs = s.nextIDs[:len(s.nextIDs)-1]
}

func (d *decoder) define(r *reader, vals []*stablehlo.Value) {
	s := d.scopes[len(d.scopes)-1]
	id := &s.nextIDs[len(s.nextIDs)-1]
	if *id+len(vals) > len(s.values) {
		r.fail("value index range [%d, %d) outside the region's %d values", *id, *id+len(vals), len(s.values))
	}
	for _, v := range vals {
		if old := s.values[*id]; old != nil {
			d.fwd[old] = v
		}
		s.values[*id] = v
		*id++
	}
}

func (d *decoder) operand(r *reader) *stablehlo.Value {
	s := d.scopes[len(d.scopes)-1]
	at := r.off()
	i := r.varint()
	if i >= uint64(len(s.values)) {
		fail(at, "value index %d out of range (%d values in scope)", i, len(s.values))
	}
	if s.values[i] == nil {
		// A forward reference: resolved when the value is defined.
		ph := &stablehlo.Value{}
		s.values[i] = ph
		d.fwd[ph] = nil
	}
	return s.values[i]
}

func (d *decoder) readIR(r *reader) []*stablehlo.Op {
	blk := &stablehlo.Block{}
	sc := &scope{limit: len(r.buf) + 1}
	d.scopes = append(d.scopes, sc)
	sc.push(r, 0)
	d.readBlock(r, blk, true)
	// Resolve forward references.
	for ph, v := range d.fwd {
		if v == nil {
			return failUnresolved(r)
		}
		_ = ph
	}
	if len(d.fwd) > 0 {
		var fix func(ops []*stablehlo.Op)
		fix = func(ops []*stablehlo.Op) {
			for _, o := range ops {
				for i, v := range o.Operands {
					for {
						nv, ok := d.fwd[v]
						if !ok {
							break
						}
						v = nv
					}
					o.Operands[i] = v
				}
				for _, rg := range o.Regions {
					for _, b := range rg.Blocks {
						fix(b.Ops)
					}
				}
			}
		}
		fix(blk.Ops)
	}
	return blk.Ops
}

func failUnresolved(r *reader) []*stablehlo.Op {
	r.fail("a value is used but never defined")
	return nil
}

// readBlock reads a block header, its arguments and its ops.
func (d *decoder) readBlock(r *reader, blk *stablehlo.Block, top bool) {
	nOps, hasArgs := r.flagged()
	if nOps > uint64(r.remaining()) {
		r.fail("block of %d ops exceeds the %d bytes that remain", nOps, r.remaining())
	}
	if hasArgs {
		if top {
			r.fail("the top-level block has arguments")
		}
		n := r.count("block argument", 1)
		for i := 0; i < n; i++ {
			var t stablehlo.Type
			var l stablehlo.Loc
			if d.version >= vElideUnknownBlockArgLoc {
				at := r.off()
				ti, hasLoc := r.flagged()
				t = d.typeAt(at, ti)
				if hasLoc {
					l = d.loc(r)
				}
			} else {
				t = d.typ(r)
				l = d.loc(r)
			}
			v := blk.AddArg(t)
			if _, unknown := l.(stablehlo.UnknownLoc); !unknown {
				v.Loc = l
			}
		}
		d.define(r, blk.Args)
		if d.version >= vUseListOrdering && r.byte() != 0 {
			d.skipUseLists(r, len(blk.Args))
		}
	}
	for i := uint64(0); i < nOps; i++ {
		blk.Ops = append(blk.Ops, d.readOp(r))
	}
}

func (d *decoder) skipUseLists(r *reader, n int) {
	cnt := uint64(1)
	if n > 1 {
		cnt = r.varint()
	}
	for i := uint64(0); i < cnt; i++ {
		if n > 1 {
			r.varint()
		}
		k, _ := r.flagged()
		if k > uint64(r.remaining()) {
			r.fail("use-list order of %d entries exceeds the data", k)
		}
		for j := uint64(0); j < k; j++ {
			r.varint()
		}
	}
}

func (d *decoder) readOp(r *reader) *stablehlo.Op {
	d.enter(r)
	defer d.leave()
	at := r.off()
	ni := r.varint()
	if ni >= uint64(len(d.opNames)) {
		fail(at, "operation name index %d out of range (%d names)", ni, len(d.opNames))
	}
	on := d.opNames[ni]
	op := &stablehlo.Op{Name: on.full()}
	ra := &rawAttrs{registered: on.registered}
	d.rawAttrs[op] = ra
	mask := r.byte()
	if mask&^0x7f != 0 {
		fail(at, "%s: unknown op encoding bits 0x%02X", op.Name, mask)
	}
	op.Loc = d.loc(r)
	if _, unknown := op.Loc.(stablehlo.UnknownLoc); unknown {
		op.Loc = nil
	}
	if mask&maskAttrs != 0 {
		at := r.off()
		dict, ok := d.attr(r).(stablehlo.DictAttr)
		if !ok {
			fail(at, "%s: its attributes are not a dictionary", op.Name)
		}
		ra.attrs = dict
	}
	if mask&maskProperties != 0 {
		if d.version < vNativePropertiesEncoding {
			fail(at, "%s: properties in bytecode version %d", op.Name, d.version)
		}
		if on.registered {
			ra.props = d.readNativeProps(r, op.Name)
		} else {
			at := r.off()
			p, ok := d.attr(r).(stablehlo.DictAttr)
			if !ok {
				fail(at, "%s: its properties are not a dictionary", op.Name)
			}
			ra.props = p
		}
	}
	if mask&maskResults != 0 {
		n := r.count("result", 1)
		for i := 0; i < n; i++ {
			op.Results = append(op.Results, &stablehlo.Value{Type: d.typ(r), Def: op, Index: i})
		}
	}
	if mask&maskOperands != 0 {
		n := r.count("operand", 1)
		for i := 0; i < n; i++ {
			op.Operands = append(op.Operands, d.operand(r))
		}
	}
	if mask&maskSuccessors != 0 {
		fail(at, "%s: ops with successors (branches between blocks) are not supported: StableHLO regions have one block", op.Name)
	}
	if d.version >= vUseListOrdering && mask&maskUseListOrders != 0 {
		d.skipUseLists(r, len(op.Results))
	}
	nRegions, isolated := uint64(0), false
	if mask&maskInlineRegions != 0 {
		nRegions, isolated = r.flagged()
		if nRegions > uint64(r.remaining()) {
			r.fail("%s: %d regions exceed the data", op.Name, nRegions)
		}
	}
	if len(op.Results) > 0 {
		d.define(r, op.Results)
	}
	if nRegions > 0 {
		rr := r
		if isolated {
			if d.version >= vLazyLoading {
				at := r.off()
				id, s := r.section()
				if id != secIR {
					fail(at, "%s: expected an IR section for its regions", op.Name)
				}
				rr = s
			}
			d.scopes = append(d.scopes, &scope{limit: len(rr.buf) + 1})
		}
		for i := uint64(0); i < nRegions; i++ {
			op.Regions = append(op.Regions, d.readRegion(rr, op.Name))
		}
		if isolated {
			d.scopes = d.scopes[:len(d.scopes)-1]
			if rr != r && !rr.empty() {
				rr.fail("%s: trailing data after its regions", op.Name)
			}
		}
	}
	return op
}

func (d *decoder) readRegion(r *reader, opName string) *stablehlo.Region {
	rg := &stablehlo.Region{}
	nBlocks := r.varint()
	if nBlocks == 0 {
		return rg
	}
	if nBlocks > 1 {
		r.fail("%s: a region of %d blocks; StableHLO regions have one block", opName, nBlocks)
	}
	nValues := r.varint()
	s := d.scopes[len(d.scopes)-1]
	s.push(r, nValues)
	blk := &stablehlo.Block{}
	rg.Blocks = append(rg.Blocks, blk)
	d.readBlock(r, blk, false)
	s.pop(int(nValues))
	return rg
}

// readNativeProps reads the properties of a registered op, encoded by the
// op's own readProperties. The ops this reader knows: builtin.module and
// func.func/call/return; other registered ops with properties are
// reported (VHLO ops keep their attributes in the attribute dictionary).
func (d *decoder) readNativeProps(r *reader, name string) []stablehlo.NamedAttr {
	at := r.off()
	i := r.varint()
	if i >= uint64(len(d.props)) {
		fail(at, "%s: properties index %d out of range (%d)", name, i, len(d.props))
	}
	body := &reader{buf: d.props[i].buf, base: d.props[i].base}
	var out []stablehlo.NamedAttr
	opt := func(key string) {
		if v := d.optAttr(body); v != nil {
			out = append(out, stablehlo.NamedAttr{Name: key, Value: d.asAttr(body, v, key)})
		}
	}
	req := func(key string) {
		out = append(out, stablehlo.NamedAttr{Name: key, Value: d.asAttr(body, d.attr(body), key)})
	}
	if vn, ok := strings.CutPrefix(name, "vhlo."); ok {
		names, known := vhloOpAttrs[vn]
		if !known {
			fail(at, "%s is not an op of the VHLO dialect this reader knows (StableHLO %d.%d.%d)", name,
				CurrentVersion[0], CurrentVersion[1], CurrentVersion[2])
		}
		for _, k := range names {
			req(k)
		}
		if !body.empty() {
			body.fail("%s: trailing data in its properties (the op has more attributes than %v)", name, names)
		}
		return out
	}
	switch name {
	case "builtin.module":
		opt("sym_name")
		opt("sym_visibility")
	case "func.func":
		opt("arg_attrs")
		req("function_type")
		opt("no_inline")
		opt("res_attrs")
		req("sym_name")
		opt("sym_visibility")
	case "sdy.mesh":
		req("mesh")
		req("sym_name")
	case "sdy.sharding_constraint":
		req("sharding")
	case "func.call":
		opt("arg_attrs")
		req("callee")
		opt("no_inline")
		opt("res_attrs")
	default:
		fail(at, "%s stores its attributes as properties, which this reader does not decode for this op (plain MLIR bytecode "+
			"of the stablehlo and chlo dialects has no compatibility promise); send a StableHLO portable artifact (VHLO), "+
			"as XLA's PJRT client does, or the program's text", name)
	}
	if !body.empty() {
		body.fail("%s: trailing data in its properties", name)
	}
	return out
}

// describe returns a short description of a decoded attribute for
// messages.
func describe(v any) string {
	s := fmt.Sprintf("%T", v)
	return strings.TrimPrefix(s, "bytecode.")
}
