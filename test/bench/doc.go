// Package bench is the harness of `stela bench` (cmd/stela/bench.go,
// docs/performance.md): the peers' sides of the benchmarks (PyTorch's and
// NumPy's in torch_bench.py, JAX's in jax_bench.py) and the tests that keep
// the sides measuring the same thing.
//
// JAX's side (internal/torchbench/jax_bench.py, run by `stela bench
// --jax` with jax from $STELA_JAXLIB_PYTHONPATH) has its metric names in
// testdata/jax_metrics.txt; TestJAXSmall runs its GPT-2 block against
// Stela's and every workload once at tiny sizes (--small). Without jax
// those tests skip, except under CI=true, where .ci/run installs it and
// they fail.
//
// In: torch_bench.py (internal/torchbench, which the stela binary embeds),
// which runs workloads W1 to W5 in PyTorch eager mode (W4, a training
// step, also with torch.jit.trace) with a python3 that has torch
// (Debian's python3-torch) and prints the JSON lines `stela bench --json`
// prints, mode "torch-eager" (or "torch-jit-trace");
// testdata/metrics.txt, the metric names both sides use, on which
// `stela bench --torch` joins the two; run.sh, which runs both:
//
//	bash test/bench/run.sh [--workload W2] [--runs 7] [--json]
//
// `stela bench --torch` runs torch_bench.py --serve, one process for the
// whole invocation that takes warmup, run and result commands on stdin, so
// that Stela's timed runs and PyTorch's alternate one by one (A B B A ...).
// This VM switches between a fast and a slow mode for seconds at a time;
// a block of Stela's runs followed by a block of PyTorch's compares two
// different machines (the W1 ratio swung from 0.66x to 2.1x that way),
// while alternate runs give both sides the same mix. Each run is one timed
// call, as in the one-shot mode (`--workload ... --runs N`), which stays
// for running PyTorch's side alone and for the tests.
//
// Out: tests, never timings. torch_bench.py's metric names must equal
// testdata/metrics.txt (cmd/stela checks its own against the same file);
// its GPT-2 block must compute what frontend/examples/transformer.go
// computes (the small config, Stela on the reference evaluator, PyTorch on
// the same inputs as .npy files); its W4 step must train, the same in both
// modes; its JSON lines must carry the fields
// `stela bench` reads. The tests run the embedded copy with the Python
// `stela bench --torch` would pick (torchbench.Python: the first python3
// on PATH that has torch, or $STELA_TORCH_PYTHON), and skip, never fail,
// when there is none or it cannot import torch and numpy. The Go side of
// the --serve protocol is tested in cmd/stela against shell stand-ins.
package bench
