package stablehlo

import (
	"errors"
	"fmt"
	"strings"
)

// Verify checks the structural invariants the printer relies on and
// returns every problem found (joined), or nil:
//
//   - function names are unique and not empty; a body's entry block has
//     one argument per parameter, of the parameter's type;
//   - every op has a name, no nil operand, result, attribute or region,
//     and no duplicate attribute name;
//   - every result points back to its op (Def, Index) and every block
//     argument to its block;
//   - func.return and stablehlo.return are last in their block;
//   - every operand is defined before its use: by an earlier op of the
//     same block or of an enclosing block, or by an argument of the
//     block or of an enclosing block of the same function;
//   - an op of the op table (opdefs.go) has as many operands and regions
//     as the table says.
//
// It does not check op semantics (types of ops, attribute kinds).
func (m *Module) Verify() error {
	v := &verifier{}
	seen := map[string]bool{}
	for i, f := range m.Funcs {
		if f == nil {
			v.errorf("func #%d is nil", i)
			continue
		}
		v.fn = f.Name
		if f.Name == "" {
			v.errorf("function without a name")
		}
		if seen[f.Name] {
			v.errorf("duplicate function name")
		}
		seen[f.Name] = true
		for j, a := range f.Args {
			if err := checkType(a.Type, 0); err != nil {
				v.errorf("parameter #%d: %v", j, err)
			}
			v.attrs(fmt.Sprintf("parameter #%d", j), a.Attrs)
		}
		for j, t := range f.ResultTypes {
			if err := checkType(t, 0); err != nil {
				v.errorf("result #%d: %v", j, err)
			}
		}
		for j, ra := range f.ResultAttrs {
			v.attrs(fmt.Sprintf("result #%d", j), ra)
		}
		v.attrs("function", f.Attrs)
		if err := checkLoc(f.Loc, 0); err != nil {
			v.errorf("%v", err)
		}
		if f.Body == nil {
			continue
		}
		entry := f.Entry()
		if entry == nil {
			v.errorf("body has no block")
			continue
		}
		if len(entry.Args) != len(f.Args) {
			v.errorf("entry block has %d arguments for %d parameters", len(entry.Args), len(f.Args))
		} else {
			for j, a := range entry.Args {
				if a != nil && !TypesEqual(a.Type, f.Args[j].Type) {
					v.errorf("entry block argument #%d has type %s, parameter has %s", j, typeString(a.Type), typeString(f.Args[j].Type))
				}
			}
		}
		v.region(f.Body, map[*Value]bool{})
	}
	v.fn = m.Name
	v.attrs("module", m.Attrs)
	if err := checkLoc(m.Loc, 0); err != nil {
		v.errorf("module: %v", err)
	}
	return errors.Join(v.errs...)
}

func (v *verifier) attrs(what string, attrs []NamedAttr) {
	for _, a := range attrs {
		if err := checkAttr(a.Value, 0); err != nil {
			v.errorf("%s attribute %q: %v", what, a.Name, err)
		}
	}
}

const maxCheckDepth = 200

// checkType reports a type the printer would write as text that does not
// parse back.
func checkType(t Type, depth int) error {
	if depth > maxCheckDepth {
		return errors.New("type nested too deep")
	}
	switch t := t.(type) {
	case nil:
		return errors.New("missing type")
	case TensorType:
		if !t.Unranked {
			for _, d := range t.Shape {
				if d < 0 && d != Dynamic {
					return fmt.Errorf("negative dimension %d", d)
				}
			}
		}
		if err := checkElem(t.Elem); err != nil {
			return err
		}
		if t.Elem == Index {
			return errors.New("tensor of index")
		}
		if t.Encoding != nil {
			return checkAttr(t.Encoding, depth+1)
		}
	case ElementType:
		return checkElem(t)
	case TupleType:
		for _, e := range t.Elems {
			if err := checkType(e, depth+1); err != nil {
				return err
			}
		}
	case FunctionType:
		for _, e := range append(append([]Type(nil), t.Inputs...), t.Results...) {
			if err := checkType(e, depth+1); err != nil {
				return err
			}
		}
	case OpaqueType:
		if !strings.HasPrefix(t.Text, "!") {
			return fmt.Errorf("opaque type %q does not start with '!'", t.Text)
		}
	}
	return nil
}

func checkElem(e ElementType) error {
	s := string(e)
	switch {
	case isElementTypeName(s):
	case e.IsComplex() && (e.ComplexPart() == F32 || e.ComplexPart() == F64 || isElementTypeName(string(e.ComplexPart())) && e.ComplexPart().IsFloat()):
	case strings.HasPrefix(s, "!"):
	default:
		return fmt.Errorf("invalid element type %q", s)
	}
	return nil
}

// checkAttr reports an attribute the printer would write as text that
// does not parse back as the same attribute.
func checkAttr(a Attr, depth int) error {
	if depth > maxCheckDepth {
		return errors.New("attribute nested too deep")
	}
	scalar := func(t Type, isFloat bool) error {
		if t == nil {
			return nil
		}
		e, ok := t.(ElementType)
		if !ok || e == "" || (isFloat && floatSemOf(e) == nil) || (!isFloat && !e.IsInteger()) {
			return fmt.Errorf("number of type %s", typeString(t))
		}
		return nil
	}
	switch a := a.(type) {
	case nil:
		return errors.New("missing attribute")
	case IntAttr:
		return scalar(a.Type, false)
	case FloatAttr:
		return scalar(a.Type, true)
	case TypeAttr:
		return checkType(a.Type, depth+1)
	case SymbolRefAttr:
		if a.Name == "" {
			return errors.New("empty symbol name")
		}
		for _, n := range a.Nested {
			if n == "" {
				return errors.New("empty symbol name")
			}
		}
	case ArrayAttr:
		for _, e := range a {
			if err := checkAttr(e, depth+1); err != nil {
				return err
			}
		}
	case DictAttr:
		for _, e := range a {
			if err := checkAttr(e.Value, depth+1); err != nil {
				return fmt.Errorf("%q: %w", e.Name, err)
			}
		}
	case DenseArray:
		if a.Elem == Index || !(a.Elem.IsInteger() || floatSemOf(a.Elem) != nil) {
			return fmt.Errorf("array of %s", a.Elem)
		}
	case *DenseElements:
		if a == nil {
			return errors.New("nil dense elements")
		}
		if !a.Type.IsStatic() {
			return fmt.Errorf("dense elements of %s", a.Type)
		}
		if err := checkType(a.Type, depth+1); err != nil {
			return err
		}
		if a.literal == "" {
			size, n := elemSize(a.Type.Elem), a.Type.NumElements()
			ok := a.splat && len(a.data) == size && n > 0 || !a.splat && int64(len(a.data)) == n*int64(size)
			if !ok {
				return fmt.Errorf("dense elements of %s without values (use the DenseFrom* constructors)", a.Type)
			}
		}
	case EnumAttr:
		if !isBareID(a.Dialect) || strings.Contains(a.Dialect, ".") || !isBareID(a.Kind) || !isBareID(a.Value) {
			return fmt.Errorf("bad enum attribute %s", a)
		}
	case ConvDims:
		if _, ok := a.compact(); !ok && !a.Raw {
			return nil // printed raw
		}
	case OpaqueAttr:
		if a.Text == "" {
			return errors.New("empty opaque attribute")
		}
	}
	return nil
}

// checkLoc reports a location whose text would not parse back.
func checkLoc(l Loc, depth int) error {
	if depth > maxCheckDepth {
		return errors.New("location nested too deep")
	}
	switch l := l.(type) {
	case FileLineColLoc:
		if l.Line < 0 || l.Col < 0 || l.EndLine < 0 || l.EndCol < 0 {
			return fmt.Errorf("negative line or column in %s", l)
		}
	case NameLoc:
		if l.Child != nil {
			return checkLoc(l.Child, depth+1)
		}
	case CallSiteLoc:
		if l.Callee == nil || l.Caller == nil {
			return errors.New("call site location without callee or caller")
		}
		if err := checkLoc(l.Callee, depth+1); err != nil {
			return err
		}
		return checkLoc(l.Caller, depth+1)
	case FusedLoc:
		if l.Metadata != nil {
			if err := checkAttr(l.Metadata, depth+1); err != nil {
				return err
			}
		}
		for _, c := range l.Locs {
			if c == nil {
				return errors.New("nil location in fused location")
			}
			if err := checkLoc(c, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

type verifier struct {
	fn   string
	errs []error
}

func (v *verifier) errorf(format string, args ...any) {
	if len(v.errs) < 50 {
		v.errs = append(v.errs, fmt.Errorf("func @%s: %s", v.fn, fmt.Sprintf(format, args...)))
	}
}

// region checks a region; visible holds the values defined so far in
// enclosing blocks (it is restored on return).
func (v *verifier) region(r *Region, visible map[*Value]bool) {
	for bi, blk := range r.Blocks {
		if blk == nil {
			v.errorf("block #%d is nil", bi)
			continue
		}
		var added []*Value
		define := func(x *Value) {
			if !visible[x] {
				visible[x] = true
				added = append(added, x)
			}
		}
		for i, a := range blk.Args {
			if a == nil {
				v.errorf("block argument #%d is nil", i)
				continue
			}
			if a.Block != blk || a.Index != i || a.Def != nil {
				v.errorf("block argument #%d does not point back to its block", i)
			}
			if a.Type == nil {
				v.errorf("block argument #%d has no type", i)
			} else if err := checkType(a.Type, 0); err != nil {
				v.errorf("block argument #%d: %v", i, err)
			}
			if err := checkLoc(a.Loc, 0); err != nil {
				v.errorf("block argument #%d: %v", i, err)
			}
			define(a)
		}
		for oi, o := range blk.Ops {
			if o == nil {
				v.errorf("op #%d is nil", oi)
				continue
			}
			if o.Name == "" {
				v.errorf("op #%d has no name", oi)
			}
			if err := checkLoc(o.Loc, 0); err != nil {
				v.errorf("%s (op #%d): %v", o.Name, oi, err)
			}
			if isTerminator(o.Name) && oi != len(blk.Ops)-1 {
				v.errorf("%s (op #%d) is not the last op of its block", o.Name, oi)
			}
			for i, x := range o.Operands {
				switch {
				case x == nil:
					v.errorf("%s (op #%d): operand #%d is nil", o.Name, oi, i)
				case !visible[x]:
					v.errorf("%s (op #%d): operand #%d is not defined before its use", o.Name, oi, i)
				case x.Type == nil:
					v.errorf("%s (op #%d): operand #%d has no type", o.Name, oi, i)
				}
			}
			if d, ok := LookupOp(o.Name); ok {
				if msg := d.checkCounts(len(o.Operands), len(o.Regions)); msg != "" {
					v.errorf("%s (op #%d): %s", o.Name, oi, msg)
				}
			}
			names := map[string]bool{}
			for _, a := range o.Attrs {
				if a.Value == nil {
					v.errorf("%s (op #%d): attribute %q has no value", o.Name, oi, a.Name)
				} else if err := checkAttr(a.Value, 0); err != nil {
					v.errorf("%s (op #%d): attribute %q: %v", o.Name, oi, a.Name, err)
				}
				if names[a.Name] {
					v.errorf("%s (op #%d): duplicate attribute %q", o.Name, oi, a.Name)
				}
				names[a.Name] = true
			}
			for i, sub := range o.Regions {
				if sub == nil {
					v.errorf("%s (op #%d): region #%d is nil", o.Name, oi, i)
					continue
				}
				v.region(sub, visible)
			}
			for i, x := range o.Results {
				if x == nil {
					v.errorf("%s (op #%d): result #%d is nil", o.Name, oi, i)
					continue
				}
				if x.Def != o || x.Index != i || x.Block != nil {
					v.errorf("%s (op #%d): result #%d does not point back to its op", o.Name, oi, i)
				}
				if x.Type == nil {
					v.errorf("%s (op #%d): result #%d has no type", o.Name, oi, i)
				} else if err := checkType(x.Type, 0); err != nil {
					v.errorf("%s (op #%d): result #%d: %v", o.Name, oi, i, err)
				}
				define(x)
			}
		}
		// A block's values go out of scope where it ends (StableHLO
		// regions have one block; no dominance across blocks is assumed).
		for _, x := range added {
			delete(visible, x)
		}
	}
}
