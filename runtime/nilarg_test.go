package runtime_test

import (
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// A nil argument buffer, as a nil interface or a typed nil, is an error of
// the call that names the argument, in every way of running a program
// (issue 20: Executable.Run panicked with a nil dereference).
func TestRunNilArgument(t *testing.T) {
	f := fmaFunc(t, 2)
	d := lookup(t, "cpu:0")
	exe, err := d.(runtime.Compiler).Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	devs := cpuDevices(t, 2, 3)
	multi, err := runtime.CompileMulti(f, runtime.CompileSpec{Partitions: 2, Devices: devs})
	if err != nil {
		t.Fatal(err)
	}
	one, err := runtime.CompileMulti(f, runtime.CompileSpec{Devices: []runtime.Device{d}})
	if err != nil {
		t.Fatal(err)
	}
	hostOne, err := runtime.CompileMulti(f, runtime.CompileSpec{Devices: []runtime.Device{runtime.Host()}})
	if err != nil {
		t.Fatal(err)
	}
	ok := put(t, d, 1, 2)
	hostOK := put(t, runtime.Host(), 1, 2)
	for _, null := range []struct {
		name string
		b    runtime.Buffer
	}{{"nil", nil}, {"typed nil", runtime.NilBufferForTest()}} {
		for _, c := range []struct {
			name string
			run  func() error
		}{
			{"Executable.Run", func() error { _, err := exe.Run([]runtime.Buffer{ok, null.b}, ir.UnknownLoc); return err }},
			{"RunDonated", func() error {
				_, err := exe.(runtime.Donator).RunDonated([]runtime.Buffer{null.b, ok}, []bool{true, false}, "", ir.UnknownLoc)
				return err
			}},
			{"Device.Run", func() error { _, err := d.Run(f, []runtime.Buffer{null.b, ok}); return err }},
			{"host Run", func() error { _, err := runtime.Host().Run(f, []runtime.Buffer{hostOK, null.b}); return err }},
			{"RunDevices", func() error {
				_, err := multi.RunDevices([][]runtime.Buffer{{put(t, devs[0], 1, 2), put(t, devs[0], 1, 2)}, {put(t, devs[1], 1, 2), null.b}}, ir.UnknownLoc)
				return err
			}},
			{"RunDevicesDonated", func() error {
				_, err := multi.(runtime.MultiDonator).RunDevicesDonated([][]runtime.Buffer{{null.b, put(t, devs[0], 1, 2)}, {put(t, devs[1], 1, 2), put(t, devs[1], 1, 2)}}, []bool{true, false}, "", ir.UnknownLoc)
				return err
			}},
			{"one device RunDevices", func() error {
				_, err := one.RunDevices([][]runtime.Buffer{{ok, null.b}}, ir.UnknownLoc)
				return err
			}},
			{"host RunDevices", func() error {
				_, err := hostOne.RunDevices([][]runtime.Buffer{{null.b, hostOK}}, ir.UnknownLoc)
				return err
			}},
			{"DataPointer", func() error { _, err := runtime.DataPointer(null.b); return err }},
		} {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s with a %s buffer panicked: %v", c.name, null.name, r)
					}
				}()
				if err := c.run(); err == nil || !strings.Contains(err.Error(), "is nil") {
					t.Errorf("%s with a %s buffer: %v, want an error saying the argument is nil", c.name, null.name, err)
				}
			}()
		}
	}
	// The device still works.
	outs, err := exe.Run([]runtime.Buffer{ok, ok}, ir.UnknownLoc)
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, outs[0]); got[0] != 2 || got[1] != 6 {
		t.Errorf("after the errors: %v", got)
	}
}
