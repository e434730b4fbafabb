package cpu

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stela-ml/stela/pjrt/capi"
	"github.com/stela-ml/stela/pjrt/internal/cheader"
)

// A test binary run as a compile worker (STELA_CPU_WORKER=1) that reaches
// this init has no worker mode (worker.go's init would have taken over and
// exited): say so and exit, rather than run the tests again as a child of
// themselves.
func init() {
	if os.Getenv("STELA_CPU_WORKER") == "1" {
		fmt.Fprintln(os.Stderr, "stela: this test binary has no compile worker mode")
		os.Exit(3)
	}
}

// testPlugin builds (or finds) the plugin, or skips without a C compiler.
func testPlugin(t testing.TB) string {
	t.Helper()
	needCC(t)
	p, err := PluginPath()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func needCC(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath(compiler()[0]); err != nil {
		t.Skipf("no C compiler (%s): install gcc (Debian package gcc) or set CC", compiler()[0])
	}
}

// fakeWorker is a compile worker for tests that needs no code generator:
// the first line of the program text says what to do (see
// testdata/driver.c). "// fake: c" compiles the program text itself as C,
// which defines stela_signature and stela_entry; it is how the tests run
// real compiled code through the plugin. "// fake: copy PATH" copies a
// compiled object (cheaper than cc when a test needs the worker to run).
// Each run appends a line to $FAKE_LOG when that is set.
const fakeWorker = `#!/bin/sh
# Fake compile worker for the Stela CPU plugin's tests.
if [ -n "$FAKE_LOG" ]; then echo "$*" >> "$FAKE_LOG"; fi
if [ "$STELA_CPU_WORKER" != 1 ]; then echo "fake worker: STELA_CPU_WORKER is not 1" >&2; exit 3; fi
if [ "$1" != compile ] || [ $# -ne 4 ]; then echo "fake worker: usage: compile PROGRAM OPTIONS OUT" >&2; exit 3; fi
mode=$(head -n 1 "$2")
case "$mode" in
"// fake: invalid") printf 'bad program: line 3: expected value\nsecond line\n' >&2; exit 10 ;;
"// fake: unsupported") echo "unsupported: stablehlo.fft" >&2; exit 11 ;;
"// fake: exit3") echo "something odd" >&2; exit 3 ;;
"// fake: gofatal") printf 'fatal error: runtime: out of memory\n\nruntime stack:\nruntime.throw({0x991e98?, 0x2983?})\n\ngoroutine 1 gp=0xc000002380 m=0 mp=0xdaca40 [running]:\nmain.main()\n' >&2; exit 2 ;;
"// fake: sleep") sleep 30; exit 0 ;;
"// fake: segv") ulimit -c 0; kill -SEGV $$ ;;
"// fake: noout") exit 0 ;;
"// fake: leak") d=$(mktemp -d "${TMPDIR:-/tmp}/stela-cpu-XXXXXX"); echo x > "$d/program.ll"; echo x > "$(dirname "$4")/.stela-so-$$"; sleep 30 ;;
"// fake: nosym") echo 'int stela_unrelated;' | cc -shared -fPIC -x c - -o "$4.$$.tmp" && mv "$4.$$.tmp" "$4" ;;
"// fake: copy "*) cp "${mode#// fake: copy }" "$4.$$.tmp" && mv "$4.$$.tmp" "$4" ;;
"// fake: c") cc -shared -fPIC -O1 -x c "$2" -o "$4.$$.tmp" && mv "$4.$$.tmp" "$4" ;;
*) echo "fake worker: unknown mode: $mode" >&2; exit 3 ;;
esac
`

var shared struct {
	once          sync.Once
	worker, cache string
	err           error
}

// testWorker returns the fake worker and the compile cache directory the
// tests share: both live in <user cache dir>/stela/cpu-test, and the
// worker script is rewritten only when its text changes, so that its
// modification time, part of the cache key, stays put and compiled test
// programs are reused across tests and runs (each costs a cc run, slow on
// a loaded machine). Tests that check caching compile programs with a
// nonce in them.
func testWorker(t testing.TB) (worker, cache string) {
	t.Helper()
	shared.once.Do(func() {
		root, err := os.UserCacheDir()
		if err != nil {
			shared.err = err
			return
		}
		dir := filepath.Join(root, "stela", "cpu-test")
		shared.cache = filepath.Join(dir, "cache")
		shared.worker = filepath.Join(dir, "fake-worker.sh")
		if shared.err = os.MkdirAll(shared.cache, 0o755); shared.err != nil {
			return
		}
		if old, err := os.ReadFile(shared.worker); err == nil && string(old) == fakeWorker {
			return
		}
		tmp := fmt.Sprintf("%s.%d", shared.worker, os.Getpid())
		if shared.err = os.WriteFile(tmp, []byte(fakeWorker), 0o755); shared.err == nil {
			shared.err = os.Rename(tmp, shared.worker)
		}
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.worker, shared.cache
}

// nonce makes a program text unique to this run.
func nonce() string { return fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano()) }

// writeSlots writes slots.def, one SLOT(index, name, void|error) line per
// PJRT_Api slot of stela_pjrt.h, for testdata/driver.c.
func writeSlots(t testing.TB, dir string) {
	t.Helper()
	h, err := cheader.Parse(capi.Header)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, s := range h.Slots() {
		ret := "error"
		if s.Type.Return == "void" {
			ret = "void"
		}
		fmt.Fprintf(&b, "SLOT(%d, %s, %s)\n", s.Index, s.Name, ret)
	}
	if err := os.WriteFile(filepath.Join(dir, "slots.def"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
