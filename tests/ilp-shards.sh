#!/bin/bash
# SPDX-License-Identifier: MIT
# The ILP cache's sharding: the complete cache of FT(2;M0,M1) with up to K
# failed cables (default FT(2;6,6), K 3) precomputed once unsharded and
# once by N shards running as separate processes at the same time into one
# directory; their union must list exactly the same entries, every one of
# which `fors ilp list` checks. The plan made before (--plan) must count
# exactly the phases the precompute then stored, and the plan made after
# must find nothing left to solve. Needs cbc (Debian coinor-cbc).
set -eu
: "${FORS:?FORS must name the fors binary}"
m0=${ILP_M0:-6} m1=${ILP_M1:-6} k=${ILP_K:-3} n=${ILP_SHARDS:-3}
command -v cbc >/dev/null || { echo "cbc (coinor-cbc) is needed"; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/fors-ilp-shards.XXXXXX")
chmod 0755 "$dir"
trap 'rm -rf "$dir"' EXIT
"$FORS" netgen --hosts-per-leaf "$m0" --leaves "$m1" --spines "$m0" >"$dir/ref.net"
"$FORS" ilp precompute --reference "$dir/ref.net" --max-failures "$k" --plan \
	>"$dir/plan.txt" 2>/dev/null
planned=$(sed -n 's/^distinct phases (first attempts, one sub-phase): \([0-9]*\);.*/\1/p' "$dir/plan.txt")
start=$(date +%s)
"$FORS" ilp precompute --reference "$dir/ref.net" --max-failures "$k" \
	--cache "$dir/whole" --jobs 2 >"$dir/whole.txt"
mid=$(date +%s)
pids=""
for i in $(seq 0 $((n - 1))); do
	"$FORS" ilp precompute --reference "$dir/ref.net" --max-failures "$k" \
		--cache "$dir/sharded" --shard "$i/$n" >"$dir/shard-$i.txt" &
	pids="$pids $!"
done
for p in $pids; do
	wait "$p" || { cat "$dir"/shard-*.txt; echo "FAIL: a shard failed"; exit 1; }
done
end=$(date +%s)
"$FORS" ilp list --cache "$dir/whole" >"$dir/whole.list"
"$FORS" ilp list --cache "$dir/sharded" >"$dir/sharded.list"
cat "$dir/whole.txt"
if ! cmp -s "$dir/whole.list" "$dir/sharded.list"; then
	diff "$dir/whole.list" "$dir/sharded.list" | head -20
	echo "FAIL: the shards' union differs from the unsharded cache"
	exit 1
fi
grep -q '^native/ILP disagreements: 0$' "$dir/whole.txt" ||
	{ echo "FAIL: disagreements"; exit 1; }
if grep -q ' infeasible$' "$dir/whole.list"; then
	echo "FAIL: FT(2;$m0,$m1) now has infeasible phases: the plan's count no longer matches the entries one for one"
	exit 1
fi
stored=$(grep -c '^phase' "$dir/whole.list")
if [ "$planned" != "$stored" ]; then
	cat "$dir/plan.txt"
	echo "FAIL: the plan counted ${planned:-nothing} distinct phases, the precompute stored $stored"
	exit 1
fi
"$FORS" ilp precompute --reference "$dir/ref.net" --max-failures "$k" --plan \
	--cache "$dir/sharded" >"$dir/replan.txt" 2>/dev/null
if ! grep -q "^distinct phases (first attempts, one sub-phase): $stored; in the cache: $stored," "$dir/replan.txt" ||
	! grep -q '^to solve: 0 phases' "$dir/replan.txt"; then
	cat "$dir/replan.txt"
	echo "FAIL: the plan over the complete cache finds work left"
	exit 1
fi
echo "PASS: FT(2;$m0,$m1) K=$k: $stored phases (as planned), $(grep -c '^scenario' "$dir/whole.list") scenarios; unsharded $((mid - start)) s, $n shards $((end - mid)) s; union identical"
