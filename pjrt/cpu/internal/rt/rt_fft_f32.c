/*
 * rt_fft_f32.c: the runtime's FFT in float (rt_fft_impl.h with T = float).
 * Floating-point contraction is off: pocketfft has no fused multiply-adds
 * (but those it asks for by name), and results are to match NumPy's bit
 * for bit.
 */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#define T float
#define FFT_NAME stela_fft_f32
#include "rt_fft_impl.h"
