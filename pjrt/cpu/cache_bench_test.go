package cpu

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stela-ml/stela/pjrt/capi"
	"github.com/stela-ml/stela/pjrt/cpu/internal/rt"
)

// BenchmarkCacheLoad measures what the compile cache's check costs per
// load: testdata/cache_bench.c, linked with the plugin's cache.c, loads
// one entry the checked way (read, manifest, SHA-256, sealed memfd,
// dlopen) and the unchecked way it replaced (dlopen of the path) in
// alternating rounds of the same run, for a small program (eager mode's
// size) and one padded to about 1 MB. It reports both, in µs per load.
func BenchmarkCacheLoad(b *testing.B) {
	needCC(b)
	dir := b.TempDir()
	files, err := sourceFiles()
	if err != nil {
		b.Fatal(err)
	}
	bench, _ := os.ReadFile(filepath.Join("testdata", "cache_bench.c"))
	files["cache_bench.c"] = bench
	files[capi.HeaderName] = []byte(capi.Header)
	_ = rt.Sources
	for n, src := range files {
		if err := os.WriteFile(filepath.Join(dir, n), src, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	exe := filepath.Join(dir, "cache_bench")
	cc := compiler()
	args := append(append([]string{}, cc[1:]...), "-O2", "-std=c11", "-D_GNU_SOURCE", "-pthread", "-I", dir, "-o", exe)
	for _, n := range []string{"cache_bench.c", "cache.c", "util.c", "error.c"} {
		args = append(args, filepath.Join(dir, n))
	}
	if out, err := exec.Command(cc[0], append(args, "-ldl")...).CombinedOutput(); err != nil {
		b.Fatalf("building the benchmark: %v\n%s", err, out)
	}
	for _, size := range []struct {
		name string
		pad  int
	}{{"small", 0}, {"1MB", 1 << 20}} {
		b.Run(size.name, func(b *testing.B) {
			f := &cacheFixture{t: &testing.T{}, dir: filepath.Join(b.TempDir(), "cache"), log: filepath.Join(b.TempDir(), "log"), tmp: b.TempDir()}
			prog := addC(1, nonce())
			if size.pad > 0 {
				prog += fmt.Sprintf("const char stela_pad[%d] = {1};\n", size.pad)
			}
			got := f.host(prog)
			if !strings.HasPrefix(got, "result") {
				b.Fatalf("compiling: %s", got)
			}
			names := f.entries()
			if len(names) != 1 {
				b.Fatalf("entries %v", names)
			}
			key := strings.TrimSuffix(names[0], ".so")
			b.ResetTimer()
			var checked, unchecked float64
			var bytes int
			for range b.N {
				out, err := exec.Command(exe, f.dir, key, "21", "50").CombinedOutput()
				if err != nil {
					b.Fatalf("%v\n%s", err, out)
				}
				if _, err := fmt.Sscanf(string(out), "checked %g unchecked %g bytes %d", &checked, &unchecked, &bytes); err != nil {
					b.Fatalf("%v: %s", err, out)
				}
			}
			b.ReportMetric(checked/1e3, "checked-µs/load")
			b.ReportMetric(unchecked/1e3, "unchecked-µs/load")
			b.ReportMetric(float64(bytes), "object-bytes")
		})
	}
}
