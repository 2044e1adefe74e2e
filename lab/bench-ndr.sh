#!/bin/bash
# SPDX-License-Identifier: MIT
# OpenSM's routing on an NDR-sized fabric (make bench-lab-ndr, issue 32):
# FT(2;32,64), 2,048 hosts on 64 leaves and 32 spines, routed by fors,
# minhop, updn and updn with the spines as roots (updnR), at each LMC of
# LMCS ("2 0"), REPS rounds (3) of the four interleaved, so that a busy
# machine slows every engine alike. Each run is a fresh OpenSM on the same
# simulator: the span of its first routing (healthy, lab_routing_ms), then
# one leaf-spine cable cut (L05-S07): that routing's span and the wall time
# from the cut to the next SUBNET UP; OpenSM's VmHWM just before it stops;
# fors's summary lines. A table per LMC; the raw numbers in
# $lab_dir/ndr-results.tsv, each run's routing lines in $lab_dir/runs/.
set -eu
# A heavy sweep of 2,144 nodes under ibsim takes seconds.
LAB_TIMEOUT=${LAB_TIMEOUT:-300}
# ibsim's defaults (2,048 nodes) are too small for the fabric (doc/lab.md).
LAB_IBSIM_OPTS=${LAB_IBSIM_OPTS:-"-N 2200 -S 200 -P 20000"}
. "$(dirname "$0")/lab.sh"
# osm_count, osm_settle, osm_tried, opensm_stop, snapshot_binaries:
# settling, fallbacks and stopping for any engine, not only fors.
. "$lab_top/bench/scenarios.sh"

reps=${REPS:-3}
lmcs=${LMCS:-"2 0"}
engines=${ENGINES:-"fors minhop updn updnR"}
conf='tables configured on all switches'
up='> SUBNET UP$'	# the timestamped line, not the banner

lab_init "${BENCH_DIR:-bench-lab-ndr}"
# Copies of fors and libfors.so in $lab_dir/bin: every run loads the same
# build, even if the tree is rebuilt while this runs.
snapshot_binaries "$lab_dir" ""
"$FORS" netgen --hosts-per-leaf 32 --leaves 64 --spines 32 >"$lab_dir/ndr.net"
lab_ibsim "$lab_dir/ndr.net"
lab_sim_host=$(lab_first_host)	# lab_run before any OpenSM

# The cut: L05's cable to S07, its port read from the net file (host ports
# come first, the spine cables follow) rather than computed.
port=$(awk '/^Switch/ { l = /"L05"/ } l && /"S07"/ { sub(/^\[/, ""); sub(/\].*/, ""); print; exit }' \
	"$lab_dir/fabric.net")
[ -n "$port" ] || lab_die "no cable L05-S07 in $lab_dir/fabric.net"
cut="\"L05\"[$port]"

# updnR's roots: the net file has names, no GUIDs (ibsim numbers the nodes
# itself), so the spines' node GUIDs are read from the simulated fabric as
# ibnetdiscover sees it ("S-<guid>" ... # "Snn"), which needs no SM.
lab_run ibnetdiscover >"$lab_dir/discovered.txt" 2>"$lab_dir/discovered.err" ||
	lab_die "ibnetdiscover failed: see $lab_dir/discovered.err"
sed -n 's/^Switch.*"S-\([0-9a-f]*\)".*# "S[0-9]*".*/0x\1/p' "$lab_dir/discovered.txt" >"$lab_dir/roots"
[ "$(wc -l <"$lab_dir/roots")" -eq 32 ] || lab_die "not 32 spine GUIDs in $lab_dir/roots"

# The engine named by the Nth "tables configured" line.
used() { grep "$conf" "$lab_dir/osm.log" | sed -n "${1}p" | sed 's/.*osm_ucast_mgr_process: //; s/ tables.*//'; }
# The Nth fors summary line, without the log prefix.
summary() { grep 'fors: routed' "$lab_dir/osm.log" | sed -n "${1}p" | sed 's/.*fors: //'; }
# ms from T0 ("HH:MM:SS uuuuuu", from date) to the Nth SUBNET UP line's
# stamp, parsed as lab_routing_ms parses them; both clocks are this host's.
# The cut's own time is taken with date: OpenSM logs nothing until the
# trap arrives, and its detection belongs to the wall time measured.
up_ms() {
	grep "$up" "$lab_dir/osm.log" | sed -n "${1}p" | awk -v t0="$2" '
		function us(t, u,  a) { split(t, a, ":"); return ((a[1] * 60 + a[2]) * 60 + a[3]) * 1e6 + u }
		{ split(t0, b, " "); ms = (us($3, $4) - us(b[1], b[2])) / 1e3
		  printf "%.1f\n", ms < 0 ? ms + 864e5 : ms }'
}
# An engine that hands the routing to another is reported; fors must not.
check_used() {
	[ "$1" = "$2" ] && return
	[ "$eng" != fors ] || lab_die "fors's $3 routing was done by '$1' (tried $(osm_tried)): see $lab_dir/osm.log"
	echo "ndr: lmc $lmc round $round $eng: $3 routing done by '$1', tried $(osm_tried) (fallback)" >&2
}

# run ENGINE: one fresh OpenSM (LMC $lmc) through healthy and one cut.
run() {
	local eng=$1 osm=$1 extra="" h hu c cu nc nu nf s t0 cup hwm k p i=0
	[ "$eng" != updnR ] || osm=updn extra="root_guid_file $lab_dir/roots"
	rm -rf "$lab_dir/cache"	# every run assigns LIDs as a first start does
	rm -f "$lab_dir/opensm-updn-roots.dump"
	LAB_OPENSM_EXTRA=$extra lab_opensm "$lab_sim_host" "$osm" "$lmc"
	lab_wait_for "$lab_dir/osm.log" "$conf" 1 || lab_die "$eng: no routing"
	h=$(lab_routing_ms first) hu=$(used 1)
	check_used "$hu" "$osm" healthy
	# Settled: no routing in progress or due, no staged update waiting.
	osm_settle || lab_die "$eng: no settled state before the cut"
	! lab_stage_in || lab_die "$eng: a staged update waits"
	nc=$(osm_count "$conf") nu=$(osm_count "$up") nf=$(osm_count 'fors: routed')
	t0=$(date '+%T %6N')
	lab_console "Unlink $cut"
	lab_wait_for "$lab_dir/osm.log" "$conf" $((nc + 1)) || lab_die "$eng: no routing after the cut"
	# Read now: a staged update's rest routes again stage_wait_ms later.
	c=$(lab_routing_ms) cu=$(used $((nc + 1)))
	[ "$(osm_count "$conf")" -eq $((nc + 1)) ] || lab_die "$eng: a second routing ended before the cut's was read"
	check_used "$cu" "$osm" cut
	lab_wait_for "$lab_dir/osm.log" "$up" $((nu + 1)) || lab_die "$eng: no SUBNET UP after the cut"
	cup=$(up_ms $((nu + 1)) "$t0")
	s="-	-"
	if [ "$eng" = fors ]; then
		lab_wait_for "$lab_dir/osm.log" 'fors: routed' $((nf + 1)) || lab_die "fors: no summary after the cut"
		s="$(summary 1)	$(summary $((nf + 1)))"
	fi
	osm_settle || lab_die "$eng: no settled state after the cut"
	# Routings the cut took: 2 when fors staged its update.
	k=$(($(osm_count "$conf") - nc))
	[ "$(cat "/proc/$lab_opensm_pid/comm")" = opensm ] || lab_die "$lab_opensm_pid is not opensm"
	hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$lab_opensm_pid/status")
	mkdir -p "$lab_dir/runs"
	grep -E "building routing with|$conf|fors: |updn|[Rr]oot|$up|ERR" "$lab_dir/osm.log" \
		>"$lab_dir/runs/lmc$lmc-$round-$eng.log" || true
	# updn's roots, chosen by it or given (root_guid_file).
	[ "$osm" != updn ] || cp "$lab_dir/opensm-updn-roots.dump" "$lab_dir/runs/lmc$lmc-$round-$eng-roots.dump" ||
		echo "ndr: $eng wrote no opensm-updn-roots.dump" >&2
	opensm_stop
	# Healthy again for the next run, once ibsim has taken the command
	# (it prints a prompt after each).
	p=$(grep -o 'sim>' "$lab_dir/ibsim.log" | wc -l)
	lab_console "ReLink $cut"
	while [ "$(grep -o 'sim>' "$lab_dir/ibsim.log" | wc -l)" -le "$p" ]; do
		i=$((i + 1))
		[ $i -le 100 ] || lab_die "ibsim did not take: ReLink $cut"
		sleep 0.2
	done
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$lmc" "$round" "$eng" "$hu" "$cu" \
		"$h" "$c" "$cup" "$hwm" "$k" "$s" >>"$lab_dir/ndr-results.tsv"
	echo "lmc $lmc round $round $eng: healthy $h ms ($hu), cut $c ms ($cu; $k routing(s) until settled)," \
		"cut->SUBNET UP $cup ms, VmHWM $((hwm / 1024)) MiB"
	[ "$eng" != fors ] || echo "$s" | tr '\t' '\n' | sed 's/^/  fors: /'
}

# col LMC ENGINE FIELD: that column of the results, one number a line.
col() { awk -F'\t' -v l="$1" -v e="$2" -v c="$3" '$1 == l && $3 == e { print $c }' "$lab_dir/ndr-results.tsv"; }
med() { col "$@" | lab_median | cut -d' ' -f1; }
# fors's median over the lower of minhop's and updnR's, and which one.
ratio() {
	awk -v f="$(med "$1" fors "$2")" -v m="$(med "$1" minhop "$2")" -v u="$(med "$1" updnR "$2")" \
		'BEGIN { b = m <= u ? m : u; printf "%.2fx %s", f / b, m <= u ? "minhop" : "updnR" }'
}

table() {
	local e
	echo
	echo "FT(2;32,64), LMC $1, $reps round(s), ms unless said; median (min-max)"
	printf '%-9s %-26s %-26s %-26s %-11s %s\n' engine healthy "one cut" "cut->SUBNET UP" "VmHWM MiB" "routed by"
	for e in $engines; do
		printf '%-9s %-26s %-26s %-26s %-11s %s\n' "$e" "$(col "$1" "$e" 6 | lab_median)" \
			"$(col "$1" "$e" 7 | lab_median)" "$(col "$1" "$e" 8 | lab_median)" \
			"$(col "$1" "$e" 9 | awk '{ print $1 / 1024 }' | lab_median | cut -d' ' -f1)" \
			"$( (col "$1" "$e" 4; col "$1" "$e" 5) | sort -u | paste -sd,)"
	done
	printf '%-9s %-26s %-26s %-26s %s\n' "fors/best" "$(ratio "$1" 6)" "$(ratio "$1" 7)" "$(ratio "$1" 8)" \
		"$(ratio "$1" 9) (the lower; VmHWM)"
}

printf 'lmc\tround\tengine\thealthy_by\tcut_by\thealthy_ms\tcut_ms\tcut_to_up_ms\tvmhwm_kb\tcut_routings\tfors_healthy\tfors_cut\n' \
	>"$lab_dir/ndr-results.tsv"
for lmc in $lmcs; do
	for round in $(seq "$reps"); do
		for eng in $engines; do
			run "$eng"
		done
	done
done
for lmc in $lmcs; do
	table "$lmc"
done
