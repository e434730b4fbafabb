package tensor_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	. "github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/internal/pyenv"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/ir/npy"
)

// jaxCase is one call of a jax.random function (testdata/jax_random.py
// makes it) and the Stela call that must give the same numbers.
type jaxCase struct {
	Name        string    `json:"name"`
	Fn          string    `json:"fn"`
	Seed        uint64    `json:"seed"`
	Shape       []int     `json:"shape,omitempty"`
	DType       string    `json:"dtype,omitempty"`
	Lo          string    `json:"lo,omitempty"` // floats as strings: JSON has no infinities
	Hi          string    `json:"hi,omitempty"`
	P           float64   `json:"p,omitempty"`
	N           int       `json:"n,omitempty"`
	Data        uint32    `json:"data,omitempty"`
	Logits      []float64 `json:"logits,omitempty"`
	LogitsShape []int     `json:"logits_shape,omitempty"`
	Axis        int       `json:"axis,omitempty"`

	stela func() *Tensor // the same numbers from Stela
	ulps  uint64         // the largest distance allowed, 0 for bit for bit
	// maxOff bounds the fraction of elements that may differ at all
	// (within ulps); 0 means any may.
	maxOff float64
}

func fstr(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// normalULPs bounds how far the normal samplers' numbers are from JAX's.
// Stela evaluates XLA's erfinv polynomial op by op where XLA fuses each
// step into a multiply-add, and takes Stela's log1p (within an ulp of the
// true value) where JAX takes XLA's: a few ulps in f32 (measured: at most
// 3, in about 5% of the elements), none seen in f16 and bf16 (their
// rounding hides them). XLA's f64 log1p is up to 128 ulps off on
// [-0.5, -0.3] (measured against numpy's), so f64 normals near ±0.92
// differ by up to about 30 ulps; Stela's are the more accurate ones.
// maxOff bounds the share of elements that differ at all.
var normalULPs = map[string]struct {
	ulps   uint64
	maxOff float64
}{"f16": {1, 0.01}, "bf16": {1, 0.01}, "f32": {4, 0.15}, "f64": {64, 0.25}}

// jaxCases are the cross-check's calls: every key function, bits of each
// width, and each sampler in each float type, over several seeds (0, a
// small one, one of 64 bits that only x64 JAX accepts, one JAX writes as
// -5) and shapes (scalar, odd, empty, rank 3).
func jaxCases() []*jaxCase {
	var cs []*jaxCase
	add := func(c *jaxCase) { c.Name = fmt.Sprintf("%02d_%s", len(cs), c.Fn); cs = append(cs, c) }
	seeds := []uint64{0, 42, 1<<40 + 12345, math.MaxUint64 - 4}
	for _, s := range seeds {
		add(&jaxCase{Fn: "key", Seed: s, stela: func() *Tensor { return RandomKey(s) }})
		add(&jaxCase{Fn: "split", Seed: s, N: 5, stela: func() *Tensor {
			var ks []*Tensor
			for _, k := range SplitKey(RandomKey(s), 5) {
				ks = append(ks, Reshape(k, 1, 2))
			}
			return Concat(0, ks...)
		}})
		add(&jaxCase{Fn: "fold_in", Seed: s, Data: 0xdeadbeef, stela: func() *Tensor { return FoldIn(RandomKey(s), 0xdeadbeef) }})
		add(&jaxCase{Fn: "split_fold", Seed: s, Data: 7, stela: func() *Tensor { return FoldIn(SplitKey(RandomKey(s), 3)[2], 7) }})
	}
	shapes := [][]int{{}, {7}, {0}, {3, 4, 5}}
	for i, sh := range shapes {
		s := seeds[i]
		for _, dt := range []ir.DType{ir.U8, ir.U16, ir.U32, ir.U64} {
			add(&jaxCase{Fn: "bits", Seed: s, Shape: sh, DType: dt.String(), stela: func() *Tensor { return RandomBits(RandomKey(s), dt, sh...) }})
		}
	}
	floats := []ir.DType{ir.F16, ir.BF16, ir.F32, ir.F64}
	bounds := [][2]float64{{0, 1}, {0.3, 1.7}, {-3, 5.5}, {-1e-3, 2e-3}, {100, 100.5}}
	for i, dt := range floats {
		for j, b := range bounds {
			s, sh := seeds[(i+j)%len(seeds)], []int{1000}
			add(&jaxCase{Fn: "uniform", Seed: s, Shape: sh, DType: dt.String(), Lo: fstr(b[0]), Hi: fstr(b[1]),
				stela: func() *Tensor { return RandomUniform(RandomKey(s), dt, sh, b[0], b[1]) }})
		}
		for _, s := range seeds {
			nu := normalULPs[dt.String()]
			add(&jaxCase{Fn: "normal", Seed: s, Shape: []int{1000}, DType: dt.String(), ulps: nu.ulps, maxOff: nu.maxOff,
				stela: func() *Tensor { return RandomNormal(RandomKey(s), dt, 1000) }})
		}
		for _, b := range [][2]float64{{-2, 2}, {-1, 3}, {0.5, math.Inf(1)}} {
			s := seeds[i]
			nu := normalULPs[dt.String()]
			add(&jaxCase{Fn: "truncated_normal", Seed: s, Shape: []int{1000}, DType: dt.String(), Lo: fstr(b[0]), Hi: fstr(b[1]), ulps: nu.ulps, maxOff: nu.maxOff,
				stela: func() *Tensor { return RandomTruncatedNormal(RandomKey(s), dt, b[0], b[1], 1000) }})
		}
	}
	for _, p := range []float64{0, 0.3, 0.5, 1} {
		add(&jaxCase{Fn: "bernoulli", Seed: 42, Shape: []int{1000}, P: p, stela: func() *Tensor { return RandomBernoulli(RandomKey(42), p, 1000) }})
	}
	// Categorical: 100 distributions of 10 categories, along either axis.
	logits := make([]float64, 1000)
	for i := range logits {
		logits[i] = math.Sin(float64(i)*0.37) * 2
	}
	for _, dt := range floats {
		for _, ax := range []int{1, 0} {
			shape := []int{100, 10}
			if ax == 0 {
				shape = []int{10, 100}
			}
			l := Convert(FromSlice(logits, shape...), dt)
			add(&jaxCase{Fn: "categorical", Seed: 7, DType: dt.String(), Logits: logits, LogitsShape: shape, Axis: ax,
				stela: func() *Tensor { return RandomCategorical(RandomKey(7), l, ax) }})
		}
	}
	return cs
}

// TestRandomMatchesJAX computes each case with JAX (python3 with jax,
// found through $STELA_JAXLIB_PYTHONPATH; the test skips without it) and
// with Stela, and compares them bit for bit, or within the case's ulps.
func TestRandomMatchesJAX(t *testing.T) {
	if testing.Short() {
		t.Skip("runs python3 with jax")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	// Stela computes on the reference evaluator: TestRandomDevicesAgree
	// checks that the CPU plugin gives the same numbers, and these many
	// shapes would compile hundreds of one-op programs there.
	var cases []*jaxCase
	var got []*ir.Literal
	onHost(t, func() {
		cases = jaxCases()
		got = make([]*ir.Literal, len(cases))
		for i, c := range cases {
			got[i] = c.stela().Literal()
		}
	})
	dir := t.TempDir()
	b, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(dir, "cases.json")
	if err := os.WriteFile(manifest, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "testdata/jax_random.py", manifest, dir)
	// XLA_FLAGS would change how XLA compiles (its fused multiply-adds
	// need the backend's optimizations): JAX runs as its users run it.
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
		t.Fatalf("jax_random.py: %v\n%s", err, out)
	}
	for i, c := range cases {
		want, err := npy.ReadFile(filepath.Join(dir, c.Name+".npy"))
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if err := compareJAX(got[i], want, c.ulps, c.maxOff); err != nil {
			t.Errorf("%s (seed %d, %s%v): %v", c.Name, c.Seed, c.DType, c.Shape, err)
		}
	}
}

// compareJAX compares Stela's result with JAX's, whose floats come as the
// unsigned integers of their bits: equal bits, or for floats at most ulps
// apart.
func compareJAX(got, want *ir.Literal, ulps uint64, maxOff float64) error {
	dt := got.Type.DType
	if !ir.ShapeEqual(got.Type.Shape, want.Type.Shape) {
		return fmt.Errorf("shape %v, JAX's is %v", got.Type.Shape, want.Type.Shape)
	}
	if !dt.IsFloat() {
		if !ir.LiteralEqual(got, want) {
			return fmt.Errorf("got  %v\nJAX: %v", got.Data, want.Data)
		}
		return nil
	}
	if want.Type.DType.Bits() != dt.Bits() || !want.Type.DType.IsUnsigned() {
		return fmt.Errorf("JAX's result is %v, want the bits of %v", want.Type, dt)
	}
	wantF := ir.Zeros(got.Type)
	for i := range wantF.Len() {
		wantF.SetElem(i, ir.ElemFromBits(dt, ir.ElemBits(want.Type.DType, want.Elem(i))))
	}
	g, w := got.Float64s(), wantF.Float64s()
	var off, worst int
	var most uint64
	var first []string
	for i := range g {
		if ir.ElemBits(dt, got.Elem(i)) == ir.ElemBits(dt, wantF.Elem(i)) {
			continue
		}
		off++
		d := ir.ULPDistance(dt, g[i], w[i])
		if d > most {
			most, worst = d, i
		}
		if len(first) < 4 {
			first = append(first, fmt.Sprintf("[%d] %v, JAX %v (%d ulps)", i, g[i], w[i], d))
		}
	}
	switch {
	case off == 0:
		return nil
	case ulps == 0:
		return fmt.Errorf("%d of %d elements differ from JAX's: %s", off, len(g), strings.Join(first, "; "))
	case most > ulps:
		return fmt.Errorf("element %d is %v, JAX's %v: %d ulps apart, want at most %d (%d of %d differ)", worst, g[worst], w[worst], most, ulps, off, len(g))
	case maxOff > 0 && float64(off) > maxOff*float64(len(g)):
		return fmt.Errorf("%d of %d elements differ from JAX's (by at most %d ulps), want at most %.0f%%", off, len(g), most, maxOff*100)
	}
	if testing.Verbose() {
		fmt.Printf("    %s%v: %d of %d elements within %d ulps of JAX's\n", dt, got.Type.Shape, off, len(g), most)
	}
	return nil
}
