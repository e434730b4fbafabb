package gopjrttest

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/gomlx/gopjrt/dtypes"
	gopjrt "github.com/gomlx/gopjrt/pjrt"

	"github.com/stela-ml/stela/pjrt/cpu"
)

// plugin loads the Stela CPU plugin into gopjrt by absolute path (any file
// name works that way), or skips without a C compiler.
func plugin(t *testing.T) *gopjrt.Plugin {
	t.Helper()
	path, err := cpu.PluginPath()
	if err != nil {
		if _, lerr := exec.LookPath("cc"); lerr != nil {
			t.Skipf("no C compiler to build the plugin: %v", err)
		}
		t.Fatal(err)
	}
	p, err := gopjrt.GetPlugin(path)
	if err != nil {
		t.Fatalf("gopjrt.GetPlugin(%s): %v", path, err)
	}
	return p
}

// client creates a gopjrt client with n devices whose compile worker is
// this test binary: it links package cpu, whose init makes it a worker.
func client(t *testing.T, n int) *gopjrt.Client {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, err := plugin(t).NewClient(gopjrt.NamedValuesMap{
		"cpu_device_count": int64(n),
		"stela_worker":     exe,
		"stela_cache_dir":  t.TempDir(),
	})
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c
}

func TestClientAndDevices(t *testing.T) {
	p := plugin(t)
	if major, minor := p.Version(); major != 0 || minor != 81 {
		t.Errorf("version %d.%d", major, minor)
	}
	c := client(t, 2)
	defer c.Destroy()
	if c.Platform() != "cpu" || c.ProcessIndex() != 0 || !strings.Contains(c.PlatformVersion(), "stela_cpu") {
		t.Errorf("platform %q version %q process %d", c.Platform(), c.PlatformVersion(), c.ProcessIndex())
	}
	devs := c.AddressableDevices()
	if len(devs) != 2 {
		t.Fatalf("%d addressable devices, want 2", len(devs))
	}
	all, err := c.AllDevices()
	if err != nil || len(all) != 2 {
		t.Errorf("AllDevices: %d, %v", len(all), err)
	}
	for i, d := range devs {
		if d.LocalHardwareID() != i || c.NumForDevice(d) != i {
			t.Errorf("device %d: local hardware id %d, number %d", i, d.LocalHardwareID(), c.NumForDevice(d))
		}
		if ok, err := d.IsAddressable(); err != nil || !ok {
			t.Errorf("device %d addressable: %v, %v", i, ok, err)
		}
		desc, err := d.GetDescription()
		if err != nil || desc.ProcessIndex() != 0 || !strings.Contains(desc.DebugString(), fmt.Sprintf("id=%d", i)) {
			t.Errorf("device %d description: %v %v", i, desc, err)
		}
	}
	a, err := c.DefaultDeviceAssignment(1, 2)
	if err != nil || fmt.Sprint(a) != "[0 1]" {
		t.Errorf("DefaultDeviceAssignment(1, 2) = %v, %v", a, err)
	}
}

func TestBuffers(t *testing.T) {
	c := client(t, 2)
	defer c.Destroy()
	in, err := gopjrt.ArrayToBuffer(c, []float32{1, 2, 3, 4, 5, 6}, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	got, dims, err := gopjrt.BufferToArray[float32](in)
	if err != nil || fmt.Sprint(got, dims) != "[1 2 3 4 5 6] [2 3]" {
		t.Errorf("round trip: %v %v, %v", got, dims, err)
	}
	if n, err := in.Size(); err != nil || n != 24 {
		t.Errorf("Size() = %d, %v", n, err)
	}
	s, err := gopjrt.ScalarToBuffer(c, int32(-7))
	if err != nil {
		t.Fatal(err)
	}
	if v, err := gopjrt.BufferToScalar[int32](s); err != nil || v != -7 {
		t.Errorf("scalar: %v, %v", v, err)
	}
	// Every element type, as raw bytes.
	r := rand.New(rand.NewSource(1))
	for _, dt := range []dtypes.DType{dtypes.Bool, dtypes.Int8, dtypes.Int16, dtypes.Int32, dtypes.Int64,
		dtypes.Uint8, dtypes.Uint16, dtypes.Uint32, dtypes.Uint64, dtypes.Float16, dtypes.BFloat16,
		dtypes.Float32, dtypes.Float64, dtypes.Complex64, dtypes.Complex128} {
		raw := make([]byte, 5*dt.Size())
		r.Read(raw)
		if dt == dtypes.Bool {
			for i := range raw {
				raw[i] &= 1
			}
		}
		b, err := c.BufferFromHost().FromRawData(raw, dt, []int{5}).ToDeviceNum(1).Done()
		if err != nil {
			t.Errorf("%v: %v", dt, err)
			continue
		}
		if got, err := b.DType(); err != nil || got != dt {
			t.Errorf("%v: DType() = %v, %v", dt, got, err)
		}
		back := make([]byte, len(raw))
		if err := b.ToHost(back); err != nil || !bytes.Equal(back, raw) {
			t.Errorf("%v: ToHost = %x, %v; want %x", dt, back, err, raw)
		}
		b.Destroy()
	}
	// Copies between devices.
	on1, err := in.CopyToDevice(c.AddressableDevices()[1])
	if err != nil {
		t.Fatal(err)
	}
	if d, err := on1.Device(); err != nil || c.NumForDevice(d) != 1 {
		t.Errorf("copy on device %v, %v", d, err)
	}
	if got, _, err := gopjrt.BufferToArray[float32](on1); err != nil || got[5] != 6 {
		t.Errorf("copy: %v, %v", got, err)
	}
	// Shared buffers: a view of memory gopjrt allocates.
	shared, flat, err := c.NewSharedBuffer(dtypes.Int64, []int{3})
	if err != nil {
		t.Fatal(err)
	}
	copy(flat.([]int64), []int64{7, 8, 9})
	if got, _, err := gopjrt.BufferToArray[int64](shared); err != nil || fmt.Sprint(got) != "[7 8 9]" {
		t.Errorf("shared buffer: %v, %v", got, err)
	}
	if data, err := shared.Data(); err != nil || fmt.Sprint(data) != "[7 8 9]" {
		t.Errorf("Data() = %v, %v", data, err)
	}
	for _, b := range []*gopjrt.Buffer{in, s, on1, shared} {
		if err := b.Destroy(); err != nil {
			t.Error(err)
		}
	}
}

const axpy = `module @jit_axpy {
  func.func public @main(%a: tensor<f32>, %x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %1 = stablehlo.multiply %0, %x : tensor<3xf32>
    %2 = stablehlo.add %1, %y : tensor<3xf32>
    return %2 : tensor<3xf32>
  }
}
`

func needLLVM(t *testing.T) {
	for _, tool := range []string{"opt", "llc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s to compile with: apt-get install llvm-14", tool)
		}
	}
}

func TestCompileAndExecute(t *testing.T) {
	needLLVM(t)
	c := client(t, 2)
	exe, err := c.Compile().WithStableHLO([]byte(axpy)).Done()
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	if exe.Name != "jit_axpy" || exe.NumOutputs != 1 {
		t.Errorf("executable %q with %d outputs", exe.Name, exe.NumOutputs)
	}
	a, err := gopjrt.ScalarToBuffer(c, float32(2))
	if err != nil {
		t.Fatal(err)
	}
	x, err := gopjrt.ArrayToBuffer(c, []float32{1, 2, 3}, 3)
	if err != nil {
		t.Fatal(err)
	}
	y, err := gopjrt.ArrayToBuffer(c, []float32{10, 20, 30}, 3)
	if err != nil {
		t.Fatal(err)
	}
	outs, err := exe.Execute(a, x, y).Done()
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	got, dims, err := gopjrt.BufferToArray[float32](outs[0])
	if err != nil || fmt.Sprint(got, dims) != "[12 24 36] [3]" {
		t.Errorf("axpy = %v %v, %v", got, dims, err)
	}
	// On device 1, with the arguments there.
	var args []*gopjrt.Buffer
	for _, b := range []*gopjrt.Buffer{a, x, y} {
		b1, err := b.CopyToDevice(c.AddressableDevices()[1])
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, b1)
	}
	outs1, err := exe.Execute(args...).OnDeviceByNum(1).Done()
	if err != nil {
		t.Fatalf("Execute on device 1: %v", err)
	}
	if d, _ := outs1[0].Device(); c.NumForDevice(d) != 1 {
		t.Errorf("result on device %d, want 1", c.NumForDevice(d))
	}
	if got, _, _ := gopjrt.BufferToArray[float32](outs1[0]); fmt.Sprint(got) != "[12 24 36]" {
		t.Errorf("on device 1: %v", got)
	}
	// Wrong argument: the plugin's message comes through.
	_, err = exe.Execute(x, x, y).Done()
	if err == nil || !strings.Contains(err.Error(), "argument 0 of device 0 is F32[3], the program jit_axpy wants F32[]") {
		t.Errorf("wrong argument: %v", err)
	}
	// A compile error carries the plugin's code and message.
	_, err = c.Compile().WithStableHLO([]byte("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %a, : tensor<4xf32>\n}\n")).Done()
	if err == nil || !strings.Contains(err.Error(), "code=3") || !strings.Contains(err.Error(), "stela cpu compile: 2:") {
		t.Errorf("compile error: %v", err)
	}
	// SPMD compile of one partition (Client_DefaultDeviceAssignment, a
	// device assignment in the options).
	spmd, err := c.Compile().WithStableHLO([]byte(axpy)).WithSPMD(1).Done()
	if err != nil {
		t.Fatalf("Compile WithSPMD(1): %v", err)
	}
	if outs, err := spmd.Execute(a, x, y).Done(); err != nil {
		t.Errorf("SPMD execute: %v", err)
	} else if got, _, _ := gopjrt.BufferToArray[float32](outs[0]); fmt.Sprint(got) != "[12 24 36]" {
		t.Errorf("SPMD: %v", got)
	}

	// Destroy the client first, then the executables, as gopjrt's
	// cleanups may; then let the collector run the rest.
	if err := c.Destroy(); err != nil {
		t.Error(err)
	}
	if err := exe.Destroy(); err != nil {
		t.Error(err)
	}
	runtime.GC()
}
