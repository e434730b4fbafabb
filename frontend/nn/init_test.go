package nn_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/nn"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/internal/pyenv"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/ir/npy"
)

func TestFans(t *testing.T) {
	for _, c := range []struct {
		shape         []int
		in, out       int
		fanIn, fanOut float64
		err           string
	}{
		{[]int{4, 3}, -2, -1, 4, 3, ""},
		{[]int{3, 3, 2, 8}, -2, -1, 18, 72, ""},     // HWIO: h·w·in, h·w·out
		{[]int{5, 2, 7}, -2, -1, 10, 35, ""},        // a batch of matrices is a receptive field, as in JAX
		{[]int{10, 4}, 1, 0, 4, 10, ""},             // Embedding's axes
		{[]int{5}, -2, -1, 0, 0, "no axes -2 (in)"}, // JAX: "Can't compute input and output sizes"
		{[]int{0, 3}, -2, -1, 0, 0, "has a zero fan"},
	} {
		fi, fo, err := nn.Fans(c.shape, c.in, c.out)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Fans(%v): error %v, want %q", c.shape, err, c.err)
			}
		case err != nil:
			t.Errorf("Fans(%v): %v", c.shape, err)
		case fi != c.fanIn || fo != c.fanOut:
			t.Errorf("Fans(%v, %d, %d) = %v, %v, want %v, %v", c.shape, c.in, c.out, fi, fo, c.fanIn, c.fanOut)
		}
	}
}

// TestInitializerStatistics draws 32768 samples of a [256, 128] weight
// (fan in 256, fan out 128) from each initializer and checks their mean,
// standard deviation and range against the distribution's.
func TestInitializerStatistics(t *testing.T) {
	const fin, fout = 256, 128
	key := tensor.RandomKey(42)
	trunc := func(std float64) (float64, float64) { return std * 0.8796256610342398, 2 * std } // std of N(0,σ²) truncated at ±2σ, bound
	uni := func(std float64) (float64, float64) { return std, math.Sqrt(3) * std }
	for _, c := range []struct {
		name      string
		init      nn.Initializer
		mean, std float64
		bound     float64 // |x| <= bound; 0: unbounded
	}{
		{"GlorotUniform", nn.GlorotUniform, 0, 0, 0},
		{"GlorotNormal", nn.GlorotNormal, 0, 0, 0},
		{"HeNormal", nn.HeNormal, 0, 0, 0},
		{"HeUniform", nn.HeUniform, 0, 0, 0},
		{"LeCunNormal", nn.LeCunNormal, 0, 0, 0},
		{"LeCunUniform", nn.LeCunUniform, 0, 0, 0},
		{"Normal(0.05)", nn.Normal(0.05), 0, 0.05, 0},
		{"TruncatedNormal(0.05)", nn.TruncatedNormal(0.05), 0, 0, 0},
		{"Uniform(0.1)", nn.Uniform(0.1), 0.05, 0.1 / math.Sqrt(12), 0.1},
		{"VarianceScaling(3, fan_geo_avg, normal)", nn.VarianceScaling(3, nn.FanGeoAvg, nn.DistNormal), 0, math.Sqrt(3 / math.Sqrt(fin*fout)), 0},
	} {
		// The variance-scaling ones have the variance asked for, truncated
		// or not; TruncatedNormal(σ) is not rescaled.
		switch c.name {
		case "GlorotUniform":
			c.std, c.bound = uni(math.Sqrt(2.0 / (fin + fout)))
		case "GlorotNormal":
			c.std, c.bound = math.Sqrt(2.0/(fin+fout)), 2*math.Sqrt(2.0/(fin+fout))/0.8796256610342398
		case "HeNormal":
			c.std, c.bound = math.Sqrt(2.0/fin), 2*math.Sqrt(2.0/fin)/0.8796256610342398
		case "HeUniform":
			c.std, c.bound = uni(math.Sqrt(2.0 / fin))
		case "LeCunNormal":
			c.std, c.bound = math.Sqrt(1.0/fin), 2*math.Sqrt(1.0/fin)/0.8796256610342398
		case "LeCunUniform":
			c.std, c.bound = uni(math.Sqrt(1.0 / fin))
		case "TruncatedNormal(0.05)":
			c.std, c.bound = trunc(0.05)
		}
		x := c.init(key, ir.F32, fin, fout)
		if got, want := x.Type(), ir.TensorOf(ir.F32, fin, fout); !got.Equal(want) {
			t.Errorf("%s: %v, want %v", c.name, got, want)
			continue
		}
		v := x.Float32s()
		var sum, sq, lo, hi float64
		for _, e := range v {
			sum += float64(e)
			lo, hi = min(lo, float64(e)), max(hi, float64(e))
		}
		mean := sum / float64(len(v))
		for _, e := range v {
			sq += (float64(e) - mean) * (float64(e) - mean)
		}
		std := math.Sqrt(sq / float64(len(v)))
		n := float64(len(v))
		if math.Abs(mean-c.mean) > 5*c.std/math.Sqrt(n) {
			t.Errorf("%s: mean %.5g, want %.5g", c.name, mean, c.mean)
		}
		if math.Abs(std/c.std-1) > 0.03 {
			t.Errorf("%s: standard deviation %.5g, want %.5g", c.name, std, c.std)
		}
		if c.bound > 0 && (hi > c.bound*(1+1e-6) || lo < -c.bound*(1+1e-6)) {
			t.Errorf("%s: range [%.5g, %.5g], want within ±%.5g", c.name, lo, hi, c.bound)
		}
		if c.bound > 0 && (hi < 0.95*c.bound || c.mean == 0 && lo > -0.95*c.bound) {
			t.Errorf("%s: range [%.5g, %.5g] does not fill ±%.5g", c.name, lo, hi, c.bound)
		}
	}
	for _, c := range []struct {
		name string
		init nn.Initializer
		want float32
	}{{"Zeros", nn.Zeros, 0}, {"Ones", nn.Ones, 1}, {"Constant(0.25)", nn.Constant(0.25), 0.25}} {
		for i, e := range c.init(nil, ir.F32, 3, 2).Float32s() {
			if e != c.want {
				t.Errorf("%s: element %d is %v", c.name, i, e)
			}
		}
	}
}

// TestInitializersMatchJAX draws from each initializer with the key of a
// seed and compares with jax.nn.initializers' samples for the same seed
// (python3 with jax through $STELA_JAXLIB_PYTHONPATH; skips without it).
// Stela's PRNG is JAX's: uniform samples are equal bit for bit, normal
// ones within a few ulps (random.go says why).
func TestInitializersMatchJAX(t *testing.T) {
	if testing.Short() {
		t.Skip("runs python3 with jax")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	type jaxCase struct {
		Name   string         `json:"name"`
		Init   string         `json:"init"`
		Args   []any          `json:"args,omitempty"`
		Kwargs map[string]any `json:"kwargs,omitempty"`
		Seed   uint64         `json:"seed"`
		Shape  []int          `json:"shape"`
		DType  string         `json:"dtype"`
		stela  nn.Initializer
		ulps   int
	}
	var cases []*jaxCase
	for _, dt := range []string{"f32", "f64"} {
		for i, shape := range [][]int{{6, 5}, {3, 3, 2, 4}} {
			add := func(name string, init nn.Initializer, ulps int, args ...any) {
				if dt == "f64" && ulps > 0 {
					// XLA's f64 log1p is up to 128 ulps off; the normal
					// samples then differ by up to about 30 (random.go).
					ulps = 64
				}
				cases = append(cases, &jaxCase{Name: fmt.Sprintf("%s_%s_%d", name, dt, i), Init: name, Args: args,
					Seed: uint64(17 + i), Shape: shape, DType: dt, stela: init, ulps: ulps})
			}
			add("glorot_uniform", nn.GlorotUniform, 0)
			add("he_uniform", nn.HeUniform, 0)
			add("lecun_uniform", nn.LeCunUniform, 0)
			add("glorot_normal", nn.GlorotNormal, 8)
			add("he_normal", nn.HeNormal, 8)
			add("lecun_normal", nn.LeCunNormal, 8)
			add("normal", nn.Normal(0.3), 8, 0.3)
			add("truncated_normal", nn.TruncatedNormal(0.3), 8, 0.3)
			add("uniform", nn.Uniform(0.3), 0, 0.3)
			add("variance_scaling", nn.VarianceScaling(2.5, nn.FanGeoAvg, nn.DistNormal), 8, 2.5, "fan_geo_avg", "normal")
		}
	}
	cases = append(cases, &jaxCase{Name: "embedding_default", Init: "variance_scaling", Args: []any{1.0, "fan_in", "normal"},
		Kwargs: map[string]any{"out_axis": 0}, Seed: 3, Shape: []int{7, 5}, DType: "f32", ulps: 8,
		stela: nn.VarianceScaling(1, nn.FanIn, nn.DistNormal, 1, 0)})

	// On the reference evaluator: these many shapes would compile
	// hundreds of one-op programs on the CPU plugin.
	old := tensor.DefaultDevice().Name()
	if err := tensor.SetDefaultDevice("host"); err != nil {
		t.Fatal(err)
	}
	got := make([]*ir.Literal, len(cases))
	err = tensor.Catch(func() {
		for i, c := range cases {
			dt := map[string]ir.DType{"f32": ir.F32, "f64": ir.F64}[c.DType]
			got[i] = c.stela(tensor.RandomKey(c.Seed), dt, c.Shape...).Literal()
		}
	})
	if err := tensor.SetDefaultDevice(old); err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	b, _ := json.Marshal(cases)
	manifest := filepath.Join(dir, "cases.json")
	if err := os.WriteFile(manifest, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, filepath.Join("testdata", "jax_init.py"), manifest, dir)
	for _, kv := range pyenv.Environ() {
		if !strings.HasPrefix(kv, "XLA_FLAGS=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 3 {
		t.Skipf("no jax (set STELA_JAXLIB_PYTHONPATH): %s", strings.TrimSpace(string(out)))
	}
	if err != nil {
		t.Fatalf("jax_init.py: %v\n%s", err, out)
	}
	for i, c := range cases {
		want, err := npy.ReadFile(filepath.Join(dir, c.Name+".npy"))
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if !want.Type.Equal(got[i].Type) {
			t.Errorf("%s: %v, JAX's is %v", c.Name, got[i].Type, want.Type)
			continue
		}
		worst := 0.0
		for k := range want.Len() {
			g, w := ir.ToFloat64(got[i].Type.DType, got[i].Elem(k)), ir.ToFloat64(want.Type.DType, want.Elem(k))
			u := ulpsApart(got[i].Type.DType, g, w)
			worst = max(worst, u)
			if u > float64(c.ulps) {
				t.Errorf("%s: element %d is %v, JAX's %v (%v ulps apart, want at most %d)", c.Name, k, g, w, u, c.ulps)
				break
			}
		}
		if testing.Verbose() {
			t.Logf("%s: at most %v ulps from JAX", c.Name, worst)
		}
	}
}

// ulpsApart is how many floats of dt lie between a and b.
func ulpsApart(dt ir.DType, a, b float64) float64 {
	if dt == ir.F32 {
		x, y := int64(int32(math.Float32bits(float32(a)))), int64(int32(math.Float32bits(float32(b))))
		return math.Abs(float64(ordered32(x) - ordered32(y)))
	}
	x, y := int64(math.Float64bits(a)), int64(math.Float64bits(b))
	return math.Abs(float64(ordered64(x) - ordered64(y)))
}

func ordered32(b int64) int64 {
	if b < 0 {
		return math.MinInt32 - b
	}
	return b
}

func ordered64(b int64) int64 {
	if b < 0 {
		return math.MinInt64 - b
	}
	return b
}
