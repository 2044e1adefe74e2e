#!/bin/bash
# SPDX-License-Identifier: MIT
# What an ILP cache holds, read from its entries (doc/ilp.md, "Measured"):
# the solver time stored with every phase and the summary of every complete
# scenario, so the figures do not depend on how many shards or sessions
# filled the cache. `fors ilp list` checks every entry first.
# Usage: FORS=src/cli/fors bench/ilp-stats.sh CACHE_DIR
set -euo pipefail
: "${FORS:?FORS must name the fors binary}"
dir=${1:?usage: ilp-stats.sh CACHE_DIR}
"$FORS" ilp list --cache "$dir" >/dev/null

# one line per phase entry: seconds and verdict
find "$dir/phases" -type f -name '[0-9a-f]*' -exec awk '
	/^solver / { s = $4 }
	/^verdict / { print s, $2; nextfile }' {} + | sort -n >"$dir.phases.tmp"
awk '{ n++; t += $1; v[n] = $1; if ($2 == "infeasible") inf++ }
END {
	if (!n) { print "phases: none"; exit }
	q = int(n * 0.95); if (q < 1) q = 1
	printf "distinct phases %d (%d infeasible verdicts)\n", n, inf
	printf "solver time per phase: mean %.3f s, median %.3f s, 95th percentile %.3f s, max %.3f s, total %.1f s (%.2f h)\n",
		t / n, v[int((n + 1) / 2)], v[q], v[n], t, t / 3600
}' "$dir.phases.tmp"
rm -f "$dir.phases.tmp"

find "$dir/scenarios" -type f -name '[0-9a-f]*' -exec awk '
	/^summary / { print $7, $9, $3, $5; nextfile }' {} + | sort -n | awk '
{ n++; t += $1; nat += $2; ph += $3; sp += $4; v[n] = $1 }
END {
	if (!n) { print "scenarios: none"; exit }
	printf "complete scenarios %d, %d phases, %d sub-phases added by splits\n", n, ph, sp
	printf "solver time per scenario (its distinct phases solved once): mean %.2f s, min %.2f s, max %.2f s, against 29.72 s with Gurobi in the FORS paper\n",
		t / n, v[1], v[n]
	printf "native solver per scenario: mean %.1f ms\n", nat / n * 1000
}'
