/*
 * rt_attn_kernel.h: the attention kernel of rt_attn.h for one instruction
 * set, included once per set with ATT_VL (floats per vector), ATT_SFX
 * (name suffix) and ATT_TARGET (function attributes) defined. The loops
 * use GCC's vector extensions, so that one source gives AVX-512, AVX2 and
 * SSE code; multiply-adds are contracted into FMAs where the set has
 * them (the rest of the runtime is compiled -std=c11, where GCC does not
 * contract).
 */

#define ATT_CAT2(a, b) a##_##b
#define ATT_CAT(a, b) ATT_CAT2(a, b)
#define AF(name) ATT_CAT(name, ATT_SFX)

#if defined(__GNUC__) && !defined(__clang__)
#define ATT_FN ATT_TARGET __attribute__((optimize("fp-contract=fast"))) static
#else
#define ATT_FN ATT_TARGET static
#endif

typedef float AF(vf) __attribute__((vector_size(ATT_VL * 4), aligned(4), may_alias));
typedef int32_t AF(vi) __attribute__((vector_size(ATT_VL * 4), aligned(4), may_alias));

/* The sum of v's lanes, by halves (log2(VL) shuffles and adds). */
#if defined(__clang__)
#define ATT_SHUF(v, ...) __builtin_shufflevector(v, v, __VA_ARGS__)
#else
#define ATT_SHUF(v, ...) __builtin_shuffle(v, (AF(vi)){__VA_ARGS__})
#endif
ATT_FN float AF(att_hsum)(AF(vf) v) {
#if ATT_VL == 16
  v += ATT_SHUF(v, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
  v += ATT_SHUF(v, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11);
  v += ATT_SHUF(v, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
  v += ATT_SHUF(v, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
#elif ATT_VL == 8
  v += ATT_SHUF(v, 4, 5, 6, 7, 0, 1, 2, 3);
  v += ATT_SHUF(v, 2, 3, 0, 1, 6, 7, 4, 5);
  v += ATT_SHUF(v, 1, 0, 3, 2, 5, 4, 7, 6);
#elif ATT_VL == 4
  v += ATT_SHUF(v, 2, 3, 0, 1);
  v += ATT_SHUF(v, 1, 0, 3, 2);
#else
#error "ATT_VL must be 4, 8 or 16"
#endif
  return v[0];
}
#undef ATT_SHUF

/* Σ a[i]·b[i]. */
ATT_FN float AF(att_dot)(const float* a, const float* b, int64_t n) {
  AF(vf) s0 = {0}, s1 = {0};
  int64_t i = 0;
  for (; i + 2 * ATT_VL <= n; i += 2 * ATT_VL) {
    s0 += *(const AF(vf)*)(a + i) * *(const AF(vf)*)(b + i);
    s1 += *(const AF(vf)*)(a + i + ATT_VL) * *(const AF(vf)*)(b + i + ATT_VL);
  }
  for (; i + ATT_VL <= n; i += ATT_VL) s0 += *(const AF(vf)*)(a + i) * *(const AF(vf)*)(b + i);
  float s = AF(att_hsum)(s0 + s1);
  for (; i < n; i++) s += a[i] * b[i];
  return s;
}

/* y += a·x. */
ATT_FN void AF(att_axpy)(float* restrict y, float a, const float* restrict x, int64_t n) {
  int64_t i = 0;
  for (; i + ATT_VL <= n; i += ATT_VL) *(AF(vf)*)(y + i) += a * *(const AF(vf)*)(x + i);
  for (; i < n; i++) y[i] += a * x[i];
}

/* y *= a. */
ATT_FN void AF(att_scale)(float* y, float a, int64_t n) {
  int64_t i = 0;
  for (; i + ATT_VL <= n; i += ATT_VL) *(AF(vf)*)(y + i) *= a;
  for (; i < n; i++) y[i] *= a;
}

/* exp(x) for x <= 0 (Cephes' expf: x = n·ln2 + r, |r| <= ln2/2, a
   degree-6 polynomial in r, times 2^n; about 1 ulp); 0 below -87.3
   (where the result would be subnormal) and at -inf. */
ATT_FN AF(vf) AF(att_vexp)(AF(vf) x) {
  AF(vi) under = x < -87.3f;
  AF(vf) lo = {0};
  lo -= 87.3f; /* a splat */
  x = (AF(vf))(((AF(vi))x & ~under) | ((AF(vi))lo & under));
  AF(vf) t = x * 1.44269504088896341f + 12582912.0f; /* round to nearest */
  AF(vf) n = t - 12582912.0f;
  AF(vf) r = x - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  AF(vf) y = r * 1.9875691500e-4f + 1.3981999507e-3f;
  y = y * r + 8.3334519073e-3f;
  y = y * r + 4.1665795894e-2f;
  y = y * r + 1.6666665459e-1f;
  y = y * r + 5.0000001201e-1f;
  y = y * (r * r) + r + 1.0f;
  AF(vi) e = (__builtin_convertvector(n, AF(vi)) + 127) << 23;
  y = y * (AF(vf))e;
  return (AF(vf))((AF(vi))y & ~under);
}

/* s[i] = exp(s[i] - m); returns Σ s[i]. */
ATT_FN float AF(att_expsum)(float* s, float m, int64_t n) {
  AF(vf) acc = {0};
  int64_t i = 0;
  for (; i + ATT_VL <= n; i += ATT_VL) {
    AF(vf) p = AF(att_vexp)(*(AF(vf)*)(s + i) - m);
    *(AF(vf)*)(s + i) = p;
    acc += p;
  }
  float sum = 0;
  for (int k = 0; k < ATT_VL; k++) sum += acc[k];
  if (i < n) {
    AF(vf) x = {0};
    for (int64_t k = i; k < n; k++) x[k - i] = s[k] - m;
    AF(vf) p = AF(att_vexp)(x);
    for (int64_t k = i; k < n; k++) {
      s[k] = p[k - i];
      sum += p[k - i];
    }
  }
  return sum;
}

/* s[0 .. ATT_LB) = Σ_d q[d]·kt[d·ldk + 0 .. ATT_LB): a full key block of
   scores from keys laid out [D, L], 4 vectors of accumulators at a time
   in registers. */
ATT_FN void AF(att_scores_full)(float* s, const float* q, const float* kt, int64_t ldk, int64_t D) {
  for (int c = 0; c < ATT_LB; c += 4 * ATT_VL) {
    AF(vf) a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0};
    for (int64_t d = 0; d < D; d++) {
      float qd = q[d];
      const float* kr = kt + d * ldk + c;
      a0 += qd * *(const AF(vf)*)(kr);
      a1 += qd * *(const AF(vf)*)(kr + ATT_VL);
      a2 += qd * *(const AF(vf)*)(kr + 2 * ATT_VL);
      a3 += qd * *(const AF(vf)*)(kr + 3 * ATT_VL);
    }
    *(AF(vf)*)(s + c) = a0;
    *(AF(vf)*)(s + c + ATT_VL) = a1;
    *(AF(vf)*)(s + c + 2 * ATT_VL) = a2;
    *(AF(vf)*)(s + c + 3 * ATT_VL) = a3;
  }
}

/* The largest of s[0 .. n) (NaN-free), and whether one is NaN. */
ATT_FN float AF(att_max)(const float* s, int64_t n, int* nan) {
  AF(vf) vm = {0};
  vm -= __builtin_inff();
  AF(vi) vn = {0};
  int64_t i = 0;
  for (; i + ATT_VL <= n; i += ATT_VL) {
    AF(vf) x = *(const AF(vf)*)(s + i);
    vn |= x != x;
    AF(vi) gt = x > vm;
    vm = (AF(vf))(((AF(vi))x & gt) | ((AF(vi))vm & ~gt));
  }
  float bm = -__builtin_inff();
  int any = 0;
  for (int k = 0; k < ATT_VL; k++) {
    bm = vm[k] > bm ? vm[k] : bm;
    any |= vn[k] != 0;
  }
  for (; i < n; i++) {
    float x = s[i];
    any |= x != x;
    bm = x > bm ? x : bm;
  }
  *nan = any;
  return bm;
}

/* acc[0 .. Dv) += Σ_k p[k]·v[k·ldv + 0 .. Dv), k < lb: columns in groups of
   4 vectors kept in registers over the keys. */
ATT_FN void AF(att_pv)(float* restrict acc, const float* p, const float* restrict v, int64_t ldv, int64_t lb,
                       int64_t Dv) {
  int64_t c = 0;
  for (; c + 4 * ATT_VL <= Dv; c += 4 * ATT_VL) {
    AF(vf) a0 = *(AF(vf)*)(acc + c), a1 = *(AF(vf)*)(acc + c + ATT_VL);
    AF(vf) a2 = *(AF(vf)*)(acc + c + 2 * ATT_VL), a3 = *(AF(vf)*)(acc + c + 3 * ATT_VL);
    for (int64_t k = 0; k < lb; k++) {
      float pk = p[k];
      const float* vr = v + k * ldv + c;
      a0 += pk * *(const AF(vf)*)(vr);
      a1 += pk * *(const AF(vf)*)(vr + ATT_VL);
      a2 += pk * *(const AF(vf)*)(vr + 2 * ATT_VL);
      a3 += pk * *(const AF(vf)*)(vr + 3 * ATT_VL);
    }
    *(AF(vf)*)(acc + c) = a0;
    *(AF(vf)*)(acc + c + ATT_VL) = a1;
    *(AF(vf)*)(acc + c + 2 * ATT_VL) = a2;
    *(AF(vf)*)(acc + c + 3 * ATT_VL) = a3;
  }
  for (; c + ATT_VL <= Dv; c += ATT_VL) {
    AF(vf) a0 = *(AF(vf)*)(acc + c);
    for (int64_t k = 0; k < lb; k++) a0 += p[k] * *(const AF(vf)*)(v + k * ldv + c);
    *(AF(vf)*)(acc + c) = a0;
  }
  for (; c < Dv; c++) {
    float a0 = acc[c];
    for (int64_t k = 0; k < lb; k++) a0 += p[k] * v[k * ldv + c];
    acc[c] = a0;
  }
}

/* att_scores_full for two rows at once: 8 accumulators, each load of
   the keys used twice. */
ATT_FN void AF(att_scores_full2)(float* s0, float* s1, const float* q0, const float* q1, const float* kt,
                                 int64_t ldk, int64_t D) {
  for (int c = 0; c < ATT_LB; c += 4 * ATT_VL) {
    AF(vf) a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0}, b0 = {0}, b1 = {0}, b2 = {0}, b3 = {0};
    for (int64_t d = 0; d < D; d++) {
      float x = q0[d], y = q1[d];
      const float* kr = kt + d * ldk + c;
      AF(vf) k0 = *(const AF(vf)*)(kr), k1 = *(const AF(vf)*)(kr + ATT_VL);
      AF(vf) k2 = *(const AF(vf)*)(kr + 2 * ATT_VL), k3 = *(const AF(vf)*)(kr + 3 * ATT_VL);
      a0 += x * k0;
      a1 += x * k1;
      a2 += x * k2;
      a3 += x * k3;
      b0 += y * k0;
      b1 += y * k1;
      b2 += y * k2;
      b3 += y * k3;
    }
    *(AF(vf)*)(s0 + c) = a0;
    *(AF(vf)*)(s0 + c + ATT_VL) = a1;
    *(AF(vf)*)(s0 + c + 2 * ATT_VL) = a2;
    *(AF(vf)*)(s0 + c + 3 * ATT_VL) = a3;
    *(AF(vf)*)(s1 + c) = b0;
    *(AF(vf)*)(s1 + c + ATT_VL) = b1;
    *(AF(vf)*)(s1 + c + 2 * ATT_VL) = b2;
    *(AF(vf)*)(s1 + c + 3 * ATT_VL) = b3;
  }
}

/* att_pv for two rows at once over the same values: columns in groups of
   2 vectors, 4 accumulators; then att_pv for the rest. */
ATT_FN void AF(att_pv2)(float* restrict acc0, float* restrict acc1, const float* p0, const float* p1,
                        const float* restrict v, int64_t ldv, int64_t lb, int64_t Dv) {
  int64_t c = 0;
  for (; c + 2 * ATT_VL <= Dv; c += 2 * ATT_VL) {
    AF(vf) a0 = *(AF(vf)*)(acc0 + c), a1 = *(AF(vf)*)(acc0 + c + ATT_VL);
    AF(vf) b0 = *(AF(vf)*)(acc1 + c), b1 = *(AF(vf)*)(acc1 + c + ATT_VL);
    for (int64_t k = 0; k < lb; k++) {
      const float* vr = v + k * ldv + c;
      AF(vf) v0 = *(const AF(vf)*)(vr), v1 = *(const AF(vf)*)(vr + ATT_VL);
      float x = p0[k], y = p1[k];
      a0 += x * v0;
      a1 += x * v1;
      b0 += y * v0;
      b1 += y * v1;
    }
    *(AF(vf)*)(acc0 + c) = a0;
    *(AF(vf)*)(acc0 + c + ATT_VL) = a1;
    *(AF(vf)*)(acc1 + c) = b0;
    *(AF(vf)*)(acc1 + c + ATT_VL) = b1;
  }
  if (c < Dv) {
    AF(att_pv)(acc0 + c, p0, v + c, ldv, lb, Dv - c);
    AF(att_pv)(acc1 + c, p1, v + c, ldv, lb, Dv - c);
  }
}

/* Whether mask rows i0 .. i0+R-1 are 0 at keys jb .. jb+lb-1. */
ATT_FN int AF(att_masked)(const uint8_t* mk, int64_t L, int64_t i0, int64_t R, int64_t jb, int64_t lb) {
  for (int64_t r = 0; r < R; r++) {
    const uint8_t* mr = mk + (i0 + r) * L + jb;
    for (int64_t k = 0; k < lb; k++)
      if (mr[k]) return 0;
  }
  return 1;
}

/* One key block of rows i0 .. i0+R-1 of product g: the scores (all fill
   when forced), then the online softmax update and the value product. */
ATT_FN void AF(att_block)(const attn_job* j, const float* K, const float* V, const uint8_t* mk, int64_t i0, int64_t R,
                          int64_t jb, int64_t lb, int forced, float* S, const float* Qs, float* acc, float* m,
                          float* l, uint8_t* bad, float* Ktbuf) {
  const int64_t D = j->D, Dv = j->Dv, L = j->L;
  /* Keys laid out [L, D] (k·qᵀ's usual layout) are transposed once per
     block into [D, ATT_LB] when several rows share them. */
  float* Kt = NULL;
  if (!forced && j->tk && R >= 4 && lb == ATT_LB && Ktbuf != NULL) {
    Kt = Ktbuf;
    for (int64_t k = 0; k < ATT_LB; k++) {
      const float* kr = K + (jb + k) * j->ldk;
      for (int64_t d = 0; d < D; d++) Kt[d * ATT_LB + k] = kr[d];
    }
  }
  /* The keys as [D, ATT_LB] rows (ldkt apart), when the block is full. */
  const float* kt = NULL;
  int64_t ldkt = 0;
  if (!forced && lb == ATT_LB) {
    if (Kt != NULL) {
      kt = Kt;
      ldkt = ATT_LB;
    } else if (!j->tk) {
      kt = K + jb;
      ldkt = j->ldk;
    }
  }
  for (int64_t r = 0; r < R; r++) {
    float* s = S + r * ATT_LB;
    if (forced) {
      for (int64_t k = 0; k < lb; k++) s[k] = j->fill;
      continue;
    }
    const float* q = Qs + r * D;
    if (kt != NULL && (r & 1) == 0 && r + 1 < R) {
      AF(att_scores_full2)(s, s + ATT_LB, q, q + D, kt, ldkt, D); /* rows r and r+1 */
    } else if (kt != NULL && (r & 1) == 0) {
      AF(att_scores_full)(s, q, kt, ldkt, D); /* the last row, R odd */
    } else if (kt != NULL) {
      /* row r was computed with row r-1 */
    } else if (j->tk) {
      for (int64_t k = 0; k < lb; k++) s[k] = AF(att_dot)(q, K + (jb + k) * j->ldk, D);
    } else {
      for (int64_t k = 0; k < lb; k++) s[k] = 0;
      for (int64_t d = 0; d < D; d++) AF(att_axpy)(s, q[d], K + d * j->ldk + jb, lb);
    }
    AF(att_scale)(s, j->scale, lb);
    if (mk != NULL) {
      const uint8_t* mr = mk + (i0 + r) * L + jb;
      for (int64_t k = 0; k < lb; k++)
        if (!mr[k]) s[k] = j->fill;
    }
  }
  /* The softmax update of each row; then the value products, two rows
     at a time where both take part. */
  uint8_t pv[ATT_MB];
  for (int64_t r = 0; r < R; r++) {
    pv[r] = 0;
    if (bad[r]) continue;
    float* s = S + r * ATT_LB;
    int nan;
    float bm = AF(att_max)(s, lb, &nan);
    float mn = m[r] > bm ? m[r] : bm;
    if (nan || mn == __builtin_inff()) {
      bad[r] = 1; /* the row is NaN */
      continue;
    }
    if (mn == -__builtin_inff()) continue; /* every x so far is -inf: nothing to add */
    float corr = 0;
    if (m[r] != -__builtin_inff()) {
      AF(vf) d = {0};
      d[0] = m[r] - mn;
      corr = AF(att_vexp)(d)[0];
    }
    float sum = AF(att_expsum)(s, mn, lb);
    l[r] = l[r] * corr + sum;
    float* a = acc + r * Dv;
    if (corr != 1.0f) AF(att_scale)(a, corr, Dv);
    m[r] = mn;
    pv[r] = 1;
  }
  for (int64_t r = 0; r < R; r++) {
    if (!pv[r]) continue;
    float* s = S + r * ATT_LB;
    float* a = acc + r * Dv;
    if (!j->tv && r + 1 < R && pv[r + 1]) {
      AF(att_pv2)(a, a + Dv, s, s + ATT_LB, V + jb * j->ldv, j->ldv, lb, Dv);
      r++;
    } else if (!j->tv) {
      AF(att_pv)(a, s, V + jb * j->ldv, j->ldv, lb, Dv);
    } else {
      for (int64_t c = 0; c < Dv; c++) a[c] += AF(att_dot)(s, V + c * j->ldv + jb, lb);
    }
  }
}

/* Rows i0 .. i0+R-1 of product g, into O. */
ATT_FN void AF(att_rows)(const attn_job* j, int64_t g, int64_t i0, int64_t R, float* S, float* Qs, float* acc,
                         float* m, float* l, uint8_t* bad, float* Ktbuf) {
  const int64_t D = j->D, Dv = j->Dv, L = j->L, M = j->M;
  const float* Q = j->Q + g * j->sq;
  const float* K = j->K + g * j->sk;
  const float* V = j->V + g * j->sv;
  const uint8_t* mk = j->mask != NULL ? j->mask + (g / j->mask_div) * M * L : NULL;
  for (int64_t r = 0; r < R; r++) {
    for (int64_t d = 0; d < D; d++) Qs[r * D + d] = j->tq ? Q[d * j->ldq + i0 + r] : Q[(i0 + r) * j->ldq + d];
    m[r] = -__builtin_inff();
    l[r] = 0;
    bad[r] = 0;
    for (int64_t c = 0; c < Dv; c++) acc[r * Dv + c] = 0;
  }
  int skipped = 0;
  for (int64_t jb = 0; jb < L; jb += ATT_LB) {
    int64_t lb = L - jb < ATT_LB ? L - jb : ATT_LB;
    if (mk != NULL && AF(att_masked)(mk, L, i0, R, jb, lb)) {
      skipped = 1;
      continue;
    }
    AF(att_block)(j, K, V, mk, i0, R, jb, lb, 0, S, Qs, acc, m, l, bad, Ktbuf);
  }
  if (skipped) {
    /* The skipped blocks are all fill: they count only for a row whose
       maximum is not well above fill (m - fill, not m >= fill + 88: with
       fill = -FLT_MAX the 88 would be lost in rounding). */
    int need = 0;
    for (int64_t r = 0; r < R; r++) need |= !bad[r] && !(m[r] - j->fill >= 88.0f);
    if (need) {
      for (int64_t jb = 0; jb < L; jb += ATT_LB) {
        int64_t lb = L - jb < ATT_LB ? L - jb : ATT_LB;
        if (AF(att_masked)(mk, L, i0, R, jb, lb)) AF(att_block)(j, K, V, mk, i0, R, jb, lb, 1, S, Qs, acc, m, l, bad, Ktbuf);
      }
    }
  }
  for (int64_t r = 0; r < R; r++) {
    float* o = j->O + (g * M + i0 + r) * Dv;
    const float* a = acc + r * Dv;
    if (L == 0) {
      for (int64_t c = 0; c < Dv; c++) o[c] = 0; /* an empty sum */
    } else if (bad[r] || !(m[r] > -__builtin_inff())) {
      for (int64_t c = 0; c < Dv; c++) o[c] = __builtin_nanf("");
    } else {
      for (int64_t c = 0; c < Dv; c++) o[c] = a[c] / l[r];
    }
  }
}

/* Tasks begin .. end-1: task t is product t / qblocks, query rows from
   (t % qblocks)·ATT_MB. */
ATT_FN void AF(attn_tasks)(attn_job* j, int64_t begin, int64_t end) {
  const int64_t D = j->D, Dv = j->Dv, M = j->M;
  int64_t R = ATT_MB;
  size_t floats = (size_t)ATT_MB * (size_t)(ATT_LB + D + Dv + 2) + (size_t)D * ATT_LB;
  float* buf = malloc(floats * sizeof(float) + ATT_MB);
  /* Without memory, one row at a time in a buffer on the stack (the code
     generator takes D and Dv up to ATT_MAX_D only). */
  float one[ATT_LB + 2 * ATT_MAX_D + 2];
  uint8_t one_bad[1];
  float *S, *Qs, *acc, *m, *l, *Ktbuf = NULL;
  uint8_t* bad;
  if (buf != NULL) {
    S = buf;
    Qs = S + ATT_MB * ATT_LB;
    acc = Qs + ATT_MB * D;
    m = acc + ATT_MB * Dv;
    l = m + ATT_MB;
    Ktbuf = l + ATT_MB;
    bad = (uint8_t*)(Ktbuf + D * ATT_LB);
  } else {
    R = 1;
    S = one;
    Qs = S + ATT_LB;
    acc = Qs + D;
    m = acc + Dv;
    l = m + 1;
    bad = one_bad;
  }
  for (int64_t t = begin; t < end; t++) {
    int64_t g = t / j->qblocks, i0 = (t % j->qblocks) * ATT_MB;
    int64_t rows = M - i0 < ATT_MB ? M - i0 : ATT_MB;
    for (int64_t i = i0; i < i0 + rows; i += R) {
      int64_t r = i0 + rows - i < R ? i0 + rows - i : R;
      AF(att_rows)(j, g, i, r, S, Qs, acc, m, l, bad, Ktbuf);
    }
  }
  free(buf);
}

#undef ATT_FN
#undef AF
#undef ATT_CAT
#undef ATT_CAT2
