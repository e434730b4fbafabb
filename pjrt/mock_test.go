package pjrt

import (
	"encoding/hex"
	"errors"
	"testing"

	"github.com/stela-ml/stela/ir"
)

func mockBackend(t *testing.T) backend {
	return backend{
		plugin:   loadMock(t),
		identity: func(types []ir.Type) string { return "mock.identity " + itoa(len(types)) },
		invalid:  "mock.fail_compile",
	}
}

func itoa(n int) string { return string(rune('0'+n/10)) + string(rune('0'+n%10)) }

func TestMockClient(t *testing.T) {
	be := mockBackend(t)
	suiteClient(t, be)
	expectClean(t, be.plugin)
}

func TestMockRoundTrip(t *testing.T) {
	be := mockBackend(t)
	suiteRoundTrip(t, be)
	expectClean(t, be.plugin)
}

func TestMockStrided(t *testing.T) {
	be := mockBackend(t)
	suiteStrided(t, be)
	expectClean(t, be.plugin)
}

func TestMockBuffers(t *testing.T) {
	be := mockBackend(t)
	suiteBufferQueries(t, be)
	expectClean(t, be.plugin)
}

func TestMockExecute(t *testing.T) {
	be := mockBackend(t)
	suiteExecute(t, be)
	expectClean(t, be.plugin)
}

func TestMockMultiDevice(t *testing.T) {
	be := mockBackend(t)
	suiteMultiDevice(t, be, NamedValue{"num_devices", 2})
	expectClean(t, be.plugin)
}

func TestMockLifetimes(t *testing.T) {
	be := mockBackend(t)
	suiteLifetimes(t, be)
	expectClean(t, be.plugin)
}

func TestMockPlugin(t *testing.T) {
	p := loadMock(t)
	if major, minor := p.APIVersion(); major != 0 || minor != 81 {
		t.Errorf("APIVersion = %d.%d", major, minor)
	}
	again, err := LoadPlugin(p.Path())
	if err != nil || again != p {
		t.Errorf("LoadPlugin again = %p, %v", again, err)
	}
	if n := mockCounter(t, p, "mock_initialize_calls"); n != 1 {
		t.Errorf("PJRT_Plugin_Initialize called %d times", n)
	}
	want := map[string]any{"mock": true, "ratio": float32(0.5), "greeting": "hello"}
	for name, v := range want {
		if got, ok := p.Attribute(name); !ok || got != v {
			t.Errorf("attribute %s = %#v, want %#v", name, got, v)
		}
	}
	if v, _ := p.Attribute("stablehlo_current_version"); len(v.([]int64)) != 3 {
		t.Errorf("stablehlo_current_version = %v", v)
	}
	if !p.Has("PJRT_Client_Compile") || p.Has("PJRT_Compile") || p.Has("no such function") {
		t.Error("Has is wrong")
	}
}

func TestMockOptionsAndErrors(t *testing.T) {
	p := loadMock(t)
	// Typed options reach the plugin with their types.
	c, err := p.NewClient(NamedValue{"echo_float", 0.25}, NamedValue{"echo_list", []int{7, -8}},
		NamedValue{"echo_bool", true}, NamedValue{"num_devices", int64(2)})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(c.AddressableDevices()); n != 2 {
		t.Errorf("%d devices, want 2", n)
	}
	if v, ok := c.AddressableDevices()[1].Attribute("core"); !ok || v != int64(101) {
		t.Errorf("device attribute core = %v", v)
	}
	c.Destroy()

	_, err = p.NewClient(NamedValue{"fail", "no thanks"})
	var perr *Error
	if !errors.As(err, &perr) || perr.Code != CodeInvalidArgument || perr.Op != "Client_Create" ||
		perr.Msg != "client creation refused: no thanks" || !errors.Is(err, ErrInvalidArgument) || errors.Is(err, ErrInternal) {
		t.Errorf("NewClient(fail) = %#v", err)
	}
	if got, want := err.Error(), "pjrt: Client_Create: INVALID_ARGUMENT: client creation refused: no thanks"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if _, err := p.NewClient(NamedValue{"x", struct{}{}}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("option of type struct{}: %v", err)
	}

	// Execution errors arrive through the completion event.
	c, err = p.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Destroy()
	exe, err := c.Compile("mock.identity 01 mock.fail_execute", nil)
	if err != nil {
		t.Fatal(err)
	}
	buf, err := c.BufferFromLiteral(testLiteral(ir.TensorOf(ir.S8, 2)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exe.Execute(buf); !errors.Is(err, ErrInternal) {
		t.Errorf("failing execution: %v, want ErrInternal", err)
	}
	if _, err := c.Compile("something else", nil); !errors.Is(err, ErrUnimplemented) {
		t.Errorf("unknown program: %v, want ErrUnimplemented", err)
	}
	if _, err := c.CompileProgram([]byte("mock.identity 01"), "hlo", nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("format hlo: %v, want ErrInvalidArgument", err)
	}
	if err := buf.Delete(); err != nil {
		t.Fatal(err)
	}
	if del, _ := buf.IsDeleted(); !del {
		t.Error("IsDeleted = false after Delete")
	}
	if _, err := buf.HostBytes(); !errors.Is(err, ErrFailedPrecondition) {
		t.Errorf("reading a deleted buffer: %v", err)
	}
	buf.Destroy()
	exe.Destroy()
	c.Destroy()
	expectClean(t, p)
}

// TestMockCompileOptions checks the bytes the plugin receives (the mock
// names its executable after them) and that multi-device compiles take the
// plugin's default device assignment.
func TestMockCompileOptions(t *testing.T) {
	p := loadMock(t)
	c, err := p.NewClient(NamedValue{"num_devices", 4})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Destroy()
	for _, opts := range []*CompileOptions{nil, {NumReplicas: 2}, {NumPartitions: 2, UseSPMDPartitioning: true}, {NumReplicas: 2, DeviceAssignment: [][]int{{1}, {3}}}} {
		exe, err := c.Compile("mock.identity 00", opts)
		if err != nil {
			t.Fatal(err)
		}
		o := CompileOptions{}
		if opts != nil {
			o = *opts
		}
		if o.DeviceAssignment == nil && !o.Portable() {
			r, p := o.shape()
			o.DeviceAssignment, _ = c.DefaultDeviceAssignment(r, p)
		}
		want, _ := o.Marshal()
		if got := exe.Name(); got != "opts:"+hex.EncodeToString(want) {
			t.Errorf("%+v: plugin got %s, want %x", opts, got, want)
		}
		if exe.Portable() != o.Portable() {
			t.Errorf("%+v: Portable = %v", opts, exe.Portable())
		}
		// An executable with no inputs and outputs runs too.
		if exe.Portable() {
			if outs, err := exe.Execute(); err != nil || len(outs) != 0 {
				t.Errorf("Execute() = %v, %v", outs, err)
			}
		}
		exe.Destroy()
	}
	da, err := c.DefaultDeviceAssignment(2, 2)
	if err != nil || da[0][0] != 3 || da[0][1] != 2 || da[1][0] != 1 || da[1][1] != 0 {
		t.Errorf("DefaultDeviceAssignment(2, 2) = %v, %v", da, err)
	}
}

// TestMockOldAPI loads a plugin that declares API 0.40 with a shorter
// table: slots past its struct_size are never read, and calls to them fail
// with ErrUnimplemented.
func TestMockOldAPI(t *testing.T) {
	_, old := mockPluginPaths(t)
	p, err := LoadPlugin(old)
	if err != nil {
		t.Fatal(err)
	}
	if _, minor := p.APIVersion(); minor != 40 {
		t.Errorf("minor = %d", minor)
	}
	if p.Has("PJRT_Buffer_CopyToMemory") || p.Has("PJRT_Executable_GetCompiledMemoryStats") || !p.Has("PJRT_Buffer_ToHostBuffer") {
		t.Error("slots beyond the table's struct_size must be absent")
	}
	c, err := p.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Destroy()
	buf, err := c.BufferFromLiteral(testLiteral(ir.TensorOf(ir.U16, 3)), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Destroy()
	_, err = buf.CopyToMemory(c.Memories()[0])
	var perr *Error
	if !errors.As(err, &perr) || perr.Code != CodeUnimplemented || perr.Op != "Buffer_CopyToMemory" {
		t.Errorf("CopyToMemory on API 0.40: %v", err)
	}
	t.Log(err)
}
