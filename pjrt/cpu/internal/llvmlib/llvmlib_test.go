package llvmlib

import (
	"bytes"
	"debug/elf"
	"os"
	"strings"
	"testing"

	"github.com/stela-ml/stela/pjrt/cpu/codegen"
)

const addLL = `target triple = "x86_64-pc-linux-gnu"

define void @add(float* noalias %out, float* noalias %a, float* noalias %b, i64 %n) nounwind {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %pa = getelementptr inbounds float, float* %a, i64 %i
  %pb = getelementptr inbounds float, float* %b, i64 %i
  %po = getelementptr inbounds float, float* %out, i64 %i
  %x = load float, float* %pa
  %y = load float, float* %pb
  %s = fadd float %x, %y
  store float %s, float* %po
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
`

func open(t testing.TB) {
	t.Helper()
	if err := Open(); err != nil {
		t.Skip(err)
	}
}

// TestCompile: a loop becomes an x86-64 ELF object that defines the
// function, vectorized (opt -O2's loop vectorizer on, with the target's
// vector width: 256 bits on skylake-avx512, which prefers them).
func TestCompile(t *testing.T) {
	open(t)
	obj, err := Compile([]byte(addLL), "skylake-avx512", "+avx512f,+avx2,+fma", 2)
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(obj))
	if err != nil {
		t.Fatalf("not an ELF object: %v", err)
	}
	if f.Machine != elf.EM_X86_64 || f.Type != elf.ET_REL {
		t.Errorf("machine %v type %v, want x86-64 relocatable", f.Machine, f.Type)
	}
	syms, _ := f.Symbols()
	found := false
	for _, s := range syms {
		found = found || (s.Name == "add" && elf.ST_TYPE(s.Info) == elf.STT_FUNC)
	}
	if !found {
		t.Errorf("no function add in %v", syms)
	}
	text := f.Section(".text")
	code, _ := text.Data()
	// vaddps ymm (VEX.256 0F 58): c5 fc/f4/.. 58 or c4 .. .. 58.
	if !vex256Add(code) {
		t.Errorf("the loop was not vectorized with ymm adds:\n% x", code)
	}
}

// TestCompileErrors: bad IR is an error naming the step, not a crash.
func TestCompileErrors(t *testing.T) {
	open(t)
	for _, c := range []struct{ ll, want string }{
		{"define void @f( {", "parse: "},
		{"define i32 @f() {\nentry:\n  ret void\n}\n", "parse: "},
		{"define void @f() {\nentry:\n  %x = add i32 %y, 1\n  %y = add i32 %x, 1\n  ret void\n}\n", "verify: "},
		{"", "parse: "},
	} {
		_, err := Compile([]byte(c.ll), "", "", 2)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one starting %q", c.ll, err, c.want)
		}
	}
}

// BenchmarkCompile compiles $STELA_LLVMLIB_LL (a worker's .ll from
// STELA_DUMP), else the add loop.
func BenchmarkCompile(b *testing.B) {
	open(b)
	ll := []byte(addLL)
	if p := os.Getenv("STELA_LLVMLIB_LL"); p != "" {
		var err error
		if ll, err = os.ReadFile(p); err != nil {
			b.Fatal(err)
		}
	}
	cpu, features := codegen.HostCPU()
	for b.Loop() {
		if _, err := Compile(ll, cpu, features, 2); err != nil {
			b.Fatal(err)
		}
	}
}

// vex256Add reports whether code has a 256-bit vaddps (VEX prefix with L
// set, opcode 0x58, no SIMD prefix).
func vex256Add(code []byte) bool {
	for i := 0; i+3 < len(code); i++ {
		switch {
		case code[i] == 0xc5 && code[i+1]&0x07 == 0x04 && code[i+2] == 0x58:
			return true
		case code[i] == 0xc4 && code[i+1]&0x1f == 0x01 && code[i+2]&0x07 == 0x04 && code[i+3] == 0x58:
			return true
		}
	}
	return false
}

// BenchmarkCompileParts is BenchmarkCompile cut into two parts.
func BenchmarkCompileParts(b *testing.B) {
	open(b)
	ll := []byte(addLL)
	if p := os.Getenv("STELA_LLVMLIB_LL"); p != "" {
		var err error
		if ll, err = os.ReadFile(p); err != nil {
			b.Fatal(err)
		}
	}
	cpu, features := codegen.HostCPU()
	for b.Loop() {
		if _, err := CompileParts(ll, cpu, features, 2, 2); err != nil {
			b.Fatal(err)
		}
	}
}
