package pjrt

/*
#include "pjrt_cgo.h"
*/
import "C"

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/stela-ml/stela/pjrt/capi"
)

// Plugin is a loaded PJRT plugin: a shared library, its PJRT_Api table and
// its attributes. A plugin is loaded and initialized once per process and
// never unloaded (real plugins start threads that outlive any client), so a
// *Plugin is valid for the life of the process and safe for concurrent use.
type Plugin struct {
	path         string
	handle       unsafe.Pointer
	api          *C.PJRT_Api
	apiSize      int
	major, minor int
	slots        [numSlots]bool
	attrs        []NamedValue
	// destroyBuffer is destroyBufferPtr bound to this plugin, made once.
	destroyBuffer func(unsafe.Pointer)
	// cancelFn is the plugin's execute-context cancel extension, or nil
	// (execctx.go), looked up once.
	cancelOnce sync.Once
	cancelFn   unsafe.Pointer
	// leanFn is the plugin's lean execute entry (stela_cpu_execute_lean,
	// lean.go), or nil; leanOff turns its use off.
	leanFn  unsafe.Pointer
	leanOff atomic.Bool
}

// plugins holds every library this process loaded, with the outcome.
var plugins struct {
	sync.Mutex
	loaded []*loadResult
}

type loadResult struct {
	file os.FileInfo // identifies the file, whatever path reached it
	p    *Plugin
	err  error
}

// EnvPluginPath is the environment variable holding directories (separated
// by the OS list separator) searched first for plugins named by name.
const EnvPluginPath = "STELA_PJRT_PLUGIN_PATH"

// SearchPath returns the directories FindPlugin searches, in order:
// $STELA_PJRT_PLUGIN_PATH, $PJRT_PLUGIN_LIBRARY_PATH (gopjrt's variable),
// ~/.local/lib/gomlx/pjrt, /usr/local/lib/gomlx/pjrt (where gopjrt's
// installers put plugins), then the absolute entries of $LD_LIBRARY_PATH.
func SearchPath() []string {
	var dirs []string
	add := func(list string) {
		for _, d := range filepath.SplitList(list) {
			if d != "" && filepath.IsAbs(d) {
				dirs = append(dirs, d)
			}
		}
	}
	add(os.Getenv(EnvPluginPath))
	add(os.Getenv("PJRT_PLUGIN_LIBRARY_PATH"))
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".local", "lib", "gomlx", "pjrt"))
	}
	dirs = append(dirs, "/usr/local/lib/gomlx/pjrt")
	add(os.Getenv("LD_LIBRARY_PATH"))
	return dirs
}

// pluginFileNames are the file names a plugin called name may have: the
// conventions gopjrt also searches, then the names the real plugins ship
// under (libtpu.so in the libtpu wheel, xla_cuda_plugin.so in the
// jax-cuda*-pjrt wheels).
func pluginFileNames(name string) []string {
	names := []string{
		"pjrt_c_api_" + name + "_plugin.so",
		"pjrt-plugin-" + name + ".so",
		"pjrt_plugin_" + name + ".so",
	}
	switch name {
	case "tpu":
		names = append(names, "libtpu.so", filepath.Join("libtpu", "libtpu.so"))
	case "cuda":
		names = append(names, "xla_cuda_plugin.so",
			filepath.Join("jax_plugins", "xla_cuda13", "xla_cuda_plugin.so"),
			filepath.Join("jax_plugins", "xla_cuda12", "xla_cuda_plugin.so"))
	}
	return names
}

// FindPlugin returns the path of the plugin called name: the first file in
// SearchPath named pjrt_c_api_NAME_plugin.so, pjrt-plugin-NAME.so or
// pjrt_plugin_NAME.so (or, for "tpu" and "cuda", the file names of the
// libtpu and jax-cuda*-pjrt wheels). Names are taken literally: "cpu" is
// XLA's CPU plugin, Stela's is "stela_cpu".
func FindPlugin(name string) (string, error) {
	if name == "" || strings.ContainsAny(name, `/\`) {
		return "", errorf("FindPlugin", CodeInvalidArgument, "invalid plugin name %q", name)
	}
	dirs := SearchPath()
	for _, dir := range dirs {
		for _, f := range pluginFileNames(name) {
			path := filepath.Join(dir, f)
			if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
				return path, nil
			}
		}
	}
	return "", errorf("FindPlugin", CodeNotFound, "no plugin %q (looked for %s in %s; set %s or give a path)",
		name, strings.Join(pluginFileNames(name)[:3], ", "), strings.Join(dirs, string(os.PathListSeparator)), EnvPluginPath)
}

// LoadPlugin loads the plugin nameOrPath: a path if it contains a path
// separator or ends in ".so", else a name for FindPlugin. Loading dlopens
// the library, calls GetPjrtApi, checks the API version (major 0; any minor:
// calls the plugin's table lacks fail with ErrUnimplemented), calls
// PJRT_Plugin_Initialize and reads the plugin's attributes. All of this
// happens once per library and process: loading the same file again (by any
// name or symlink) returns the same *Plugin, or the same error.
func LoadPlugin(nameOrPath string) (*Plugin, error) {
	path := nameOrPath
	if !strings.ContainsRune(nameOrPath, os.PathSeparator) && !strings.HasSuffix(nameOrPath, ".so") {
		var err error
		if path, err = FindPlugin(nameOrPath); err != nil {
			return nil, err
		}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, errorf("LoadPlugin", CodeInvalidArgument, "%v", err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	} else {
		return nil, errorf("LoadPlugin", CodeNotFound, "plugin %s: %v", path, err)
	}
	file, err := os.Stat(abs)
	if err != nil {
		return nil, errorf("LoadPlugin", CodeNotFound, "plugin %s: %v", path, err)
	}

	plugins.Lock()
	defer plugins.Unlock()
	// The same file reached by another path (a hard link, a copy mounted
	// twice) is the same library to dlopen: initialize it once too.
	for _, r := range plugins.loaded {
		if os.SameFile(r.file, file) {
			if r.err != nil {
				return nil, r.err
			}
			return r.p, nil
		}
	}
	p, err := load(abs)
	if p == nil && err != nil {
		// The library did not load (a missing dependency, say): nothing
		// ran in it, so a later try may succeed.
		return nil, err
	}
	plugins.loaded = append(plugins.loaded, &loadResult{file: file, p: p, err: err})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// load returns (nil, err) when the library could not be opened, and
// (p, err) when it was opened but its initialization failed: that outcome
// is final for the process.
func load(path string) (*Plugin, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var cerr *C.char
	// Fail fast on unresolved symbols in Stela's own plugin; third-party
	// plugins are opened lazily, as gopjrt and JAX do.
	now := C.int(0)
	if strings.Contains(filepath.Base(path), "stela") {
		now = 1
	}
	handle := C.stela_dlopen(cpath, now, &cerr)
	if handle == nil {
		defer C.free(unsafe.Pointer(cerr))
		return nil, errorf("LoadPlugin", CodeNotFound, "dlopen %s: %s", path, C.GoString(cerr))
	}
	// The handle is never closed: plugins start threads and register
	// global state that must outlive every client.
	api := C.stela_get_api(handle, &cerr)
	if api == nil {
		msg := "GetPjrtApi returned NULL"
		if cerr != nil {
			msg = C.GoString(cerr)
			C.free(unsafe.Pointer(cerr))
		}
		return &Plugin{path: path}, errorf("LoadPlugin", CodeFailedPrecondition, "%s: %s", path, msg)
	}
	p := &Plugin{path: path, handle: handle, api: api}
	p.destroyBuffer = p.destroyBufferPtr
	p.leanFn = lookupLean(handle)
	p.initLean()
	var size C.size_t
	var major, minor C.int
	C.stela_api_head(api, &size, &major, &minor)
	p.apiSize, p.major, p.minor = int(size), int(major), int(minor)
	if p.major != capi.APIMajor {
		return p, errorf("LoadPlugin", CodeFailedPrecondition, "%s: PJRT C API %d.%d, this client speaks %d.x",
			path, p.major, p.minor, capi.APIMajor)
	}
	for i := range p.slots {
		p.slots[i] = C.stela_has_slot(api, C.size_t(i)) != 0
	}
	for _, s := range []int{slotErrorDestroy, slotErrorMessage} {
		if !p.slots[s] {
			return p, errorf("LoadPlugin", CodeFailedPrecondition, "%s: API table lacks %s", path, slotNames[s])
		}
	}
	// Initialize was added in API 0.10-something; a plugin without it
	// needs none.
	if p.slots[slotPluginInitialize] {
		var args C.PJRT_Plugin_Initialize_Args
		if err := p.callPluginInitialize(&args); err != nil {
			return p, fmt.Errorf("pjrt: load %s: %w", path, err)
		}
	}
	var aargs C.PJRT_Plugin_Attributes_Args
	switch err := p.callPluginAttributes(&aargs); {
	case err == nil:
		p.attrs = namedValuesFromC(aargs.attributes, aargs.num_attributes)
	case isCode(err, CodeUnimplemented):
	default:
		return p, fmt.Errorf("pjrt: load %s: %w", path, err)
	}
	return p, nil
}

// Path is the absolute path of the loaded library (symlinks resolved).
func (p *Plugin) Path() string { return p.path }

// APIVersion is the PJRT C API version the plugin implements. It may be
// older or newer than the header's (capi.APIMajor, capi.APIMinor).
func (p *Plugin) APIVersion() (major, minor int) { return p.major, p.minor }

// Attributes are the plugin's attributes (PJRT_Plugin_Attributes), e.g.
// xla_version, stablehlo_current_version. The slice is shared: do not
// modify it.
func (p *Plugin) Attributes() []NamedValue { return p.attrs }

// Attribute returns the value of the attribute called name.
func (p *Plugin) Attribute(name string) (any, bool) { return lookupNamed(p.attrs, name) }

// Has reports whether the plugin provides the PJRT function fn (a slot
// name such as "PJRT_Client_Compile"): it is within the plugin's API table
// and not NULL. Calls through a function the plugin lacks fail with
// ErrUnimplemented.
func (p *Plugin) Has(fn string) bool {
	for i, n := range slotNames {
		if n == fn {
			return p.slots[i]
		}
	}
	return false
}

func (p *Plugin) String() string {
	return fmt.Sprintf("%s (PJRT C API %d.%d)", p.path, p.major, p.minor)
}

// symbol looks up a symbol of the plugin library (test hook).
func (p *Plugin) symbol(name string) unsafe.Pointer {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	return C.dlsym(p.handle, cname)
}

// callIntSymbol calls `int name(void)` in the plugin library (test hook).
func (p *Plugin) callIntSymbol(name string) (int, bool) {
	fn := p.symbol(name)
	if fn == nil {
		return 0, false
	}
	return int(C.stela_call_int_fn(fn)), true
}

func isCode(err error, code ErrorCode) bool {
	e, ok := err.(*Error)
	return ok && e.Code == code
}
