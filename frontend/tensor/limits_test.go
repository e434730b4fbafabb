package tensor_test

import (
	"regexp"
	"testing"

	. "github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/ir"
)

// Arrays made from a shape past the allocation limit are errors that name
// the shape and the bytes, at the user's line (issue 20:
// tensor.Zeros(ir.F32, 1<<40) was a fatal out-of-memory that killed the
// process).
func TestHugeShapesAreErrors(t *testing.T) {
	for _, c := range []struct {
		make func()
		want string
	}{
		{func() { Zeros(ir.F32, 1<<40) }, `^limits_test.go:\d+: full: f32\[1099511627776\] needs 4 TiB \(4398046511104 bytes\), more than the allocation limit of .* \(STELA_MAX_ALLOC_BYTES`},
		{func() { Ones(ir.F64, 1<<20, 1<<20) }, `full: f64\[1048576,1048576\] needs 8 TiB`},
		{func() { Full(ir.S8, 1, 1<<40, 1<<40) }, `full: si8\[1099511627776,1099511627776\]: the byte size overflows a 64-bit integer`},
	} {
		err := Catch(c.make)
		if err == nil || !regexp.MustCompile(c.want).MatchString(err.Error()) {
			t.Errorf("%v, want %s", err, c.want)
		}
	}
	// The limit is STELA_MAX_ALLOC_BYTES when set.
	t.Setenv(env.MaxAllocBytesVar, "1K")
	if err := Catch(func() { Zeros(ir.F32, 16, 16) }); err != nil {
		t.Errorf("1 KiB under a 1 KiB limit: %v", err)
	}
	if err := Catch(func() { Zeros(ir.F32, 16, 17) }); err == nil || !regexp.MustCompile(`f32\[16,17\] needs 1.1 KiB \(1088 bytes\), more than the allocation limit of 1 KiB`).MatchString(err.Error()) {
		t.Errorf("1088 bytes over a 1 KiB limit: %v", err)
	}
	t.Setenv(env.MaxAllocBytesVar, "0")
	if err := Catch(func() { Zeros(ir.F32, 1024, 1024) }); err != nil {
		t.Errorf("no limit: %v", err)
	}
}
