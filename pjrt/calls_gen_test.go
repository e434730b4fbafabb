package pjrt

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/stela-ml/stela/pjrt/internal/cheader"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGeneratedCalls fails when calls_gen.go is stale: regenerate it with
// `go generate ./pjrt` (or this test with -update).
func TestGeneratedCalls(t *testing.T) {
	hdr, err := os.ReadFile("capi/stela_pjrt.h")
	if err != nil {
		t.Fatal(err)
	}
	want, err := cheader.GenerateCalls(string(hdr))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("calls_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		if *update {
			if err := os.WriteFile("calls_gen.go", want, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Error("calls_gen.go is stale: run go generate ./pjrt")
	}
}
