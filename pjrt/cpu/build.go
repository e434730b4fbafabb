package cpu

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/stela-ml/stela/pjrt/capi"
	"github.com/stela-ml/stela/pjrt/cpu/internal/rt"
)

// The plugin's C sources, built on first use (docs/cpu-plugin.md,
// "Building the plugin").
//
//go:embed csrc/*.c csrc/*.cc csrc/*.h
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
var ldlibs = []string{"-ldl", "-lm"}

var built struct {
	sync.Mutex
	path string
}

// PluginPath returns the path of the Stela CPU plugin, building it first if
// needed: the embedded C sources and PJRT header are compiled with the
// system C compiler ($CC, else cc) into
// <user cache dir>/stela/plugin/<hash>/pjrt_c_api_stela_cpu_plugin.so,
// where hash covers the sources, the header, the compiler and its flags.
// The build goes to a temporary directory that is then renamed, so
// concurrent processes may race to build it safely; the plugin's SHA-256
// is recorded next to it and checked before the path is returned (a
// damaged or replaced plugin is rebuilt, with a warning), and the
// directories are 0700 and must not be writable by others (docs/cache.md). A missing compiler is an error
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

// cxxflags are the flags of the C++ shim (gloo.cc).
var cxxflags = []string{"-O2", "-fPIC", "-std=c++17", "-pthread", "-fvisibility=hidden"}

// GlooVar set to 0 builds the plugin without Gloo even where it is
// installed (for tests of that build).
const GlooVar = "STELA_CPU_GLOO"

// glooCompiler returns the C++ compiler that builds the Gloo shim, or nil
// when the plugin is built without Gloo: no C++ compiler ($CXX, else c++
// or g++), no Gloo headers or library (Debian's libgloo-dev) in the
// standard places, or STELA_CPU_GLOO=0. Without it the plugin still
// builds, and a client of several processes is refused saying why.
func glooCompiler() []string {
	if os.Getenv(GlooVar) == "0" {
		return nil
	}
	cxx := strings.Fields(os.Getenv("CXX"))
	if len(cxx) == 0 {
		for _, c := range []string{"c++", "g++"} {
			if _, err := exec.LookPath(c); err == nil {
				cxx = []string{c}
				break
			}
		}
	} else if _, err := exec.LookPath(cxx[0]); err != nil {
		return nil
	}
	if len(cxx) == 0 {
		return nil
	}
	found := func(dirs []string, name string) bool {
		for _, d := range dirs {
			if _, err := os.Stat(filepath.Join(d, name)); err == nil {
				return true
			}
		}
		return false
	}
	incs := []string{"/usr/include", "/usr/local/include"}
	libs := []string{"/usr/lib", "/usr/lib64", "/usr/local/lib", "/usr/lib/" + runtime.GOARCH + "-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu"}
	if !found(incs, "gloo/rendezvous/context.h") || !found(libs, "libgloo.so") {
		return nil
	}
	return cxx
}

// HasGloo reports whether the plugin is built with Gloo here (its
// collectives across processes): a C++ compiler and Debian's
// libgloo-dev are installed, and STELA_CPU_GLOO is not 0.
func HasGloo() bool { return glooCompiler() != nil }

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
	fmt.Fprintf(h, "gloo %q %q\n", glooCompiler(), cxxflags)
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// warnf reports a problem Stela recovered from (a damaged build that is
// rebuilt) on stderr; tests replace it.
var warnf = func(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "stela: warning: "+format+"\n", args...)
}

// pluginManifest is the file next to the built plugin that holds its
// SHA-256 (pluginManifestText).
const pluginManifest = "manifest"

func pluginManifestText(so []byte) string {
	return fmt.Sprintf("stela-cpu-plugin 1\nfile %s\nsize %d\nsha256 %x\n", PluginFile, len(so), sha256.Sum256(so))
}

// verifyPluginBuild checks a plugin build directory before its plugin is
// loaded: a directory of ours that no one else may write, holding the
// plugin (a regular file of ours, not a symbolic link, that no one else
// may write) and its manifest, whose SHA-256 the plugin's bytes match.
func verifyPluginBuild(dir string) error {
	if err := checkDir(dir, false, "plugin build directory"); err != nil {
		return err
	}
	data, err := readOwnFile(filepath.Join(dir, PluginFile))
	if err != nil {
		return err
	}
	m, err := readOwnFile(filepath.Join(dir, pluginManifest))
	if err != nil {
		return fmt.Errorf("no manifest: %v", err)
	}
	if string(m) != pluginManifestText(data) {
		return fmt.Errorf("%s does not match the SHA-256 of its manifest (damaged or replaced)", PluginFile)
	}
	return nil
}

// readOwnFile reads a regular file of this user that neither its group
// nor others may write, without following a symbolic link.
func readOwnFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("%s is a symbolic link", path)
		}
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	st := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file", path)
	case int(st.Uid) != os.Geteuid():
		return nil, fmt.Errorf("%s is owned by user %d, not by you", path, st.Uid)
	case st.Mode&0o022 != 0:
		return nil, fmt.Errorf("%s is writable by group or others (mode %04o)", path, st.Mode&0o7777)
	}
	return io.ReadAll(f)
}

// buildPlugin builds the plugin with extra compiler flags (a sanitizer,
// for tests) under root/<hash>/ and returns its path. root must be ours
// and writable by no one else (created 0700); a build that fails
// verifyPluginBuild is removed and built again, with a warning.
func buildPlugin(root string, extra []string) (string, error) {
	files, err := sourceFiles()
	if err != nil {
		return "", fmt.Errorf("cpu: reading the embedded plugin sources: %v", err)
	}
	cc := compiler()
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", fmt.Errorf("cpu: building the plugin: %v", err)
	}
	if err := checkDir(root, true, "plugin build directory"); err != nil {
		return "", fmt.Errorf("cpu: %v", err)
	}
	dir := filepath.Join(root, buildHash(files, cc, extra))
	out := filepath.Join(dir, PluginFile)
	if _, err := os.Lstat(dir); err == nil {
		verr := verifyPluginBuild(dir)
		if verr == nil {
			return out, nil
		}
		warnf("the built Stela CPU plugin %s cannot be trusted: %v; rebuilding it", out, verr)
		if err := os.RemoveAll(dir); err != nil {
			return "", fmt.Errorf("cpu: removing the damaged plugin build: %v", err)
		}
	}
	if _, err := exec.LookPath(cc[0]); err != nil {
		return "", fmt.Errorf("cpu: building the Stela CPU plugin needs a C compiler, and %q was not found: install one (Debian: apt-get install gcc) or set $CC", cc[0])
	}
	removeStaleBuilds(root)
	src, err := os.MkdirTemp(root, ".build-")
	if err != nil {
		return "", fmt.Errorf("cpu: building the plugin: %v", err)
	}
	defer os.RemoveAll(src)
	var cfiles []string
	for name, b := range files {
		p := filepath.Join(src, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			return "", fmt.Errorf("cpu: building the plugin: %v", err)
		}
		if strings.HasSuffix(name, ".c") {
			cfiles = append(cfiles, p)
		}
	}
	sort.Strings(cfiles)
	// Each file is compiled by its own cc, in parallel (the first use of
	// the plugin waits for this), then linked. The Gloo shim (gloo.cc) is
	// built by the C++ compiler when Gloo is there (glooCompiler).
	cxx := glooCompiler()
	libs := ldlibs
	base := append(append([]string{}, cc[1:]...), cflags...)
	base = append(base, extra...)
	base = append(base, "-I", src)
	if cxx != nil {
		base = append(base, "-DSTELA_HAVE_GLOO")
		libs = append([]string{"-lgloo", "-lstdc++"}, ldlibs...)
	}
	objs := make([]string, len(cfiles))
	errs := make([]error, len(cfiles))
	if cxx != nil {
		for name := range files {
			if strings.HasSuffix(name, ".cc") {
				cfiles = append(cfiles, filepath.Join(src, name))
			}
		}
		objs = make([]string, len(cfiles))
		errs = make([]error, len(cfiles))
	}
	sem := make(chan struct{}, max(runtime.GOMAXPROCS(0), 1))
	var wg sync.WaitGroup
	for i, f := range cfiles {
		objs[i] = strings.TrimSuffix(strings.TrimSuffix(f, ".cc"), ".c") + ".o"
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if strings.HasSuffix(f, ".cc") {
				args := append(append(append([]string{}, cxx[1:]...), cxxflags...), extra...)
				errs[i] = runCC(cxx[0], append(args, "-I", src, "-c", "-o", objs[i], f))
				return
			}
			errs[i] = runCC(cc[0], append(append([]string{}, base...), "-c", "-o", objs[i], f))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return "", err
		}
	}
	// The plugin and its manifest go into a directory of their own that is
	// renamed into place whole: a racing build of the same hash either
	// finds it complete or installs its own.
	stage := filepath.Join(src, "stage")
	if err := os.Mkdir(stage, 0o700); err != nil {
		return "", fmt.Errorf("cpu: building the plugin: %v", err)
	}
	tmp := filepath.Join(stage, PluginFile)
	link := append(append([]string{}, base...), "-o", tmp)
	link = append(append(link, objs...), libs...)
	if err := runCC(cc[0], link); err != nil {
		return "", err
	}
	if err := os.Chmod(tmp, 0o700); err != nil {
		return "", fmt.Errorf("cpu: building the plugin: %v", err)
	}
	so, err := os.ReadFile(tmp)
	if err != nil {
		return "", fmt.Errorf("cpu: building the plugin: %v", err)
	}
	if err := writeSynced(filepath.Join(stage, pluginManifest), []byte(pluginManifestText(so))); err != nil {
		return "", fmt.Errorf("cpu: building the plugin: %v", err)
	}
	if err := syncFile(tmp); err != nil {
		return "", fmt.Errorf("cpu: building the plugin: %v", err)
	}
	if err := os.Rename(stage, dir); err != nil {
		if verifyPluginBuild(dir) == nil {
			return out, nil // a racing build's
		}
		return "", fmt.Errorf("cpu: installing the plugin: %v", err)
	}
	return out, nil
}

// removeStaleBuilds removes what builds killed over an hour ago left.
func removeStaleBuilds(root string) {
	des, _ := os.ReadDir(root)
	for _, d := range des {
		if fi, err := d.Info(); err == nil && strings.HasPrefix(d.Name(), ".build-") && time.Since(fi.ModTime()) > time.Hour {
			os.RemoveAll(filepath.Join(root, d.Name()))
		}
	}
}

func writeSynced(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// runCC runs the compiler; its output goes into the error.
func runCC(cc string, args []string) error {
	if msg, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("cpu: building the Stela CPU plugin failed: %s %s: %v\n%s", cc, strings.Join(args, " "), err, msg)
	}
	return nil
}

// VerifyPlugin checks the build of the plugin this binary would load
// (as PluginPath does before returning it) without building it: its path,
// and nil, or why it would be rebuilt (or refused). A plugin not built
// yet is an error that says so, wrapping fs.ErrNotExist.
func VerifyPlugin() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("cpu: no cache directory for the plugin: %v", err)
	}
	files, err := sourceFiles()
	if err != nil {
		return "", err
	}
	root := filepath.Join(cache, "stela", "plugin")
	dir := filepath.Join(root, buildHash(files, compiler(), nil))
	out := filepath.Join(dir, PluginFile)
	if _, err := os.Lstat(dir); err != nil {
		return out, fmt.Errorf("not built yet (stela plugin path builds it): %w", err)
	}
	if err := checkDir(root, true, "plugin build directory"); err != nil {
		return out, err
	}
	return out, verifyPluginBuild(dir)
}
