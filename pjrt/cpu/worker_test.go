package cpu

import (
	"bytes"
	"debug/elf"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const addProgram = `module @jit_add {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
`

// runWorker runs the test binary as the compile worker (as the plugin
// does) on a program and returns its exit status, stdout and stderr.
func runWorker(t *testing.T, program string, env ...string) (code int, stdout, stderr string, out string) {
	t.Helper()
	dir := t.TempDir()
	prog := filepath.Join(dir, "program.mlir")
	opts := filepath.Join(dir, "options.pb")
	out = filepath.Join(dir, "out.so")
	if err := os.WriteFile(prog, []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(opts, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "compile", prog, opts, out)
	cmd.Env = append(append(os.Environ(), "STELA_CPU_WORKER=1"), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatal(err)
	}
	return code, o.String(), e.String(), out
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func TestWorkerCompiles(t *testing.T) {
	code, stdout, stderr, out := runWorker(t, addProgram, "STELA_LOG=compile")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("the worker wrote to stdout: %q", stdout)
	}
	if !regexp.MustCompile(`parse .*ms, verify .*, codegen .*, (opt .*, llc .*|opt\+llc in process .*), link .*, total`).MatchString(stderr) {
		t.Errorf("STELA_LOG=compile: stderr %q does not report the stages' times", stderr)
	}
	f, err := elf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.DynamicSymbols()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"stela_entry": false, "stela_signature": false, "stela_num_checks": false}
	for _, s := range syms {
		if _, ok := want[s.Name]; ok && s.Section != elf.SHN_UNDEF {
			want[s.Name] = true
		}
	}
	for name, found := range want {
		if !found {
			t.Errorf("%s does not export %s", out, name)
		}
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 3 {
		t.Errorf("the output directory holds %d entries, want 3 (no temporary file left behind)", len(entries))
	}
}

func TestWorkerErrors(t *testing.T) {
	cases := []struct {
		name, program string
		code          int
		first         string // regexp for the first line of stderr
	}{
		{"malformed", "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.add %a, : tensor<2xf32>\n}\n",
			exitCompileError, `^2:\d+: `},
		{"unsupported op", `func.func @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<4xf32> {
  %s = stablehlo.constant dense<4> : tensor<1xi64>
  %0 = stablehlo.rng %a, %b, %s, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}`, exitUnsupported, `^unsupported: stablehlo\.rng \(in @main\)$`},
		{"unsupported type", `func.func @main(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = chlo.bessel_i1e %a : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}`, exitUnsupported, `^unsupported: chlo\.bessel_i1e on complex<f32> `},
		{"unsupported chlo", `func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.asin_acos_kernel %a : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}`, exitUnsupported, `^unsupported: chlo\.asin_acos_kernel`},
		{"invalid types", `func.func @main(%a: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}`, exitCompileError, `^stablehlo\.add in @main: operand and result types`},
		{"no entry", `func.func private @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func private @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}`, exitCompileError, `no @main`},
		{"recursion", `func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @main(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}`, exitUnsupported, `^unsupported: recursive call of @main`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr, out := runWorker(t, c.program)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, stderr)
			}
			if !regexp.MustCompile(c.first).MatchString(firstLine(stderr)) {
				t.Errorf("first line of stderr %q does not match %q", firstLine(stderr), c.first)
			}
			if stdout != "" {
				t.Errorf("the worker wrote to stdout: %q", stdout)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a failed compilation left %s", out)
			}
		})
	}
}

func TestWorkerUsage(t *testing.T) {
	var stderr bytes.Buffer
	if code := workerMain([]string{"stela", "compile", "x"}, &stderr); code != exitCompileError {
		t.Errorf("exit %d, want %d", code, exitCompileError)
	}
	if !strings.Contains(stderr.String(), "usage:") {
		t.Errorf("stderr %q has no usage line", stderr.String())
	}
	stderr.Reset()
	if code := workerMain([]string{"stela", "compile", "/nonexistent.mlir", "/nonexistent.pb", "/tmp/x.so"}, &stderr); code != exitCompileError {
		t.Errorf("exit %d, want %d", code, exitCompileError)
	}
}

// TestOptErrorIsReported: a malformed LLVM module (as a code generator bug
// would make) is a compile error that names and quotes the offending
// line, not a crash.
func TestOptErrorIsReported(t *testing.T) {
	tl, err := findTools()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	cases := []struct {
		ll, want string
	}{
		{"define i32 @f(i32 %x) {\n  %y = add i32 %x, %undefined\n  ret i32 %y\n}\n",
			"opt: line 2:20: use of undefined value '%undefined': `%y = add i32 %x, %undefined`"},
		{"define float @f() {\n  ret float 1.142857e+00\n}\n",
			"opt: line 2:13: floating point constant invalid for type: `ret float 1.142857e+00`"},
		{"define i32 @f(i32 %x) {\nentry:\n  ret i32 %y\nother:\n  %y = add i32 %x, 1\n  br label %entry\n}\n",
			"opt: "},
	}
	for i, c := range cases {
		ll := filepath.Join(dir, "bad.ll")
		if err := os.WriteFile(ll, []byte(c.ll), 0o644); err != nil {
			t.Fatal(err)
		}
		err := runOpt(tl, nil, ll, filepath.Join(dir, "bad.bc"))
		if err == nil {
			t.Errorf("case %d: opt accepted a malformed module", i)
			continue
		}
		if first := firstLine(err.Error()); !strings.HasPrefix(first, "internal error: the code generator made invalid LLVM IR: ") || !strings.Contains(first, c.want) {
			t.Errorf("case %d: error %q, want it to contain %q", i, first, c.want)
		}
	}
}

func TestMissingToolsNamePackages(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := findTools()
	if err == nil || !strings.Contains(err.Error(), "apt-get install llvm-14 gcc") {
		t.Errorf("error %v does not name the Debian packages", err)
	}
}

// TestWorkerSwitchError: an unknown word in STELA_DEBUG or STELA_LOG is a
// compile error that names it, whatever the program, not a word ignored.
func TestWorkerSwitchError(t *testing.T) {
	for _, tc := range []struct{ env, first string }{
		{"STELA_DEBUG=nofuse", `STELA_DEBUG=nofuse: unknown word "nofuse" (valid: nans, noattention, nofusion, nolean, shuffle, verify; STELA_DEBUG=help describes them)`},
		{"STELA_LOG=compile,timing", `STELA_LOG=compile,timing: unknown word "timing" (valid: all, compile, recompile, remarks, sharding; STELA_LOG=help describes them)`},
	} {
		code, stdout, stderr, out := runWorker(t, addProgram, tc.env)
		if code != exitCompileError || firstLine(stderr) != tc.first {
			t.Errorf("%s: exit %d, stderr %q; want %d, %q", tc.env, code, stderr, exitCompileError, tc.first)
		}
		if stdout != "" {
			t.Errorf("the worker wrote to stdout: %q", stdout)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("a failed compilation left %s", out)
		}
	}
}
