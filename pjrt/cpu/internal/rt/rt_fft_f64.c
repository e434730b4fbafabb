/*
 * rt_fft_f64.c: the runtime's FFT in double (rt_fft_impl.h with T = double).
 * Floating-point contraction is off: pocketfft has no fused multiply-adds
 * (but those it asks for by name), and results are to match NumPy's bit
 * for bit.
 */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#define T double
#define FFT_NAME stela_fft_f64
#include "rt_fft_impl.h"
