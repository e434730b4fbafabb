/*
 * rt_skinny.h: products of a few f32 rows with a big weight (a decode
 * step's projections and LM head), AVX-512, included by rt.c.
 *
 * C = alpha op(A) op(B) + beta C where op(A) has M <= SK_MAXM rows (f32,
 * or bf16 widened) and B is the weight, f32 or bf16, in either layout:
 * k-major (op(B) = B, B[k][n] at B[k*ldb + n]: GPT-2's Conv1D [in, out])
 * or n-major (op(B) = Bᵀ, element (k, n) at B[n*ldb + k]: the tied LM
 * head). Such a product reads each weight byte once and does 2M flops per
 * weight element, so its speed is the memory's: the kernel streams the
 * weight exactly once per call, keeps the M rows' sums in registers,
 * and prefetches ahead in software (a k-major panel reads a short run of
 * each of K rows far apart, which the hardware prefetcher does not
 * follow). The pool's threads take blocks of contiguous output columns.
 *
 * k-major: a panel of NV vectors of 16 columns; for each k, the NV weight
 * vectors of row k times op(A)[m][k] broadcast, for the M rows, into M x
 * NV accumulators (op(A) is packed transposed first, so that the M
 * values of one k are contiguous). n-major: R weight rows at a time; for
 * each vector of 16 k, the R weight vectors times the M rows' vectors,
 * M x R accumulators, summed horizontally at the end. bf16 weights are
 * widened to f32 in registers (a shift: exact) and multiplied in f32, so
 * the result is the f32 product of the converted weight, as gemv_bf16's.
 *
 * One row with a k-major weight (N <= SK1_MAXN) splits the weight's
 * rows rather than its columns among the threads (sk1_job below).
 *
 * Sums run in a different order from the library's (per lane, then
 * across lanes), within the error bound of an f32 sum of K products.
 */
#ifdef STELA_X86

#define SK_MAXM 16
#define SK_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,fma,avx2")))
#define SK_INLINE __attribute__((always_inline)) static inline

typedef struct {
  const float* X; /* packed op(A): k-major, [K][M]; n-major, [M][Kp] (zero past K) */
  const void* W;
  bool wf32, nmajor;
  int64_t M, N, K, Kp, ldw;
  int64_t cb; /* output columns of a block */
  float* C;
  int64_t ldc;
  float alpha, beta;
} sk_job;

static atomic_long sk_calls; /* products the kernel ran (tests check it is used) */

/* 16 weight elements from p on (bf16 widened), the lanes of mask only. */
SK_TARGET SK_INLINE __m512 sk_wload(const void* p, bool wf, __mmask16 mask) {
  if (wf) return _mm512_maskz_loadu_ps(mask, p);
  __m256i h = _mm256_maskz_loadu_epi16(mask, p);
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

SK_TARGET SK_INLINE __m512 sk_wload_full(const void* p, bool wf) {
  if (wf) return _mm512_loadu_ps(p);
  __m256i h = _mm256_loadu_si256((const __m256i*)p);
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

/* C[m][n..] = alpha acc + beta C, lanes of mask. */
SK_TARGET SK_INLINE void sk_store(const sk_job* j, float* c, __m512 acc, __mmask16 mask) {
  __m512 v = _mm512_mul_ps(acc, _mm512_set1_ps(j->alpha));
  if (j->beta != 0) v = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(mask, c), _mm512_set1_ps(j->beta), v);
  _mm512_mask_storeu_ps(c, mask, v);
}

/* A k-major block of columns is done in slices of SK_KB rows: for each
   slice, panel after panel along the rows, the panels' partial sums
   waiting in a scratch block (part) between slices. So each row of the
   slice is read from left to right in runs, as the hardware prefetcher
   follows (SK_KB streams at a time); a panel that ran down all K rows
   instead (K streams, each one short run) left the prefetcher idle and,
   with K = 3072 rows, missed the TLB on every row. */
#ifndef SK_KB
#define SK_KB 8
#endif
/* The most columns of a k-major block (part: SK_MAXM x SK_KCB floats on
   the stack). */
#define SK_KCB 1024
/* How far ahead along a row the software prefetch runs, in bytes. */
#ifndef SK_PFB
#define SK_PFB 256
#endif

/* k-major: columns [n0, n0 + 16 NV) (the last vector's lanes: mask) of
   rows [k0, k1), in the block [b0, b1); M and NV are constants where
   this is inlined. The sums start from zero (first) or from part (M
   rows of ldp floats), and end in C (last) or back in part. The
   prefetch runs SK_PFB bytes ahead along each row, from the block's
   end on into the next slice's rows. */
SK_TARGET SK_INLINE void sk_kpanel(const sk_job* j, int64_t n0, int64_t k0, int64_t k1, int64_t b0, int64_t b1,
                                   float* part, int64_t ldp, bool first, bool last, const int M, const int NV,
                                   __mmask16 mask, const bool wf) {
  __m512 acc[SK_MAXM * 16];
  const int64_t ld = j->ldw, es = wf ? 4 : 2;
  const char* W = (const char*)j->W;
  const float* x = j->X;
  /* The prefetched column, and the row offset to it (0, or the next
     slice's when past the block). */
  int64_t pc = n0 + NV * 16 + SK_PFB / es, pk = 0;
  if (pc >= b1) pc = b0 + (pc - b1), pk = SK_KB;
#pragma GCC unroll 16
  for (int m = 0; m < M; m++)
#pragma GCC unroll 16
    for (int v = 0; v < NV; v++)
      acc[m * NV + v] = first ? _mm512_setzero_ps() : _mm512_loadu_ps(part + m * ldp + v * 16);
  for (int64_t k = k0; k < k1; k++) {
    const char* w = W + (k * ld + n0) * es;
    const char* pf = W + ((k + pk) * ld + pc) * es;
#pragma GCC unroll 16
    for (int v = 0; v < NV; v++)
      if (wf || (v & 1) == 0) _mm_prefetch(pf + v * 16 * es, _MM_HINT_T0);
    __m512 wv[16];
#pragma GCC unroll 16
    for (int v = 0; v < NV; v++)
      wv[v] = v == NV - 1 ? sk_wload(w + v * 16 * es, wf, mask) : sk_wload_full(w + v * 16 * es, wf);
    const float* xk = x + k * M;
#pragma GCC unroll 16
    for (int m = 0; m < M; m++) {
      __m512 b = _mm512_set1_ps(xk[m]);
#pragma GCC unroll 16
      for (int v = 0; v < NV; v++) acc[m * NV + v] = _mm512_fmadd_ps(b, wv[v], acc[m * NV + v]);
    }
  }
#pragma GCC unroll 16
  for (int m = 0; m < M; m++)
#pragma GCC unroll 16
    for (int v = 0; v < NV; v++) {
      if (last)
        sk_store(j, j->C + m * j->ldc + n0 + v * 16, acc[m * NV + v], v == NV - 1 ? mask : (__mmask16)0xffff);
      else
        _mm512_storeu_ps(part + m * ldp + v * 16, acc[m * NV + v]);
    }
}

/* n-major: output columns (weight rows) [n0, n0 + R) over all K. */
SK_TARGET SK_INLINE void sk_nrows(const sk_job* j, int64_t n0, const int M, const int R, const bool wf) {
  __m512 acc[SK_MAXM * 8];
  const int64_t K = j->K, Kp = j->Kp, ld = j->ldw, es = wf ? 4 : 2, kv = K & ~(int64_t)15;
  const char* W = (const char*)j->W + n0 * ld * es;
  /* The next R rows, a line of each per line of these. */
  const char* pf = W + R * ld * es;
#pragma GCC unroll 256
  for (int i = 0; i < M * R; i++) acc[i] = _mm512_setzero_ps();
  for (int64_t k = 0; k < kv; k += 16) {
    if (((k * es) & 63) == 0)
#pragma GCC unroll 8
      for (int r = 0; r < R; r++) _mm_prefetch(pf + (r * ld + k) * es, _MM_HINT_T0);
    __m512 wv[8];
#pragma GCC unroll 8
    for (int r = 0; r < R; r++) wv[r] = sk_wload_full(W + (r * ld + k) * es, wf);
#pragma GCC unroll 16
    for (int m = 0; m < M; m++) {
      __m512 xv = _mm512_loadu_ps(j->X + m * Kp + k);
#pragma GCC unroll 8
      for (int r = 0; r < R; r++) acc[m * R + r] = _mm512_fmadd_ps(xv, wv[r], acc[m * R + r]);
    }
  }
  if (kv < K) {
    __mmask16 mask = (__mmask16)((1u << (K - kv)) - 1);
    __m512 wv[8];
#pragma GCC unroll 8
    for (int r = 0; r < R; r++) wv[r] = sk_wload(W + (r * ld + kv) * es, wf, mask);
#pragma GCC unroll 16
    for (int m = 0; m < M; m++) {
      __m512 xv = _mm512_loadu_ps(j->X + m * Kp + kv); /* zero past K */
#pragma GCC unroll 8
      for (int r = 0; r < R; r++) acc[m * R + r] = _mm512_fmadd_ps(xv, wv[r], acc[m * R + r]);
    }
  }
#pragma GCC unroll 16
  for (int m = 0; m < M; m++)
#pragma GCC unroll 8
    for (int r = 0; r < R; r++) {
      float v = j->alpha * _mm512_reduce_add_ps(acc[m * R + r]);
      float* c = &j->C[m * j->ldc + n0 + r];
      *c = j->beta == 0 ? v : v + j->beta * *c;
    }
}

/* Vectors of a k-major panel, and weight rows of an n-major group, for M
   rows: M x NV accumulators, NV weight vectors and one of op(A) in the
   32 registers. */
#define SK_FIT(M) (31 / ((M) + 1))
#define SK_NV(M) (SK_FIT(M) > 12 ? 12 : SK_FIT(M))
#define SK_R(M) (SK_FIT(M) > 8 ? 8 : SK_FIT(M))

/* Columns [b0, b1) for M rows (a constant where inlined). */
SK_TARGET SK_INLINE void sk_cols(const sk_job* j, int64_t b0, int64_t b1, float* part, const int M, const bool wf) {
  if (j->nmajor) {
    const int R = SK_R(M);
    int64_t n = b0;
    for (; n + R <= b1; n += R) sk_nrows(j, n, M, R, wf);
    for (; n < b1; n++) sk_nrows(j, n, M, 1, wf);
    return;
  }
  const int NV = SK_NV(M);
  const int64_t ldp = (b1 - b0 + 15) & ~(int64_t)15; /* <= SK_KCB */
  for (int64_t k0 = 0; k0 < j->K; k0 += SK_KB) {
    int64_t k1 = j->K - k0 < SK_KB ? j->K : k0 + SK_KB;
    bool first = k0 == 0, last = k1 == j->K;
    int64_t n = b0;
    for (; n + NV * 16 <= b1; n += NV * 16)
      sk_kpanel(j, n, k0, k1, b0, b1, part + (n - b0), ldp, first, last, M, NV, (__mmask16)0xffff, wf);
    for (; n < b1; n += 16) {
      int64_t w = b1 - n < 16 ? b1 - n : 16;
      sk_kpanel(j, n, k0, k1, b0, b1, part + (n - b0), ldp, first, last, M, 1, (__mmask16)((1u << w) - 1), wf);
    }
  }
}

#define SK_CASE(m)                          \
  case m:                                   \
    if (j->wf32)                            \
      sk_cols(j, b0, b1, part, m, true);          \
    else                                    \
      sk_cols(j, b0, b1, part, m, false);         \
    break;

SK_TARGET static void sk_blocks(void* ctx, int64_t begin, int64_t end) {
  const sk_job* j = ctx;
  float part[SK_MAXM * SK_KCB] __attribute__((aligned(64))); /* k-major partial sums */
  for (int64_t blk = begin; blk < end; blk++) {
    int64_t b0 = blk * j->cb, b1 = b0 + j->cb;
    if (b1 > j->N) b1 = j->N;
    switch (j->M) {
      SK_CASE(1)
      SK_CASE(2)
      SK_CASE(3)
      SK_CASE(4)
      SK_CASE(5)
      SK_CASE(6)
      SK_CASE(7)
      SK_CASE(8)
      SK_CASE(9)
      SK_CASE(10)
      SK_CASE(11)
      SK_CASE(12)
      SK_CASE(13)
      SK_CASE(14)
      SK_CASE(15)
      SK_CASE(16)
    }
  }
}
#undef SK_CASE

/* One row times a k-major weight (M = 1, op(B) = B): the weight's rows
   are split among the blocks, so that each thread reads one contiguous
   part of the weight from start to end, four rows at a time (four
   sequential streams next to each other), into a block's own partial
   sums of all N columns (in L1/L2: N <= SK1_MAXN); the caller adds the
   blocks' sums up. The hardware prefetcher follows such streams all the
   way (a column block's short runs along every row made it ramp up again
   on each), and no weight byte is read by two threads' blocks. */
#define SK1_MAXN 8192

typedef struct {
  const float* x; /* op(A)'s row, K floats */
  const void* W;
  bool wf32;
  int64_t N, K, ldw;
  int64_t kb; /* weight rows of a block */
  float* P;   /* block b's sums at P + b*Np */
  int64_t Np;
} sk1_job;

/* Rows [k0, k1) into p (N floats, zeroed first). */
SK_TARGET SK_INLINE void sk1_rows(const sk1_job* j, int64_t k0, int64_t k1, float* p, const bool wf) {
  const int64_t N = j->N, ld = j->ldw, es = wf ? 4 : 2, nv = N & ~(int64_t)15;
  const __mmask16 tail = (__mmask16)((1u << (N - nv)) - 1);
  const char* W = (const char*)j->W;
  const float* x = j->x;
  memset(p, 0, (size_t)N * 4);
  int64_t k = k0;
  for (; k + 4 <= k1; k += 4) {
    const __m512 x0 = _mm512_set1_ps(x[k]), x1 = _mm512_set1_ps(x[k + 1]), x2 = _mm512_set1_ps(x[k + 2]),
                 x3 = _mm512_set1_ps(x[k + 3]);
    const char* w0 = W + k * ld * es;
    const char *w1 = w0 + ld * es, *w2 = w1 + ld * es, *w3 = w2 + ld * es;
    int64_t n = 0;
    for (; n < nv; n += 16) {
      __m512 a = _mm512_fmadd_ps(x0, sk_wload_full(w0 + n * es, wf), _mm512_load_ps(p + n));
      __m512 b = _mm512_mul_ps(x1, sk_wload_full(w1 + n * es, wf));
      a = _mm512_fmadd_ps(x2, sk_wload_full(w2 + n * es, wf), a);
      b = _mm512_fmadd_ps(x3, sk_wload_full(w3 + n * es, wf), b);
      _mm512_store_ps(p + n, _mm512_add_ps(a, b));
    }
    if (n < N) {
      __m512 a = _mm512_fmadd_ps(x0, sk_wload(w0 + n * es, wf, tail), _mm512_load_ps(p + n));
      __m512 b = _mm512_mul_ps(x1, sk_wload(w1 + n * es, wf, tail));
      a = _mm512_fmadd_ps(x2, sk_wload(w2 + n * es, wf, tail), a);
      b = _mm512_fmadd_ps(x3, sk_wload(w3 + n * es, wf, tail), b);
      _mm512_store_ps(p + n, _mm512_add_ps(a, b));
    }
  }
  for (; k < k1; k++) {
    const __m512 x0 = _mm512_set1_ps(x[k]);
    const char* w0 = W + k * ld * es;
    int64_t n = 0;
    for (; n < nv; n += 16) _mm512_store_ps(p + n, _mm512_fmadd_ps(x0, sk_wload_full(w0 + n * es, wf), _mm512_load_ps(p + n)));
    if (n < N) _mm512_store_ps(p + n, _mm512_fmadd_ps(x0, sk_wload(w0 + n * es, wf, tail), _mm512_load_ps(p + n)));
  }
}

SK_TARGET static void sk1_blocks(void* ctx, int64_t begin, int64_t end) {
  const sk1_job* j = ctx;
  for (int64_t blk = begin; blk < end; blk++) {
    int64_t k0 = blk * j->kb, k1 = k0 + j->kb < j->K ? k0 + j->kb : j->K;
    if (j->wf32)
      sk1_rows(j, k0, k1, j->P + blk * j->Np, true);
    else
      sk1_rows(j, k0, k1, j->P + blk * j->Np, false);
  }
}

/* C[0][n] = alpha (the blocks' sums) + beta C[0][n]. */
SK_TARGET static void sk1_sum(const sk1_job* j, int64_t blocks, float alpha, float beta, float* C) {
  for (int64_t n = 0; n < j->N; n += 16) {
    __mmask16 m = j->N - n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (j->N - n)) - 1);
    __m512 v = _mm512_load_ps(j->P + n);
    for (int64_t b = 1; b < blocks; b++) v = _mm512_add_ps(v, _mm512_load_ps(j->P + b * j->Np + n));
    v = _mm512_mul_ps(v, _mm512_set1_ps(alpha));
    if (beta != 0) v = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, C + n), _mm512_set1_ps(beta), v);
    _mm512_mask_storeu_ps(C + n, m, v);
  }
}

static bool sk_available(void) {
  return blas.avx512_skinny && !atomic_load_explicit(&blas.skinny_off, memory_order_relaxed);
}

/* skinny_row: skinny_run's one row times a k-major weight (sk1_job). */
static bool skinny_row(int32_t ta, bool bf16A, bool bf16B, int64_t N, int64_t K, float alpha, const void* A,
                       int64_t lda, const void* B, int64_t ldb, float beta, float* C) {
  stela_pool* p = tls_pool;
  int64_t threads = p != NULL && !tls_nested ? p->threads : 1;
  int64_t es = bf16B ? 2 : 4;
  /* Two blocks a thread (a thread the OS delays is made up for), each at
     least 64 KiB of weight. */
  int64_t kb = (K + 2 * threads - 1) / (2 * threads);
  int64_t min_kb = (64 << 10) / (N * es) + 1;
  if (kb < min_kb) kb = min_kb;
  int64_t blocks = (K + kb - 1) / kb;
  int64_t Np = (N + 15) & ~(int64_t)15;
  size_t xbytes = (size_t)((K + 15) & ~(int64_t)15) * 4;
  size_t bytes = xbytes + (size_t)(blocks * Np) * 4;
  float* X = pack_buffer(bytes > PACK_BYTES ? bytes : PACK_BYTES);
  if (X == NULL) return false;
  for (int64_t k = 0; k < K; k++) {
    int64_t i = ta ? k * lda : k;
    X[k] = bf16A ? bf16_to_f32(((const uint16_t*)A)[i]) : ((const float*)A)[i];
  }
  sk1_job j = {.x = X, .W = B, .wf32 = !bf16B, .N = N, .K = K, .ldw = ldb, .kb = kb,
               .P = (float*)((char*)X + xbytes), .Np = Np};
  atomic_fetch_add_explicit(&sk_calls, 1, memory_order_relaxed);
  parallel_for(&j, sk1_blocks, blocks, 1);
  sk1_sum(&j, blocks, alpha, beta, C);
  return true;
}

/* skinny_run: C = alpha op(A) op(B) + beta C with op(A) M <= SK_MAXM rows
   (f32, or bf16 when bf16A) and B the weight (f32, or bf16 when bf16B);
   false when the kernel does not apply (no AVX-512, switched off, too
   many rows, no memory to pack op(A)). */
static bool skinny_run(int32_t ta, int32_t tb, bool bf16A, bool bf16B, int64_t M, int64_t N, int64_t K, float alpha,
                       const void* A, int64_t lda, const void* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  if (M < 1 || M > SK_MAXM || N < 1 || K < 1 || !sk_available()) return false;
  /* One row times a k-major weight: blocks of the weight's rows, each a
     contiguous run (sk1_job). */
  if (M == 1 && tb == 0) {
    bool rows = !atomic_load_explicit(&blas.skinny_row_off, memory_order_relaxed);
    if (rows && N <= SK1_MAXN && skinny_row(ta, bf16A, bf16B, N, K, alpha, A, lda, B, ldb, beta, C)) return true;
    /* Without it ($STELA_CPU_GEMV=cols, or a wide N): this kernel's
       column blocks for f32 with K <= N; the AVX2 kernel (bf16) and
       oneDNN's GEMV (f32, K > N) otherwise, which measured faster than
       the column blocks there. */
    if (bf16B || K > N) return false;
  }
  sk_job j = {.W = B, .wf32 = !bf16B, .nmajor = tb != 0, .M = M, .N = N, .K = K, .ldw = ldb, .C = C, .ldc = ldc,
              .alpha = alpha, .beta = beta};
  j.Kp = (K + 15) & ~(int64_t)15;
  size_t bytes = (size_t)(M * j.Kp) * 4;
  float* X = pack_buffer(bytes > PACK_BYTES ? bytes : PACK_BYTES);
  if (X == NULL) return false;
  /* op(A)[m][k] into X: [K][M] (k-major), [M][Kp] (n-major). */
  for (int64_t m = 0; m < M; m++)
    for (int64_t k = 0; k < K; k++) {
      int64_t i = ta ? k * lda + m : m * lda + k;
      float v = bf16A ? bf16_to_f32(((const uint16_t*)A)[i]) : ((const float*)A)[i];
      X[j.nmajor ? m * j.Kp + k : k * M + m] = v;
    }
  if (j.nmajor)
    for (int64_t m = 0; m < M; m++)
      for (int64_t k = K; k < j.Kp; k++) X[m * j.Kp + k] = 0;
  j.X = X;
  /* Blocks of columns, two a thread (a thread the OS delays is made up
     for), each a multiple of the panel (16 columns) or row group (8),
     and at least 64 KiB of weight (fewer threads for a small weight). */
  stela_pool* p = tls_pool;
  int64_t threads = p != NULL && !tls_nested ? p->threads : 1;
  int64_t unit = j.nmajor ? 8 : 16;
  int64_t per = 2; /* blocks a thread */
  while (!j.nmajor && (N + threads * per - 1) / (threads * per) > SK_KCB) per++;
  int64_t cb = (N + threads * per - 1) / (threads * per);
  int64_t min_cb = (64 << 10) / (K * (bf16B ? 2 : 4)) + 1;
  if (cb < min_cb) cb = min_cb;
  j.cb = (cb + unit - 1) / unit * unit;
  if (!j.nmajor && j.cb > SK_KCB) j.cb = SK_KCB;
  int64_t blocks = (N + j.cb - 1) / j.cb;
  atomic_fetch_add_explicit(&sk_calls, 1, memory_order_relaxed);
  parallel_for(&j, sk_blocks, blocks, 1);
  return true;
}

#undef SK_INLINE
#else
static bool skinny_run(int32_t ta, int32_t tb, bool bf16A, bool bf16B, int64_t M, int64_t N, int64_t K, float alpha,
                       const void* A, int64_t lda, const void* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  (void)ta, (void)tb, (void)bf16A, (void)bf16B, (void)M, (void)N, (void)K, (void)alpha, (void)A, (void)lda, (void)B,
      (void)ldb, (void)beta, (void)C, (void)ldc;
  return false;
}
#endif
