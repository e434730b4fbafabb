package lowering

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

// sliceOp returns a module whose @main applies op alone: its operands and
// the values its regions use from above become parameters, its results
// are returned, and the functions it names (callees, decompositions)
// come along.
func sliceOp(src *stablehlo.Module, op *stablehlo.Op) *stablehlo.Module {
	var ins []*stablehlo.Value
	seen := map[*stablehlo.Value]bool{}
	for _, v := range append(append([]*stablehlo.Value{}, op.Operands...), captures(op)...) {
		if !seen[v] {
			seen[v] = true
			ins = append(ins, v)
		}
	}
	m := stablehlo.NewModule("jit_slice")
	var types, results []stablehlo.Type
	for _, v := range ins {
		types = append(types, v.Type)
	}
	for _, v := range op.Results {
		results = append(results, v.Type)
	}
	main := m.NewFunc("main", types, results)
	main.Visibility = "public"
	vmap := map[*stablehlo.Value]*stablehlo.Value{}
	for i, v := range ins {
		vmap[v] = main.Arg(i)
	}
	c := cloneOp(op, vmap)
	blk := main.Entry()
	blk.Ops = append(blk.Ops, c, &stablehlo.Op{Name: "func.return", Operands: c.Results, Line: op.Line})
	// The functions the op names, transitively.
	var need func(o *stablehlo.Op)
	added := map[string]bool{}
	need = func(o *stablehlo.Op) {
		for _, a := range o.Attrs {
			s, ok := a.Value.(stablehlo.SymbolRefAttr)
			if !ok || added[s.Name] || src.Func(s.Name) == nil || s.Name == "main" {
				continue
			}
			added[s.Name] = true
			f := src.Func(s.Name)
			m.Funcs = append(m.Funcs, f)
			walkOps(f.Body, need)
		}
		for _, r := range o.Regions {
			walkOps(r, need)
		}
	}
	need(op)
	return m
}

// cloneOp copies op and its regions, replacing values as vmap says.
func cloneOp(op *stablehlo.Op, vmap map[*stablehlo.Value]*stablehlo.Value) *stablehlo.Op {
	c := &stablehlo.Op{Name: op.Name, Attrs: op.Attrs, Loc: op.Loc, Line: op.Line}
	for _, v := range op.Operands {
		if n, ok := vmap[v]; ok {
			v = n
		}
		c.Operands = append(c.Operands, v)
	}
	for i, v := range op.Results {
		n := &stablehlo.Value{Type: v.Type, Def: c, Index: i}
		vmap[v] = n
		c.Results = append(c.Results, n)
	}
	for _, r := range op.Regions {
		nr := &stablehlo.Region{}
		for _, blk := range r.Blocks {
			nb := &stablehlo.Block{}
			for i, a := range blk.Args {
				n := &stablehlo.Value{Type: a.Type, Block: nb, Index: i, Loc: a.Loc}
				vmap[a] = n
				nb.Args = append(nb.Args, n)
			}
			for _, o := range blk.Ops {
				nb.Ops = append(nb.Ops, cloneOp(o, vmap))
			}
			nr.Blocks = append(nr.Blocks, nb)
		}
		c.Regions = append(c.Regions, nr)
	}
	return c
}

// TestImportCatalog imports every op of the stablehlo package's golden
// files on its own (sliceOp) and checks the outcome: the ops the IR has
// import, the others fail with a message naming the op and saying why.
func TestImportCatalog(t *testing.T) {
	// file:line → what the error must say. Every other op must import.
	fails := map[string]string{
		"check.mlir:5":        "check.expect_eq_const: not a StableHLO op",
		"check.mlir:6":        "check.expect_eq: not a StableHLO op",
		"check.mlir:8":        "check.expect_almost_eq: not a StableHLO op",
		"check.mlir:9":        "check.expect_almost_eq: not a StableHLO op",
		"check.mlir:10":       "check.expect_almost_eq_const: not a StableHLO op",
		"check.mlir:11":       "check.expect_almost_eq_const: not a StableHLO op",
		"check.mlir:12":       "check.expect_close: not a StableHLO op",
		"check.mlir:13":       "check.expect_close: not a StableHLO op",
		"check.mlir:15":       "check.expect_eq_const: not a StableHLO op",
		"check.mlir:18":       "check.expect_eq_const: not a StableHLO op",
		"check.mlir:29":       "function @external is a declaration without a body",
		"check.mlir:30":       "unsupported attribute no_inline",
		"elementwise.mlir:60": "stablehlo.add: unsupported attribute mhlo.frontend_attributes",
		"generic.mlir:3":      "stablehlo.add: unsupported attribute mhlo.sharding",
		"generic.mlir:5":      "chlo.top_k: CHLO ops have no IR form",
		"generic.mlir:7":      "mydialect.frob: not a StableHLO op",
		"generic.mlir:11":     "mydialect.effect: not a StableHLO op",
		"generic.mlir:14":     "stablehlo.convolution: dimension 0 appears twice in input dimension numbers",
		"generic.mlir:17":     "stablehlo.dynamic_broadcast_in_dim: dynamic shapes are not supported",
		"generic.mlir:18":     "stablehlo.constant: unsupported attribute attr_types",
		"generic.mlir:19":     "stablehlo.constant: value has type f32[4], result has f32[8]",
		"more_ops.mlir:10":    "stablehlo.collective_broadcast: the IR has no op for it",
		"more_ops.mlir:11":    "stablehlo.create_token: the IR has no op for it",
		"more_ops.mlir:12":    "type !stablehlo.token is not a tensor type",
		"more_ops.mlir:13":    "type !stablehlo.token is not a tensor type",
		"more_ops.mlir:14":    "type !stablehlo.token is not a tensor type",
		"more_ops.mlir:15":    "type !stablehlo.token is not a tensor type",
		"more_ops.mlir:18":    "stablehlo.dynamic_iota: dynamic shapes are not supported",
		"more_ops.mlir:19":    "stablehlo.dynamic_reshape: dynamic shapes are not supported",
		"more_ops.mlir:20":    "stablehlo.real_dynamic_slice: dynamic shapes are not supported",
		"more_ops.mlir:22":    "stablehlo.dynamic_pad: dynamic shapes are not supported",
		"more_ops.mlir:23":    "stablehlo.set_dimension_size: dynamic shapes are not supported",
		"more_ops.mlir:24":    "stablehlo.unary_einsum: the IR has no op for it",
		"more_ops.mlir:25":    "stablehlo.dynamic_gather: dynamic shapes are not supported",
		"more_ops.mlir:26":    "stablehlo.torch_index_select: the IR has no op for it",
		"regions.mlir:21":     "stablehlo.while: unsupported attribute mhlo.frontend_attributes = {inner = \"true\"} (in @main, line 30",
		"regions.mlir:67":     "stablehlo.select_and_scatter: the IR has no op for it",
		"regions.mlir:87":     "stablehlo.triangular_solve: operands tensor<3x4xf32> and tensor<3x4xf32> and result tensor<3x4xf32> do not fit",
		"shape_ops.mlir:21":   "stablehlo.dot_general: unsupported attribute algorithm",
		"shape_ops.mlir:26":   "stablehlo.convolution: rhs input feature dimension has size 3, want 28",
		"shape_ops.mlir:29":   "func.return: operand #0 is a tuple, which the IR has no form for",
		"shape_ops.mlir:30":   "type tuple<tensor<2x3xf32>, tensor<i32>> is not a tensor type",
		"shape_ops.mlir:33":   "backend_config {alpha = 1.000000e+00 : f32}: a dictionary (typed FFI) backend config is not supported",
		"shape_ops.mlir:38":   "stablehlo.rng_bit_generator: the IR has no op for it",
		"shape_ops.mlir:40":   "stablehlo.rng: the IR has no op for it",
		"shape_ops.mlir:41":   "stablehlo.einsum: the IR has no op for it",
		"shape_ops.mlir:42":   "stablehlo.cholesky: operand tensor<3x4xf32>: want square matrices",
		"shape_ops.mlir:43":   "stablehlo.cholesky: operand tensor<3x4xf32>: want square matrices",
		"shape_ops.mlir:44":   "stablehlo.create_token: the IR has no op for it",
		"shape_ops.mlir:45":   "type !stablehlo.token is not a tensor type",
	}
	var files []string
	for _, dir := range []string{filepath.Join("..", "stablehlo", "testdata")} {
		fs, err := filepath.Glob(filepath.Join(dir, "*.mlir"))
		if err != nil || len(fs) == 0 {
			t.Fatalf("no golden files in %s", dir)
		}
		files = append(files, fs...)
	}
	var outcomes []string
	for _, path := range files {
		m, err := stablehlo.Parse([]byte(readFile(t, path)))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		base := filepath.Base(path)
		for _, f := range m.Funcs {
			if f.Entry() == nil {
				continue
			}
			for _, op := range f.Entry().Ops {
				if isTerminatorName(op.Name) {
					continue
				}
				key := fmt.Sprintf("%s:%d", base, op.Line)
				_, err := Import(sliceOp(m, op))
				want, shouldFail := fails[key]
				delete(fails, key)
				switch {
				case err == nil && shouldFail:
					t.Errorf("%s: %s imports, want an error saying %q", key, op.Name, want)
				case err != nil && !shouldFail:
					t.Errorf("%s: %s: %v", key, op.Name, err)
				case err != nil && !strings.Contains(err.Error(), want):
					t.Errorf("%s: error %q, want it to say %q", key, err, want)
				case err != nil && !strings.HasPrefix(err.Error(), "import: function") && !strings.Contains(err.Error(), "line "):
					// An error about an op says where it is; one about the
					// signature of the sliced function names the function.
					t.Errorf("%s: error %q does not say where", key, err)
				}
				outcome := "ok"
				if err != nil {
					outcome = err.Error()
				}
				outcomes = append(outcomes, key+" "+op.Name+": "+outcome)
			}
		}
	}
	for key, want := range fails {
		t.Errorf("%s: no such op (want an error saying %q)", key, want)
	}
	if t.Failed() || testing.Verbose() {
		sort.Strings(outcomes)
		t.Logf("outcomes:\n%s", strings.Join(outcomes, "\n"))
	}
}

// TestImportErrors: what Import rejects, and that it says which op, why
// and where.
func TestImportErrors(t *testing.T) {
	wrap := func(args, results, body string) string {
		return "module @jit_e {\n  func.func public @main(" + args + ") -> (" + results + ") {\n" + body + "\n  }\n}\n"
	}
	for _, c := range []struct {
		name, text, want string
	}{
		{"unknown op", wrap("%arg0: tensor<2xf32>", "tensor<2xf32>", `    %0 = stablehlo.einsum %arg0, %arg0, config = "a,a->a" : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>`), `stablehlo.einsum: the IR has no op for it (in @main, line 3 of the StableHLO text)`},
		{"location", wrap("%arg0: tensor<2xf32>", "tensor<2xf32>", `    %0 = "stablehlo.map"(%arg0) <{dimensions = array<i64>}> ({
    ^bb0(%a: tensor<f32>):
      stablehlo.return %a : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32> loc("model.py":12:3)
    return %0 : tensor<2xf32>`), `model.py:12: stablehlo.map: dimensions [], want every dimension in order (1 of them)`},
		{"nested location", wrap("%arg0: tensor<2xf32>", "tensor<2xf32>", `    %0 = stablehlo.tanh %arg0 : tensor<2xf32> loc(callsite("f"("a.py":3:0) at "main"("b.py":10:0)))
    %1 = stablehlo.fft %0, type = FFT, length = [2] : (tensor<2xf32>) -> tensor<2xf32> loc("jit(f)/fft"("c.py":7:1))
    return %1 : tensor<2xf32>`), `c.py:7: stablehlo.fft: FFT takes a complex operand, not f32[2]`},
		{"in a region", wrap("%arg0: tensor<2xf32>, %arg1: tensor<i32>", "tensor<2xf32>", `    %0 = "stablehlo.case"(%arg1) ({
      %1 = stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT : (tensor<2xf32>) -> (tensor<2xf32>)
      stablehlo.return %1 : tensor<2xf32>
    }) : (tensor<i32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>`), `stablehlo.rng_bit_generator: the IR has no op for it (in @main, line 4 of the StableHLO text)`},
		{"in a callee", "module @jit_e {\n  func.func public @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n    %0 = call @f(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n    return %0 : tensor<2xf32>\n  }\n  func.func private @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n    %0 = chlo.lgamma %arg0 : tensor<2xf32> -> tensor<2xf32>\n    return %0 : tensor<2xf32>\n  }\n}\n",
			`chlo.lgamma: CHLO ops have no IR form (decompose them to StableHLO first, as stablehlo-opt --chlo-legalize-to-stablehlo does) (in @f (inlined into @main), line 7`},
		{"recursion", "module @jit_e {\n  func.func public @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n    %0 = call @main(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n    return %0 : tensor<2xf32>\n  }\n}\n",
			`func.call: function @main calls itself`},
		{"dynamic shape", wrap("%arg0: tensor<?xf32>", "tensor<?xf32>", `    return %arg0 : tensor<?xf32>`), `parameter #0: type tensor<?xf32>: dynamic dimensions are not supported`},
		{"next_after on f6", wrap("%arg0: tensor<2xf6E2M3FN>", "tensor<2xf6E2M3FN>", "    %0 = chlo.next_after %arg0, %arg0 : tensor<2xf6E2M3FN>, tensor<2xf6E2M3FN> -> tensor<2xf6E2M3FN>\n    return %0 : tensor<2xf6E2M3FN>"),
			`chlo.next_after: element type f6E2M3FN: next_after imports on f16, bf16, f32, f64 and the f8 types`},
		{"tf32", wrap("%arg0: tensor<2xtf32>", "tensor<2xtf32>", `    return %arg0 : tensor<2xtf32>`), `element type tf32 is not supported`},
		{"token", wrap("%arg0: !stablehlo.token", "!stablehlo.token", `    return %arg0 : !stablehlo.token`), `type !stablehlo.token is not a tensor type`},
		{"tuple result", wrap("%arg0: tensor<2xf32>", "tuple<tensor<2xf32>>", `    %0 = stablehlo.tuple %arg0 : tuple<tensor<2xf32>>
    return %0 : tuple<tensor<2xf32>>`), `func.return: operand #0 is a tuple, which the IR has no form for`},
		{"unsupported attribute", wrap("%arg0: tensor<2xf32>", "tensor<2xf32>", `    %0 = stablehlo.add %arg0, %arg0 {mhlo.frontend_attributes = {x = "1"}} : tensor<2xf32>
    return %0 : tensor<2xf32>`), `stablehlo.add: unsupported attribute mhlo.frontend_attributes = {x = "1"}`},
		{"dot algorithm", wrap("%arg0: tensor<2x2xf32>", "tensor<2x2xf32>", `    %0 = stablehlo.dot_general %arg0, %arg0, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 3, allow_imprecise_accumulation = false> : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    return %0 : tensor<2x2xf32>`), `stablehlo.dot_general: unsupported attribute algorithm`},
		{"ffi custom call", wrap("%arg0: tensor<2xf32>", "tensor<2xf32>", `    %0 = stablehlo.custom_call @ffi(%arg0) {api_version = 4 : i32, backend_config = {a = 1 : i64}} : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>`), `a dictionary (typed FFI) backend config is not supported`},
		{"api version", wrap("%arg0: tensor<2xf32>", "tensor<2xf32>", `    %0 = stablehlo.custom_call @f(%arg0) {api_version = 2 : i32} : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>`), `api_version 2 : i32 is not supported`},
		{"layout", wrap("%arg0: tensor<2x3xf32>", "tensor<2x3xf32>", `    %0 = stablehlo.custom_call @f(%arg0) {operand_layouts = [dense<[0, 1]> : tensor<2xi64>]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>`), `only the default major-to-minor layout is supported`},
		{"aliases", wrap("%arg0: tensor<2xf32>", "tensor<2xf32>", `    %0 = stablehlo.custom_call @f(%arg0) {output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>`), `output_operand_aliases = [#stablehlo.output_operand_alias`},
		{"bad sharding call", wrap("%arg0: tensor<2xf32>", "tensor<3xf32>", `    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{replicated}"} : (tensor<2xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>`), `custom_call @Sharding takes one operand and returns it`},
		{"host channel", wrap("%arg0: tensor<2xf32>", "tensor<2xf32>", `    %0 = "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>`), `only device-to-device channels (type 1) are supported`},
		{"bad groups", wrap("%arg0: tensor<2xf32>", "tensor<4xf32>", `    %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1], [2, -1]]> : tensor<2x2xi64>}> : (tensor<2xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>`), `stablehlo.all_gather: replica_groups [[0 1] [2]]: group #1 has 1 members, group #0 has 2`},
		{"reduce capture", wrap("%arg0: tensor<2xf32>, %arg1: tensor<f32>", "tensor<f32>", `    %0 = stablehlo.reduce(%arg0 init: %arg1) across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
     reducer(%a: tensor<f32>, %b: tensor<f32>)  {
      %1 = stablehlo.multiply %a, %arg1 : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }`+"\n    return %0 : tensor<f32>"), `its body region uses a block argument defined outside it`},
		{"wrong type", wrap("%arg0: tensor<2xf32>", "tensor<3xf32>", `    %0 = stablehlo.negate %arg0 : (tensor<2xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>`), `stablehlo.negate: result #0 has type tensor<3xf32>, but the IR's type rule gives f32[2]`},
		{"ill-typed", wrap("%arg0: tensor<2xf32>, %arg1: tensor<3xf32>", "tensor<2xf32>", `    %0 = stablehlo.add %arg0, %arg1 : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>`), `stablehlo.add: operand types f32[2] and f32[3] differ`},
		{"module attribute", "module @jit_e attributes {mhlo.cross_program_prefetches = []} {\n  func.func public @main() {\n    return\n  }\n}\n", `unsupported module attribute mhlo.cross_program_prefetches`},
		{"argument attribute", wrap("%arg0: tensor<2xf32> {mhlo.memory_kind = \"pinned_host\"}", "tensor<2xf32>", `    return %arg0 : tensor<2xf32>`), `parameter #0: unsupported attribute mhlo.memory_kind = "pinned_host"`},
		{"no_inline", "module @jit_e {\n  func.func public @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n    %0 = call @f(%arg0) {no_inline} : (tensor<2xf32>) -> tensor<2xf32>\n    return %0 : tensor<2xf32>\n  }\n  func.func private @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n    return %arg0 : tensor<2xf32>\n  }\n}\n",
			`func.call: unsupported attribute no_inline`},
		{"huge constant", wrap("", "tensor<100000x100000xf32>", `    %0 = stablehlo.constant dense<1.0> : tensor<100000x100000xf32>
    return %0 : tensor<100000x100000xf32>`), `constant of f32[100000,100000] is too large to import`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := importErr(t, c.text, ImportOptions{})
			if err == nil {
				t.Fatalf("imports, want an error saying %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error:\n%v\nwant it to say:\n%s", err, c.want)
			}
			if strings.Contains(err.Error(), "internal error") {
				t.Errorf("internal error: %v", err)
			}
		})
	}
}

// TestImportIgnore: ImportOptions.Ignore drops the attributes it names.
func TestImportIgnore(t *testing.T) {
	text := `module @jit_e attributes {mhlo.frontend_attributes = {a = "1"}} {
  func.func public @main(%arg0: tensor<2xf32> {mhlo.frontend_attributes = {b = "2"}}) -> tensor<2xf32> {
    %0 = stablehlo.add %arg0, %arg0 {mhlo.frontend_attributes = {_xla_compute_type = "host"}} : tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
`
	if err := importErr(t, text, ImportOptions{}); err == nil {
		t.Errorf("imports without Ignore")
	}
	im := importText(t, text, ImportOptions{Ignore: []string{"mhlo.frontend_attributes"}})
	if got := im.Module.Funcs[0].Body[0].Op; got != ir.OpAdd {
		t.Errorf("imported %v, want add", got)
	}
}

// TestImportLocations: every kind of MLIR location, as the stablehlo
// package's location golden has them.
func TestImportLocations(t *testing.T) {
	im := importText(t, readFile(t, filepath.Join("..", "stablehlo", "testdata", "locations.loc.mlir")), ImportOptions{})
	f := im.Module.Funcs[0]
	var b strings.Builder
	ir.Print(&b, f, ir.PrintOptions{Locations: true})
	// Names give their child's location (none: unknown, as the
	// arguments' "x" and "y" and the reduce's name), call sites the
	// callee's, fused locations a fused ir.Loc with the metadata as the
	// pass (ranges keep their start); columns are dropped.
	want := `func @locs(%0: f32[4], %1: f32[4]) -> f32[4] {
  %2 = add %0, %1 : f32[4] loc("/src/model.go":43)
  %3 = constant {value = dense<0.0> : f32[]} : f32[] loc("/src/model.go":42)
  %4 = reduce %2, %3 {dims = [0]} @body(%0: f32[], %1: f32[]) {
    %2 = add %0, %1 : f32[]
    return %2
  } : f32[]
  %5 = broadcast_in_dim %4 {shape = [4], dims = []} : f32[4] loc(fused<"fuse">["/src/a.go":1, "/src/b.go":3, "/src/c.go":5])
  %6 = sort %5 {dim = 0} @comparator(%0: f32[] loc("/src/model.go":50), %1: f32[]) {
    %2 = compare %0, %1 {dir = LT} : i1[] loc("/src/model.go":42)
    return %2
  } : f32[4] loc("/src/model.go":42)
  return %6
}
`
	if got := b.String(); got != want {
		t.Errorf("locations:\n%s\nwant:\n%s", got, want)
	}
}

// FuzzImport: Import never panics, reports no internal error, and what it
// imports verifies and lowers. Seeded with every StableHLO text of the
// tests.
func FuzzImport(f *testing.F) {
	var seeds []string
	for _, pattern := range []string{
		filepath.Join("testdata", "*.mlir"), filepath.Join("testdata", "*", "*.mlir"),
		filepath.Join("testdata", "import", "*", "*.mlir"), filepath.Join("..", "stablehlo", "testdata", "*.mlir"),
		filepath.Join("..", "stablehlo", "testdata", "fuzz", "FuzzParse", "*"),
	} {
		fs, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, fs...)
	}
	if len(seeds) < 100 {
		f.Fatalf("only %d seeds", len(seeds))
	}
	for _, path := range seeds {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		if s, ok := strings.CutPrefix(string(src), "go test fuzz v1\n"); ok {
			// A corpus entry: []byte("...") on one line.
			s = strings.TrimSpace(s)
			if q, ok := strings.CutPrefix(s, "[]byte("); ok {
				if u, err := unquoteGo(strings.TrimSuffix(q, ")")); err == nil {
					src = []byte(u)
				}
			}
		}
		f.Add(src)
	}
	saved := maxConstantBytes
	f.Cleanup(func() { maxConstantBytes = saved })
	maxConstantBytes = 1 << 20
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := stablehlo.Parse(src)
		if err != nil {
			return
		}
		for _, keep := range []bool{false, true} {
			im, err := ImportWithOptions(m, ImportOptions{KeepShardingCalls: keep})
			if err != nil {
				if strings.Contains(err.Error(), "internal error") {
					t.Fatalf("internal error: %v\ninput:\n%s", err, src)
				}
				var e *ir.Error
				if !errors.As(err, &e) && !strings.HasPrefix(err.Error(), "import: ") {
					t.Fatalf("error without the op or import prefix: %v", err)
				}
				return
			}
			if err := im.Module.Verify(); err != nil {
				t.Fatalf("imported module does not verify: %v\ninput:\n%s", err, src)
			}
		}
	})
}

// unquoteGo undoes strconv.Quote (the fuzz corpus format).
func unquoteGo(s string) (string, error) {
	var out string
	_, err := fmt.Sscanf(s, "%q", &out)
	return out, err
}
