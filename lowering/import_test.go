package lowering

import (
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stela-ml/stela/internal/gradcases"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

// importText parses StableHLO text and imports it, failing the test on an
// error or on an imported module that does not verify.
func importText(t *testing.T, text string, opts ImportOptions) *Imported {
	t.Helper()
	m, err := stablehlo.Parse([]byte(text))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, text)
	}
	im, err := ImportWithOptions(m, opts)
	if err != nil {
		t.Fatalf("import: %v\n%s", err, text)
	}
	if err := im.Module.Verify(); err != nil {
		t.Fatalf("imported module does not verify: %v\n%s", err, im.Module)
	}
	return im
}

// importErr parses text and returns Import's error (nil if it succeeds).
func importErr(t *testing.T, text string, opts ImportOptions) error {
	t.Helper()
	m, err := stablehlo.Parse([]byte(text))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, text)
	}
	im, err := ImportWithOptions(m, opts)
	if err == nil {
		if verr := im.Module.Verify(); verr != nil {
			t.Fatalf("imported module does not verify: %v\n%s", verr, im.Module)
		}
	}
	return err
}

// throughText lowers m, prints it with locations, parses and imports it.
func throughText(t *testing.T, m *ir.Module, opts Options) *Imported {
	t.Helper()
	sm, err := LowerModule(m, opts)
	if err != nil {
		t.Fatalf("Lower: %v", err)
	}
	return importText(t, string(stablehlo.Format(sm, stablehlo.PrintOptions{Locations: true})), ImportOptions{})
}

// canonical prints f as the round trip can give it back: values
// renumbered, regions unnamed (StableHLO regions have no names),
// composite attributes sorted by name (MLIR dictionaries are sorted), and
// locations as the lowering writes them: inside a region an unknown
// location is the holding op's, and so is that of a region parameter,
// except case branches', which StableHLO has no place for (unknown), and
// composites', whose decompositions are functions of their own.
func canonical(f *ir.Func) string {
	f.Renumber()
	var strip func(g *ir.Func, holder *ir.Instr)
	strip = func(g *ir.Func, holder *ir.Instr) {
		if holder != nil && holder.Op == ir.OpComposite {
			holder = nil
		}
		if holder != nil {
			for _, p := range g.Params {
				switch {
				case holder.Op == ir.OpCase:
					p.SetParamLoc(ir.UnknownLoc)
				case !p.Loc().IsKnown():
					p.SetParamLoc(holder.Loc)
				}
			}
		}
		for _, in := range g.Body {
			if holder != nil && !in.Loc.IsKnown() {
				in.Loc = holder.Loc
			}
			if a, ok := in.Attr.(ir.CompositeAttr); ok {
				a.Attrs = slices.Clone(a.Attrs)
				slices.SortStableFunc(a.Attrs, func(x, y ir.NamedAttr) int { return strings.Compare(x.Name, y.Name) })
				in.Attr = a
			}
			for _, r := range in.Regions {
				r.Name = ""
				strip(r, in)
			}
		}
	}
	strip(f, nil)
	var b strings.Builder
	ir.Print(&b, f, ir.PrintOptions{Locations: true})
	return b.String()
}

// randomLiteral draws a literal of t: normal floats with the values a
// round trip could lose (zeros of both signs, NaN, infinities), small
// integers, random booleans.
func randomLiteral(r *rand.Rand, t ir.Type) *ir.Literal {
	n := t.NumElements()
	d := t.DType
	switch {
	case d == ir.Bool:
		v := make([]bool, n)
		for i := range v {
			v[i] = r.IntN(2) == 0
		}
		return ir.LiteralFromBools(t, v)
	case d.IsComplex():
		v := make([]complex128, n)
		for i := range v {
			v[i] = complex(r.NormFloat64(), r.NormFloat64())
		}
		return ir.LiteralFromComplex128s(t, v)
	case d.IsFloat():
		specials := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), -1, 2.5}
		v := make([]float64, n)
		for i := range v {
			v[i] = r.NormFloat64()
			if r.IntN(8) == 0 {
				v[i] = specials[r.IntN(len(specials))]
			}
		}
		return ir.LiteralFromFloat64s(t, v)
	case d.IsUnsigned():
		v := make([]uint64, n)
		for i := range v {
			v[i] = uint64(r.IntN(8))
		}
		return ir.LiteralFromUint64s(t, v)
	}
	v := make([]int64, n)
	for i := range v {
		v[i] = int64(r.IntN(9) - 4)
	}
	return ir.LiteralFromInt64s(t, v)
}

// argGen draws argument i of type t.
type argGen func(r *rand.Rand, i int, t ir.Type) *ir.Literal

// sameResults evaluates f and g on random arguments (the same for both)
// and reports a difference; it returns false when f cannot be evaluated.
func sameResults(t *testing.T, r *rand.Rand, f, g *ir.Func, gen argGen) bool {
	t.Helper()
	args := make([]*ir.Literal, len(f.Params))
	for i, p := range f.Params {
		if gen != nil {
			args[i] = gen(r, i, p.Type)
		} else {
			args[i] = randomLiteral(r, p.Type)
		}
	}
	want, err := ir.Eval(f, args...)
	if err != nil {
		return false
	}
	got, err := ir.Eval(g, args...)
	if err != nil {
		t.Errorf("@%s: the original evaluates, the imported function fails: %v", f.Name, err)
		return true
	}
	if len(got) != len(want) {
		t.Errorf("@%s: %d results, want %d", f.Name, len(got), len(want))
		return true
	}
	for i := range want {
		if !ir.LiteralEqual(got[i], want[i]) {
			t.Errorf("@%s: result #%d differs after the round trip:\ngot  %v\nwant %v", f.Name, i, ir.FormatLiteral(got[i]), ir.FormatLiteral(want[i]))
		}
	}
	return true
}

// checkRoundTrip checks that the import of m's lowering prints as m
// (canonical), unless normalised says why it may not; then the functions
// must still evaluate alike.
func checkRoundTrip(t *testing.T, m *ir.Module, im *Imported, normalised string, gen argGen) {
	t.Helper()
	if len(im.Module.Funcs) != len(m.Funcs) {
		t.Fatalf("%d functions after the round trip, want %d", len(im.Module.Funcs), len(m.Funcs))
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i, f := range m.Funcs {
		g := im.Module.Funcs[i]
		want, got := canonical(f), canonical(g)
		switch {
		case normalised == "" && got != want:
			t.Errorf("@%s prints differently after the round trip (-want +got):\n%s", f.Name, cmp.Diff(want, got))
		case normalised != "" && got == want:
			t.Errorf("@%s prints the same after the round trip, but the test says it normalises (%s): drop the note", f.Name, normalised)
		}
		for range 3 {
			sameResults(t, r, f, g, gen)
		}
	}
}

// TestImportRoundTripOpCases: every op case of the lowering's tests
// comes back from its printed lowering as it was.
func TestImportRoundTripOpCases(t *testing.T) {
	normalised := map[string]string{
		"sharding_constraint": "annotate mode lowers it to custom_call @Sharding, which imports as the identity; the mesh is not StableHLO's",
		"manual_computation":  "over a mesh of one device it lowers to its body inlined, which imports as such",
	}
	for _, c := range opCases() {
		t.Run(c.name, func(t *testing.T) {
			f := c.build(t)
			im := throughText(t, &ir.Module{Funcs: []*ir.Func{f}}, Options{Annotate: true})
			checkRoundTrip(t, &ir.Module{Funcs: []*ir.Func{f}}, im, normalised[c.name], nil)
		})
	}
}

// TestImportShardingConstraint: the constraint's sharding string comes
// back in Imported, and with KeepShardingCalls as an instruction that can
// be turned into a sharding_constraint in place.
func TestImportShardingConstraint(t *testing.T) {
	var c opCase
	for _, oc := range opCases() {
		if oc.name == "sharding_constraint" {
			c = oc
		}
	}
	f := c.build(t)
	f.InShardings = []*ir.Sharding{{Dims: [][]string{{"data"}, {}}}}
	sm, err := Lower(f, Options{Annotate: true})
	if err != nil {
		t.Fatal(err)
	}
	text := sm.String()
	const want = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"
	for _, keep := range []bool{false, true} {
		im := importText(t, text, ImportOptions{KeepShardingCalls: keep})
		g := im.Module.Funcs[0]
		if len(im.ShardingCalls) != 1 {
			t.Fatalf("keep=%v: %d sharding calls, want 1", keep, len(im.ShardingCalls))
		}
		sc := im.ShardingCalls[0]
		if sc.Target != "Sharding" || sc.Sharding != want || sc.Func != g || sc.Operand != g.Params[0] {
			t.Errorf("keep=%v: sharding call %+v, want @Sharding %q on parameter 0 of @%s", keep, sc, want, g.Name)
		}
		if im.NumPartitions != 8 || im.NumReplicas != 1 {
			t.Errorf("keep=%v: %d partitions, %d replicas; want 8, 1", keep, im.NumPartitions, im.NumReplicas)
		}
		if got := im.ArgShardings; len(got) != 1 || got[0] != "{devices=[2,1,4]<=[8] last_tile_dim_replicate}" {
			t.Errorf("keep=%v: argument shardings %q", keep, got)
		}
		if got := im.ResultShardings; len(got) != 1 || got[0] != "{replicated}" {
			t.Errorf("keep=%v: result shardings %q", keep, got)
		}
		if !keep {
			if sc.Instr != nil || len(g.Body) != 0 || g.Results[0] != g.Params[0] {
				t.Errorf("identity import: instr %v, body\n%s", sc.Instr, g)
			}
			continue
		}
		if sc.Instr == nil || sc.Instr.Op != ir.OpCustomCall || sc.Instr.Attr.(ir.CustomCallAttr).Target != "Sharding" || g.Results[0] != sc.Instr.Results[0] {
			t.Fatalf("kept call: instr %v in\n%s", sc.Instr, g)
		}
		// What the next step does: with the mesh back, the strings
		// become shardings (ParseHLOSharding) and the call in place the
		// constraint, and the function lowers as before.
		g.Mesh = f.Mesh
		parse := func(s string, typ ir.Type) *ir.Sharding {
			sh, err := ParseHLOSharding(s, g.Mesh, typ)
			if err != nil {
				t.Fatal(err)
			}
			return sh
		}
		g.InShardings = []*ir.Sharding{parse(im.ArgShardings[0], g.Params[0].Type)}
		g.OutShardings = []*ir.Sharding{parse(im.ResultShardings[0], g.Results[0].Type)}
		sc.Instr.Op = ir.OpShardingConstraint
		sc.Instr.Attr = ir.ShardingConstraintAttr{Sharding: *parse(sc.Sharding, sc.Operand.Type)}
		if err := ir.Verify(g); err != nil {
			t.Fatal(err)
		}
		back, err := Lower(g, Options{Annotate: true, ModuleName: im.Name})
		if err != nil {
			t.Fatal(err)
		}
		if back.String() != text {
			t.Errorf("relowered module differs:\n%s", cmp.Diff(text, back.String()))
		}
	}
}

// TestImportRoundTripSir: the .sir programs of the lowering's golden tests.
func TestImportRoundTripSir(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "sir", "*.sir"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no .sir files: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			m, err := ir.Parse(readFile(t, path))
			if err != nil {
				t.Fatal(err)
			}
			want, err := ir.Parse(readFile(t, path)) // a copy for comparing
			if err != nil {
				t.Fatal(err)
			}
			checkRoundTrip(t, want, throughText(t, m, Options{}), "", nil)
		})
	}
}

// TestImportRoundTripGradCases: the functions that exercise every
// differentiable op, with the inputs their table draws.
func TestImportRoundTripGradCases(t *testing.T) {
	for _, c := range gradcases.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			switch c.Op {
			case ir.OpManualComputation:
				t.Skip("a manual computation over several devices has no lowering for one device (TestLowerManualComputation lowers one in annotate mode)")
			case ir.OpShardingConstraint:
				t.Skip("without annotations a constraint lowers to the identity (TestImportRoundTripOpCases has it annotated)")
			}
			m := &ir.Module{Funcs: []*ir.Func{c.F}}
			im := throughText(t, m, Options{})
			gen := func(r *rand.Rand, i int, typ ir.Type) *ir.Literal {
				if i < len(c.Gen) && c.Gen[i] != nil {
					return c.Gen[i](r, typ)
				}
				return randomLiteral(r, typ)
			}
			checkRoundTrip(t, m, im, "", gen)
		})
	}
}

// TestImportRoundTripRandom: random programs of many ops, regions and
// element types come back as they were and evaluate alike.
func TestImportRoundTripRandom(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 30
	}
	for seed := range n {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		f := randomProgram(t, r)
		if err := ir.Verify(f); err != nil {
			t.Fatalf("seed %d: generated program does not verify: %v\n%s", seed, err, f)
		}
		m := &ir.Module{Funcs: []*ir.Func{f}}
		im := throughText(t, m, Options{})
		checkRoundTrip(t, m, im, "", nil)
		if t.Failed() {
			t.Fatalf("seed %d:\n%s", seed, f)
		}
	}
}

// TestImportStelaGoldens: for every module the lowering's golden tests
// wrote, import then lower gives the text back, locations included.
func TestImportStelaGoldens(t *testing.T) {
	skip := map[string]string{
		"ops/sharding_constraint.mlir": "custom_call @Sharding imports as the identity; its mesh is not in the text",
		"manual_annotate.mlir":         "without ImportOptions.ManualComputations @SPMDFullToShardShape and @SPMDShardToFullShape import as custom_calls; with it, the manual computation lowers back in annotate mode on the function's mesh (TestImportManualRoundTrip)",
	}
	n := 0
	err := filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".mlir") {
			return err
		}
		rel, _ := filepath.Rel("testdata", path)
		if strings.HasPrefix(rel, "import") || skip[filepath.ToSlash(rel)] != "" {
			return nil
		}
		n++
		t.Run(rel, func(t *testing.T) {
			text := readFile(t, path)
			im := importText(t, text, ImportOptions{})
			back, err := LowerModule(im.Module, im.LowerOptions())
			if err != nil {
				t.Fatalf("lowering the import: %v", err)
			}
			got := string(stablehlo.Format(back, stablehlo.PrintOptions{Locations: strings.Contains(text, "loc(")}))
			if got != text {
				t.Errorf("import → lower differs (-golden +got):\n%s", cmp.Diff(text, got))
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 70 {
		t.Errorf("only %d golden files found", n)
	}
}

// TestImportAliasesAndResultInfo: the entry's tf.aliasing_output and
// jax.result_info come back as the lowering options that wrote them.
func TestImportAliasesAndResultInfo(t *testing.T) {
	b := newFB(t, "step", tt(ir.F32, 4), tt(ir.S32), tt(ir.F32, 4))
	f := b.ret(b.e1(ir.OpAdd, nil, b.p(0), b.p(2)), b.p(1))
	opts := Options{Aliases: []int{0, -1, -1}, ResultInfo: true, NumReplicas: 2, NumPartitions: 1}
	sm, err := Lower(f, opts)
	if err != nil {
		t.Fatal(err)
	}
	im := importText(t, sm.String(), ImportOptions{})
	if diff := cmp.Diff([]int{0, -1, -1}, im.Aliases); diff != "" {
		t.Errorf("aliases: %s", diff)
	}
	if diff := cmp.Diff([]string{"result[0]", "result[1]"}, im.ResultInfo); diff != "" {
		t.Errorf("result info: %s", diff)
	}
	got := im.LowerOptions()
	if got.ModuleName != "jit_step" || !got.ResultInfo || got.NumReplicas != 2 || got.NumPartitions != 1 || !slices.Equal(got.Aliases, opts.Aliases) {
		t.Errorf("LowerOptions() = %+v", got)
	}
	if im.Module.Funcs[0].Name != "step" {
		t.Errorf("entry named @%s, want @step", im.Module.Funcs[0].Name)
	}
}

// TestImportEntry: how the entry function is found and named.
func TestImportEntry(t *testing.T) {
	fn := func(name, vis string) string {
		return "  func.func " + vis + " @" + name + "(%arg0: tensor<f32>) -> tensor<f32> {\n    return %arg0 : tensor<f32>\n  }\n"
	}
	for _, c := range []struct {
		text  string
		names []string // ir function names, entry first
		err   string
	}{
		{"module @jit_f {\n" + fn("g", "private") + fn("main", "public") + "}\n", []string{"f", "g"}, ""},
		{"module {\n" + fn("main", "public") + "}\n", []string{"main"}, ""},
		{"module @jit_g {\n" + fn("g", "private") + fn("main", "public") + "}\n", []string{"main", "g"}, ""},
		{"module @m {\n" + fn("a", "private") + fn("b", "public") + "}\n", []string{"m", "a"}, ""},
		{"module {\n" + fn("main", "public") + "  func.func private @ext(tensor<f32>) -> tensor<f32>\n}\n", []string{"main"}, ""},
		{"module {\n" + fn("a", "public") + fn("b", "public") + "}\n", nil, "cannot tell which is the entry"},
	} {
		m, err := stablehlo.Parse([]byte(c.text))
		if err != nil {
			t.Fatal(err)
		}
		im, err := Import(m)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.text, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.text, err)
			continue
		}
		var names []string
		for _, f := range im.Module.Funcs {
			names = append(names, f.Name)
		}
		if !slices.Equal(names, c.names) {
			t.Errorf("%s: functions %v, want %v", c.text, names, c.names)
		}
	}
}

// readDir lists the files of dir with the suffix, failing when there are
// none.
func readDir(t *testing.T, dir, suffix string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), suffix) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s files in %s", suffix, dir)
	}
	return out
}

// TestImportsEveryLoweredOp: every op the lowering emits has an import
// rule, so that nothing Stela writes is beyond Import.
func TestImportsEveryLoweredOp(t *testing.T) {
	for _, c := range opCases() {
		for _, o := range allOps(lower(t, c.build(t))) {
			if !isTerminatorName(o.Name) && !CanImport(o.Name) {
				t.Errorf("%s: the lowering emits %s, which Import has no rule for", c.name, o.Name)
			}
		}
	}
	for _, name := range []string{"stablehlo.add", "func.call", "stablehlo.broadcast", "stablehlo.if"} {
		if !CanImport(name) {
			t.Errorf("CanImport(%q) = false", name)
		}
	}
	for _, name := range []string{"stablehlo.einsum", "chlo.lgamma", "func.return"} {
		if CanImport(name) {
			t.Errorf("CanImport(%q) = true", name)
		}
	}
}
