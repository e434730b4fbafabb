/*
 * rt_fft.c: stela_rt.fft (ABI version 7), the FFT that compiled programs
 * call for stablehlo.fft: checks its arguments and runs the double
 * (rt_fft_f64.c) or float (rt_fft_f32.c) transforms.
 */
#include "rt_fft.h"

#include <inttypes.h>
#include <stdio.h>

static const char* fft_type_name(int32_t type) {
  switch (type) {
  case STELA_FFT_FFT:
    return "FFT";
  case STELA_FFT_IFFT:
    return "IFFT";
  case STELA_FFT_RFFT:
    return "RFFT";
  case STELA_FFT_IRFFT:
    return "IRFFT";
  }
  return "?";
}

int32_t stela_rt_fft(const stela_rt* rt, int32_t type, int32_t f64, int64_t batch, int64_t rank, int64_t n0,
                     int64_t n1, int64_t n2, const void* in, void* out, char err[256]) {
  int64_t lens[3] = {n0, n1, n2};
  if (type < STELA_FFT_FFT || type > STELA_FFT_IRFFT) {
    snprintf(err, 256, "stablehlo.fft: fft_type %d is not FFT, IFFT, RFFT or IRFFT", (int)type);
    return 1;
  }
  if (rank < 1 || rank > 3 || batch < 0) {
    snprintf(err, 256, "stablehlo.fft %s: %" PRId64 " fft lengths (want 1 to 3), batch %" PRId64, fft_type_name(type),
             rank, batch);
    return 1;
  }
  for (int64_t i = 0; i < rank; i++)
    if (lens[i] < 1) {
      snprintf(err, 256, "stablehlo.fft %s: fft length %" PRId64 " (want at least 1)", fft_type_name(type), lens[i]);
      return 1;
    }
  int rc = f64 ? stela_fft_f64(rt, type, batch, rank, lens, in, out) : stela_fft_f32(rt, type, batch, rank, lens, in, out);
  if (rc != 0) {
    snprintf(err, 256, "stablehlo.fft %s of length %" PRId64 ": out of memory", fft_type_name(type), lens[rank - 1]);
    return 1;
  }
  return 0;
}
