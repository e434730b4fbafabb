package pjrt

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt/internal/cheader"
	"github.com/x448/float16"
)

// EnvPlugin names the plugin the end-to-end tests run on (a path, or a
// name for FindPlugin); they skip when it is unset.
const EnvPlugin = "STELA_PJRT_PLUGIN"

// testPluginPath returns $STELA_PJRT_PLUGIN or skips the test. Under CI
// (CI=true), where .ci/run builds the Stela CPU plugin and points
// STELA_PJRT_PLUGIN at it, a missing plugin is a failure: the suite must
// not skip silently there.
func testPluginPath(t *testing.T) string {
	t.Helper()
	path := os.Getenv(EnvPlugin)
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set under CI=true: .ci/run builds the Stela CPU plugin and sets it", EnvPlugin)
		}
		t.Skipf("%s is not set: no PJRT plugin to run on", EnvPlugin)
	}
	return path
}

// loadTestPlugin loads $STELA_PJRT_PLUGIN or skips.
func loadTestPlugin(t *testing.T) *Plugin {
	t.Helper()
	p, err := LoadPlugin(testPluginPath(t))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMain(m *testing.M) {
	code := m.Run()
	if mock.dir != "" {
		os.RemoveAll(mock.dir)
	}
	os.Exit(code)
}

// The mock plugin (testdata/mockplugin) is built once per test binary.
var mock struct {
	once      sync.Once
	dir       string
	path, old string
	err       error
}

// mockPluginPaths builds the mock plugin and an "old" variant that claims
// API 0.40 and whose table ends before PJRT_Buffer_CopyToMemory. It skips
// without a C compiler.
func mockPluginPaths(t *testing.T) (current, old string) {
	t.Helper()
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler (%s) to build the mock plugin: install gcc (Debian package gcc) or set CC", cc)
	}
	mock.once.Do(func() {
		mock.dir, mock.err = os.MkdirTemp("", "stela-pjrt-mock-")
		if mock.err != nil {
			return
		}
		mock.path, mock.err = buildMock(cc, mock.dir, "libmock_pjrt.so")
		if mock.err == nil {
			mock.old, mock.err = buildMock(cc, mock.dir, "libmock_pjrt_old.so",
				"-DMOCK_MINOR=40", "-DMOCK_SIZE=offsetof(PJRT_Api,PJRT_Buffer_CopyToMemory)")
		}
	})
	if mock.err != nil {
		t.Fatal(mock.err)
	}
	return mock.path, mock.old
}

var reMockFunc = regexp.MustCompile(`(?m)^(?:PJRT_Error\*|void) mock_(PJRT_\w+)\(`)

// buildMock writes table.c, filling PJRT_Api with the mock_PJRT_*
// functions the mock defines (every other slot stays NULL), and links the
// plugin.
func buildMock(cc, dir, name string, defs ...string) (string, error) {
	src, err := os.ReadFile(filepath.Join("testdata", "mockplugin", "mock_plugin.c"))
	if err != nil {
		return "", err
	}
	hdr, err := os.ReadFile(filepath.Join("capi", "stela_pjrt.h"))
	if err != nil {
		return "", err
	}
	h, err := cheader.Parse(string(hdr))
	if err != nil {
		return "", err
	}
	impl := map[string]bool{}
	for _, m := range reMockFunc.FindAllStringSubmatch(string(src), -1) {
		impl[m[1]] = true
	}
	var b strings.Builder
	b.WriteString("#include \"stela_pjrt.h\"\n#ifndef MOCK_MINOR\n#define MOCK_MINOR PJRT_API_MINOR\n#endif\n")
	b.WriteString("#ifndef MOCK_SIZE\n#define MOCK_SIZE PJRT_Api_STRUCT_SIZE\n#endif\n")
	for _, s := range h.Slots() {
		if impl[s.Name] {
			fmt.Fprintf(&b, "%s mock_%s;\n", s.Name, s.Name)
		}
	}
	b.WriteString("PJRT_Api mock_api = {\n  .struct_size = MOCK_SIZE,\n")
	b.WriteString("  .pjrt_api_version = {.struct_size = PJRT_Api_Version_STRUCT_SIZE, .major_version = PJRT_API_MAJOR, .minor_version = MOCK_MINOR},\n")
	for _, s := range h.Slots() {
		if impl[s.Name] {
			fmt.Fprintf(&b, "  .%s = mock_%s,\n", s.Name, s.Name)
		}
	}
	b.WriteString("};\n")
	sub := filepath.Join(dir, strings.TrimSuffix(name, ".so"))
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return "", err
	}
	table := filepath.Join(sub, "table.c")
	if err := os.WriteFile(table, []byte(b.String()), 0o644); err != nil {
		return "", err
	}
	capiDir, _ := filepath.Abs("capi")
	out := filepath.Join(dir, name)
	args := append([]string{"-std=c11", "-D_GNU_SOURCE", "-Wall", "-Werror", "-shared", "-fPIC", "-fvisibility=hidden",
		"-I", capiDir, "-o", out, filepath.Join("testdata", "mockplugin", "mock_plugin.c"), table}, defs...)
	if msg, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the mock plugin: %v\n%s", err, msg)
	}
	return out, nil
}

func loadMock(t *testing.T) *Plugin {
	t.Helper()
	path, _ := mockPluginPaths(t)
	p, err := LoadPlugin(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mockCounter(t *testing.T, p *Plugin, name string) int {
	t.Helper()
	n, ok := p.callIntSymbol(name)
	if !ok {
		t.Fatalf("mock plugin has no %s", name)
	}
	return n
}

// expectClean waits (collecting garbage, so that cleanups run) until the
// mock holds no live objects, and checks it saw no violations.
func expectClean(t *testing.T, p *Plugin) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		if mockCounter(t, p, "mock_live_objects") == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if n := mockCounter(t, p, "mock_live_objects"); n != 0 {
		t.Errorf("mock plugin: %d objects still live", n)
	}
	if n := mockCounter(t, p, "mock_violations"); n != 0 {
		t.Errorf("mock plugin: %d violations of the API contract (see stderr)", n)
	}
}

// testLiteral is a literal of type t whose elements are distinct, valid
// values (no NaN payloads that a device might canonicalize).
func testLiteral(t ir.Type) *ir.Literal {
	n := t.NumElements()
	data := reflect.MakeSlice(reflect.SliceOf(ir.GoElemType(t.DType)), n, n)
	for i := range n {
		v := data.Index(i)
		x := float64(i%50) - 12.5
		switch t.DType {
		case ir.Bool:
			v.SetBool(i%3 == 0)
		case ir.F16:
			v.Set(reflect.ValueOf(float16.Fromfloat32(float32(x))))
		case ir.BF16:
			v.Set(reflect.ValueOf(ir.BFloat16FromFloat32(float32(x))))
		case ir.F32, ir.F64:
			v.SetFloat(x)
		case ir.C64, ir.C128:
			v.SetComplex(complex(x, -2*x))
		default:
			if t.DType.IsSigned() {
				v.SetInt(int64(i%100) - 50)
			} else {
				v.SetUint(uint64(i*7) % 200)
			}
		}
	}
	return ir.MustLiteral(t, data.Interface())
}

// mustBytes is literalBytes for tests.
func mustBytes(t *testing.T, l *ir.Literal) []byte {
	t.Helper()
	b, err := literalBytes(l)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
