package ir

import (
	"runtime"
	"strings"
	"testing"
)

// A source of deeply nested brackets is rejected before it becomes tokens
// (issue 20: 10 MB of '[' took 1.3 GB before the parser rejected it).
func TestParseDeepBracketsIsCheap(t *testing.T) {
	src := "func @main() -> f32[2] {\n  %0 = constant {value = " + strings.Repeat("[", 10<<20) + "\n}\n"
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Parse(src)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "nested") {
		t.Errorf("Parse: %v, want a nesting error", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("Parse allocated %d bytes for a %d-byte source, want under 1 MiB", n, len(src))
	}
}
