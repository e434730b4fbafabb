package rt

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// toBF16 rounds x to bfloat16 (to nearest even) and returns its bits.
func toBF16(x float32) uint16 {
	u := math.Float32bits(x)
	return uint16((u + 0x7fff + (u>>16)&1) >> 16)
}

func fromBF16(h uint16) float64 { return float64(math.Float32frombits(uint32(h) << 16)) }

// gemmBF16Case checks gemm_bf16 against a float64 product of the values
// as stored, with the error bound of an f32 GEMM (sums of K products in
// f32): the split of an f32 operand into bf16 parts must lose nothing.
func gemmBF16Case(t *testing.T, r *Runtime, bfA, bfB, ta, tb bool, M, N, K int64, alpha, beta float32, pad int64, inf bool) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(M*1000003+N*1009+K), 11))
	u := math.Ldexp(1, -24)
	ar, ac := M, K
	if ta {
		ar, ac = K, M
	}
	br, bc := K, N
	if tb {
		br, bc = N, K
	}
	lda, ldb, ldc := ac+pad, bc+pad, N+pad
	type mat struct {
		p   unsafe.Pointer
		bf  bool
		get func(i int64) float64
	}
	mk := func(n int64, bf bool, pos bool) mat {
		m := mat{bf: bf}
		if bf {
			m.p = Malloc(int(2 * max(n, 1)))
			s := unsafe.Slice((*uint16)(m.p), max(n, 1))
			for i := range n {
				v := rng.Float32()*2 - 1
				if pos {
					v = rng.Float32() + 0.5
				}
				s[i] = toBF16(v)
			}
			m.get = func(i int64) float64 { return fromBF16(s[i]) }
		} else {
			m.p = Malloc(int(4 * max(n, 1)))
			s := unsafe.Slice((*float32)(m.p), max(n, 1))
			for i := range n {
				s[i] = rng.Float32()*2 - 1
				if pos {
					s[i] = rng.Float32() + 0.5
				}
			}
			m.get = func(i int64) float64 { return float64(s[i]) }
		}
		return m
	}
	A, B := mk(ar*lda, bfA, inf), mk(br*ldb, bfB, inf)
	defer Free(A.p)
	defer Free(B.p)
	if inf && !bfA && M > 0 && K > 0 {
		// An infinity in op(A)[0,0]: C's row 0 is +Inf (all products positive).
		*(*float32)(A.p) = float32(math.Inf(1))
	}
	pc := Malloc(int(4 * max(M*ldc, 1)))
	defer Free(pc)
	cs := unsafe.Slice((*float32)(pc), max(M*ldc, 1))
	c0 := make([]float64, M*ldc)
	for i := range c0 {
		cs[i] = rng.Float32()*2 - 1
		if beta == 0 {
			cs[i] = float32(math.NaN()) // beta == 0 must not read C
		}
		c0[i] = float64(cs[i])
	}
	a := func(i, k int64) float64 {
		if ta {
			return A.get(k*lda + i)
		}
		return A.get(i*lda + k)
	}
	b := func(k, j int64) float64 {
		if tb {
			return B.get(j*ldb + k)
		}
		return B.get(k*ldb + j)
	}
	r.GemmBF16(ta, tb, bfA, bfB, M, N, K, alpha, A.p, lda, B.p, ldb, beta, pc, ldc)
	for i := range M {
		for j := range N {
			s, mag := 0.0, 0.0
			for k := range K {
				s += a(i, k) * b(k, j)
				mag += math.Abs(a(i, k) * b(k, j))
			}
			want := float64(alpha) * s
			bound := float64(K+2)*u*math.Abs(float64(alpha))*mag + 2*u*math.Abs(want)
			if beta != 0 {
				want += float64(beta) * c0[i*ldc+j]
				bound += 2 * u * math.Abs(float64(beta)*c0[i*ldc+j])
			}
			got := float64(cs[i*ldc+j])
			ok := math.Abs(got-want) <= bound
			if math.IsInf(want, 1) {
				ok = math.IsInf(got, 1)
			}
			if !ok {
				t.Fatalf("C[%d,%d] = %g, want %g (bound %g)", i, j, got, want, bound)
			}
		}
		for j := N; j < ldc; j++ {
			if got := float64(cs[i*ldc+j]); got != c0[i*ldc+j] && !(math.IsNaN(got) && math.IsNaN(c0[i*ldc+j])) {
				t.Fatalf("padding C[%d,%d] written", i, j)
			}
		}
	}
}

// TestGemmBF16 runs gemm_bf16 on every mix of f32 and bf16 operands,
// with the bf16 GEMM on (where the CPU has it: oneDNN's, with an f32
// operand split into bf16 parts) and off (bf16 operands converted to f32),
// so that both paths are checked on every machine that has them.
func TestGemmBF16(t *testing.T) {
	r, err := New(3)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer SetBF16(true)
	// {1, 2304, 768}: a decode step's GEMV, split over the pool by
	// columns; {300, ...}: more rows than the split's limit.
	shapes := [][3]int64{{1, 1, 1}, {1, 17, 5}, {7, 1, 9}, {13, 35, 300}, {5, 4, 0}, {0, 4, 3}, {1, 2304, 768}, {3, 700, 40}, {300, 130, 80}, {70, 400, 90}}
	for _, on := range []bool{true, false} {
		used := SetBF16(on)
		t.Logf("bf16 GEMM on=%v: used=%v", on, used)
		for _, mix := range [][2]bool{{true, true}, {false, true}, {true, false}, {false, false}} {
			for _, s := range shapes {
				for tr := range 4 {
					ta, tb := tr&1 != 0, tr&2 != 0
					for _, ab := range [][2]float32{{1, 0}, {0.5, 2}} {
						name := fmt.Sprintf("on=%v/bf=%v/%v/t%d/%v", on, mix, s, tr, ab)
						t.Run(name, func(t *testing.T) {
							gemmBF16Case(t, r, mix[0], mix[1], ta, tb, s[0], s[1], s[2], ab[0], ab[1], int64(tr), false)
						})
					}
				}
			}
			t.Run(fmt.Sprintf("on=%v/bf=%v/inf", on, mix), func(t *testing.T) {
				gemmBF16Case(t, r, mix[0], mix[1], false, false, 4, 70, 33, 1, 0, 0, true)
			})
		}
	}
}
