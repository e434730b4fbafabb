package capi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stela-ml/stela/pjrt/capi"
	"github.com/stela-ml/stela/pjrt/internal/cheader"
)

// The module whose pjrt/pjrt_c_api.h is the reference (API 0.81). It is a
// requirement in go.mod; only its header file is used.
const refModule, refVersion, refHeaderDir = "github.com/gomlx/gopjrt", "v0.10.0", "pjrt"

func TestHeaderConstants(t *testing.T) {
	h, err := cheader.Parse(capi.Header)
	if err != nil {
		t.Fatal(err)
	}
	if h.Defines["PJRT_API_MAJOR"] != capi.APIMajor || h.Defines["PJRT_API_MINOR"] != capi.APIMinor {
		t.Errorf("header declares %d.%d, capi.APIMajor/APIMinor say %d.%d",
			h.Defines["PJRT_API_MAJOR"], h.Defines["PJRT_API_MINOR"], capi.APIMajor, capi.APIMinor)
	}
	onDisk, err := os.ReadFile(capi.HeaderName)
	if err != nil {
		t.Fatal(err)
	}
	if string(onDisk) != capi.Header {
		t.Error("capi.Header differs from stela_pjrt.h")
	}
}

// TestABI compiles the real header and ours in two translation units (they
// declare the same names, so one file cannot include both), each dumping
// sizeof, _Alignof, offsetof, type class and value of every item parsed
// from our header, and compares the two dumps line by line.
func TestABI(t *testing.T) {
	h, err := cheader.Parse(capi.Header)
	if err != nil {
		t.Fatal(err)
	}
	realDir := referenceHeaderDir(t)
	cc := cCompiler(t)

	items := abiItems(h)
	tmp := t.TempDir()
	oursDir := filepath.Join(tmp, "ours")
	write(t, filepath.Join(oursDir, capi.HeaderName), capi.Header)
	write(t, filepath.Join(tmp, "abi_items.def"), items)
	write(t, filepath.Join(tmp, "dump_real.c"), fmt.Sprintf(dumpC, "pjrt_c_api.h", "abi_dump_real"))
	write(t, filepath.Join(tmp, "dump_ours.c"), fmt.Sprintf(dumpC, capi.HeaderName, "abi_dump_ours"))
	write(t, filepath.Join(tmp, "main.c"), mainC)

	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = tmp
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run(cc, "-std=c11", "-c", "-I", realDir, "-o", "dump_real.o", "dump_real.c")
	run(cc, "-std=c11", "-Wall", "-Wextra", "-pedantic", "-Werror", "-c", "-I", oursDir, "-o", "dump_ours.o", "dump_ours.c")
	run(cc, "-o", "abicheck", "main.c", "dump_real.o", "dump_ours.o")
	run(filepath.Join(tmp, "abicheck"), "real.txt", "ours.txt")

	real := readLines(t, filepath.Join(tmp, "real.txt"))
	ours := readLines(t, filepath.Join(tmp, "ours.txt"))
	if len(real) != len(ours) {
		t.Fatalf("dumps have %d (real) and %d (ours) lines", len(real), len(ours))
	}
	bad := 0
	for i := range real {
		if real[i] != ours[i] {
			if bad++; bad <= 30 {
				t.Errorf("ABI mismatch:\n\treal: %s\n\tours: %s", real[i], ours[i])
			}
		}
	}
	if bad > 30 {
		t.Errorf("... %d mismatches in all", bad)
	}
	var nStruct, nField, nEnum int
	for _, l := range ours {
		switch {
		case strings.HasPrefix(l, "struct "):
			nStruct++
		case strings.HasPrefix(l, "field "):
			nField++
		case strings.HasPrefix(l, "enum "):
			nEnum++
		}
	}
	t.Logf("compared %d structs, %d fields, %d enumerators against %s", nStruct, nField, nEnum, realDir)
	// The table itself must be what the 0.81 header says: 118 slots, 984 bytes.
	for _, want := range []string{"struct PJRT_Api size=984 align=8", "const PJRT_Api_STRUCT_SIZE=984", "enum PJRT_API_MINOR=81"} {
		if !contains(ours, want) {
			t.Errorf("our dump lacks %q", want)
		}
	}
}

// abiItems is the X-macro list: every struct with a body, each of its
// fields, its size constant, every enum type and enumerator, and the
// version macros.
func abiItems(h *cheader.Header) string {
	var b strings.Builder
	for _, s := range h.Structs {
		fmt.Fprintf(&b, "ABI_STRUCT(%s)\n", s.Name)
		for _, f := range s.Fields {
			fmt.Fprintf(&b, "ABI_FIELD(%s, %s)\n", s.Name, f.Name)
		}
		if s.Last != "" {
			fmt.Fprintf(&b, "ABI_SIZECONST(%s)\n", s.Name)
		}
	}
	for _, e := range h.Enums {
		fmt.Fprintf(&b, "ABI_ENUMTYPE(%s)\n", e.Name)
		for _, v := range e.Values {
			fmt.Fprintf(&b, "ABI_ENUM(%s)\n", v.Name)
		}
	}
	b.WriteString("ABI_ENUM(PJRT_API_MAJOR)\nABI_ENUM(PJRT_API_MINOR)\n")
	return b.String()
}

const dumpC = `#include <stdio.h>
#include <stddef.h>
#include "%s"

/* __builtin_classify_type tells pointers, integers, enums, bools, floats
   and records apart, which size and offset alone do not. */
#if defined(__GNUC__) || defined(__clang__)
#define ABI_CLASS(x) __builtin_classify_type(x)
#else
#define ABI_CLASS(x) (-1)
#endif
/* ABI_KIND names the scalar type, so that signedness and bool-ness are
   compared too (enums select the integer type they are compatible with). */
#define ABI_KIND(x) _Generic((x), _Bool: "bool", char: "char", signed char: "schar", \
  unsigned char: "uchar", short: "short", unsigned short: "ushort", int: "int", \
  unsigned int: "uint", long: "long", unsigned long: "ulong", long long: "llong", \
  unsigned long long: "ullong", float: "float", double: "double", default: "other")

void %s(FILE* f) {
#define ABI_STRUCT(s) fprintf(f, "struct %%s size=%%zu align=%%zu\n", #s, sizeof(s), _Alignof(s));
#define ABI_FIELD(s, m) fprintf(f, "field %%s.%%s off=%%zu size=%%zu class=%%d kind=%%s\n", #s, #m, offsetof(s, m), sizeof(((s*)0)->m), (int)ABI_CLASS(((s*)0)->m), ABI_KIND(((s*)0)->m));
#define ABI_SIZECONST(s) fprintf(f, "const %%s_STRUCT_SIZE=%%zu\n", #s, (size_t)s##_STRUCT_SIZE);
#define ABI_ENUMTYPE(e) fprintf(f, "enumtype %%s size=%%zu\n", #e, sizeof(e));
#define ABI_ENUM(e) fprintf(f, "enum %%s=%%lld\n", #e, (long long)(e));
#include "abi_items.def"
}
`

const mainC = `#include <stdio.h>
void abi_dump_real(FILE* f);
void abi_dump_ours(FILE* f);
int main(int argc, char** argv) {
  if (argc != 3) return 2;
  FILE* r = fopen(argv[1], "w");
  FILE* o = fopen(argv[2], "w");
  if (!r || !o) return 1;
  abi_dump_real(r);
  abi_dump_ours(o);
  return fclose(r) != 0 || fclose(o) != 0;
}
`

// referenceHeaderDir finds the directory of the real pjrt_c_api.h in the
// module cache: `go list -m` when the module is already downloaded, else
// `go mod download`. Without it (offline, empty cache) the test skips,
// except under CI=true, where it fails.
func referenceHeaderDir(t *testing.T) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		skipOrFail(t, "no go command in PATH to locate %s", refModule)
	}
	var mod struct{ Dir, Version, Error string }
	try := func(args ...string) bool {
		out, err := exec.Command(goCmd, args...).Output()
		mod.Dir, mod.Error = "", ""
		if err != nil || json.Unmarshal(out, &mod) != nil {
			return false
		}
		_, statErr := os.Stat(filepath.Join(mod.Dir, refHeaderDir, "pjrt_c_api.h"))
		return mod.Dir != "" && statErr == nil
	}
	if !try("list", "-m", "-json", refModule) && !try("mod", "download", "-json", refModule+"@"+refVersion) {
		skipOrFail(t, "real PJRT header not available: %s@%s is not in the module cache and could not be downloaded (%s); run: go mod download %s",
			refModule, refVersion, mod.Error, refModule)
	}
	if mod.Version != "" && mod.Version != refVersion {
		t.Logf("note: go.mod selects %s %s; the reference is %s", refModule, mod.Version, refVersion)
	}
	return filepath.Join(mod.Dir, refHeaderDir)
}

func cCompiler(t *testing.T) string {
	t.Helper()
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	path, err := exec.LookPath(cc)
	if err != nil {
		skipOrFail(t, "no C compiler (%s): install gcc (Debian package gcc) or set CC", cc)
	}
	return path
}

func skipOrFail(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(bytes.TrimSpace(b)), "\n")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
