package cpu

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
)

// These tests drive the plugin through Stela's own client, package pjrt.
// testdata/driver.c covers the same ground (and more error paths) from C.

func loadPlugin(t testing.TB) *pjrt.Plugin {
	t.Helper()
	p, err := pjrt.LoadPlugin(testPlugin(t))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// newClient makes a client with n devices that compiles with the fake
// worker into the shared test cache.
func newClient(t testing.TB, n int, opts ...pjrt.NamedValue) *pjrt.Client {
	t.Helper()
	worker, cache := testWorker(t)
	opts = append([]pjrt.NamedValue{
		{Name: "cpu_device_count", Value: int64(n)},
		{Name: "stela_worker", Value: worker},
		{Name: "stela_cache_dir", Value: cache},
	}, opts...)
	c, err := loadPlugin(t).NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Destroy)
	return c
}

func wantError(t *testing.T, err error, code pjrt.ErrorCode, sub string) {
	t.Helper()
	var perr *pjrt.Error
	if !errors.As(err, &perr) || perr.Code != code || !strings.Contains(err.Error(), sub) {
		t.Errorf("error %v, want a pjrt.Error with code %v containing %q", err, code, sub)
	}
}

func TestPluginPath(t *testing.T) {
	p := testPlugin(t)
	if !strings.HasSuffix(p, "/"+PluginFile) {
		t.Errorf("PluginPath() = %s, want a file named %s", p, PluginFile)
	}
	again, err := PluginPath()
	if err != nil || again != p {
		t.Errorf("second PluginPath() = %s, %v; want %s", again, err, p)
	}
	// A build in another root is the same hash, and a different flag a
	// different one.
	files, err := sourceFiles()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := files["stela_pjrt.h"]; !ok {
		t.Error("the header is not among the build's files")
	}
	if buildHash(files, compiler(), nil) == buildHash(files, compiler(), []string{"-g"}) {
		t.Error("extra flags do not change the build hash")
	}
	files["client.c"] = append(files["client.c"], '\n')
	if buildHash(files, compiler(), nil) == strings.Split(p, "/")[len(strings.Split(p, "/"))-2] {
		t.Error("changed sources do not change the build hash")
	}
}

func TestMissingCompiler(t *testing.T) {
	t.Setenv("CC", "stela-no-such-cc")
	_, err := buildPlugin(t.TempDir(), []string{"-DFRESH"})
	if err == nil || !strings.Contains(err.Error(), "apt-get install gcc") {
		t.Errorf("build without a compiler: %v, want an error naming the gcc package", err)
	}
}

func TestDevices(t *testing.T) {
	p := loadPlugin(t)
	if major, minor := p.APIVersion(); major != 0 || minor != 81 {
		t.Errorf("API version %d.%d", major, minor)
	}
	for _, fn := range []string{"PJRT_Client_Compile", "PJRT_Executable_Serialize", "PJRT_Compile"} {
		if !p.Has(fn) {
			t.Errorf("plugin lacks %s", fn)
		}
	}
	if v, ok := p.Attribute("stela_cpu_version"); !ok || v == "" {
		t.Errorf("attribute stela_cpu_version = %v, %v", v, ok)
	}
	c := newClient(t, 3)
	if c.PlatformName() != "cpu" {
		t.Errorf("platform %q", c.PlatformName())
	}
	devs := c.AddressableDevices()
	if len(devs) != 3 || len(c.Devices()) != 3 {
		t.Fatalf("%d addressable devices, %d devices; want 3", len(devs), len(c.Devices()))
	}
	for i, d := range devs {
		if d.ID() != i || d.LocalHardwareID() != i || d.Kind() != "cpu" || !d.IsAddressable() {
			t.Errorf("device %d: id %d, hardware id %d, kind %q", i, d.ID(), d.LocalHardwareID(), d.Kind())
		}
		if got, want := d.String(), fmt.Sprintf("StelaCpuDevice(id=%d)", i); got != want {
			t.Errorf("device %d is %q, want %q", i, got, want)
		}
		if v, ok := d.Attribute("coords"); !ok || fmt.Sprint(v) != fmt.Sprint([]int64{int64(i)}) {
			t.Errorf("device %d coords = %v", i, v)
		}
		m := d.DefaultMemory()
		if m == nil || m.Kind() != "device" || m.ID() != i || len(m.Devices()) != 1 || m.Devices()[0] != d {
			t.Errorf("device %d memory %v", i, m)
		}
	}
	a, err := c.DefaultDeviceAssignment(1, 3)
	if err != nil || fmt.Sprint(a) != "[[0 1 2]]" {
		t.Errorf("DefaultDeviceAssignment(1, 3) = %v, %v", a, err)
	}
	_, err = c.DefaultDeviceAssignment(2, 2)
	wantError(t, err, pjrt.CodeInvalidArgument, "need 4 devices")

	t.Setenv("STELA_CPU_DEVICES", "2")
	c2, err := p.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(c2.AddressableDevices()); n != 2 {
		t.Errorf("STELA_CPU_DEVICES=2: %d devices", n)
	}
	c2.Destroy()
	_, err = p.NewClient(pjrt.NamedValue{Name: "cpu_device_count", Value: "two"})
	wantError(t, err, pjrt.CodeInvalidArgument, "cpu_device_count must be of type int64")
}

// randomLiteral fills a literal of type ty with random bytes (0 or 1 for
// booleans): the plugin copies bytes, so any pattern must come back.
func randomLiteral(t *testing.T, r *rand.Rand, ty ir.Type) *ir.Literal {
	t.Helper()
	n := ty.NumElements() * ty.DType.Bits() / 8
	if ty.DType == ir.Bool {
		n = ty.NumElements()
	}
	b := make([]byte, n)
	r.Read(b)
	if ty.DType == ir.Bool {
		for i := range b {
			b[i] &= 1
		}
	}
	l, err := ir.LiteralFromBytes(ty, b)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestBufferRoundTrip(t *testing.T) {
	c := newClient(t, 2)
	r := rand.New(rand.NewSource(1))
	for _, d := range ir.AllDTypes {
		for _, shape := range [][]int{nil, {0}, {7}, {2, 3, 5}, {3, 0, 2}} {
			ty := ir.TensorOf(d, shape...)
			t.Run(ty.String(), func(t *testing.T) {
				l := randomLiteral(t, r, ty)
				dev := c.AddressableDevices()[len(shape)%2]
				b, err := c.BufferFromLiteral(l, dev)
				if err != nil {
					t.Fatal(err)
				}
				defer b.Destroy()
				if got, err := b.Device(); err != nil || got != dev {
					t.Errorf("device %v, %v; want %v", got, err, dev)
				}
				if dims, err := b.Dims(); err != nil || fmt.Sprint(dims) != fmt.Sprint(ty.Shape) && len(shape) > 0 {
					t.Errorf("dims %v, %v", dims, err)
				}
				if got, err := b.DType(); err != nil || got != d {
					t.Errorf("dtype %v, %v", got, err)
				}
				size, err := b.HostSize()
				if err != nil || size != len(l.Bytes()) {
					t.Errorf("host size %d, %v; want %d", size, err, len(l.Bytes()))
				}
				back, err := b.ToLiteral()
				if err != nil {
					t.Fatal(err)
				}
				if !back.Type.Equal(ty) || !bytes.Equal(back.Bytes(), l.Bytes()) {
					t.Errorf("round trip: %v %x, want %v %x", back.Type, back.Bytes(), ty, l.Bytes())
				}
			})
		}
	}
}

func TestBufferStrides(t *testing.T) {
	c := newClient(t, 1)
	// [[1 2 3] [4 5 6]] stored by columns, as int16.
	data := []byte{1, 0, 4, 0, 2, 0, 5, 0, 3, 0, 6, 0}
	b, err := c.BufferFromHost(pjrt.HostArray{DType: ir.S16, Dims: []int{2, 3}, Data: data, ByteStrides: []int{2, 4}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Destroy()
	got, err := b.HostBytes()
	if want := []byte{1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0}; err != nil || !bytes.Equal(got, want) {
		t.Errorf("strided upload: %v, %v; want %v", got, err, want)
	}
	// Reversed rows: a negative stride with the offset of element [0, 0].
	b2, err := c.BufferFromHost(pjrt.HostArray{DType: ir.S16, Dims: []int{2, 3}, Data: got, ByteStrides: []int{-6, 2}, Offset: 6}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b2.Destroy()
	if got, err := b2.HostBytes(); err != nil || !bytes.Equal(got, []byte{4, 0, 5, 0, 6, 0, 1, 0, 2, 0, 3, 0}) {
		t.Errorf("negative stride: %v, %v", got, err)
	}
	// Strides whose products overflow are refused (issue 20: {1<<62, 4}
	// over 64 bytes passed the check and segfaulted in the plugin); the
	// client still works afterwards.
	for _, a := range []pjrt.HostArray{
		{DType: ir.F32, Dims: []int{4, 4}, Data: make([]byte, 64), ByteStrides: []int{1 << 62, 4}},
		{DType: ir.F32, Dims: []int{4, 4}, Data: make([]byte, 64), ByteStrides: []int{-1 << 62, 4}, Offset: 60},
		{DType: ir.F32, Dims: []int{1 << 32, 1 << 32}, Data: make([]byte, 64)},
	} {
		if b, err := c.BufferFromHost(a, nil); !errors.Is(err, pjrt.ErrInvalidArgument) {
			if b != nil {
				b.Destroy()
			}
			t.Errorf("dims %v strides %v: %v, want ErrInvalidArgument", a.Dims, a.ByteStrides, err)
		}
	}
	if _, err := b2.HostBytes(); err != nil {
		t.Error(err)
	}
}

func TestBufferErrors(t *testing.T) {
	c := newClient(t, 2)
	l := ir.LiteralOf([]int{2, 2}, float32(1), 2, 3, 4)
	b, err := c.BufferFromLiteral(l, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Destroy()
	err = b.ToHost(make([]byte, 15))
	if err == nil {
		t.Error("ToHost into 15 bytes succeeded")
	}
	dst, err := b.CopyToDevice(c.AddressableDevices()[1])
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := dst.ToLiteral(); got == nil || !bytes.Equal(got.Bytes(), l.Bytes()) {
		t.Errorf("copy to device 1: %v", got)
	}
	dst.Destroy()
	_, err = b.CopyToDevice(c.AddressableDevices()[0])
	wantError(t, err, pjrt.CodeInvalidArgument, "already on device 0")
	if err := b.Delete(); err != nil {
		t.Fatal(err)
	}
	if del, err := b.IsDeleted(); err != nil || !del {
		t.Errorf("IsDeleted = %v, %v", del, err)
	}
	_, err = b.ToLiteral()
	wantError(t, err, pjrt.CodeInvalidArgument, "deleted")
}

// Programs for the fake worker: C that defines the compiled ABI.
const addOneC = `// fake: c
/* module @add_one */
const char stela_signature[] = "arg f32 4\nres f32 4\n";
int stela_entry(void *const *args, void *const *results, char err[256]) {
  const float *x = args[0]; float *y = results[0];
  for (int i = 0; i < 4; i++) y[i] = x[i] + 1.0f;
  return 0;
}
`

// swapC swaps two arguments of different types and fails on a negative
// first element: -2 as a failed expectation (stela_entry returns 2), any
// other as a run-time error (1).
const swapC = `// fake: c
/* module @swap */
#include <string.h>
const char stela_signature[] = "arg si64 3\narg bf16 2x2\nres bf16 2x2\nres si64 3\n";
int stela_entry(void *const *args, void *const *results, char err[256]) {
  const long long *a = args[0];
  if (a[0] == -2) { strcpy(err, "check.expect_eq failed"); return 2; }
  if (a[0] < 0) { strcpy(err, "first element is negative"); return 1; }
  memcpy(results[0], args[1], 8);
  memcpy(results[1], args[0], 24);
  return 0;
}
`

func TestCompileErrors(t *testing.T) {
	c := newClient(t, 1)
	for _, tc := range []struct {
		program string
		code    pjrt.ErrorCode
		msg     string
	}{
		{"// fake: invalid\n", pjrt.CodeInvalidArgument, "stela cpu compile: bad program: line 3: expected value"},
		{"// fake: unsupported\n", pjrt.CodeUnimplemented, "stela cpu compile: unsupported: stablehlo.fft"},
		{"// fake: exit3\n", pjrt.CodeInternal, "exited with status 3:\nsomething odd"},
		// Go's fatal errors exit 2: an internal error with the message
		// and without the stack dump (issue 20: it read as UNIMPLEMENTED).
		{"// fake: gofatal\n", pjrt.CodeInternal, "crashed (exit status 2: a fatal error or panic of the Go runtime):\nfatal error: runtime: out of memory\n[120 more bytes cut: a stack trace]"},
		{"// fake: segv\n", pjrt.CodeInternal, "killed by SIGSEGV"},
		{"// fake: noout\n", pjrt.CodeInternal, "wrote no"},
	} {
		_, err := c.Compile(tc.program, nil)
		wantError(t, err, tc.code, tc.msg)
	}
	_, err := c.CompileProgram([]byte("HloModule m"), "hlo", nil)
	wantError(t, err, pjrt.CodeUnimplemented, `program format "hlo"`)

	quick := newClient(t, 1, pjrt.NamedValue{Name: "stela_compile_timeout_ms", Value: int64(200)})
	_, err = quick.Compile("// fake: sleep\n", nil)
	wantError(t, err, pjrt.CodeInternal, "ran past the timeout of 200 ms")

	none, err := loadPlugin(t).NewClient(pjrt.NamedValue{Name: "stela_worker", Value: "/nonexistent/stela"})
	if err != nil {
		t.Fatal(err)
	}
	defer none.Destroy()
	_, err = none.Compile(addOneC, nil)
	wantError(t, err, pjrt.CodeFailedPrecondition, "/nonexistent/stela")
}

func TestExecute(t *testing.T) {
	c := newClient(t, 2)
	exe, err := c.Compile(addOneC, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Destroy()
	if exe.Name() != "add_one" || exe.NumOutputs() != 1 || !exe.Portable() {
		t.Errorf("executable %q, %d outputs, portable %v", exe.Name(), exe.NumOutputs(), exe.Portable())
	}
	if fmt.Sprint(exe.OutputTypes(), exe.OutputDims()) != "[F32] [[4]]" {
		t.Errorf("outputs %v %v", exe.OutputTypes(), exe.OutputDims())
	}
	dev1 := c.AddressableDevices()[1]
	x, err := c.BufferFromLiteral(ir.LiteralOf([]int{4}, float32(1), 2, 3, 4), dev1)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Destroy()
	outs, err := exe.Execute(x)
	if err != nil {
		t.Fatal(err)
	}
	y, err := outs[0].ToLiteral()
	if err != nil || fmt.Sprint(y.Data) != "[2 3 4 5]" {
		t.Errorf("add_one = %v, %v", y, err)
	}
	if d, _ := outs[0].Device(); d != dev1 {
		t.Errorf("result on %v, want %v", d, dev1)
	}
	outs[0].Destroy()

	bad, err := c.BufferFromLiteral(ir.LiteralOf([]int{3}, float32(1), 2, 3), dev1)
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Destroy()
	_, err = exe.Execute(bad)
	wantError(t, err, pjrt.CodeInvalidArgument, "argument 0 of device 0 is F32[3], the program add_one wants F32[4]")
	_, err = exe.Execute()
	wantError(t, err, pjrt.CodeInvalidArgument, "takes 1 arguments, got 0")
}

func TestExecuteDevices(t *testing.T) {
	c := newClient(t, 3)
	// Two partitions on devices 2 and 0.
	exe, err := c.Compile(swapC, &pjrt.CompileOptions{NumPartitions: 2, DeviceAssignment: [][]int{{2, 0}}})
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Destroy()
	devs := exe.AddressableDevices()
	if len(devs) != 2 || devs[0].ID() != 2 || devs[1].ID() != 0 || exe.NumPartitions() != 2 {
		t.Fatalf("devices %v, %d partitions", devs, exe.NumPartitions())
	}
	var lists [][]*pjrt.Buffer
	for i, d := range devs {
		a, err := c.BufferFromLiteral(ir.LiteralOf([]int{3}, int64(i), 10, 20), d)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Destroy()
		b, err := c.BufferFromLiteral(ir.LiteralFromFloat64s(ir.TensorOf(ir.BF16, 2, 2), []float64{1, 2, 3, float64(i)}), d)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Destroy()
		lists = append(lists, []*pjrt.Buffer{a, b})
	}
	outs, err := exe.ExecuteDevices(lists)
	if err != nil {
		t.Fatal(err)
	}
	for i, list := range outs {
		b, _ := list[0].ToLiteral()
		a, _ := list[1].ToLiteral()
		if fmt.Sprint(a.Data) != fmt.Sprintf("[%d 10 20]", i) || fmt.Sprint(b.Float64s()) != fmt.Sprintf("[1 2 3 %d]", i) {
			t.Errorf("device %d: %v %v", i, a, b)
		}
		if d, _ := list[0].Device(); d != devs[i] {
			t.Errorf("device %d: result on %v", i, d)
		}
		for _, b := range list {
			b.Destroy()
		}
	}
	// The program fails on device 1 (device id 0): an error, no outputs.
	neg, err := c.BufferFromLiteral(ir.LiteralOf([]int{3}, int64(-1), 0, 0), devs[1])
	if err != nil {
		t.Fatal(err)
	}
	defer neg.Destroy()
	lists[1][0] = neg
	_, err = exe.ExecuteDevices(lists)
	wantError(t, err, pjrt.CodeInternal, "swap on device 0: first element is negative")
	check, err := c.BufferFromLiteral(ir.LiteralOf([]int{3}, int64(-2), 0, 0), devs[0])
	if err != nil {
		t.Fatal(err)
	}
	defer check.Destroy()
	lists[0][0] = check
	_, err = exe.ExecuteDevices(lists)
	wantError(t, err, pjrt.CodeAborted, "swap on device 2: check.expect_eq failed")
}

// TestRealWorker compiles StableHLO with the real compile worker: this test
// binary links package cpu, so it is one (worker.go's init).
func TestRealWorker(t *testing.T) {
	for _, tool := range []string{"opt", "llc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: apt-get install llvm-14", tool)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, err := loadPlugin(t).NewClient(
		pjrt.NamedValue{Name: "cpu_device_count", Value: int64(2)},
		pjrt.NamedValue{Name: "stela_worker", Value: exe},
		pjrt.NamedValue{Name: "stela_cache_dir", Value: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Destroy()
	const program = `module @jit_axpy {
  func.func public @main(%a: tensor<2x2xf32>, %x: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<f32>) {
    %0 = stablehlo.multiply %a, %x : tensor<2x2xf32>
    %1 = stablehlo.add %0, %x : tensor<2x2xf32>
    %2 = stablehlo.constant dense<0.0> : tensor<f32>
    %3 = stablehlo.reduce(%1 init: %2) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x2xf32>, tensor<f32>) -> tensor<f32>
    return %1, %3 : tensor<2x2xf32>, tensor<f32>
  }
}
`
	x, err := c.Compile(program, nil)
	if err != nil {
		t.Fatalf("compiling with the real worker: %v", err)
	}
	defer x.Destroy()
	if x.Name() != "jit_axpy" || fmt.Sprint(x.OutputTypes(), x.OutputDims()) != "[F32 F32] [[2 2] []]" {
		t.Errorf("executable %q, outputs %v %v", x.Name(), x.OutputTypes(), x.OutputDims())
	}
	dev := c.AddressableDevices()[1]
	a, _ := c.BufferFromLiteral(ir.LiteralOf([]int{2, 2}, float32(1), 2, 3, 4), dev)
	defer a.Destroy()
	v, _ := c.BufferFromLiteral(ir.LiteralOf([]int{2, 2}, float32(10), 20, 30, 40), dev)
	defer v.Destroy()
	outs, err := x.Execute(a, v)
	if err != nil {
		t.Fatal(err)
	}
	y, _ := outs[0].ToLiteral()
	s, _ := outs[1].ToLiteral()
	if fmt.Sprint(y.Data, s.Data) != "[20 60 120 200] [400]" {
		t.Errorf("axpy = %v, sum %v; want [20 60 120 200], 400", y.Data, s.Data)
	}
	for _, b := range outs {
		b.Destroy()
	}
	_, err = c.Compile("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %a, : tensor<4xf32>\n}\n", nil)
	wantError(t, err, pjrt.CodeInvalidArgument, "stela cpu compile: 2:")
}

// TestDestroyOrder destroys the client before its buffers and executables,
// as gopjrt's cleanups may.
func TestDestroyOrder(t *testing.T) {
	c := newClient(t, 1)
	exe, err := c.Compile(addOneC, nil)
	if err != nil {
		t.Fatal(err)
	}
	x, err := c.BufferFromLiteral(ir.LiteralOf([]int{4}, float32(1), 2, 3, 4), nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Destroy()
	outs, err := exe.Execute(x)
	if err != nil {
		t.Fatal(err)
	}
	outs[0].Destroy()
	exe.Destroy()
	x.Destroy()
}

// rss is the resident set size in bytes, from /proc/self/statm.
func rss(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip("no /proc/self/statm")
	}
	var size, res int64
	fmt.Sscan(string(b), &size, &res)
	return res * int64(os.Getpagesize())
}

// TestNoLeaks runs thousands of buffer and compile/execute cycles and
// checks that the resident set stays flat. Each cycle moves 64 KiB, so a
// leaked buffer per cycle would grow the process by hundreds of MiB; the
// bound leaves room for the Go heap and allocator noise.
func TestNoLeaks(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	c := newClient(t, 1)
	exe, err := c.Compile(addOneC, nil)
	if err != nil {
		t.Fatal(err)
	}
	exe.Destroy()
	big := ir.Zeros(ir.TensorOf(ir.F32, 128, 128))
	small := ir.LiteralOf([]int{4}, float32(1), 2, 3, 4)
	cycle := func() {
		b, err := c.BufferFromLiteral(big, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.HostBytes(); err != nil {
			t.Fatal(err)
		}
		b.Destroy()
		exe, err := c.Compile(addOneC, nil) // a cache hit: dlopen, dlclose
		if err != nil {
			t.Fatal(err)
		}
		x, err := c.BufferFromLiteral(small, nil)
		if err != nil {
			t.Fatal(err)
		}
		outs, err := exe.Execute(x)
		if err != nil {
			t.Fatal(err)
		}
		outs[0].Destroy()
		x.Destroy()
		exe.Destroy()
	}
	for range 300 {
		cycle()
	}
	before := rss(t)
	const n = 3000
	for range n {
		cycle()
	}
	after := rss(t)
	t.Logf("RSS %d KiB before, %d KiB after %d cycles", before>>10, after>>10, n)
	if grown := after - before; grown > 32<<20 {
		t.Errorf("RSS grew by %d MiB over %d cycles", grown>>20, n)
	}
}

// TestConcurrent compiles, executes, copies and deletes from many
// goroutines at once (run it with -race; the plugin's own locking is
// checked by the driver under AddressSanitizer).
func TestConcurrent(t *testing.T) {
	c := newClient(t, 2)
	exe, err := c.Compile(addOneC, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Destroy()
	shared, err := c.BufferFromLiteral(ir.LiteralOf([]int{4}, float32(1), 2, 3, 4), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer shared.Destroy()
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			errs <- func() error {
				dev := c.AddressableDevices()[g%2]
				for i := range 50 {
					x, err := c.BufferFromLiteral(ir.LiteralOf([]int{4}, float32(g), float32(i), 0, 0), dev)
					if err != nil {
						return err
					}
					outs, err := exe.Execute(x)
					x.Destroy()
					if err != nil {
						return err
					}
					y, err := outs[0].ToLiteral()
					outs[0].Destroy()
					if err != nil {
						return err
					}
					if got := y.Data.([]float32); got[0] != float32(g+1) || got[1] != float32(i+1) {
						return fmt.Errorf("goroutine %d, run %d: %v", g, i, got)
					}
					// The shared buffer is read by everyone while one
					// goroutine deletes it: reads fail cleanly or succeed.
					if g == 0 && i == 25 {
						shared.Delete()
					}
					if outs, err := exe.Execute(shared); err == nil {
						outs[0].Destroy()
					} else if !strings.Contains(err.Error(), "deleted") && !strings.Contains(err.Error(), "is on device") {
						return err
					}
				}
				return nil
			}()
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// The compile cache is keyed by the program without its source
// locations: the same program with its ops on other lines (Stela prints
// each op's Go line) is a hit; a program that differs elsewhere, in a
// string that merely looks like a location, is not.
func TestCompileCacheIgnoresLocations(t *testing.T) {
	worker, _ := testWorker(t)
	c, err := loadPlugin(t).NewClient(
		pjrt.NamedValue{Name: "stela_worker", Value: worker},
		pjrt.NamedValue{Name: "stela_cache_dir", Value: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Destroy()
	log := t.TempDir() + "/worker.log"
	t.Setenv("FAKE_LOG", log)
	runs := func() int {
		b, _ := os.ReadFile(log)
		return strings.Count(string(b), "\n")
	}
	// The fake worker compiles the text as C; the MLIR lives in comments
	// (a # line in a comment is no preprocessor directive).
	program := func(loc1, loc2, str string) string {
		return strings.Replace(addOneC, "/* module @add_one */", fmt.Sprintf(`/* module @add_one_%s {
  %%0 = stablehlo.add %%arg0, %%arg0 : tensor<4xf32>  loc(#loc1)
  %%1 = stablehlo.custom_call @x(%%0) {backend_config = "%s"} : (tensor<4xf32>) -> tensor<4xf32> loc(%s)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc(%s)
*/`, nonce(), str, loc2, loc1), 1)
	}
	p := program(`"a.go":10:0`, `fused["b.go":3:0, "a.go":11:0]`, "loc(1)")
	for i, tc := range []struct {
		text string
		runs int
	}{
		{p, 1},
		{p, 1}, // the same text
		{strings.NewReplacer("a.go", "c.go", ":10:", ":99:").Replace(p), 1},         // other lines
		{strings.NewReplacer(`"b.go":3:0, `, "", "  loc(#loc1)", "").Replace(p), 1}, // fewer locations
		{strings.Replace(p, `"loc(1)"`, `"loc(2)"`, 1), 2},                          // a string differs
	} {
		exe, err := c.Compile(tc.text, nil)
		if err != nil {
			t.Fatalf("program %d: %v", i, err)
		}
		exe.Destroy()
		if got := runs(); got != tc.runs {
			t.Errorf("program %d: the worker has run %d times, want %d", i, got, tc.runs)
		}
	}
}
