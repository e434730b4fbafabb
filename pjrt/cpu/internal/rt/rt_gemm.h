/*
 * rt_gemm.h: the runtime's own GEMM for one element type, included by
 * rt.c with T (the type), SFX (a name suffix), NR (micro-tile columns) and
 * UKR_AVX2 (the AVX2/FMA micro-kernel) defined.
 *
 * C is cut into MC x NC tiles, one parallel task each. A task walks K in
 * KC slices: it packs the slice of op(B) into NR-column strips and the
 * slice of op(A) into MR-row strips (zero-padded at the edges), and the
 * micro-kernel multiplies a strip pair into an MR x NR block that is then
 * added into C. Each element of C is a sum over K slices of a sequential
 * fused-multiply-add sum within the slice.
 */
#define GEMM_CAT2(a, b) a##_##b
#define GEMM_CAT(a, b) GEMM_CAT2(a, b)
#define G(name) GEMM_CAT(name, SFX)

#define MR 6
#define MC 96
#define NC 256
#define KC (1024 / (int64_t)sizeof(T))

/* Every thread's packing buffer has the same size, PACK_BYTES (rt.c), so
   that pack_buffer never moves the one whose op(B) block tasks read. */
_Static_assert(MC * KC * sizeof(T) + KC * NC * sizeof(T) <= PACK_BYTES, "packing buffer too small");

typedef struct G(gemm_ctx) {
  int32_t ta, tb;
  int64_t M, N, K;
  T alpha, beta;
  const T* A;
  int64_t lda;
  const T* B;
  int64_t ldb;
  T* C;
  int64_t ldc;
  int64_t mt; /* tiles along M */
} G(gemm_ctx);

static void G(pack_a)(const G(gemm_ctx) * g, int64_t ic, int64_t mc, int64_t pc, int64_t kc, T* restrict pa) {
  for (int64_t ir = 0; ir < mc; ir += MR) {
    int64_t mr = mc - ir < MR ? mc - ir : MR;
    T* dst = pa + ir * kc;
    for (int64_t i = 0; i < MR; i++) {
      if (i >= mr) {
        for (int64_t k = 0; k < kc; k++) dst[k * MR + i] = 0;
        continue;
      }
      int64_t row = ic + ir + i;
      if (g->ta) {
        const T* src = g->A + pc * g->lda + row;
        for (int64_t k = 0; k < kc; k++) dst[k * MR + i] = src[k * g->lda];
      } else {
        const T* src = g->A + row * g->lda + pc;
        for (int64_t k = 0; k < kc; k++) dst[k * MR + i] = src[k];
      }
    }
  }
}

static void G(pack_b)(const G(gemm_ctx) * g, int64_t pc, int64_t kc, int64_t jc, int64_t nc, T* restrict pb) {
  for (int64_t jr = 0; jr < nc; jr += NR) {
    int64_t nr = nc - jr < NR ? nc - jr : NR;
    T* dst = pb + jr * kc;
    if (!g->tb) {
      for (int64_t k = 0; k < kc; k++) {
        const T* src = g->B + (pc + k) * g->ldb + jc + jr;
        T* d = dst + k * NR;
        int64_t j = 0;
        for (; j < nr; j++) d[j] = src[j];
        for (; j < NR; j++) d[j] = 0;
      }
    } else {
      for (int64_t j = 0; j < NR; j++) {
        if (j >= nr) {
          for (int64_t k = 0; k < kc; k++) dst[k * NR + j] = 0;
          continue;
        }
        const T* src = g->B + (jc + jr + j) * g->ldb + pc;
        for (int64_t k = 0; k < kc; k++) dst[k * NR + j] = src[k];
      }
    }
  }
}

static void G(ukr_generic)(int64_t kc, const T* restrict a, const T* restrict b, T* restrict ab) {
  T acc[MR * NR];
  memset(acc, 0, sizeof(acc));
  for (int64_t k = 0; k < kc; k++)
    for (int i = 0; i < MR; i++) {
      T x = a[k * MR + i];
      for (int j = 0; j < NR; j++) acc[i * NR + j] += x * b[k * NR + j];
    }
  memcpy(ab, acc, sizeof(acc));
}

static void G(update)(T* c, int64_t ldc, int64_t mr, int64_t nr, const T* ab, T alpha, T beta, bool first) {
  for (int64_t i = 0; i < mr; i++) {
    T* row = c + i * ldc;
    const T* x = ab + i * NR;
    if (!first)
      for (int64_t j = 0; j < nr; j++) row[j] += alpha * x[j];
    else if (beta == 0)
      for (int64_t j = 0; j < nr; j++) row[j] = alpha * x[j];
    else
      for (int64_t j = 0; j < nr; j++) row[j] = alpha * x[j] + beta * row[j];
  }
}

/* The unpacked product of one tile over the K slice [pc, pc+kc), for
   when no packing buffer can be had (out of memory). */
static void G(tile_naive)(const G(gemm_ctx) * g, int64_t ic, int64_t mc, int64_t jc, int64_t nc, int64_t pc,
                          int64_t kc) {
  for (int64_t i = ic; i < ic + mc; i++)
    for (int64_t j = jc; j < jc + nc; j++) {
      T s = 0;
      for (int64_t k = pc; k < pc + kc; k++) {
        T a = g->ta ? g->A[k * g->lda + i] : g->A[i * g->lda + k];
        T b = g->tb ? g->B[j * g->ldb + k] : g->B[k * g->ldb + j];
        s += a * b;
      }
      T* c = &g->C[i * g->ldc + j];
      if (pc > 0)
        *c += g->alpha * s;
      else
        *c = g->beta == 0 ? g->alpha * s : g->alpha * s + g->beta * *c;
    }
}

/* One step of the product: the K slice [pc, pc+kc) of the N block [jc,
   jc+nc), whose op(B) is packed in pb. Tasks cut it along M (tiles of MC
   rows) and, when there are few tiles, along N (ranges of NR strips). */
typedef struct G(gemm_step) {
  const G(gemm_ctx) * g;
  const T* pb;
  int64_t pc, kc, jc, nc;
  int64_t nsplit; /* N ranges per M tile */
} G(gemm_step);

static void G(gemm_tasks)(void* arg, int64_t begin, int64_t end) {
  const G(gemm_step)* st = arg;
  const G(gemm_ctx)* g = st->g;
  T* pa = pack_buffer(PACK_BYTES);
  T ab[MR * NR] __attribute__((aligned(64)));
  void (*ukr)(int64_t, const T*, const T*, T*) = G(ukr_generic);
#ifdef STELA_X86
  if (blas.avx2) ukr = UKR_AVX2;
#endif
  int64_t strips = (st->nc + NR - 1) / NR;
  for (int64_t t = begin; t < end; t++) {
    int64_t ic = (t / st->nsplit) * MC, part = t % st->nsplit;
    int64_t mc = g->M - ic < MC ? g->M - ic : MC;
    int64_t s0 = strips * part / st->nsplit, s1 = strips * (part + 1) / st->nsplit;
    if (pa == NULL) { /* out of memory: no packing */
      int64_t j0 = s0 * NR, j1 = s1 * NR < st->nc ? s1 * NR : st->nc;
      G(tile_naive)(g, ic, mc, st->jc + j0, j1 - j0, st->pc, st->kc);
      continue;
    }
    G(pack_a)(g, ic, mc, st->pc, st->kc, pa);
    for (int64_t jr = s0 * NR; jr < s1 * NR && jr < st->nc; jr += NR) {
      int64_t nr = st->nc - jr < NR ? st->nc - jr : NR;
      for (int64_t ir = 0; ir < mc; ir += MR) {
        int64_t mr = mc - ir < MR ? mc - ir : MR;
        ukr(st->kc, pa + ir * st->kc, st->pb + jr * st->kc, ab);
        G(update)(g->C + (ic + ir) * g->ldc + st->jc + jr, g->ldc, mr, nr, ab, g->alpha, g->beta, st->pc == 0);
      }
    }
  }
}

static void G(gemm)(int32_t ta, int32_t tb, int64_t M, int64_t N, int64_t K, T alpha, const T* A, int64_t lda,
                    const T* B, int64_t ldb, T beta, T* C, int64_t ldc) {
  if (M <= 0 || N <= 0) return;
  if (K <= 0) {
    for (int64_t i = 0; i < M; i++)
      for (int64_t j = 0; j < N; j++) C[i * ldc + j] = beta == 0 ? 0 : beta * C[i * ldc + j];
    return;
  }
  G(gemm_ctx) g = {.ta = ta != 0, .tb = tb != 0, .M = M, .N = N, .K = K, .alpha = alpha, .beta = beta, .A = A,
                   .lda = lda, .B = B, .ldb = ldb, .C = C, .ldc = ldc, .mt = (M + MC - 1) / MC};
  /* Below about a million multiply-adds, threads cost more than they save. */
  bool par = (double)M * (double)N * (double)K >= 1e6;
  /* This thread's buffer holds op(B)'s packed block, which every task of
     a step reads; each task packs its op(A) tile into its own thread's. */
  T* buf = pack_buffer(PACK_BYTES);
  if (buf == NULL) { /* out of memory: unpacked, serial */
    for (int64_t jc = 0; jc < N; jc += NC)
      for (int64_t ic = 0; ic < M; ic += MC)
        G(tile_naive)(&g, ic, M - ic < MC ? M - ic : MC, jc, N - jc < NC ? N - jc : NC, 0, K);
    return;
  }
  T* pb = buf + MC * KC;
  for (int64_t jc = 0; jc < N; jc += NC) {
    int64_t nc = N - jc < NC ? N - jc : NC;
    for (int64_t pc = 0; pc < K; pc += KC) {
      int64_t kc = K - pc < KC ? K - pc : KC;
      G(gemm_step) st = {.g = &g, .pb = pb, .pc = pc, .kc = kc, .jc = jc, .nc = nc, .nsplit = 1};
      if (par && g.mt < 4) {
        int64_t strips = (nc + NR - 1) / NR;
        st.nsplit = strips < 4 ? strips : 4;
      }
      G(pack_b)(&g, pc, kc, jc, nc, pb);
      int64_t tasks = g.mt * st.nsplit;
      if (!par || tasks == 1)
        G(gemm_tasks)(&st, 0, tasks);
      else
        parallel_for(&st, G(gemm_tasks), tasks, 1);
    }
  }
}

#undef MR
#undef MC
#undef NC
#undef KC
#undef G
#undef GEMM_CAT
#undef GEMM_CAT2
