#!/bin/bash
# SPDX-License-Identifier: MIT
# Outputs that a change of structure must leave byte for byte as they were
# (make bench-golden): `fors route` (the schedule file, the LFT dump, what it
# prints but its time), `fors check` and `fors eval` (text and tsv, schedule
# and linear shift) of every routing, at LMC 0 to 5, on the paper's nine
# scenarios of the 326-host LHCb fabric and on 20 seeded random fabrics with
# absent and dual-port hosts, parallel cables and failed cables; then
# `fors schedule` of a few shapes. Writes DIR/<case>/... and DIR/SHA256SUMS;
# compare two runs with `diff DIR1/SHA256SUMS DIR2/SHA256SUMS` (paths in
# the outputs are relative to DIR, so the two may differ).
#
#   bench/golden.sh DIR
set -eu
: "${FORS:?FORS must name the fors binary}"
out=${1:?usage: bench/golden.sh DIR}
rm -rf "$out"
mkdir -p "$out"
data=$(cd "$(dirname "$0")/../tests/data" && pwd)
cd "$out"

lhcb_absent=$(for l in $(seq 1 17); do printf '%d,%d\n' $((l * 20 + 18)) $((l * 20 + 19)); done | paste -sd, -)

paper() {
	echo "0F|"
	echo "1F-SW0|--fail 0:7"
	echo "2F-SW0|--fail 0:7,0:13"
	echo "3F-SW0|--fail 0:7,0:13,0:18"
	echo "1F-SW0-5-11|--fail 0:0,5:1,11:2"
	echo "2F-SW0-5-11|--fail 0:0,0:1,5:2,5:3,11:4,11:5"
	echo "3F-SW0-5-11|--fail 0:0,0:1,0:2,5:3,5:4,5:5,11:6,11:7,11:8"
	echo "dead-SW18-19|--dead-spines 0,1"
	echo "dead-SW18-19-22-23|--dead-spines 0,1,4,5"
}

# A random fabric of seed S: netgen arguments of the healthy fabric, a bar,
# those of the failures. Small enough that every LMC routes in a second.
random_case() {
	awk -v s="$1" 'BEGIN {
		srand(s)
		m0 = 3 + int(rand() * 6); m1 = 3 + int(rand() * 6)
		c = rand() < 0.3 ? 2 : 1
		ns = 2 + int(rand() * (m0 - 1))
		dual = rand() < 0.4 ? 1 + int(rand() * 2) : 0
		if (dual >= m0) dual = m0 - 1
		ab = ""
		for (i = 0; i < m0 * m1; i++)
			if (i % m0 >= dual && rand() < 0.1)
				ab = ab (ab == "" ? "" : ",") i
		gen = sprintf("-n %d -l %d -s %d -c %d", m0, m1, ns, c)
		if (dual) gen = gen " -d " dual
		if (ab != "") gen = gen " -a " ab
		cut = ""
		n = int(rand() * 4)
		for (i = 0; i < n; i++)
			cut = cut (cut == "" ? "" : ",") int(rand() * m1) ":" int(rand() * ns) (c > 1 ? ":" int(rand() * c) : "")
		dead = rand() < 0.15 ? "-x " int(rand() * ns) : ""
		printf "%s|%s%s%s\n", gen, cut == "" ? "" : "--fail " cut, cut != "" && dead != "" ? " " : "", dead
	}'
}

# run DIR CMD...: stdout, stderr (time lines dropped) and the exit status.
run() {
	local d=$1 name=$2
	shift 2
	local rc=0
	"$FORS" "$@" >"$d/$name.out" 2>"$d/$name.err" || rc=$?
	sed -i '/^time: /d' "$d/$name.out"
	echo "$rc" >"$d/$name.rc"
}

# one_case NAME "GEN" "CUTS"
one_case() {
	local name=$1 gen=$2 cut=$3 d l r
	d=$name
	mkdir -p "$d"
	# shellcheck disable=SC2086
	"$FORS" netgen $gen >"$d/ref.net"
	# shellcheck disable=SC2086
	"$FORS" netgen $gen $cut >"$d/live.net"
	for l in 0 1 2 3 4 5; do
		r=$d/lmc$l
		mkdir -p "$r"
		run "$r" route route -t "$d/live.net" -r "$d/ref.net" -l "$l" -R -T -o "$r"
		[ -f "$r/fors-schedule.dump" ] || continue
		run "$r" check check -s "$r/fors-schedule.dump" -t "$d/live.net" -l "$r/fors-lfts.dump"
		run "$r" eval-sched eval -t "$d/live.net" -l "$r/fors-lfts.dump" -S "$r/fors-schedule.dump"
		run "$r" eval-sched-tsv eval -t "$d/live.net" -l "$r/fors-lfts.dump" -S "$r/fors-schedule.dump" -f tsv
	done
	echo "$name: $gen $cut"
}

paper | while IFS='|' read -r sc cut; do
	one_case "lhcb-$sc" "-n 20 -l 18 -s 20 -a $lhcb_absent" "$cut"
done
for s in $(seq 1 20); do
	c=$(random_case "$s")
	one_case "random-$s" "${c%%|*}" "${c#*|}"
done
mkdir -p schedule
for a in "-n 20 -l 18 -f 1" "-n 20 -l 18 -f 3" "-n 4 -l 3 -f 1" "-n 8 -l 8 -f 2"; do
	# shellcheck disable=SC2086
	run schedule "$(echo "$a" | tr -d ' -')" schedule $a --text
done
# OpenSM's tables of the lab, which have the LIDs a linear shift needs.
mkdir -p opensm
for l in 0 1; do
	s=""
	[ "$l" = 0 ] || s=-lmc$l
	t=opensm/ibnetdiscover-ft-2-2$s.txt d=opensm/opensm-lfts-ft-2-2$s.dump
	cp "$data/${t#opensm/}" "$data/${d#opensm/}" opensm/
	run opensm "shift$s" eval -t "$t" -l "$d" -s
	run opensm "shift-tsv$s" eval -t "$t" -l "$d" -s -f tsv
	run opensm "check$s" check -t "$t" -l "$d" -m "$l"
done
find . -type f ! -name SHA256SUMS -print0 | sort -z | xargs -0 sha256sum >SHA256SUMS
echo "$(wc -l <SHA256SUMS) files in $out/SHA256SUMS"
