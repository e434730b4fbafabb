"""fft_gradient.py: why GoMLX's TestGradientFFT expects XLA's rounding.

GoMLX v0.28.8's core/graph TestGradientFFT takes x = sin(2*pi*n/11),
n = 0..10, as complex128, and checks the gradient of sum(|FFT(x)|) with
respect to x against fixed numbers. Nine of the eleven bins are zero but
for rounding, and the gradient of |X_k| is the direction X_k/|X_k|, so
the expected numbers are a function of the rounding errors of the FFT
that made them. This prints:

  * JAX's gradient (XLA's CPU FFT, DUCC): the test's expected numbers;
  * the gradient with NumPy's pocketfft bins: the same numbers (the same
    algorithm family, the same roundings);
  * the exact gradient at the same float64 input: the DFT of the
    rounded sin values computed with 50 significant digits (mpmath), so
    the near-zero bins are their true values, not rounding noise.

The exact gradient is not the expected one: no FFT more accurate than
DUCC's (or merely different) passes the test. Stela's CPU plugin passes
it with pocketfft's algorithm (docs/cpu-plugin.md, "FFT"): its 11 bins
here are NumPy's bit for bit.

  PYTHONPATH=$STELA_JAXLIB_PYTHONPATH python3 test/gomlx/fft_gradient.py
"""
import numpy as np
import mpmath
import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)
mpmath.mp.dps = 50
N = 11
EXPECTED = [2.241402232696969, 0.8408081271818637, 4.848838858213708, 2.7934819834338587,
            -0.5628044369683731, 0.6846870446443976, 4.140658304799644, -0.16628391231716422,
            0.3723748150049282, -7.438217966151578, 3.245054949461747]

x = np.sin(np.arange(N, dtype=np.float64) * (2 * np.pi / N))


def grad_from_bins(X):
    """d/dx_n sum_k |X_k| (real directions) for the bins X = DFT(x)."""
    g = []
    for n in range(N):
        s = mpmath.mpf(0)
        for k in range(N):
            s += mpmath.re(mpmath.conj(X[k]) / abs(X[k]) * mpmath.exp(-2j * mpmath.pi * k * n / N))
        g.append(float(s))
    return np.array(g)


jax_grad = np.asarray(jax.grad(lambda v: jnp.sum(jnp.abs(jnp.fft.fft(v))))(jnp.asarray(x, jnp.complex128)))
pocket = grad_from_bins([mpmath.mpc(complex(v)) for v in np.fft.fft(x.astype(np.complex128))])
exact_bins = [sum(mpmath.mpf(float(x[j])) * mpmath.exp(-2j * mpmath.pi * k * j / N) for j in range(N)) for k in range(N)]
exact = grad_from_bins(exact_bins)
np.set_printoptions(precision=6, suppress=True, linewidth=120)
print("expected (the test)     ", np.array(EXPECTED))
print("JAX (XLA CPU FFT)       ", jax_grad.real, " max |imag|", np.abs(jax_grad.imag).max())
print("NumPy pocketfft bins    ", pocket)
print("exact bins (mpmath)     ", exact)
print("max |JAX - expected|    ", np.abs(jax_grad.real - EXPECTED).max())
print("max |exact - expected|  ", np.abs(exact - EXPECTED).max())
