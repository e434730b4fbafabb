/*
 * rt_gemm512.h: the runtime's own f32 GEMM for CPUs with AVX-512 (F), in
 * the manner of BLIS: packing, cache blocking, and a G5_MR x G5_NR
 * register-blocked micro-kernel. Included once by rt.c (after rt_gemm.h's
 * f32 instance, the fallback where the CPU lacks AVX-512).
 *
 * C = alpha op(A) op(B) + beta C, row-major. Loops, outer to inner:
 *   jc: N in blocks of equal width, at most G5_NC columns;
 *   pc: K in slices of equal depth, at most G5_KC; op(B)'s kc x nc block
 *       is packed (by all the pool's threads, each a share of its
 *       G5_NR-column strips) into the calling thread's buffer, which every
 *       task then reads;
 *   tasks: the block of C cut into tiles of rows (at most G5_MC_STRIPS
 *       strips of G5_MR rows, as many strips in each tile as can be) and,
 *       when there are too few tiles for the pool, ranges of column
 *       strips; a task packs its op(A) tile (mc x kc, in L2) into its own
 *       thread's buffer;
 *   groups of G5_SG column strips (G5_SG x kc x G5_NR of op(B), in L2);
 *   ir: row strips (kc x G5_MR of op(A), in L1 for the whole group);
 *   jr: the group's strips (streamed from L2, prefetched), the
 *       micro-kernel.
 * Sizes for 48 KB of L1 data cache and 2 MB of L2 per core (Intel Xeon,
 * Sapphire Rapids class); measured in docs/performance.md (W3).
 * The micro-kernel keeps G5_MR x G5_NR of C in G5_MR*G5_NV zmm registers,
 * each step loading G5_NV vectors of B and broadcasting G5_MR elements of
 * A, and adds the result into C itself (masked at the edges: no copy of
 * partial tiles); the first K slice applies beta (beta = 0 never reads C,
 * so NaN there does not propagate), the others add.
 *
 * Each element of C is a sum over K slices of a sequential fused
 * multiply-add sum within the slice, whichever thread computed it: the
 * result does not depend on the pool's size or scheduling.
 *
 * Packing buffers are per thread, of one fixed size, kept for the life of
 * the thread (fresh pages are slow to touch on the VMs we run on); when
 * the calling thread's cannot be had the product goes to the AVX2/generic
 * GEMM (gemm_f32); a worker without one computes its tiles unpacked.
 */
#ifdef STELA_X86

#ifndef G5_MR
#define G5_MR 14
#endif
#ifndef G5_NV
#define G5_NV 2
#endif
#define G5_NR (16 * G5_NV)
_Static_assert(G5_MR <= 16, "op(A) packing stores a strip's column as one vector");
#ifndef G5_KC
#define G5_KC 512
#endif
#ifndef G5_MC_STRIPS
#define G5_MC_STRIPS 16
#endif
#ifndef G5_NC
#define G5_NC 2048
#endif
#ifndef G5_KU
#define G5_KU 1
#endif
#ifndef G5_PFB
#define G5_PFB 16
#endif
#ifndef G5_SG
#define G5_SG 6
#endif
#define G5_PRAGMA(x) _Pragma(#x)
#define G5_UNROLL(n) G5_PRAGMA(GCC unroll n)
#ifndef G5_PFA
#define G5_PFA 8
#endif
#define G5_A_BYTES ((size_t)G5_MC_STRIPS * G5_MR * G5_KC * 4)
#define G5_B_BYTES ((size_t)G5_KC * G5_NC * 4)

static pthread_key_t g5_akey, g5_bkey;
static bool g5_have_keys;
static pthread_once_t g5_once = PTHREAD_ONCE_INIT;

static void g5_keys(void) {
  g5_have_keys = pthread_key_create(&g5_akey, pack_free) == 0 && pthread_key_create(&g5_bkey, pack_free) == 0;
}

/* This thread's buffer of the given key, of a fixed size; NULL when out
   of memory. */
static float* g5_buffer(pthread_key_t key, size_t bytes) {
  if (!g5_have_keys) return NULL;
  void* b = pthread_getspecific(key);
  if (b != NULL) return b;
  if (posix_memalign(&b, 64, bytes) != 0) return NULL;
  if (pthread_setspecific(key, b) != 0) {
    free(b);
    return NULL;
  }
  return b;
}

/* The micro-kernel: C[0:mr, 0:nr] = alpha * (a-panel . b-panel) + beta C
   (beta == 0: C not read). a: kc x G5_MR (k-major), b: kc x G5_NR
   (k-major, 64-byte aligned). */
__attribute__((target("avx512f"))) static void g5_ukr(int64_t kc, const float* restrict a, const float* restrict b,
                                                      float* c, int64_t ldc, float alpha, float beta, int64_t mr,
                                                      int64_t nr) {
  __m512 acc[G5_MR][G5_NV];
#pragma GCC unroll 64
  for (int i = 0; i < G5_MR; i++)
#pragma GCC unroll 8
    for (int v = 0; v < G5_NV; v++) acc[i][v] = _mm512_setzero_ps();
#pragma GCC unroll 64
  for (int i = 0; i < G5_MR; i++)
    if (i < mr) {
      _mm_prefetch((const char*)(c + i * ldc), _MM_HINT_T0);
      _mm_prefetch((const char*)(c + i * ldc + G5_NR - 1), _MM_HINT_T0);
    }
  G5_UNROLL(G5_KU)
  for (int64_t k = 0; k < kc; k++) {
    __m512 bv[G5_NV];
#pragma GCC unroll 8
    for (int v = 0; v < G5_NV; v++) bv[v] = _mm512_load_ps(b + 16 * v);
    _mm_prefetch((const char*)(a + G5_PFA * G5_MR), _MM_HINT_T0);
#if G5_PFB > 0
#pragma GCC unroll 8
    for (int v = 0; v < G5_NV; v++) _mm_prefetch((const char*)(b + G5_PFB * G5_NR + 16 * v), _MM_HINT_T0);
#endif
#pragma GCC unroll 64
    for (int i = 0; i < G5_MR; i++) {
      __m512 x = _mm512_set1_ps(a[i]);
#pragma GCC unroll 8
      for (int v = 0; v < G5_NV; v++) acc[i][v] = _mm512_fmadd_ps(x, bv[v], acc[i][v]);
    }
    a += G5_MR;
    b += G5_NR;
  }
  __mmask16 mk[G5_NV];
#pragma GCC unroll 8
  for (int v = 0; v < G5_NV; v++) {
    int64_t rem = nr - 16 * v;
    mk[v] = rem >= 16 ? (__mmask16)0xffff : rem <= 0 ? (__mmask16)0 : (__mmask16)((1u << rem) - 1);
  }
  __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
#pragma GCC unroll 64
  for (int i = 0; i < G5_MR; i++) {
    if (i >= mr) break;
    float* row = c + i * ldc;
#pragma GCC unroll 8
    for (int v = 0; v < G5_NV; v++) {
      __m512 r = _mm512_mul_ps(acc[i][v], va);
      if (beta != 0) r = _mm512_fmadd_ps(vb, _mm512_maskz_loadu_ps(mk[v], row + 16 * v), r);
      _mm512_mask_storeu_ps(row + 16 * v, mk[v], r);
    }
  }
}

typedef struct g5_ctx {
  int32_t ta, tb;
  int64_t M, N, K;
  float alpha, beta;
  const float* A;
  int64_t lda;
  const float* B;
  int64_t ldb;
  float* C;
  int64_t ldc;
  /* The current step: K slice [pc, pc+kc) of the N block [jc, jc+nc). */
  float* pb;
  int64_t pc, kc, jc, nc;
  int64_t mstrips, mt, nparts; /* row strips of C; tiles of rows; ranges of column strips per tile */
} g5_ctx;

/* g5_tr16 transposes the 16x16 block r (r[i] is row i). */
__attribute__((target("avx512f"))) static inline void g5_tr16(__m512 r[16]) {
  __m512 t[16];
#pragma GCC unroll 8
  for (int i = 0; i < 8; i++) {
    t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
#pragma GCC unroll 4
  for (int i = 0; i < 4; i++) {
    r[4 * i] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
    r[4 * i + 1] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
    r[4 * i + 2] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
    r[4 * i + 3] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
  }
#pragma GCC unroll 2
  for (int h = 0; h < 2; h++)
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
      t[8 * h + i] = _mm512_shuffle_f32x4(r[8 * h + i], r[8 * h + 4 + i], 0x88);
      t[8 * h + 4 + i] = _mm512_shuffle_f32x4(r[8 * h + i], r[8 * h + 4 + i], 0xDD);
    }
#pragma GCC unroll 8
  for (int i = 0; i < 8; i++) {
    r[i] = _mm512_shuffle_f32x4(t[i], t[8 + i], 0x88);
    r[8 + i] = _mm512_shuffle_f32x4(t[i], t[8 + i], 0xDD);
  }
}

/* Packs op(B)[pc:pc+kc, jc+16*... ] column strips [s0, s1) of the block. */
__attribute__((target("avx512f"))) static void g5_pack_b(void* arg, int64_t s0, int64_t s1) {
  const g5_ctx* g = arg;
  for (int64_t s = s0; s < s1; s++) {
    int64_t j0 = s * G5_NR, nr = g->nc - j0 < G5_NR ? g->nc - j0 : G5_NR;
    float* dst = g->pb + j0 * g->kc;
    if (!g->tb) {
      __mmask16 mk[G5_NV];
      for (int v = 0; v < G5_NV; v++) {
        int64_t rem = nr - 16 * v;
        mk[v] = rem >= 16 ? (__mmask16)0xffff : rem <= 0 ? (__mmask16)0 : (__mmask16)((1u << rem) - 1);
      }
      const float* src = g->B + g->pc * g->ldb + g->jc + j0;
      for (int64_t k = 0; k < g->kc; k++) {
        for (int v = 0; v < G5_NV; v++)
          _mm512_store_ps(dst + k * G5_NR + 16 * v, _mm512_maskz_loadu_ps(mk[v], src + k * g->ldb + 16 * v));
      }
    } else {
      /* op(B)[k][j] = B[j][k]: 16x16 blocks of B's rows (rows past nr
         zeros, k past kc masked off) transposed into 16 k-rows each. */
      const float* src = g->B + (g->jc + j0) * g->ldb + g->pc;
      for (int64_t k0 = 0; k0 < g->kc; k0 += 16) {
        int64_t kn = g->kc - k0 < 16 ? g->kc - k0 : 16;
        __mmask16 km = (__mmask16)(kn == 16 ? 0xffff : (1u << kn) - 1);
        for (int v = 0; v < G5_NV; v++) {
          __m512 r[16];
#pragma GCC unroll 16
          for (int i = 0; i < 16; i++) {
            int64_t j = 16 * v + i;
            r[i] = j < nr ? _mm512_maskz_loadu_ps(km, src + j * g->ldb + k0) : _mm512_setzero_ps();
          }
          g5_tr16(r);
#pragma GCC unroll 16
          for (int k = 0; k < 16; k++)
            if (k < kn) _mm512_store_ps(dst + (k0 + k) * G5_NR + 16 * v, r[k]);
        }
      }
    }
  }
}


/* Packs rows [r0, r0+mc) of op(A)[:, pc:pc+kc) into G5_MR-row strips
   (zero rows past mc). */
__attribute__((target("avx512f"))) static void g5_pack_a(const g5_ctx* g, int64_t r0, int64_t mc,
                                                         float* restrict pa) {
  int64_t kc = g->kc;
  for (int64_t ir = 0; ir < mc; ir += G5_MR) {
    int64_t mr = mc - ir < G5_MR ? mc - ir : G5_MR;
    float* dst = pa + ir * kc;
    /* The strip's rows (mr of them, the rest zeros), one k at a time:
       each a masked store of G5_MR elements, the next k's store
       overwriting the lanes past G5_MR (so the last k's is short). */
    __mmask16 mrow = (__mmask16)((1u << mr) - 1), mlast = (__mmask16)((1u << G5_MR) - 1);
    if (g->ta) {
      /* op(A)[i][k] = A[k][i]: G5_MR contiguous elements per k. */
      const float* src = g->A + g->pc * g->lda + r0 + ir;
      for (int64_t k = 0; k < kc; k++)
        _mm512_mask_storeu_ps(dst + k * G5_MR, k + 1 < kc ? (__mmask16)0xffff : mlast,
                              _mm512_maskz_loadu_ps(mrow, src + k * g->lda));
    } else {
      /* A's rows read along k in 16x16 blocks (rows past mr zeros, k
         past kc masked off), transposed into 16 k-columns each. */
      const float* src = g->A + (r0 + ir) * g->lda + g->pc;
      for (int64_t k0 = 0; k0 < kc; k0 += 16) {
        int64_t kn = kc - k0 < 16 ? kc - k0 : 16;
        __mmask16 km = (__mmask16)(kn == 16 ? 0xffff : (1u << kn) - 1);
        __m512 r[16];
#pragma GCC unroll 16
        for (int i = 0; i < 16; i++)
          r[i] = i < mr ? _mm512_maskz_loadu_ps(km, src + i * g->lda + k0) : _mm512_setzero_ps();
        g5_tr16(r);
#pragma GCC unroll 16
        for (int k = 0; k < 16; k++)
          if (k < kn) _mm512_mask_storeu_ps(dst + (k0 + k) * G5_MR, k0 + k + 1 < kc ? (__mmask16)0xffff : mlast, r[k]);
      }
    }
  }
}

/* Rows [r0, r1) and block columns [j0, j1) of the current step,
   unpacked. */
static void g5_tile_naive(const g5_ctx* g, int64_t r0, int64_t r1, int64_t j0, int64_t j1, float beta) {
  for (int64_t i = r0; i < r1; i++)
    for (int64_t j = g->jc + j0; j < g->jc + j1; j++) {
      float s = 0;
      for (int64_t k = g->pc; k < g->pc + g->kc; k++) {
        float a = g->ta ? g->A[k * g->lda + i] : g->A[i * g->lda + k];
        float b = g->tb ? g->B[j * g->ldb + k] : g->B[k * g->ldb + j];
        s += a * b;
      }
      float* c = &g->C[i * g->ldc + j];
      *c = beta == 0 ? g->alpha * s : g->alpha * s + beta * *c;
    }
}

/* Tasks [t0, t1) of a step: tile t / nparts of rows, range t % nparts of
   column strips. */
static void g5_tasks(void* arg, int64_t t0, int64_t t1) {
  g5_ctx* g = arg;
  float* pa = g5_buffer(g5_akey, G5_A_BYTES);
  int64_t cstrips = (g->nc + G5_NR - 1) / G5_NR;
  for (int64_t t = t0; t < t1; t++) {
    int64_t mi = t / g->nparts, part = t % g->nparts;
    int64_t r0 = g->mstrips * mi / g->mt * G5_MR, r1 = g->mstrips * (mi + 1) / g->mt * G5_MR;
    if (r1 > g->M) r1 = g->M;
    int64_t s0 = cstrips * part / g->nparts, s1 = cstrips * (part + 1) / g->nparts;
    if (r0 >= r1 || s0 >= s1) continue;
    float beta = g->pc == 0 ? g->beta : 1;
    if (pa == NULL) { /* this worker has no buffer (out of memory): unpacked */
      int64_t j1 = s1 * G5_NR < g->nc ? s1 * G5_NR : g->nc;
      g5_tile_naive(g, r0, r1, s0 * G5_NR, j1, beta);
      continue;
    }
    g5_pack_a(g, r0, r1 - r0, pa);
    /* Column strips in groups whose op(B) (G5_SG x kc x G5_NR) stays in
       L2 while each strip of the A tile (in L1) meets all of them. */
    for (int64_t sg = s0; sg < s1; sg += G5_SG) {
      int64_t se = sg + G5_SG < s1 ? sg + G5_SG : s1;
      for (int64_t ir = r0; ir < r1; ir += G5_MR) {
        int64_t mr = r1 - ir < G5_MR ? r1 - ir : G5_MR;
        const float* a = pa + (ir - r0) * g->kc;
        for (int64_t s = sg; s < se; s++) {
          int64_t j0 = s * G5_NR, nr = g->nc - j0 < G5_NR ? g->nc - j0 : G5_NR;
          g5_ukr(g->kc, a, g->pb + j0 * g->kc, g->C + ir * g->ldc + g->jc + j0, g->ldc, g->alpha, beta, mr, nr);
        }
      }
    }
  }
}

/* gemm512_f32 computes the product; false (nothing written) when no
   packing buffer can be had. K >= 1, M, N >= 1. */
static bool gemm512_f32(int32_t ta, int32_t tb, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
                        int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  pthread_once(&g5_once, g5_keys);
  if (!g5_have_keys) return false;
  float* pb = g5_buffer(g5_bkey, G5_B_BYTES);
  if (pb == NULL) return false;
  stela_pool* p = tls_pool;
  int threads = p != NULL && !tls_nested ? p->threads : 1;
  g5_ctx g = {.ta = ta != 0, .tb = tb != 0, .M = M, .N = N, .K = K, .alpha = alpha, .beta = beta, .A = A,
              .lda = lda, .B = B, .ldb = ldb, .C = C, .ldc = ldc, .pb = pb};
  g.mstrips = (M + G5_MR - 1) / G5_MR;
  g.mt = (g.mstrips + G5_MC_STRIPS - 1) / G5_MC_STRIPS;
  /* As many tiles as threads at least, a multiple of them when more. */
  if (threads > 1) {
    int64_t want = (g.mt + threads - 1) / threads * threads;
    g.mt = want < g.mstrips ? want : g.mstrips;
  }
  bool par = threads > 1 && (double)M * (double)N * (double)K >= 1e6;
  /* N blocks of equal width (whole strips), at most G5_NC. */
  int64_t nblocks = (N + G5_NC - 1) / G5_NC;
  int64_t ncw = ((N + nblocks - 1) / nblocks + G5_NR - 1) / G5_NR * G5_NR;
  for (int64_t jc = 0; jc < N; jc += ncw) {
    g.jc = jc;
    g.nc = N - jc < ncw ? N - jc : ncw;
    int64_t cstrips = (g.nc + G5_NR - 1) / G5_NR;
    g.nparts = 1;
    if (par && g.mt < 2 * threads) {
      int64_t want = (2 * threads + g.mt - 1) / g.mt;
      g.nparts = want < cstrips ? want : cstrips;
    }
    /* K slices of equal depth (a multiple of 8), at most G5_KC. */
    int64_t kslices = (K + G5_KC - 1) / G5_KC;
    int64_t kcw = ((K + kslices - 1) / kslices + 7) / 8 * 8;
    if (kcw > G5_KC) kcw = G5_KC;
    for (int64_t pc = 0; pc < K; pc += kcw) {
      g.pc = pc;
      g.kc = K - pc < kcw ? K - pc : kcw;
      if (par)
        parallel_for(&g, g5_pack_b, cstrips, 4);
      else
        g5_pack_b(&g, 0, cstrips);
      int64_t tasks = g.mt * g.nparts;
      if (par && tasks > 1)
        parallel_for(&g, g5_tasks, tasks, 1);
      else
        g5_tasks(&g, 0, tasks);
    }
  }
  return true;
}

#undef G5_A_BYTES
#undef G5_B_BYTES

#endif /* STELA_X86 */
