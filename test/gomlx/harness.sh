#!/usr/bin/env bash
# harness.sh runs GoMLX v0.28.8's own test tree (its core/..., ml/... and
# support/... packages) with GOMLX_BACKEND=go (GoMLX's Go backend) and
# GOMLX_BACKEND=stela (frontend/gomlx), one top-level test per process
# under a timeout, and writes a TSV of verdicts (docs/gomlx.md has the
# table).
#
# It copies GoMLX from the module cache, puts the copy and this checkout
# in a go.work, adds a blank import of the Stela backend to every tested
# package (a file zz_stela_backend_test.go), builds each package's test
# binary once (-tags noxla: GoMLX's XLA backend would download its plugin)
# and runs every test of it under both backends.
#
#   test/gomlx/harness.sh [OUT.tsv]     (default /tmp/stela-gomlx/verdicts.tsv)
#
# Environment: WORK (scratch directory, /tmp/stela-gomlx), TIMEOUT
# (seconds per test, 300), BACKENDS ("go stela"), PKGS (package
# directories relative to GoMLX's root, default all of core ml support
# that have tests), RUN (a regexp of tests to run, default all),
# RERUN=1 (rebuild the test binaries and run again only the rows of
# OUT.tsv whose verdict is not pass, replacing them).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${WORK:-/tmp/stela-gomlx}
out=${1:-$work/verdicts.tsv}
timeout_s=${TIMEOUT:-300}
backends=${BACKENDS:-go stela}
version=v0.28.8
src=$(go env GOMODCACHE)/github.com/gomlx/gomlx@$version
if [ ! -d "$src" ]; then
	(cd "$root" && GOFLAGS=-mod=mod go mod download github.com/gomlx/gomlx@$version)
fi
mkdir -p "$work"
if [ ! -d "$work/gomlx" ]; then
	cp -r "$src" "$work/gomlx"
	chmod -R u+w "$work/gomlx"
	# GoMLX's test helpers install XLA's CPU plugin from GitHub whatever
	# the backend; there is no network here, so they do it only when
	# GOMLX_BACKEND selects xla (the same for both backends compared).
	sed -i 's/err := xla.AutoInstall()/var err error; if b := os.Getenv("GOMLX_BACKEND"); len(b) >= 3 \&\& b[:3] == "xla" { err = xla.AutoInstall() }/' \
		"$work/gomlx/support/testutil/testutil.go" "$work/gomlx/core/graph/graph_test.go"
fi
cat >"$work/go.work" <<WORK
go 1.26.5

use (
	./gomlx
	$root
)
WORK
export GOWORK="$work/go.work"
cd "$work/gomlx"
pkgs=${PKGS:-$(find core ml support -name '*_test.go' -printf '%h\n' | sort -u)}
for d in $pkgs; do
	# The package's own name (not its _test variant), for the blank import.
	name=$(grep -h '^package ' "$d"/*.go | awk '{print $2}' | grep -v '_test$' | head -1 || true)
	if [ -z "$name" ]; then
		name=$(grep -h '^package ' "$d"/*_test.go | awk '{print $2}' | head -1)
	fi
	printf 'package %s\n\nimport _ "github.com/stela-ml/stela/frontend/gomlx" // GOMLX_BACKEND=stela\n' "$name" >"$d/zz_stela_backend_test.go"
done
mkdir -p "$work/bin" "$work/logs"

# run_one PKG TEST BACKEND BIN prints the TSV row of one test.
run_one() {
	local d=$1 t=$2 be=$3 bin=$4 log rc v start secs
	log="$work/logs/$(echo "$d" | tr / _).$t.$be.log"
	start=$(date +%s.%N)
	set +e
	(cd "$d" && GOMLX_BACKEND=$be timeout -k 10 "$timeout_s" "$bin" -test.run "^$t\$" -test.count=1 -test.v >"$log" 2>&1)
	rc=$?
	set -e
	secs=$(echo "$(date +%s.%N) - $start" | bc)
	if [ $rc = 124 ] || [ $rc = 137 ]; then
		v=timeout
	elif grep -q '^panic: ' "$log"; then
		v=panic
	elif [ $rc != 0 ]; then
		v=fail
	elif grep -q -- "^--- SKIP: $t " "$log"; then
		v=skip
	else
		v=pass
	fi
	printf '%s\t%s\t%s\t%s\t%.1f\n' "$d" "$t" "$be" "$v" "$secs"
}

build() { # build PKG: the test binary's path, or nothing when it fails
	local d=$1 bin
	bin="$work/bin/$(echo "$d" | tr / _).test"
	if go test -c -tags noxla -o "$bin" "./$d" >"$work/logs/$(echo "$d" | tr / _).build" 2>&1; then
		echo "$bin"
	fi
}

if [ -n "${RERUN:-}" ]; then
	new="$out.new"
	head -1 "$out" >"$new"
	declare -A bins
	while IFS=$'\t' read -r d t be v secs; do
		if [ "$v" = pass ] || [ "$t" = "(build)" ]; then
			printf '%s\t%s\t%s\t%s\t%s\n' "$d" "$t" "$be" "$v" "$secs" >>"$new"
			continue
		fi
		if [ -z "${bins[$d]+x}" ]; then
			bins[$d]=$(build "$d")
		fi
		if [ -z "${bins[$d]}" ]; then
			printf '%s\t%s\t%s\t%s\t%s\n' "$d" "$t" "$be" "build-error" 0 >>"$new"
			continue
		fi
		run_one "$d" "$t" "$be" "${bins[$d]}" >>"$new"
	done < <(tail -n +2 "$out")
	mv "$new" "$out"
	echo "verdicts in $out"
	exit 0
fi

printf 'package\ttest\tbackend\tverdict\tseconds\n' >"$out"
for d in $pkgs; do
	bin=$(build "$d")
	if [ -z "$bin" ]; then
		for be in $backends; do printf '%s\t%s\t%s\t%s\t0\n' "$d" "(build)" "$be" "build-error" >>"$out"; done
		continue
	fi
	[ -x "$bin" ] || continue # no tests
	tests=$(cd "$d" && "$bin" -test.list "${RUN:-.*}" 2>/dev/null | grep '^Test' || true)
	for t in $tests; do
		for be in $backends; do
			run_one "$d" "$t" "$be" "$bin" >>"$out"
		done
	done
done
echo "verdicts in $out"
