// Command gencalls writes pjrt/calls_gen.go from pjrt/capi/stela_pjrt.h.
// Run it with `go generate ./pjrt`; TestGeneratedCalls fails when the file
// is stale.
package main

import (
	"log"
	"os"

	"github.com/stela-ml/stela/pjrt/internal/cheader"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("gencalls: ")
	src, err := os.ReadFile("capi/stela_pjrt.h")
	if err != nil {
		log.Fatal(err)
	}
	out, err := cheader.GenerateCalls(string(src))
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("calls_gen.go", out, 0o644); err != nil {
		log.Fatal(err)
	}
}
