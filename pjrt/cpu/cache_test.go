package cpu

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
)

// The compile cache's fault-injection suite (docs/cache.md): each test
// damages the on-disk cache the way a crash, a full disk or another local
// user could, then runs a host process (this test binary, re-executed as
// TestCacheHost) that compiles and runs a program from that cache. The
// host must exit normally with the right results: the damaged entry
// removed and compiled again with a warning on stderr, or a compile error
// that says what is wrong and how to fix it. A host is a child process so
// that a SIGBUS or SIGSEGV of the code before the fix shows as a failed
// test, not a dead test binary.

// addC is a program for the fake worker that adds n to each of its 4
// elements; tag makes its text (and so its cache key) unique.
func addC(n int, tag string) string {
	return fmt.Sprintf(`// fake: c
/* module @add_%d_%s */
const char stela_signature[] = "arg f32 4\nres f32 4\n";
int stela_entry(void *const *args, void *const *results, char err[256]) {
  const float *x = args[0]; float *y = results[0];
  for (int i = 0; i < 4; i++) y[i] = x[i] + %d.0f;
  return 0;
}
`, n, tag, n)
}

// TestCacheHost is the host process of the suite: it runs only as a
// child of a test (STELA_CACHE_TEST_HOST=1), compiles the program in the
// file $STELA_CACHE_TEST_PROG with the cache $STELA_CACHE_TEST_DIR,
// runs it on [1 2 3 4] and prints "result <dims> <values>", or
// "compile error: ..." (and exits 0: the host survived).
func TestCacheHost(t *testing.T) {
	if os.Getenv("STELA_CACHE_TEST_HOST") != "1" {
		t.Skip("the host process of the cache tests (run as a child)")
	}
	prog, err := os.ReadFile(os.Getenv("STELA_CACHE_TEST_PROG"))
	if err != nil {
		t.Fatal(err)
	}
	worker, _ := testWorker(t)
	opts := []pjrt.NamedValue{
		{Name: "stela_worker", Value: worker},
		{Name: "stela_cache_dir", Value: os.Getenv("STELA_CACHE_TEST_DIR")},
	}
	if ms := os.Getenv("STELA_CACHE_TEST_TIMEOUT_MS"); ms != "" {
		var v int64
		fmt.Sscan(ms, &v)
		opts = append(opts, pjrt.NamedValue{Name: "stela_compile_timeout_ms", Value: v})
	}
	c, err := loadPlugin(t).NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Destroy()
	exe, err := c.Compile(string(prog), nil)
	if err != nil {
		fmt.Printf("compile error: %v\n", err)
		return
	}
	defer exe.Destroy()
	x, err := c.BufferFromLiteral(ir.LiteralOf([]int{4}, float32(1), 2, 3, 4), c.AddressableDevices()[0])
	if err != nil {
		t.Fatal(err)
	}
	defer x.Destroy()
	outs, err := exe.Execute(x)
	if err != nil {
		fmt.Printf("execute error: %v\n", err)
		return
	}
	y, err := outs[0].ToLiteral()
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("result %v %v\n", y.Type.Shape, y.Data)
}

// cacheFixture is a fresh cache directory, a worker log and a way to run
// a host on it.
type cacheFixture struct {
	t          *testing.T
	dir, log   string
	tmp        string // the host's $TMPDIR
	extraEnv   []string
	lastStderr string
}

func newCacheFixture(t *testing.T) *cacheFixture {
	needCC(t)
	testPlugin(t)
	testWorker(t)
	base := t.TempDir()
	f := &cacheFixture{t: t, dir: filepath.Join(base, "cache"), log: filepath.Join(base, "worker.log"), tmp: filepath.Join(base, "tmp")}
	if err := os.Mkdir(f.tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	return f
}

// host runs a host process on program and returns its stdout (stderr is
// kept in lastStderr). A host that does not exit normally fails the test.
func (f *cacheFixture) host(program string) string {
	f.t.Helper()
	pf := filepath.Join(f.t.TempDir(), "prog.c")
	if err := os.WriteFile(pf, []byte(program), 0o600); err != nil {
		f.t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCacheHost$", "-test.count=1")
	cmd.Env = append(os.Environ(), "STELA_CACHE_TEST_HOST=1", "STELA_CACHE_TEST_PROG="+pf,
		"STELA_CACHE_TEST_DIR="+f.dir, "FAKE_LOG="+f.log, "TMPDIR="+f.tmp)
	cmd.Env = append(cmd.Env, f.extraEnv...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	f.lastStderr = stderr.String()
	if err != nil {
		lines := strings.SplitN(stderr.String(), "\n", 6)
		f.t.Fatalf("the host process died: %v\nstdout:\n%s\nstderr (first lines):\n%s", err, stdout.String(), strings.Join(lines[:min(len(lines), 5)], "\n"))
	}
	out := stdout.String()
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "result ") || strings.HasPrefix(line, "compile error") || strings.HasPrefix(line, "execute error") {
			return line
		}
	}
	f.t.Fatalf("the host printed no result:\n%s\nstderr:\n%s", out, stderr.String())
	return ""
}

// workerRuns is how many times the worker has run.
func (f *cacheFixture) workerRuns() int {
	b, _ := os.ReadFile(f.log)
	return strings.Count(string(b), "\n")
}

// entries lists the cache's object files (names).
func (f *cacheFixture) entries() []string {
	des, _ := os.ReadDir(filepath.Join(f.dir, "objects"))
	var names []string
	for _, d := range des {
		if d.Name() != ".size" { // the size ledger, not an entry
			names = append(names, d.Name())
		}
	}
	sort.Strings(names)
	return names
}

// entry compiles program through a host and returns its cache entry's
// path (the one new file in objects/).
func (f *cacheFixture) entry(program string) string {
	f.t.Helper()
	before := map[string]bool{}
	for _, n := range f.entries() {
		before[n] = true
	}
	if got := f.host(program); !strings.HasPrefix(got, "result [4]") {
		f.t.Fatalf("first run: %s\n%s", got, f.lastStderr)
	}
	for _, n := range f.entries() {
		if !before[n] && strings.HasSuffix(n, ".so") {
			return filepath.Join(f.dir, "objects", n)
		}
	}
	f.t.Fatalf("no new cache entry in %v", f.entries())
	return ""
}

// wantRecompiled checks that a host run on damaged cache state got the
// right result, warned, and ran the worker again.
func (f *cacheFixture) wantRecompiled(program, want string, runsBefore int, warning string) {
	f.t.Helper()
	got := f.host(program)
	if got != want {
		f.t.Errorf("after the damage the host printed %q, want %q\nstderr:\n%s", got, want, f.lastStderr)
	}
	if !strings.Contains(f.lastStderr, "warning") || !strings.Contains(f.lastStderr, warning) {
		f.t.Errorf("the host's stderr has no warning containing %q:\n%s", warning, f.lastStderr)
	}
	f.t.Logf("warning: %s", strings.TrimSpace(f.lastStderr))
	if r := f.workerRuns(); r != runsBefore+1 {
		f.t.Errorf("the worker ran %d times after the damage, want 1 (recompiled)", r-runsBefore)
	}
	// And the new entry is good: the next host hits it silently.
	runs := f.workerRuns()
	if got := f.host(program); got != want || strings.Contains(f.lastStderr, "warning") || f.workerRuns() != runs {
		f.t.Errorf("after the recompile: %q (worker runs %d → %d), stderr:\n%s", got, runs, f.workerRuns(), f.lastStderr)
	}
}

const want2345 = "result [4] [2 3 4 5]"

func TestCacheDamageTruncated(t *testing.T) {
	f := newCacheFixture(t)
	p := addC(1, nonce())
	e := f.entry(p)
	st, _ := os.Stat(e)
	for _, size := range []int64{st.Size() / 2, 100, 0} {
		if err := os.Truncate(e, size); err != nil {
			t.Fatal(err)
		}
		f.wantRecompiled(p, want2345, f.workerRuns(), "")
	}
}

func TestCacheDamageBitFlip(t *testing.T) {
	f := newCacheFixture(t)
	p := addC(1, nonce())
	e := f.entry(p)
	b, err := os.ReadFile(e)
	if err != nil {
		t.Fatal(err)
	}
	// Flip one bit of the code that adds 1.0f: its constant 0x3f800000.
	i := bytes.Index(b, []byte{0x00, 0x00, 0x80, 0x3f})
	if i < 0 {
		i = len(b) / 2
	}
	b[i+2] ^= 0x40 // 1.0f → 4.0f
	if err := os.WriteFile(e, b, 0o600); err != nil {
		t.Fatal(err)
	}
	f.wantRecompiled(p, want2345, f.workerRuns(), "")
}

// An edited signature line resized the result buffers.
func TestCacheDamageSignature(t *testing.T) {
	f := newCacheFixture(t)
	p := addC(1, nonce())
	e := f.entry(p)
	b, _ := os.ReadFile(e)
	if !bytes.Contains(b, []byte("res f32 4\n")) {
		t.Fatalf("no signature in %s", e)
	}
	b = bytes.Replace(b, []byte("res f32 4\n"), []byte("res f32 2\n"), 1)
	if err := os.WriteFile(e, b, 0o600); err != nil {
		t.Fatal(err)
	}
	f.wantRecompiled(p, want2345, f.workerRuns(), "")
}

// Another program's object under this program's key returned the other
// program's results.
func TestCacheDamageSwappedObject(t *testing.T) {
	f := newCacheFixture(t)
	tag := nonce()
	p1, p2 := addC(1, tag), addC(2, tag)
	e1, e2 := f.entry(p1), f.entry(p2)
	b, _ := os.ReadFile(e2)
	if err := os.WriteFile(e1, b, 0o600); err != nil {
		t.Fatal(err)
	}
	f.wantRecompiled(p1, want2345, f.workerRuns(), "")
}

// A symlink in place of an entry was followed and its target loaded.
func TestCacheDamageSymlink(t *testing.T) {
	f := newCacheFixture(t)
	tag := nonce()
	p1, p2 := addC(1, tag), addC(2, tag)
	e1, e2 := f.entry(p1), f.entry(p2)
	// The target lives outside the cache (another user's file, say).
	outside := filepath.Join(t.TempDir(), "planted.so")
	b, _ := os.ReadFile(e2)
	if err := os.WriteFile(outside, b, 0o600); err != nil {
		t.Fatal(err)
	}
	os.Remove(e1)
	if err := os.Symlink(outside, e1); err != nil {
		t.Fatal(err)
	}
	f.wantRecompiled(p1, want2345, f.workerRuns(), "")
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("the symlink's target was touched: %v", err)
	}
	if fi, err := os.Lstat(e1); err != nil || fi.Mode()&os.ModeSymlink != 0 {
		t.Errorf("the entry is still a symlink or missing: %v %v", fi, err)
	}
}

// An entry that others may write (mode 0666) could be replaced by them:
// it is not loaded.
func TestCacheDamageEntryMode(t *testing.T) {
	f := newCacheFixture(t)
	p := addC(1, nonce())
	e := f.entry(p)
	if err := os.Chmod(e, 0o666); err != nil {
		t.Fatal(err)
	}
	f.wantRecompiled(p, want2345, f.workerRuns(), "writable")
}

// A cache root that others may write is refused with the fix in the
// message; so is one owned by another user.
func TestCacheRootRefused(t *testing.T) {
	f := newCacheFixture(t)
	p := addC(1, nonce())
	f.entry(p)
	for _, mode := range []os.FileMode{0o777, 0o770, 0o1777} {
		if err := os.Chmod(f.dir, mode); err != nil {
			t.Fatal(err)
		}
		got := f.host(p)
		if !strings.Contains(got, "compile error") || !strings.Contains(got, "writable by") || !strings.Contains(got, "chmod 700 "+f.dir) {
			t.Errorf("cache root of mode %v: %s, want a compile error that names the problem and the fix", mode, got)
		}
	}
	os.Chmod(f.dir, 0o700)
	if got := f.host(p); got != want2345 {
		t.Errorf("after chmod 700: %s", got)
	}
}

func TestCacheRootWrongOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		// Making a directory owned by someone else needs root; the
		// check itself is the same code as for root.
		t.Skip("needs root to give a directory to another user (chown)")
	}
	f := newCacheFixture(t)
	p := addC(1, nonce())
	e := f.entry(p)
	// An entry planted by another user is not loaded.
	if err := os.Chown(e, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	f.wantRecompiled(p, want2345, f.workerRuns(), "owned by")
	// A root owned by another user is refused.
	if err := os.Chown(f.dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	got := f.host(p)
	if !strings.Contains(got, "compile error") || !strings.Contains(got, "owned by user 65534") {
		t.Errorf("a cache root owned by another user: %s", got)
	}
}

// Directories are 0700, entries 0600, and nothing but entries is left in
// objects/.
func TestCacheModes(t *testing.T) {
	f := newCacheFixture(t)
	e := f.entry(addC(1, nonce()))
	for _, d := range []string{f.dir, filepath.Join(f.dir, "objects")} {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: mode %v, %v; want 0700", d, fi.Mode(), err)
		}
	}
	if fi, err := os.Stat(e); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("%s: mode %v, %v; want 0600", e, fi.Mode(), err)
	}
	if names := f.entries(); len(names) != 1 {
		t.Errorf("objects/ holds %v, want the one entry", names)
	}
}

// A worker killed by the timeout left its temporary files in the cache
// and in $TMPDIR.
func TestCacheWorkerFaultLeavesNoFiles(t *testing.T) {
	f := newCacheFixture(t)
	f.host(addC(1, nonce())) // make the directories
	got := f.hostTimeout("// fake: leak\n", 300)
	if !strings.Contains(got, "ran past the timeout") {
		t.Fatalf("the leaking worker: %s", got)
	}
	var left []string
	for _, d := range []string{filepath.Join(f.dir, "objects"), f.tmp, filepath.Join(f.dir, "tmp")} {
		des, _ := os.ReadDir(d)
		for _, de := range des {
			if !strings.HasSuffix(de.Name(), ".so") && de.Name() != ".size" { // not the size ledger
				left = append(left, filepath.Join(d, de.Name()))
			}
		}
	}
	if len(left) > 0 {
		t.Errorf("a killed worker left %v", left)
	}
}

// hostTimeout is host with a compile timeout (ms).
func (f *cacheFixture) hostTimeout(program string, ms int) string {
	f.extraEnv = append(f.extraEnv, fmt.Sprintf("STELA_CACHE_TEST_TIMEOUT_MS=%d", ms))
	defer func() { f.extraEnv = f.extraEnv[:len(f.extraEnv)-1] }()
	return f.host(program)
}

// STELA_CACHE_MAX_BYTES bounds the cache; the least recently used
// entries go first.
func TestCacheLRU(t *testing.T) {
	f := newCacheFixture(t)
	tag := nonce()
	e1 := f.entry(addC(1, tag))
	st, _ := os.Stat(e1)
	// Room for two entries and a half.
	f.extraEnv = []string{fmt.Sprintf("STELA_CACHE_MAX_BYTES=%d", st.Size()*5/2)}
	e2 := f.entry(addC(2, tag))
	// A hit on the first makes the second the least recently used.
	f.host(addC(1, tag))
	e3 := f.entry(addC(3, tag))
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	if !exists(e1) || exists(e2) || !exists(e3) {
		t.Errorf("after 3 programs with room for 2: entry 1 %v, 2 %v, 3 %v; want the least recently used (2) gone", exists(e1), exists(e2), exists(e3))
	}
	var total int64
	for _, n := range f.entries() {
		fi, _ := os.Stat(filepath.Join(f.dir, "objects", n))
		total += fi.Size()
	}
	if total > st.Size()*5/2 {
		t.Errorf("the cache holds %d bytes, over its limit of %d", total, st.Size()*5/2)
	}
	f.extraEnv = []string{"STELA_CACHE_MAX_BYTES=lots"}
	if got := f.host(addC(4, tag)); !strings.Contains(got, "STELA_CACHE_MAX_BYTES") {
		t.Errorf("a bad STELA_CACHE_MAX_BYTES: %s", got)
	}
}

// The size ledger (objects/.size) holds the entries' total, so that a
// compile need not stat every entry; an overcount brings a full scan,
// which writes the true total and removes nothing under the limit.
func TestCacheLedger(t *testing.T) {
	f := newCacheFixture(t)
	tag := nonce()
	e1 := f.entry(addC(1, tag))
	st, _ := os.Stat(e1)
	f.extraEnv = []string{fmt.Sprintf("STELA_CACHE_MAX_BYTES=%d", st.Size()*10)}
	f.entry(addC(2, tag))
	ledger := filepath.Join(f.dir, "objects", ".size")
	total := func() int64 {
		var n int64
		for _, e := range f.entries() {
			fi, err := os.Stat(filepath.Join(f.dir, "objects", e))
			if err != nil {
				t.Fatal(err)
			}
			n += fi.Size()
		}
		return n
	}
	read := func() (bytes, scanned int64) {
		b, err := os.ReadFile(ledger)
		if err != nil {
			t.Fatalf("no ledger: %v", err)
		}
		if _, err := fmt.Sscan(string(b), &bytes, &scanned); err != nil {
			t.Fatalf("ledger %q: %v", b, err)
		}
		return
	}
	if b, _ := read(); b != total() {
		t.Errorf("ledger says %d bytes, the entries hold %d", b, total())
	}
	// An overcount past the limit: the next write scans and corrects it.
	now := time.Now().Unix()
	if err := os.WriteFile(ledger, fmt.Appendf(nil, "%d %d\n", st.Size()*11, now), 0o600); err != nil {
		t.Fatal(err)
	}
	f.entry(addC(3, tag))
	if n := len(f.entries()); n != 3 {
		t.Errorf("after an overcount under the limit: %d entries, want 3", n)
	}
	if b, _ := read(); b != total() {
		t.Errorf("after the scan the ledger says %d bytes, the entries hold %d", b, total())
	}
}

// copyPluginBuild copies the plugin build this test binary uses into a
// new root, for tests that damage it without rebuilding every time.
func copyPluginBuild(t *testing.T) (root, dir string, orig []byte) {
	real := testPlugin(t)
	root = filepath.Join(t.TempDir(), "plugin")
	dir = filepath.Join(root, filepath.Base(filepath.Dir(real)))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	des, err := os.ReadDir(filepath.Dir(real))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range des {
		if d.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(filepath.Dir(real), d.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, d.Name()), b, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	orig, _ = os.ReadFile(real)
	return root, dir, orig
}

// captureWarnings collects the warnings of package cpu's Go side.
func captureWarnings(t *testing.T) *[]string {
	var got []string
	old := warnf
	warnf = func(format string, args ...any) { got = append(got, fmt.Sprintf(format, args...)) }
	t.Cleanup(func() { warnf = old })
	return &got
}

// The built plugin under the user cache dir was loaded whatever its
// bytes: a damaged or swapped plugin binary is now rebuilt, with a
// warning.
func TestPluginBinaryDamaged(t *testing.T) {
	needCC(t)
	for _, damage := range []string{"bitflip", "truncate", "symlink"} {
		t.Run(damage, func(t *testing.T) {
			root, dir, orig := copyPluginBuild(t)
			so := filepath.Join(dir, PluginFile)
			switch damage {
			case "bitflip":
				b := bytes.Clone(orig)
				b[len(b)/2] ^= 1
				os.WriteFile(so, b, 0o700)
			case "truncate":
				os.Truncate(so, int64(len(orig)/3))
			case "symlink":
				other := filepath.Join(t.TempDir(), "evil.so")
				os.WriteFile(other, orig, 0o700)
				os.Remove(so)
				os.Symlink(other, so)
			}
			warnings := captureWarnings(t)
			p, err := buildPlugin(root, nil)
			if err != nil {
				t.Fatal(err)
			}
			if p != so {
				t.Errorf("buildPlugin = %s, want %s", p, so)
			}
			if err := verifyPluginBuild(dir); err != nil {
				t.Errorf("after the rebuild: %v", err)
			}
			if fi, err := os.Lstat(so); err != nil || !fi.Mode().IsRegular() {
				t.Errorf("after the rebuild %s is %v, %v", so, fi, err)
			}
			if len(*warnings) != 1 || !strings.Contains((*warnings)[0], "rebuilding") {
				t.Errorf("warnings %q, want one that says the plugin is rebuilt", *warnings)
			}
		})
	}
}

// A plugin root that others may write is refused.
func TestPluginRootRefused(t *testing.T) {
	needCC(t)
	root, _, _ := copyPluginBuild(t)
	if err := os.Chmod(root, 0o777); err != nil {
		t.Fatal(err)
	}
	_, err := buildPlugin(root, nil)
	if err == nil || !strings.Contains(err.Error(), "chmod 700 "+root) {
		t.Errorf("buildPlugin in a 0777 root: %v, want an error with the fix", err)
	}
}

// Many programs loaded at once, from the worker and from the cache, each
// its own object: loading through /proc/self/fd/N must never reuse the
// name of an object still loaded (glibc would hand that object back).
func TestCacheManyLoaded(t *testing.T) {
	worker, _ := testWorker(t)
	c, err := loadPlugin(t).NewClient(
		pjrt.NamedValue{Name: "stela_worker", Value: worker},
		pjrt.NamedValue{Name: "stela_cache_dir", Value: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Destroy()
	tag := nonce()
	x, _ := c.BufferFromLiteral(ir.LiteralOf([]int{4}, float32(1), 2, 3, 4), c.AddressableDevices()[0])
	defer x.Destroy()
	for round := range 2 { // compiled, then cache hits
		var exes []*pjrt.LoadedExecutable
		for i := range 12 {
			exe, err := c.Compile(addC(i, tag), nil)
			if err != nil {
				t.Fatalf("round %d, program %d: %v", round, i, err)
			}
			exes = append(exes, exe)
		}
		for i, exe := range exes {
			outs, err := exe.Execute(x)
			if err != nil {
				t.Fatal(err)
			}
			y, _ := outs[0].ToLiteral()
			if want := fmt.Sprint([]float32{float32(1 + i), float32(2 + i), float32(3 + i), float32(4 + i)}); fmt.Sprint(y.Data) != want {
				t.Errorf("round %d: program %d gives %v, want %s", round, i, y.Data, want)
			}
			outs[0].Destroy()
			exe.Destroy()
		}
	}
}
