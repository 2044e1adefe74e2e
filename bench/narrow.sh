#!/bin/bash
# SPDX-License-Identifier: MIT
# Fewer LID offsets than planes (make bench-narrow, doc/narrow-lmc.md): for
# each fabric and failure scenario, every LMC from 0 up to the first that
# keeps the optimal phase count (no phase split), then LMC 3; each routing
# verified by fors check (congestion, reachability, credit loops). Prints a
# Markdown table. "bench/narrow.sh parallel" (make bench-narrow-parallel)
# does the same for fabrics with parallel cables; "bench/narrow.sh lhcb"
# stops after the two LHCb fabrics.
set -eu
: "${FORS:?FORS must name the fors binary}"
out=${BENCH_NARROW_DIR:-bench-narrow}
mkdir -p "$out"

lhcb_absent=$(for l in $(seq 1 17); do printf '%d,%d\n' $((l * 20 + 18)) $((l * 20 + 19)); done | paste -sd, -)

# name, netgen arguments of the fabric, then of each scenario's cuts
scenarios() {
	echo "healthy|"
	echo "1F SW0|--fail 0:7"
	echo "2F SW0|--fail 0:7,0:13"
	echo "3F SW0|--fail 0:7,0:13,0:18"
	echo "1F SW0,5,11|--fail 0:0,5:1,11:2"
	echo "2F SW0,5,11|--fail 0:0,0:1,5:2,5:3,11:4,11:5"
	echo "3F SW0,5,11|--fail 0:0,0:1,0:2,5:3,5:4,5:5,11:6,11:7,11:8"
	echo "SW18,19 gone|--dead-spines 0,1"
	echo "SW18,19,22,23 gone|--dead-spines 0,1,4,5"
}

# route at LMC l; prints "phases split ms verified bound"
try() {
	local net=$1 ref=$2 l=$3 d=$out/run ph sp ms bd ok=no
	rm -rf "$d"
	mkdir -p "$d"
	if ! "$FORS" route -t "$net" -r "$ref" -l "$l" -R -o "$d" >"$d/log" 2>&1; then
		echo "- - - $(head -n1 "$d/log")"
		return
	fi
	ph=$(sed -n 's/^schedule: \([0-9]*\) phases.*/\1/p' "$d/log")
	sp=$(sed -n 's/.*, \([0-9]*\) added by splits.*/\1/p' "$d/log")
	bd=$(sed -n 's/.*; bound \([0-9]*\) .*/\1/p' "$d/log")
	ms=$(sed -n 's/^time: \([0-9]*\).*/\1/p' "$d/log")
	if "$FORS" check -s "$d/fors-schedule.dump" -t "$net" -l "$d/fors-lfts.dump" \
		>"$d/check" 2>&1; then
		ok=yes
	fi
	echo "$ph $sp $ms $ok $bd"
}

# Failures of fabrics with parallel cables: LEAF:SPINE:CABLE cuts.
parallel_scenarios() {
	echo "healthy|"
	echo "1 cable|--fail 0:0:0"
	echo "2 cables, one leaf|--fail 0:0:0,0:1:1"
	echo "3 cables, 3 leaves|--fail 0:0:0,1:1:1,2:1:0"
	echo "spine 0 gone|--dead-spines 0"
}

fabric() {
	local name=$1 gen=$2
	"$FORS" netgen $gen >"$out/ref.net"
	$scenarios | while IFS='|' read -r sc cut; do
		# shellcheck disable=SC2086
		"$FORS" netgen $gen $cut >"$out/live.net"
		local l r first=""
		for l in 0 1 2 3 4 5; do
			r=$(try "$out/live.net" "$out/ref.net" "$l")
			set -- $r
			if [ "$1" = - ]; then
				echo "| $name | $sc | $l | - | - | - | - | ${r#- - - } |"
			elif { [ "$2" = 0 ] && [ -z "$first" ]; } || [ "$l" = 3 ]; then
				echo "| $name | $sc | $l | $1 | $5 | $2 | $3 | $4 |"
			fi
			if [ "$2" = 0 ]; then
				first=${first:-$l}
			fi
			if [ -n "$first" ] && [ "$l" -ge 3 ]; then
				break
			fi
		done
	done
}

echo "$(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo
echo "| fabric | scenario | LMC | phases | T* | split | ms | verified |"
echo "|---|---|---|---|---|---|---|---|"
if [ "${1:-}" = parallel ]; then
	scenarios=parallel_scenarios
	fabric "FT(2;12,4), 2 spines x 6 cables" "-n 12 -l 4 -s 2 -c 6"
	fabric "FT(2;32,8), 16 spines x 2 cables" "-n 32 -l 8 -s 16 -c 2"
	fabric "FT(2;16,31), 9 spines x 2 cables" "-n 16 -l 31 -s 9 -c 2"
	exit 0
fi
scenarios=scenarios
fabric "FT(2;20,18), 326 hosts" "-n 20 -l 18 -s 20 -a $lhcb_absent"
fabric "FT(2;20,18), 360 hosts" "-n 20 -l 18 -s 20"
[ "${1:-}" = lhcb ] && exit 0
fabric "FT(2;32,32), 1024 hosts" "-n 32 -l 32 -s 32"
fabric "FT(2;32,64), 2048 hosts" "-n 32 -l 64 -s 32"
