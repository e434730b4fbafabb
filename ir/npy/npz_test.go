package npy

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// ReadNPZFile reads each member of a savez-style zip by its name without
// ".npy"; a member that is not an .npy array is an error naming it.
func TestReadNPZFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.npz")
	write := func(members map[string]func(z *zip.Writer, name string)) {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		z := zip.NewWriter(f)
		for name, fn := range members {
			fn(z, name)
		}
		if err := z.Close(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	array := func(l *ir.Literal) func(z *zip.Writer, name string) {
		return func(z *zip.Writer, name string) {
			w, err := z.Create(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := Write(w, l); err != nil {
				t.Fatal(err)
			}
		}
	}
	x := ir.LiteralOf([]int{2, 2}, float32(1), 2, 3, 4)
	y := ir.ScalarOf(int32(7))
	write(map[string]func(*zip.Writer, string){"x.npy": array(x), "y.npy": array(y)})
	got, err := ReadNPZFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("got %d arrays, want x and y", len(got))
	}
	for name, want := range map[string]*ir.Literal{"x": x, "y": y} {
		if l := got[name]; l == nil || ir.LiteralsAllClose(l, want, 0, 0) != nil {
			t.Errorf("%s: %v, want %v", name, l, want)
		}
	}
	write(map[string]func(*zip.Writer, string){"bad.npy": func(z *zip.Writer, name string) {
		w, _ := z.Create(name)
		w.Write([]byte("not an array"))
	}})
	if _, err := ReadNPZFile(path); err == nil || !strings.Contains(err.Error(), "bad.npy") {
		t.Errorf("bad member: %v", err)
	}
}
