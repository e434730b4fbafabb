package env

import "testing"

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
