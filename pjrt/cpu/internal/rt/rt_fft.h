/*
 * rt_fft.h: the runtime's FFT (ABI version 7, stela_rt.fft): pocketfft's
 * transforms (rt_fft_impl.h) along the trailing dimensions of an array.
 */
#ifndef STELA_RT_FFT_H_
#define STELA_RT_FFT_H_

#include <stdint.h>

#include "stela_rt.h"

/* stablehlo.fft's fft_type, as stela_rt.fft takes it. */
enum { STELA_FFT_FFT = 0, STELA_FFT_IFFT = 1, STELA_FFT_RFFT = 2, STELA_FFT_IRFFT = 3 };

/* stela_rt.fft (see stela_rt.h). */
int32_t stela_rt_fft(const stela_rt* rt, int32_t type, int32_t f64, int64_t batch, int64_t rank, int64_t n0,
                     int64_t n1, int64_t n2, const void* in, void* out, char err[256]);

/* The drivers of rt_fft_f64.c and rt_fft_f32.c: 0, or -1 when out of
   memory. lens are the rank fft lengths. */
int stela_fft_f64(const stela_rt* rt, int32_t type, int64_t batch, int64_t rank, const int64_t* lens, const void* in,
                  void* out);
int stela_fft_f32(const stela_rt* rt, int32_t type, int64_t batch, int64_t rank, const int64_t* lens, const void* in,
                  void* out);

#endif /* STELA_RT_FFT_H_ */
