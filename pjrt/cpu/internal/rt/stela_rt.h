/*
 * stela_rt.h: the runtime that compiled Stela programs call (ABI version
 * 2, docs/cpu-plugin.md "The compiled program's ABI"), and the plugin's
 * side of it: the thread pool and the GEMM routines.
 *
 * The same source (rt.c) is built into the plugin and, through cgo, into
 * test binaries (package pjrt/cpu/internal/rt), so that the code
 * generator's tests run compiled programs on the real runtime.
 */
#ifndef STELA_RT_H_
#define STELA_RT_H_

#include <stdint.h>

#define STELA_RT_VERSION 2

/* The table passed to stela_entry. Fields may only be appended (with a
   version bump): compiled programs check version >= 2 and nothing else. */
typedef struct stela_rt {
  int64_t version;     /* STELA_RT_VERSION */
  int64_t num_threads; /* threads in the pool, >= 1 (the calling thread counts as one) */
  /* Runs fn(ctx, begin, end) over disjoint chunks covering [0, n), each at
     least grain long (except the last), on the pool and the calling
     thread; returns when all are done. Nested calls (from inside fn), and
     calls while the pool is busy with another execution, run serially on
     the calling thread. n <= 0 returns at once. */
  void (*parallel_for)(void* ctx, void (*fn)(void* ctx, int64_t begin, int64_t end), int64_t n, int64_t grain);
  /* Row-major GEMM like cblas: C[M,N] = alpha * op(A)[M,K] * op(B)[K,N] +
     beta * C, trans != 0 meaning op = transpose. beta == 0 never reads C. */
  void (*sgemm)(int32_t transA, int32_t transB, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
                int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc);
  void (*dgemm)(int32_t transA, int32_t transB, int64_t M, int64_t N, int64_t K, double alpha, const double* A,
                int64_t lda, const double* B, int64_t ldb, double beta, double* C, int64_t ldc);
} stela_rt;

/* The entry point of a compiled program. */
typedef int (*stela_entry_fn)(void* const* args, void* const* results, char err[256], const stela_rt* rt);

/* ---- The plugin's side. ---- */

typedef struct stela_pool stela_pool;

/* The default pool size: $STELA_CPU_THREADS when it is a positive integer,
   else the number of online CPUs. */
int stela_rt_default_threads(void);

/* A pool of threads-1 workers (started on first use) plus the caller.
   NULL when out of memory. */
stela_pool* stela_pool_new(int threads);
/* Joins the workers; the pool runs everything serially afterwards. Waits
   for a parallel_for in progress. */
void stela_pool_stop(stela_pool* p);
/* Stops (if needed) and frees the pool. */
void stela_pool_free(stela_pool* p);

/* Fills rt for a pool of the given size. */
void stela_rt_init(stela_rt* rt, int threads);

/* Runs a compiled program's entry on the calling thread with pool bound to
   it (parallel_for uses the pool of the thread that calls it; NULL means
   serial). */
int stela_rt_run(stela_pool* pool, const stela_rt* rt, stela_entry_fn entry, void* const* args, void* const* results,
                 char err[256]);

/* Whether sgemm/dgemm go to a BLAS library (found on first use; never with
   STELA_CPU_BLAS=none), and its file name. */
int stela_rt_blas(const char** name);
/* Whether the search for the BLAS library is done (stela_rt_blas would
   not wait). */
int stela_rt_blas_loaded(void);

/* Bits of the optional `const int stela_rt_uses` a compiled program
   exports: what of the table it calls, so that the plugin can get it ready
   before the first execution. */
#define STELA_RT_USES_GEMM 1

/* The plugin's own GEMM (the fallback), callable directly for tests. */
void stela_sgemm_own(int32_t transA, int32_t transB, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
                     int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc);
void stela_dgemm_own(int32_t transA, int32_t transB, int64_t M, int64_t N, int64_t K, double alpha, const double* A,
                     int64_t lda, const double* B, int64_t ldb, double beta, double* C, int64_t ldc);

#endif /* STELA_RT_H_ */
