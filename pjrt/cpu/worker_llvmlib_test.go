package cpu

import (
	"bytes"
	"debug/elf"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stela-ml/stela/pjrt/cpu/internal/llvmlib"
)

// textOf is the .text section of an ELF object file.
func textOf(t *testing.T, path string) []byte {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := f.Section(".text")
	if s == nil {
		t.Fatalf("%s has no .text", path)
	}
	b, err := s.Data()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestInProcessLLVM: with libLLVM-14 loaded in the worker, a module is
// compiled in process (whole: into the same machine code as opt then llc
// make of it; or in two parts, which link into an object exporting the
// same functions); a module that LLVM rejects is reported as the programs
// report it (the worker runs them to say what is wrong).
func TestInProcessLLVM(t *testing.T) {
	if _, err := findTools(); err != nil {
		t.Skip(err)
	}
	if err := llvmlib.Open(); err != nil {
		t.Skip(err)
	}
	t.Setenv("STELA_CPU_LLVM", "")
	lib, tools := t.TempDir(), t.TempDir()
	var tm Timings
	so, err := buildObject(manyFunctions(40, -1), CompileConfig{Out: filepath.Join(lib, "out.so"), Jobs: 2}, &tm)
	if err != nil {
		t.Fatal(err)
	}
	if tm.LLVM <= 0 || tm.Opt != 0 || tm.Llc != 0 || tm.Parts != 2 {
		t.Errorf("timings %+v: want the work in process (LLVM), in 2 parts", tm)
	}
	f, err := elf.Open(so)
	if err != nil {
		t.Fatal(err)
	}
	syms, _ := f.DynamicSymbols()
	f.Close()
	found := false
	for _, s := range syms {
		found = found || (s.Name == "all" && s.Section != elf.SHN_UNDEF)
	}
	if !found {
		t.Errorf("%s does not export all", so)
	}
	if _, err := buildObject(manyFunctions(40, -1), CompileConfig{Out: filepath.Join(lib, "out.so"), KeepDir: lib, Jobs: 1}, &tm); err != nil {
		t.Fatal(err)
	}

	t.Setenv("STELA_CPU_LLVM", "tools")
	if _, err := buildObject(manyFunctions(40, -1), CompileConfig{Out: filepath.Join(tools, "out.so"), KeepDir: tools, Jobs: 1}, &tm); err != nil {
		t.Fatal(err)
	}
	if tm.Opt <= 0 || tm.Llc <= 0 {
		t.Errorf("STELA_CPU_LLVM=tools: timings %+v, want opt and llc", tm)
	}
	if a, b := textOf(t, filepath.Join(lib, "part0.o")), textOf(t, filepath.Join(tools, "part0.o")); !bytes.Equal(a, b) {
		t.Errorf("in process: %d bytes of code, opt and llc: %d bytes; want the same code", len(a), len(b))
	}

	// A broken module: the same error either way.
	var msgs []string
	for _, mode := range []string{"", "tools"} {
		t.Setenv("STELA_CPU_LLVM", mode)
		_, err := buildObject(manyFunctions(40, 17), CompileConfig{Out: filepath.Join(t.TempDir(), "bad.so"), Jobs: 1}, &tm)
		if err == nil {
			t.Fatalf("STELA_CPU_LLVM=%q: a broken module compiled", mode)
		}
		msgs = append(msgs, firstLine(err.Error()))
	}
	want := "opt: line 71:20: use of undefined value '%undefined'"
	if msgs[0] != msgs[1] || !strings.Contains(msgs[0], want) {
		t.Errorf("broken module: in process %q, tools %q; want both to contain %q", msgs[0], msgs[1], want)
	}
}

// TestLinkFallsBackToCC: where ld fails, cc -shared links the objects.
func TestLinkFallsBackToCC(t *testing.T) {
	tl, err := findTools()
	if err != nil {
		t.Skip(err)
	}
	if err := llvmlib.Open(); err != nil {
		t.Skip(err)
	}
	obj, err := llvmlib.Compile(manyFunctions(4, -1), llvmlib.Options{CPU: "x86-64", Level: 2})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	objPath := filepath.Join(dir, "part0.o")
	if err := os.WriteFile(objPath, obj, 0o644); err != nil {
		t.Fatal(err)
	}
	tl.ld = "/bin/false"
	var tm Timings
	so, err := link(tl, CompileConfig{Out: filepath.Join(dir, "out.so")}, []string{objPath}, &tm)
	if err != nil {
		t.Fatalf("a failing ld: %v", err)
	}
	wantExported(t, so, "all")
}
