// Package jax is the JAX differential suite: the small JAX programs of
// cases.py (elementwise ops over every dtype, reductions, indexing and
// .at[] updates, lax control flow, grad/vmap/jvp of small models,
// jax.random, convolutions, sorting) run with JAX on Stela's CPU plugin
// (JAX_PLATFORMS=stela, through python/jax_plugins/stela) and on XLA's
// CPU backend, outputs compared exactly or within each case's stated ULP
// bound (jax_test.go). docs/jax.md has the results and the known
// failures. STELA_JAX_CASES=REGEX runs the matching cases only.
// models.py (TestJAXModels) is the MLP training loop and a small GPT-2
// with KV-cache generation, losses and tokens compared the same way;
// api.py (TestJAXAPI) JAX's runtime API on the plugin; bench.py the
// W1-W6 benchmarks (not a test).
package jax
