package lowering

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/name, or rewrites the file with
// -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./lowering -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fb builds an ir.Func in a test, failing the test on any error.
type fb struct {
	t   *testing.T
	f   *ir.Func
	loc ir.Loc // given to every instruction emitted
}

func newFB(t *testing.T, name string, params ...ir.Type) *fb {
	return &fb{t: t, f: ir.NewFunc(name, params...)}
}

func (b *fb) p(i int) *ir.Value { return b.f.Params[i] }

// emit appends an instruction and returns its results.
func (b *fb) emit(op ir.Op, attr any, args []*ir.Value, regions ...*ir.Func) []*ir.Value {
	b.t.Helper()
	rs, err := b.f.Emit(b.loc, op, args, attr, regions...)
	if err != nil {
		b.t.Fatalf("emit %v: %v", op, err)
	}
	return rs
}

// e1 is emit for one-result instructions.
func (b *fb) e1(op ir.Op, attr any, args ...*ir.Value) *ir.Value {
	b.t.Helper()
	rs := b.emit(op, attr, args)
	if len(rs) != 1 {
		b.t.Fatalf("emit %v: %d results, want 1", op, len(rs))
	}
	return rs[0]
}

// ret sets the results and returns the function.
func (b *fb) ret(vs ...*ir.Value) *ir.Func {
	b.f.Return(vs...)
	return b.f
}

// region builds a region function with the given parameter types; body
// returns its results.
func region(t *testing.T, name string, params []ir.Type, body func(r *fb) []*ir.Value) *ir.Func {
	r := newFB(t, name, params...)
	return r.ret(body(r)...)
}

// adder is the region (acc, x) → acc + x over scalars of d.
func adder(t *testing.T, d ir.DType) *ir.Func {
	s := ir.Scalar(d)
	return region(t, "add", []ir.Type{s, s}, func(r *fb) []*ir.Value {
		return []*ir.Value{r.e1(ir.OpAdd, nil, r.p(0), r.p(1))}
	})
}

func tt(d ir.DType, dims ...int) ir.Type { return ir.TensorOf(d, dims...) }

// lower lowers f with default options, failing the test on error.
func lower(t *testing.T, f *ir.Func) *stablehlo.Module {
	t.Helper()
	m, err := Lower(f, Options{Annotate: true})
	if err != nil {
		t.Fatalf("Lower: %v", err)
	}
	return m
}

// findOp returns the first op named name in the module, depth first
// through regions, or nil.
func findOp(m *stablehlo.Module, name string) *stablehlo.Op {
	var found *stablehlo.Op
	var walk func(r *stablehlo.Region)
	walk = func(r *stablehlo.Region) {
		for _, blk := range r.Blocks {
			for _, o := range blk.Ops {
				if found != nil {
					return
				}
				if o.Name == name {
					found = o
					return
				}
				for _, sub := range o.Regions {
					walk(sub)
				}
			}
		}
	}
	for _, f := range m.Funcs {
		if f.Body != nil && found == nil {
			walk(f.Body)
		}
	}
	return found
}

// allOps lists every op of the module, depth first.
func allOps(m *stablehlo.Module) []*stablehlo.Op {
	var out []*stablehlo.Op
	var walk func(r *stablehlo.Region)
	walk = func(r *stablehlo.Region) {
		for _, blk := range r.Blocks {
			for _, o := range blk.Ops {
				out = append(out, o)
				for _, sub := range o.Regions {
					walk(sub)
				}
			}
		}
	}
	for _, f := range m.Funcs {
		if f.Body != nil {
			walk(f.Body)
		}
	}
	return out
}
