package bytecode

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stela-ml/stela/stablehlo"
)

func samples(t testing.TB) [][]byte {
	files, err := filepath.Glob("testdata/*.mlirbc")
	if err != nil || len(files) == 0 {
		t.Fatalf("no samples: %v", err)
	}
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// TestTruncated: every proper prefix of a sample is an error (never a
// panic), and one that names an offset.
func TestTruncated(t *testing.T) {
	for _, data := range samples(t)[:6] {
		for n := 0; n < len(data); n++ {
			_, err := Read(data[:n])
			if err == nil {
				t.Fatalf("prefix of %d of %d bytes read without error", n, len(data))
			}
			var be *Error
			if !errors.As(err, &be) && !strings.Contains(err.Error(), "mlir bytecode") {
				t.Fatalf("prefix %d: error %q is not a bytecode error", n, err)
			}
		}
	}
}

// TestCorrupt flips each byte of a sample: the reader returns an error or
// a module that prints, never panics.
func TestCorrupt(t *testing.T) {
	data := samples(t)[0]
	for i := 4; i < len(data); i++ {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			b := append([]byte(nil), data...)
			b[i] ^= x
			if m, err := Read(b); err == nil {
				stablehlo.Format(m, stablehlo.PrintOptions{Locations: true})
			}
		}
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		data []byte
		want string
	}{
		{[]byte("module {}"), "not MLIR bytecode"},
		{[]byte("ML\xefR"), "offset 4: unexpected end of data"},
		{[]byte("ML\xefR\x0fx\x00"), "bytecode version 7 is newer"},
		{[]byte("ML\xefR\x0dp\x00\x7f\x01"), "invalid section ID 127"},
		{[]byte("ML\xefR\x0dp\x00\x00\x81"), "need 64 bytes"},
		{[]byte("ML\xefR\x0dp\x00\x00\x01\x00\x01"), "duplicate string section"},
		{[]byte("ML\xefR\x0dp\x00\x00\x01"), "the dialect section is missing"},
	} {
		_, err := Read(tc.data)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Read(%q) = %v, want an error with %q", tc.data, err, tc.want)
		}
	}
}

func FuzzRead(f *testing.F) {
	for _, s := range samples(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Read(data)
		if err != nil {
			return
		}
		stablehlo.Format(m, stablehlo.PrintOptions{Locations: true})
	})
}
