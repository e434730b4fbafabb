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
	// One row times a k-major weight: the rows split among the blocks
	// (sk1_job), with K > N, a K that leaves a remainder of 1 to 3 rows
	// in a block, an infinity in op(A), alpha/beta, and N past
	// SK1_MAXN (the column blocks); and, switched off
	// (STELA_CPU_GEMV=cols), the column blocks (f32 with K <= N), the
	// AVX2 kernel (bf16) and the library (f32 with K > N).
	for _, rows := range []bool{true, false} {
		SetSkinnyRow(rows)
		for _, c := range []struct {
			bfB, ta, inf bool
			N, K         int64
			alpha, beta  float32
		}{
			{false, false, false, 300, 1031, 1, 0},
			{true, false, false, 300, 1031, 0.5, 2},
			{false, true, false, 1037, 259, 1, 0},
			{true, true, false, 771, 3001, 1, 1},
			{false, false, true, 1037, 259, 1, 0},
			{true, false, true, 1037, 259, 1, 0},
			{false, false, false, 8200, 40, 1, 0},
			{true, false, false, 8200, 40, 1, 0},
		} {
			t.Run(fmt.Sprintf("M=1/rows=%v/bf16=%v/ta=%v/inf=%v/N=%d/K=%d", rows, c.bfB, c.ta, c.inf, c.N, c.K), func(t *testing.T) {
				before := SkinnyCalls()
				gemmBF16Case(t, r, false, c.bfB, c.ta, false, 1, c.N, c.K, c.alpha, c.beta, 1, c.inf)
				want := int64(1)
				if (!rows || c.N > 8192) && (c.bfB || c.K > c.N) {
					want = 0
				}
				if !c.bfB && os.Getenv("STELA_CPU_GEMV") == "off" {
					want = 0
				}
				if ran := SkinnyCalls() - before; ran != want {
					t.Errorf("the AVX-512 kernel ran %d times, want %d", ran, want)
				}
			})
		}
	}
	SetSkinnyRow(true)
}
