#!/bin/bash
# SPDX-License-Identifier: MIT
# The reports of `fors ilp precompute` shards added up (doc/ilp.md,
# "Measured"): scenarios, phases, solver time per phase and per scenario
# (weighted by the scenarios each shard routed), disagreements. Reports of
# shards run into separate caches add up the same as into one, as long as
# no phase is shared between shards (a plan, --plan, tells).
# Usage: bench/ilp-sum.sh REPORT...
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: ilp-sum.sh REPORT..." >&2; exit 2; }
awk '
/^shard [0-9]+\/[0-9]+: / {
	shards++; split($2, a, "/"); of = a[2]
	scen += $3; routed += $5; done += $8; failed += $11
}
/^phases routed / {
	ph += $3 + 0; hits += $4; solved += $8
	sub(/\(/, "", $13); inf += $13; unk += $16
}
/^solver time per phase: / {
	m = $9 + 0; if (m > max) max = m; t += $12
}
/^per scenario / {
	for (i = 1; i <= NF; i++) {
		if ($i == "solver") s = $(i + 1)
		if ($i == "native") n = $(i + 1)
	}
	sw += s * last; nw += n * last
}
/^shard [0-9]+\/[0-9]+: / { last = $5 }
/^sub-phases added: / { sn += $4; si += $6 }
/^native\/ILP disagreements: / { dis += $3 }
/^wall / { wall += $2 }
END {
	if (!shards) { print "no shard report"; exit 1 }
	printf "shards %d of %d: %d scenarios, %d routed, %d complete before, %d failed\n",
		shards, of, scen, routed, done, failed
	printf "phases routed %d: %d from the cache, %d solved (%d infeasible verdicts, %d without verdict)\n",
		ph, hits, solved, inf, unk
	printf "solver time per phase: mean %.3f s, max %.3f s, total %.1f s (%.2f h)\n",
		t / solved, max, t, t / 3600
	printf "per scenario (its distinct phases solved once): solver %.2f s mean, against 29.72 s with Gurobi in the FORS paper; native %.2f ms mean\n",
		sw / routed, nw / routed
	printf "sub-phases added: native %d, ILP %d\n", sn, si
	printf "native/ILP disagreements: %d\n", dis
	printf "wall %.0f s (%.2f h)\n", wall, wall / 3600
}' "$@"
