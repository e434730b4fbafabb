package gomlx_test

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/dtypes/float16"
	"github.com/gomlx/compute/shapes"

	stelagomlx "github.com/stela-ml/stela/frontend/gomlx"
	"github.com/stela-ml/stela/runtime"
)

func backend(t *testing.T, config string) compute.Backend {
	t.Helper()
	b, err := stelagomlx.New(config)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// run builds main with params of the given shapes, compiles and runs it on
// inputs, and returns the outputs as flat slices.
func run(t *testing.T, b compute.Backend, inputs []any, ins []shapes.Shape, build func(f compute.Function, ps []compute.Value) ([]compute.Value, error)) []any {
	t.Helper()
	bl := b.Builder(t.Name())
	f := bl.Main()
	var ps []compute.Value
	for i, s := range ins {
		p, err := f.Parameter(fmt.Sprintf("p%d", i), s, nil)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	outs, err := build(f, ps)
	if err != nil {
		t.Fatalf("%+v", err)
	}
	if err := f.Return(outs, nil); err != nil {
		t.Fatal(err)
	}
	exe, err := bl.Compile()
	if err != nil {
		t.Fatalf("%+v", err)
	}
	var bufs []compute.Buffer
	for i, in := range inputs {
		buf, err := b.BufferFromFlatData(0, in, ins[i])
		if err != nil {
			t.Fatal(err)
		}
		bufs = append(bufs, buf)
	}
	res, err := exe.Execute(bufs, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []any
	for _, r := range res {
		s, _ := r.Shape()
		flat := reflect.MakeSlice(reflect.SliceOf(s.DType.GoType()), s.Size(), s.Size()).Interface()
		if err := r.ToFlatData(flat); err != nil {
			t.Fatal(err)
		}
		got = append(got, flat)
	}
	return got
}

// TestRNGBitGeneratorIsXLAPhilox checks the expansion against known
// answers of XLA's PHILOX (test/check/testdata/rng_bit_generator_xla.mlir,
// from a model of xla/hlo/builder/lib/prng.cc), on the CPU plugin and on
// the reference evaluator.
func TestRNGBitGeneratorIsXLAPhilox(t *testing.T) {
	for _, config := range []string{"cpu", "host"} {
		t.Run(config, func(t *testing.T) {
			b := backend(t, config)
			got := run(t, b, []any{[]uint64{1, 2, 3}}, []shapes.Shape{shapes.Make(dtypes.Uint64, 3)}, func(f compute.Function, ps []compute.Value) ([]compute.Value, error) {
				s, v, err := f.RNGBitGenerator(ps[0], shapes.Make(dtypes.Uint64, 3))
				return []compute.Value{s, v}, err
			})
			if want := []uint64{1, 4, 3}; !reflect.DeepEqual(got[0], want) {
				t.Errorf("new state %v, want %v", got[0], want)
			}
			if want := []uint64{5869932932755744586, 13107052260063114245, 8234580641674714347}; !reflect.DeepEqual(got[1], want) {
				t.Errorf("bits %v, want %v", got[1], want)
			}
			// A counter that carries into the high word, 32-bit outputs.
			got = run(t, b, []any{[]uint64{9, 18446744073709551615, 9}}, []shapes.Shape{shapes.Make(dtypes.Uint64, 3)}, func(f compute.Function, ps []compute.Value) ([]compute.Value, error) {
				s, v, err := f.RNGBitGenerator(ps[0], shapes.Make(dtypes.Uint32, 2, 2))
				return []compute.Value{s, v}, err
			})
			if want := []uint64{9, 0, 10}; !reflect.DeepEqual(got[0], want) {
				t.Errorf("new state %v, want %v", got[0], want)
			}
		})
	}
}

// TestRebuiltGraphIsACacheHit: GoMLX re-builds a graph per shape; the
// same graph built twice compiles once (the runtime's cache by program
// hash).
func TestRebuiltGraphIsACacheHit(t *testing.T) {
	b := backend(t, "cpu")
	build := func() {
		run(t, b, []any{[]float32{1, 2, 3}}, []shapes.Shape{shapes.Make(dtypes.Float32, 3)}, func(f compute.Function, ps []compute.Value) ([]compute.Value, error) {
			c, _ := f.Constant([]float32{0.25}, 1)
			y, err := f.Mul(ps[0], c)
			if err != nil {
				return nil, err
			}
			y, err = f.Tanh(y)
			return []compute.Value{y}, err
		})
	}
	build()
	before := runtime.CacheStats()
	build()
	after := runtime.CacheStats()
	if after.Compiles != before.Compiles {
		t.Errorf("the rebuilt graph compiled again (%d compiles)", after.Compiles-before.Compiles)
	}
	if after.ProgramHits <= before.ProgramHits {
		t.Errorf("no cache hit for the rebuilt graph")
	}
}

// TestErrorNamesTheUserLine: an op GoMLX gives bad operands fails with an
// error that names the GoMLX op and the line that built it.
func TestErrorNamesTheUserLine(t *testing.T) {
	b := backend(t, "cpu")
	f := b.Builder("bad").Main()
	x, _ := f.Parameter("x", shapes.Make(dtypes.Float32, 2, 3), nil)
	y, _ := f.Parameter("y", shapes.Make(dtypes.Float32, 4), nil)
	_, _, line, _ := goruntime.Caller(0)
	_, err := f.Add(x, y)
	if err == nil {
		t.Fatal("Add of f32[2,3] and f32[4] did not fail")
	}
	want := fmt.Sprintf("gomlx_test.go:%d: stela backend: GoMLX Add", line+1)
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not contain %q", err, want)
	}
}

// TestDonation: a donated input is consumed (its memory may hold the
// result); the result is right and reading the input fails.
func TestDonation(t *testing.T) {
	b := backend(t, "cpu")
	s := shapes.Make(dtypes.Float32, 4)
	bl := b.Builder("donate")
	f := bl.Main()
	x, _ := f.Parameter("x", s, nil)
	one, _ := f.Constant([]float32{1}, 1)
	y, _ := f.Add(x, one)
	_ = f.Return([]compute.Value{y}, nil)
	exe, err := bl.Compile()
	if err != nil {
		t.Fatal(err)
	}
	in, _ := b.BufferFromFlatData(0, []float32{1, 2, 3, 4}, s)
	rb := in.(*stelagomlx.Buffer).Runtime()
	_, _, line, _ := goruntime.Caller(0)
	res, err := exe.Execute([]compute.Buffer{in}, []bool{true}, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The runtime's record of the donation names this line (the
	// runtime locates it itself, skipping the adapter's frames).
	if de := runtime.DonatedTo(rb); de == nil || !strings.Contains(de.Error(), fmt.Sprintf("gomlx_test.go:%d", line+1)) {
		t.Errorf("donation record %v does not name gomlx_test.go:%d", de, line+1)
	}
	got := make([]float32, 4)
	if err := res[0].ToFlatData(got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, []float32{2, 3, 4, 5}) {
		t.Errorf("got %v", got)
	}
	if err := in.ToFlatData(make([]float32, 4)); err == nil {
		t.Error("reading a donated buffer did not fail")
	}
	// Not donating keeps the input.
	in2, _ := b.BufferFromFlatData(0, []float32{1, 2, 3, 4}, s)
	if _, err := exe.Execute([]compute.Buffer{in2}, []bool{false}, 0); err != nil {
		t.Fatal(err)
	}
	if err := in2.ToFlatData(got); err != nil || got[0] != 1 {
		t.Errorf("kept input reads %v, %v", got, err)
	}
}

// TestClosuresCapture: While and If closures that use values of the
// enclosing function (GoMLX closures capture; Stela's regions take them
// as operands).
func TestClosuresCapture(t *testing.T) {
	b := backend(t, "cpu")
	s := shapes.Make(dtypes.Float32)
	got := run(t, b, []any{[]float32{3}, []float32{10}}, []shapes.Shape{s, s}, func(f compute.Function, ps []compute.Value) ([]compute.Value, error) {
		step, limit := ps[0], ps[1]
		cond, _ := f.Closure()
		cx, _ := cond.Parameter("x", s, nil)
		lt, err := cond.LessThan(cx, limit)
		if err != nil {
			return nil, err
		}
		_ = cond.Return([]compute.Value{lt}, nil)
		body, _ := f.Closure()
		bx, _ := body.Parameter("x", s, nil)
		nx, err := body.Add(bx, step)
		if err != nil {
			return nil, err
		}
		_ = body.Return([]compute.Value{nx}, nil)
		zero, _ := f.Constant([]float32{0})
		w, err := f.While(cond, body, zero)
		if err != nil {
			return nil, err
		}
		pred, _ := f.GreaterThan(w[0], limit)
		tb, _ := f.Closure()
		tv, _ := tb.Mul(step, limit)
		_ = tb.Return([]compute.Value{tv}, nil)
		fb, _ := f.Closure()
		_ = fb.Return([]compute.Value{limit}, nil)
		r, err := f.If(pred, tb, fb)
		if err != nil {
			return nil, err
		}
		return []compute.Value{w[0], r[0]}, nil
	})
	if got[0].([]float32)[0] != 12 || got[1].([]float32)[0] != 30 {
		t.Errorf("got %v, want [12] [30]", got)
	}
}

// TestSPMDAllReduce: a DistributedSPMD computation on two CPU devices
// sums its inputs with AllReduce.
func TestSPMDAllReduce(t *testing.T) {
	b := backend(t, "cpu")
	if b.NumDevices() < 2 {
		t.Skip("needs 2 devices")
	}
	s := shapes.Make(dtypes.Float32, 2)
	bl := b.Builder("spmd")
	if err := bl.DistributedSPMD(2); err != nil {
		t.Fatal(err)
	}
	f := bl.Main()
	x, _ := f.Parameter("x", s, nil)
	r, err := f.AllReduce([]compute.Value{x}, compute.ReduceOpSum, [][]int{{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	_ = f.Return(r, nil)
	exe, err := bl.Compile()
	if err != nil {
		t.Fatalf("%+v", err)
	}
	a, _ := b.BufferFromFlatData(0, []float32{1, 2}, s)
	c, _ := b.BufferFromFlatData(1, []float32{10, 20}, s)
	res, err := exe.Execute([]compute.Buffer{a, c}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for d, r := range res {
		got := make([]float32, 2)
		if err := r.ToFlatData(got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, []float32{11, 22}) {
			t.Errorf("device %d: %v", d, got)
		}
		if n, _ := r.DeviceNum(); int(n) != d {
			t.Errorf("result %d on device %d", d, n)
		}
	}
}

// TestConfigs: GOMLX_BACKEND's forms.
func TestConfigs(t *testing.T) {
	b := backend(t, "cpu:1")
	if b.NumDevices() != 1 || b.DeviceDescription(0) != "cpu:1" {
		t.Errorf("stela:cpu:1 has %d devices, first %q", b.NumDevices(), b.DeviceDescription(0))
	}
	if d := backend(t, ""); d.NumDevices() != 1 || d.DeviceDescription(0) != "cpu:0" {
		t.Errorf("stela has %d devices, first %q; want cpu:0 alone", d.NumDevices(), d.DeviceDescription(0))
	}
	all := backend(t, "cpu")
	if n, want := all.NumDevices(), len(mustFamily(t, "cpu")); n != want {
		t.Errorf("stela:cpu has %d devices, the cpu family %d", n, want)
	}
	if _, err := stelagomlx.New("cpu:999"); err == nil {
		t.Error("stela:cpu:999 did not fail")
	}
	found := false
	for _, n := range compute.List() {
		found = found || n == stelagomlx.BackendName
	}
	if !found {
		t.Errorf("backend not registered: %v", compute.List())
	}
	// Shared buffers where buffers are host memory; elsewhere
	// not-implemented says so.
	if _, _, err := b.NewSharedBuffer(0, shapes.Make(dtypes.Float64, 2)); err != nil {
		t.Errorf("NewSharedBuffer on stela:cpu:1: %v", err)
	}
	if _, _, err := backend(t, "host").NewSharedBuffer(0, shapes.Make(dtypes.Float64, 2)); !errors.Is(err, compute.ErrNotImplemented) {
		t.Errorf("NewSharedBuffer on stela:host: %v, want ErrNotImplemented", err)
	}
}

func mustFamily(t *testing.T, name string) []runtime.Device {
	ds, err := runtime.FamilyDevices(name)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// TestSortComparatorOrder: GoMLX's comparator takes (lhs0, rhs0, lhs1,
// rhs1) (its Go backend's order); sorting keys descending with int
// values along.
func TestSortComparatorOrder(t *testing.T) {
	b := backend(t, "cpu:0")
	s := shapes.Make(dtypes.Float32, 4)
	si := shapes.Make(dtypes.Int32, 4)
	got := run(t, b, []any{[]float32{3, 1, 4, 2}, []int32{30, 10, 40, 20}}, []shapes.Shape{s, si}, func(f compute.Function, ps []compute.Value) ([]compute.Value, error) {
		c, _ := f.Closure()
		var cp []compute.Value
		for i, n := range []string{"lk", "rk", "lv", "rv"} {
			dt := dtypes.Float32
			if i >= 2 {
				dt = dtypes.Int32
			}
			p, _ := c.Parameter(n, shapes.Make(dt), nil)
			cp = append(cp, p)
		}
		gt, err := c.GreaterThan(cp[0], cp[1]) // lhs key > rhs key
		if err != nil {
			return nil, err
		}
		_ = c.Return([]compute.Value{gt}, nil)
		return f.Sort(c, 0, true, ps[0], ps[1])
	})
	if !reflect.DeepEqual(got[0], []float32{4, 3, 2, 1}) || !reflect.DeepEqual(got[1], []int32{40, 30, 20, 10}) {
		t.Errorf("got %v", got)
	}
}

// TestAutoSharding: a computation over a mesh of two CPU devices, its
// parameter split along "x": Stela's propagation and SPMD partitioner
// make each device's program; inputs and outputs are the devices' shards.
func TestAutoSharding(t *testing.T) {
	b := backend(t, "cpu")
	if b.NumDevices() < 2 {
		t.Skip("needs 2 devices")
	}
	bl := b.Builder("auto")
	if err := bl.DistributedAutoSharding(compute.Mesh{Name: "m", AxesNames: []string{"x"}, AxesSizes: []int{2}}); err != nil {
		t.Fatal(err)
	}
	f := bl.Main()
	x, err := f.Parameter("x", shapes.Make(dtypes.Float32, 4, 2), &compute.ShardingSpec{Mesh: "m", Axes: [][]string{{"x"}}})
	if err != nil {
		t.Fatal(err)
	}
	two, _ := f.Constant([]float32{2})
	y, _ := f.Mul(x, two)
	s, _ := f.ReduceSum(y)
	if err := f.Return([]compute.Value{y, s}, []*compute.ShardingSpec{{Mesh: "m", Axes: [][]string{{"x"}}}, {Mesh: "m"}}); err != nil {
		t.Fatal(err)
	}
	exe, err := bl.Compile()
	if err != nil {
		t.Fatalf("%+v", err)
	}
	shard := shapes.Make(dtypes.Float32, 2, 2)
	a, _ := b.BufferFromFlatData(0, []float32{1, 2, 3, 4}, shard)
	c, _ := b.BufferFromFlatData(1, []float32{5, 6, 7, 8}, shard)
	res, err := exe.Execute([]compute.Buffer{a, c}, nil, 0)
	if err != nil {
		t.Fatalf("%+v", err)
	}
	if len(res) != 4 {
		t.Fatalf("%d results, want 2 per device", len(res))
	}
	want := [][]float32{{2, 4, 6, 8}, {72}, {10, 12, 14, 16}, {72}}
	for i, r := range res {
		s, _ := r.Shape()
		got := make([]float32, s.Size())
		if err := r.ToFlatData(got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want[i]) {
			t.Errorf("result %d (device %d): %v, want %v", i%2, i/2, got, want[i])
		}
	}
}

// TestSubByteBitcast: GoMLX's sub-byte types inside a graph, as its
// quantized weights use them: bytes unpacked to Int2/Int4/Uint4 (low
// bits first) and converted, and Int4 values packed back into bytes.
func TestSubByteBitcast(t *testing.T) {
	b := backend(t, "cpu:0")
	in := []any{[]uint8{0x03, 0x12, 0x87}}
	s := []shapes.Shape{shapes.Make(dtypes.Uint8, 3)}
	got := run(t, b, in, s, func(f compute.Function, ps []compute.Value) ([]compute.Value, error) {
		var outs []compute.Value
		for _, c := range []struct{ sub, to dtypes.DType }{{dtypes.Int2, dtypes.Int8}, {dtypes.Int4, dtypes.Int8}, {dtypes.Uint4, dtypes.Uint8}} {
			u, err := f.Bitcast(ps[0], c.sub)
			if err != nil {
				return nil, err
			}
			if sh, _ := f.Shape(u); sh.DType != c.sub {
				t.Errorf("Bitcast to %s reports %s", c.sub, sh)
			}
			v, err := f.ConvertDType(u, c.to)
			if err != nil {
				return nil, err
			}
			outs = append(outs, v)
		}
		u, _ := f.Bitcast(ps[0], dtypes.Int4)
		p, err := f.Bitcast(u, dtypes.Uint8)
		if err != nil {
			return nil, err
		}
		return append(outs, p), nil
	})
	want := []any{
		[]int8{-1, 0, 0, 0, -2, 0, 1, 0, -1, 1, 0, -2},
		[]int8{3, 0, 2, 1, 7, -8},
		[]uint8{3, 0, 2, 1, 7, 8},
		[]uint8{0x03, 0x12, 0x87},
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("output %d: %v, want %v", i, got[i], want[i])
		}
	}
}

// TestBufferEdgeCases: a zero-sized buffer from nil data, and a buffer
// of a sub-byte type (its packed bytes) round-trip.
func TestBufferEdgeCases(t *testing.T) {
	b := backend(t, "cpu:0")
	z, err := b.BufferFromFlatData(0, nil, shapes.Make(dtypes.Float32, 0))
	if err != nil {
		t.Fatal(err)
	}
	if err := z.ToFlatData([]float32{}); err != nil {
		t.Error(err)
	}
	u4, err := b.BufferFromFlatData(0, []uint8{0x12, 0x34}, shapes.Make(dtypes.Uint4, 4))
	if err != nil {
		t.Fatal(err)
	}
	got := make([]uint8, 2)
	if err := u4.ToFlatData(got); err != nil || got[0] != 0x12 || got[1] != 0x34 {
		t.Errorf("uint4 buffer reads %x, %v", got, err)
	}
}

// TestConstantOfInts: a constant of Go ints is GoMLX's Int64.
func TestConstantOfInts(t *testing.T) {
	b := backend(t, "cpu:0")
	got := run(t, b, nil, nil, func(f compute.Function, _ []compute.Value) ([]compute.Value, error) {
		c, err := f.Constant([]int{1, -2, 3}, 3)
		return []compute.Value{c}, err
	})
	if !reflect.DeepEqual(got[0], []int64{1, -2, 3}) {
		t.Errorf("got %v", got[0])
	}
}

// TestQKVProjectionKeepsLeadingAxes: GoMLX's attention layer passes x as
// [batch, seq, in].
func TestQKVProjectionKeepsLeadingAxes(t *testing.T) {
	b := backend(t, "cpu:0")
	x := []float32{1, 2, 3, 4, 5, 6}
	w := []float32{1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1}
	got := run(t, b, []any{x, w}, []shapes.Shape{shapes.Make(dtypes.Float32, 1, 2, 3), shapes.Make(dtypes.Float32, 3, 4)}, func(f compute.Function, ps []compute.Value) ([]compute.Value, error) {
		q, k, v, err := f.FusedAttentionQKVProjection(ps[0], ps[1], nil, nil, nil, 2, 1)
		return []compute.Value{q, k, v}, err
	})
	want := []any{[]float32{1, 2, 4, 5}, []float32{3, 6}, []float32{6, 15}}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("output %d: %v, want %v", i, got[i], want[i])
		}
	}
}

// TestArgMinMaxAndLayerNormShapes: ArgMinMax of booleans (GoMLX's Go
// backend takes them), and FusedLayerNorm with gamma of shape [1, d].
func TestArgMinMaxAndLayerNormShapes(t *testing.T) {
	b := backend(t, "cpu:0")
	got := run(t, b, []any{[]bool{false, true, true, false}, []float32{1, 2, 3, 5, 5, 8}, []float32{2, 2, 2}},
		[]shapes.Shape{shapes.Make(dtypes.Bool, 4), shapes.Make(dtypes.Float32, 2, 3), shapes.Make(dtypes.Float32, 1, 3)},
		func(f compute.Function, ps []compute.Value) ([]compute.Value, error) {
			am, err := f.ArgMinMax(ps[0], 0, dtypes.Int32, false)
			if err != nil {
				return nil, err
			}
			ln, err := f.FusedLayerNorm(ps[1], []int{1}, 0, ps[2], nil)
			return []compute.Value{am, ln}, err
		})
	if !reflect.DeepEqual(got[0], []int32{1}) {
		t.Errorf("argmax of bools: %v", got[0])
	}
	ln := got[1].([]float32)
	s := float32(2 / math.Sqrt(2.0/3)) // row 0: (x - 2)/sqrt(2/3), times gamma 2
	if d := ln[2] - s; d > 1e-5 || d < -1e-5 || ln[1] > 1e-6 || ln[1] < -1e-6 {
		t.Errorf("layer norm row 0: %v", ln[:3])
	}
}

// TestFFTKinds runs GoMLX's FFT of each kind through Stela's fft op on
// the CPU plugin and checks it against the DFT sum written out here:
// X[k] = Σ x[t]·e^(-2πi·kt/N), the inverse divided by N, RFFT's N/2+1
// frequencies, IRFFT back to the real input.
func TestFFTKinds(t *testing.T) {
	b := backend(t, "cpu:0")
	const n = 6
	x := []float64{0.5, -1, 2, 0.25, -0.75, 1.5}
	dft := func(v []complex128, sign float64) []complex128 {
		out := make([]complex128, len(v))
		for k := range out {
			for j, z := range v {
				s, c := math.Sincos(sign * 2 * math.Pi * float64(k*j%len(v)) / float64(len(v)))
				out[k] += z * complex(c, s)
			}
		}
		return out
	}
	xc := make([]complex128, n)
	for i, v := range x {
		xc[i] = complex(v, float64(i)/4)
	}
	want := dft(xc, -1)
	near := func(what string, got []complex128, want []complex128) {
		t.Helper()
		for i := range want {
			if d := got[i] - want[i]; math.Hypot(real(d), imag(d)) > 1e-12 {
				t.Fatalf("%s: element %d: got %v, want %v", what, i, got[i], want[i])
			}
		}
	}
	sc := shapes.Make(dtypes.Complex128, n)
	got := run(t, b, []any{xc}, []shapes.Shape{sc}, func(f compute.Function, ps []compute.Value) ([]compute.Value, error) {
		y, err := f.FFT(ps[0], compute.FFTForward, []int{n})
		if err != nil {
			return nil, err
		}
		back, err := f.FFT(y, compute.FFTInverse, []int{n})
		return []compute.Value{y, back}, err
	})
	near("FFT", got[0].([]complex128), want)
	near("IFFT(FFT)", got[1].([]complex128), xc)

	sr := shapes.Make(dtypes.Float64, n)
	got = run(t, b, []any{x}, []shapes.Shape{sr}, func(f compute.Function, ps []compute.Value) ([]compute.Value, error) {
		y, err := f.FFT(ps[0], compute.FFTForwardReal, []int{n})
		if err != nil {
			return nil, err
		}
		back, err := f.FFT(y, compute.FFTInverseReal, []int{n})
		return []compute.Value{y, back}, err
	})
	xr := make([]complex128, n)
	for i, v := range x {
		xr[i] = complex(v, 0)
	}
	near("RFFT", got[0].([]complex128), dft(xr, -1)[:n/2+1])
	br := got[1].([]float64)
	for i := range x {
		if math.Abs(br[i]-x[i]) > 1e-12 {
			t.Fatalf("IRFFT(RFFT): element %d: got %v, want %v", i, br[i], x[i])
		}
	}
}

// TestErfFloat64 runs Float64 Erf and exact Gelu (the IR's erf, chlo.erf,
// libm's erf on the CPU plugin) against Go's math.Erf: within 2 ULP
// (the CPU plugin's bound for chlo.erf in f64, pjrt/cpu/codegen).
func TestErfFloat64(t *testing.T) {
	b := backend(t, "cpu:0")
	x := []float64{-3.5, -1, -0.3, -1e-300, 0, 1e-8, 0.5, 0.9, 1.7, 2.5, 6, math.Inf(1)}
	s := shapes.Make(dtypes.Float64, len(x))
	got := run(t, b, []any{x}, []shapes.Shape{s}, func(f compute.Function, ps []compute.Value) ([]compute.Value, error) {
		e, err := f.Erf(ps[0])
		if err != nil {
			return nil, err
		}
		g, err := f.FusedGelu(ps[0], true)
		return []compute.Value{e, g}, err
	})
	ulps := func(a, b float64) float64 {
		if a == b {
			return 0
		}
		return math.Abs(a-b) / math.Abs(math.Nextafter(b, math.Inf(1))-b)
	}
	for i, v := range x {
		if e := got[0].([]float64)[i]; ulps(e, math.Erf(v)) > 2 {
			t.Errorf("Erf(%v) = %v, want %v (math.Erf)", v, e, math.Erf(v))
		}
		if math.IsInf(v, 0) {
			continue
		}
		want := v * (1 + math.Erf(v/math.Sqrt2)) / 2
		if g := got[1].([]float64)[i]; math.Abs(g-want) > 1e-15*math.Max(1, math.Abs(want)) {
			t.Errorf("Gelu(%v) = %v, want %v", v, g, want)
		}
	}
}

// TestSharedBuffers: on the CPU plugin a shared buffer's slice is the
// memory executions read (a write between executions is seen by the
// next one), an output's Data is its memory, a donated shared buffer's
// memory becomes the result's, and the host device offers none.
func TestSharedBuffers(t *testing.T) {
	b := backend(t, "cpu:0")
	if !b.HasSharedBuffers() {
		t.Fatal("the CPU plugin's backend has no shared buffers")
	}
	if backend(t, "host").HasSharedBuffers() {
		t.Error("the host device offers shared buffers")
	}
	s := shapes.Make(dtypes.Float32, 4)
	bl := b.Builder("neg")
	f := bl.Main()
	x, _ := f.Parameter("x", s, nil)
	y, _ := f.Neg(x)
	_ = f.Return([]compute.Value{y}, nil)
	exe, err := bl.Compile()
	if err != nil {
		t.Fatal(err)
	}
	in, flatAny, err := b.NewSharedBuffer(0, s)
	if err != nil {
		t.Fatal(err)
	}
	flat := flatAny.([]float32)
	if !reflect.DeepEqual(flat, []float32{0, 0, 0, 0}) {
		t.Errorf("new shared buffer holds %v", flat)
	}
	for round, vals := range [][]float32{{1, 2, 3, 4}, {-5, 6, -7, 8}} {
		copy(flat, vals) // written in place between executions
		out, err := exe.Execute([]compute.Buffer{in}, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := out[0].Data()
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			if got.([]float32)[i] != -v {
				t.Fatalf("round %d: Neg of %v gave %v", round, vals, got)
			}
		}
		p, _ := runtime.DataPointer(out[0].(*stelagomlx.Buffer).Runtime())
		if reflect.ValueOf(got).Pointer() != p {
			t.Error("an output's Data is not its memory")
		}
	}
	// Donated: the result is written into the shared buffer's memory.
	inPtr := reflect.ValueOf(flat).Pointer()
	out, err := exe.Execute([]compute.Buffer{in}, []bool{true}, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := out[0].Data()
	if reflect.ValueOf(got).Pointer() != inPtr || got.([]float32)[0] != 5 {
		t.Errorf("donated shared buffer: result %v at %#x, the input's memory is %#x", got, reflect.ValueOf(got).Pointer(), inPtr)
	}
	if _, err := in.Data(); err == nil {
		t.Error("Data of a donated buffer did not fail")
	}
	// A Bool result read in place holds Go's true and false.
	bb := b.Builder("positive")
	bf := bb.Main()
	bx, _ := bf.Parameter("x", s, nil)
	zero, _ := bf.Constant([]float32{0}, 1)
	pos, _ := bf.GreaterThan(bx, zero)
	_ = bf.Return([]compute.Value{pos}, nil)
	bexe, err := bb.Compile()
	if err != nil {
		t.Fatal(err)
	}
	bin, _ := b.BufferFromFlatData(0, []float32{-1, 2, 0, 3}, s)
	bout, err := bexe.Execute([]compute.Buffer{bin}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := bout[0].Data(); err != nil || !reflect.DeepEqual(got, []bool{false, true, false, true}) {
		t.Errorf("x > 0 read in place: %v, %v", got, err)
	}
	// Other element types: a Go slice of GoMLX's type over the memory,
	// packed bytes for the sub-byte types.
	for _, c := range []struct {
		shape shapes.Shape
		want  any
	}{
		{shapes.Make(dtypes.Bool, 3), []bool{false, false, false}},
		{shapes.Make(dtypes.Int64, 2), []int64{0, 0}},
		{shapes.Make(dtypes.Float16, 2), []float16.Float16{0, 0}},
		{shapes.Make(dtypes.Int4, 4), []uint8{0, 0}},
		{shapes.Make(dtypes.Float32, 0), []float32{}},
	} {
		buf, flat, err := b.NewSharedBuffer(0, c.shape)
		if err != nil {
			t.Errorf("%s: %v", c.shape, err)
			continue
		}
		if reflect.TypeOf(flat) != reflect.TypeOf(c.want) || reflect.ValueOf(flat).Len() != reflect.ValueOf(c.want).Len() {
			t.Errorf("%s: slice %T of %d, want %T of %d", c.shape, flat, reflect.ValueOf(flat).Len(), c.want, reflect.ValueOf(c.want).Len())
		}
		_ = buf.Finalize()
	}
}
