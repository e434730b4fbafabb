package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestGoMLXBenchArgs(t *testing.T) {
	for _, c := range []struct {
		w       string
		runs    int
		set     bool
		want    []string
		wantErr string
	}{
		{"", 5, false, nil, ""},
		{"W1, w3", 5, false, []string{"-w", "1,3"}, ""},
		{"", 9, true, []string{"-iters", "9"}, ""},
		{"W6,W2", 3, true, []string{"-w", "6,2", "-iters", "3"}, ""},
		{"W7", 5, false, nil, `unknown workload "W7"`},
		{"X1", 5, false, nil, `unknown workload "X1"`},
	} {
		got, err := gomlxBenchArgs(c.w, c.runs, c.set)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%q: error %v, want %q", c.w, err, c.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%q %d %v: %v, %v; want %v", c.w, c.runs, c.set, got, err, c.want)
		}
	}
}

// TestGoMLXBenchDir: the module is found from inside the checkout (here:
// cmd/stela), and not from a directory outside any checkout.
func TestGoMLXBenchDir(t *testing.T) {
	wd, _ := os.Getwd()
	dir, err := gomlxBenchDir(wd)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(filepath.Dir(filepath.Dir(wd)), "test", "gomlx"); dir != want {
		t.Errorf("found %s, want %s", dir, want)
	}
	if _, err := gomlxBenchDir(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no Stela checkout") {
		t.Errorf("outside a checkout: %v", err)
	}
}
