#!/usr/bin/env bash
# summarize.sh prints the Markdown tables of docs/gomlx.md from the
# harness's TSV: verdict counts per backend, and the tests whose verdicts
# differ between the backends.
#
#   test/gomlx/summarize.sh /tmp/stela-gomlx/verdicts.tsv
set -euo pipefail
tsv=$1
awk -F'\t' '
NR == 1 { next }
{
	v[$3, $4]++; n[$3]++; bs[$3] = 1
	key = $1 "\t" $2
	if (!(key in seen)) { seen[key] = 1; order[++k] = key }
	verdict[key, $3] = $4
}
END {
	printf "| backend | tests | pass | fail | panic | timeout | skip | build error |\n"
	printf "| --- | --- | --- | --- | --- | --- | --- | --- |\n"
	split("go stela", names, " ")
	for (i = 1; i <= 2; i++) {
		b = names[i]
		if (!(b in bs)) continue
		printf "| %s | %d | %d | %d | %d | %d | %d | %d |\n", (b == "go" ? "GoMLX Go backend (`GOMLX_BACKEND=go`)" : "Stela (`GOMLX_BACKEND=stela`)"), n[b], v[b, "pass"], v[b, "fail"], v[b, "panic"], v[b, "timeout"], v[b, "skip"], v[b, "build-error"]
	}
	printf "\nTests whose verdicts differ:\n\n| package | test | go | stela |\n| --- | --- | --- | --- |\n"
	for (i = 1; i <= k; i++) {
		key = order[i]
		if (verdict[key, "go"] != verdict[key, "stela"]) {
			split(key, p, "\t")
			printf "| %s | %s | %s | %s |\n", p[1], p[2], verdict[key, "go"], verdict[key, "stela"]
		}
	}
}' "$tsv"
