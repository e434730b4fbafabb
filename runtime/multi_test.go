package runtime_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
	"github.com/stela-ml/stela/pjrt/cpu"
	"github.com/stela-ml/stela/runtime"
)

// fmaFunc is x*y + x over f32[n]: a program without collectives, each
// device computing on its own inputs.
func fmaFunc(t testing.TB, n int) *ir.Func {
	t.Helper()
	typ := ir.TensorOf(ir.F32, n)
	f := ir.NewFunc("fma", typ, typ)
	x, y := f.Params[0], f.Params[1]
	xy, err := f.Emit1(ir.UnknownLoc, ir.OpMultiply, []*ir.Value{x, y}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.Emit1(ir.UnknownLoc, ir.OpAdd, []*ir.Value{xy, x}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.Return(s)
	return f
}

func cpuDevices(t *testing.T, ids ...int) []runtime.Device {
	t.Helper()
	var out []runtime.Device
	for _, i := range ids {
		out = append(out, lookup(t, fmt.Sprintf("cpu:%d", i)))
	}
	return out
}

func put(t testing.TB, d runtime.Device, vals ...float32) runtime.Buffer {
	t.Helper()
	b, err := d.Put(ir.MustLiteral(ir.TensorOf(ir.F32, len(vals)), vals))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func read(t *testing.T, b runtime.Buffer) []float32 {
	t.Helper()
	l, err := b.Literal()
	if err != nil {
		t.Fatal(err)
	}
	return l.Data.([]float32)
}

// TestCompileMulti compiles one program for four devices, in an order
// that is not their IDs', and runs it with different inputs per device:
// each device's results are its own inputs' and live on it.
func TestCompileMulti(t *testing.T) {
	for _, shape := range []struct{ r, p int }{{1, 4}, {4, 0}, {2, 2}} {
		t.Run(fmt.Sprintf("%dx%d", shape.r, shape.p), func(t *testing.T) {
			devs := cpuDevices(t, 3, 1, 0, 2)
			exe, err := runtime.CompileMulti(fmaFunc(t, 3), runtime.CompileSpec{Replicas: shape.r, Partitions: shape.p, Devices: devs})
			if err != nil {
				t.Fatal(err)
			}
			if got := exe.Devices(); !slices.Equal(got, devs) {
				t.Errorf("Devices() = %v, want %v", got, devs)
			}
			args := make([][]runtime.Buffer, len(devs))
			for i, d := range devs {
				v := float32(i + 1)
				args[i] = []runtime.Buffer{put(t, d, v, 2*v, 3*v), put(t, d, 10*v, 1, -1)}
			}
			outs, err := exe.RunDevices(args, ir.UnknownLoc)
			if err != nil {
				t.Fatal(err)
			}
			if len(outs) != len(devs) {
				t.Fatalf("%d result lists for %d devices", len(outs), len(devs))
			}
			for i, d := range devs {
				v := float32(i + 1)
				want := []float32{v*10*v + v, 2*v + 2*v, 3*v*-1 + 3*v}
				if len(outs[i]) != 1 {
					t.Fatalf("device %s: %d results", d.Name(), len(outs[i]))
				}
				if got := read(t, outs[i][0]); !slices.Equal(got, want) {
					t.Errorf("device %s: %v, want %v", d.Name(), got, want)
				}
				if outs[i][0].Device() != d {
					t.Errorf("result of device %s is on %s", d.Name(), outs[i][0].Device().Name())
				}
			}
		})
	}
}

// The program hash covers the spec: the same spec finds the cached
// program, another shape or assignment is another program.
func TestCompileMultiCache(t *testing.T) {
	f := fmaFunc(t, 5)
	spec := runtime.CompileSpec{Partitions: 2, Devices: cpuDevices(t, 0, 1)}
	e1, err := runtime.CompileMulti(f, spec)
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.CacheStats()
	e2, err := runtime.CompileMulti(fmaFunc(t, 5), spec)
	if err != nil {
		t.Fatal(err)
	}
	after := runtime.CacheStats()
	if e1.Hash() != e2.Hash() || after.Compiles != before.Compiles || after.ProgramHits != before.ProgramHits+1 {
		t.Errorf("the same spec again: hashes %.8s %.8s, stats %+v -> %+v", e1.Hash(), e2.Hash(), before, after)
	}
	single, err := lookup(t, "cpu:0").(runtime.Compiler).Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	hashes := map[string]string{"2 partitions on cpu:0,1": e1.Hash(), "one device": single.Hash()}
	for name, s := range map[string]runtime.CompileSpec{
		"2 partitions on cpu:1,0": {Partitions: 2, Devices: cpuDevices(t, 1, 0)},
		"2 replicas on cpu:0,1":   {Replicas: 2, Devices: cpuDevices(t, 0, 1)},
		"2 partitions on cpu:0,2": {Partitions: 2, Devices: cpuDevices(t, 0, 2)},
		"aliased":                 {Partitions: 2, Devices: cpuDevices(t, 0, 1), Aliases: []int{0}},
	} {
		e, err := runtime.CompileMulti(f, s)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for other, h := range hashes {
			if e.Hash() == h {
				t.Errorf("%s has the hash of %s", name, other)
			}
		}
		hashes[name] = e.Hash()
	}
	// One device is the portable program Compile makes, bound to it.
	one, err := runtime.CompileMulti(f, runtime.CompileSpec{Devices: cpuDevices(t, 5)})
	if err != nil {
		t.Fatal(err)
	}
	if one.Hash() != single.Hash() {
		t.Errorf("one device: hash %.8s, Compile's %.8s", one.Hash(), single.Hash())
	}
	// A device compiles for itself when the spec names none.
	d5 := lookup(t, "cpu:5")
	own, err := d5.(runtime.SpecCompiler).CompileSpec(f, runtime.CompileSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if own.Hash() != single.Hash() || len(own.Devices()) != 1 || own.Devices()[0] != d5 {
		t.Errorf("CompileSpec without devices: hash %.8s on %v", own.Hash(), own.Devices())
	}
	if _, err := d5.(runtime.SpecCompiler).CompileSpec(f, runtime.CompileSpec{Partitions: 2}); err == nil || !strings.Contains(err.Error(), "need 2 devices, the spec names 1") {
		t.Errorf("CompileSpec for two partitions without devices: %v", err)
	}
	outs, err := one.RunDevices([][]runtime.Buffer{{put(t, d5, 1, 2, 3, 4, 5), put(t, d5, 2, 2, 2, 2, 2)}}, ir.UnknownLoc)
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, outs[0][0]); !slices.Equal(got, []float32{3, 6, 9, 12, 15}) || outs[0][0].Device() != d5 {
		t.Errorf("one device: %v on %s", got, outs[0][0].Device().Name())
	}
}

// Mistakes in the spec or the arguments are errors of the call that say
// what is wrong.
func TestCompileMultiErrors(t *testing.T) {
	f := fmaFunc(t, 2)
	for name, c := range map[string]struct {
		spec runtime.CompileSpec
		want string
	}{
		"count":     {runtime.CompileSpec{Partitions: 4, Devices: cpuDevices(t, 0, 1)}, "@fma: 1 replicas x 4 partitions need 4 devices, the spec names 2"},
		"none":      {runtime.CompileSpec{}, "need 1 devices, the spec names 0"},
		"twice":     {runtime.CompileSpec{Partitions: 2, Devices: cpuDevices(t, 1, 1)}, "device cpu:1 is both #0 and #1 of the assignment"},
		"platforms": {runtime.CompileSpec{Partitions: 2, Devices: []runtime.Device{lookup(t, "cpu:0"), runtime.Host()}}, "device #1 is host, of host, and device #0 is of cpu: a program runs on one platform"},
		"host":      {runtime.CompileSpec{Partitions: 2, Devices: []runtime.Device{runtime.Host(), lookup(t, "cpu:0")}}, "platform host cannot compile for several devices"},
		"host spmd": {runtime.CompileSpec{Devices: []runtime.Device{runtime.Host()}, SPMD: true}, "platform host has no SPMD partitioner"},
		"types":     {runtime.CompileSpec{Partitions: 2, Devices: cpuDevices(t, 0, 1), DeviceParams: []ir.Type{ir.TensorOf(ir.F32, 1), ir.TensorOf(ir.F32, 2)}}, "device parameter #0 the type f32[1], the function f32[2]"},
		"negative":  {runtime.CompileSpec{Replicas: -1, Devices: cpuDevices(t, 0)}, "-1 replicas"},
	} {
		if _, err := runtime.CompileMulti(f, c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}

	devs := cpuDevices(t, 2, 3)
	exe, err := runtime.CompileMulti(f, runtime.CompileSpec{Partitions: 2, Devices: devs})
	if err != nil {
		t.Fatal(err)
	}
	ok := func() [][]runtime.Buffer {
		return [][]runtime.Buffer{{put(t, devs[0], 1, 2), put(t, devs[0], 3, 4)}, {put(t, devs[1], 1, 2), put(t, devs[1], 3, 4)}}
	}
	freed := ok()
	freed[1][0].(runtime.Freer).Free()
	wrongType, err := devs[1].Put(ir.MustLiteral(ir.TensorOf(ir.F32, 3), []float32{1, 2, 3}))
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		args [][]runtime.Buffer
		want string
	}{
		"lists":      {ok()[:1], "@fma: 1 argument lists for 2 devices (cpu:2, cpu:3)"},
		"arguments":  {[][]runtime.Buffer{ok()[0], ok()[1][:1]}, "@fma: 1 arguments for device cpu:3, want 2"},
		"device":     {[][]runtime.Buffer{ok()[0], {ok()[1][0], ok()[0][1]}}, "@fma: argument #1 for device cpu:3 is on device cpu:2"},
		"swapped":    {[][]runtime.Buffer{ok()[1], ok()[0]}, "@fma: argument #0 for device cpu:2 is on device cpu:3"},
		"host":       {[][]runtime.Buffer{ok()[0], {must(runtime.Host().Put(ir.MustLiteral(ir.TensorOf(ir.F32, 2), []float32{1, 2}))), ok()[1][1]}}, "argument #0 for device cpu:3 is on device host"},
		"type":       {[][]runtime.Buffer{ok()[0], {ok()[1][0], wrongType}}, "@fma: argument #1 for device cpu:3 has type f32[3], want f32[2]"},
		"freed":      {freed, "@fma: argument #0 for device cpu:3 was freed"},
		"nil buffer": {[][]runtime.Buffer{ok()[0], {nil, ok()[1][1]}}, "argument #0 for device cpu:3 is nil"},
	} {
		if _, err := exe.RunDevices(c.args, ir.UnknownLoc); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}

func must(b runtime.Buffer, err error) runtime.Buffer {
	if err != nil {
		panic(err)
	}
	return b
}

// A failure of one device's execution fails the whole execution: every
// result of every device holds the located error, and reads return it.
func TestCompileMultiFailureSurfacesAtReads(t *testing.T) {
	typ := ir.TensorOf(ir.F32, 2)
	f := ir.NewFunc("checked", typ)
	one, _ := f.Emit(ir.UnknownLoc, ir.OpConstant, nil, ir.ConstantAttr{Value: ir.MustLiteral(typ, []float32{1, 1})})
	loc := ir.Loc{File: "/src/model.go", Line: 42}
	if _, err := f.Emit(loc, ir.OpCustomCall, []*ir.Value{f.Params[0], one[0]}, ir.CustomCallAttr{Target: "check.expect_eq", HasSideEffect: true}); err != nil {
		t.Fatal(err)
	}
	f.Return(f.Params[0])
	devs := cpuDevices(t, 0, 1, 2)
	exe, err := runtime.CompileMulti(f, runtime.CompileSpec{Partitions: 3, Devices: devs})
	if err != nil {
		t.Fatal(err)
	}
	args := [][]runtime.Buffer{{put(t, devs[0], 1, 1)}, {put(t, devs[1], 1, 1)}, {put(t, devs[2], 1, 2)}}
	runLoc := ir.Loc{File: "/src/train.go", Line: 7}
	outs, err := exe.RunDevices(args, runLoc)
	if err != nil {
		t.Fatalf("dispatch failed at once: %v", err)
	}
	for d, list := range outs {
		_, err := list[0].Literal()
		if err == nil || !strings.Contains(err.Error(), "check failed") || !strings.Contains(err.Error(), "on device 2") {
			t.Errorf("device %d: read %v, want the check failure of device 2", d, err)
		}
	}
	// A result that failed fails the next execution it goes into.
	again, err := exe.RunDevices([][]runtime.Buffer{outs[0], {put(t, devs[1], 1, 1)}, {put(t, devs[2], 1, 1)}}, runLoc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := again[1][0].Literal(); err == nil || !strings.Contains(err.Error(), "check failed") {
		t.Errorf("an execution with a failed input: %v", err)
	}
}

// Donation on several devices: each device's donated argument becomes its
// result's buffer, and is gone afterwards.
func TestCompileMultiDonated(t *testing.T) {
	m := ir.TensorOf(ir.F32, 64, 64)
	f := sgdFunc(t, m)
	params := []ir.Type{m, m, ir.Scalar(ir.F32)}
	donate := []bool{true, false, false}
	aliases := runtime.Aliases(params, []ir.Type{m, ir.Scalar(ir.F32)}, donate)
	devs := cpuDevices(t, 1, 2)
	exe, err := runtime.CompileMulti(f, runtime.CompileSpec{Partitions: 2, Devices: devs, Aliases: aliases})
	if err != nil {
		t.Fatal(err)
	}
	n := m.NumElements()
	args := make([][]runtime.Buffer, len(devs))
	ptrs := make([]uintptr, len(devs))
	for i, d := range devs {
		w, g := make([]float32, n), make([]float32, n)
		for k := range w {
			w[k], g[k] = float32(i+1), 1
		}
		lr := float32(0.5)
		args[i] = []runtime.Buffer{
			must(d.Put(ir.MustLiteral(m, w))), must(d.Put(ir.MustLiteral(m, g))),
			must(d.Put(ir.MustLiteral(ir.Scalar(ir.F32), []float32{lr}))),
		}
		if ptrs[i], err = runtime.DataPointer(args[i][0]); err != nil {
			t.Fatal(err)
		}
	}
	outs, err := exe.(runtime.MultiDonator).RunDevicesDonated(args, donate, "jit @sgd", ir.Loc{File: "/src/train.go", Line: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range devs {
		w := read(t, outs[i][0])
		if w[0] != float32(i+1)-0.5 || w[n-1] != float32(i+1)-0.5 {
			t.Errorf("device %s: w = %v..., want %v", d.Name(), w[0], float32(i+1)-0.5)
		}
		if p, err := runtime.DataPointer(outs[i][0]); err != nil || p != ptrs[i] {
			t.Errorf("device %s: the result is at %#x, the donated argument was at %#x (%v)", d.Name(), p, ptrs[i], err)
		}
		if de := runtime.DonatedTo(args[i][0]); de == nil || de.To != "jit @sgd" {
			t.Errorf("device %s: the donated argument: %v", d.Name(), de)
		}
		if runtime.DonatedTo(args[i][1]) != nil || args[i][1].(runtime.Freer).Freed() {
			t.Errorf("device %s: an argument not donated was consumed", d.Name())
		}
	}
	if _, err := exe.RunDevices(args, ir.UnknownLoc); err == nil || !strings.Contains(err.Error(), "was donated to jit @sgd at train.go:3") {
		t.Errorf("running on donated buffers: %v", err)
	}
}

// FamilyDevices and DeviceFamily: a family's devices in order, and the
// family of each.
func TestFamilyDevices(t *testing.T) {
	devs, err := runtime.FamilyDevices("cpu")
	if err != nil {
		t.Fatal(err)
	}
	if len(devs) != 8 {
		t.Errorf("cpu has %d devices, want the default 8", len(devs))
	}
	for i, d := range devs {
		if d.Name() != fmt.Sprintf("cpu:%d", i) || d != lookup(t, d.Name()) || runtime.DeviceFamily(d) != "cpu" {
			t.Errorf("device #%d is %s (family %s)", i, d.Name(), runtime.DeviceFamily(d))
		}
	}
	if h, err := runtime.FamilyDevices("host"); err != nil || len(h) != 1 || h[0] != runtime.Host() || runtime.DeviceFamily(h[0]) != "host" {
		t.Errorf("host: %v, %v", h, err)
	}
	if _, err := runtime.FamilyDevices("nowhere"); err == nil || !strings.Contains(err.Error(), "devices of nowhere") {
		t.Errorf("an unknown family: %v", err)
	}
	// The host device compiles for itself alone.
	exe, err := runtime.CompileMulti(fmaFunc(t, 2), runtime.CompileSpec{Devices: []runtime.Device{runtime.Host()}})
	if err != nil {
		t.Fatal(err)
	}
	h := runtime.Host()
	outs, err := exe.RunDevices([][]runtime.Buffer{{put(t, h, 1, 2), put(t, h, 3, 4)}}, ir.UnknownLoc)
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, outs[0][0]); !slices.Equal(got, []float32{4, 10}) {
		t.Errorf("on host: %v", got)
	}
}

// A plugin registered with NoSPMD refuses CompileSpec.SPMD with an error
// that says what to do instead, rather than compiling a program whose
// shardings its compiler would ignore. The family here is the Stela CPU
// plugin registered a second time under another name, without SPMD.
func TestCompileMultiNoSPMD(t *testing.T) {
	runtime.RegisterPlugin("nospmd", runtime.PluginProvider{Path: cpu.PluginPath, Options: cpu.WorkerOptions, NoSPMD: true})
	devs := []runtime.Device{lookup(t, "nospmd:0")}
	_, err := runtime.CompileMulti(fmaFunc(t, 2), runtime.CompileSpec{Partitions: 1, Devices: devs, SPMD: true})
	if err == nil || !strings.Contains(err.Error(), "platform nospmd has no SPMD partitioner") {
		t.Fatalf("got %v", err)
	}
	if _, err := runtime.CompileMulti(fmaFunc(t, 2), runtime.CompileSpec{Partitions: 1, Devices: devs}); err != nil {
		t.Fatalf("without SPMD: %v", err)
	}
}

// spmdtest is Stela's CPU plugin registered once more, as a plugin whose
// compiler partitions SPMD programs (no NoSPMD) on two devices, so that
// the runtime's SPMD bookkeeping runs for real: compile options,
// per-device types, result types from the executable. This test's
// programs carry no sharding: the plugin's partitioner leaves them
// replicated, the program as it is on every device.
func init() {
	runtime.RegisterPlugin("spmdtest", runtime.PluginProvider{
		Path: cpu.PluginPath,
		Options: func() ([]pjrt.NamedValue, error) {
			wo, err := cpu.WorkerOptions()
			return append([]pjrt.NamedValue{{Name: "cpu_device_count", Value: int64(2)}}, wo...), err
		},
	})
}

func TestCompileMultiSPMD(t *testing.T) {
	f := fmaFunc(t, 4)
	devs := []runtime.Device{lookup(t, "spmdtest:0"), lookup(t, "spmdtest:1")}
	spec := runtime.CompileSpec{Partitions: 2, Devices: devs, SPMD: true}
	exe, err := runtime.CompileMulti(f, spec)
	if err != nil {
		if strings.Contains(strings.ToLower(err.Error()), "spmd") {
			t.Skipf("the plugin refuses SPMD programs now: %v", err)
		}
		t.Fatal(err)
	}
	plain, err := runtime.CompileMulti(f, runtime.CompileSpec{Partitions: 2, Devices: devs})
	if err != nil {
		t.Fatal(err)
	}
	if exe.Hash() == plain.Hash() {
		t.Errorf("the SPMD program has the hash of the MPMD one")
	}
	args := [][]runtime.Buffer{
		{put(t, devs[0], 1, 2, 3, 4), put(t, devs[0], 1, 1, 1, 1)},
		{put(t, devs[1], 5, 6, 7, 8), put(t, devs[1], 0, 0, 0, 0)},
	}
	outs, err := exe.RunDevices(args, ir.UnknownLoc)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := read(t, outs[0][0]), read(t, outs[1][0]); !slices.Equal(a, []float32{2, 4, 6, 8}) || !slices.Equal(b, []float32{5, 6, 7, 8}) {
		t.Errorf("results %v %v", a, b)
	}
	// Per-device types: the shard types the caller gives are what
	// arguments are checked against; result types that contradict the
	// compiled program's are refused.
	half := ir.TensorOf(ir.F32, 2)
	spec.DeviceResults = []ir.Type{half}
	if _, err := runtime.CompileMulti(f, spec); err == nil || !strings.Contains(err.Error(), "@fma: result #0 of the compiled program is f32[4] on each device, want f32[2]") {
		t.Errorf("contradicting result types: %v", err)
	}
	spec.DeviceResults = nil
	spec.DeviceParams = []ir.Type{half, half}
	sharded, err := runtime.CompileMulti(f, spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sharded.RunDevices(args, ir.UnknownLoc); err == nil || !strings.Contains(err.Error(), "argument #0 for device spmdtest:0 has type f32[4], want f32[2]") {
		t.Errorf("global-shaped arguments for shard types: %v", err)
	}
}
