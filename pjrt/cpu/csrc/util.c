/*
 * util.c: strings and SHA-256 (FIPS 180-4), the hash of the compile cache
 * key. Written here so that the plugin needs nothing beyond libc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

char* stela_strndup(const char* s, size_t n) {
  char* d = malloc(n + 1);
  if (d == NULL) return NULL;
  if (n > 0) memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

char* stela_strdup(const char* s) { return stela_strndup(s, strlen(s)); }

char* stela_asprintf(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return NULL;
  char* s = malloc((size_t)n + 1);
  if (s == NULL) return NULL;
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

/* Names in PJRT come as (pointer, size) and need not be NUL-terminated. */
bool stela_name_is(const char* name, size_t name_size, const char* want) {
  size_t n = strlen(want);
  return name != NULL && name_size == n && memcmp(name, want, n) == 0;
}

/* ---- Sizes ---- */

bool stela_parse_size(const char* s, int64_t* out) {
  const char* p = s;
  int64_t v = 0;
  bool ok = p != NULL && *p >= '0' && *p <= '9';
  while (ok && *p >= '0' && *p <= '9') {
    int d = *p++ - '0';
    if (v > (INT64_MAX - d) / 10) ok = false;
    else v = v * 10 + d;
  }
  int shift = 0;
  if (ok && *p != '\0') {
    static const char units[] = "KMGT";
    char u = *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
    const char* k = u != '\0' ? strchr(units, u) : NULL;
    if (k == NULL) ok = false;
    else shift = 10 * (int)(k - units + 1), p++;
    if (ok && (*p == 'i' || *p == 'I')) p++;
    if (ok && (*p == 'b' || *p == 'B')) p++;
    if (ok && *p != '\0') ok = false;
  }
  if (ok && shift > 0 && v > (INT64_MAX >> shift)) ok = false;
  if (ok) *out = v << shift;
  return ok;
}

void stela_format_size(char* buf, size_t n, int64_t b) {
  static const char* const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = (double)b;
  int u = 0;
  while (v >= 1024 && u < 6) {
    v /= 1024;
    u++;
  }
  if (u == 0)
    snprintf(buf, n, "%lld bytes", (long long)b);
  else if (v == (double)(long long)v)
    snprintf(buf, n, "%lld %s", (long long)v, units[u]);
  else
    snprintf(buf, n, "%.1f %s", v, units[u]);
}

/* ---- SHA-256 ---- */

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_block(stela_sha256* s, const unsigned char* p) {
  uint32_t w[64];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
  for (int i = 16; i < 64; i++) {
    uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
  uint32_t e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
  for (int i = 0; i < 64; i++) {
    uint32_t t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
    uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  s->h[0] += a;
  s->h[1] += b;
  s->h[2] += c;
  s->h[3] += d;
  s->h[4] += e;
  s->h[5] += f;
  s->h[6] += g;
  s->h[7] += h;
}

void stela_sha256_init(stela_sha256* s) {
  static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  memcpy(s->h, h0, sizeof(h0));
  s->len = 0;
  s->nbuf = 0;
}

void stela_sha256_update(stela_sha256* s, const void* data, size_t n) {
  const unsigned char* p = data;
  s->len += n;
  while (n > 0) {
    if (s->nbuf == 0 && n >= 64) {
      sha256_block(s, p);
      p += 64;
      n -= 64;
      continue;
    }
    size_t k = 64 - s->nbuf;
    if (k > n) k = n;
    memcpy(s->buf + s->nbuf, p, k);
    s->nbuf += k;
    p += k;
    n -= k;
    if (s->nbuf == 64) {
      sha256_block(s, s->buf);
      s->nbuf = 0;
    }
  }
}

void stela_sha256_hex(stela_sha256* s, char out[65]) {
  uint64_t bits = s->len * 8;
  unsigned char pad[72] = {0x80};
  size_t padlen = (s->nbuf < 56) ? 56 - s->nbuf : 120 - s->nbuf;
  for (int i = 0; i < 8; i++) pad[padlen + i] = (unsigned char)(bits >> (56 - 8 * i));
  stela_sha256_update(s, pad, padlen + 8);
  static const char hex[] = "0123456789abcdef";
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 4; j++) {
      unsigned char byte = (unsigned char)(s->h[i] >> (24 - 8 * j));
      out[8 * i + 2 * j] = hex[byte >> 4];
      out[8 * i + 2 * j + 1] = hex[byte & 15];
    }
  out[64] = '\0';
}
