package runtime

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
	"github.com/stela-ml/stela/pjrt/cpu"
)

// EnvCPUDevices sets how many virtual devices the Stela CPU plugin has
// (default DefaultCPUDevices).
const EnvCPUDevices = "STELA_CPU_DEVICES"

// DefaultCPUDevices is the number of virtual CPU devices when
// STELA_CPU_DEVICES is unset. Virtual devices share the plugin's thread
// pool and cost nothing until used; more than one lets "cpu:1" and
// multi-device programs work out of the box.
const DefaultCPUDevices = 4

// A platform is one PJRT plugin's client and its devices, opened on first
// use and kept for the life of the process (plugins are never unloaded).
type platform struct {
	key    string // "cpu", "cuda", "tpu" or the plugin path
	path   string
	client *pjrt.Client
	plugin *pjrt.Plugin
	err    error

	devices []*pjrtDevice
	cache   *execCache // by program hash
	ops     *execCache // eager one-op programs, by op key
	// identity goes into every program hash: the same text compiled by
	// another plugin or version is another executable.
	identity string
	// compileOpts are the options every program is compiled with (a
	// portable single-device executable), serialized once for the hash.
	compileOpts      pjrt.CompileOptions
	compileOptsBytes []byte
}

var platforms = struct {
	sync.Mutex
	byKey map[string]*platform
}{byKey: map[string]*platform{}}

// openPlatform returns the platform called key, opening it the first
// time. A failure is remembered: the plugin is not retried.
func openPlatform(key string) (*platform, error) {
	platforms.Lock()
	defer platforms.Unlock()
	if p, ok := platforms.byKey[key]; ok {
		return p, p.err
	}
	p := &platform{key: key}
	p.err = p.open()
	platforms.byKey[key] = p
	return p, p.err
}

func (p *platform) open() error {
	n := 0
	if p.key == "cpu" {
		n = DefaultCPUDevices
		if s := os.Getenv(EnvCPUDevices); s != "" {
			v, err := strconv.Atoi(s)
			if err != nil || v < 1 {
				return fmt.Errorf("stela cpu plugin: %s=%q: want a positive integer", EnvCPUDevices, s)
			}
			n = v
		}
	}
	client, path, err := OpenClient(p.key, n)
	p.path = path
	if err != nil {
		return err
	}
	p.plugin = client.Plugin()
	p.client = client
	p.identity = fmt.Sprintf("%s %s %s", client.PlatformName(), client.PlatformVersion(), p.path)
	if p.compileOptsBytes, err = p.compileOpts.Marshal(); err != nil {
		return err
	}
	for _, d := range client.AddressableDevices() {
		p.devices = append(p.devices, &pjrtDevice{
			p:    p,
			dev:  d,
			name: fmt.Sprintf("%s:%d", p.key, len(p.devices)),
		})
	}
	if len(p.devices) == 0 {
		return fmt.Errorf("plugin %s has no addressable devices", p.path)
	}
	p.cache = newExecCache(cacheSize())
	p.ops = newExecCache(4 * cacheSize())
	return nil
}

// cpuPluginFile is the file name of Stela's CPU plugin (cpu.PluginPath).
var cpuPluginFile = "pjrt_c_api_" + cpu.PluginName + "_plugin.so"

// OpenClient loads a plugin and makes a client of it. name is "cpu"
// (Stela's CPU plugin, built on first use, with cpuDevices virtual devices;
// 0 leaves the count to the plugin: $STELA_CPU_DEVICES, else 1), a plugin
// name that pjrt.FindPlugin resolves ("cuda", "tpu"), or a plugin's path.
// Stela's CPU plugin, by name or by path, gets this program as its compile
// worker. The plugin file's path comes back even when the client could
// not be made, for messages.
//
// Other plugins get the client options in $STELA_PJRT_OPTIONS
// (ParsePJRTOptions): "preallocate=false,memory_fraction=0.5" for XLA's
// CUDA plugin, which otherwise takes 75% of the GPU's memory per process.
func OpenClient(name string, cpuDevices int) (client *pjrt.Client, path string, err error) {
	if err := env.Err(); err != nil {
		return nil, "", err
	}
	var opts []pjrt.NamedValue
	switch {
	case name == "cpu":
		if path, err = cpu.PluginPath(); err != nil {
			return nil, "", fmt.Errorf("stela cpu plugin: %w", err)
		}
		if cpuDevices > 0 {
			opts = append(opts, pjrt.NamedValue{Name: "cpu_device_count", Value: int64(cpuDevices)})
		}
	case strings.ContainsRune(name, filepath.Separator) || strings.HasSuffix(name, ".so"):
		path = name
	default:
		if path, err = pjrt.FindPlugin(name); err != nil {
			return nil, "", err
		}
	}
	if filepath.Base(path) == cpuPluginFile {
		wo, err := cpu.WorkerOptions()
		if err != nil {
			return nil, path, fmt.Errorf("stela cpu plugin: %w", err)
		}
		opts = append(opts, wo...)
	} else if env := os.Getenv(EnvPJRTOptions); env != "" {
		eo, err := ParsePJRTOptions(env)
		if err != nil {
			return nil, path, fmt.Errorf("%s: %w", EnvPJRTOptions, err)
		}
		opts = append(opts, eo...)
	}
	plugin, err := pjrt.LoadPlugin(path)
	if err != nil {
		return nil, path, err
	}
	client, err = plugin.NewClient(opts...)
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

// ProgramHash is the stable key of a compiled program: SHA-256 over the
// StableHLO text, the compile options and the plugin's identity (platform
// name, version, path), in hex. The same program gets the same hash in
// every process; `stela hash` prints it.
func ProgramHash(identity string, stablehlo string, options []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "stela-program-v1\x00%s\x00%d\x00", identity, len(options))
	h.Write(options)
	h.Write([]byte(stablehlo))
	return hex.EncodeToString(h.Sum(nil))
}

// PlatformStatus describes one PJRT platform for `stela devices`.
type PlatformStatus struct {
	Name    string   // "cpu", "cuda", "tpu" or a path
	Path    string   // the plugin file, when found
	Version string   // platform name and version, when opened
	Devices []string // device names, when opened
	Err     error    // why it is not usable
}

// Platforms opens (if not yet open) and describes the Stela CPU plugin,
// "cuda" and "tpu", plus any other platform opened so far.
func Platforms() []PlatformStatus {
	keys := []string{"cpu", "cuda", "tpu"}
	for _, k := range keys {
		_, _ = openPlatform(k)
	}
	platforms.Lock()
	for k := range platforms.byKey {
		if k != "cpu" && k != "cuda" && k != "tpu" {
			keys = append(keys, k)
		}
	}
	var out []PlatformStatus
	for _, k := range keys {
		p := platforms.byKey[k]
		st := PlatformStatus{Name: k, Path: p.path, Err: p.err}
		if p.err == nil {
			st.Version = p.client.PlatformName() + " " + p.client.PlatformVersion()
			for _, d := range p.devices {
				st.Devices = append(st.Devices, d.name+" ("+d.dev.Kind()+")")
			}
		}
		out = append(out, st)
	}
	platforms.Unlock()
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

// HashOf returns the program hash under which the named device's platform
// caches f (ProgramHash of f's StableHLO), without compiling it.
func HashOf(device string, f *ir.Func) (string, error) {
	text, err := StableHLO(f)
	if err != nil {
		return "", err
	}
	return HashOfText(device, text)
}

// HashOfText is HashOf for StableHLO text in the form StableHLO prints.
func HashOfText(device, text string) (string, error) {
	d, err := Lookup(device)
	if err != nil {
		return "", err
	}
	pd, ok := d.(*pjrtDevice)
	if !ok {
		return "", fmt.Errorf("device %s has no program cache", d.Name())
	}
	return pd.p.hash(text), nil
}

// hash is ProgramHash of a program text compiled with the platform's
// compile options.
func (p *platform) hash(text string) string {
	return ProgramHash(p.identity, text, p.compileOptsBytes)
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
