/*
 * rt_attn.h: the runtime's batched products (ABI version 6, stela_rt.h),
 * included by rt.c after its GEMM section (it uses rt.c's pool, oneDNN
 * handle and own kernel). Kept in its own file so that the GEMM section
 * of rt.c can change without touching this one.
 *
 * sgemm_batch. A dot_general with batch dimensions (the attention of a
 * transformer: batch x heads products of [T, 64] x [64, T], or in decode
 * [1, 64] x [64, L]) is many small products. Called one by one through
 * sgemm, each is too small for sgemm to split across the pool (below
 * BATCH_SPLIT_FLOPS it runs on the calling thread), so the pool idled.
 * sgemm_batch runs such products in parallel across the batch: every
 * product is computed by one thread, with the same single-threaded
 * kernel sgemm would have used for it (oneDNN where loaded, else the
 * runtime's own), so results are the same whatever the thread count.
 * Large products go one after another through sgemm, which splits each.
 */

/* Products of at least this many flops are split by sgemm itself
   (dnnl_pool's threshold). */
#define BATCH_SPLIT_FLOPS 4e6
/* A chunk of the batch carries at least this many flops (a hand-off to
   the pool costs a few microseconds). */
#define BATCH_CHUNK_FLOPS 2e5

typedef struct {
  int32_t ta, tb;
  int64_t M, N, K, lda, ldb, ldc, sA, sB, sC;
  float alpha, beta;
  const float *A, *B;
  float* C;
} batch_job;

static void batch_chunk(void* ctx, int64_t begin, int64_t end) {
  batch_job* j = ctx;
  if (blas.dnnl_sgemm != NULL && j->K > 0) blas.omp_set_threads(1);
  for (int64_t b = begin; b < end; b++) {
    const float* A = j->A + b * j->sA;
    const float* B = j->B + b * j->sB;
    float* C = j->C + b * j->sC;
    if (blas.dnnl_sgemm != NULL && j->K > 0 &&
        blas.dnnl_sgemm(j->ta ? 'T' : 'N', j->tb ? 'T' : 'N', j->M, j->N, j->K, j->alpha, A, j->lda, B, j->ldb,
                        j->beta, C, j->ldc) == 0)
      continue;
    /* No oneDNN, or it refused: the runtime's own kernel (serial here:
       this runs inside a parallel region or on one thread). */
    gemm_f32(j->ta, j->tb, j->M, j->N, j->K, j->alpha, A, j->lda, B, j->ldb, j->beta, C, j->ldc);
  }
}

static void rt_sgemm_batch(int32_t transA, int32_t transB, int64_t batch, int64_t M, int64_t N, int64_t K,
                           float alpha, const float* A, int64_t lda, int64_t strideA, const float* B, int64_t ldb,
                           int64_t strideB, float beta, float* C, int64_t ldc, int64_t strideC) {
  if (batch <= 0 || M <= 0 || N <= 0) return;
  pthread_once(&blas.once, blas_init);
  stela_pool* p = tls_pool;
  int threads = p != NULL ? p->threads : 1;
  double flops = 2.0 * (double)M * (double)N * (double)(K > 0 ? K : 1);
  if (batch == 1 || threads <= 1 || tls_nested || flops >= BATCH_SPLIT_FLOPS || K <= 0) {
    for (int64_t b = 0; b < batch; b++)
      rt_sgemm(transA, transB, M, N, K, alpha, A + b * strideA, lda, B + b * strideB, ldb, beta, C + b * strideC,
               ldc);
    return;
  }
  batch_job j = {.ta = transA, .tb = transB, .M = M, .N = N, .K = K, .lda = lda, .ldb = ldb, .ldc = ldc,
                 .sA = strideA, .sB = strideB, .sC = strideC, .alpha = alpha, .beta = beta, .A = A, .B = B, .C = C};
  int64_t grain = (int64_t)(BATCH_CHUNK_FLOPS / flops) + 1;
  parallel_for(&j, batch_chunk, batch, grain);
}

/*
 * attention_f32 (ABI version 6): softmax(scale * Q·Kᵀ, masked) · V in one
 * pass, the FlashAttention scheme on the CPU. The code generator calls it
 * for the pattern of docs/cpu-plugin.md "Fused attention" (codegen's
 * attention.go), for each of `batch` independent products:
 *
 *   s[i][j] = fl(fl(Σ_d op(Q)[i][d] op(K)[d][j]) * scale)   i < M, j < L
 *   x[i][j] = mask[i][j] ? s[i][j] : fill                  (no mask: s)
 *   O[i][c] = Σ_j exp(x[i][j] - max_j x[i][j]) op(V)[j][c] / Σ_j exp(...)
 *
 * op(X) is X or Xᵀ as in sgemm (trans, leading dimension, batch stride).
 * The mask (1 byte per element, 0 or 1) of product g is the [M, L] matrix
 * at mask + (g / mask_div) * M * L. O is [batch, M, Dv], contiguous.
 *
 * Work is split into tasks of (product, block of ATT_MB query rows) on
 * the pool. A task walks the keys in blocks of ATT_LB: the scores of the
 * block, then for each row the running maximum m, the running sum l of
 * exp(x - m) and the running output acc, rescaled by exp(m_old - m_new)
 * when the maximum grows (online softmax); at the end O = acc / l. A key
 * block whose mask is 0 for every row of the task is skipped (the masked
 * half of a causal mask, the unused slots of a KV cache): its elements
 * are x = fill, which contribute exp(fill - m) = 0 once m - fill >= 88
 * (the exponential below returns 0 under -87.3); when some row's maximum
 * is not that far above fill (every key of the row masked), the skipped
 * blocks are processed after all, as all-fill blocks.
 *
 * Non-finite values give what the unfused program gives: a row whose
 * maximum is NaN or +inf (a NaN or +inf score or fill) or -inf (every x
 * is -inf) is NaN throughout, because x - max is NaN for some element,
 * and the sums and the product carry it. One difference: a skipped block
 * (fully masked) is not read, so an inf or NaN in V at masked keys, which
 * the unfused product turns into NaN (0·inf), is ignored.
 */

#define ATT_MB 32 /* query rows per task */
#define ATT_LB 64 /* keys per block */
/* The largest D and Dv (the code generator calls for no more). */
#define ATT_MAX_D 512

typedef struct {
  int64_t batch, M, L, D, Dv, qblocks;
  const float* Q;
  int64_t ldq, sq;
  const float* K;
  int64_t ldk, sk;
  const float* V;
  int64_t ldv, sv;
  int32_t tq, tk, tv;
  float scale, fill;
  const uint8_t* mask;
  int64_t mask_div;
  float* O;
  int isa; /* attn_isa() */
} attn_job;

/* The kernels, once per instruction set: VL floats a vector. */
#if defined(__x86_64__) || defined(__i386__)
#define ATT_VL 16
#define ATT_SFX avx512
#define ATT_TARGET __attribute__((target("avx512f,avx2,fma")))
#include "rt_attn_kernel.h"
#undef ATT_VL
#undef ATT_SFX
#undef ATT_TARGET

#define ATT_VL 8
#define ATT_SFX avx2
#define ATT_TARGET __attribute__((target("avx2,fma")))
#include "rt_attn_kernel.h"
#undef ATT_VL
#undef ATT_SFX
#undef ATT_TARGET
#endif

#define ATT_VL 4
#define ATT_SFX base
#define ATT_TARGET
#include "rt_attn_kernel.h"
#undef ATT_VL
#undef ATT_SFX
#undef ATT_TARGET

/* The instruction set the attention kernel uses: 2 AVX-512, 1 AVX2+FMA,
   0 neither; $STELA_CPU_ATTENTION_ISA=avx2|base caps it (read at each
   call, for tests). */
static int attn_isa(void) {
  static _Atomic int isa = -1;
  int v = atomic_load(&isa);
  if (v < 0) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    v = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")
            ? 2
            : (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1 : 0);
#else
    v = 0;
#endif
    atomic_store(&isa, v);
  }
  const char* cap = getenv("STELA_CPU_ATTENTION_ISA");
  if (cap != NULL && strcmp(cap, "avx2") == 0 && v > 1) v = 1;
  if (cap != NULL && strcmp(cap, "base") == 0) v = 0;
  return v;
}

static void attn_tasks(void* ctx, int64_t begin, int64_t end) {
  attn_job* j = ctx;
  switch (j->isa) {
#if defined(__x86_64__) || defined(__i386__)
  case 2:
    attn_tasks_avx512(j, begin, end);
    return;
  case 1:
    attn_tasks_avx2(j, begin, end);
    return;
#endif
  default:
    attn_tasks_base(j, begin, end);
  }
}

static void rt_attention_f32(int64_t batch, int64_t M, int64_t L, int64_t D, int64_t Dv, const float* Q, int32_t tq,
                             int64_t ldq, int64_t sq, const float* K, int32_t tk, int64_t ldk, int64_t sk,
                             const float* V, int32_t tv, int64_t ldv, int64_t sv, float scale, const uint8_t* mask,
                             int64_t mask_div, float fill, float* O) {
  if (batch <= 0 || M <= 0 || Dv <= 0) return;
  attn_job j = {.batch = batch, .M = M, .L = L, .D = D, .Dv = Dv, .qblocks = (M + ATT_MB - 1) / ATT_MB, .Q = Q,
                .ldq = ldq, .sq = sq, .K = K, .ldk = ldk, .sk = sk, .V = V, .ldv = ldv, .sv = sv, .tq = tq, .tk = tk,
                .tv = tv, .scale = scale, .fill = fill, .mask = mask, .mask_div = mask_div < 1 ? 1 : mask_div, .O = O, .isa = attn_isa()};
  /* A task is at least ~2·ATT_MB·L·(D+Dv) flops; group tasks so that a
     chunk carries about BATCH_CHUNK_FLOPS. */
  double per = 2.0 * (double)(M < ATT_MB ? M : ATT_MB) * (double)(L > 0 ? L : 1) * (double)(D + Dv);
  int64_t grain = (int64_t)(BATCH_CHUNK_FLOPS / per) + 1;
  parallel_for(&j, attn_tasks, batch * j.qblocks, grain);
}
