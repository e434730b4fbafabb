package env

import (
	"testing"
	"time"
)

func TestParseSize(t *testing.T) {
	for s, want := range map[string]int64{"0": 0, "1234": 1234, "2K": 2048, "3m": 3 << 20, "1GiB": 1 << 30, "1GB": 1 << 30, "1T": 1 << 40} {
		if got, err := ParseSize(s); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "lots", "-1", "1X", "1KBB", "1.5G", "9223372036854775807K", "99999999999999999999"} {
		if got, err := ParseSize(s); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", s, got)
		}
	}
}

func TestExecTimeout(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{{"", 0, true}, {"0", 0, true}, {"30s", 30 * time.Second, true}, {"1h30m", 90 * time.Minute, true}, {"10", 0, false}, {"-1s", 0, false}, {"soon", 0, false}} {
		t.Setenv(ExecTimeoutVar, c.in)
		got, err := ExecTimeout()
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("%s=%q: got %v, %v; want %v (ok %v)", ExecTimeoutVar, c.in, got, err, c.want, c.ok)
		}
	}
}
