package stablehlo

import (
	"os"
	"testing"
)

// FuzzParse checks that Parse never panics and that, when it succeeds,
// print → parse → print is stable (with and without locations). Seeded
// from the golden files; `go test -fuzz FuzzParse` explores further.
func FuzzParse(f *testing.F) {
	for _, file := range goldenFiles(f) {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte(sampleText))
	f.Add([]byte(genericModuleText))
	for _, tt := range canonicalTests {
		f.Add([]byte(wrapMain(tt.args, tt.in)))
	}
	for _, tt := range errorTests {
		if len(tt.src) < 1000 {
			f.Add([]byte(tt.src))
		}
	}
	f.Add([]byte(wrapMain("%arg0: tensor<2xf32>", `
  %0 = chlo.top_k(%arg0, k = 1) : tensor<2xf32> -> (tensor<1xf32>, tensor<1xi32>)
  check.expect_close %arg0, %arg0, max_ulp_difference = 3, min_ulp_difference = 1 : tensor<2xf32>`)))
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := Parse(src)
		if err != nil {
			return
		}
		if err := m.Verify(); err != nil {
			t.Fatalf("parsed module does not verify: %v\ninput:\n%s", err, src)
		}
		for _, opts := range []PrintOptions{{}, {Locations: true}} {
			out := Format(m, opts)
			m2, err := Parse(out)
			if err != nil {
				t.Fatalf("printed text does not parse: %v\ninput:\n%s\nprinted:\n%s", err, src, out)
			}
			if out2 := Format(m2, opts); string(out2) != string(out) {
				t.Fatalf("print is not stable:\n%s\ninput:\n%s", lineDiff(string(out), string(out2)), src)
			}
		}
	})
}
