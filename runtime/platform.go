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
	var opts []pjrt.NamedValue
	switch {
	case p.key == "cpu":
		path, err := cpu.PluginPath()
		if err != nil {
			return fmt.Errorf("stela cpu plugin: %w", err)
		}
		p.path = path
		wo, err := cpu.WorkerOptions()
		if err != nil {
			return fmt.Errorf("stela cpu plugin: %w", err)
		}
		opts = append(opts, wo...)
		n := int64(DefaultCPUDevices)
		if s := os.Getenv(EnvCPUDevices); s != "" {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil || v < 1 {
				return fmt.Errorf("stela cpu plugin: %s=%q: want a positive integer", EnvCPUDevices, s)
			}
			n = v
		}
		opts = append(opts, pjrt.NamedValue{Name: "cpu_device_count", Value: n})
	case strings.ContainsRune(p.key, filepath.Separator) || strings.HasSuffix(p.key, ".so"):
		p.path = p.key
		if filepath.Base(p.key) == cpuPluginFile {
			// Stela's CPU plugin by path needs this program as its worker too.
			wo, err := cpu.WorkerOptions()
			if err != nil {
				return fmt.Errorf("stela cpu plugin: %w", err)
			}
			opts = append(opts, wo...)
		}
	default:
		path, err := pjrt.FindPlugin(p.key)
		if err != nil {
			return err
		}
		p.path = path
	}
	plugin, err := pjrt.LoadPlugin(p.path)
	if err != nil {
		return err
	}
	p.plugin = plugin
	client, err := plugin.NewClient(opts...)
	if err != nil {
		return err
	}
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

const cpuPluginFile = "pjrt_c_api_stela_cpu_plugin.so"

// LiveBuffers returns how many buffers the Stela CPU plugin holds memory
// for, over all its clients in this process (its stela_cpu_live_buffers
// extension). ok is false
// when the device is not on a plugin that counts.
func LiveBuffers(device string) (n int64, ok bool) {
	d, err := Lookup(device)
	if err != nil {
		return 0, false
	}
	pd, isPJRT := d.(*pjrtDevice)
	if !isPJRT {
		return 0, false
	}
	fn, ok := pd.p.plugin.Int64Func("stela_cpu_live_buffers")
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
