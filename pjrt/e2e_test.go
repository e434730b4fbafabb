package pjrt

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// The end-to-end suite runs on any plugin: on $STELA_PJRT_PLUGIN with
// StableHLO programs (TestPlugin*), and on the mock plugin with its own
// program language (TestMock*). identity returns a program whose outputs
// are its inputs, for inputs of the given types.
type backend struct {
	plugin   *Plugin
	options  []NamedValue
	identity func(types []ir.Type) string
	// invalid is a program the plugin must refuse to compile.
	invalid string
}

// stablehloIdentity is `return %arg0, ...` in StableHLO text.
func stablehloIdentity(types []ir.Type) string {
	var params, results, names []string
	for i, t := range types {
		tt := tensorType(t)
		params = append(params, fmt.Sprintf("%%arg%d: %s", i, tt))
		results = append(results, tt)
		names = append(names, fmt.Sprintf("%%arg%d", i))
	}
	return fmt.Sprintf("module @identity {\n  func.func public @main(%s) -> (%s) {\n    return %s : %s\n  }\n}\n",
		strings.Join(params, ", "), strings.Join(results, ", "), strings.Join(names, ", "), strings.Join(results, ", "))
}

func tensorType(t ir.Type) string {
	var b strings.Builder
	b.WriteString("tensor<")
	for _, d := range t.Shape {
		fmt.Fprintf(&b, "%dx", d)
	}
	b.WriteString(t.DType.MLIR())
	b.WriteString(">")
	return b.String()
}

func pluginBackend(t *testing.T) backend {
	return backend{plugin: loadTestPlugin(t), identity: stablehloIdentity, invalid: "this is not MLIR"}
}

func newTestClient(t *testing.T, be backend, extra ...NamedValue) *Client {
	t.Helper()
	c, err := be.plugin.NewClient(append(append([]NamedValue{}, be.options...), extra...)...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c
}

var testShapes = [][]int{{2, 3}, {}, {0, 4}, {5}}

func suiteClient(t *testing.T, be backend) {
	c := newTestClient(t, be)
	defer c.Destroy()
	if c.PlatformName() == "" {
		t.Error("empty platform name")
	}
	devs := c.AddressableDevices()
	if len(devs) == 0 {
		t.Fatal("no addressable devices")
	}
	ids := map[int]bool{}
	for _, d := range devs {
		t.Logf("device %v: id=%d kind=%q process=%d hw=%d attrs=%v memories=%v default=%v",
			d, d.ID(), d.Kind(), d.ProcessIndex(), d.LocalHardwareID(), d.Attributes(), d.Memories(), d.DefaultMemory())
		if ids[d.ID()] {
			t.Errorf("device id %d twice", d.ID())
		}
		ids[d.ID()] = true
		if got, ok := c.DeviceByID(d.ID()); !ok || got != d {
			t.Errorf("DeviceByID(%d) = %v", d.ID(), got)
		}
		if !d.IsAddressable() || d.Client() != c {
			t.Errorf("device %v: addressable %v, client %p", d, d.IsAddressable(), d.Client())
		}
		for _, m := range d.Memories() {
			found := false
			for _, md := range m.Devices() {
				found = found || md == d
			}
			if !found {
				t.Errorf("memory %v of device %v does not list it", m, d)
			}
		}
	}
}

func suiteRoundTrip(t *testing.T, be backend) {
	c := newTestClient(t, be)
	defer c.Destroy()
	for _, d := range ir.AllDTypes {
		for _, shape := range testShapes {
			typ := ir.TensorOf(d, shape...)
			t.Run(typ.String(), func(t *testing.T) {
				lit := testLiteral(typ)
				buf, err := c.BufferFromLiteral(lit, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer buf.Destroy()
				checkBuffer(t, buf, lit)
			})
		}
	}
}

// checkBuffer checks a buffer's type, dims and contents against want.
func checkBuffer(t *testing.T, buf *Buffer, want *ir.Literal) {
	t.Helper()
	d, err := buf.DType()
	if err != nil || d != want.Type.DType {
		t.Errorf("DType = %v, %v; want %v", d, err, want.Type.DType)
	}
	dims, err := buf.Dims()
	if err != nil || !ir.ShapeEqual(dims, want.Type.Shape) {
		t.Errorf("Dims = %v, %v; want %v", dims, err, want.Type.Shape)
	}
	got, err := buf.ToLiteral()
	if err != nil {
		t.Fatalf("ToLiteral: %v", err)
	}
	if !bytes.Equal(mustBytes(t, got), mustBytes(t, want)) {
		t.Errorf("contents differ:\n got %v\nwant %v", got.Data, want.Data)
	}
	raw, err := buf.HostBytes()
	if err != nil || !bytes.Equal(raw, mustBytes(t, want)) {
		t.Errorf("HostBytes = %v, %v", raw, err)
	}
}

// suiteBufferQueries covers the buffer calls beyond transfers; those a
// plugin does not implement are skipped.
func suiteBufferQueries(t *testing.T, be backend) {
	c := newTestClient(t, be)
	defer c.Destroy()
	lit := testLiteral(ir.TensorOf(ir.C64, 2, 2))
	buf, err := c.BufferFromLiteral(lit, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Destroy()
	if n, err := buf.HostSize(); err != nil || n != 32 {
		t.Errorf("HostSize = %d, %v; want 32", n, err)
	}
	if n, err := buf.OnDeviceSize(); err != nil || n < 32 {
		t.Errorf("OnDeviceSize = %d, %v", n, err)
	}
	if bt, err := buf.Type(); err != nil || bt != BufferC64 {
		t.Errorf("Type = %v, %v", bt, err)
	}
	if del, err := buf.IsDeleted(); err != nil || del {
		t.Errorf("IsDeleted = %v, %v", del, err)
	}
	ev, err := buf.ReadyEvent()
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Await(); err != nil {
		t.Error(err)
	}
	if ready, err := ev.IsReady(); err != nil || !ready {
		t.Errorf("IsReady after Await = %v, %v", ready, err)
	}
	ev.Destroy()
	if err := ev.Await(); !errors.Is(err, ErrDestroyed) {
		t.Errorf("Await after Destroy: %v", err)
	}
	dev := c.AddressableDevices()[0]
	if mem := dev.DefaultMemory(); mem != nil {
		b2, err := c.BufferFromHostToMemory(HostArray{DType: ir.C64, Dims: []int{2, 2}, Data: mustBytes(t, lit)}, mem)
		if err != nil {
			t.Fatal(err)
		}
		defer b2.Destroy()
		if m, err := b2.Memory(); err != nil || m != mem {
			t.Errorf("Memory = %v, %v; want %v", m, err, mem)
		}
		checkBuffer(t, b2, lit)
		b3, err := b2.CopyToMemory(mem)
		switch {
		case errors.Is(err, ErrUnimplemented):
			t.Logf("CopyToMemory: %v", err)
		case err == nil:
			checkBuffer(t, b3, lit)
			b3.Destroy()
		}
	}
}

func suiteStrided(t *testing.T, be backend) {
	c := newTestClient(t, be)
	defer c.Destroy()
	// A 3×4 int32 array stored column-major, read through strides.
	const rows, cols = 3, 4
	colMajor := make([]int32, rows*cols)
	want := make([]int32, rows*cols)
	for r := range rows {
		for k := range cols {
			v := int32(10*r + k)
			colMajor[k*rows+r] = v
			want[r*cols+k] = v
		}
	}
	wantLit := ir.MustLiteral(ir.TensorOf(ir.S32, rows, cols), want)
	data := mustBytes(t, ir.MustLiteral(ir.TensorOf(ir.S32, rows*cols), colMajor))
	buf, err := c.BufferFromHost(HostArray{DType: ir.S32, Dims: []int{rows, cols}, Data: data, ByteStrides: []int{4, 4 * rows}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkBuffer(t, buf, wantLit)
	buf.Destroy()

	// Negative strides: the same array reversed along both dimensions,
	// with Offset at the last element.
	rev := make([]int32, rows*cols)
	for i := range rev {
		rev[len(rev)-1-i] = want[i]
	}
	data = mustBytes(t, ir.MustLiteral(ir.TensorOf(ir.S32, rows*cols), rev))
	buf, err = c.BufferFromHost(HostArray{DType: ir.S32, Dims: []int{rows, cols}, Data: data,
		ByteStrides: []int{-4 * cols, -4}, Offset: 4 * (rows*cols - 1)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkBuffer(t, buf, wantLit)
	buf.Destroy()

	// Out of range is caught before the plugin sees it.
	_, err = c.BufferFromHost(HostArray{DType: ir.S32, Dims: []int{rows, cols}, Data: data[:40]}, nil)
	if !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("short data: %v, want ErrInvalidArgument", err)
	}
	_, err = c.BufferFromHost(HostArray{DType: ir.S32, Dims: []int{rows, cols}, Data: data, ByteStrides: []int{-4 * cols, -4}}, nil)
	if !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("negative strides without offset: %v, want ErrInvalidArgument", err)
	}
	// Strides whose products overflow (issue 20: this passed the check
	// and segfaulted in the plugin).
	_, err = c.BufferFromHost(HostArray{DType: ir.F32, Dims: []int{4, 4}, Data: make([]byte, 64), ByteStrides: []int{1 << 62, 4}}, nil)
	if !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("overflowing strides: %v, want ErrInvalidArgument", err)
	}
}

func suiteExecute(t *testing.T, be backend) {
	c := newTestClient(t, be)
	defer c.Destroy()
	// Per element type: two arguments of different shapes, two outputs.
	for _, d := range ir.AllDTypes {
		t.Run(d.String(), func(t *testing.T) {
			types := []ir.Type{ir.TensorOf(d, 2, 3), ir.TensorOf(d)}
			var lits []*ir.Literal
			var args []*Buffer
			for _, typ := range types {
				lit := testLiteral(typ)
				buf, err := c.BufferFromLiteral(lit, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer buf.Destroy()
				lits, args = append(lits, lit), append(args, buf)
			}
			exe, err := c.Compile(be.identity(types), nil)
			if errors.Is(err, ErrUnimplemented) {
				t.Skipf("the plugin does not support %v: %v", d, err)
			}
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			defer exe.Destroy()
			if exe.NumOutputs() != len(types) || !exe.Portable() {
				t.Errorf("NumOutputs = %d, Portable = %v; want %d, true", exe.NumOutputs(), exe.Portable(), len(types))
			}
			for run := range 2 { // the same executable twice
				outs, err := exe.Execute(args...)
				if err != nil {
					t.Fatalf("run %d: Execute: %v", run, err)
				}
				if len(outs) != len(lits) {
					t.Fatalf("%d outputs, want %d", len(outs), len(lits))
				}
				for i, out := range outs {
					checkBuffer(t, out, lits[i])
					out.Destroy()
				}
			}
		})
	}

	typ := ir.TensorOf(ir.F32, 4)
	lit := testLiteral(typ)
	arg, err := c.BufferFromLiteral(lit, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer arg.Destroy()
	exe, err := c.Compile(be.identity([]ir.Type{typ}), nil)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	defer exe.Destroy()
	t.Logf("executable %q: %d outputs, types %v, dims %v, devices %v", exe.Name(), exe.NumOutputs(), exe.OutputTypes(), exe.OutputDims(), exe.AddressableDevices())
	// Asynchronous launch.
	x, err := exe.Launch([][]*Buffer{{arg}}, &ExecuteOptions{Device: c.AddressableDevices()[0]})
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Await(); err != nil {
		t.Fatal(err)
	}
	checkBuffer(t, x.Outputs[0][0], lit)
	x.Outputs[0][0].Destroy()

	// Errors surface as *Error.
	if _, err := exe.Execute(arg, arg); err == nil {
		t.Error("Execute with too many arguments succeeded")
	} else {
		t.Logf("Execute with too many arguments: %v", err)
	}
	_, err = c.Compile(be.invalid, nil)
	var perr *Error
	if !errors.As(err, &perr) || perr.Op != "Client_Compile" {
		t.Errorf("Compile(invalid) = %v, want a *pjrt.Error from Client_Compile", err)
	} else {
		t.Logf("Compile(invalid): %v", err)
	}
}

func suiteMultiDevice(t *testing.T, be backend, extra ...NamedValue) {
	c := newTestClient(t, be, extra...)
	defer c.Destroy()
	devs := c.AddressableDevices()
	if len(devs) < 2 {
		t.Skipf("%d addressable devices", len(devs))
	}
	typ := ir.TensorOf(ir.F32, 4)
	lit := testLiteral(typ)
	exe, err := c.Compile(be.identity([]ir.Type{typ}), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Destroy()
	on1, err := c.BufferFromLiteral(lit, devs[1])
	if err != nil {
		t.Fatal(err)
	}
	defer on1.Destroy()
	if d, err := on1.Device(); err != nil || d != devs[1] {
		t.Errorf("Device = %v, %v; want %v", d, err, devs[1])
	}
	outs, err := exe.Execute(on1) // follows its argument to device 1
	if err != nil {
		t.Fatal(err)
	}
	if d, err := outs[0].Device(); err != nil || d.ID() != devs[1].ID() {
		t.Errorf("output on %v, %v; want %v", d, err, devs[1])
	}
	checkBuffer(t, outs[0], lit)
	copied, err := on1.CopyToDevice(devs[0])
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := copied.Device(); d != devs[0] {
		t.Errorf("copy on %v, want %v", d, devs[0])
	}
	checkBuffer(t, copied, lit)

	// Replicated over two devices, one argument list each.
	exe2, err := c.Compile(be.identity([]ir.Type{typ}), &CompileOptions{NumReplicas: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer exe2.Destroy()
	if exe2.Portable() {
		t.Error("a 2-replica executable is not portable")
	}
	ed := exe2.AddressableDevices()
	if len(ed) != 2 {
		t.Fatalf("2-replica executable on %v", ed)
	}
	var lists [][]*Buffer
	for _, d := range ed {
		b, err := c.BufferFromLiteral(lit, d)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Destroy()
		lists = append(lists, []*Buffer{b})
	}
	outLists, err := exe2.ExecuteDevices(lists)
	if err != nil {
		t.Fatal(err)
	}
	for i, list := range outLists {
		if d, _ := list[0].Device(); d != ed[i] {
			t.Errorf("replica %d output on %v, want %v", i, d, ed[i])
		}
		checkBuffer(t, list[0], lit)
	}
}

// suiteLifetimes destroys in every order and from many goroutines.
func suiteLifetimes(t *testing.T, be backend) {
	typ := ir.TensorOf(ir.F32, 3)
	lit := testLiteral(typ)

	// The client goes first; its buffer and executable keep working.
	c := newTestClient(t, be)
	buf, err := c.BufferFromLiteral(lit, nil)
	if err != nil {
		t.Fatal(err)
	}
	exe, err := c.Compile(be.identity([]ir.Type{typ}), nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Destroy()
	c.Destroy()
	if _, err := c.BufferFromLiteral(lit, nil); !errors.Is(err, ErrDestroyed) {
		t.Errorf("BufferFromLiteral after Destroy: %v, want ErrDestroyed", err)
	}
	outs, err := exe.Execute(buf)
	if err != nil {
		t.Fatalf("Execute after client Destroy: %v", err)
	}
	checkBuffer(t, outs[0], lit)
	buf.Destroy()
	buf.Destroy()
	if _, err := buf.HostBytes(); !errors.Is(err, ErrDestroyed) {
		t.Errorf("HostBytes after Destroy: %v, want ErrDestroyed", err)
	}
	exe.Destroy()
	outs[0].Destroy() // the last one: the C client goes now

	// Nothing destroyed explicitly: cleanups free all of it, in GC order.
	for range 3 {
		c := newTestClient(t, be)
		for range 10 {
			b, err := c.BufferFromLiteral(lit, nil)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := b.ReadyEvent()
			if err == nil {
				_ = ev.Await()
			}
		}
		if _, err := c.Compile(be.identity([]ir.Type{typ}), nil); err != nil {
			t.Fatal(err)
		}
	}

	// Concurrent use and destruction of shared buffers.
	c = newTestClient(t, be)
	defer c.Destroy()
	bufs := make([]*Buffer, 8)
	for i := range bufs {
		if bufs[i], err = c.BufferFromLiteral(lit, nil); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				b := bufs[(g+i)%len(bufs)]
				if _, err := b.HostBytes(); err != nil && !errors.Is(err, ErrDestroyed) {
					t.Errorf("HostBytes: %v", err)
					return
				}
				if i == 25 {
					bufs[g].Destroy()
				}
			}
		}()
	}
	wg.Wait()
}

func TestPluginClient(t *testing.T)    { suiteClient(t, pluginBackend(t)) }
func TestPluginRoundTrip(t *testing.T) { suiteRoundTrip(t, pluginBackend(t)) }
func TestPluginStrided(t *testing.T)   { suiteStrided(t, pluginBackend(t)) }
func TestPluginBuffers(t *testing.T)   { suiteBufferQueries(t, pluginBackend(t)) }
func TestPluginExecute(t *testing.T)   { suiteExecute(t, pluginBackend(t)) }
func TestPluginMultiDevice(t *testing.T) {
	be := pluginBackend(t)
	var extra []NamedValue
	if filepath.Base(testPluginPath(t)) == "pjrt_c_api_stela_cpu_plugin.so" {
		// Stela's CPU plugin has one device unless asked for more.
		extra = append(extra, NamedValue{"cpu_device_count", int64(2)})
	}
	suiteMultiDevice(t, be, extra...)
}
func TestPluginLifetimes(t *testing.T) { suiteLifetimes(t, pluginBackend(t)) }

// TestPluginAdd runs an actual computation on $STELA_PJRT_PLUGIN.
func TestPluginAdd(t *testing.T) {
	be := pluginBackend(t)
	c := newTestClient(t, be)
	defer c.Destroy()
	const prog = `module @add {
  func.func public @main(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.add %x, %y : tensor<3xf32>
    return %0 : tensor<3xf32>
  }
}
`
	exe, err := c.Compile(prog, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Destroy()
	x, _ := c.BufferFromLiteral(ir.MustLiteral(ir.TensorOf(ir.F32, 3), []float32{1, 2, 3}), nil)
	y, _ := c.BufferFromLiteral(ir.MustLiteral(ir.TensorOf(ir.F32, 3), []float32{10, 20, 30}), nil)
	outs, err := exe.Execute(x, y)
	if err != nil {
		t.Fatal(err)
	}
	checkBuffer(t, outs[0], ir.MustLiteral(ir.TensorOf(ir.F32, 3), []float32{11, 22, 33}))
}
