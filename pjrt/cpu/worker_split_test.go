package cpu

import (
	"debug/elf"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// manyFunctions is an LLVM module of n internal functions that an
// exported one calls, with the body of function bad (if >= 0) broken.
func manyFunctions(n, bad int) []byte {
	var b strings.Builder
	b.WriteString("target triple = \"x86_64-pc-linux-gnu\"\n")
	for i := range n {
		body := fmt.Sprintf("%%y = mul i64 %%x, %d", i+2)
		if i == bad {
			body = "%y = mul i64 %x, %undefined"
		}
		fmt.Fprintf(&b, "define internal i64 @f%d(i64 %%x) noinline {\n  %s\n  ret i64 %%y\n}\n", i, body)
	}
	b.WriteString("define i64 @all(i64 %x0) {\n")
	for i := range n {
		fmt.Fprintf(&b, "  %%x%d = call i64 @f%d(i64 %%x%d)\n", i+1, i, i)
	}
	fmt.Fprintf(&b, "  ret i64 %%x%d\n}\n", n)
	return []byte(b.String())
}

// TestSplitBuild: a module of many functions is split into parts that
// compile in parallel and link into one object; a broken one is reported
// with the line of the whole module, as without the split.
func TestSplitBuild(t *testing.T) {
	tl, err := findTools()
	if err != nil {
		t.Skip(err)
	}
	if tl.split == "" {
		t.Skip("no llvm-split")
	}
	t.Setenv("STELA_CPU_LLVM", "tools") // in process, modules are not split
	var tm Timings
	so, err := buildObject(manyFunctions(40, -1), CompileConfig{Out: filepath.Join(t.TempDir(), "out.so"), Jobs: 2}, &tm)
	if err != nil {
		t.Fatal(err)
	}
	if tm.Parts != 2 {
		t.Errorf("%d parts, want 2", tm.Parts)
	}
	wantExported(t, so, "all")

	_, err = buildObject(manyFunctions(40, 17), CompileConfig{Out: filepath.Join(t.TempDir(), "bad.so"), Jobs: 2}, &tm)
	want := "opt: line 71:20: use of undefined value '%undefined': `%y = mul i64 %x, %undefined`"
	if err == nil || !strings.Contains(firstLine(err.Error()), want) {
		t.Errorf("broken module: error %v, want it to contain %q", err, want)
	}
}

func TestSplitParts(t *testing.T) {
	for _, c := range []struct{ jobs, defs, want int }{
		{2, 1, 1}, {2, 15, 1}, {2, 16, 2}, {2, 100, 2}, {8, 30, 3}, {1, 100, 1}, {16, 1000, 16},
	} {
		if got := splitParts(c.jobs, c.defs); got != c.want {
			t.Errorf("splitParts(%d, %d) = %d, want %d", c.jobs, c.defs, got, c.want)
		}
	}
}

// wantExported fails t unless the shared object so defines the dynamic
// symbol name.
func wantExported(t *testing.T, so, name string) {
	t.Helper()
	f, err := elf.Open(so)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, _ := f.DynamicSymbols()
	for _, s := range syms {
		if s.Name == name && s.Section != elf.SHN_UNDEF {
			return
		}
	}
	t.Errorf("%s does not export %s", so, name)
}
