/*
 * rt.c: the runtime of compiled Stela programs (stela_rt.h): a thread pool
 * with parallel_for, and GEMM through a BLAS library found at run time or
 * the plugin's own blocked kernel.
 *
 * Threads. A pool has threads-1 workers, started by the first parallel
 * region that needs them, plus the thread that calls parallel_for. The
 * pool an execution uses is bound to its thread (stela_rt_run sets a
 * thread-local pointer), because parallel_for gets no table argument.
 * One parallel region runs on a pool at a time: a caller takes the pool's
 * `use` mutex with trylock, and when another execution (another device's
 * thread) holds it, runs its loop serially instead of waiting. Chunking
 * is dynamic: n is cut into up to CHUNKS_PER_THREAD chunks per thread of
 * equal length (at least grain), and the caller and the workers take the
 * next chunk from an atomic counter until none is left, so one thread
 * that the OS delays does not hold up the region by a whole share. Chunk
 * boundaries depend only on n, grain and the pool size, and each output
 * element is computed by exactly one chunk, so results do not depend on
 * which thread ran what. Workers wait for work spinning briefly, then on a
 * condition variable.
 *
 * GEMM. On first use the runtime dlopens libopenblas.so.0, else
 * libopenblas.so, else libblas.so.3, and takes cblas_sgemm and cblas_dgemm
 * from the first that has both ($STELA_CPU_BLAS=none skips the search).
 * For f32 it prefers oneDNN's dnnl_sgemm (libdnnl.so.3, else
 * libdnnl.so.2), about twice OpenBLAS's speed on the shapes of training
 * steps here ($STELA_CPU_BLAS=openblas skips it). oneDNN runs on OpenMP;
 * rather than let OpenMP start threads of its own beside the pool's (two
 * sets of threads on the same CPUs, each spinning while the other works),
 * the runtime splits a product into blocks of rows (or columns) of C and
 * runs one single-threaded dnnl_sgemm per block on the pool's threads
 * (omp_set_num_threads(1), which is per calling thread); with
 * $STELA_CPU_DNNL=omp, products of DNNL_OMP_FLOPS or more run as one
 * dnnl_sgemm on OpenMP threads as many as the pool's, the pool held idle
 * (dnnl_run).
 * bf16 operands (gemm_bf16, ABI version 6): see rt_gemm_bf16.
 * A BLAS call holds the pool's `use` mutex (waiting for it), so that the
 * pool's threads and the library's never run at once, and runs with the
 * library's thread count set to the pool's size (openblas_set_num_threads,
 * where the library has it). Calls from inside a parallel region, and all
 * calls when no library was found, use the runtime's own blocked kernel
 * (packing, a 6x16 (f32) or 6x8 (f64) AVX2/FMA micro-kernel where the CPU
 * has them, parallel over tiles of C on the pool).
 * f32 on CPUs with AVX-512: big products (and, with $STELA_CPU_GEMM=own,
 * all that the GEMV path does not take) run on the runtime's own AVX-512
 * GEMM instead (rt_gemm512.h; own512_for decides, $STELA_CPU_GEMM=
 * auto|own|dnnl|avx2 or stela_rt_set_gemm overrides).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "stela_rt.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define STELA_X86 1
#define cpu_relax() _mm_pause()
#else
#define cpu_relax() __asm__ __volatile__("" ::: "memory")
#endif

#define MAX_THREADS 1024
/* Chunks per thread of a parallel region: enough to even out a delayed
   thread, few enough that each chunk is long. */
#define CHUNKS_PER_THREAD 4
/* How long an idle worker (or a waiting caller) spins before it sleeps. */
#define SPIN_NS 30000

/* ---- Thread pool ---- */

struct stela_pool {
  int threads; /* caller included */
  stela_crew* crew; /* device threads of multi-device executions (rt_coll.c) */
  pthread_mutex_t use;
  /* Under use: */
  bool started, stopped;
  int nworkers; /* workers actually running */
  pthread_t* tids;

  pthread_mutex_t mu;
  pthread_cond_t wake; /* workers: a new job, or quit */
  pthread_cond_t done; /* caller: the job's last chunk ended */
  atomic_uint_fast64_t gen;
  atomic_int pending;
  bool quit;

  /* The job, written before gen is bumped. */
  void* ctx;
  void (*fn)(void*, int64_t, int64_t);
  int64_t n, chunk, nchunks;
  atomic_int_fast64_t next; /* the next chunk to take */
  _Atomic int32_t* cancel;  /* the execution's flag (stela_rt.h), or NULL */
};

typedef struct worker_arg {
  stela_pool* pool;
  int index; /* 1 .. threads-1; the caller is 0 */
} worker_arg;

static __thread stela_pool* tls_pool; /* the pool of the execution on this thread */
static __thread int tls_nested;       /* inside a chunk: parallel_for runs serially */
static __thread _Atomic int32_t* tls_cancel; /* the flag of the execution on this thread, or NULL */

static inline bool cancelled(_Atomic int32_t* flag) {
  return flag != NULL && atomic_load_explicit(flag, memory_order_relaxed) != 0;
}

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int stela_rt_default_threads(void) {
  const char* s = getenv("STELA_CPU_THREADS");
  if (s != NULL && *s != '\0') {
    char* end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno == 0 && *end == '\0' && v >= 1) return v > MAX_THREADS ? MAX_THREADS : (int)v;
  }
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1) n = 1;
  return n > MAX_THREADS ? MAX_THREADS : (int)n;
}

stela_pool* stela_pool_new(int threads) {
  if (threads < 1) threads = 1;
  if (threads > MAX_THREADS) threads = MAX_THREADS;
  stela_pool* p = calloc(1, sizeof(*p));
  if (p == NULL) return NULL;
  p->threads = threads;
  pthread_mutex_init(&p->use, NULL);
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->wake, NULL);
  pthread_cond_init(&p->done, NULL);
  atomic_init(&p->gen, 0);
  atomic_init(&p->pending, 0);
  atomic_init(&p->next, 0);
  p->crew = stela_crew_new(); /* starts no thread; NULL: executions start their own */
  return p;
}

stela_crew* stela_pool_crew(stela_pool* p) { return p == NULL ? NULL : p->crew; }

static void run_chunk(stela_pool* p, int64_t i) {
  int64_t begin = i * p->chunk;
  if (begin >= p->n) return;
  int64_t end = begin + p->chunk;
  if (end > p->n) end = p->n;
  p->fn(p->ctx, begin, end);
}

/* Runs chunks until the job has none left, or its execution is
   cancelled (the chunks left are skipped). */
static void run_chunks(stela_pool* p) {
  for (;;) {
    if (cancelled(p->cancel)) return;
    int64_t i = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed);
    if (i >= p->nchunks) return;
    run_chunk(p, i);
  }
}

static void* worker_main(void* arg) {
  worker_arg* w = arg;
  stela_pool* p = w->pool;
  int index = w->index;
  free(w);
  tls_nested = 1; /* parallel_for from a chunk runs serially */
  uint_fast64_t seen = 0;
  for (;;) {
    uint_fast64_t g = atomic_load_explicit(&p->gen, memory_order_acquire);
    if (g == seen) {
      int64_t until = now_ns() + SPIN_NS;
      for (int k = 0; g == seen; k++) {
        cpu_relax();
        g = atomic_load_explicit(&p->gen, memory_order_acquire);
        if ((k & 63) == 63 && now_ns() > until) break;
      }
    }
    if (g == seen) {
      pthread_mutex_lock(&p->mu);
      while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen && !p->quit)
        pthread_cond_wait(&p->wake, &p->mu);
      bool quit = p->quit && g == seen;
      pthread_mutex_unlock(&p->mu);
      if (quit) return NULL;
    }
    seen = g;
    (void)index;
    run_chunks(p);
    if (atomic_fetch_sub_explicit(&p->pending, 1, memory_order_acq_rel) == 1) {
      pthread_mutex_lock(&p->mu);
      pthread_cond_signal(&p->done);
      pthread_mutex_unlock(&p->mu);
    }
  }
}

/* Starts the workers; called with use held. Fewer than asked (even none)
   is not an error: the pool is just smaller. */
static void pool_start(stela_pool* p) {
  p->started = true;
  if (p->threads <= 1) return;
  p->tids = calloc((size_t)p->threads, sizeof(pthread_t));
  if (p->tids == NULL) return;
  /* Workers block every signal: the process's handlers (Go's, in a Go
     program) run on its own threads. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  for (int i = 1; i < p->threads; i++) {
    worker_arg* w = malloc(sizeof(*w));
    if (w == NULL) break;
    w->pool = p;
    w->index = i;
    if (pthread_create(&p->tids[p->nworkers], NULL, worker_main, w) != 0) {
      free(w);
      break;
    }
    p->nworkers++;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void stela_pool_stop(stela_pool* p) {
  if (p == NULL) return;
  /* First the device threads (not under use: one may be running a
     program that waits for the pool). */
  stela_crew_stop(p->crew);
  pthread_mutex_lock(&p->use);
  if (!p->stopped) {
    p->stopped = true;
    pthread_mutex_lock(&p->mu);
    p->quit = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->nworkers; i++) pthread_join(p->tids[i], NULL);
    p->nworkers = 0;
    free(p->tids);
    p->tids = NULL;
  }
  pthread_mutex_unlock(&p->use);
}

void stela_pool_free(stela_pool* p) {
  if (p == NULL) return;
  stela_pool_stop(p);
  pthread_mutex_destroy(&p->use);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->wake);
  pthread_cond_destroy(&p->done);
  stela_crew_free(p->crew);
  free(p);
}

/* The longest chunk: STELA_RT_MAX_CHUNK_GRAINS grains. */
static int64_t max_chunk(int64_t grain) {
  return grain > INT64_MAX / STELA_RT_MAX_CHUNK_GRAINS ? INT64_MAX : grain * STELA_RT_MAX_CHUNK_GRAINS;
}

/* Runs [0, n) on the calling thread, in pieces of at most max_chunk(grain)
   with a look at the cancellation flag between them. */
static void serial(void* ctx, void (*fn)(void*, int64_t, int64_t), int64_t n, int64_t grain) {
  int nested = tls_nested;
  tls_nested = 1;
  int64_t step = max_chunk(grain);
  _Atomic int32_t* flag = tls_cancel;
  for (int64_t b = 0; b < n && !cancelled(flag); b += step) fn(ctx, b, n - b > step ? b + step : n);
  tls_nested = nested;
}

static void parallel_for(void* ctx, void (*fn)(void* ctx, int64_t begin, int64_t end), int64_t n, int64_t grain) {
  if (n <= 0) return;
  if (grain < 1) grain = 1;
  stela_pool* p = tls_pool;
  if (p == NULL || tls_nested || p->threads <= 1 || n <= grain) {
    serial(ctx, fn, n, grain);
    return;
  }
  if (pthread_mutex_trylock(&p->use) != 0) {
    serial(ctx, fn, n, grain); /* another execution has the pool */
    return;
  }
  if (!p->started && !p->stopped) pool_start(p);
  int nt = p->nworkers + 1;
  int64_t want = (int64_t)nt * CHUNKS_PER_THREAD;
  int64_t chunk = (n + want - 1) / want;
  if (chunk < grain) chunk = grain;
  if (chunk > max_chunk(grain)) chunk = max_chunk(grain);
  if (p->stopped || p->nworkers == 0 || chunk >= n) {
    pthread_mutex_unlock(&p->use);
    serial(ctx, fn, n, grain);
    return;
  }
  p->ctx = ctx;
  p->fn = fn;
  p->n = n;
  p->chunk = chunk;
  p->nchunks = n / chunk + (n % chunk != 0);
  p->cancel = tls_cancel;
  atomic_store_explicit(&p->next, 0, memory_order_relaxed);
  atomic_store_explicit(&p->pending, p->nworkers, memory_order_relaxed);
  pthread_mutex_lock(&p->mu);
  atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mu);

  tls_nested = 1;
  run_chunks(p);
  tls_nested = 0;

  if (atomic_load_explicit(&p->pending, memory_order_acquire) > 0) {
    int64_t until = now_ns() + SPIN_NS;
    for (int k = 0; atomic_load_explicit(&p->pending, memory_order_acquire) > 0; k++) {
      cpu_relax();
      if ((k & 63) == 63 && now_ns() > until) break;
    }
    pthread_mutex_lock(&p->mu);
    while (atomic_load_explicit(&p->pending, memory_order_acquire) > 0) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
  }
  pthread_mutex_unlock(&p->use);
}

int stela_rt_run(stela_pool* pool, const stela_rt* rt, stela_entry_fn entry, void* const* args, void* const* results,
                 char err[256]) {
  stela_pool* prev = tls_pool;
  int nested = tls_nested;
  _Atomic int32_t* prev_cancel = tls_cancel;
  tls_pool = pool;
  tls_nested = 0;
  tls_cancel = rt != NULL && rt->version >= 4 ? rt->cancel : NULL;
  int rc = entry(args, results, err, rt);
  tls_pool = prev;
  tls_nested = nested;
  tls_cancel = prev_cancel;
  return rc;
}

/* ---- BLAS ---- */

enum { CblasRowMajor = 101, CblasNoTrans = 111, CblasTrans = 112 };
typedef void (*cblas_sgemm_fn)(int, int, int, int, int, int, float, const float*, int, const float*, int, float,
                               float*, int);
typedef void (*cblas_dgemm_fn)(int, int, int, int, int, int, double, const double*, int, const double*, int, double,
                               double*, int);

/* oneDNN's row-major GEMM: C = alpha op(A) op(B) + beta C. */
typedef int (*dnnl_sgemm_fn)(char, char, int64_t, int64_t, int64_t, float, const float*, int64_t, const float*, int64_t,
                             float, float*, int64_t);
/* The same with bf16 A and B (raw bits) and f32 accumulation and C. */
typedef int (*dnnl_bf16_fn)(char, char, int64_t, int64_t, int64_t, float, const uint16_t*, int64_t, const uint16_t*,
                            int64_t, float, float*, int64_t);

/* f32 GEMM choices ($STELA_CPU_GEMM, stela_rt_set_gemm): auto (the
   AVX-512 kernel of rt_gemm512.h for the products where it beats oneDNN,
   own512_for), own (that kernel, or without AVX-512 the AVX2/generic
   one, for every f32 product the GEMV path does not take), dnnl (oneDNN, else the BLAS library, as before), avx2 (the
   AVX2/generic kernel of rt_gemm.h, what CPUs without AVX-512 run). */
enum { GEMM_AUTO, GEMM_OWN, GEMM_DNNL, GEMM_AVX2 };

static struct {
  pthread_once_t once;
  const char* name;
  char names[96];
  dnnl_sgemm_fn dnnl_sgemm;
  dnnl_bf16_fn dnnl_bf16; /* set only where the CPU has bf16 dot products (AVX512-BF16, AMX-BF16) */
  bool gemv_f32_off;       /* $STELA_CPU_GEMV=off: f32 products of few rows go to the library */
  bool dnnl_omp;           /* $STELA_CPU_DNNL=omp: big products as one call on OpenMP threads */
  atomic_int bf16_off;    /* $STELA_CPU_BF16=off, or stela_rt_set_bf16(0): bf16 operands go to f32 */
  void (*omp_set_threads)(int);
  cblas_sgemm_fn sgemm;
  cblas_dgemm_fn dgemm;
  void (*set_threads)(int);
  pthread_mutex_t mu; /* one BLAS call (and thread-count change) at a time */
  int threads_set;
  bool avx2;
  bool avx512; /* AVX-512 F: the own f32 GEMM of rt_gemm512.h */
  atomic_int gemm_mode; /* $STELA_CPU_GEMM, or stela_rt_set_gemm: GEMM_AUTO, ... */
  bool avx512_skinny; /* F, BW, VL and DQ: rt_skinny.h */
  atomic_int skinny_off; /* $STELA_CPU_GEMV=avx2, or stela_rt_set_skinny(0) */
  atomic_int skinny_row_off; /* $STELA_CPU_GEMV=cols, or stela_rt_set_skinny_row(0): rt_skinny.h's sk1_job off */
  bool amx; /* AMX-BF16 */
  pthread_key_t pack_key;
  bool have_key;
  atomic_bool done; /* blas_init has run */
} blas = {.once = PTHREAD_ONCE_INIT, .mu = PTHREAD_MUTEX_INITIALIZER};

static void pack_free(void* p) { free(p); }

static void blas_search(void);

static void blas_init(void) {
  blas_search();
  atomic_store(&blas.done, true);
}

/* dnnl_search finds oneDNN's sgemm and OpenMP's thread setter. */
static void dnnl_search(void) {
  /* Before libgomp loads and reads it: idle OpenMP threads sleep. */
  setenv("OMP_WAIT_POLICY", "passive", 0);
  static const char* const libs[] = {"libdnnl.so.3", "libdnnl.so.2"};
  for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
    void* h = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) continue;
    dnnl_sgemm_fn s = (dnnl_sgemm_fn)dlsym(h, "dnnl_sgemm");
    void* g = dlopen("libgomp.so.1", RTLD_NOW | RTLD_NOLOAD);
    void (*set)(int) = g != NULL ? (void (*)(int))dlsym(g, "omp_set_num_threads") : NULL;
    if (s == NULL || set == NULL) {
      /* Without a way to size its threads, oneDNN would use every CPU
         whatever the pool's size: not used. */
      dlclose(h);
      continue;
    }
    blas.dnnl_sgemm = s;
    blas.omp_set_threads = set;
    /* oneDNN's bf16 GEMM runs on any AVX-512 CPU, emulating the bf16 dot
       product without AVX512-BF16 at about f32's speed (its products of
       3 bf16 parts, below, would be slower than f32's); it is used only
       where the CPU has the instructions. */
    bool hw = false;
#ifdef STELA_X86
    hw = __builtin_cpu_supports("avx512bf16");
#endif
    if (hw) blas.dnnl_bf16 = (dnnl_bf16_fn)dlsym(h, "dnnl_gemm_bf16bf16f32");
#ifdef STELA_X86
    blas.amx = __builtin_cpu_supports("amx-bf16");
#endif
    blas.name = libs[i];
    return;
  }
}

static void blas_search(void) {
#ifdef STELA_X86
  __builtin_cpu_init();
  blas.avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  blas.avx512 = __builtin_cpu_supports("avx512f");
  blas.avx512_skinny = blas.avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                       __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
#endif
  const char* gm = getenv("STELA_CPU_GEMM");
  if (gm != NULL) {
    if (strcmp(gm, "own") == 0) atomic_store(&blas.gemm_mode, GEMM_OWN);
    if (strcmp(gm, "dnnl") == 0) atomic_store(&blas.gemm_mode, GEMM_DNNL);
    if (strcmp(gm, "avx2") == 0) atomic_store(&blas.gemm_mode, GEMM_AVX2);
  }
  blas.have_key = pthread_key_create(&blas.pack_key, pack_free) == 0;
  const char* gv = getenv("STELA_CPU_GEMV");
  blas.gemv_f32_off = gv != NULL && strcmp(gv, "off") == 0;
  /* avx2: the AVX2 GEMV kernel rather than rt_skinny.h's (A/B runs). */
  if (gv != NULL && strcmp(gv, "avx2") == 0) atomic_store(&blas.skinny_off, 1);
  /* cols: one row times a k-major weight split by columns, as before
     rt_skinny.h's sk1_job (A/B runs). */
  if (gv != NULL && strcmp(gv, "cols") == 0) atomic_store(&blas.skinny_row_off, 1);
  const char* dp = getenv("STELA_CPU_DNNL");
  blas.dnnl_omp = dp != NULL && strcmp(dp, "omp") == 0;
  const char* bf = getenv("STELA_CPU_BF16");
  if (bf != NULL && strcmp(bf, "off") == 0) atomic_store(&blas.bf16_off, 1);
  const char* env = getenv("STELA_CPU_BLAS");
  if (env != NULL && strcmp(env, "none") == 0) return;
  if (env == NULL || strcmp(env, "openblas") != 0) dnnl_search();
  static const char* const libs[] = {"libopenblas.so.0", "libopenblas.so", "libblas.so.3"};
  for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
    void* h = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) continue;
    cblas_sgemm_fn s = (cblas_sgemm_fn)dlsym(h, "cblas_sgemm");
    cblas_dgemm_fn d = (cblas_dgemm_fn)dlsym(h, "cblas_dgemm");
    if (s == NULL || d == NULL) {
      dlclose(h);
      continue;
    }
    /* Kept loaded for the life of the process. */
    blas.name = libs[i];
    if (blas.dnnl_sgemm != NULL) {
      snprintf(blas.names, sizeof(blas.names), "%s (f32), %s", "libdnnl", libs[i]);
      blas.name = blas.names;
    }
    blas.sgemm = s;
    blas.dgemm = d;
    blas.set_threads = (void (*)(int))dlsym(h, "openblas_set_num_threads");
    return;
  }
}

int stela_rt_blas_loaded(void) { return atomic_load(&blas.done); }

int stela_rt_blas(const char** name) {
  pthread_once(&blas.once, blas_init);
  if (name != NULL) *name = blas.name;
  return blas.sgemm != NULL || blas.dnnl_sgemm != NULL;
}

static bool fits_int(int64_t M, int64_t N, int64_t K, int64_t lda, int64_t ldb, int64_t ldc) {
  return M <= INT_MAX && N <= INT_MAX && K <= INT_MAX && lda <= INT_MAX && ldb <= INT_MAX && ldc <= INT_MAX;
}

/* Takes what a BLAS call needs: the bound pool (so that its workers are
   idle for the call) and the library's lock; sets its thread count. */
static stela_pool* blas_enter(void) {
  stela_pool* p = tls_pool;
  if (p != NULL) pthread_mutex_lock(&p->use);
  pthread_mutex_lock(&blas.mu);
  int want = p != NULL ? p->threads : 1;
  if (blas.set_threads != NULL && blas.threads_set != want) {
    blas.set_threads(want);
    blas.threads_set = want;
  }
  return p;
}

static void blas_leave(stela_pool* p) {
  pthread_mutex_unlock(&blas.mu);
  if (p != NULL) pthread_mutex_unlock(&p->use);
}

/* ---- oneDNN on the pool ---- */

/* The runtime's own f32 GEMM (rt_gemm.h, below). */
static void gemm_f32(int32_t ta, int32_t tb, int64_t M, int64_t N, int64_t K, float alpha, const float* A, int64_t lda,
                     const float* B, int64_t ldb, float beta, float* C, int64_t ldc);

/* C = alpha op(A) op(B) + beta C with bf16 operands (bf16A, bf16B)
   converted to f32 first (below). */
static void gemm_bf16_f32(int32_t ta, int32_t tb, bool bf16A, bool bf16B, int64_t M, int64_t N, int64_t K, float alpha,
                          const void* A, int64_t lda, const void* B, int64_t ldb, float beta, float* C, int64_t ldc);

/* Products of at least this many flops run as one oneDNN call on its
   own OpenMP threads (dnnl_run). */
#define DNNL_OMP_FLOPS 2e8

/* One product split into blocks of C: rows [b*step, ...) of C when
   split_rows, else columns. A and B are f32, or bf16 when bf16. */
typedef struct {
  char ta, tb;
  int64_t M, N, K, lda, ldb, ldc, step;
  float alpha, beta;
  const char *A, *B;
  float* C;
  bool split_rows, bf16;
} dnnl_job;

static void dnnl_block(void* ctx, int64_t begin, int64_t end) {
  dnnl_job* j = ctx;
  blas.omp_set_threads(1);
  int64_t es = j->bf16 ? 2 : 4;
  for (int64_t b = begin; b < end; b++) {
    int64_t lo = b * j->step, hi = lo + j->step;
    int64_t total = j->split_rows ? j->M : j->N;
    if (hi > total) hi = total;
    if (lo >= hi) continue;
    const char *A = j->A, *B = j->B;
    float* C = j->C;
    int64_t M = j->M, N = j->N;
    if (j->split_rows) {
      /* Rows lo..hi of op(A): A's rows, or A's columns when transposed. */
      A += (j->ta == 'T' ? lo : lo * j->lda) * es;
      C += lo * j->ldc;
      M = hi - lo;
    } else {
      B += (j->tb == 'T' ? lo * j->ldb : lo) * es;
      C += lo;
      N = hi - lo;
    }
    if (j->bf16) {
      if (blas.dnnl_bf16(j->ta, j->tb, M, N, j->K, j->alpha, (const uint16_t*)A, j->lda, (const uint16_t*)B, j->ldb,
                         j->beta, C, j->ldc) != 0) {
        /* Refused (nothing written): in f32, on this thread. */
        gemm_bf16_f32(j->ta == 'T', j->tb == 'T', true, true, M, N, j->K, j->alpha, A, j->lda, B, j->ldb, j->beta, C,
                      j->ldc);
      }
    } else if (blas.dnnl_sgemm(j->ta, j->tb, M, N, j->K, j->alpha, (const float*)A, j->lda, (const float*)B, j->ldb,
                               j->beta, C, j->ldc) != 0) {
      /* oneDNN refused the block (it writes nothing then): the runtime's
         own kernel computes it, on this thread. */
      gemm_f32(j->ta == 'T', j->tb == 'T', M, N, j->K, j->alpha, (const float*)A, j->lda, (const float*)B, j->ldb,
               j->beta, C, j->ldc);
    }
  }
}

/* dnnl_run runs C = alpha op(A) op(B) + beta C as single-threaded
   oneDNN products over blocks of C on the pool: blocks of rows when M >=
   N, else of columns (so that a product of few rows, a decode step's
   GEMV, reads its big operand once, each thread a share of its columns). */
static void dnnl_run(bool bf16, int32_t transA, int32_t transB, int64_t M, int64_t N, int64_t K, float alpha,
                     const void* A, int64_t lda, const void* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  stela_pool* p = tls_pool;
  int threads = p != NULL ? p->threads : 1;
  dnnl_job j = {.ta = transA ? 'T' : 'N', .tb = transB ? 'T' : 'N', .M = M, .N = N, .K = K, .lda = lda, .ldb = ldb,
                .ldc = ldc, .alpha = alpha, .beta = beta, .A = A, .B = B, .C = C, .split_rows = M >= N, .bf16 = bf16};
  /* Two blocks a thread (so that a thread the OS delays is made up for),
     of at least 64 rows or columns. */
  double flops = 2.0 * (double)M * (double)N * (double)K;
  if (threads > 1 && !tls_nested && flops >= DNNL_OMP_FLOPS && blas.dnnl_omp) {
    /* $STELA_CPU_DNNL=omp, a big product: one oneDNN call on OpenMP
       threads, as many as the pool's (whose workers sleep meanwhile:
       blas_enter holds the pool), so that oneDNN packs each panel once
       for all threads rather than once per block. Off by default: on the
       shared 2-vCPU machine it used 3-15% less CPU time but was no faster
       in wall time at 1024^3 and slower at 2048^3 (docs/performance.md);
       to be measured on a quiet machine. */
    stela_pool* held = blas_enter();
    blas.omp_set_threads(threads);
    int rc = bf16 ? blas.dnnl_bf16(j.ta, j.tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc)
                  : blas.dnnl_sgemm(j.ta, j.tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    blas.omp_set_threads(1);
    blas_leave(held);
    if (rc == 0) return;
  }
  int64_t total = j.split_rows ? M : N;
  int64_t blocks = 2 * (int64_t)threads;
  j.step = (total + blocks - 1) / blocks;
  if (j.step < 64) j.step = 64;
  blocks = (total + j.step - 1) / j.step;
  if (threads <= 1 || blocks <= 1 || 2.0 * (double)M * (double)N * (double)K < 4e6) {
    j.step = total;
    dnnl_block(&j, 0, 1);
    return;
  }
  parallel_for(&j, dnnl_block, blocks, 1);
}

static void dnnl_pool(int32_t transA, int32_t transB, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
                      int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  dnnl_run(false, transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

/* ---- The runtime's own GEMM ---- */

/* The size of every packing buffer: an f32 96x256 op(A) tile and 256x256
   op(B) block (f64: 96x128 and 128x256), rt_gemm.h. */
#define PACK_BYTES ((size_t)(96 * 256 + 256 * 256) * 4)

/* Per-thread packing buffer, kept between calls (fresh pages are slow to
   touch on some machines) and freed when the thread exits. */
static void* pack_buffer(size_t bytes) {
  if (!blas.have_key) return NULL;
  size_t* b = pthread_getspecific(blas.pack_key);
  if (b != NULL && b[0] >= bytes) return (char*)b + 64;
  free(b);
  pthread_setspecific(blas.pack_key, NULL);
  void* nb = NULL;
  if (posix_memalign(&nb, 64, bytes + 64) != 0) return NULL;
  ((size_t*)nb)[0] = bytes;
  pthread_setspecific(blas.pack_key, nb);
  return (char*)nb + 64;
}

#ifdef STELA_X86
__attribute__((target("avx2,fma"))) static void ukr_f32_avx2(int64_t kc, const float* restrict a,
                                                              const float* restrict b, float* restrict ab) {
  __m256 c00 = _mm256_setzero_ps(), c01 = _mm256_setzero_ps(), c10 = _mm256_setzero_ps(), c11 = _mm256_setzero_ps();
  __m256 c20 = _mm256_setzero_ps(), c21 = _mm256_setzero_ps(), c30 = _mm256_setzero_ps(), c31 = _mm256_setzero_ps();
  __m256 c40 = _mm256_setzero_ps(), c41 = _mm256_setzero_ps(), c50 = _mm256_setzero_ps(), c51 = _mm256_setzero_ps();
  for (int64_t k = 0; k < kc; k++) {
    __m256 b0 = _mm256_load_ps(b), b1 = _mm256_load_ps(b + 8);
    __m256 x = _mm256_broadcast_ss(a + 0);
    c00 = _mm256_fmadd_ps(x, b0, c00);
    c01 = _mm256_fmadd_ps(x, b1, c01);
    x = _mm256_broadcast_ss(a + 1);
    c10 = _mm256_fmadd_ps(x, b0, c10);
    c11 = _mm256_fmadd_ps(x, b1, c11);
    x = _mm256_broadcast_ss(a + 2);
    c20 = _mm256_fmadd_ps(x, b0, c20);
    c21 = _mm256_fmadd_ps(x, b1, c21);
    x = _mm256_broadcast_ss(a + 3);
    c30 = _mm256_fmadd_ps(x, b0, c30);
    c31 = _mm256_fmadd_ps(x, b1, c31);
    x = _mm256_broadcast_ss(a + 4);
    c40 = _mm256_fmadd_ps(x, b0, c40);
    c41 = _mm256_fmadd_ps(x, b1, c41);
    x = _mm256_broadcast_ss(a + 5);
    c50 = _mm256_fmadd_ps(x, b0, c50);
    c51 = _mm256_fmadd_ps(x, b1, c51);
    a += 6;
    b += 16;
  }
  _mm256_store_ps(ab + 0, c00);
  _mm256_store_ps(ab + 8, c01);
  _mm256_store_ps(ab + 16, c10);
  _mm256_store_ps(ab + 24, c11);
  _mm256_store_ps(ab + 32, c20);
  _mm256_store_ps(ab + 40, c21);
  _mm256_store_ps(ab + 48, c30);
  _mm256_store_ps(ab + 56, c31);
  _mm256_store_ps(ab + 64, c40);
  _mm256_store_ps(ab + 72, c41);
  _mm256_store_ps(ab + 80, c50);
  _mm256_store_ps(ab + 88, c51);
}

__attribute__((target("avx2,fma"))) static void ukr_f64_avx2(int64_t kc, const double* restrict a,
                                                              const double* restrict b, double* restrict ab) {
  __m256d c00 = _mm256_setzero_pd(), c01 = _mm256_setzero_pd(), c10 = _mm256_setzero_pd(), c11 = _mm256_setzero_pd();
  __m256d c20 = _mm256_setzero_pd(), c21 = _mm256_setzero_pd(), c30 = _mm256_setzero_pd(), c31 = _mm256_setzero_pd();
  __m256d c40 = _mm256_setzero_pd(), c41 = _mm256_setzero_pd(), c50 = _mm256_setzero_pd(), c51 = _mm256_setzero_pd();
  for (int64_t k = 0; k < kc; k++) {
    __m256d b0 = _mm256_load_pd(b), b1 = _mm256_load_pd(b + 4);
    __m256d x = _mm256_broadcast_sd(a + 0);
    c00 = _mm256_fmadd_pd(x, b0, c00);
    c01 = _mm256_fmadd_pd(x, b1, c01);
    x = _mm256_broadcast_sd(a + 1);
    c10 = _mm256_fmadd_pd(x, b0, c10);
    c11 = _mm256_fmadd_pd(x, b1, c11);
    x = _mm256_broadcast_sd(a + 2);
    c20 = _mm256_fmadd_pd(x, b0, c20);
    c21 = _mm256_fmadd_pd(x, b1, c21);
    x = _mm256_broadcast_sd(a + 3);
    c30 = _mm256_fmadd_pd(x, b0, c30);
    c31 = _mm256_fmadd_pd(x, b1, c31);
    x = _mm256_broadcast_sd(a + 4);
    c40 = _mm256_fmadd_pd(x, b0, c40);
    c41 = _mm256_fmadd_pd(x, b1, c41);
    x = _mm256_broadcast_sd(a + 5);
    c50 = _mm256_fmadd_pd(x, b0, c50);
    c51 = _mm256_fmadd_pd(x, b1, c51);
    a += 6;
    b += 8;
  }
  _mm256_store_pd(ab + 0, c00);
  _mm256_store_pd(ab + 4, c01);
  _mm256_store_pd(ab + 8, c10);
  _mm256_store_pd(ab + 12, c11);
  _mm256_store_pd(ab + 16, c20);
  _mm256_store_pd(ab + 20, c21);
  _mm256_store_pd(ab + 24, c30);
  _mm256_store_pd(ab + 28, c31);
  _mm256_store_pd(ab + 32, c40);
  _mm256_store_pd(ab + 36, c41);
  _mm256_store_pd(ab + 40, c50);
  _mm256_store_pd(ab + 44, c51);
}
#endif

/* The generic parts, once per element type. */
#define T float
#define SFX f32
#define NR 16
#define UKR_AVX2 ukr_f32_avx2
#include "rt_gemm.h"
#undef T
#undef SFX
#undef NR
#undef UKR_AVX2

#define T double
#define SFX f64
#define NR 8
#define UKR_AVX2 ukr_f64_avx2
#include "rt_gemm.h"
#undef T
#undef SFX
#undef NR
#undef UKR_AVX2

#include "rt_gemm512.h"

#ifdef STELA_X86
static double thread_cpu_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* 28 independent FMA chains of zmm registers (no memory), the calling
   thread's f32 FMA rate: the micro-kernel's bound. */
__attribute__((target("avx512f"))) static double g5_fma_peak(int64_t iters, float* sink) {
  __m512 acc[28];
  for (int i = 0; i < 28; i++) acc[i] = _mm512_set1_ps((float)i);
  __m512 x = _mm512_set1_ps(1.0f), y = _mm512_set1_ps(0.5f);
  double t0 = thread_cpu_s();
  for (int64_t k = 0; k < iters; k++) {
#pragma GCC unroll 28
    for (int i = 0; i < 28; i++) acc[i] = _mm512_fmadd_ps(x, acc[i], y);
    __asm__ volatile("" : "+v"(x));
  }
  double t = thread_cpu_s() - t0;
  float s = 0;
  for (int i = 0; i < 28; i++) s += _mm512_reduce_add_ps(acc[i]);
  *sink = s;
  return 28.0 * 32.0 * (double)iters / t;
}
#endif

/* stela_rt_gemm512_kernel_rate measures, on the calling thread, the
   AVX-512 GEMM's micro-kernel alone (g5_ukr) on packed panels, as
   gemm512_f32's inner loops call it: one op(A) strip (kc x G5_MR) against
   nb op(B) strips (kc x G5_NR each) in turn, adding into one C tile per
   strip; flops per CPU second of the thread in rate[0] and the thread's
   FMA peak (28 register chains) in rate[1]. 0 without AVX-512 or memory. */
int stela_rt_gemm512_kernel_rate(int64_t kc, int64_t nb, int64_t calls, double rate[2]) {
#ifdef STELA_X86
  pthread_once(&blas.once, blas_init);
  if (!blas.avx512 || kc < 1 || nb < 1 || calls < 1) return 0;
  float *a = NULL, *b = NULL, *c = NULL;
  if (posix_memalign((void**)&a, 64, (size_t)kc * G5_MR * 4) != 0) return 0;
  if (posix_memalign((void**)&b, 64, (size_t)kc * G5_NR * nb * 4) != 0) {
    free(a);
    return 0;
  }
  if (posix_memalign((void**)&c, 64, (size_t)G5_MR * G5_NR * nb * 4) != 0) {
    free(a);
    free(b);
    return 0;
  }
  for (int64_t i = 0; i < kc * G5_MR; i++) a[i] = (float)(i % 7) * 0.125f;
  for (int64_t i = 0; i < kc * G5_NR * nb; i++) b[i] = (float)(i % 5) * 0.125f;
  memset(c, 0, (size_t)G5_MR * G5_NR * nb * 4);
  double t0 = thread_cpu_s();
  for (int64_t n = 0; n < calls; n++) {
    int64_t s = n % nb;
    g5_ukr(kc, a, b + s * kc * G5_NR, c + s * G5_NR, G5_NR * nb, 1, 1, G5_MR, G5_NR);
  }
  double t = thread_cpu_s() - t0;
  rate[0] = 2.0 * G5_MR * G5_NR * (double)kc * (double)calls / t;
  float sink;
  rate[1] = g5_fma_peak(20000000, &sink);
  free(a);
  free(b);
  free(c);
  (void)sink;
  return 1;
#else
  (void)kc, (void)nb, (void)calls, (void)rate;
  return 0;
#endif
}

/* own512_for says whether rt_sgemm gives the product to gemm512_f32. */
static bool own512_for(int64_t M, int64_t N, int64_t K) {
#ifdef STELA_X86
  if (!blas.avx512 || K <= 0) return false;
  int mode = atomic_load(&blas.gemm_mode);
  if (mode == GEMM_OWN) return true;
  if (mode != GEMM_AUTO) return false;
  /* Products of few rows are the GEMV path's (and oneDNN's). */
  if (M <= 16) return false;
  if (tls_nested || blas.dnnl_sgemm == NULL) return true;
  /* Where it was as fast as oneDNN or faster (docs/performance.md, W3):
     big products. Smaller ones (256^3, 128 rows), where packing op(B)
     costs more than oneDNN's way, stay with oneDNN. */
  return M >= 256 && N >= 256 && K >= 256 && (double)M * (double)N * (double)K >= (double)(1 << 27);
#else
  (void)M, (void)N, (void)K;
  return false;
#endif
}

/* stela_rt_set_gemm sets the f32 GEMM choice (GEMM_AUTO, GEMM_OWN,
   GEMM_DNNL, GEMM_AVX2), as $STELA_CPU_GEMM does, for tests and
   benchmarks; returns whether the AVX-512 kernel can run here. */
int stela_rt_set_gemm(int mode) {
  pthread_once(&blas.once, blas_init);
  if (mode >= GEMM_AUTO && mode <= GEMM_AVX2) atomic_store(&blas.gemm_mode, mode);
  return blas.avx512;
}

void stela_sgemm_own(int32_t transA, int32_t transB, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
                     int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  pthread_once(&blas.once, blas_init);
#ifdef STELA_X86
  if (M > 0 && N > 0 && K > 0 && blas.avx512 && atomic_load(&blas.gemm_mode) != GEMM_AVX2 &&
      gemm512_f32(transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc))
    return;
#endif
  gemm_f32(transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void stela_dgemm_own(int32_t transA, int32_t transB, int64_t M, int64_t N, int64_t K, double alpha, const double* A,
                     int64_t lda, const double* B, int64_t ldb, double beta, double* C, int64_t ldc) {
  pthread_once(&blas.once, blas_init);
  gemm_f64(transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

static bool gemv_f32(int32_t ta, int32_t tb, int64_t M, int64_t N, int64_t K, float alpha, const float* A, int64_t lda,
                     const float* B, int64_t ldb, float beta, float* C, int64_t ldc);

static void rt_sgemm(int32_t transA, int32_t transB, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
                     int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  if (M <= 0 || N <= 0) return;
  pthread_once(&blas.once, blas_init);
  if (K > 0 && !tls_nested && gemv_f32(transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc)) return;
#ifdef STELA_X86
  if (own512_for(M, N, K) && gemm512_f32(transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc)) return;
#endif
  int mode = atomic_load(&blas.gemm_mode);
  if (mode == GEMM_AVX2 || (mode == GEMM_OWN && !blas.avx512)) {
    gemm_f32(transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  if (K > 0 && blas.dnnl_sgemm != NULL && !tls_nested) {
    dnnl_pool(transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  if (K <= 0 || blas.sgemm == NULL || tls_nested || !fits_int(M, N, K, lda, ldb, ldc)) {
    gemm_f32(transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  stela_pool* p = blas_enter();
  blas.sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans, (int)M, (int)N,
             (int)K, alpha, A, (int)lda, B, (int)ldb, beta, C, (int)ldc);
  blas_leave(p);
}

/* ---- bf16 operands (ABI version 6) ---- */

static inline float bf16_to_f32(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static inline uint16_t f32_bits_hi(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  return (uint16_t)(u >> 16);
}

/* split3 writes x as hi + mid + lo, three bf16 values whose sum is x
   exactly for normal x (hi and mid are x and x - hi truncated to bf16's 8
   significant bits, lo the remaining at most 8 bits; only a remainder
   below f32's normal range loses bits). Inf and NaN go into hi whole. */
static inline void split3(float x, uint16_t* hi, uint16_t* mid, uint16_t* lo) {
  uint32_t u;
  memcpy(&u, &x, 4);
  if ((u & 0x7f800000u) == 0x7f800000u) {
    *hi = (uint16_t)((u >> 16) | ((u & 0x007fffffu) != 0 ? 0x0040u : 0)); /* NaN stays NaN */
    *mid = *lo = 0;
    return;
  }
  uint32_t hu = u & 0xffff0000u;
  float hf, mf;
  memcpy(&hf, &hu, 4);
  float r = x - hf; /* exact: the low 16 bits of x's significand */
  uint32_t ru;
  memcpy(&ru, &r, 4);
  uint32_t mu = ru & 0xffff0000u;
  memcpy(&mf, &mu, 4);
  float r2 = r - mf; /* exact, at most 8 significant bits */
  *hi = (uint16_t)(hu >> 16);
  *mid = (uint16_t)(mu >> 16);
  *lo = f32_bits_hi(r2);
}

/* A matrix being converted: rows x cols elements at src with leading
   dimension ld; f32 from bf16 into dst (ld cols), or, for split, f32
   into three bf16 parts (of op(X): rows of dst are op(X)'s rows, part j
   at dst + j*rows*cols). */
typedef struct {
  const void* src;
  void* dst;
  int64_t rows, cols, ld;
  bool trans; /* split: op(X) = Xᵀ: src is cols x rows */
} conv_job;

static void widen_rows(void* ctx, int64_t begin, int64_t end) {
  conv_job* j = ctx;
  const uint16_t* s = j->src;
  float* d = j->dst;
  for (int64_t i = begin; i < end; i++)
    for (int64_t c = 0; c < j->cols; c++) d[i * j->cols + c] = bf16_to_f32(s[i * j->ld + c]);
}

static void split_parts(void* ctx, int64_t begin, int64_t end) {
  conv_job* j = ctx;
  const float* s = j->src;
  uint16_t* d = j->dst;
  int64_t part = j->rows * j->cols;
  for (int64_t i = begin; i < end; i++)
    for (int64_t c = 0; c < j->cols; c++) {
      float x = j->trans ? s[c * j->ld + i] : s[i * j->ld + c];
      int64_t o = i * j->cols + c;
      split3(x, &d[o], &d[part + o], &d[2 * part + o]);
    }
}

static void run_rows(conv_job* j, void (*fn)(void*, int64_t, int64_t)) {
  int64_t grain = 1 + (1 << 16) / (j->cols > 0 ? j->cols : 1);
  parallel_for(j, fn, j->rows, grain);
}

static void gemm_bf16_f32(int32_t ta, int32_t tb, bool bf16A, bool bf16B, int64_t M, int64_t N, int64_t K, float alpha,
                          const void* A, int64_t lda, const void* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  float *a = NULL, *b = NULL;
  if (bf16A) {
    conv_job j = {.src = A, .rows = ta ? K : M, .cols = ta ? M : K, .ld = lda};
    a = malloc((size_t)(j.rows * j.cols) * 4 + 4);
    j.dst = a;
    if (a != NULL) run_rows(&j, widen_rows);
    A = a, lda = j.cols;
  }
  if (bf16B) {
    conv_job j = {.src = B, .rows = tb ? N : K, .cols = tb ? K : N, .ld = ldb};
    b = malloc((size_t)(j.rows * j.cols) * 4 + 4);
    j.dst = b;
    if (b != NULL) run_rows(&j, widen_rows);
    B = b, ldb = j.cols;
  }
  if ((bf16A && a == NULL) || (bf16B && b == NULL)) {
    /* Out of memory: element by element. */
    free(a);
    free(b);
    const uint16_t *ha = A, *hb = B;
    const float *fa = A, *fb = B;
    for (int64_t i = 0; i < M; i++)
      for (int64_t n = 0; n < N; n++) {
        float acc = 0;
        for (int64_t k = 0; k < K; k++) {
          int64_t ia = ta ? k * lda + i : i * lda + k, ib = tb ? n * ldb + k : k * ldb + n;
          acc += (bf16A ? bf16_to_f32(ha[ia]) : fa[ia]) * (bf16B ? bf16_to_f32(hb[ib]) : fb[ib]);
        }
        C[i * ldc + n] = alpha * acc + (beta == 0 ? 0 : beta * C[i * ldc + n]);
      }
    return;
  }
  if (tls_nested || blas.dnnl_sgemm == NULL)
    gemm_f32(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
  else
    rt_sgemm(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
  free(a);
  free(b);
}

/* Products of a few rows with a big weight, AVX-512 (rt_skinny.h). */
#include "rt_skinny.h"

/* stela_rt_set_skinny turns rt_skinny.h's kernel off (0) or back on (1),
   as $STELA_CPU_GEMV=avx2 does (its products then take the AVX2 kernel
   below, or the library): for tests and benchmarks of both paths. Returns
   whether the kernel will be used (the CPU has AVX-512 and it is on). */
int stela_rt_set_skinny(int on) {
  pthread_once(&blas.once, blas_init);
  atomic_store(&blas.skinny_off, on ? 0 : 1);
  return on && blas.avx512_skinny;
}

/* stela_rt_set_skinny_row turns rt_skinny.h's one-row kernel (sk1_job:
   the weight's rows split among the threads) off (0) or back on (1), as
   $STELA_CPU_GEMV=cols does: for tests and benchmarks of both. Returns
   whether it will be used. */
int stela_rt_set_skinny_row(int on) {
  pthread_once(&blas.once, blas_init);
  atomic_store(&blas.skinny_row_off, on ? 0 : 1);
  return on && blas.avx512_skinny && !atomic_load(&blas.skinny_off);
}

/* stela_rt_skinny_calls: the products rt_skinny.h's kernel ran, for tests
   to check that a shape reaches it. */
long stela_rt_skinny_calls(void) {
#ifdef STELA_X86
  return atomic_load(&sk_calls);
#else
  return 0;
#endif
}

/* ---- Products of a few rows with a bf16 weight ---- */

/* A decode step multiplies a few rows (S <= GEMV_MAX: the batch's
   tokens) by big weights, reading each weight once: its speed is the
   memory's. gemv_bf16 reads the bf16 weight W as it lies in memory,
   widens each element to f32 (exact) and multiplies by the f32 rows X
   (S x K, contiguous) with f32 FMAs: the result is the f32 product of the
   converted weight, on any CPU (AVX2 where it has it), with no packing
   of W (a bf16 GEMM library packs W on every call, which costs more than
   the product here). The pool's threads each take blocks of W's output
   columns (the "big" index b). out(s, b) is at C[s*css + b*csb]. */
#define GEMV_MAX 16
#ifndef GEMV_NPF
#define GEMV_NPF 8 /* rows of an n-major W prefetched ahead */
#endif
#ifndef GEMV_PF
#define GEMV_PF 8 /* rows of a k-major W prefetched ahead */
#endif

typedef struct {
  const float* X; /* S x K */
  const void* W;
  bool wf32; /* W is f32, else bf16 */
  int64_t S, K, Nb, ldw;
  int64_t nb; /* output columns of a block */
  bool nmajor; /* W(k, b) at W[b*ldw + k], else W[k*ldw + b] */
  float* C;
  int64_t css, csb;
  float alpha, beta;
} gemv_job;

/* Element i of W, as f32. */
static inline float wget(const void* W, int64_t i, bool wf) {
  return wf ? ((const float*)W)[i] : bf16_to_f32(((const uint16_t*)W)[i]);
}

static inline void gemv_put(const gemv_job* j, int64_t s, int64_t b, float v) {
  float* c = &j->C[s * j->css + b * j->csb];
  v *= j->alpha;
  *c = j->beta == 0 ? v : v + j->beta * *c;
}

#ifdef STELA_X86
__attribute__((target("avx2,fma"))) static inline __m256 widen8(const uint16_t* p) {
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i*)p)), 16));
}

__attribute__((target("avx2,fma"))) static inline float hsum8(__m256 v) {
  __m128 x = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  x = _mm_add_ps(x, _mm_movehl_ps(x, x));
  x = _mm_add_ss(x, _mm_movehdup_ps(x));
  return _mm_cvtss_f32(x);
}

/* 8 elements of W from element i on, as f32. */
__attribute__((target("avx2,fma"), always_inline)) static inline __m256 wload8(const void* W, int64_t i, bool wf) {
  return wf ? _mm256_loadu_ps((const float*)W + i) : widen8((const uint16_t*)W + i);
}

/* Columns [b0, b1) of a k-major W: rows of W are contiguous in b. W(k,
   b) is element k*ldw + b. */
__attribute__((target("avx2,fma"), always_inline)) static inline void gemv_kmajor_body(const gemv_job* j, int64_t b0,
                                                                                      int64_t b1, float* acc, bool wf) {
  int64_t nb = b1 - b0, S = j->S, K = j->K, nv = nb & ~(int64_t)7, ld = j->ldw, es = wf ? 4 : 2;
  memset(acc, 0, (size_t)(S * j->nb) * 4);
  int64_t k = 0;
  for (; k + 4 <= K; k += 4) {
    int64_t w = k * ld + b0; /* element index of W(k, b0) */
    /* The rows GEMV_PF ahead: each row's run is short for the hardware
       prefetcher to ramp up on. */
    const char* pf = k + GEMV_PF + 4 <= K ? (const char*)j->W + (w + GEMV_PF * ld) * es : NULL;
    for (int64_t x = 0; x < nv; x += 8) {
      if (pf != NULL && ((x * es) & 63) == 0) {
        _mm_prefetch(pf + x * es, _MM_HINT_T0);
        _mm_prefetch(pf + (ld + x) * es, _MM_HINT_T0);
        _mm_prefetch(pf + (2 * ld + x) * es, _MM_HINT_T0);
        _mm_prefetch(pf + (3 * ld + x) * es, _MM_HINT_T0);
      }
      __m256 w0 = wload8(j->W, w + x, wf), w1 = wload8(j->W, w + ld + x, wf), w2 = wload8(j->W, w + 2 * ld + x, wf),
             w3 = wload8(j->W, w + 3 * ld + x, wf);
      for (int64_t s = 0; s < S; s++) {
        const float* a = j->X + s * K + k;
        float* c = acc + s * j->nb + x;
        __m256 v = _mm256_loadu_ps(c);
        v = _mm256_fmadd_ps(_mm256_broadcast_ss(a), w0, v);
        v = _mm256_fmadd_ps(_mm256_broadcast_ss(a + 1), w1, v);
        v = _mm256_fmadd_ps(_mm256_broadcast_ss(a + 2), w2, v);
        v = _mm256_fmadd_ps(_mm256_broadcast_ss(a + 3), w3, v);
        _mm256_storeu_ps(c, v);
      }
    }
    for (int64_t x = nv; x < nb; x++)
      for (int64_t s = 0; s < S; s++) {
        const float* a = j->X + s * K + k;
        float v = acc[s * j->nb + x];
        for (int u = 0; u < 4; u++) v += a[u] * wget(j->W, w + u * ld + x, wf);
        acc[s * j->nb + x] = v;
      }
  }
  for (; k < K; k++) {
    int64_t w = k * ld + b0;
    for (int64_t s = 0; s < S; s++) {
      float a = j->X[s * K + k];
      for (int64_t x = 0; x < nb; x++) acc[s * j->nb + x] += a * wget(j->W, w + x, wf);
    }
  }
}

/* Columns [b0, b1) of an n-major W: W's rows are contiguous in k. W(k, b)
   is element b*ldw + k. */
__attribute__((target("avx2,fma"), always_inline)) static inline void gemv_nmajor_body(const gemv_job* j, int64_t b0,
                                                                                      int64_t b1, bool wf) {
  int64_t S = j->S, K = j->K, kv = K & ~(int64_t)7, ld = j->ldw, es = wf ? 4 : 2;
  int64_t b = b0;
  if (S == 1) {
    /* Four rows of W at a time: four independent sums. */
    for (; b + 4 <= b1; b += 4) {
      int64_t w = b * ld;
      __m256 c0 = _mm256_setzero_ps(), c1 = c0, c2 = c0, c3 = c0;
      /* The rows GEMV_NPF ahead (a row is too short a run for the
         hardware prefetcher to ramp up on, and four at a time look like
         four streams that jump). */
      const char* pf = b + GEMV_NPF + 4 <= b1 ? (const char*)j->W + (w + GEMV_NPF * ld) * es : NULL;
      for (int64_t k = 0; k < kv; k += 8) {
        if (pf != NULL && ((k * es) & 63) == 0) {
          _mm_prefetch(pf + k * es, _MM_HINT_T0);
          _mm_prefetch(pf + (ld + k) * es, _MM_HINT_T0);
          _mm_prefetch(pf + (2 * ld + k) * es, _MM_HINT_T0);
          _mm_prefetch(pf + (3 * ld + k) * es, _MM_HINT_T0);
        }
        __m256 a = _mm256_loadu_ps(j->X + k);
        c0 = _mm256_fmadd_ps(a, wload8(j->W, w + k, wf), c0);
        c1 = _mm256_fmadd_ps(a, wload8(j->W, w + ld + k, wf), c1);
        c2 = _mm256_fmadd_ps(a, wload8(j->W, w + 2 * ld + k, wf), c2);
        c3 = _mm256_fmadd_ps(a, wload8(j->W, w + 3 * ld + k, wf), c3);
      }
      float v[4] = {hsum8(c0), hsum8(c1), hsum8(c2), hsum8(c3)};
      for (int u = 0; u < 4; u++) {
        for (int64_t k = kv; k < K; k++) v[u] += j->X[k] * wget(j->W, w + u * ld + k, wf);
        gemv_put(j, 0, b + u, v[u]);
      }
    }
  }
  for (; b < b1; b++) {
    int64_t w = b * ld;
    for (int64_t s0 = 0; s0 < S; s0 += 8) {
      int64_t sn = S - s0 < 8 ? S - s0 : 8;
      __m256 c[8];
      for (int64_t s = 0; s < sn; s++) c[s] = _mm256_setzero_ps();
      for (int64_t k = 0; k < kv; k += 8) {
        __m256 wv = wload8(j->W, w + k, wf);
        for (int64_t s = 0; s < sn; s++) c[s] = _mm256_fmadd_ps(_mm256_loadu_ps(j->X + (s0 + s) * K + k), wv, c[s]);
      }
      for (int64_t s = 0; s < sn; s++) {
        float v = hsum8(c[s]);
        for (int64_t k = kv; k < K; k++) v += j->X[(s0 + s) * K + k] * wget(j->W, w + k, wf);
        gemv_put(j, s0 + s, b, v);
      }
    }
  }
}

/* The bodies instantiated for bf16 and for f32 weights. */
__attribute__((target("avx2,fma"))) static void gemv_kmajor_avx2(const gemv_job* j, int64_t b0, int64_t b1,
                                                                 float* acc) {
  if (j->wf32)
    gemv_kmajor_body(j, b0, b1, acc, true);
  else
    gemv_kmajor_body(j, b0, b1, acc, false);
}

__attribute__((target("avx2,fma"))) static void gemv_nmajor_avx2(const gemv_job* j, int64_t b0, int64_t b1) {
  if (j->wf32)
    gemv_nmajor_body(j, b0, b1, true);
  else
    gemv_nmajor_body(j, b0, b1, false);
}
#endif

static void gemv_kmajor(const gemv_job* j, int64_t b0, int64_t b1, float* acc) {
  int64_t nb = b1 - b0;
  memset(acc, 0, (size_t)(j->S * j->nb) * 4);
  for (int64_t k = 0; k < j->K; k++) {
    int64_t w = k * j->ldw + b0;
    for (int64_t s = 0; s < j->S; s++) {
      float a = j->X[s * j->K + k];
      for (int64_t x = 0; x < nb; x++) acc[s * j->nb + x] += a * wget(j->W, w + x, j->wf32);
    }
  }
}

static void gemv_nmajor(const gemv_job* j, int64_t b0, int64_t b1) {
  for (int64_t b = b0; b < b1; b++)
    for (int64_t s = 0; s < j->S; s++) {
      float v = 0;
      for (int64_t k = 0; k < j->K; k++) v += j->X[s * j->K + k] * wget(j->W, b * j->ldw + k, j->wf32);
      gemv_put(j, s, b, v);
    }
}

/* gemv_blocks computes blocks [begin, end) of nb columns. */
static void gemv_blocks(void* ctx, int64_t begin, int64_t end) {
  gemv_job* j = ctx;
  int64_t b0 = begin * j->nb, b1 = end * j->nb;
  if (b1 > j->Nb) b1 = j->Nb;
  if (j->nmajor) {
#ifdef STELA_X86
    if (blas.avx2) {
      gemv_nmajor_avx2(j, b0, b1);
      return;
    }
#endif
    gemv_nmajor(j, b0, b1);
    return;
  }
  float* acc = malloc((size_t)(j->S * j->nb) * 4);
  if (acc == NULL) {
    gemv_nmajor(j, b0, b1); /* element by element: any layout reads W(k, b) */
    return;
  }
  for (int64_t b = b0; b < b1; b += j->nb) {
    int64_t e = b + j->nb < b1 ? b + j->nb : b1;
#ifdef STELA_X86
    if (blas.avx2)
      gemv_kmajor_avx2(j, b, e, acc);
    else
#endif
      gemv_kmajor(j, b, e, acc);
    for (int64_t s = 0; s < j->S; s++)
      for (int64_t x = 0; x < e - b; x++) gemv_put(j, s, b + x, acc[s * j->nb + x]);
  }
  free(acc);
}

/* gemv_bf16 runs C = alpha op(A) op(B) + beta C where one operand is a
   bf16 weight and the other has at most GEMV_MAX rows (op(A), when B is
   the bf16 one) or columns (op(B)); returns false when it does not
   apply. */
static bool gemv_run(bool wB, int32_t ta, int32_t tb, bool bf16A, bool bf16B, int64_t M, int64_t N, int64_t K,
                     float alpha, const void* A, int64_t lda, const void* B, int64_t ldb, float beta, float* C,
                     int64_t ldc);

static bool gemv_bf16(int32_t ta, int32_t tb, bool bf16A, bool bf16B, int64_t M, int64_t N, int64_t K, float alpha,
                      const void* A, int64_t lda, const void* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  if (bf16B && M <= GEMV_MAX && skinny_run(ta, tb, bf16A, true, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc))
    return true;
  if (bf16B && M <= GEMV_MAX) return gemv_run(true, ta, tb, bf16A, bf16B, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
  if (bf16A && N <= GEMV_MAX) return gemv_run(false, ta, tb, bf16A, bf16B, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
  return false;
}

/* gemv_f32: on an AVX-512 CPU, rt_skinny.h's kernel for 1 to 16 rows
   times a weight of GEMV_F32_MIN elements or more, either layout (it
   declines one row times a k-major weight with K > N). Otherwise the
   same kernel as gemv_bf16's for an f32 product of 2 to GEMV_F32_MAX rows
   (or columns) with a weight of GEMV_F32_MIN elements or more whose
   contracting dimension is contiguous (op(B) = Bᵀ: a tied LM head):
   memory-bound products where oneDNN's sgemm reads the weight at a
   fraction of the memory's rate (8 rows times GPT-2's transposed LM head:
   about 5 GFLOP/s). In interleaved runs that one went from 99-145 ms to
   75-100 ms; one row (oneDNN's GEMV) and the other layout measured no
   better, and stay with oneDNN. */
#define GEMV_F32_MAX 8
#define GEMV_F32_MIN (1 << 18)

static bool gemv_f32(int32_t ta, int32_t tb, int64_t M, int64_t N, int64_t K, float alpha, const float* A, int64_t lda,
                     const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  if (blas.gemv_f32_off) return false;
  /* 1 to 16 rows, either layout of the weight: rt_skinny.h (AVX-512). */
  if (M <= 16 && N * K >= GEMV_F32_MIN && skinny_run(ta, tb, false, false, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc))
    return true;
  if (tb && M >= 2 && M <= GEMV_F32_MAX && N * K >= GEMV_F32_MIN)
    return gemv_run(true, ta, tb, false, false, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
  if (!ta && N >= 2 && N <= GEMV_F32_MAX && M * K >= GEMV_F32_MIN)
    return gemv_run(false, ta, tb, false, false, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
  return false;
}

/* gemv_run: the weight is B (wB) or A; the other operand is f32 or
   bf16. */
static bool gemv_run(bool wB, int32_t ta, int32_t tb, bool bf16A, bool bf16B, int64_t M, int64_t N, int64_t K,
                     float alpha, const void* A, int64_t lda, const void* B, int64_t ldb, float beta, float* C,
                     int64_t ldc) {
  gemv_job j = {.K = K, .C = C, .alpha = alpha, .beta = beta};
  const void* x;
  bool xbf, xtrans; /* the small operand: op(X) is S x K, X[s][k] at x[s*ld + k] (or x[k*ld + s] when xtrans) */
  int64_t xld;
  if (wB) {
    j.S = M, j.Nb = N, j.W = B, j.wf32 = !bf16B, j.ldw = ldb, j.nmajor = tb != 0, j.css = ldc, j.csb = 1;
    x = A, xbf = bf16A, xtrans = ta != 0, xld = lda;
  } else {
    /* Cᵀ = op(B)ᵀ op(A)ᵀ: the rows are op(B)'s columns. */
    j.S = N, j.Nb = M, j.W = A, j.wf32 = !bf16A, j.ldw = lda, j.nmajor = ta == 0, j.css = 1, j.csb = ldc;
    x = B, xbf = bf16B, xtrans = tb == 0, xld = ldb;
  }
  float* X = malloc((size_t)(j.S * K) * 4 + 4);
  if (X == NULL) return false;
  for (int64_t s = 0; s < j.S; s++)
    for (int64_t k = 0; k < K; k++) {
      int64_t i = xtrans ? k * xld + s : s * xld + k;
      X[s * K + k] = xbf ? bf16_to_f32(((const uint16_t*)x)[i]) : ((const float*)x)[i];
    }
  j.X = X;
  /* Blocks of columns: k-major, one a thread, each thread reading long
     runs of each row of W (short runs at a large stride defeat the
     hardware prefetcher: the product then waits on memory), with the S
     rows of the block's sums in at most 64 KiB (L2); n-major, 64 rows of
     W. At least 256 KiB of W a block. */
  stela_pool* p = tls_pool;
  int64_t threads = p != NULL && !tls_nested ? p->threads : 1;
  if (j.nmajor) {
    j.nb = 64;
  } else {
    j.nb = (j.Nb + threads - 1) / threads;
    if (j.nb > (16 << 10) / j.S) j.nb = (16 << 10) / j.S;
    j.nb = (j.nb + 15) & ~(int64_t)15;
  }
  int64_t blocks = (j.Nb + j.nb - 1) / j.nb;
  int64_t grain = 1 + (256 << 10) / (j.nb * (j.wf32 ? 4 : 2) * (K > 0 ? K : 1));
  parallel_for(&j, gemv_blocks, blocks, grain);
  free(X);
  return true;
}

/* The largest count of rows of an f32 operand (op(A)'s rows, op(B)'s
   columns) that the bf16 path splits into parts; a product with more
   converts its bf16 operand to f32 instead, unless the CPU has AMX. */
#define SPLIT_MAX 256

typedef struct {
  const float* P; /* the parts' products */
  float* C;
  int64_t M, N, ldc, ldp, stride; /* part j of C[i][n] at P[i*ldp + n + j*stride] */
  float alpha, beta;
} sum_job;

static void sum_rows(void* ctx, int64_t begin, int64_t end) {
  sum_job* j = ctx;
  for (int64_t i = begin; i < end; i++)
    for (int64_t n = 0; n < j->N; n++) {
      const float* p = j->P + i * j->ldp + n;
      float v = j->alpha * ((p[2 * j->stride] + p[j->stride]) + p[0]);
      float* c = &j->C[i * j->ldc + n];
      *c = j->beta == 0 ? v : v + j->beta * *c;
    }
}

/* rt_gemm_bf16: C = alpha op(A) op(B) + beta C, A and B f32 or (bf16A,
   bf16B) bf16, products and sums in f32. Both bf16: oneDNN's bf16 GEMM
   (on the pool as dnnl_run splits it). One bf16 (a bf16 weight times f32
   activations): the f32 operand is split into three bf16 parts whose sum
   is it exactly (split3) and stacked, so that one bf16 GEMM of 3x the
   rows reads the bf16 operand once; C sums the three products. The
   result is then as accurate as an f32 GEMM of the converted weight. Where
   the bf16 GEMM is not used ($STELA_CPU_BF16=off, no AVX512-BF16, no
   oneDNN, calls from inside a parallel region), bf16 operands are
   converted to f32 and the product is rt_sgemm's. */
static void rt_gemm_bf16(int32_t transA, int32_t transB, int32_t bf16A, int32_t bf16B, int64_t M, int64_t N, int64_t K,
                         float alpha, const void* A, int64_t lda, const void* B, int64_t ldb, float beta, float* C,
                         int64_t ldc) {
  if (M <= 0 || N <= 0) return;
  pthread_once(&blas.once, blas_init);
  if (!bf16A && !bf16B) {
    rt_sgemm(transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  if (K > 0 && gemv_bf16(transA, transB, bf16A, bf16B, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc)) return;
  bool native = K > 0 && blas.dnnl_bf16 != NULL && !atomic_load(&blas.bf16_off) && !tls_nested &&
                fits_int(3 * M, 3 * N, K, lda, ldb, ldc);
  int64_t rows = bf16A ? N : M; /* the f32 operand's rows, if any */
  if (native && !(bf16A && bf16B) && rows > SPLIT_MAX && !blas.amx) native = false;
  if (!native) {
    gemm_bf16_f32(transA, transB, bf16A, bf16B, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  if (bf16A && bf16B) {
    dnnl_run(true, transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  /* parts: op(X) for the f32 operand X as `rows` rows of K, three times;
     P: the product with the parts, three blocks of M rows (A f32) or of
     N columns (B f32). */
  uint16_t* parts = malloc((size_t)(3 * rows * K) * 2 + 2);
  float* P = malloc((size_t)(3 * M * N) * 4 + 4);
  if (parts == NULL || P == NULL) {
    free(parts);
    free(P);
    gemm_bf16_f32(transA, transB, bf16A, bf16B, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  sum_job s = {.P = P, .C = C, .M = M, .N = N, .ldc = ldc, .alpha = alpha, .beta = beta};
  if (!bf16A) {
    /* op(A) is M x K: rows of A, or columns when transposed. */
    conv_job j = {.src = A, .dst = parts, .rows = M, .cols = K, .ld = lda, .trans = transA != 0};
    run_rows(&j, split_parts);
    dnnl_run(true, 0, transB, 3 * M, N, K, 1, parts, K, B, ldb, 0, P, N);
    s.ldp = N, s.stride = M * N;
  } else {
    /* op(B) is K x N; its columns are B's rows when transposed. */
    conv_job j = {.src = B, .dst = parts, .rows = N, .cols = K, .ld = ldb, .trans = transB == 0};
    run_rows(&j, split_parts);
    dnnl_run(true, transA, 1, M, 3 * N, K, 1, A, lda, parts, K, 0, P, 3 * N);
    s.ldp = 3 * N, s.stride = N;
  }
  parallel_for(&s, sum_rows, M, 1 + (1 << 14) / N);
  free(parts);
  free(P);
}

/* stela_rt_set_bf16 turns the bf16 GEMM off (0) or back on (1), as
   $STELA_CPU_BF16=off does: for tests of the f32 path. Returns whether
   bf16 products will use it (the CPU and oneDNN have it, and it is on). */
int stela_rt_set_bf16(int on) {
  pthread_once(&blas.once, blas_init);
  atomic_store(&blas.bf16_off, on ? 0 : 1);
  return on && blas.dnnl_bf16 != NULL;
}

static void rt_dgemm(int32_t transA, int32_t transB, int64_t M, int64_t N, int64_t K, double alpha, const double* A,
                     int64_t lda, const double* B, int64_t ldb, double beta, double* C, int64_t ldc) {
  if (M <= 0 || N <= 0) return;
  pthread_once(&blas.once, blas_init);
  if (K <= 0 || blas.dgemm == NULL || tls_nested || !fits_int(M, N, K, lda, ldb, ldc)) {
    gemm_f64(transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  stela_pool* p = blas_enter();
  blas.dgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans, (int)M, (int)N,
             (int)K, alpha, A, (int)lda, B, (int)ldb, beta, C, (int)ldc);
  blas_leave(p);
}

/* Batched products (ABI version 6). */
#include "rt_attn.h"
/* FFT (ABI version 7). */
#include "rt_fft.h"

void stela_rt_init(stela_rt* rt, int threads) {
  memset(rt, 0, sizeof(*rt));
  rt->version = STELA_RT_VERSION;
  rt->num_threads = threads < 1 ? 1 : threads;
  rt->parallel_for = parallel_for;
  rt->sgemm = rt_sgemm;
  rt->dgemm = rt_dgemm;
  rt->sgemm_batch = rt_sgemm_batch;
  rt->attention_f32 = rt_attention_f32;
  rt->gemm_bf16 = rt_gemm_bf16;
  rt->fft = stela_rt_fft;
  stela_rt_init_collectives(rt);
  static _Atomic int32_t never; /* stays 0 */
  rt->cancel = &never;
}
