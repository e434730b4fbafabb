package codegen_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stela-ml/stela/pjrt/cpu/codegen"
	"github.com/stela-ml/stela/stablehlo"
)

// FuzzLLVM runs the worker's front half on arbitrary text: parse →
// verify → Plan → LLVM IR (no opt or llc). Errors are fine; a panic, or
// an error that says it is the code generator's bug (codegen.ErrInternal),
// is a failure. Seeded from stablehlo's golden files and
// testdata/fuzz/FuzzLLVM; `go test -fuzz FuzzLLVM` explores further
// (docs/limits.md, "Fuzzing").
func FuzzLLVM(f *testing.F) {
	files, _ := filepath.Glob("../../../stablehlo/testdata/*.mlir")
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte(chainProgram(4)))
	f.Fuzz(func(t *testing.T, src []byte) {
		if bigShapes(src) {
			return
		}
		m, err := stablehlo.Parse(src)
		if err != nil || m.Verify() != nil {
			return
		}
		p, err := codegen.Plan(m, codegen.Options{})
		if err != nil {
			if errors.Is(err, codegen.ErrInternal) {
				t.Fatalf("Plan: %v\ninput:\n%s", err, src)
			}
			return
		}
		if _, err := p.LLVM(); err != nil && errors.Is(err, codegen.ErrInternal) {
			t.Fatalf("LLVM: %v\ninput:\n%s", err, src)
		}
	})
}

var tensorDims = regexp.MustCompile(`tensor<((?:\d+x)+)`)

// bigShapes reports whether src names a tensor type of more than 2^16
// elements: the planner folds constants and the fuzzer's mutations make
// shapes of billions of elements, whose folding takes seconds to minutes
// per input and stalls the fuzzer without finding anything. Large shapes
// have tests of their own (worker_limits_test.go).
func bigShapes(src []byte) bool {
	for _, m := range tensorDims.FindAllSubmatch(src, -1) {
		n := int64(1)
		for _, d := range strings.Split(strings.TrimSuffix(string(m[1]), "x"), "x") {
			v, err := strconv.ParseInt(d, 10, 64)
			if err != nil || v > 1<<16 {
				return true
			}
			if n *= max(v, 1); n > 1<<16 {
				return true
			}
		}
	}
	return false
}
