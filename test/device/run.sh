#!/usr/bin/env bash
# test/device/run.sh: check Stela against XLA's real CUDA PJRT plugin on a
# machine with an NVIDIA GPU (the device tool's machine: Python with
# jax-cuda13-pjrt, no Go toolchain).
#
# Prepare here, on a machine with Go (the binary travels in an ignored folder):
#   mkdir -p .device && go build -o .device/stela ./cmd/stela
# Then on the device machine, from the repository root:
#   bash test/device/run.sh            (STELA=path/to/stela to override)
#
# It finds XLA's CUDA plugin inside the jax-cuda13-pjrt package, lists its
# devices, runs the built-in examples on the GPU and compares each with
# Stela's reference evaluator (run on the host), runs `stela check` on every
# check file of the project through the plugin, and prints a summary.
set -u
cd "$(dirname "$0")/../.."
STELA=${STELA:-.device/stela}
OUT=${OUT:-/tmp/stela-device}
mkdir -p "$OUT"

if [ ! -x "$STELA" ]; then
	echo "run.sh: no stela binary at $STELA (build one with: go build -o .device/stela ./cmd/stela)" >&2
	exit 2
fi

plugin=${STELA_CUDA_PLUGIN:-$(python3 - <<'PY'
import glob, os, site, sys
roots = site.getsitepackages() + [site.getusersitepackages()] + sys.path
for r in roots:
    for pat in ("jax_plugins/xla_cuda*/xla_cuda_plugin.so", "jax_plugins/*/xla_cuda_plugin.so"):
        for p in sorted(glob.glob(os.path.join(r, pat))):
            print(p); sys.exit(0)
sys.exit(1)
PY
)}
if [ -z "$plugin" ] || [ ! -f "$plugin" ]; then
	echo "run.sh: XLA's CUDA PJRT plugin (xla_cuda_plugin.so from jax-cuda13-pjrt) not found" >&2
	exit 2
fi
echo "== plugin: $plugin"
python3 -m pip show jax-cuda13-pjrt 2>/dev/null | grep -E '^(Name|Version)' || true
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || true

pass=0 fail=0 reject=0
declare -a lines
record() { # name status detail
	lines+=("$(printf '%-48s %-8s %s' "$1" "$2" "$3")")
	case "$2" in ok) pass=$((pass + 1)) ;; reject) reject=$((reject + 1)) ;; *) fail=$((fail + 1)) ;; esac
}

echo "== stela devices"
if "$STELA" devices --plugin "$plugin" 2>&1 | tee "$OUT/devices.txt"; then
	record devices ok "$(grep -c 'device ' "$OUT/devices.txt") device(s)"
else
	record devices FAIL "see $OUT/devices.txt"
fi

echo "== built-in examples on the GPU vs the reference evaluator"
for ex in mlp cnn transformer; do
	log="$OUT/example-$ex.txt"
	if timeout 300 "$STELA" run --example "$ex" --plugin "$plugin" >"$log" 2>&1; then
		diff=$(grep -o 'max |device - reference evaluator| = .*' "$log" | sed 's/.*= //')
		times=$(grep -o '^compile .*' "$log")
		record "example $ex" ok "max diff $diff; $times"
	else
		record "example $ex" FAIL "$(tail -n 1 "$log")"
	fi
done

echo "== stela check on the project's check files"
for f in test/check/testdata/*.mlir test/check/testdata/fail/*.mlir test/check/testdata/reject/*.mlir; do
	[ -f "$f" ] || continue
	log="$OUT/check-$(basename "$f").txt"
	timeout 120 "$STELA" check --plugin "$plugin" "$f" >"$log" 2>&1
	rc=$?
	want=0
	case "$f" in */fail/*) want=1 ;; */reject/*) want=2 ;; esac
	if [ $rc -eq $want ]; then
		record "check $f" ok "exit $rc"
	elif [ $rc -eq 2 ]; then
		record "check $f" reject "$(tail -n 1 "$log")"
	else
		record "check $f" FAIL "exit $rc (want $want): $(tail -n 1 "$log")"
	fi
done

echo
echo "== summary"
printf '%s\n' "${lines[@]}"
echo "$pass passed, $fail failed, $reject rejected"
[ $fail -eq 0 ]
