#!/bin/bash
# SPDX-License-Identifier: MIT
# The ILP cache on the LHCb fabric (make bench-ilp, doc/ilp.md): FT(2;20,18)
# with 326 of 360 hosts, in stages (BENCH_ILP_STAGES, default all four):
#   k2   every complex scenario class with up to 2 failed cables solved by
#        CBC; BENCH_ILP_SHARD=I/N runs only shard I of N and keeps its
#        report in bench/results/ilp-lhcb-k2/ (the whole takes hours),
#        and then only this stage unless BENCH_ILP_STAGES names others;
#        bench/ilp-sum.sh adds the shards' reports up
#   k3   BENCH_ILP_SAMPLE (default 20) classes with exactly 3 cables, evenly
#        spread, then the plan of every class with up to 3 cables, its
#        solver time estimated from the sample's
#   hit  `fors ilp lookup` on a complex scenario (L01-S01, L02-S02 cut),
#        solved into the k2 cache first if its shard has not run, the
#        answer checked by fors check
#   lab  OpenSM routing that scenario from the cache (bench/ilp-lab.sh)
# The reports of k3, hit and lab are kept in bench/results/ too. BENCH_ILP_JOBS
# (default 2) solver runs at once.
set -euo pipefail
: "${FORS:?FORS must name the fors binary}"
here=$(dirname "$0")
out=${BENCH_ILP_DIR:-bench-ilp}
jobs=${BENCH_ILP_JOBS:-2} sample=${BENCH_ILP_SAMPLE:-20}
if [ -n "${BENCH_ILP_SHARD:-}" ]; then
	stages=${BENCH_ILP_STAGES:-k2}
else
	stages=${BENCH_ILP_STAGES:-k2 k3 hit lab}
fi
mkdir -p "$out" "$here/results"
chmod 0755 "$out"
absent=$(for l in $(seq 1 17); do printf '%d,%d\n' $((l * 20 + 18)) $((l * 20 + 19)); done | paste -sd, -)
"$FORS" netgen --hosts-per-leaf 20 --leaves 18 --spines 20 --absent "$absent" >"$out/lhcb326.net"
machine="== $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), cbc $(cbc -quit 2>/dev/null | sed -n 's/^Version: //p')"

# precompute ARGS...: the report without the progress lines, timed
precompute() {
	/usr/bin/time -f "wall %e s" "$FORS" ilp precompute --reference "$out/lhcb326.net" \
		--jobs "$jobs" "$@" 2>&1 | grep -v '^fors ilp: '
}

k2() {
	if [ -n "${BENCH_ILP_SHARD:-}" ]; then
		local rep=$here/results/ilp-lhcb-k2/shard-${BENCH_ILP_SHARD%/*}-of-${BENCH_ILP_SHARD#*/}.txt
		mkdir -p "$(dirname "$rep")"
		{
			echo "shard $BENCH_ILP_SHARD, $(date -u +%F), BENCH_ILP_JOBS=$jobs"
			echo "$machine"
			precompute --max-failures 2 --shard "$BENCH_ILP_SHARD" --cache "$out/cache"
		} | tee "$rep"
		return
	fi
	echo "== up to 2 failed cables, every complex class"
	precompute --max-failures 2 --cache "$out/cache" | tee "$out/k2.txt"
	bash "$here/ilp-stats.sh" "$out/cache"
}

k3() {
	{
		echo "$(date -u +%F), BENCH_ILP_JOBS=$jobs"
		echo "$machine"
		echo "== 3 failed cables: a sample of $sample classes"
		precompute --max-failures 3 --sample "$sample" --cache "$out/cache3"
		bash "$here/ilp-stats.sh" "$out/cache3"
		echo "== the plan of every class with up to 3 failed cables, timed from the sample"
		precompute --max-failures 3 --plan --cache "$out/cache3"
	} | tee "$here/results/ilp-lhcb-k3.txt"
}

hit() {
	"$FORS" netgen --hosts-per-leaf 20 --leaves 18 --spines 20 --absent "$absent" \
		--fail 1:1,2:2 >"$out/cut.net"
	"$FORS" ilp scenario --topology "$out/cut.net" --reference "$out/lhcb326.net" >"$out/cut.scen"
	"$FORS" ilp solve --cache "$out/cache" <"$out/cut.scen" >/dev/null
	{
		date -u +%F
		echo "$machine"
		echo "== a cache hit: fors ilp lookup on a complex scenario (L01-S01, L02-S02 cut)"
		for i in 1 2 3 4 5; do
			s=$(date +%s%N)
			"$FORS" ilp lookup --cache "$out/cache" <"$out/cut.scen" >"$out/cut.sched"
			e=$(date +%s%N)
			echo "lookup run $i: $(((e - s) / 1000000)) ms, $(wc -c <"$out/cut.sched") bytes"
		done
		"$FORS" check --schedule "$out/cut.sched"
	} | tee "$here/results/ilp-lhcb-hit.txt"
}

lab() {
	BENCH_ILP_DIR=$out bash "$here/ilp-lab.sh" | tee "$here/results/ilp-lhcb-lab.txt"
}

for s in $stages; do
	case $s in
	k2 | k3 | hit | lab) "$s" ;;
	*) echo "bench/ilp.sh: unknown stage '$s' (k2, k3, hit, lab)" >&2; exit 2 ;;
	esac
done
