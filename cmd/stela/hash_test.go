package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/internal/env/envtest"
	"github.com/stela-ml/stela/runtime"
)

// TestHashIsTheJitCacheKey: `stela hash --example NAME` prints the key
// under which the runtime caches the program that jit.Compile compiles for
// the example: the hash that STELA_LOG=compile logs for that compile.
func TestHashIsTheJitCacheKey(t *testing.T) {
	var log bytes.Buffer
	envtest.Setenv(t, "STELA_LOG", "compile")
	runtime.LogOutput = &log
	defer func() { runtime.LogOutput = nil }()
	for _, name := range []string{"mlp", "transformer"} {
		var out, errb strings.Builder
		if code := run([]string{"hash", "--example", name}, &out, &errb); code != 0 {
			t.Fatalf("stela hash --example %s: exit %d: %s", name, code, errb.String())
		}
		key := strings.TrimSpace(out.String())

		ex, err := examples.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := examples.Trace(ex)
		if err != nil {
			t.Fatal(err)
		}
		log.Reset()
		f := jit.Compile(ex.Func(), jit.WithName(tr.Func.Name))
		if _, err := jit.Call(f, ex.Inputs(1)...); err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`stela: compiled @` + tr.Func.Name + ` on \S+ in \S+ \(program ([0-9a-f]{16})\)`).FindStringSubmatch(log.String())
		if m == nil {
			t.Fatalf("jit.Compile of %s logged no compile of @%s (compiled before in this process?):\n%s", name, tr.Func.Name, log.String())
		}
		if !strings.HasPrefix(key, m[1]) {
			t.Errorf("stela hash --example %s = %s; jit.Compile's program is cached under %s...", name, key, m[1])
		}
	}
}
