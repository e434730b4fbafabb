package tensor_test

import (
	"slices"
	"strings"
	"sync"
	"testing"

	. "github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/lowering"
	"github.com/stela-ml/stela/runtime"
	"github.com/stela-ml/stela/stablehlo"
)

// highestConfig is precision_config = [HIGHEST, HIGHEST] as an MLIR
// attribute; the printer spells it so on convolution, and as the short
// `precision = [HIGHEST, HIGHEST]` in dot_general's pretty form.
const highestConfig = "[#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]"

// withPrecision runs fn with p as the default precision and restores the
// previous one, so that the other tests see the package default.
func withPrecision(t *testing.T, p ir.Precision, fn func()) {
	t.Helper()
	old := DefaultPrecision()
	SetDefaultPrecision(p)
	defer SetDefaultPrecision(old)
	fn()
}

// traceOps traces fn over parameters of the given types and returns the
// function.
func traceOps(t *testing.T, fn func(ps []*Tensor) []*Tensor, types ...ir.Type) *ir.Func {
	t.Helper()
	tr := NewTracer("f")
	ps := make([]*Tensor, len(types))
	for i, ty := range types {
		ps[i] = tr.Param(ty, ir.UnknownLoc)
	}
	var outs []*Tensor
	if err := Catch(func() { outs = fn(ps) }); err != nil {
		tr.Discard()
		t.Fatal(err)
	}
	f, _, err := tr.Finish(outs...)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// precisions lists the precision of each dot_general and convolution of
// f, in order.
func precisions(f *ir.Func) [][]ir.Precision {
	var out [][]ir.Precision
	for _, in := range f.Body {
		switch a := in.Attr.(type) {
		case ir.DotGeneralAttr:
			out = append(out, a.Precision)
		case ir.ConvolutionAttr:
			out = append(out, a.Precision)
		}
	}
	return out
}

func pair(p ir.Precision) []ir.Precision { return []ir.Precision{p, p} }

func wantPrecisions(t *testing.T, f *ir.Func, want ...[]ir.Precision) {
	t.Helper()
	got := precisions(f)
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("precisions %v, want %v in\n%s", got, want, f)
	}
}

// loweredConfigs lowers f as the runtime does and returns each
// dot_general's and convolution's precision_config ("" for none).
func loweredConfigs(t *testing.T, f *ir.Func) []string {
	t.Helper()
	m, err := lowering.Lower(f, lowering.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, fn := range m.Funcs {
		for _, op := range fn.Body.Blocks[0].Ops {
			if op.Name != "stablehlo.dot_general" && op.Name != "stablehlo.convolution" {
				continue
			}
			s := ""
			if a := op.Attr("precision_config"); a != nil {
				s = a.String()
			}
			out = append(out, s)
		}
	}
	return out
}

func TestDefaultPrecisionIsHighest(t *testing.T) {
	if p := DefaultPrecision(); p != ir.PrecisionHighest {
		t.Fatalf("DefaultPrecision() = %v, want HIGHEST", p)
	}
	f := traceOps(t, func(ps []*Tensor) []*Tensor {
		h := MatMul(ps[0], ps[1])
		c := Conv2D(ps[2], ps[3], Conv2DOptions{Padding: Same})
		return []*Tensor{h, c}
	}, ir.TensorOf(ir.F32, 4, 8), ir.TensorOf(ir.F32, 8, 16),
		ir.TensorOf(ir.F32, 1, 5, 5, 2), ir.TensorOf(ir.F32, 3, 3, 2, 4))
	wantPrecisions(t, f, pair(ir.PrecisionHighest), pair(ir.PrecisionHighest))

	// The traced IR, the lowered module and the text the runtime compiles
	// (and hashes) all carry it.
	if n := strings.Count(f.String(), "precision = [HIGHEST, HIGHEST]"); n != 2 {
		t.Errorf("traced IR has %d ops with precision = [HIGHEST, HIGHEST], want 2:\n%s", n, f)
	}
	if got, want := loweredConfigs(t, f), []string{highestConfig, highestConfig}; !slices.Equal(got, want) {
		t.Errorf("lowered precision_config %q, want %q", got, want)
	}
	text, err := runtime.StableHLO(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] :",
		"precision_config = " + highestConfig,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("lowered StableHLO lacks %q:\n%s", want, text)
		}
	}
	// The text parses back with the same attribute: what a plugin reads.
	m, err := stablehlo.Parse([]byte(text))
	if err != nil {
		t.Fatalf("parse lowered text: %v", err)
	}
	for _, op := range m.Funcs[0].Body.Blocks[0].Ops {
		if op.Name == "stablehlo.dot_general" || op.Name == "stablehlo.convolution" {
			if a := op.Attr("precision_config"); a == nil || a.String() != highestConfig {
				t.Errorf("parsed %s: precision_config %v, want %s", op.Name, a, highestConfig)
			}
		}
	}
}

func TestDefaultPrecisionDTypes(t *testing.T) {
	for _, d := range []ir.DType{ir.F16, ir.BF16, ir.F32, ir.F64, ir.C64, ir.C128} {
		t.Run(d.String()+" gets the default", func(t *testing.T) {
			f := traceOps(t, func(ps []*Tensor) []*Tensor {
				return []*Tensor{MatMul(ps[0], ps[1])}
			}, ir.TensorOf(d, 2, 3), ir.TensorOf(d, 3, 2))
			wantPrecisions(t, f, pair(ir.PrecisionHighest))
		})
	}
	for _, d := range []ir.DType{ir.S8, ir.S32, ir.U8, ir.S64} {
		t.Run(d.String()+" gets none", func(t *testing.T) {
			f := traceOps(t, func(ps []*Tensor) []*Tensor {
				dot := MatMul(ps[0], ps[1])
				conv := Conv2D(ps[2], ps[3], Conv2DOptions{})
				return []*Tensor{dot, conv}
			}, ir.TensorOf(d, 2, 3), ir.TensorOf(d, 3, 2),
				ir.TensorOf(d, 1, 3, 3, 1), ir.TensorOf(d, 2, 2, 1, 1))
			wantPrecisions(t, f, nil, nil)
			if strings.Contains(f.String(), "precision") {
				t.Errorf("integer ops print a precision:\n%s", f)
			}
			if got := loweredConfigs(t, f); !slices.Equal(got, []string{"", ""}) {
				t.Errorf("lowered precision_config %q, want none", got)
			}
		})
	}
}

func TestSetDefaultPrecision(t *testing.T) {
	mm := func(ps []*Tensor) []*Tensor { return []*Tensor{MatMul(ps[0], ps[1])} }
	ts := []ir.Type{ir.TensorOf(ir.F32, 2, 3), ir.TensorOf(ir.F32, 3, 2)}
	before := traceOps(t, mm, ts...)
	withPrecision(t, ir.PrecisionDefault, func() {
		if p := DefaultPrecision(); p != ir.PrecisionDefault {
			t.Errorf("DefaultPrecision() = %v after SetDefaultPrecision(DEFAULT)", p)
		}
		f := traceOps(t, func(ps []*Tensor) []*Tensor {
			h := MatMul(ps[0], ps[1])
			c := Convolution(ps[2], ps[3], ir.ConvolutionAttr{
				InputFeatureDim: 1, InputSpatialDims: []int{2},
				KernelInputFeatureDim: 1, KernelSpatialDims: []int{2},
				OutputFeatureDim: 1, OutputSpatialDims: []int{2},
				FeatureGroupCount: 1, BatchGroupCount: 1,
			})
			return []*Tensor{h, c}
		}, append(ts, ir.TensorOf(ir.F32, 1, 2, 5), ir.TensorOf(ir.F32, 3, 2, 2))...)
		wantPrecisions(t, f, pair(ir.PrecisionDefault), pair(ir.PrecisionDefault))
		want := "[#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]"
		if got := loweredConfigs(t, f); !slices.Equal(got, []string{want, want}) {
			t.Errorf("lowered precision_config %q, want DEFAULT", got)
		}
		withPrecision(t, ir.PrecisionHigh, func() {
			wantPrecisions(t, traceOps(t, mm, ts...), pair(ir.PrecisionHigh))
		})
	})
	// Ops made before the change keep what they were made with, and the
	// default comes back.
	wantPrecisions(t, before, pair(ir.PrecisionHighest))
	wantPrecisions(t, traceOps(t, mm, ts...), pair(ir.PrecisionHighest))

	err := Catch(func() { SetDefaultPrecision(ir.Precision(7)) })
	if err == nil || !strings.Contains(err.Error(), "precision: unknown precision 7") {
		t.Errorf("SetDefaultPrecision(7): %v", err)
	}
	if p := DefaultPrecision(); p != ir.PrecisionHighest {
		t.Errorf("a rejected SetDefaultPrecision changed the default to %v", p)
	}
}

func TestExplicitPrecisionIsKept(t *testing.T) {
	given := []ir.Precision{ir.PrecisionHigh, ir.PrecisionDefault}
	dims := ir.DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{0}, Precision: given}
	conv := ir.ConvolutionAttr{
		InputFeatureDim: 1, InputSpatialDims: []int{2},
		KernelInputFeatureDim: 1, KernelSpatialDims: []int{2},
		OutputFeatureDim: 1, OutputSpatialDims: []int{2},
		FeatureGroupCount: 1, BatchGroupCount: 1,
		Precision: []ir.Precision{ir.PrecisionDefault, ir.PrecisionDefault},
	}
	for _, p := range []ir.Precision{ir.PrecisionHighest, ir.PrecisionDefault} {
		withPrecision(t, p, func() {
			f := traceOps(t, func(ps []*Tensor) []*Tensor {
				return []*Tensor{
					DotGeneral(ps[0], ps[1], dims),
					Convolution(ps[2], ps[3], conv),
					DotGeneral(ps[4], ps[5], dims), // integer: kept too
				}
			}, ir.TensorOf(ir.F32, 2, 3), ir.TensorOf(ir.F32, 3, 2),
				ir.TensorOf(ir.F32, 1, 2, 5), ir.TensorOf(ir.F32, 3, 2, 2),
				ir.TensorOf(ir.S32, 2, 3), ir.TensorOf(ir.S32, 3, 2))
			wantPrecisions(t, f, given, pair(ir.PrecisionDefault), given)
		})
	}
	// The op owns its copy: changing the caller's slice changes nothing.
	f := traceOps(t, func(ps []*Tensor) []*Tensor { return []*Tensor{DotGeneral(ps[0], ps[1], dims)} },
		ir.TensorOf(ir.F32, 2, 3), ir.TensorOf(ir.F32, 3, 2))
	given[0] = ir.PrecisionHighest
	wantPrecisions(t, f, []ir.Precision{ir.PrecisionHigh, ir.PrecisionDefault})
}

// recordingDevice is the reference device under another name that keeps
// the text of every program it runs: eager ops arrive as one-op programs.
type recordingDevice struct {
	mu    sync.Mutex
	progs []string
}
type recordedBuffer struct {
	b Buffer
	d *recordingDevice
}

func (*recordingDevice) Name() string { return "recording" }
func (d *recordingDevice) Put(l *ir.Literal) (Buffer, error) {
	b, err := HostDevice().Put(l)
	return &recordedBuffer{b, d}, err
}
func (d *recordingDevice) Run(f *ir.Func, args []Buffer) ([]Buffer, error) {
	d.mu.Lock()
	d.progs = append(d.progs, f.String())
	d.mu.Unlock()
	in := make([]Buffer, len(args))
	for i, a := range args {
		in[i] = a.(*recordedBuffer).b
	}
	out, err := HostDevice().Run(f, in)
	for i := range out {
		out[i] = &recordedBuffer{out[i], d}
	}
	return out, err
}
func (b *recordedBuffer) Type() ir.Type                 { return b.b.Type() }
func (b *recordedBuffer) Device() Device                { return b.d }
func (b *recordedBuffer) Literal() (*ir.Literal, error) { return b.b.Literal() }

func (d *recordingDevice) last() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.progs) == 0 {
		return ""
	}
	return d.progs[len(d.progs)-1]
}

func TestEagerPrecision(t *testing.T) {
	d := &recordingDevice{}
	RegisterDevice("recording", d)
	x := f32([]float32{1, 2, 3, 4, 5, 6}, 2, 3).To("recording")
	y := f32([]float32{1, 0, 0, 1, 1, 1}, 3, 2).To("recording")
	want := f32([]float32{4, 5, 10, 11}, 2, 2)
	check(t, func() { same(t, MatMul(x, y).To("host"), want.To("host")) })
	if got := d.last(); !strings.Contains(got, "dot_general") || !strings.Contains(got, "precision = [HIGHEST, HIGHEST]") {
		t.Errorf("eager matmul ran\n%s\nwant a dot_general with precision = [HIGHEST, HIGHEST]", got)
	}
	withPrecision(t, ir.PrecisionDefault, func() {
		check(t, func() { same(t, MatMul(x, y).To("host"), want.To("host")) })
	})
	if got := d.last(); !strings.Contains(got, "precision = [DEFAULT, DEFAULT]") {
		t.Errorf("eager matmul after SetDefaultPrecision(DEFAULT) ran\n%s\nwant precision = [DEFAULT, DEFAULT]", got)
	}
}
