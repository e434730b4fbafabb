package runtime_test

import (
	"fmt"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/lowering"
	"github.com/stela-ml/stela/runtime"
	"github.com/stela-ml/stela/stablehlo"
)

// evalBackend is a backend of this test: a family of devices that
// evaluate programs with ir.Eval, registered as a backend package would
// register itself. It checks the seam, not a device.
type evalBackend struct{ opened int }

type evalPlatform struct{ devs []runtime.Device }

type evalDevice struct{ name string }

type evalBuffer struct {
	lit *ir.Literal
	dev *evalDevice
}

func (b *evalBackend) Open(name string) (runtime.Platform, error) {
	b.opened++
	p := &evalPlatform{}
	for i := range 3 {
		p.devs = append(p.devs, &evalDevice{name: name + ":" + strconv.Itoa(i)})
	}
	return p, nil
}

func (p *evalPlatform) Devices() []runtime.Device { return p.devs }
func (p *evalPlatform) Version() string           { return "eval 1" }

func (d *evalDevice) Name() string { return d.name }

func (d *evalDevice) Put(l *ir.Literal) (runtime.Buffer, error) { return &evalBuffer{l, d}, nil }

func (d *evalDevice) Run(f *ir.Func, args []runtime.Buffer) ([]runtime.Buffer, error) {
	lits := make([]*ir.Literal, len(args))
	for i, a := range args {
		b, ok := a.(*evalBuffer)
		if !ok || b.dev != d {
			return nil, fmt.Errorf("%s: argument #%d is on %s", d.name, i, a.Device().Name())
		}
		lits[i] = b.lit
	}
	outs, err := ir.Eval(f, lits...)
	if err != nil {
		return nil, err
	}
	bufs := make([]runtime.Buffer, len(outs))
	for i, o := range outs {
		bufs[i] = &evalBuffer{o, d}
	}
	return bufs, nil
}

func (b *evalBuffer) Type() ir.Type                 { return b.lit.Type }
func (b *evalBuffer) Device() runtime.Device        { return b.dev }
func (b *evalBuffer) Literal() (*ir.Literal, error) { return b.lit.Clone(), nil }

var testBackend = &evalBackend{}

func init() { runtime.RegisterBackend("evaltest", testBackend) }

// A registered backend's family is found by Lookup, opened once, listed
// by FamilyDevices, Names and Platforms, and compiled for one device at a
// time (it is no MultiCompiler).
func TestRegisteredBackend(t *testing.T) {
	d1 := lookup(t, "evaltest:1")
	if d1.Name() != "evaltest:1" || lookup(t, "evaltest:1") != d1 || lookup(t, "evaltest") != lookup(t, "evaltest:0") {
		t.Errorf("evaltest:1 is %s", d1.Name())
	}
	if testBackend.opened != 1 {
		t.Errorf("the backend was opened %d times", testBackend.opened)
	}
	if _, err := runtime.Lookup("evaltest:3"); err == nil || !strings.Contains(err.Error(), `device "evaltest:3": platform evaltest has 3 device(s)`) {
		t.Errorf("evaltest:3: %v", err)
	}
	devs, err := runtime.FamilyDevices("evaltest")
	if err != nil || len(devs) != 3 || devs[1] != d1 || runtime.DeviceFamily(d1) != "evaltest" {
		t.Errorf("FamilyDevices: %v, %v", devs, err)
	}
	if !slices.Contains(runtime.Backends(), "evaltest") || !slices.Contains(runtime.Names(), "evaltest:2") {
		t.Errorf("Backends %v, Names %v", runtime.Backends(), runtime.Names())
	}
	found := false
	t.Setenv("TPU_SKIP_MDS_QUERY", "1") // Platforms opens "tpu" too: no minute of retries if libtpu is found
	for _, p := range runtime.Platforms() {
		if p.Name == "evaltest" {
			found = true
			if p.Err != nil || p.Version != "eval 1" || !slices.Equal(p.Devices, []string{"evaltest:0", "evaltest:1", "evaltest:2"}) {
				t.Errorf("Platforms: %+v", p)
			}
		}
	}
	if !found {
		t.Errorf("Platforms lacks evaltest")
	}

	exe, err := runtime.CompileMulti(fmaFunc(t, 2), runtime.CompileSpec{Devices: []runtime.Device{d1}})
	if err != nil {
		t.Fatal(err)
	}
	outs, err := exe.RunDevices([][]runtime.Buffer{{put(t, d1, 1, 2), put(t, d1, 3, 4)}}, ir.UnknownLoc)
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, outs[0][0]); !slices.Equal(got, []float32{4, 10}) || outs[0][0].Device() != d1 {
		t.Errorf("on evaltest:1: %v", got)
	}
	if _, err := runtime.CompileMulti(fmaFunc(t, 2), runtime.CompileSpec{Partitions: 2, Devices: devs[:2]}); err == nil || !strings.Contains(err.Error(), "platform evaltest cannot compile for several devices") {
		t.Errorf("two devices of a backend that is no MultiCompiler: %v", err)
	}
	if _, err := runtime.CompileMulti(fmaFunc(t, 2), runtime.CompileSpec{Partitions: 2, Devices: []runtime.Device{devs[0], lookup(t, "cpu:0")}}); err == nil || !strings.Contains(err.Error(), "a program runs on one platform") {
		t.Errorf("devices of two backends: %v", err)
	}
}

func TestRegisterBackendTwicePanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "RegisterBackend called twice for evaltest") {
			t.Errorf("recovered %v", r)
		}
	}()
	runtime.RegisterBackend("evaltest", &evalBackend{})
}

// The runtime package keeps ARCHITECTURE.md's rule, runtime → pjrt,
// stablehlo: of Stela's packages it imports only those, ir and internal
// ones; backends (runtime/stelacpu) and the lowering are given to it.
func TestDependencyRule(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	allowed := []string{"ir", "pjrt", "stablehlo", "internal/env", "internal/dist"}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			rest, ok := strings.CutPrefix(path, "github.com/stela-ml/stela/")
			if ok && !slices.Contains(allowed, rest) {
				t.Errorf("%s imports %s: the runtime may import only %v of Stela's packages", name, path, allowed)
			}
		}
	}
}

// Without the lowering the frontend injects, a compile is an error that
// says what to import, not a crash.
func TestNoLowering(t *testing.T) {
	runtime.SetLowering(nil)
	defer runtime.SetLowering(func(f *ir.Func, o runtime.LowerOptions) (*stablehlo.Module, error) {
		return lowering.Lower(f, lowering.Options{NumReplicas: o.NumReplicas, NumPartitions: o.NumPartitions, Aliases: o.Aliases})
	})
	want := "@fma: the runtime has no lowering to StableHLO: import github.com/stela-ml/stela/frontend/tensor"
	if _, err := lookup(t, "cpu:0").(runtime.Compiler).Compile(fmaFunc(t, 7)); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Compile: %v, want %q", err, want)
	}
	if _, err := runtime.StableHLO(fmaFunc(t, 7)); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("StableHLO: %v, want %q", err, want)
	}
}
