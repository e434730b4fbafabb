#!/usr/bin/env bash
# test/bench/run.sh: run Stela's benchmarks and PyTorch's in one go, from
# any directory: `stela bench --torch` with the arguments given, e.g.
#   bash test/bench/run.sh --workload W2,W3 --runs 7
#   bash test/bench/run.sh --json > bench.jsonl
# docs/performance.md says how to read the output and update its table.
set -eu
cd "$(dirname "$0")/../.."
exec go run ./cmd/stela bench --torch "$@"
