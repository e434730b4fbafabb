package rt

import (
	"fmt"
	"os"
	"testing"
)

// TestSkinny checks the AVX-512 kernel of products of 1 to 16 rows with a
// big weight (rt_skinny.h: a decode step's projections and LM head)
// against a float64 product with the error bound of an f32 GEMM: every
// row count, both layouts of the weight (k-major [K,N] and n-major [N,K]
// used transposed), f32 and bf16 weights, op(A) transposed or not, f32
// and bf16 op(A), alpha/beta, leading dimensions past the matrices'
// widths, and N and K that leave tails (N = 1037: 13 columns past the
// last 16, and a row group's remainder; K = 259: 3 past the last 16).
// f32 products take the kernel when the weight has 2^18 elements or
// more. On a CPU with AVX-512 the test checks that the kernel ran; with
// it switched off (STELA_CPU_GEMV=avx2's path) the same cases check the
// AVX2 GEMV and the library.
func TestSkinny(t *testing.T) {
	r, err := New(3)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer SetSkinny(true)
	const N, K = 1037, 259
	for _, on := range []bool{true, false} {
		used := SetSkinny(on)
		t.Logf("skinny on=%v: used=%v", on, used)
		for M := int64(1); M <= 16; M++ {
			if !on && M%5 != 1 {
				continue // off: a few row counts (the other paths have tests of their own)
			}
			for _, bfB := range []bool{false, true} {
				for tr := range 4 {
					ta, tb := tr&1 != 0, tr&2 != 0
					bfA := bfB && tr == 1 // a bf16 op(A) with a bf16 weight (gemm_bf16's both-bf16 case)
					ab := [2]float32{1, 0}
					if M%2 == 0 {
						ab = [2]float32{0.5, 2}
					}
					pad := int64(1 + tr)
					t.Run(fmt.Sprintf("on=%v/M=%d/bf16=%v/t%d", on, M, bfB, tr), func(t *testing.T) {
						before := SkinnyCalls()
						gemmBF16Case(t, r, bfA, bfB, ta, tb, M, N, K, ab[0], ab[1], pad, false)
						want := int64(1)
						if M == 1 && !tb && bfB {
							want = 0 // one row, a k-major bf16 weight: the AVX2 kernel
						}
						if !bfB && os.Getenv("STELA_CPU_GEMV") == "off" {
							want = 0 // f32 products go to the library
						}
						if ran := SkinnyCalls() - before; used && ran != want {
							t.Errorf("the AVX-512 kernel ran %d times, want %d", ran, want)
						} else if !used && ran != 0 {
							t.Errorf("the AVX-512 kernel ran %d times while off", ran)
						}
					})
				}
			}
		}
	}
	// An infinity in op(A) reaches its row of C (no lane of the tails
	// masks it), and small weights with a bf16 operand take the kernel too.
	SetSkinny(true)
	for _, bfB := range []bool{false, true} {
		t.Run(fmt.Sprintf("inf/bf16=%v", bfB), func(t *testing.T) {
			gemmBF16Case(t, r, false, bfB, false, false, 4, 1037, 259, 1, 0, 0, true)
		})
	}
	t.Run("small-bf16", func(t *testing.T) {
		gemmBF16Case(t, r, false, true, false, true, 3, 5, 7, 1, 0, 2, false)
	})
	// One row times a k-major f32 weight with K > N stays with the
	// library (rt_skinny.h), and is right there too.
	t.Run("M=1/K>N", func(t *testing.T) {
		before := SkinnyCalls()
		gemmBF16Case(t, r, false, false, false, false, 1, 300, 1031, 1, 0, 1, false)
		if ran := SkinnyCalls() - before; ran != 0 {
			t.Errorf("the AVX-512 kernel ran %d times, want 0", ran)
		}
	})
}
