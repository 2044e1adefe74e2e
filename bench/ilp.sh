#!/bin/bash
# SPDX-License-Identifier: MIT
# The ILP cache on the LHCb fabric (make bench-ilp, doc/ilp.md): FT(2;20,18)
# with 326 of 360 hosts; every complex scenario class with up to 2 failed
# cables precomputed by CBC, then a sample of the classes with 3 for an
# estimate; then `fors ilp lookup` on a cached scenario, the figures read
# from the caches' entries (ilp-stats.sh), and OpenSM routing from the cache
# in the lab (ilp-lab.sh). BENCH_ILP_JOBS (default 2) solver runs at once,
# BENCH_ILP_SAMPLE (default 20) classes with 3 cables. BENCH_ILP_SHARD=I/N
# runs only shard I of N of the classes with up to 2 cables and keeps its
# report in bench/results/ilp-lhcb-k2/ (the whole takes hours: doc/ilp.md).
set -euo pipefail
: "${FORS:?FORS must name the fors binary}"
out=${BENCH_ILP_DIR:-bench-ilp}
jobs=${BENCH_ILP_JOBS:-2} sample=${BENCH_ILP_SAMPLE:-20}
mkdir -p "$out"
chmod 0755 "$out"
absent=$(for l in $(seq 1 17); do printf '%d,%d\n' $((l * 20 + 18)) $((l * 20 + 19)); done | paste -sd, -)
"$FORS" netgen --hosts-per-leaf 20 --leaves 18 --spines 20 --absent "$absent" >"$out/lhcb326.net"
echo "== $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), cbc $(cbc -quit 2>/dev/null | sed -n 's/^Version: //p')" | tee "$out/machine"
if [ -n "${BENCH_ILP_SHARD:-}" ]; then
	rep=$(dirname "$0")/results/ilp-lhcb-k2/shard-${BENCH_ILP_SHARD%/*}-of-${BENCH_ILP_SHARD#*/}.txt
	mkdir -p "$(dirname "$rep")"
	{
	echo "shard $BENCH_ILP_SHARD, $(date -u +%F), BENCH_ILP_JOBS=$jobs"
	tail -n 1 "$out/machine"
	/usr/bin/time -f "wall %e s" "$FORS" ilp precompute --reference "$out/lhcb326.net" \
		--max-failures 2 --shard "$BENCH_ILP_SHARD" --cache "$out/cache" --jobs "$jobs" \
		2>&1 | grep -v '^fors ilp: '
	} | tee "$rep"
	exit 0
fi
echo "== up to 2 failed cables, every complex class"
/usr/bin/time -f "wall %e s" "$FORS" ilp precompute --reference "$out/lhcb326.net" \
	--max-failures 2 --cache "$out/cache" --jobs "$jobs" 2>&1 | tee "$out/k2.txt" | grep -v '^fors ilp: '
echo "== 3 failed cables: a sample of $sample classes"
/usr/bin/time -f "wall %e s" "$FORS" ilp precompute --reference "$out/lhcb326.net" \
	--max-failures 3 --sample "$sample" --cache "$out/cache3" --jobs "$jobs" 2>&1 |
	tee "$out/k3.txt" | grep -v '^fors ilp: '
echo "== a cache hit: fors ilp lookup on a complex scenario (L01-S01, L02-S02 cut)"
"$FORS" netgen --hosts-per-leaf 20 --leaves 18 --spines 20 --absent "$absent" \
	--fail 1:1,2:2 >"$out/cut.net"
"$FORS" ilp scenario --topology "$out/cut.net" --reference "$out/lhcb326.net" >"$out/cut.scen"
for i in 1 2 3 4 5; do
	s=$(date +%s%N)
	"$FORS" ilp lookup --cache "$out/cache" <"$out/cut.scen" >"$out/cut.sched"
	e=$(date +%s%N)
	echo "lookup run $i: $(((e - s) / 1000000)) ms, $(wc -c <"$out/cut.sched") bytes"
done
"$FORS" check --schedule "$out/cut.sched" >/dev/null && echo "the schedule looked up verifies"
echo "== every phase and scenario the caches hold, from their entries"
for c in cache cache3; do
	echo "-- $c"
	bash "$(dirname "$0")/ilp-stats.sh" "$out/$c"
done
BENCH_ILP_DIR=$out bash "$(dirname "$0")/ilp-lab.sh"
