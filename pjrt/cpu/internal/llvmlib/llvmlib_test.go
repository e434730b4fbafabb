package llvmlib

import (
	"bytes"
	"debug/elf"
	"fmt"
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
	obj, err := Compile([]byte(addLL), Options{CPU: "skylake-avx512", Features: "+avx512f,+avx2,+fma", Level: 2})
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
		_, err := Compile([]byte(c.ll), Options{Level: 2})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one starting %q", c.ll, err, c.want)
		}
	}
}

// BenchmarkCompile compiles $STELA_LLVMLIB_LL (a worker's .ll from
// STELA_DUMP), else the add loop.
func BenchmarkCompile(b *testing.B) {
	ll := benchModule(b)
	cpu, features := codegen.HostCPU()
	for b.Loop() {
		if _, err := Compile(ll, Options{CPU: cpu, Features: features, Level: 2}); err != nil {
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
	ll := benchModule(b)
	cpu, features := codegen.HostCPU()
	for b.Loop() {
		if _, err := CompileParts(ll, Options{CPU: cpu, Features: features, Level: 2, Parts: 2}); err != nil {
			b.Fatal(err)
		}
	}
}

// splitLL is a module shaped like the code generator's: kernels that
// call their loop bodies, an alwaysinline helper, a mutable internal
// variable, a private constant, a destructor, and an entry that calls
// every kernel.
func splitLL(kernels int) string {
	var b strings.Builder
	b.WriteString(`target triple = "x86_64-pc-linux-gnu"
@counter = internal global i64 0
@msg = private unnamed_addr constant [3 x i8] c"ok\00"
@sig = constant [3 x i8] c"f0\00"
@llvm.global_dtors = appending global [1 x { i32, void ()*, i8* }] [{ i32, void ()*, i8* } { i32 65535, void ()* @fini, i8* null }]
declare i64 @strlen(i8*)
define internal void @fini() {
  store i64 0, i64* @counter
  ret void
}
define internal i64 @helper(i64 %x) alwaysinline {
  %p = getelementptr [3 x i8], [3 x i8]* @msg, i64 0, i64 0
  %n = call i64 @strlen(i8* %p)
  %y = add i64 %x, %n
  ret i64 %y
}
`)
	for k := range kernels {
		fmt.Fprintf(&b, `define internal i64 @k%[1]d.w(i64 %%x) {
  %%c = load i64, i64* @counter
  %%y = mul i64 %%x, %%c
  %%z = add i64 %%y, %[1]d
  ret i64 %%z
}
define internal i64 @k%[1]d(i64 %%x) noinline {
  %%s = getelementptr [3 x i8], [3 x i8]* @sig, i64 0, i64 0
  %%n = call i64 @strlen(i8* %%s)
  %%a0 = call i64 @k%[1]d.w(i64 %%x)
  %%a = add i64 %%a0, %%n
  %%b = call i64 @helper(i64 %%a)
  store i64 %%b, i64* @counter
  ret i64 %%b
}
`, k)
	}
	b.WriteString("define i64 @entry(i64 %x0) {\n")
	for k := range kernels {
		fmt.Fprintf(&b, "  %%x%d = call i64 @k%d(i64 %%x%d)\n", k+1, k, k)
	}
	fmt.Fprintf(&b, "  ret i64 %%x%d\n}\n", kernels)
	return b.String()
}

// TestCompileParts: a module cut into parts defines each function and
// variable once over all the parts (the destructor too), each kernel
// with its loop body, and what one part uses from another is a hidden
// global symbol there.
func TestCompileParts(t *testing.T) {
	open(t)
	objs, err := CompileParts([]byte(splitLL(8)), Options{CPU: "x86-64", Level: 2, Parts: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 2 {
		t.Fatalf("%d objects, want 2", len(objs))
	}
	defined := map[string]int{} // global symbol → object
	local := map[string]int{}   // local function symbol → object
	undefined := map[string]bool{}
	dtors := 0
	for i, obj := range objs {
		f, err := elf.NewFile(bytes.NewReader(obj))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range f.Sections {
			if s.Name == ".dtors" || s.Name == ".fini_array" {
				dtors++
			}
		}
		syms, _ := f.Symbols()
		for _, s := range syms {
			if s.Name == "" || elf.ST_TYPE(s.Info) == elf.STT_SECTION || elf.ST_TYPE(s.Info) == elf.STT_FILE {
				continue
			}
			if s.Section == elf.SHN_UNDEF {
				undefined[s.Name] = true
				continue
			}
			if elf.ST_BIND(s.Info) == elf.STB_LOCAL {
				local[s.Name] = i
				continue
			}
			if j, ok := defined[s.Name]; ok {
				t.Errorf("%s is defined in objects %d and %d", s.Name, j, i)
			}
			defined[s.Name] = i
			if s.Name != "entry" && s.Name != "sig" && elf.ST_VISIBILITY(s.Other) != elf.STV_HIDDEN {
				t.Errorf("%s is exported from object %d, want it hidden", s.Name, i)
			}
		}
	}
	for _, name := range []string{"entry", "sig", "counter"} {
		if _, ok := defined[name]; !ok {
			t.Errorf("%s is defined nowhere (defined: %v)", name, defined)
		}
	}
	for name := range undefined {
		if _, ok := defined[name]; !ok && name != "strlen" {
			t.Errorf("%s is used but defined in no part", name)
		}
	}
	// The kernels of the other part than sig's use it: their reference
	// must not be hidden (the link would hide sig from the object's
	// users).
	if !undefined["sig"] {
		t.Error("no part refers to sig from another: the case is not tested")
	}
	for i, obj := range objs {
		f, _ := elf.NewFile(bytes.NewReader(obj))
		syms, _ := f.Symbols()
		for _, s := range syms {
			if s.Name == "sig" && s.Section == elf.SHN_UNDEF && elf.ST_VISIBILITY(s.Other) == elf.STV_HIDDEN {
				t.Errorf("object %d refers to sig as a hidden symbol", i)
			}
		}
	}
	if dtors != 1 {
		t.Errorf("the destructor is registered in %d objects, want 1", dtors)
	}
	// Both parts have kernels (global where the entry is in the other
	// part, local where it is in the same).
	parts := map[int]bool{}
	for k := range 8 {
		name := fmt.Sprintf("k%d", k)
		if i, ok := defined[name]; ok {
			parts[i] = true
		} else if i, ok := local[name]; ok {
			parts[i] = true
		} else {
			t.Errorf("kernel %s is in no object", name)
		}
	}
	if len(parts) != 2 {
		t.Errorf("the kernels are in objects %v, want both", parts)
	}
	// A loop body is never called across parts: it stays with its
	// kernel (inlined there).
	for k := range 8 {
		if _, ok := defined[fmt.Sprintf("k%d.w", k)]; ok {
			t.Errorf("k%d.w is a global symbol: its kernel was put in another part", k)
		}
	}
}

// benchModule opens the library for a benchmark and returns the module it
// compiles: $STELA_LLVMLIB_LL, else the add loop.
func benchModule(b *testing.B) []byte {
	open(b)
	if p := os.Getenv("STELA_LLVMLIB_LL"); p != "" {
		ll, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		return ll
	}
	return []byte(addLL)
}
