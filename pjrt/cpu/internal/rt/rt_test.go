package rt

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"unsafe"
)

func probe(t *testing.T, r *Runtime, n, grain, nested int64) (chunks, minLen int64) {
	t.Helper()
	p := Malloc(int(8 * max(n, 1)))
	defer Free(p)
	out := unsafe.Slice((*int64)(p), max(n, 1))
	clear(out)
	chunks, minLen = r.ParallelForProbe(p, n, grain, nested)
	for i := range n {
		want := i + 1
		if nested > 0 {
			// Every chunk added 1000 to the first `nested` elements.
			if i < nested {
				want += 1000 * chunks
			}
		}
		if out[i] != want {
			t.Fatalf("n=%d grain=%d nested=%d: out[%d] = %d, want %d (%d chunks)", n, grain, nested, i, out[i], want, chunks)
		}
	}
	return chunks, minLen
}

func TestParallelFor(t *testing.T) {
	r, err := New(4)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, c := range []struct{ n, grain, maxChunks int64 }{
		// Up to CHUNKS_PER_THREAD (4) chunks per thread of the pool of 4.
		{0, 1, 0}, {-3, 1, 0}, {1, 1, 1}, {3, 1, 3}, {1000, 1, 16}, {1000, 300, 4}, {1000, 400, 3},
		{1000, 1000, 1}, {1000, 5000, 1}, {7, 0, 7}, {1 << 16, 64, 16},
	} {
		chunks, minLen := probe(t, r, c.n, c.grain, 0)
		if chunks > c.maxChunks || (c.n > 0 && chunks < 1) {
			t.Errorf("n=%d grain=%d: %d chunks, want 1 to %d", c.n, c.grain, chunks, c.maxChunks)
		}
		// Every chunk but the last is at least grain long.
		if chunks > 1 && minLen < c.grain && c.n%c.grain == 0 {
			t.Errorf("n=%d grain=%d: a chunk of %d", c.n, c.grain, minLen)
		}
	}
}

// A parallel_for inside a chunk runs serially on that thread: it
// completes, and each chunk's nested loop covers all of its range.
func TestParallelForNested(t *testing.T) {
	r, err := New(3)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for range 20 {
		probe(t, r, 300, 1, 50)
	}
}

// Several executions share one pool (devices on their own threads): each
// gets the pool or runs serially, all finish with the right results.
func TestParallelForConcurrent(t *testing.T) {
	r, err := New(3)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				probe(t, r, int64(100+g*37+i), int64(1+i%7), int64(i%3))
			}
		}()
	}
	wg.Wait()
}

// A pool is started, used, stopped (threads joined) and freed many times.
func TestPoolLifecycle(t *testing.T) {
	for i := range 50 {
		r, err := New(1 + i%5)
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			probe(t, r, 100, 1, 0)
		}
		r.Close()
	}
}

// A stopped pool (its client destroyed) runs loops serially, whether it
// had started its threads or not.
func TestStoppedPool(t *testing.T) {
	for _, used := range []bool{false, true} {
		r, err := New(3)
		if err != nil {
			t.Fatal(err)
		}
		if used {
			probe(t, r, 100, 1, 0)
		}
		r.Stop()
		if chunks, _ := probe(t, r, 1000, 1, 0); chunks != 1 {
			t.Errorf("used=%v: a stopped pool ran %d chunks", used, chunks)
		}
		r.Close()
	}
}

func TestSerialPool(t *testing.T) {
	r, err := New(1)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if chunks, _ := probe(t, r, 1000, 1, 0); chunks != 1 {
		t.Errorf("a pool of one thread ran %d chunks", chunks)
	}
}

// gemmCase multiplies random matrices with the runtime and compares with
// a float64 product, within the bound of a dot product computed in the
// element type: |error| <= K·u·Σ|a·b| (u = 2⁻²⁴ for f32, 2⁻⁵³ for f64),
// plus the rounding of alpha and beta.
func gemmCase(t *testing.T, r *Runtime, f64, own, ta, tb bool, M, N, K int64, alpha, beta float64, pad int64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(M*1000003+N*1009+K), 7))
	es := int64(4)
	u := math.Ldexp(1, -24)
	if f64 {
		es, u = 8, math.Ldexp(1, -53)
	}
	// Stored shapes and leading dimensions (with padding columns).
	ar, ac := M, K
	if ta {
		ar, ac = K, M
	}
	br, bc := K, N
	if tb {
		br, bc = N, K
	}
	lda, ldb, ldc := ac+pad, bc+pad, N+pad
	A := make([]float64, ar*lda)
	B := make([]float64, br*ldb)
	Cm := make([]float64, M*ldc)
	for i := range A {
		A[i] = rng.Float64()*2 - 1
	}
	for i := range B {
		B[i] = rng.Float64()*2 - 1
	}
	for i := range Cm {
		Cm[i] = rng.Float64()*2 - 1
		if beta == 0 {
			Cm[i] = math.NaN() // beta == 0 must not read C
		}
	}
	toC := func(x []float64) unsafe.Pointer {
		p := Malloc(int(es) * max(len(x), 1))
		for i, v := range x {
			if f64 {
				*(*float64)(unsafe.Add(p, 8*i)) = v
			} else {
				*(*float32)(unsafe.Add(p, 4*i)) = float32(v)
			}
		}
		return p
	}
	get := func(p unsafe.Pointer, i int64) float64 {
		if f64 {
			return *(*float64)(unsafe.Add(p, 8*i))
		}
		return float64(*(*float32)(unsafe.Add(p, 4*i)))
	}
	pa, pb, pc := toC(A), toC(B), toC(Cm)
	defer Free(pa)
	defer Free(pb)
	defer Free(pc)
	// Reference from the values as stored (rounded to the element type).
	a := func(i, k int64) float64 {
		if ta {
			return get(pa, k*lda+i)
		}
		return get(pa, i*lda+k)
	}
	b := func(k, j int64) float64 {
		if tb {
			return get(pb, j*ldb+k)
		}
		return get(pb, k*ldb+j)
	}
	c0 := make([]float64, M*ldc)
	for i := range c0 {
		c0[i] = get(pc, int64(i))
	}
	r.Gemm(f64, own, ta, tb, M, N, K, alpha, pa, lda, pb, ldb, beta, pc, ldc)
	for i := range M {
		for j := range N {
			s, mag := 0.0, 0.0
			for k := range K {
				s += a(i, k) * b(k, j)
				mag += math.Abs(a(i, k) * b(k, j))
			}
			want := alpha * s
			bound := float64(K+2)*u*math.Abs(alpha)*mag + 2*u*math.Abs(want)
			if beta != 0 {
				want += beta * c0[i*ldc+j]
				bound += 2 * u * math.Abs(beta*c0[i*ldc+j])
			}
			got := get(pc, i*ldc+j)
			if !(math.Abs(got-want) <= bound) {
				t.Fatalf("f64=%v own=%v ta=%v tb=%v %dx%dx%d alpha=%g beta=%g: C[%d,%d] = %g, want %g (bound %g)",
					f64, own, ta, tb, M, N, K, alpha, beta, i, j, got, want, bound)
			}
		}
		// Padding columns are not written.
		for j := N; j < ldc; j++ {
			if got := get(pc, i*ldc+j); got != c0[i*ldc+j] && !(math.IsNaN(got) && math.IsNaN(c0[i*ldc+j])) {
				t.Fatalf("%dx%dx%d: padding C[%d,%d] written", M, N, K, i, j)
			}
		}
	}
}

func TestGemm(t *testing.T) {
	r, err := New(3)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	name, ok := BLAS()
	t.Logf("BLAS: %q %v", name, ok)
	// {300, 130, 80} and {70, 400, 90} are big enough for the runtime to
	// split them over the pool (oneDNN in blocks of rows, then of
	// columns, of C); the last three are products of a few rows (or
	// columns) with a big operand, which f32 runs through the runtime's
	// GEMV kernel (with op(B) = Bᵀ, or op(A) = A when few columns).
	shapes := [][3]int64{{1, 1, 1}, {1, 17, 5}, {7, 1, 9}, {6, 16, 3}, {13, 35, 300}, {97, 257, 70}, {5, 4, 0}, {0, 4, 3}, {7, 9, 600}, {300, 130, 80}, {70, 400, 90}, {2, 1000, 301}, {5, 701, 400}, {700, 3, 403}}
	for _, own := range []bool{true, false} {
		for _, f64 := range []bool{false, true} {
			for _, s := range shapes {
				for tr := range 4 {
					ta, tb := tr&1 != 0, tr&2 != 0
					for _, ab := range [][2]float64{{1, 0}, {0.5, 2}} {
						t.Run(fmt.Sprintf("own=%v/f64=%v/%v/t%d/%v", own, f64, s, tr, ab), func(t *testing.T) {
							gemmCase(t, r, f64, own, ta, tb, s[0], s[1], s[2], ab[0], ab[1], int64(tr))
						})
					}
				}
			}
		}
	}
}
