package codegen_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt/cpu/codegen"
)

// fftCase is one stablehlo.fft of TestFFTNumPy (the JSON of
// testdata/fft_numpy.py's cases.json).
type fftCase struct {
	Kind  string `json:"kind"`  // FFT, IFFT, RFFT, IRFFT
	DType string `json:"dtype"` // the operand's: c128, c64, f64, f32
	Shape []int  `json:"shape"` // the operand's
	Lens  []int  `json:"lens"`  // fft_length
}

var fftDTypes = map[string]ir.DType{"c128": ir.C128, "c64": ir.C64, "f64": ir.F64, "f32": ir.F32}

// newFFTCase makes the case of kind over batch dimensions then lens, its
// operand of dtype (the complex one; RFFT takes its part type).
func newFFTCase(kind string, c128 bool, batch, lens []int) fftCase {
	dt := "c64"
	if c128 {
		dt = "c128"
	}
	shape := append(append([]int{}, batch...), lens...)
	switch kind {
	case "RFFT":
		dt = map[string]string{"c64": "f32", "c128": "f64"}[dt]
	case "IRFFT":
		shape[len(shape)-1] = lens[len(lens)-1]/2 + 1
	}
	return fftCase{Kind: kind, DType: dt, Shape: shape, Lens: lens}
}

// types returns the operand's and the result's types.
func (c fftCase) types() (in, out ir.Type) {
	in = ir.TensorOf(fftDTypes[c.DType], c.Shape...)
	shape := append([]int{}, c.Shape...)
	last := len(shape) - 1
	n := c.Lens[len(c.Lens)-1]
	switch c.Kind {
	case "FFT", "IFFT":
		return in, in
	case "RFFT":
		shape[last] = n/2 + 1
		return in, ir.TensorOf(ir.ComplexOf(in.DType), shape...)
	default:
		shape[last] = n
		return in, ir.TensorOf(in.DType.ComplexPart(), shape...)
	}
}

func fftType(t ir.Type) string { return mlirType(t.Shape, t.DType.MLIR()) }

// fftModule is one function with a parameter and a result per case.
func fftModule(cases []fftCase) string {
	var params, results, body, rets []string
	for i, c := range cases {
		in, out := c.types()
		params = append(params, fmt.Sprintf("%%a%d: %s", i, fftType(in)))
		results = append(results, fftType(out))
		lens := i64List(c.Lens)
		body = append(body, fmt.Sprintf("  %%r%d = stablehlo.fft %%a%d, type = %s, length = [%s] : (%s) -> %s", i, i, c.Kind, lens, fftType(in), fftType(out)))
		rets = append(rets, fmt.Sprintf("%%r%d", i))
	}
	return fmt.Sprintf("func.func @main(%s) -> (%s) {\n%s\n  return %s : %s\n}\n", strings.Join(params, ", "),
		strings.Join(results, ", "), strings.Join(body, "\n"), strings.Join(rets, ", "), strings.Join(results, ", "))
}

// fftInput is a random operand with values in [-1, 1).
func fftInput(r *rand.Rand, t ir.Type) *ir.Literal {
	if t.DType.IsComplex() {
		v := make([]complex128, t.NumElements())
		for i := range v {
			v[i] = complex(r.Float64()*2-1, r.Float64()*2-1)
		}
		return ir.LiteralFromComplex128s(t, v)
	}
	v := make([]float64, t.NumElements())
	for i := range v {
		v[i] = r.Float64()*2 - 1
	}
	return ir.LiteralFromFloat64s(t, v)
}

// numpyPython returns Debian's python3 (NumPy 1.x: the C pocketfft the
// runtime's FFT is a port of), else python3 on PATH, with numpy; the test
// skips without one (fails under CI=true, where .ci/run installs it).
func numpyPython(t *testing.T) string {
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if path, err := exec.LookPath(p); err == nil {
			cmd := exec.Command(path, "-c", "import numpy")
			cmd.Env = noPythonPath()
			if cmd.Run() == nil {
				return path
			}
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("python3 with numpy is required in CI (.ci/run installs python3-numpy)")
	}
	t.Skip("no python3 with numpy; skipping the numpy.fft cross-check")
	return ""
}

// noPythonPath is the environment without PYTHONPATH (which could point
// at another numpy, e.g. jax's).
func noPythonPath() []string {
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "PYTHONPATH=") {
			env = append(env, e)
		}
	}
	return env
}

// fftLengths are the lengths TestFFTNumPy checks: every length to 64
// (every pass of pocketfft, alone and combined), composites, powers of two
// and primes that take Bluestein's algorithm (1031, 4099: a prime above
// sqrt(n) and n >= 50 where Bluestein is cheaper).
var fftLengths = func() []int {
	var l []int
	for n := 1; n <= 64; n++ {
		l = append(l, n)
	}
	return append(l, 100, 121, 128, 243, 1000, 1024, 1031, 4096, 4099)
}()

// TestFFTNumPy compares compiled stablehlo.fft with numpy.fft (NumPy 1.x,
// whose C pocketfft the runtime's FFT ports): bit for bit in complex128
// and float64, for every fftLengths length of all four kinds in one
// dimension (with a batch dimension), and for 2-D and 3-D transforms; in
// complex64 and float32 (which the runtime computes in float, NumPy in
// double) within a relative error of a few float epsilons.
func TestFFTNumPy(t *testing.T) {
	py := numpyPython(t)
	r := rand.New(rand.NewPCG(16, 7))
	var groups [][]fftCase
	for _, c128 := range []bool{true, false} {
		for _, kind := range []string{"FFT", "IFFT", "RFFT", "IRFFT"} {
			var g []fftCase
			for _, n := range fftLengths {
				batch := []int{2}
				if n > 1000 {
					batch = nil
				}
				g = append(g, newFFTCase(kind, c128, batch, []int{n}))
			}
			for _, md := range [][2][]int{
				{{3}, {6, 10}}, {nil, {12, 7}}, {{2}, {1, 9}}, {nil, {5, 1}}, {{2}, {64, 16}}, {nil, {17, 1031}},
				{{2}, {4, 6, 5}}, {nil, {3, 5, 8}}, {nil, {11, 1, 13}}, {nil, {16, 9, 32}},
			} {
				g = append(g, newFFTCase(kind, c128, md[0], md[1]))
			}
			groups = append(groups, g)
		}
	}
	dir := t.TempDir()
	var all []fftCase
	var args [][]*ir.Literal
	for _, g := range groups {
		var a []*ir.Literal
		for _, c := range g {
			in, _ := c.types()
			l := fftInput(r, in)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("in%d.bin", len(all))), l.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			all = append(all, c)
			a = append(a, l)
		}
		args = append(args, a)
	}
	js, _ := json.Marshal(all)
	if err := os.WriteFile(filepath.Join(dir, "cases.json"), js, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, filepath.Join("testdata", "fft_numpy.py"), dir)
	cmd.Env = noPythonPath()
	outJS, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("fft_numpy.py: %v\n%s", err, stderr)
	}
	var info struct{ NumPy string }
	if err := json.Unmarshal(outJS, &info); err != nil {
		t.Fatalf("fft_numpy.py printed %q: %v", outJS, err)
	}
	// NumPy 2 replaced the C pocketfft by the C++ one, whose results differ
	// in the last bits: then complex128 is compared within the tolerance.
	exact := strings.HasPrefix(info.NumPy, "1.")
	if !exact {
		t.Logf("numpy %s is not NumPy 1.x (C pocketfft): complex128 results are compared within 1e-14 relative, not bit for bit", info.NumPy)
	}
	worst := map[string]float64{}
	idx := 0
	for gi, g := range groups {
		p := compile(t, fftModule(g))
		got, rc, msg := p.run(t, args[gi]...)
		if rc != 0 {
			t.Fatalf("stela_entry returned %d: %s", rc, msg)
		}
		for i, c := range g {
			_, out := c.types()
			wt := ir.TensorOf(ir.C128, out.Shape...)
			if !out.DType.IsComplex() {
				wt = ir.TensorOf(ir.F64, out.Shape...)
			}
			b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("out%d.bin", idx)))
			if err != nil {
				t.Fatal(err)
			}
			idx++
			want, err := ir.LiteralFromBytes(wt, b)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%s %s %v lens %v", c.Kind, c.DType, c.Shape, c.Lens)
			double := c.DType == "c128" || c.DType == "f64"
			if double && exact {
				if string(got[i].Bytes()) != string(want.Bytes()) {
					g, w := fftValues(got[i]), fftValues(want)
					for j := range w {
						if math.Float64bits(real(g[j])) != math.Float64bits(real(w[j])) || math.Float64bits(imag(g[j])) != math.Float64bits(imag(w[j])) {
							t.Errorf("%s: element %d is %v, numpy.fft gives %v (not bit for bit)", name, j, g[j], w[j])
							break
						}
					}
				}
				continue
			}
			tol := 1e-14
			key := "complex128"
			if !double {
				tol, key = 6e-7, "complex64/f32"
			}
			e := fftRelErr(fftValues(got[i]), fftValues(want))
			worst[key] = max(worst[key], e)
			if e > tol {
				t.Errorf("%s: relative error %.3g > %.3g against numpy.fft", name, e, tol)
			}
		}
	}
	for k, v := range worst {
		t.Logf("worst relative error (max |got - numpy| / max |numpy|) %s: %.3g", k, v)
	}
}

// fftValues returns a literal's elements as complex128s (real ones with
// zero imaginary parts).
func fftValues(l *ir.Literal) []complex128 {
	if l.Type.DType.IsComplex() {
		return l.Complex128s()
	}
	f := l.Float64s()
	c := make([]complex128, len(f))
	for i, v := range f {
		c[i] = complex(v, 0)
	}
	return c
}

// fftRelErr is max |got - want| / max |want| (the error of a transform
// relative to its size: near-zero bins are rounding noise, so an
// elementwise relative error says nothing).
func fftRelErr(got, want []complex128) float64 {
	var e, m float64
	for i := range want {
		e = max(e, cmplx.Abs(got[i]-want[i]))
		m = max(m, cmplx.Abs(want[i]))
	}
	if m == 0 {
		return e
	}
	return e / m
}

// TestFFTEvaluator checks compiled stablehlo.fft against the reference
// evaluator (a direct DFT in complex128) on every element type it takes:
// complex<f32> and complex<f64> (FFT, IFFT, IRFFT), f32 and f64 (RFFT),
// in 1 to 3 dimensions, with batch dimensions and a length past the old
// 1024 limit.
func TestFFTEvaluator(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	type tc struct {
		kind  ir.FFTType
		batch []int
		lens  []int
	}
	var cases []tc
	for _, k := range []ir.FFTType{ir.FFTForward, ir.FFTInverse, ir.FFTReal, ir.FFTInverseReal} {
		for _, s := range [][2][]int{{{3}, {8}}, {nil, {11}}, {{2, 2}, {6}}, {nil, {1}}, {{2}, {5, 4}}, {nil, {3, 7}},
			{nil, {2, 3, 4}}, {{2}, {4, 1, 5}}, {nil, {1031}}, {nil, {2048}}} {
			cases = append(cases, tc{k, s[0], s[1]})
		}
	}
	for _, d := range []ir.DType{ir.C64, ir.C128} {
		for _, c := range cases {
			in := d
			if c.kind == ir.FFTReal {
				in = d.ComplexPart()
			}
			shape := append(append([]int{}, c.batch...), c.lens...)
			if c.kind == ir.FFTInverseReal {
				shape[len(shape)-1] = c.lens[len(c.lens)-1]/2 + 1
			}
			name := fmt.Sprintf("%s_%s_%v_%v", c.kind, in, c.batch, c.lens)
			t.Run(name, func(t *testing.T) {
				it := ir.TensorOf(in, shape...)
				b := newBuilder(t, "fft", it)
				b.f.Return(b.emit(ir.OpFFT, ir.FFTAttr{Type: c.kind, Length: c.lens}, b.f.Params[0]))
				tol := 1e-14
				if in == ir.C64 || in == ir.F32 {
					tol = 6e-7
				}
				cmp := func(got, want *ir.Literal, _ int) (uint64, error) {
					if !got.Type.Equal(want.Type) {
						return 0, fmt.Errorf("type %v, want %v", got.Type, want.Type)
					}
					if e := fftRelErr(fftValues(got), fftValues(want)); e > tol {
						return 0, fmt.Errorf("relative error %.3g > %.3g", e, tol)
					}
					return 0, nil
				}
				evalAndCompareBy(t, cmp, b.f, []checked{{"fft", 0}}, fftInput(r, it))
			})
		}
	}
}

// TestFFTRealInputSymmetry checks that the FFT of a complex operand whose
// imaginary parts are zero gives exact conjugates, X[n-k] == conj(X[k])
// exactly (equal values) and X[0] real, where pocketfft's algorithm does: lengths
// transformed by one pass (primes, with their own pass up to 11 or the
// generic one, and 4). That is the case of GoMLX's TestGradientFFT (length
// 11), whose gradient is the direction of near-zero bins. Composite
// lengths of several passes (6, 9, 12, ...) give conjugates only up to
// rounding, as NumPy's pocketfft does (TestFFTNumPy matches it there bit
// for bit).
func TestFFTRealInputSymmetry(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	lens := []int{2, 3, 4, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47}
	for _, c128 := range []bool{true, false} {
		var cases []fftCase
		var args []*ir.Literal
		for _, n := range lens {
			c := newFFTCase("FFT", c128, []int{3}, []int{n})
			in, _ := c.types()
			v := make([]complex128, in.NumElements())
			for i := range v {
				v[i] = complex(r.Float64()*2-1, 0)
			}
			if n == 11 {
				// GoMLX's input: sin(2πk/11).
				for k := range 11 {
					v[k] = complex(math.Sin(2*math.Pi*float64(k)/11), 0)
				}
			}
			cases = append(cases, c)
			args = append(args, ir.LiteralFromComplex128s(in, v))
		}
		p := compile(t, fftModule(cases))
		got, rc, msg := p.run(t, args...)
		if rc != 0 {
			t.Fatalf("stela_entry returned %d: %s", rc, msg)
		}
		for i, c := range cases {
			x := got[i].Complex128s()
			n := c.Lens[0]
			for b := range 3 {
				row := x[b*n : (b+1)*n]
				if imag(row[0]) != 0 {
					t.Errorf("%s n=%d batch %d: X[0] = %v is not real", c.DType, n, b, row[0])
				}
				for k := 1; k < n; k++ {
					// Equal values (a zero's sign aside: the bin n/2 of an
					// even n is its own conjugate).
					a, z := row[n-k], cmplx.Conj(row[k])
					if a != z {
						t.Errorf("%s n=%d batch %d: X[%d] = %v, conj(X[%d]) = %v", c.DType, n, b, n-k, a, k, z)
						break
					}
				}
			}
		}
	}
}

// BenchmarkFFT compares the runtime's FFT (fft) with the old plan of
// stablehlo.fft, products with N×N DFT matrices (dft, lengths up to 1024
// only). FFT2 is a 2-D transform, whose first dimension's lines are
// strided.
func BenchmarkFFT(b *testing.B) {
	for _, c := range []struct {
		kind  string
		c128  bool
		batch []int
		n     int
	}{
		{"FFT", false, []int{64}, 1024},
		{"FFT", true, nil, 1024},
		{"FFT", true, nil, 4096},
		{"RFFT", false, []int{64}, 1024},
		{"FFT2", false, nil, 512},
	} {
		fc := newFFTCase(c.kind, c.c128, c.batch, []int{c.n})
		if c.kind == "FFT2" { // a 2-D transform: the first dimension's lines are strided
			fc = newFFTCase("FFT", c.c128, c.batch, []int{c.n, c.n})
		}
		in, out := fc.types()
		for _, path := range []string{"dft", "fft"} {
			if path == "dft" && c.n > 1024 {
				continue
			}
			b.Run(fmt.Sprintf("%s_%s_%s/%s", c.kind, in.DType, strings.ReplaceAll(fmt.Sprint(in.Shape), " ", "x"), path), func(b *testing.B) {
				old := codegen.SetFFTExpand(path == "dft")
				defer codegen.SetFFTExpand(old)
				benchProgram(b, fftModule([]fftCase{fc}), []int{in.NumElements() * in.DType.Size()},
					[]int{out.NumElements() * out.DType.Size()}, 0)
			})
		}
	}
}
