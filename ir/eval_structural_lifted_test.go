package ir

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// reduce and reduce_window fold through a lifted body when the body is
// elementwise; the same body with a reshape after each result (not
// elementwise, so not liftable, and a no-op on scalars) takes the
// element-by-element fold. Both must agree bit for bit on random shapes,
// bodies and values.

// sxLiftBody is a random scalar body over dt for n inputs and whether it
// is valid for dt: a binary op in either operand order, acc*10 + x (with a
// constant, and not commutative), or argmax's compare and select.
type sxLiftBody struct {
	name  string
	n     int // inputs
	ok    func(dt DType) bool
	build func(t *testing.T, dt DType) *Func
}

func sxLiftBodies() []sxLiftBody {
	numeric := func(dt DType) bool { return dt != Bool }
	real := func(dt DType) bool { return dt != Bool && !dt.IsComplex() }
	bitwise := func(dt DType) bool { return dt == Bool || dt.IsInteger() }
	binary := func(op Op, swap bool) func(t *testing.T, dt DType) *Func {
		return func(t *testing.T, dt DType) *Func {
			f := NewFunc("body", Scalar(dt), Scalar(dt))
			args := []*Value{f.Params[0], f.Params[1]}
			if swap {
				args[0], args[1] = args[1], args[0]
			}
			f.Return(sxBuild(t, f, op, args, nil, []Type{Scalar(dt)})...)
			return f
		}
	}
	return []sxLiftBody{
		{"add", 1, numeric, binary(OpAdd, false)},
		{"add swapped", 1, numeric, binary(OpAdd, true)},
		{"multiply", 1, numeric, binary(OpMultiply, false)},
		{"maximum", 1, real, binary(OpMaximum, false)},
		{"minimum swapped", 1, real, binary(OpMinimum, true)},
		{"and", 1, bitwise, binary(OpAnd, false)},
		{"or", 1, bitwise, binary(OpOr, true)},
		{"shift in", 1, numeric, sxShiftInRegion},
		{"argmax", 2, real, func(t *testing.T, dt DType) *Func { return sxArgmaxRegion(t, dt, S32) }},
	}
}

// sxUnliftable is body with each result passed through a scalar reshape.
func sxUnliftable(t *testing.T, body *Func) *Func {
	t.Helper()
	f := NewFunc(body.Name, body.ParamTypes()...)
	vals := map[*Value]*Value{}
	for i, p := range body.Params {
		vals[p] = f.Params[i]
	}
	for _, in := range body.Body {
		args := make([]*Value, len(in.Args))
		for i, a := range in.Args {
			args[i] = vals[a]
		}
		rs, err := f.Emit(UnknownLoc, in.Op, args, in.Attr)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range in.Results {
			vals[v] = rs[i]
		}
	}
	var res []*Value
	for _, r := range body.Results {
		res = append(res, sxBuild(t, f, OpReshape, []*Value{vals[r]}, ReshapeAttr{Shape: []int{}}, []Type{r.Type})...)
	}
	f.Return(res...)
	if _, ok := sxLift(f, 3); ok {
		t.Fatal("the reshaped body lifts")
	}
	if _, ok := sxLift(body, 3); !ok {
		t.Fatalf("body %v does not lift", body)
	}
	return f
}

// sxInputs makes the n inputs of a random reduction over dt (the second
// input of argmax is an si32 index) and random init values.
func sxInputs(r *rand.Rand, n int, dt DType, shape []int) (inputs, inits []*Literal) {
	specials := r.IntN(3) == 0
	for k := range n {
		d := dt
		if k == 1 {
			d = S32
		}
		inputs = append(inputs, sxRandomLiteral(r, TensorOf(d, shape...), specials))
		inits = append(inits, sxRandomLiteral(r, Scalar(d), specials))
	}
	return inputs, inits
}

func sxCompareFolds(t *testing.T, op Op, attr any, body *Func, args []*Literal, what string) {
	t.Helper()
	in, err := sxInstrFor(op, attr, []*Func{body}, args...)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	lifted, err := op.Info().Eval(in, args)
	if err != nil {
		t.Fatalf("%s: lifted: %v", what, err)
	}
	in.Regions = []*Func{sxUnliftable(t, body)}
	each, err := op.Info().Eval(in, args)
	if err != nil {
		t.Fatalf("%s: element by element: %v", what, err)
	}
	for k := range each {
		sxSameBits(t, fmt.Sprintf("%s result #%d", what, k), each[k], lifted[k])
	}
}

func TestEvalReduceLiftedMatchesElementwise(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, b := range sxLiftBodies() {
		for _, dt := range sxContractTypes {
			if !b.ok(dt) {
				continue
			}
			t.Run(b.name+"/"+dt.String(), func(t *testing.T) {
				body := b.build(t, dt)
				for range 12 {
					shape := make([]int, 1+r.IntN(3))
					for i := range shape {
						shape[i] = sxOneOf(r, 0, 1, 2, 3, 5, 8)
					}
					dims := r.Perm(len(shape))[:r.IntN(len(shape)+1)]
					inputs, inits := sxInputs(r, b.n, dt, shape)
					attr := ReduceAttr{Dims: append([]int{}, dims...)}
					sxCompareFolds(t, OpReduce, attr, body, append(inputs, inits...), fmt.Sprintf("reduce %v dims %v", shape, dims))
				}
			})
		}
	}
}

func TestEvalReduceWindowLiftedMatchesElementwise(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, b := range sxLiftBodies() {
		for _, dt := range sxContractTypes {
			if !b.ok(dt) {
				continue
			}
			t.Run(b.name+"/"+dt.String(), func(t *testing.T) {
				body := b.build(t, dt)
				for done := 0; done < 12; {
					rank := 1 + r.IntN(2)
					shape := make([]int, rank)
					var a ReduceWindowAttr
					for d := range rank {
						shape[d] = sxOneOf(r, 1, 2, 4, 6)
						a.WindowDims = append(a.WindowDims, sxOneOf(r, 1, 2, 3))
						a.Strides = append(a.Strides, sxOneOf(r, 1, 2))
						a.BaseDilations = append(a.BaseDilations, sxOneOf(r, 1, 1, 2))
						a.WindowDilations = append(a.WindowDilations, sxOneOf(r, 1, 1, 2))
						a.Padding = append(a.Padding, [2]int{r.IntN(4) - 1, r.IntN(4) - 1})
					}
					inputs, inits := sxInputs(r, b.n, dt, shape)
					args := append(inputs, inits...)
					if _, err := sxInstrFor(OpReduceWindow, a, []*Func{body}, args...); err != nil {
						continue // the window does not fit
					}
					done++
					sxCompareFolds(t, OpReduceWindow, a, body, args, fmt.Sprintf("reduce_window %v %+v", shape, a))
				}
			})
		}
	}
}
