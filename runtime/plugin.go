package runtime

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/pjrt"
)

// PluginProvider says where a family's PJRT plugin is and how to make its
// clients: what a backend package for a PJRT plugin registers
// (RegisterPlugin), such as runtime/stelacpu for Stela's CPU plugin.
type PluginProvider struct {
	// Path returns the plugin file's path, building or unpacking it
	// first if need be. Nil: pjrt.FindPlugin finds the family's name.
	Path func() (string, error)
	// Options returns the create options of the plugin's clients. Nil:
	// those of $STELA_PJRT_OPTIONS (ParsePJRTOptions).
	Options func() ([]pjrt.NamedValue, error)
	// File is the plugin's file name: a plugin opened by a path whose
	// last element is File gets this provider's Options too. Empty:
	// only the family's name finds this provider.
	File string
	// NoSPMD says that the plugin's compiler has no SPMD partitioner:
	// CompileSpec.SPMD is refused with an error that says so, rather
	// than a program whose shardings are ignored.
	NoSPMD bool
	// MoreDevices is a hint for looking up a device index past the
	// family's devices ("set STELA_CPU_DEVICES to have more").
	MoreDevices string
}

// The providers by family name, and by file name.
var providers = struct {
	sync.Mutex
	byFamily, byFile map[string]*PluginProvider
}{byFamily: map[string]*PluginProvider{}, byFile: map[string]*PluginProvider{}}

// RegisterPlugin makes the PJRT plugin p provides the backend of the
// device family name (RegisterBackend, with the runtime's PJRT backend):
// Lookup("NAME:N") opens it, and OpenClient(name) makes clients of it. It
// panics when the family already has a backend.
func RegisterPlugin(name string, p PluginProvider) {
	prov := &p
	RegisterBackend(name, pluginBackend{prov: prov})
	providers.Lock()
	defer providers.Unlock()
	providers.byFamily[name] = prov
	if p.File != "" {
		providers.byFile[p.File] = prov
	}
}

// providerOfPath is the provider a plugin opened by name (a family
// without a registered backend: "cuda", "tpu") or by path gets: the one
// registered for its file name, else the default (FindPlugin,
// $STELA_PJRT_OPTIONS).
func providerOfPath(name string) *PluginProvider {
	providers.Lock()
	defer providers.Unlock()
	if isPath(name) {
		if p := providers.byFile[filepath.Base(name)]; p != nil {
			return p
		}
	}
	return &PluginProvider{}
}

// isPath reports whether a plugin name is a file's path.
func isPath(name string) bool {
	return strings.ContainsRune(name, filepath.Separator) || strings.HasSuffix(name, ".so")
}

// pluginBackend is the runtime's PJRT backend for one plugin.
type pluginBackend struct{ prov *PluginProvider }

func (b pluginBackend) Open(name string) (Platform, error) {
	p := &platform{key: name, prov: b.prov}
	if err := p.open(); err != nil {
		return nil, &openError{path: p.path, err: err}
	}
	return p, nil
}

// openError is a plugin that could not be opened, with its file's path
// when it was found (`stela devices` prints it).
type openError struct {
	path string
	err  error
}

func (e *openError) Error() string { return e.err.Error() }
func (e *openError) Unwrap() error { return e.err }

// A platform is one PJRT plugin's client and its devices, opened on first
// use and kept for the life of the process (plugins are never unloaded).
type platform struct {
	key    string // the family: "cpu", "cuda", "tpu" or the plugin path
	prov   *PluginProvider
	path   string
	client *pjrt.Client
	plugin *pjrt.Plugin

	devices []*pjrtDevice
	devs    []Device   // the same, as Devices returns them
	cache   *execCache // by program hash
	// byIR holds the same programs by their IR's text (irKey): a
	// program compiled before is found without lowering it again.
	byIR *execCache
	ops  *execCache // eager one-op programs, by op key
	// opsHot is a direct-mapped cache in front of ops (hotOp).
	opsHot [opsHotSize]atomic.Pointer[hotOp]
	// identity goes into every program hash: the same text compiled by
	// another plugin or version is another executable.
	identity string
	// compileOpts are the options every single-device program is
	// compiled with (a portable executable), serialized once for the
	// hash.
	compileOpts      pjrt.CompileOptions
	compileOptsBytes []byte
	// node and nodes: this process and the job's process count, for a
	// client of the Stela CPU plugin opened in a job (nodes 0 otherwise).
	node, nodes int
}

func (p *platform) open() error {
	client, path, err := openClient(p.key, p.prov, nil)
	p.path = path
	if err != nil {
		return err
	}
	p.plugin = client.Plugin()
	p.client = client
	if d, _, ok, _ := pjrtDistributed(p.key); ok && p.key == "cpu" {
		// Device assignments name the job's devices (GlobalFamilyDevices).
		p.node, p.nodes = d.NodeID, d.NumNodes
	}
	p.identity = fmt.Sprintf("%s %s %s", client.PlatformName(), client.PlatformVersion(), p.path)
	if p.compileOptsBytes, err = p.compileOpts.Marshal(); err != nil {
		return err
	}
	for _, d := range client.AddressableDevices() {
		pd := &pjrtDevice{
			p:    p,
			dev:  d,
			name: fmt.Sprintf("%s:%d", p.key, len(p.devices)),
		}
		p.devices = append(p.devices, pd)
		p.devs = append(p.devs, pd)
	}
	if len(p.devices) == 0 {
		return fmt.Errorf("plugin %s has no addressable devices", p.path)
	}
	p.cache = newExecCache(cacheSize())
	p.byIR = newExecCache(cacheSize())
	p.ops = newExecCache(4 * cacheSize())
	return nil
}

// Devices are the plugin's addressable devices.
func (p *platform) Devices() []Device { return p.devs }

// Version is the plugin's platform name and version.
func (p *platform) Version() string {
	return p.client.PlatformName() + " " + p.client.PlatformVersion()
}

// moreDevices is the provider's hint for a device index past the end.
func (p *platform) moreDevices() string { return p.prov.MoreDevices }

// OpenClient loads a plugin and makes a new client of it: name is a
// family with a registered provider ("cpu", with runtime/stelacpu
// imported), a plugin name pjrt.FindPlugin resolves ("cuda", "tpu"), or a
// plugin's path (which gets the options of the provider registered for
// its file name). The client gets its provider's options, then extra,
// which replace options of the same name (for Stela's CPU plugin,
// cpu_device_count: stelacpu.DeviceCount). The plugin file's path comes
// back even when the client could not be made, for messages.
//
// Plugins without a provider get the client options in
// $STELA_PJRT_OPTIONS (ParsePJRTOptions): "preallocate=false,
// memory_fraction=0.5" for XLA's CUDA plugin, which otherwise takes 75%
// of the GPU's memory per process.
func OpenClient(name string, extra ...pjrt.NamedValue) (client *pjrt.Client, path string, err error) {
	providers.Lock()
	prov := providers.byFamily[name]
	providers.Unlock()
	if prov == nil {
		prov = providerOfPath(name)
	}
	return openClient(name, prov, extra)
}

// openClient is OpenClient with the provider found.
func openClient(name string, prov *PluginProvider, extra []pjrt.NamedValue) (client *pjrt.Client, path string, err error) {
	if err := env.Err(); err != nil {
		return nil, "", err
	}
	switch {
	case isPath(name):
		path = name
	case prov.Path != nil:
		if path, err = prov.Path(); err != nil {
			return nil, "", err
		}
	default:
		if path, err = pjrt.FindPlugin(name); err != nil {
			return nil, "", err
		}
	}
	var opts []pjrt.NamedValue
	if prov.Options != nil {
		if opts, err = prov.Options(); err != nil {
			return nil, path, err
		}
		opts = slices.Clone(opts) // extra may replace some
	} else if env := os.Getenv(EnvPJRTOptions); env != "" {
		if opts, err = ParsePJRTOptions(env); err != nil {
			return nil, path, fmt.Errorf("%s: %w", EnvPJRTOptions, err)
		}
	}
	for _, e := range extra {
		opts = slices.DeleteFunc(opts, func(o pjrt.NamedValue) bool { return o.Name == e.Name })
		opts = append(opts, e)
	}
	plugin, err := pjrt.LoadPlugin(path)
	if err != nil {
		return nil, path, err
	}
	d, dextra, ok, err := pjrtDistributed(name)
	if err != nil {
		return nil, path, err
	}
	if ok {
		for _, e := range dextra {
			opts = slices.DeleteFunc(opts, func(o pjrt.NamedValue) bool { return o.Name == e.Name })
			opts = append(opts, e)
		}
		client, err = plugin.NewDistributedClient(d, opts...)
	} else {
		client, err = plugin.NewClient(opts...)
	}
	return client, path, err
}

// LiveBuffers returns how many buffers the Stela CPU plugin holds memory
// for, over all its clients in this process (its stela_cpu_live_buffers
// extension). ok is false
// when the device is not on a plugin that counts.
func LiveBuffers(device string) (n int64, ok bool) {
	return pluginCounter(device, "stela_cpu_live_buffers")
}

// LiveBytes returns the bytes of those buffers (the arrays' sizes; its
// stela_cpu_live_bytes extension): what a program's buffers hold now, for
// measuring memory use, such as what buffer donation saves. ok is false
// when the device is not on a plugin that counts.
func LiveBytes(device string) (n int64, ok bool) {
	return pluginCounter(device, "stela_cpu_live_bytes")
}

// MachineBound runs one of the Stela CPU plugin's machine-bound
// measurements (`stela bench`, docs/performance.md): "copy" is the rate
// in bytes/s at which its thread pool's threads copy one array of arg
// bytes to another (STREAM's copy, reads and writes counted), "fma" the
// peak f32 rate in FLOP/s of arg iterations of independent FMA chains on
// each thread. ok is false when the device is not on a plugin that has
// them, or the measurement failed.
func MachineBound(device, what string, arg int64) (v float64, ok bool) {
	d, err := Lookup(device)
	if err != nil {
		return 0, false
	}
	pd, isPJRT := d.(*pjrtDevice)
	if !isPJRT {
		return 0, false
	}
	fn, ok := pd.p.plugin.Int64Func1("stela_cpu_bound_" + what)
	if !ok {
		return 0, false
	}
	n := fn(arg)
	return float64(n), n > 0
}

// pluginCounter calls the plugin's int64_t name(void) extension.
func pluginCounter(device, name string) (int64, bool) {
	d, err := Lookup(device)
	if err != nil {
		return 0, false
	}
	pd, isPJRT := d.(*pjrtDevice)
	if !isPJRT {
		return 0, false
	}
	fn, ok := pd.p.plugin.Int64Func(name)
	if !ok {
		return 0, false
	}
	return fn(), true
}

// PlatformStatus describes one platform for `stela devices`.
type PlatformStatus struct {
	Name    string   // the family: "cpu", "cuda", "tpu" or a path
	Path    string   // the plugin file, when found (PJRT platforms)
	Version string   // platform name and version, when opened
	Devices []string // device names, when opened
	Err     error    // why it is not usable
}

// Platforms opens (if not yet open) and describes every family with a
// registered backend, "cuda" and "tpu", plus any other family opened so
// far: "cpu", "cuda" and "tpu" first, then the others sorted.
func Platforms() []PlatformStatus {
	names := append([]string{"cuda", "tpu"}, Backends()...)
	for _, n := range names {
		_, _ = openFamily(n)
	}
	type opened struct {
		name string
		plat Platform
		err  error
	}
	var list []opened
	families.Lock()
	for n, f := range families.open {
		if f.done.Load() { // else being opened by another goroutine
			list = append(list, opened{n, f.plat, f.err})
		}
	}
	families.Unlock()
	first := map[string]int{"cpu": 0, "cuda": 1, "tpu": 2}
	slices.SortFunc(list, func(a, b opened) int {
		ra, oka := first[a.name]
		rb, okb := first[b.name]
		switch {
		case oka && okb:
			return ra - rb
		case oka:
			return -1
		case okb:
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	var out []PlatformStatus
	for _, f := range list {
		st := PlatformStatus{Name: f.name, Err: f.err}
		var oe *openError
		if errors.As(f.err, &oe) {
			st.Path = oe.path
		}
		if f.err == nil {
			st.Version = f.plat.Version()
			if p, ok := f.plat.(*platform); ok {
				st.Path = p.path
			}
			for _, d := range f.plat.Devices() {
				s := d.Name()
				if pd, ok := d.(*pjrtDevice); ok {
					s += " (" + pd.dev.Kind() + ")"
				}
				st.Devices = append(st.Devices, s)
			}
		}
		out = append(out, st)
	}
	return out
}

func cacheSize() int {
	if s := os.Getenv("STELA_EXEC_CACHE_SIZE"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n
		}
	}
	return 1024
}

// EnvPJRTOptions holds client options for plugins other than Stela's CPU
// plugin, in ParsePJRTOptions' form.
const EnvPJRTOptions = "STELA_PJRT_OPTIONS"

// ParsePJRTOptions parses "name=value,name=value" into PJRT client
// options. A value's form gives its type, as PJRT's named values have
// them: true or false is a bool, an integer an int64, another number a
// float32 (PJRT's only float), a list of integers in brackets ("[0,1]")
// an int64 list, and anything else a string.
func ParsePJRTOptions(s string) ([]pjrt.NamedValue, error) {
	var opts []pjrt.NamedValue
	for len(s) > 0 {
		var item string
		if i := strings.IndexByte(s, '='); i >= 0 && i+1 < len(s) && s[i+1] == '[' {
			j := strings.IndexByte(s, ']')
			if j < 0 {
				return nil, fmt.Errorf("option %q: no closing ]", s)
			}
			item, s = s[:j+1], strings.TrimPrefix(s[j+1:], ",")
		} else if i := strings.IndexByte(s, ','); i >= 0 {
			item, s = s[:i], s[i+1:]
		} else {
			item, s = s, ""
		}
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, val, ok := strings.Cut(item, "=")
		name, val = strings.TrimSpace(name), strings.TrimSpace(val)
		if !ok || name == "" {
			return nil, fmt.Errorf("option %q: want name=value", item)
		}
		opts = append(opts, pjrt.NamedValue{Name: name, Value: parsePJRTValue(val)})
	}
	return opts, nil
}

func parsePJRTValue(v string) any {
	switch v {
	case "true":
		return true
	case "false":
		return false
	}
	if i, err := strconv.ParseInt(v, 10, 64); err == nil {
		return i
	}
	if f, err := strconv.ParseFloat(v, 32); err == nil {
		return float32(f)
	}
	if inner, ok := strings.CutPrefix(v, "["); ok {
		if inner, ok = strings.CutSuffix(inner, "]"); ok {
			list := []int64{}
			for _, e := range strings.Split(inner, ",") {
				if e = strings.TrimSpace(e); e == "" {
					continue
				}
				n, err := strconv.ParseInt(e, 10, 64)
				if err != nil {
					return v
				}
				list = append(list, n)
			}
			return list
		}
	}
	return v
}
