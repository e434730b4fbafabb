// Package rt holds the runtime of compiled Stela programs (stela_rt.h:
// the ABI version 7 table, the thread pool, GEMM, the rendezvous of
// collectives) as C source. The plugin build embeds the same files
// (Sources), and cgo builds them into this package, so that tests can run
// compiled programs (and the GEMM routines) on the very runtime the
// plugin uses.
package rt

/*
#cgo CFLAGS: -O2 -D_GNU_SOURCE
#cgo LDFLAGS: -ldl -lpthread -lm
#include <stdlib.h>
#include <string.h>
#include "stela_rt.h"

typedef struct runtime {
	stela_rt table;
	stela_pool* pool;
} runtime;

static runtime* rt_new(int threads) {
	runtime* r = calloc(1, sizeof(*r));
	if (r == NULL) return NULL;
	r->pool = stela_pool_new(threads);
	if (r->pool == NULL) {
		free(r);
		return NULL;
	}
	stela_rt_init(&r->table, threads);
	return r;
}

static void rt_free(runtime* r) {
	stela_pool_free(r->pool);
	free(r);
}

static int rt_call(runtime* r, void* entry, void** args, void** results, char* err) {
	return stela_rt_run(r->pool, &r->table, (stela_entry_fn)entry, (void* const*)args, (void* const*)results, err);
}

static const char* rt_blas(int* ok) {
	const char* name = NULL;
	*ok = stela_rt_blas(&name);
	return name;
}

typedef struct gemm_args {
	int own, f64, ta, tb;
	int bf16, bfa, bfb; // gemm_bf16 with A (bfa), B (bfb) bf16
	int64_t M, N, K, lda, ldb, ldc;
	double alpha, beta;
	void *A, *B, *C;
} gemm_args;

static int gemm_entry_impl(void* const* args, void* const* results, char err[256], const stela_rt* rt) {
	gemm_args* g = args[0];
	(void)results;
	(void)err;
	if (g->bf16) {
		rt->gemm_bf16(g->ta, g->tb, g->bfa, g->bfb, g->M, g->N, g->K, (float)g->alpha, g->A, g->lda, g->B, g->ldb,
		              (float)g->beta, g->C, g->ldc);
	} else if (g->f64) {
		if (g->own)
			stela_dgemm_own(g->ta, g->tb, g->M, g->N, g->K, g->alpha, g->A, g->lda, g->B, g->ldb, g->beta, g->C, g->ldc);
		else
			rt->dgemm(g->ta, g->tb, g->M, g->N, g->K, g->alpha, g->A, g->lda, g->B, g->ldb, g->beta, g->C, g->ldc);
	} else {
		if (g->own)
			stela_sgemm_own(g->ta, g->tb, g->M, g->N, g->K, (float)g->alpha, g->A, g->lda, g->B, g->ldb, (float)g->beta,
			                g->C, g->ldc);
		else
			rt->sgemm(g->ta, g->tb, g->M, g->N, g->K, (float)g->alpha, g->A, g->lda, g->B, g->ldb, (float)g->beta, g->C,
			          g->ldc);
	}
	return 0;
}

static int rt_gemm(runtime* r, gemm_args* g) {
	void* args[1] = {g};
	char err[256];
	return stela_rt_run(r->pool, &r->table, gemm_entry_impl, args, args, err);
}

// A parallel_for body for tests: marks out[i] = i+1 and counts chunks.
typedef struct pf_ctx {
	int64_t* out;
	int64_t chunks;
	int64_t min_len;
	int64_t nested_n;
	const stela_rt* rt;
} pf_ctx;

static void pf_inner(void* ctx, int64_t b, int64_t e) {
	pf_ctx* c = ctx;
	for (int64_t i = b; i < e; i++) __atomic_add_fetch(&c->out[i], 1000, __ATOMIC_RELAXED);
}

static void pf_body(void* ctx, int64_t b, int64_t e) {
	pf_ctx* c = ctx;
	__atomic_add_fetch(&c->chunks, 1, __ATOMIC_RELAXED);
	int64_t len = e - b, cur = __atomic_load_n(&c->min_len, __ATOMIC_RELAXED);
	while (len < cur && !__atomic_compare_exchange_n(&c->min_len, &cur, len, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
	}
	// Atomic: other chunks' nested loops add to the first elements at the same time.
	for (int64_t i = b; i < e; i++) __atomic_add_fetch(&c->out[i], i + 1, __ATOMIC_RELAXED);
	if (c->nested_n > 0) c->rt->parallel_for(ctx, pf_inner, c->nested_n, 1);
}

static int pf_entry_impl(void* const* args, void* const* results, char err[256], const stela_rt* rt) {
	pf_ctx* c = args[0];
	int64_t n = *(int64_t*)args[1], grain = *(int64_t*)args[2];
	(void)results;
	(void)err;
	c->rt = rt;
	rt->parallel_for(c, pf_body, n, grain);
	return 0;
}

static void* pf_entry(void) { return (void*)pf_entry_impl; }

// The AVX-512 GEMM's micro-kernel alone (rt.c), for its benchmark.
int stela_rt_gemm512_kernel_rate(int64_t kc, int64_t nb, int64_t calls, double rate[2]);

// Direct calls of the BLAS library, for benchmarks' baselines.
#include <dlfcn.h>
typedef void (*direct_sgemm_fn)(int, int, int, int, int, int, float, const float*, int, const float*, int, float,
                                 float*, int);
static direct_sgemm_fn direct_sgemm;
static int direct_open(void) {
	if (direct_sgemm != NULL) return 1;
	void* h = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) return 0;
	direct_sgemm = (direct_sgemm_fn)dlsym(h, "cblas_sgemm");
	return direct_sgemm != NULL;
}
static void rt_memcpy(void* dst, const void* src, size_t n) { memcpy(dst, src, n); }
static void rt_memset(void* dst, int c, size_t n) { memset(dst, c, n); }
static void direct_batch(int batch, int M, int N, int K, float* A, float* B, float* C) {
	for (int b = 0; b < batch; b++)
		direct_sgemm(101, 111, 111, M, N, K, 1.0f, A + (size_t)b * M * K, K, B + (size_t)b * K * N, N, 0.0f,
		             C + (size_t)b * M * N, N);
}
*/
import "C"

import (
	"embed"
	"errors"
	"sync"
	"unsafe"
)

// Sources are the runtime's C files (rt.c, rt_coll.c, rt_gemm.h, rt_gemm512.h, rt_attn.h,
// rt_attn_kernel.h, rt_skinny.h, rt_fft*.c and .h, stela_rt.h), which the plugin build compiles with its own.
//
//go:embed rt.c rt_coll.c rt_gemm.h rt_gemm512.h rt_attn.h rt_attn_kernel.h rt_skinny.h rt_fft.c rt_fft.h rt_fft_f32.c rt_fft_f64.c rt_fft_impl.h stela_rt.h
var Sources embed.FS

// Runtime is a runtime table with its own thread pool.
type Runtime struct {
	r *C.runtime
}

// New makes a runtime with a pool of the given number of threads
// (including the caller).
func New(threads int) (*Runtime, error) {
	r := C.rt_new(C.int(threads))
	if r == nil {
		return nil, errors.New("rt: out of memory")
	}
	return &Runtime{r: r}, nil
}

var def struct {
	once sync.Once
	rt   *Runtime
}

// Default returns a process-wide runtime whose pool has the plugin's
// default size ($STELA_CPU_THREADS, else the number of online CPUs). It is
// never closed.
func Default() *Runtime {
	def.once.Do(func() {
		r, err := New(DefaultThreads())
		if err != nil {
			panic(err)
		}
		def.rt = r
	})
	return def.rt
}

// DefaultThreads is the plugin's default pool size.
func DefaultThreads() int { return int(C.stela_rt_default_threads()) }

// Close joins the pool's threads and frees the runtime.
func (r *Runtime) Close() {
	if r.r != nil {
		C.rt_free(r.r)
		r.r = nil
	}
}

// Stop joins the pool's threads (as PJRT_Client_Destroy does); the
// runtime then runs everything serially.
func (r *Runtime) Stop() { C.stela_pool_stop(r.r.pool) }

// Threads is the table's num_threads.
func (r *Runtime) Threads() int { return int(r.r.table.num_threads) }

// Call runs a compiled program's stela_entry (entry, a C function pointer)
// with this runtime bound to the calling thread. args, results and err
// must point to C memory.
func (r *Runtime) Call(entry, args, results, err unsafe.Pointer) int {
	return int(C.rt_call(r.r, entry, (*unsafe.Pointer)(args), (*unsafe.Pointer)(results), (*C.char)(err)))
}

// BLAS reports the BLAS library the GEMM routines use ("" and false when
// none was found or STELA_CPU_BLAS=none).
func BLAS() (string, bool) {
	var ok C.int
	name := C.rt_blas(&ok)
	if name == nil {
		return "", ok != 0
	}
	return C.GoString(name), ok != 0
}

// Gemm runs the table's sgemm or dgemm (with own, the runtime's own
// kernel) from inside an entry call (so on the pool) on float32 or float64
// matrices in C memory: C = alpha·op(A)·op(B) + beta·C.
func (r *Runtime) Gemm(f64, own, ta, tb bool, M, N, K int64, alpha float64, A unsafe.Pointer, lda int64,
	B unsafe.Pointer, ldb int64, beta float64, Cm unsafe.Pointer, ldc int64) {
	b := func(v bool) C.int {
		if v {
			return 1
		}
		return 0
	}
	g := (*C.gemm_args)(C.calloc(1, C.size_t(unsafe.Sizeof(C.gemm_args{}))))
	defer C.free(unsafe.Pointer(g))
	g.own, g.f64, g.ta, g.tb = b(own), b(f64), b(ta), b(tb)
	g.M, g.N, g.K, g.lda, g.ldb, g.ldc = C.int64_t(M), C.int64_t(N), C.int64_t(K), C.int64_t(lda), C.int64_t(ldb), C.int64_t(ldc)
	g.alpha, g.beta = C.double(alpha), C.double(beta)
	g.A, g.B, g.C = A, B, Cm
	C.rt_gemm(r.r, g)
}

// GemmBF16 runs the table's gemm_bf16 from inside an entry call:
// C (float32) = alpha·op(A)·op(B) + beta·C, A and B float32 or (bfA, bfB)
// bfloat16 (uint16 bits), in C memory.
func (r *Runtime) GemmBF16(ta, tb, bfA, bfB bool, M, N, K int64, alpha float32, A unsafe.Pointer, lda int64,
	B unsafe.Pointer, ldb int64, beta float32, Cm unsafe.Pointer, ldc int64) {
	b := func(v bool) C.int {
		if v {
			return 1
		}
		return 0
	}
	g := (*C.gemm_args)(C.calloc(1, C.size_t(unsafe.Sizeof(C.gemm_args{}))))
	defer C.free(unsafe.Pointer(g))
	g.bf16, g.bfa, g.bfb, g.ta, g.tb = 1, b(bfA), b(bfB), b(ta), b(tb)
	g.M, g.N, g.K, g.lda, g.ldb, g.ldc = C.int64_t(M), C.int64_t(N), C.int64_t(K), C.int64_t(lda), C.int64_t(ldb), C.int64_t(ldc)
	g.alpha, g.beta = C.double(alpha), C.double(beta)
	g.A, g.B, g.C = A, B, Cm
	C.rt_gemm(r.r, g)
}

// SetBF16 turns the runtime's bf16 GEMM (oneDNN's, on CPUs with
// AVX512-BF16) off or back on for the process, as STELA_CPU_BF16=off
// does, so that tests run both paths; it returns whether bf16 products now
// use it.
func SetBF16(on bool) bool {
	v := C.int(0)
	if on {
		v = 1
	}
	return C.stela_rt_set_bf16(v) != 0
}

// GEMM choices of SetGEMM, as STELA_CPU_GEMM's values.
const (
	GemmAuto = iota // the AVX-512 kernel where it beats oneDNN, else oneDNN
	GemmOwn         // the AVX-512 kernel for every f32 product the GEMV path does not take
	GemmDNNL        // oneDNN, else the BLAS library
	GemmAVX2        // the AVX2/generic kernel (what CPUs without AVX-512 run)
)

// SetGEMM sets the runtime's f32 GEMM choice for the process, as
// STELA_CPU_GEMM=auto|own|dnnl|avx2 does, so that tests and benchmarks run
// each path; it returns whether the CPU has AVX-512 (without it, GemmOwn
// runs the AVX2/generic kernel).
func SetGEMM(mode int) bool { return C.stela_rt_set_gemm(C.int(mode)) != 0 }

// SetSkinny turns the runtime's AVX-512 kernel of products of 1 to 16
// rows with a big weight (rt_skinny.h) off or back on for the process, as
// STELA_CPU_GEMV=avx2 does, so that tests run both paths; it returns
// whether such products now use it (false on a CPU without AVX-512).
func SetSkinny(on bool) bool {
	v := C.int(0)
	if on {
		v = 1
	}
	return C.stela_rt_set_skinny(v) != 0
}

// SetSkinnyRow turns the AVX-512 kernel's one-row path (one row times a
// k-major weight, the weight's rows split among the threads) off (the
// column blocks of STELA_CPU_GEMV=cols) or back on, for tests and
// benchmarks of both; it returns whether it is now used.
func SetSkinnyRow(on bool) bool {
	v := C.int(0)
	if on {
		v = 1
	}
	return C.stela_rt_set_skinny_row(v) != 0
}

// SkinnyCalls is the number of products the AVX-512 kernel has run in
// this process.
func SkinnyCalls() int64 { return int64(C.stela_rt_skinny_calls()) }

// ParallelForProbe runs parallel_for(n, grain) from inside an entry call
// (so with the pool bound) over a body that adds i+1 to out[i] (out is n
// int64s in C memory), and, when nested > 0, makes a nested parallel_for
// of nested iterations from each chunk. It returns the number of chunks
// and the shortest chunk's length.
func (r *Runtime) ParallelForProbe(out unsafe.Pointer, n, grain, nested int64) (chunks, minLen int64) {
	ctx := (*C.pf_ctx)(C.calloc(1, C.size_t(unsafe.Sizeof(C.pf_ctx{}))))
	defer C.free(unsafe.Pointer(ctx))
	ctx.out = (*C.int64_t)(out)
	ctx.min_len = C.int64_t(1 << 62)
	ctx.nested_n = C.int64_t(nested)
	args := (*[3]unsafe.Pointer)(C.calloc(3, C.size_t(unsafe.Sizeof(uintptr(0)))))
	defer C.free(unsafe.Pointer(args))
	ints := (*[2]C.int64_t)(C.calloc(2, 8))
	defer C.free(unsafe.Pointer(ints))
	ints[0], ints[1] = C.int64_t(n), C.int64_t(grain)
	args[0], args[1], args[2] = unsafe.Pointer(ctx), unsafe.Pointer(&ints[0]), unsafe.Pointer(&ints[1])
	errBuf := C.calloc(256, 1)
	defer C.free(errBuf)
	r.Call(C.pf_entry(), unsafe.Pointer(args), unsafe.Pointer(args), errBuf)
	return int64(ctx.chunks), int64(ctx.min_len)
}

// Malloc returns n bytes of 64-byte aligned C memory (for tests and
// benchmarks: the runtime's functions take C pointers only).
func Malloc(n int) unsafe.Pointer {
	var p unsafe.Pointer
	if C.posix_memalign(&p, 64, C.size_t(max(n, 64))) != 0 {
		panic("rt: out of memory")
	}
	return p
}

// Free frees what Malloc returned.
func Free(p unsafe.Pointer) { C.free(p) }

// Gemm512KernelRate runs the AVX-512 GEMM's micro-kernel alone on the
// calling OS thread on packed panels (one op(A) strip of depth kc against
// nb op(B) strips in turn, calls calls in all) and returns its flops per
// CPU second of the thread and the thread's FMA peak measured next to it;
// ok false without AVX-512. Callers lock the goroutine to its thread.
func Gemm512KernelRate(kc, nb, calls int64) (rate, peak float64, ok bool) {
	r := (*[2]C.double)(C.calloc(2, C.size_t(unsafe.Sizeof(C.double(0)))))
	defer C.free(unsafe.Pointer(r))
	if C.stela_rt_gemm512_kernel_rate(C.int64_t(kc), C.int64_t(nb), C.int64_t(calls), &r[0]) == 0 {
		return 0, 0, false
	}
	return float64(r[0]), float64(r[1]), true
}

// DirectSgemm calls libopenblas.so.0's cblas_sgemm directly (no runtime in
// between), batch times: C[b] = A[b]·B[b], row-major, float32 in C memory.
// It is the baseline of the GEMM benchmarks; false when the library is
// missing.
func DirectSgemm(batch, M, N, K int, A, B, Cm unsafe.Pointer) bool {
	if C.direct_open() == 0 {
		return false
	}
	C.direct_batch(C.int(batch), C.int(M), C.int(N), C.int(K), (*C.float)(A), (*C.float)(B), (*C.float)(Cm))
	return true
}

// Memcpy copies n bytes with C's memcpy (C memory): the baseline of the
// collectives' bandwidth benchmarks.
func Memcpy(dst, src unsafe.Pointer, n int) { C.rt_memcpy(dst, src, C.size_t(n)) }

// Memset sets n bytes of C memory to c (a benchmark writes its source
// first: untouched memory reads as the kernel's one zero page, from
// cache).
func Memset(dst unsafe.Pointer, c byte, n int) { C.rt_memset(dst, C.int(c), C.size_t(n)) }
