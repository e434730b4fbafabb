package stablehlo

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// goldenFiles returns the golden files: testdata/*.mlir. Files named
// *.loc.mlir are printed with locations.
func goldenFiles(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join("testdata", "*.mlir"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	return files
}

func goldenOptions(file string) PrintOptions {
	return PrintOptions{Locations: strings.HasSuffix(file, ".loc.mlir")}
}

// TestGoldenRoundTrip checks print(parse(text)) == text for every golden
// file, and that printing is stable through a second parse.
func TestGoldenRoundTrip(t *testing.T) {
	for _, file := range goldenFiles(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Parse(src)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			opts := goldenOptions(file)
			out := string(Format(m, opts))
			if out != string(src) {
				if *update {
					if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				t.Errorf("print(parse(%s)) differs:\n%s", file, lineDiff(string(src), out))
			}
			m2, err := Parse([]byte(out))
			if err != nil {
				t.Fatalf("reparse: %v", err)
			}
			if out2 := string(Format(m2, opts)); out2 != out {
				t.Errorf("print is not stable:\n%s", lineDiff(out, out2))
			}
		})
	}
}

// lineDiff shows the first differing lines of want and got.
func lineDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	var sb strings.Builder
	n := 0
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			sb.WriteString("line ")
			sb.WriteString(strconv.Itoa(i + 1))
			sb.WriteString(":\n  want: ")
			sb.WriteString(w)
			sb.WriteString("\n  got:  ")
			sb.WriteString(g)
			sb.WriteString("\n")
			if n++; n == 8 {
				break
			}
		}
	}
	return sb.String()
}
