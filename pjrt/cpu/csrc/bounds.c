/* Machine bounds for `stela bench` (docs/performance.md, "Bounds"): the
   rate at which this machine copies memory (STREAM's "copy" kernel) and
   its peak f32 FMA rate, measured with as many threads as the plugin's
   pool has (stela_rt_default_threads). They are what a memory-bound
   kernel (W2) and a compute-bound one (W3, W5) are measured against. Not
   part of PJRT; found with dlsym, with the int64_t (*)(int64_t) type of
   package pjrt's Int64Func1. */
#include <immintrin.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

static double bound_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A start line all threads of a measurement wait at, so that their timed
   parts overlap; go is set once all threads are made (or making one
   failed, when the measurement is thrown away). */
typedef struct {
  int go;
} bound_team;

static void bound_wait(bound_team* t) {
  while (!__atomic_load_n(&t->go, __ATOMIC_ACQUIRE)) __builtin_ia32_pause();
}

/* ---- STREAM copy ---- */

typedef struct {
  bound_team* team;
  const float* src;
  float* dst;
  int64_t n;    /* this thread's elements */
  int reps;
  double best;  /* seconds of this thread's fastest pass */
} copy_arg;

/* STREAM's copy kernel, c[i] = a[i], which the compiler turns into vector
   loads and stores; no non-temporal stores (STREAM leaves that to the
   compiler, and gcc at -O2 does not use them). */
static void copy_pass(float* restrict dst, const float* restrict src, int64_t n) {
  for (int64_t i = 0; i < n; i++) dst[i] = src[i];
}

static void* copy_thread(void* p) {
  copy_arg* a = p;
  a->best = 1e30;
  bound_wait(a->team);
  for (int r = 0; r < a->reps; r++) {
    double t = bound_now();
    copy_pass(a->dst, a->src, a->n);
    t = bound_now() - t;
    if (t < a->best) a->best = t;
  }
  return NULL;
}

/* The copy rate in bytes per second (reading and writing counted, as
   STREAM counts them) of copying bytes bytes from one array to another
   with the pool's thread count, each thread its share; the best of a few
   passes over the same arrays (pages already touched). 0 on failure. */
__attribute__((visibility("default"))) int64_t stela_cpu_bound_copy(int64_t bytes) {
  int threads = stela_rt_default_threads();
  int64_t n = bytes / (int64_t)sizeof(float);
  if (n < 1024 * threads) n = 1024 * threads;
  float* src = aligned_alloc(64, (size_t)n * sizeof(float));
  float* dst = aligned_alloc(64, (size_t)n * sizeof(float));
  copy_arg* args = calloc((size_t)threads, sizeof(copy_arg));
  pthread_t* tids = calloc((size_t)threads, sizeof(pthread_t));
  int64_t rate = 0;
  if (src != NULL && dst != NULL && args != NULL && tids != NULL) {
    /* Pages faulted in before timing (one VM's first touch of fresh
       memory is many times slower than reuse). */
    for (int64_t i = 0; i < n; i++) src[i] = (float)(i & 1023);
    memset(dst, 0, (size_t)n * sizeof(float));
    bound_team team = {0};
    int64_t per = (n / threads) & ~(int64_t)15; /* 64-byte aligned shares */
    int started = 0;
    for (int i = 0; i < threads; i++) {
      int64_t off = per * i;
      args[i] = (copy_arg){.team = &team, .src = src + off, .dst = dst + off, .n = i == threads - 1 ? n - off : per, .reps = 5};
      if (i == 0) continue;
      if (pthread_create(&tids[i], NULL, copy_thread, &args[i]) != 0) break;
      started++;
    }
    __atomic_store_n(&team.go, 1, __ATOMIC_RELEASE);
    if (started == threads - 1) copy_thread(&args[0]);
    for (int i = 1; i <= started; i++) pthread_join(tids[i], NULL);
    if (started == threads - 1) {
      double worst = 0;
      for (int i = 0; i < threads; i++)
        if (args[i].best > worst) worst = args[i].best;
      rate = (int64_t)(2.0 * (double)n * sizeof(float) / worst);
    }
  }
  free(src);
  free(dst);
  free(args);
  free(tids);
  return rate;
}

/* ---- FMA peak ---- */

typedef struct {
  bound_team* team;
  int64_t iters;
  double seconds;
  float sink;
} fma_arg;

/* Independent chains of FMAs, each its own variable so that they stay in
   registers (gcc -O2 leaves an array of them in memory): two FMA units of
   4-cycle latency need at least 8 in flight; 16 (AVX-512) and 12 (AVX2)
   leave room. */
#define FMA_CHAINS16(F, T, acc) \
  F(acc##0); F(acc##1); F(acc##2); F(acc##3); F(acc##4); F(acc##5); F(acc##6); F(acc##7); \
  F(acc##8); F(acc##9); F(acc##10); F(acc##11); F(acc##12); F(acc##13); F(acc##14); F(acc##15)

__attribute__((target("avx512f"))) static float fma_avx512(int64_t iters) {
  __m512 m = _mm512_set1_ps(0.999999f), c = _mm512_set1_ps(1e-7f);
  __m512 a0 = _mm512_set1_ps(0), a1 = _mm512_set1_ps(1), a2 = _mm512_set1_ps(2), a3 = _mm512_set1_ps(3);
  __m512 a4 = _mm512_set1_ps(4), a5 = _mm512_set1_ps(5), a6 = _mm512_set1_ps(6), a7 = _mm512_set1_ps(7);
  __m512 a8 = _mm512_set1_ps(8), a9 = _mm512_set1_ps(9), a10 = _mm512_set1_ps(10), a11 = _mm512_set1_ps(11);
  __m512 a12 = _mm512_set1_ps(12), a13 = _mm512_set1_ps(13), a14 = _mm512_set1_ps(14), a15 = _mm512_set1_ps(15);
#define FMA512(x) x = _mm512_fmadd_ps(x, m, c)
  for (int64_t i = 0; i < iters; i++) {
    FMA_CHAINS16(FMA512, __m512, a);
  }
#undef FMA512
  __m512 s = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)),
                           _mm512_add_ps(_mm512_add_ps(a4, a5), _mm512_add_ps(a6, a7)));
  s = _mm512_add_ps(s, _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(a8, a9), _mm512_add_ps(a10, a11)),
                                     _mm512_add_ps(_mm512_add_ps(a12, a13), _mm512_add_ps(a14, a15))));
  return _mm512_reduce_add_ps(s);
}

__attribute__((target("avx2,fma"))) static float fma_avx2(int64_t iters) {
  __m256 m = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1e-7f);
  __m256 a0 = _mm256_set1_ps(0), a1 = _mm256_set1_ps(1), a2 = _mm256_set1_ps(2), a3 = _mm256_set1_ps(3);
  __m256 a4 = _mm256_set1_ps(4), a5 = _mm256_set1_ps(5), a6 = _mm256_set1_ps(6), a7 = _mm256_set1_ps(7);
  __m256 a8 = _mm256_set1_ps(8), a9 = _mm256_set1_ps(9), a10 = _mm256_set1_ps(10), a11 = _mm256_set1_ps(11);
  __m256 a12 = _mm256_set1_ps(12), a13 = _mm256_set1_ps(13), a14 = _mm256_set1_ps(14), a15 = _mm256_set1_ps(15);
#define FMA256(x) x = _mm256_fmadd_ps(x, m, c)
  for (int64_t i = 0; i < iters; i++) {
    FMA_CHAINS16(FMA256, __m256, a);
  }
#undef FMA256
  __m256 s = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)),
                           _mm256_add_ps(_mm256_add_ps(a4, a5), _mm256_add_ps(a6, a7)));
  s = _mm256_add_ps(s, _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a8, a9), _mm256_add_ps(a10, a11)),
                                     _mm256_add_ps(_mm256_add_ps(a12, a13), _mm256_add_ps(a14, a15))));
  float v[8];
  _mm256_storeu_ps(v, s);
  return v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
}

/* Flops per iteration of the kernel fma_kernel picks: 2 per lane. */
static int fma_flops_per_iter(void) {
  if (__builtin_cpu_supports("avx512f")) return 16 * 16 * 2;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return 16 * 8 * 2;
  return 0;
}

static void* fma_thread(void* p) {
  fma_arg* a = p;
  bound_wait(a->team);
  double t = bound_now();
  a->sink = __builtin_cpu_supports("avx512f") ? fma_avx512(a->iters) : fma_avx2(a->iters);
  a->seconds = bound_now() - t;
  return NULL;
}

/* The peak f32 rate in FLOP/s (an FMA is 2) of iters iterations of
   independent FMA chains on each of the pool's threads (AVX-512 where the
   CPU has it, else AVX2 with FMA): the slowest thread's time. 0 on failure or on a
   CPU without FMA. */
__attribute__((visibility("default"))) int64_t stela_cpu_bound_fma(int64_t iters) {
  __builtin_cpu_init();
  int per = fma_flops_per_iter();
  if (per == 0 || iters < 1) return 0;
  int threads = stela_rt_default_threads();
  fma_arg* args = calloc((size_t)threads, sizeof(fma_arg));
  pthread_t* tids = calloc((size_t)threads, sizeof(pthread_t));
  int64_t rate = 0;
  if (args != NULL && tids != NULL) {
    bound_team team = {0};
    int started = 0;
    for (int i = 0; i < threads; i++) {
      args[i] = (fma_arg){.team = &team, .iters = iters};
      if (i == 0) continue;
      if (pthread_create(&tids[i], NULL, fma_thread, &args[i]) != 0) break;
      started++;
    }
    __atomic_store_n(&team.go, 1, __ATOMIC_RELEASE);
    if (started == threads - 1) fma_thread(&args[0]);
    for (int i = 1; i <= started; i++) pthread_join(tids[i], NULL);
    if (started == threads - 1) {
      double worst = 0;
      for (int i = 0; i < threads; i++)
        if (args[i].seconds > worst) worst = args[i].seconds;
      rate = (int64_t)((double)per * (double)iters * threads / worst);
    }
  }
  free(args);
  free(tids);
  return rate;
}
