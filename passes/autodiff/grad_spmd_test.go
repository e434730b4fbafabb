package autodiff_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes/autodiff"
)

// The derivatives of SPMD programs are derivatives of one function of
// every device's values: the tests evaluate programs, their JVPs and their
// VJPs with ir.EvalSPMD and check, summed over the devices,
//
//	<J t, u> = <t, J^T u>            (the VJP is the JVP's adjoint)
//	<(f(x + h t) - f(x - h t)) / 2h, u> ≈ <t, J^T u>   (central differences)
//
// for random x, t (tangents of the parameters) and u (cotangents of the
// results). Every collective's rule takes part.

type spmdGradCase struct {
	name   string
	nr, np int
	src    string
}

var spmdGradCases = []spmdGradCase{
	{"all_reduce_sum", 2, 2, `
func @f(%0: f64[3]) -> f64[3] {
  %1 = sine %0 : f64[3]
  %2 = all_reduce %1 {replica_groups = [[0, 1]]} (%0: f64[], %1: f64[]) {
    %2 = add %0, %1 : f64[]
    return %2
  } : f64[3]
  %3 = multiply %2, %0 : f64[3]
  return %3
}`},
	{"all_reduce_sum_flattened_two_operands", 2, 2, `
func @f(%0: f64[3], %1: f64[2]) -> (f64[3], f64[2]) {
  %2 = exponential %1 : f64[2]
  %3, %4 = all_reduce %0, %2 {replica_groups = [[0, 3], [2, 1]], channel_id = 1, use_global_device_ids = true} (%0: f64[], %1: f64[]) {
    %2 = add %0, %1 : f64[]
    return %2
  } : f64[3], f64[2]
  %5 = tanh %3 : f64[3]
  return %5, %4
}`},
	{"all_reduce_max", 4, 1, `
func @f(%0: f64[5]) -> f64[5] {
  %1 = all_reduce %0 {replica_groups = [[0, 1, 2, 3]]} (%0: f64[], %1: f64[]) {
    %2 = maximum %0, %1 : f64[]
    return %2
  } : f64[5]
  %2 = multiply %1, %0 : f64[5]
  return %2
}`},
	{"all_reduce_min_cross_replica_and_partition", 2, 2, `
func @f(%0: f64[4]) -> f64[4] {
  %1 = all_reduce %0 {replica_groups = [[1, 0]], channel_id = 4} (%0: f64[], %1: f64[]) {
    %2 = minimum %1, %0 : f64[]
    return %2
  } : f64[4]
  return %1
}`},
	// Ties: every device has the same value (a sum over the group), and
	// they stay tied when x moves, so the tie-sharing rule gives the
	// derivative exactly.
	{"all_reduce_max_ties", 2, 2, `
func @f(%0: f64[3]) -> f64[3] {
  %1 = all_reduce %0 {replica_groups = [[0, 1]]} (%0: f64[], %1: f64[]) {
    %2 = add %0, %1 : f64[]
    return %2
  } : f64[3]
  %2 = all_reduce %1 {replica_groups = [[1, 0]]} (%0: f64[], %1: f64[]) {
    %2 = maximum %0, %1 : f64[]
    return %2
  } : f64[3]
  %3 = multiply %2, %0 : f64[3]
  return %3
}`},
	{"reduce_scatter_min_ties", 4, 1, `
func @f(%0: f64[4]) -> f64[2] {
  %1 = all_reduce %0 {replica_groups = [[0, 1], [2, 3]]} (%0: f64[], %1: f64[]) {
    %2 = add %0, %1 : f64[]
    return %2
  } : f64[4]
  %2 = reduce_scatter %1 {scatter_dimension = 0, replica_groups = [[0, 1], [2, 3]]} (%0: f64[], %1: f64[]) {
    %2 = minimum %0, %1 : f64[]
    return %2
  } : f64[2]
  %3 = sine %2 : f64[2]
  return %3
}`},
	{"all_gather", 2, 2, `
func @f(%0: f64[2,3]) -> f64[2,6] {
  %1 = all_gather %0 {all_gather_dim = 1, replica_groups = [[1, 0]]} : f64[2,6]
  %2 = tanh %1 : f64[2,6]
  return %2
}`},
	{"all_gather_flattened_two_operands", 2, 2, `
func @f(%0: f64[2], %1: f64[1,2]) -> (f64[8], f64[4,2]) {
  %2, %3 = all_gather %0, %1 {all_gather_dim = 0, replica_groups = [[3, 1, 0, 2]], channel_id = 2, use_global_device_ids = true} : f64[8], f64[4,2]
  %4 = multiply %2, %2 : f64[8]
  return %4, %3
}`},
	{"reduce_scatter_sum", 4, 1, `
func @f(%0: f64[4,3]) -> f64[2,3] {
  %1 = sine %0 : f64[4,3]
  %2 = reduce_scatter %1 {scatter_dimension = 0, replica_groups = [[2, 0], [1, 3]]} (%0: f64[], %1: f64[]) {
    %2 = add %0, %1 : f64[]
    return %2
  } : f64[2,3]
  return %2
}`},
	{"reduce_scatter_max", 2, 2, `
func @f(%0: f64[2,4]) -> f64[2,1] {
  %1 = reduce_scatter %0 {scatter_dimension = 1, replica_groups = [[0, 1, 2, 3]], channel_id = 3, use_global_device_ids = true} (%0: f64[], %1: f64[]) {
    %2 = maximum %0, %1 : f64[]
    return %2
  } : f64[2,1]
  %2 = exponential %1 : f64[2,1]
  return %2
}`},
	{"all_to_all", 2, 2, `
func @f(%0: f64[4,3], %1: f64[2,2]) -> (f64[2,6], f64[1,4]) {
  %2, %3 = all_to_all %0, %1 {split_dimension = 0, concat_dimension = 1, split_count = 2, replica_groups = [[1, 0]], channel_id = 5} : f64[2,6], f64[1,4]
  %4 = sine %2 : f64[2,6]
  return %4, %3
}`},
	{"all_to_all_same_dim", 4, 1, `
func @f(%0: f64[8]) -> f64[8] {
  %1 = multiply %0, %0 : f64[8]
  %2 = all_to_all %1 {split_dimension = 0, concat_dimension = 0, split_count = 4, replica_groups = [[3, 1, 2, 0]]} : f64[8]
  return %2
}`},
	{"collective_permute", 2, 2, `
func @f(%0: f64[3]) -> f64[3] {
  %1 = logistic %0 : f64[3]
  %2 = collective_permute %1 {source_target_pairs = [[0, 1]], channel_id = 6} : f64[3]
  %3 = add %2, %0 : f64[3]
  return %3
}`},
	{"collective_permute_ring", 8, 1, `
func @f(%0: f64[2]) -> f64[2] {
  %1 = collective_permute %0 {source_target_pairs = [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 0]]} : f64[2]
  %2 = multiply %1, %0 : f64[2]
  return %2
}`},
	{"while_all_reduce", 2, 1, `
func @f(%0: f64[2]) -> f64[2] {
  %1 = constant {value = dense<0> : si32[]} : si32[]
  %2, %3 = while %0, %1 (%0: f64[2], %1: si32[]) {
    %2 = constant {value = dense<3> : si32[]} : si32[]
    %3 = compare %1, %2 {dir = LT} : i1[]
    return %3
  } (%0: f64[2], %1: si32[]) {
    %2 = sine %0 : f64[2]
    %3 = all_reduce %2 {replica_groups = []} (%0: f64[], %1: f64[]) {
      %2 = add %0, %1 : f64[]
      return %2
    } : f64[2]
    %4 = constant {value = dense<1> : si32[]} : si32[]
    %5 = add %1, %4 : si32[]
    return %3, %5
  } : f64[2], si32[]
  return %2
}`},
}

func spmdDot(a, b [][]*ir.Literal, from int) float64 {
	s := 0.0
	for d := range a {
		for k := from; k < len(a[d]); k++ {
			x, y := a[d][k].Float64s(), b[d][k-from].Float64s()
			for i := range x {
				s += x[i] * y[i]
			}
		}
	}
	return s
}

func TestSPMDGradients(t *testing.T) {
	for _, c := range spmdGradCases {
		t.Run(c.name, func(t *testing.T) {
			m, err := ir.Parse(c.src)
			if err != nil {
				t.Fatal(err)
			}
			f := m.Funcs[0]
			if err := ir.Verify(f); err != nil {
				t.Fatal(err)
			}
			n := c.nr * c.np
			r := rand.New(rand.NewPCG(5, uint64(len(c.name))))
			wrt := make([]int, len(f.Params))
			for i := range wrt {
				wrt[i] = i
			}
			draw := func(ts []ir.Type) [][]*ir.Literal {
				out := make([][]*ir.Literal, n)
				for d := range out {
					for _, ty := range ts {
						vals := make([]float64, ty.NumElements())
						for i := range vals {
							vals[i] = r.NormFloat64()
						}
						out[d] = append(out[d], ir.LiteralFromFloat64s(ty, vals))
					}
				}
				return out
			}
			x, tan, u := draw(f.ParamTypes()), draw(f.ParamTypes()), draw(f.ResultTypes())
			eval := func(g *ir.Func, args [][]*ir.Literal) [][]*ir.Literal {
				t.Helper()
				outs, err := ir.EvalSPMD(g, c.nr, c.np, args)
				if err != nil {
					t.Fatalf("%v\n%v", err, g)
				}
				return outs
			}
			join := func(a, b [][]*ir.Literal) [][]*ir.Literal {
				out := make([][]*ir.Literal, n)
				for d := range out {
					out[d] = append(append([]*ir.Literal{}, a[d]...), b[d]...)
				}
				return out
			}
			vjp, err := autodiff.VJP(f, wrt, autodiff.Options{})
			if err != nil {
				t.Fatal(err)
			}
			jvp, err := autodiff.JVP(f, wrt, autodiff.Options{})
			if err != nil {
				t.Fatal(err)
			}
			nres := len(f.Results)
			jtu := eval(vjp, join(x, u))  // (R..., J^T u...)
			jt := eval(jvp, join(x, tan)) // (R..., J t...)
			lhs := spmdDot(jt, u, nres)
			rhs := spmdDot(jtu, tan, nres)
			if !closeTo(lhs, rhs, 1e-10) {
				t.Errorf("<J t, u> = %v, <t, J^T u> = %v: the VJP is not the JVP's adjoint", lhs, rhs)
			}
			const h = 1e-6
			shifted := func(s float64) [][]*ir.Literal {
				out := make([][]*ir.Literal, n)
				for d := range out {
					for k, l := range x[d] {
						xv, tv := l.Float64s(), tan[d][k].Float64s()
						w := make([]float64, len(xv))
						for i := range w {
							w[i] = xv[i] + s*tv[i]
						}
						out[d] = append(out[d], ir.LiteralFromFloat64s(l.Type, w))
					}
				}
				return out
			}
			fd := (spmdDot(eval(f, shifted(h)), u, 0) - spmdDot(eval(f, shifted(-h)), u, 0)) / (2 * h)
			if !closeTo(rhs, fd, 1e-6) {
				t.Errorf("<t, J^T u> = %v, central difference %v", rhs, fd)
			}
			if lhs == 0 {
				t.Errorf("the derivative is zero: the case checks nothing")
			}
		})
	}
}

// TestSPMDGradientProductBody: an all_reduce product has no derivative
// rule; asking for one is an error at the op.
func TestSPMDGradientProductBody(t *testing.T) {
	m, err := ir.Parse(`
func @f(%0: f64[3]) -> f64[3] {
  %1 = all_reduce %0 {replica_groups = []} (%0: f64[], %1: f64[]) {
    %2 = multiply %0, %1 : f64[]
    return %2
  } : f64[3]
  return %1
}`)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"vjp", "jvp"} {
		var err error
		if mode == "vjp" {
			_, err = autodiff.VJP(m.Funcs[0], []int{0}, autodiff.Options{})
		} else {
			_, err = autodiff.JVP(m.Funcs[0], []int{0}, autodiff.Options{})
		}
		var e *ir.Error
		if !errors.As(err, &e) || e.Op != "all_reduce" || !strings.Contains(err.Error(), "only an all_reduce or reduce_scatter whose body is a single add, maximum or minimum has a derivative") {
			t.Errorf("%s: error %v, want one at the all_reduce about its body", mode, err)
		}
	}
}

// The derivative functions of a sharded function keep its mesh, and each
// cotangent or tangent gets the sharding of the value it belongs to: the
// gradient of a data-parallel parameter is sharded as the parameter.
func TestDerivativeShardings(t *testing.T) {
	f, err := ir.ParseFunc(`func @f(%0: f32[8,4] sharding [{"data"}, {}], %1: f32[8,4]) -> f32[8,4] sharding [{"data"}, {}] mesh ["data"=2] {
  %3 = multiply %0, %1 : f32[8,4]
  %4 = sharding_constraint %3 {sharding = [{"data"}, {}]} : f32[8,4]
  return %4
}`)
	if err != nil {
		t.Fatal(err)
	}
	data := `[{"data"}, {}]`
	str := func(ss []*ir.Sharding) []string {
		var out []string
		for _, s := range ss {
			if s == nil {
				out = append(out, "-")
			} else {
				out = append(out, s.String())
			}
		}
		return out
	}
	vjp, err := autodiff.VJP(f, []int{0, 1}, autodiff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	jvp, err := autodiff.JVP(f, []int{0}, autodiff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bwd, err := autodiff.NewBackward(f, []int{0}, autodiff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		g       *ir.Func
		in, out []string
	}{
		{"vjp", vjp, []string{data, "-", data}, []string{data, data, "-"}},
		{"jvp", jvp, []string{data, "-", data}, []string{data, data}},
		{"bwd", bwd.Func, []string{data}, []string{data}},
	} {
		if !c.g.Mesh.Equal(f.Mesh) {
			t.Errorf("%s: mesh %v, want %v", c.name, c.g.Mesh, f.Mesh)
		}
		if got := str(c.g.InShardings); !slices.Equal(got, c.in) {
			t.Errorf("%s: parameter shardings %v, want %v", c.name, got, c.in)
		}
		if got := str(c.g.OutShardings); !slices.Equal(got, c.out) {
			t.Errorf("%s: result shardings %v, want %v", c.name, got, c.out)
		}
		if err := ir.Verify(c.g); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
