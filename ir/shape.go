package ir

import (
	"errors"
	"fmt"
)

// Type rules. Each returns the result types of an op from its operand
// types, attribute and regions, or an error that says what is wrong in the
// words a user needs ("operand types f32[2,3] and f32[3,2] differ"); the
// caller prefixes the location and op name. The frontend runs them at the
// user's call (early, located errors) and Verify runs them again.

var errUnimplemented = errors.New("type rule not implemented yet")

func checkElemKind(t Type, traits Trait) error {
	d := t.DType
	ok := false
	switch {
	case d.IsBool():
		ok = traits&BoolOK != 0
	case d.IsInteger():
		ok = traits&IntOnly != 0
	case d.IsFloat():
		ok = traits&FloatOnly != 0
	case d.IsComplex():
		ok = traits&ComplexOK != 0
	}
	if !ok {
		return fmt.Errorf("element type %v is not supported (want %s)", d, kindWords(traits))
	}
	return nil
}

func kindWords(traits Trait) string {
	var ws []string
	if traits&BoolOK != 0 {
		ws = append(ws, "i1")
	}
	if traits&IntOnly != 0 {
		ws = append(ws, "integer")
	}
	if traits&FloatOnly != 0 {
		ws = append(ws, "float")
	}
	if traits&ComplexOK != 0 {
		ws = append(ws, "complex")
	}
	s := ""
	for i, w := range ws {
		switch {
		case i == 0:
		case i == len(ws)-1:
			s += " or "
		default:
			s += ", "
		}
		s += w
	}
	return s
}

func inferUnary(traits Trait) InferFunc {
	return func(args []Type, attr any, _ []*Func) ([]Type, error) {
		if err := checkElemKind(args[0], traits); err != nil {
			return nil, err
		}
		return []Type{args[0]}, nil
	}
}

func inferBinary(traits Trait) InferFunc {
	return func(args []Type, attr any, _ []*Func) ([]Type, error) {
		if !args[0].Equal(args[1]) {
			return nil, fmt.Errorf("operand types %v and %v differ", args[0], args[1])
		}
		if err := checkElemKind(args[0], traits); err != nil {
			return nil, err
		}
		return []Type{args[0]}, nil
	}
}

func inferIsFinite(args []Type, _ any, _ []*Func) ([]Type, error) {
	if !args[0].DType.IsFloat() {
		return nil, fmt.Errorf("element type %v is not a float", args[0].DType)
	}
	return []Type{args[0].WithDType(Bool)}, nil
}

func inferRealImag(args []Type, _ any, _ []*Func) ([]Type, error) {
	d := args[0].DType
	if !d.IsFloat() && !d.IsComplex() {
		return nil, fmt.Errorf("element type %v is not float or complex", d)
	}
	return []Type{args[0].WithDType(d.ComplexPart())}, nil
}

func inferComplex(args []Type, _ any, _ []*Func) ([]Type, error) {
	if !args[0].Equal(args[1]) {
		return nil, fmt.Errorf("operand types %v and %v differ", args[0], args[1])
	}
	c := ComplexOf(args[0].DType)
	if c == InvalidDType {
		return nil, fmt.Errorf("element type %v: want f32 or f64", args[0].DType)
	}
	return []Type{args[0].WithDType(c)}, nil
}

func inferConstant(_ []Type, attr any, _ []*Func) ([]Type, error) {
	a := attr.(ConstantAttr)
	if a.Value == nil {
		return nil, fmt.Errorf("missing value")
	}
	return []Type{a.Value.Type}, nil
}

func inferIota(_ []Type, attr any, _ []*Func) ([]Type, error) {
	a := attr.(IotaAttr)
	if a.Dim < 0 || a.Dim >= a.Type.Rank() {
		return nil, fmt.Errorf("dim %d out of range for %v", a.Dim, a.Type)
	}
	if a.Type.DType == Bool {
		return nil, fmt.Errorf("element type i1 is not supported")
	}
	return []Type{a.Type}, nil
}

func inferCompare(args []Type, attr any, _ []*Func) ([]Type, error) {
	if !args[0].Equal(args[1]) {
		return nil, fmt.Errorf("operand types %v and %v differ", args[0], args[1])
	}
	return []Type{args[0].WithDType(Bool)}, nil
}

func inferConvert(args []Type, attr any, _ []*Func) ([]Type, error) {
	a := attr.(ConvertAttr)
	if !a.To.valid() {
		return nil, fmt.Errorf("invalid target element type")
	}
	if args[0].DType.IsComplex() && !a.To.IsComplex() {
		return nil, fmt.Errorf("complex → %v is not defined; take real or imag first", a.To)
	}
	return []Type{args[0].WithDType(a.To)}, nil
}

// The rules below are filled in separately.

func inferSelect(args []Type, attr any, regions []*Func) ([]Type, error) {
	return nil, errUnimplemented
}
func inferClamp(args []Type, attr any, regions []*Func) ([]Type, error) { return nil, errUnimplemented }
func inferBitcastConvert(args []Type, attr any, regions []*Func) ([]Type, error) {
	return nil, errUnimplemented
}
func inferBroadcastInDim(args []Type, attr any, regions []*Func) ([]Type, error) {
	return nil, errUnimplemented
}
func inferReshape(args []Type, attr any, regions []*Func) ([]Type, error) {
	return nil, errUnimplemented
}
func inferTranspose(args []Type, attr any, regions []*Func) ([]Type, error) {
	return nil, errUnimplemented
}
func inferSlice(args []Type, attr any, regions []*Func) ([]Type, error) { return nil, errUnimplemented }
func inferDynamicSlice(args []Type, attr any, regions []*Func) ([]Type, error) {
	return nil, errUnimplemented
}
func inferDynamicUpdateSlice(args []Type, attr any, regions []*Func) ([]Type, error) {
	return nil, errUnimplemented
}
func inferConcatenate(args []Type, attr any, regions []*Func) ([]Type, error) {
	return nil, errUnimplemented
}
func inferPad(args []Type, attr any, regions []*Func) ([]Type, error) { return nil, errUnimplemented }
func inferReverse(args []Type, attr any, regions []*Func) ([]Type, error) {
	return nil, errUnimplemented
}
func inferDotGeneral(args []Type, attr any, regions []*Func) ([]Type, error) {
	return nil, errUnimplemented
}
func inferReduce(args []Type, attr any, regions []*Func) ([]Type, error) {
	return nil, errUnimplemented
}
func inferReduceWindow(args []Type, attr any, regions []*Func) ([]Type, error) {
	return nil, errUnimplemented
}
func inferConvolution(args []Type, attr any, regions []*Func) ([]Type, error) {
	return nil, errUnimplemented
}
func inferGather(args []Type, attr any, regions []*Func) ([]Type, error) {
	return nil, errUnimplemented
}
func inferScatter(args []Type, attr any, regions []*Func) ([]Type, error) {
	return nil, errUnimplemented
}
func inferWhile(args []Type, attr any, regions []*Func) ([]Type, error) { return nil, errUnimplemented }
func inferCase(args []Type, attr any, regions []*Func) ([]Type, error)  { return nil, errUnimplemented }
func inferCustomCall(args []Type, attr any, regions []*Func) ([]Type, error) {
	return nil, errUnimplemented
}
func inferComposite(args []Type, attr any, regions []*Func) ([]Type, error) {
	return nil, errUnimplemented
}
