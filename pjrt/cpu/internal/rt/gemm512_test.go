package rt

import (
	"fmt"
	"testing"
)

// The f32 GEMM kernels the runtime chooses among (SetGEMM): the AVX-512
// kernel (rt_gemm512.h; 14x32 micro-tiles, K slices of 512, N blocks of
// 2048) where the CPU has AVX-512, and the AVX2/generic one that CPUs
// without it run, so that each CI machine tests the code it runs. Shapes
// put M, N and K at every residue of the micro-tile and across the
// blocks' edges, with all four transpose combinations, padded leading
// dimensions, and alpha/beta (beta = 0 with NaN in C: C must not be read).
func TestGemmF32Kernels(t *testing.T) {
	defer SetGEMM(GemmAuto)
	r, err := New(3)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	type cs struct {
		M, N, K int64
		tr      int
		ab      [2]float64
		pad     int64
	}
	var cases []cs
	abs := [][2]float64{{1, 0}, {0.5, 2}, {-1.5, 0}, {2, -0.25}}
	for m := int64(1); m <= 100; m++ {
		// N runs through every residue of 32 (and past 64), K through
		// short and long slices.
		n := 1 + (m*37)%100
		k := 1 + (m*53)%300
		cases = append(cases, cs{m, n, k, int(m % 4), abs[m%4], m % 3})
	}
	for tr := range 4 {
		cases = append(cases,
			cs{300, 513, 600, tr, abs[tr], int64(tr)}, // two K slice edges, tiles over the pool
			cs{29, 3100, 40, tr, abs[tr], 1},          // past the N block (3072)
			cs{257, 70, 1030, tr, abs[(tr+1)%4], 0},   // K past two slices, few columns
			cs{17, 64, 257, tr, abs[(tr+2)%4], 2},
		)
	}
	avx512 := SetGEMM(GemmOwn)
	modes := []struct {
		name string
		mode int
	}{{"avx2", GemmAVX2}}
	if avx512 {
		modes = append(modes, struct {
			name string
			mode int
		}{"avx512", GemmOwn})
	} else {
		t.Log("no AVX-512 on this CPU: only the AVX2/generic kernel is tested")
	}
	for _, m := range modes {
		SetGEMM(m.mode)
		for _, c := range cases {
			ta, tb := c.tr&1 != 0, c.tr&2 != 0
			// own: the kernel itself (every size); table: rt_sgemm's
			// dispatch (where GemmOwn sends every product the GEMV path
			// does not take).
			for _, own := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/own=%v/%dx%dx%d/t%d/%v/pad%d", m.name, own, c.M, c.N, c.K, c.tr, c.ab, c.pad), func(t *testing.T) {
					gemmCase(t, r, false, own, ta, tb, c.M, c.N, c.K, c.ab[0], c.ab[1], c.pad)
				})
			}
		}
	}
}

// rt_sgemm's default choice (auto) on a product big enough for the
// AVX-512 kernel where the CPU has it (oneDNN's otherwise), through the
// table as compiled programs call it.
func TestGemmF32Auto(t *testing.T) {
	SetGEMM(GemmAuto)
	r, err := New(2)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for tr, ab := range [][2]float64{{1, 0}, {0.5, -1}} {
		t.Run(fmt.Sprint(tr), func(t *testing.T) {
			gemmCase(t, r, false, false, tr == 1, tr == 1, 260, 260, 2000, ab[0], ab[1], int64(tr))
		})
	}
}
