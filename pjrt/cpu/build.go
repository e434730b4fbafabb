package cpu

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/stela-ml/stela/pjrt/capi"
	"github.com/stela-ml/stela/pjrt/cpu/internal/rt"
)

// The plugin's C sources, built on first use (docs/cpu-plugin.md,
// "Building the plugin").
//
//go:embed csrc/*.c csrc/*.h
var csrc embed.FS

const (
	// PluginName is the name package pjrt's FindPlugin and gopjrt's
	// GetPlugin know the plugin by (never "cpu", which is XLA's).
	PluginName = "stela_cpu"
	// PluginFile is the plugin's file name: pjrt_c_api_<PluginName>_plugin.so.
	PluginFile = "pjrt_c_api_" + PluginName + "_plugin.so"
)

// cflags are the compiler flags of the plugin; they are part of the hash
// that names its build.
var cflags = []string{"-O2", "-shared", "-fPIC", "-std=c11", "-pthread", "-fvisibility=hidden", "-D_GNU_SOURCE"}

// ldlibs come after the sources.
var ldlibs = []string{"-ldl"}

var built struct {
	sync.Mutex
	path string
}

// PluginPath returns the path of the Stela CPU plugin, building it first if
// needed: the embedded C sources and PJRT header are compiled with the
// system C compiler ($CC, else cc) into
// <user cache dir>/stela/plugin/<hash>/pjrt_c_api_stela_cpu_plugin.so,
// where hash covers the sources, the header, the compiler and its flags.
// The build goes to a temporary name that is then renamed, so concurrent
// processes may race to build it safely. A missing compiler is an error
// that names the Debian package to install.
func PluginPath() (string, error) {
	built.Lock()
	defer built.Unlock()
	if built.path != "" {
		if _, err := os.Stat(built.path); err == nil {
			return built.path, nil
		}
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("cpu: no cache directory to build the plugin in: %v", err)
	}
	p, err := buildPlugin(filepath.Join(cache, "stela", "plugin"), nil)
	if err != nil {
		return "", err
	}
	built.path = p
	return p, nil
}

// compiler returns the C compiler command: $CC (which may carry flags),
// else cc.
func compiler() []string {
	if cc := strings.Fields(os.Getenv("CC")); len(cc) > 0 {
		return cc
	}
	return []string{"cc"}
}

// sourceFiles returns the embedded sources by name, the runtime's
// (package rt) among them, and the header under its include name.
func sourceFiles() (map[string][]byte, error) {
	files := map[string][]byte{capi.HeaderName: []byte(capi.Header)}
	for _, fsys := range []fs.FS{csrc, rt.Sources} {
		err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(fsys, path)
			files[filepath.Base(path)] = b
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}

// buildHash names a build: the sources, the compiler command, its flags
// and the target.
func buildHash(files map[string][]byte, cc, extra []string) string {
	h := sha256.New()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(h, "file %q %d\n", n, len(files[n]))
		h.Write(files[n])
	}
	fmt.Fprintf(h, "cc %q\ncflags %q\nextra %q\nlibs %q\ntarget %s/%s\n", cc, cflags, extra, ldlibs, runtime.GOOS, runtime.GOARCH)
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// buildPlugin builds the plugin with extra compiler flags (a sanitizer,
// for tests) under root/<hash>/ and returns its path.
func buildPlugin(root string, extra []string) (string, error) {
	files, err := sourceFiles()
	if err != nil {
		return "", fmt.Errorf("cpu: reading the embedded plugin sources: %v", err)
	}
	cc := compiler()
	dir := filepath.Join(root, buildHash(files, cc, extra))
	out := filepath.Join(dir, PluginFile)
	if _, err := os.Stat(out); err == nil {
		return out, nil
	}
	if _, err := exec.LookPath(cc[0]); err != nil {
		return "", fmt.Errorf("cpu: building the Stela CPU plugin needs a C compiler, and %q was not found: install one (Debian: apt-get install gcc) or set $CC", cc[0])
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("cpu: building the plugin: %v", err)
	}
	src, err := os.MkdirTemp(dir, "src-")
	if err != nil {
		return "", fmt.Errorf("cpu: building the plugin: %v", err)
	}
	defer os.RemoveAll(src)
	var cfiles []string
	for name, b := range files {
		p := filepath.Join(src, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return "", fmt.Errorf("cpu: building the plugin: %v", err)
		}
		if strings.HasSuffix(name, ".c") {
			cfiles = append(cfiles, p)
		}
	}
	sort.Strings(cfiles)
	// Each file is compiled by its own cc, in parallel (the first use of
	// the plugin waits for this), then linked.
	base := append(append([]string{}, cc[1:]...), cflags...)
	base = append(base, extra...)
	base = append(base, "-I", src)
	objs := make([]string, len(cfiles))
	errs := make([]error, len(cfiles))
	sem := make(chan struct{}, max(runtime.GOMAXPROCS(0), 1))
	var wg sync.WaitGroup
	for i, f := range cfiles {
		objs[i] = strings.TrimSuffix(f, ".c") + ".o"
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = runCC(cc[0], append(append([]string{}, base...), "-c", "-o", objs[i], f))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return "", err
		}
	}
	tmp := filepath.Join(src, PluginFile)
	link := append(append([]string{}, base...), "-o", tmp)
	link = append(append(link, objs...), ldlibs...)
	if err := runCC(cc[0], link); err != nil {
		return "", err
	}
	// The rename is atomic: a racing build of the same hash either finds
	// the file or replaces it with an identical one.
	if err := os.Rename(tmp, out); err != nil {
		if _, serr := os.Stat(out); serr == nil {
			return out, nil
		}
		return "", fmt.Errorf("cpu: installing the plugin: %v", err)
	}
	return out, nil
}

// runCC runs the compiler; its output goes into the error.
func runCC(cc string, args []string) error {
	if msg, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("cpu: building the Stela CPU plugin failed: %s %s: %v\n%s", cc, strings.Join(args, " "), err, msg)
	}
	return nil
}
