// Package check runs Stela's hand-written check files: StableHLO programs
// that carry their own expectations (check.expect_*, custom_call
// @check.*), one or a few per op of the CPU code generator, on every
// element type the op allows, with the edge cases (NaN, ±Inf, ±0,
// subnormals, INT_MIN / -1, division by zero, shifts past the width,
// rounding ties).
//
// In: testdata/*.mlir, which must pass; testdata/fail/*.mlir, which must
// fail as their `// FAIL: <line>: <text>` lines say (the line of the check
// op that fails, as `stela check` prints it after the file name); testdata/reject/*.mlir, which
// must be rejected (`// REJECT: <text>`). Out: TestPass, TestFail and
// TestReject run them through runtime/check on the Stela CPU plugin (this
// test binary is its compile worker); TestXLA runs the same prepared
// programs on XLA's CPU compiler (jaxlib) and judges XLA's results, which
// checks the expectations themselves.
//
// The expected values were computed apart from Stela: by hand, with Python's
// integers, numpy (IEEE float32/float64 arithmetic) and mpmath (correctly
// rounded transcendental functions), from the StableHLO specification and
// XLA's documented choices where the specification leaves a case open.
// knownUnsupported and xlaKnown list the understood exceptions; an entry
// that stops matching fails the test.
package check

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stela-ml/stela/internal/pyenv"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/ir/npy"
	"github.com/stela-ml/stela/pjrt"
	"github.com/stela-ml/stela/pjrt/cpu" // also makes this test binary the compile worker (STELA_CPU_WORKER=1)
	"github.com/stela-ml/stela/runtime/check"
	"github.com/stela-ml/stela/stablehlo"
)

// knownUnsupported lists the check files under testdata/ that the Stela CPU
// code generator rejects today, with the reason it gives (a substring of the
// *check.Rejected reason). A file that starts to compile, or that is
// rejected for another reason, fails the test, so the table stays true.
var knownUnsupported = map[string]string{}

// xlaKnown lists the expectations that XLA's CPU compiler does not meet,
// with why: file → substrings, each of which must match one failure that
// XLA's results get (and every failure must match one). Entries that no
// longer match fail the test.
var xlaKnown = map[string]xlaDiff{
	// XLA (jaxlib 0.10.2) departs from C99 Annex G (which numpy follows
	// here) at a few special values: exp(-0 - 0i) = 1 + 0i (Annex G:
	// 1 - 0i), log(∞ + NaN i) and log1p(NaN + ∞i) = NaN + NaN i (Annex G:
	// +∞ + NaN i), sqrt(-4 - 0i) = 2i and sqrt(0 - 0i) = 0 + 0i (the
	// branch cut's side and the zero's sign lost; Annex G: -2i, 0 - 0i).
	"complex_edge_values.mlir": {why: "XLA differs from C99 Annex G at signed zeros and infinities with NaN (numpy agrees with Stela)", match: []string{
		"32: check.expect_eq_const: element [1]:",
		"50: check.expect_eq_const: element [1]:",
		"54: check.expect_close: element [12]:",
		"72: check.expect_close: element [12]:",
		"79: check.expect_eq_const: element [12]:",
		"90: check.expect_close: element [9]:",
		"108: check.expect_close: element [9]:",
		"115: check.expect_eq_const: element [9]:",
		"126: check.expect_close: element [5]:",
		"140: check.expect_eq_const: element [2]:",
		"144: check.expect_close: element [5]:",
		"158: check.expect_eq_const: element [2]:",
	}},
	// XLA (jaxlib 0.10.2) computes the complex inverse functions without
	// regard to the sign of a zero part: on a branch cut it picks one
	// side whatever that sign (asin(2 - 0i), acos(2 - 0i), atan(-0 + 2i),
	// acosh(-2 - 0i), ...) and the sign of a zero result part is lost
	// (asin(-0 - 0i) = -0 - 0i), where C99 Annex G (and numpy) keep
	// both; its complex64 results also flush subnormal parts (FTZ).
	"chlo_complex_inverse.mlir": {why: "XLA ignores the sign of a zero part on branch cuts and flushes subnormal complex64 parts (Annex G and numpy agree with Stela)", match: []string{
		"15: check.expect_close: element [13]:",
		"25: check.expect_eq_const: element [11]:",
		"28: check.expect_close: element [5]:",
		"38: check.expect_eq_const: element [11]:",
		"41: check.expect_close: element [13]:",
		"51: check.expect_eq_const: element [11]:",
		"54: check.expect_close: element [13]:",
		"64: check.expect_eq_const: element [11]:",
		"77: check.expect_eq_const: element [10]:",
		"80: check.expect_close: element [5]:",
		"90: check.expect_eq_const: element [10]:",
		"93: check.expect_close: element [17]:",
		"98: check.expect_eq_const: element [11]:",
		"106: check.expect_close: element [4]:",
		"111: check.expect_eq_const: element [11]:",
		"119: check.expect_close: element [11]:",
		"129: check.expect_eq_const: element [11]:",
		"132: check.expect_close: element [11]:",
		"142: check.expect_eq_const: element [11]:",
		"150: check.expect_eq_const: element [11]:",
		"158: check.expect_close: element [4]:",
		"163: check.expect_eq_const: element [11]:",
	}},
	// XLA's CPU runtime runs with the x86 flush-to-zero and
	// denormals-are-zero modes on: subnormal results become ±0 and
	// subnormal operands read as ±0. StableHLO specifies IEEE 754
	// arithmetic, which Stela follows.
	"multiply.mlir": {why: "XLA flushes subnormal products to zero (FTZ)", match: []string{
		"element [0]: actual 0, expected 1e-40",
		"element [0]: actual 0, expected 1e-320",
	}},
	"convert_float.mlir": {why: "XLA reads subnormal f32 as 0 (DAZ) and flushes subnormal f64 -> f32 results (FTZ)", match: []string{
		"element [4]: actual 0, expected 1.401298464324817e-45",
		"element [10]: actual 0, expected 1e-45",
	}},
	"convert_int_float.mlir": {why: "XLA reads the subnormal f32 1.4e-45 as 0 (DAZ), so converts it to false", match: []string{
		"element [4]: actual false, expected true",
	}},
	// jaxlib 0.10.2's chlo legalization refuses chlo.broadcast_* ops that
	// carry broadcast_dimensions which are not a prefix padding; the
	// attribute is valid chlo and Stela honours it.
	"chlo_top_k_broadcast.mlir": {why: "XLA's chlo legalization rejects non-prefix broadcast_dimensions", match: []string{
		"unsupported non prefix-padded dynamic rank broadcast_dimensions",
	}},
	// XLA's CPU backend has no ragged-dot (jaxlib 0.10.2 decomposes
	// jax.lax.ragged_dot itself before it reaches XLA); the expected
	// values come from numpy loops over chlo's definition.
	"chlo_ragged_dot.mlir": {why: "XLA:CPU does not implement the ragged-dot HLO", match: []string{
		"HLO opcode `ragged-dot` is not supported by XLA:CPU",
	}},
	// XLA's chlo.zeta sums from a negative q directly (ζ(6, -7.25) is 1e-8
	// off relative) and computes f32 zeta and polygamma in f32 (digamma(1)
	// 5 ULP off); Stela computes in double and rounds once.
	"chlo_zeta_polygamma.mlir": {why: "XLA computes f32 zeta/polygamma in f32 and loses accuracy at a negative q", match: []string{
		"22: check.expect_close: element [0]: actual 4101.927172193355",
		"27: check.expect_close: element [14]: actual 0.11810221",
		"37: check.expect_close: element [0]: actual -0.5772154",
	}},
	// The spec pads reduce_window's input (edges and base-dilation holes)
	// with the init value, which then takes part in every window that
	// covers it; numpy, the reference evaluator and Stela agree. XLA's CPU
	// backend leaves padding and holes out of the fold.
	// TestXLA puts the constants behind optimization_barrier (so that XLA
	// computes rather than folds): the shape operands no longer fold, and
	// XLA's translation to HLO refuses the dynamic-shape ops it has no
	// static form for.
	"dynamic_shapes.mlir": {why: "the shape operands behind barriers do not fold for XLA", match: []string{
		"'stablehlo.dynamic_pad' op can't be translated to XLA HLO",
	}},
	// XLA's CPU backend accumulates complex<f32> products in f32; Stela
	// (and the evaluator) sum in double and round once.
	"dot_general_complex_ulp.mlir": {why: "XLA sums complex<f32> dot products in f32 (4 ULP off the correctly rounded sum here)", match: []string{
		"11: check.expect_close: element [0, 0]: actual (11.283286-9.901939j)",
		"14: check.expect_close: element [0, 1]: actual (1.1188896+8.201853j)",
	}},
	// jaxlib's StableHLO → HLO translation has no quantized ops (they
	// need StableHLO's quantization-to-integer pass first).
	"quant_per_axis.mlir":         {why: xlaNoQuant, match: []string{"'stablehlo.uniform_dequantize' op can't be translated to XLA HLO"}},
	"quant_result_type_form.mlir": {why: xlaNoQuant, match: []string{"'stablehlo.uniform_quantize' op can't be translated to XLA HLO"}},
	"quant_roundtrip.mlir":        {why: xlaNoQuant, match: []string{"'stablehlo.uniform_quantize' op can't be translated to XLA HLO"}},
	"quant_uniform.mlir":          {why: xlaNoQuant, match: []string{"'stablehlo.uniform_quantize' op can't be translated to XLA HLO"}},
	"batch_norm_quant.mlir":       {why: xlaNoQuant, match: []string{"'stablehlo.uniform_quantize' op can't be translated to XLA HLO"}},
	"quant_constant_region.mlir":  {why: xlaNoQuant, match: []string{"result #0 type is not supported"}},
	// The spec's shape rule for bitcast_convert counts num_bits(i1) = 1
	// (an f32 is 32 i1s); XLA gives PRED the 8 bits of its byte (an f32
	// becomes pred[4]), so the file's shapes do not fit XLA.
	"bitcast_convert_i1.mlir": {why: "XLA bitcasts i1 (PRED) as 8 bits, not the spec's 1", match: []string{
		"must be less than or equal to dimension size (4) in slice operation; argument shape: pred[1,4]",
	}},
	// XLA's CPU backend moves f8 values through select, transpose and
	// the like as floats, which rewrites NaN payloads (0x7E in f8E4M3
	// comes out 0x7C); Stela and the evaluator move the bits. And it
	// computes f8E8M0FNU in f32 with denormals-are-zero, so 2^-127 (an
	// f32 subnormal) reads as 0, which is NaN in that type.
	"types_f8.mlir": {why: "XLA rewrites f8 NaN payloads in data movement and reads f8E8M0FNU 2^-127 as 0 (DAZ)", match: []string{
		"97: check.expect_eq_const: element [5]: actual 127, expected 126",
		"117: check.expect_eq_const: element [7]: actual 127, expected 126",
		"321: check.expect_eq_const: element [7]: actual 124, expected 126",
		"380: check.expect_eq_const: element [7]: actual 120, expected 126",
		"395: check.expect_eq_const: element [1]: actual 255, expected 0",
	}},
	// XLA counts the bits of an i4 in its sign-extended byte: popcnt(-8)
	// is 5 there; the spec counts the operand's bits (1).
	"types_subbyte_int.mlir": {why: "XLA's popcnt on i4 counts the sign extension", match: []string{
		"168: check.expect_eq_const: element [0]: actual 5, expected 1",
	}},
	// jaxlib 0.10.2's CPU client aborts the process on these types.
	"types_f6.mlir": {why: "jaxlib 0.10.2 aborts on f6 programs", match: []string{"XLA: XLA killed the process: signal: aborted"}},
	// The f6 programs abort jaxlib (above). Run without them, XLA differs
	// on f8 (measured): it rounds the f8 bits themselves, so a source
	// subnormal loses mantissa bits the target format has (f8E5M2 2^-16 to
	// e8m1 gives 0; the spec's conversion to e8m1 and back keeps it), a NaN
	// keeps its payload, and a NaN stays NaN at mantissa_bits = 0 (the f32
	// rule Stela applies after widening makes it Inf).
	"reduce_precision_narrow.mlir": {why: "jaxlib 0.10.2 aborts on f6 programs", match: []string{"XLA: XLA killed the process: signal: aborted"}},
	// XLA legalizes chlo.is_inf to |x| == Inf with Inf as a constant of
	// the operand's type; f4E2M1FN has no Inf and XLA's constant becomes
	// 0 there, so is_inf(0) is true. The type has no Inf: Stela says false.
	// chlo.next_after likewise: on f8E4M3FNUZ the step from the smallest
	// negative subnormal towards 0 gives 0x80 (the type's NaN, where -0
	// would be), and on f8E8M0FNU XLA compares with a zero the type does
	// not have (NaN), so it steps from 1 towards 2 downwards.
	"chlo_import.mlir": {why: "XLA's chlo.is_inf on f4E2M1FN is true at 0; its next_after on f8E4M3FNUZ and f8E8M0FNU steps to NaN or the wrong way", match: []string{
		"100: check.expect_eq_const: element [3]: actual true, expected false",
		"108: check.expect_eq_const: element [0]: actual 128, expected 0",
		"118: check.expect_eq_const: element [0]: actual 126, expected 128",
	}},
	// XLA's chlo legalization has no f8 form of erfc (and the others).
	"chlo_narrow_floats.mlir": {why: "XLA does not legalize chlo.erfc on f8E4M3FN", match: []string{"failed to legalize operation 'chlo.erfc'"}},
	// XLA's CPU backend converts the f4E2M1FN value 6.0 (its largest) to
	// i32 as INT_MAX; every other f4 result agrees.
	"types_f4.mlir": {why: "XLA converts f4E2M1FN 6.0 to i32 as INT_MAX", match: []string{"59: check.expect_eq_const: element [0]: actual 2147483647, expected 6"}},
	"reduce_window_add.mlir": {why: "XLA does not fold the init value for padding and base-dilation holes", match: []string{
		"element [0, 0]: actual -0.5, expected 2.5",
	}},
}

const xlaNoQuant = "jaxlib does not translate quantized ops to HLO"

type xlaDiff struct {
	match []string // substrings of check.Failure.String()
	why   string
}

// ---------------------------------------------------------------- the plugin

var plugin struct {
	once   sync.Once
	client *pjrt.Client
	skip   string // why the plugin is not available
	err    error
}

// stelaClient returns a client of the Stela CPU plugin whose compile worker
// is this test binary. Without cc, opt or llc the test skips, or fails when
// CI=true.
func stelaClient(t *testing.T) *pjrt.Client {
	t.Helper()
	plugin.once.Do(func() {
		if missing := missingTools(); len(missing) > 0 {
			plugin.skip = "the Stela CPU plugin cannot be built here: " + strings.Join(missing, "; ")
			return
		}
		path, err := cpu.PluginPath()
		if err != nil {
			plugin.err = fmt.Errorf("building the Stela CPU plugin: %w", err)
			return
		}
		p, err := pjrt.LoadPlugin(path)
		if err != nil {
			plugin.err = err
			return
		}
		// This test binary is the worker; its Go build ID keys the compile
		// cache, so reruns of unchanged code hit it.
		opts, err := cpu.WorkerOptions()
		if err != nil {
			plugin.err = err
			return
		}
		plugin.client, plugin.err = p.NewClient(opts...)
	})
	if plugin.skip != "" {
		if os.Getenv("CI") == "true" {
			t.Fatal(plugin.skip)
		}
		t.Skip(plugin.skip)
	}
	if plugin.err != nil {
		t.Fatal(plugin.err)
	}
	return plugin.client
}

// missingTools names the tools the plugin and its code generator need that
// are not on PATH, with the Debian package to install.
func missingTools() []string {
	var missing []string
	cc := "cc"
	if f := strings.Fields(os.Getenv("CC")); len(f) > 0 {
		cc = f[0]
	}
	if _, err := exec.LookPath(cc); err != nil {
		missing = append(missing, cc+" not found (apt-get install gcc)")
	}
	for _, tool := range []string{"opt", "llc"} {
		_, err1 := exec.LookPath(tool)
		_, err2 := exec.LookPath(tool + "-14")
		if err1 != nil && err2 != nil {
			missing = append(missing, tool+" not found (apt-get install llvm-14)")
		}
	}
	return missing
}

// ---------------------------------------------------------------- files

type checkFile struct {
	name string // relative to testdata/: "add.mlir", "fail/wrong_eq.mlir"
	src  []byte
	// Directives from `// FAIL: text` and `// REJECT: text` lines.
	fail, reject []string
}

func readFiles(t *testing.T, dir string) []*checkFile {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", dir, "*.mlir"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no check files in testdata/%s", dir)
	}
	var files []*checkFile
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f := &checkFile{name: filepath.ToSlash(strings.TrimPrefix(p, "testdata"+string(filepath.Separator))), src: src}
		sc := bufio.NewScanner(bytes.NewReader(src))
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if s, ok := strings.CutPrefix(line, "// FAIL:"); ok {
				f.fail = append(f.fail, strings.TrimSpace(s))
			}
			if s, ok := strings.CutPrefix(line, "// REJECT:"); ok {
				f.reject = append(f.reject, strings.TrimSpace(s))
			}
		}
		files = append(files, f)
	}
	return files
}

// matchAll reports the directives no failure matches and the failures no
// directive matches. A directive matches a failure that contains it after
// a space or at its start: "8: check.expect_eq" matches the failure of
// line 8, not of line 18.
func matchAll(want []string, fails []string) (unmatchedWant, unmatchedFail []string) {
	used := make([]bool, len(fails))
	for _, w := range want {
		found := false
		for i, f := range fails {
			if strings.Contains(" "+f, " "+w) {
				used[i], found = true, true
			}
		}
		if !found {
			unmatchedWant = append(unmatchedWant, w)
		}
	}
	for i, f := range fails {
		if !used[i] {
			unmatchedFail = append(unmatchedFail, f)
		}
	}
	return
}

func failureStrings(fs []check.Failure) []string {
	var s []string
	for _, f := range fs {
		s = append(s, f.String())
	}
	return s
}

// ---------------------------------------------------------------- Stela

// TestPass runs every testdata/*.mlir on the Stela CPU plugin: each must
// report that every expectation held, unless it is known to be unsupported.
func TestPass(t *testing.T) {
	t.Parallel()
	files := readFiles(t, "")
	c := stelaClient(t)
	seen := map[string]bool{}
	for _, f := range files {
		seen[f.name] = true
		t.Run(strings.TrimSuffix(f.name, ".mlir"), func(t *testing.T) {
			t.Parallel()
			if len(f.fail)+len(f.reject) > 0 {
				t.Fatalf("%s has FAIL or REJECT directives; it belongs in testdata/fail or testdata/reject", f.name)
			}
			rep, err := check.Run(f.src, check.PJRTRunner{Client: c})
			want, known := knownUnsupported[f.name]
			var rej *check.Rejected
			switch {
			case known && errors.As(err, &rej) && strings.Contains(rej.Reason, want):
				t.Logf("known unsupported: %s", rej.Reason)
			case known && err == nil:
				t.Errorf("%s compiles now (report %+v): remove it from knownUnsupported", f.name, rep)
			case known:
				t.Errorf("%s: %v; knownUnsupported says %q", f.name, err, want)
			case err != nil:
				t.Fatalf("%s: %v", f.name, err)
			case rep.Checks == 0:
				t.Errorf("%s checks nothing", f.name)
			case !rep.OK():
				t.Errorf("%s: %d of %d expectations failed:\n  %s", f.name, len(rep.Failures), rep.Checks,
					strings.Join(failureStrings(rep.Failures), "\n  "))
			}
		})
	}
	for name := range knownUnsupported {
		if !seen[name] {
			t.Errorf("knownUnsupported names %s, which is not in testdata/", name)
		}
	}
}

// constantOperands lists the files whose constants must stay constants
// for TestPassInputs: the shape operands of dynamic-shape ops, which the
// compiler folds (the program's shapes would otherwise only be known at
// run time).
var constantOperands = map[string]string{
	"dynamic_shapes.mlir": "its constants are the shape operands of dynamic-shape ops, which must fold at compile time",
}

// TestPassInputs runs every testdata/*.mlir again with the constants of
// the entry function turned into its arguments, passed in as buffers. With
// the values known at compile time, LLVM computes many results while it
// compiles (it does: the object of sine.mlir stores sin(±0) as constants),
// so TestPass alone tests the constant folder as much as the code; here the
// kernels must compute every value at run time.
func TestPassInputs(t *testing.T) {
	t.Parallel()
	files := readFiles(t, "")
	c := stelaClient(t)
	for _, f := range files {
		if _, known := knownUnsupported[f.name]; known {
			continue
		}
		t.Run(strings.TrimSuffix(f.name, ".mlir"), func(t *testing.T) {
			t.Parallel()
			if why := constantOperands[f.name]; why != "" {
				t.Skip(why)
			}
			ps, err := check.Prepare(f.src)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				text, args, err := hoistConstants(p.MLIR)
				if err != nil {
					t.Fatalf("@%s: %v", p.Entry, err)
				}
				outs, err := runWithArgs(c, text, args)
				if err != nil {
					t.Fatalf("@%s: %v\n%s", p.Entry, err, text)
				}
				fs, err := check.Judge(p, outs)
				if err != nil {
					t.Fatalf("@%s: %v", p.Entry, err)
				}
				if len(fs) > 0 {
					t.Errorf("%s with its constants as arguments: %d of %d expectations failed:\n  %s",
						f.name, len(fs), len(p.Expectations), strings.Join(failureStrings(fs), "\n  "))
				}
			}
		})
	}
}

// hoistConstants makes the constants of @main's body arguments of @main and
// returns their values, in order (not those of the f6 types, which PJRT
// has no buffer type for).
func hoistConstants(mlir []byte) ([]byte, []*ir.Literal, error) {
	m, err := stablehlo.Parse(mlir)
	if err != nil {
		return nil, nil, err
	}
	f := m.Func("main")
	blk := f.Entry()
	var ops []*stablehlo.Op
	var args []*ir.Literal
	for _, op := range blk.Ops {
		d, ok := op.Attr("value").(*stablehlo.DenseElements)
		// Quantized constants stay (PJRT buffers have no quantized
		// element types; a quantized program argument is its storage).
		if op.Name != "stablehlo.constant" || !ok || len(op.Results) != 1 || quantized(op.Results[0].Type) {
			ops = append(ops, op)
			continue
		}
		l, err := check.DenseToLiteral(d)
		if err != nil {
			return nil, nil, err
		}
		if _, err := pjrt.BufferTypeOf(l.Type.DType); err != nil {
			ops = append(ops, op) // f6: PJRT has no buffer type for it
			continue
		}
		c := op.Results[0]
		f.Args = append(f.Args, stablehlo.Param{Type: c.Type})
		replaceUses(blk.Ops, c, blk.AddArg(c.Type))
		args = append(args, l)
	}
	blk.Ops = ops
	return stablehlo.Format(m, stablehlo.PrintOptions{}), args, nil
}

func quantized(t stablehlo.Type) bool {
	tt, ok := t.(stablehlo.TensorType)
	return ok && tt.Elem.IsQuantized()
}

// runWithArgs compiles mlir, runs it on args and returns its results.
func runWithArgs(c *pjrt.Client, mlir []byte, args []*ir.Literal) ([]*ir.Literal, error) {
	dev := c.AddressableDevices()[0]
	exe, err := c.Compile(string(mlir), &pjrt.CompileOptions{})
	if err != nil {
		return nil, err
	}
	defer exe.Destroy()
	var bufs []*pjrt.Buffer
	for _, a := range args {
		b, err := c.BufferFromLiteral(a, dev)
		if err != nil {
			return nil, err
		}
		defer b.Destroy()
		bufs = append(bufs, b)
	}
	outs, err := exe.ExecuteOn(dev, bufs...)
	if err != nil {
		return nil, err
	}
	var lits []*ir.Literal
	for _, b := range outs {
		l, err := b.ToLiteral()
		b.Destroy()
		if err != nil {
			return nil, err
		}
		lits = append(lits, l)
	}
	return lits, nil
}

// TestFail runs testdata/fail/*.mlir: each must compile and run, and report
// failures that match its `// FAIL:` directives one to one: every directive
// matches a failure, every failure matches a directive.
func TestFail(t *testing.T) {
	t.Parallel()
	files := readFiles(t, "fail")
	c := stelaClient(t)
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f.name), ".mlir"), func(t *testing.T) {
			t.Parallel()
			if len(f.fail) == 0 {
				t.Fatalf("%s has no // FAIL: directive", f.name)
			}
			rep, err := check.Run(f.src, check.PJRTRunner{Client: c})
			if err != nil {
				t.Fatalf("%s: %v", f.name, err)
			}
			if rep.OK() {
				t.Fatalf("%s: every expectation held (%d); want failures matching %q", f.name, rep.Checks, f.fail)
			}
			fails := failureStrings(rep.Failures)
			for _, s := range fails {
				// The contract: which check, on which line, and where in
				// the value.
				if !regexp.MustCompile(`^[1-9][0-9]*: (custom_call @)?check\.`).MatchString(s) || !strings.Contains(s, "element [") && !strings.Contains(s, "shape ") {
					t.Errorf("%s: failure %q does not name the line, the check and the index", f.name, s)
				}
			}
			if w, g := matchAll(f.fail, fails); len(w)+len(g) > 0 {
				t.Errorf("%s: directives without a failure: %q\nfailures without a directive: %q", f.name, w, g)
			}
		})
	}
}

// TestReject runs testdata/reject/*.mlir: each must be a *check.Rejected
// error whose reason contains its `// REJECT:` directive. Files that
// check.Prepare rejects need no plugin.
func TestReject(t *testing.T) {
	t.Parallel()
	files := readFiles(t, "reject")
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f.name), ".mlir"), func(t *testing.T) {
			t.Parallel()
			if len(f.reject) != 1 {
				t.Fatalf("%s has %d // REJECT: directives, want 1", f.name, len(f.reject))
			}
			_, err := check.Prepare(f.src)
			if err == nil {
				_, err = check.Run(f.src, check.PJRTRunner{Client: stelaClient(t)})
			}
			var rej *check.Rejected
			if !errors.As(err, &rej) {
				t.Fatalf("%s: got %v, want a rejection containing %q", f.name, err, f.reject[0])
			}
			if !strings.Contains(rej.Reason, f.reject[0]) {
				t.Errorf("%s: rejected with %q, want %q", f.name, rej.Reason, f.reject[0])
			}
			t.Logf("rejected: %s", rej.Reason)
			if strings.Contains(rej.Reason, "\n") {
				t.Errorf("%s: reason %q is not one line", f.name, rej.Reason)
			}
		})
	}
}

// ---------------------------------------------------------------- XLA

// TestXLA checks the expectations themselves: every prepared program of
// testdata/*.mlir and testdata/fail/*.mlir runs on XLA's CPU compiler
// (jaxlib, through ../xla/run_xla.py) and check.Judge judges its results.
// Pass files must pass (but for xlaKnown), fail files must fail as their
// directives say. A hand-computed expectation that is wrong fails here
// whatever Stela does. Skips without python3 and jaxlib
// (STELA_JAXLIB_PYTHONPATH names a directory with jax and jaxlib).
func TestXLA(t *testing.T) {
	t.Parallel()
	files := append(readFiles(t, ""), readFiles(t, "fail")...)
	type entry struct {
		file *checkFile
		p    *check.Prepared
	}
	dir := t.TempDir()
	var entries []*entry
	var jobs []xlaJob
	for _, f := range files {
		ps, err := check.Prepare(f.src)
		if err != nil {
			t.Errorf("%s: %v", f.name, err)
			continue
		}
		for _, p := range ps {
			jd := fmt.Sprintf("j%03d", len(jobs))
			if err := os.MkdirAll(filepath.Join(dir, jd), 0o755); err != nil {
				t.Fatal(err)
			}
			j := xlaJob{Name: f.name + "@" + p.Entry, MLIR: filepath.Join(jd, "prog.mlir")}
			text, err := barrierConstants(p.MLIR)
			if err != nil {
				t.Errorf("%s: the prepared program does not parse: %v", j.Name, err)
				continue
			}
			if err := os.WriteFile(filepath.Join(dir, j.MLIR), text, 0o644); err != nil {
				t.Fatal(err)
			}
			for k := range numResults(p) {
				j.Outputs = append(j.Outputs, filepath.Join(jd, fmt.Sprintf("out%d.npy", k)))
			}
			jobs = append(jobs, j)
			entries = append(entries, &entry{file: f, p: p})
		}
	}
	results, err := runXLA(t, dir, jobs)
	if err != nil {
		t.Fatal(err)
	}
	// Failures per file, over its entries; an XLA error counts as one.
	fails := map[string][]string{}
	for i, e := range entries {
		r := results[i]
		if !r.ok {
			fails[e.file.name] = append(fails[e.file.name], "XLA: "+firstLine(r.err))
			continue
		}
		fs, err := check.Judge(e.p, r.outs)
		if err != nil {
			t.Errorf("%s: %v", jobs[i].Name, err)
			continue
		}
		fails[e.file.name] = append(fails[e.file.name], failureStrings(fs)...)
	}
	for _, f := range files {
		got := fails[f.name]
		want := f.fail
		known, isKnown := xlaKnown[f.name]
		if isKnown {
			want = append(slices.Clone(want), known.match...)
		}
		if w, g := matchAll(want, got); len(w)+len(g) > 0 {
			t.Errorf("%s on XLA: expected failures that did not happen: %q\nfailures nobody expected:\n  %s",
				f.name, w, strings.Join(g, "\n  "))
		} else if isKnown {
			t.Logf("%s: XLA differs as known (%s)", f.name, known.why)
		}
	}
	for name := range xlaKnown {
		if !slices.ContainsFunc(files, func(f *checkFile) bool { return f.name == name }) {
			t.Errorf("xlaKnown names %s, which is not a check file", name)
		}
	}
}

// numResults is the number of results of a prepared program: its original
// results, then one per checked value.
func numResults(p *check.Prepared) int {
	n := p.NumOriginal
	for _, e := range p.Expectations {
		n = max(n, e.Actual+1, e.Expected+1)
	}
	return n
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// tailOf keeps the end of a long output.
func tailOf(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// ---------------------------------------------------------------- XLA plumbing

// xlaResult is what XLA did with one prepared program.
type xlaResult struct {
	ok   bool
	err  string
	outs []*ir.Literal
}

// xlaJob is one job of run_xla.py's manifest.
type xlaJob struct {
	Name    string   `json:"name"`
	MLIR    string   `json:"mlir"`
	Outputs []string `json:"outputs"`
}

// runXLA runs the jobs (paths relative to dir) with test/xla/run_xla.py,
// which compiles each program with jaxlib's CPU client. The jobs are split
// among up to GOMAXPROCS python3 processes (XLA compiles take about as long
// as Stela's, and jaxlib starts in a second or two). It skips the test when
// python3 or jaxlib is missing.
func runXLA(t *testing.T, dir string, jobs []xlaJob) ([]xlaResult, error) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3: XLA cross-check skipped")
	}
	script, err := filepath.Abs(filepath.Join("..", "xla", "run_xla.py"))
	if err != nil {
		return nil, err
	}
	env := pyenv.Environ()
	n := min(goruntime.GOMAXPROCS(0), 4, len(jobs))
	res := make([]xlaResult, len(jobs))
	errs := make([]error, n)
	noJaxlib := make([]string, n)
	var wg sync.WaitGroup
	for s := range n {
		// Shard s takes jobs s, s+n, ...: neighbors (similar programs) spread.
		var idx []int
		var shard []xlaJob
		for i := s; i < len(jobs); i += n {
			idx = append(idx, i)
			shard = append(shard, jobs[i])
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, skip, err := runShard(py, script, env, dir, fmt.Sprintf("s%d", s), shard)
			noJaxlib[s], errs[s] = skip, err
			for k, i := range idx {
				if k < len(r) {
					res[i] = r[k]
				}
			}
		}()
	}
	wg.Wait()
	for s := range n {
		if noJaxlib[s] != "" {
			t.Skipf("no jaxlib (set STELA_JAXLIB_PYTHONPATH): XLA cross-check skipped: %s", noJaxlib[s])
		}
		if errs[s] != nil {
			return nil, errs[s]
		}
	}
	return res, nil
}

// runShard runs jobs in one python3 process, and when XLA kills the process
// (it aborts on some programs instead of rejecting them), marks the job it
// died in and runs the rest in a new one. skip is set when jaxlib cannot be
// imported.
func runShard(py, script string, env []string, dir, name string, jobs []xlaJob) (res []xlaResult, skip string, err error) {
	res = make([]xlaResult, len(jobs))
	for start, batch := 0, 0; start < len(jobs); batch++ {
		manifest := filepath.Join(dir, fmt.Sprintf("manifest-%s-%d.json", name, batch))
		results := filepath.Join(dir, fmt.Sprintf("results-%s-%d.jsonl", name, batch))
		mb, err := json.Marshal(map[string]any{"jobs": jobs[start:]})
		if err != nil {
			return nil, "", err
		}
		if err := os.WriteFile(manifest, mb, 0o644); err != nil {
			return nil, "", err
		}
		cmd := exec.Command(py, script, manifest, results)
		cmd.Env = env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		runErr := cmd.Run()
		if ee, ok := runErr.(*exec.ExitError); ok && ee.ExitCode() == 3 {
			return nil, firstLine(out.String()), nil
		}
		done, err := readResults(results)
		if err != nil && runErr == nil {
			return nil, "", err
		}
		if len(done) > len(jobs)-start {
			return nil, "", fmt.Errorf("%s: %d results for %d jobs", results, len(done), len(jobs)-start)
		}
		for i, r := range done {
			res[start+i] = r
			if r.ok {
				for _, p := range jobs[start+i].Outputs {
					l, err := npy.ReadFile(filepath.Join(dir, p))
					if err != nil {
						res[start+i] = xlaResult{err: err.Error()}
						break
					}
					res[start+i].outs = append(res[start+i].outs, l)
				}
			}
		}
		start += len(done)
		if runErr == nil {
			if start != len(jobs) {
				return nil, "", fmt.Errorf("run_xla.py ran %d of %d jobs", start, len(jobs))
			}
			break
		}
		if start == len(jobs) {
			return nil, "", fmt.Errorf("run_xla.py: %v after every job\n%s", runErr, tailOf(out.String(), 2000))
		}
		// XLA died in jobs[start].
		res[start] = xlaResult{err: fmt.Sprintf("XLA killed the process: %v", runErr)}
		start++
	}
	return res, "", nil
}

// readResults reads run_xla.py's results, one JSON object per line.
func readResults(path string) ([]xlaResult, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var res []xlaResult
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var r struct {
			OK    bool   `json:"ok"`
			Error string `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return res, fmt.Errorf("%s: %w", path, err)
		}
		res = append(res, xlaResult{ok: r.OK, err: r.Error})
	}
	return res, nil
}

// barrierConstants puts every constant of the program's function bodies
// behind a stablehlo.optimization_barrier, so that XLA compiles the ops
// into code and runs them instead of folding them at compile time: the
// cross-check is then of XLA's CPU code generator, the counterpart of
// Stela's. (XLA's folder also dies of SIGFPE on a constant integer
// division by zero, which takes the whole batch down.)
func barrierConstants(mlir []byte) ([]byte, error) {
	m, err := stablehlo.Parse(mlir)
	if err != nil {
		return nil, err
	}
	for _, f := range m.Funcs {
		if f.Body == nil {
			continue
		}
		for _, blk := range f.Body.Blocks {
			var ops []*stablehlo.Op
			for _, op := range blk.Ops {
				ops = append(ops, op)
				if op.Name != "stablehlo.constant" {
					continue
				}
				c := op.Results[0]
				bar := &stablehlo.Op{Name: "stablehlo.optimization_barrier", Operands: []*stablehlo.Value{c}}
				v := &stablehlo.Value{Type: c.Type, Def: bar}
				bar.Results = []*stablehlo.Value{v}
				replaceUses(blk.Ops, c, v)
				ops = append(ops, bar)
			}
			blk.Ops = ops
		}
	}
	return stablehlo.Format(m, stablehlo.PrintOptions{}), nil
}

// replaceUses replaces old by new as an operand of ops and of the ops in
// their regions.
func replaceUses(ops []*stablehlo.Op, old, new *stablehlo.Value) {
	for _, op := range ops {
		for i, v := range op.Operands {
			if v == old {
				op.Operands[i] = new
			}
		}
		for _, r := range op.Regions {
			for _, b := range r.Blocks {
				replaceUses(b.Ops, old, new)
			}
		}
	}
}
