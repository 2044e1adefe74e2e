#!/bin/bash
# SPDX-License-Identifier: MIT
# OpenSM's routing time with fors, minhop and ftree on the same FT(2;20,18)
# LMC 5 lab fabric, from OpenSM's log (lab_routing_ms), side by side: the
# first routing of a fresh OpenSM (cold), then REPS times the paper's 1F
# failure and its repair, each rerouted. fors runs with verify TRUE (the
# default) and FALSE. Results: doc/performance.md.
set -eu
. "$(dirname "$0")/lab.sh"

reps=${REPS:-5}
lab_init "${BENCH_DIR:-bench-lab}"
"$FORS" netgen --hosts-per-leaf 20 --leaves 18 --spines 20 >"$lab_dir/lhcb.net"
lab_ibsim "$lab_dir/lhcb.net"

routings() { grep -c 'tables configured on all switches' "$lab_dir/osm.log"; }

# One routing after the console command, by whichever engine.
reroute_any() {
	n=$(routings)
	lab_console "$1"
	lab_wait_for "$lab_dir/osm.log" 'tables configured on all switches' $((n + 1)) ||
		lab_die "no rerouting after $1"
	sleep 3
}

used() {
	grep 'tables configured on all switches' "$lab_dir/osm.log" | tail -n 1 |
		sed 's/.*osm_ucast_mgr_process: //; s/ tables.*//'
}

printf '%-14s %-9s %-24s %-24s %s\n' engine "cold" "1F failure: median (min-max)" "repair: median (min-max)" "routed by (ms)"
for run in fors fors-noverify minhop ftree; do
	engine=${run%-noverify}
	echo "link_holddown_s 0" >"$lab_dir/fors.conf"
	[ "$run" = fors-noverify ] && echo "verify FALSE" >>"$lab_dir/fors.conf"
	lab_opensm "$(lab_first_host)" "$engine" 5
	sleep 3
	cold=$(lab_routing_ms first)
	fail="" repair=""
	for r in $(seq "$reps"); do
		reroute_any 'Unlink "L00"[28]'
		fail="$fail $(lab_routing_ms)"
		reroute_any 'ReLink "L00"[28]'
		repair="$repair $(lab_routing_ms)"
	done
	printf '%-14s %-9s %-28s %-24s %s\n' "$run" "$cold" "$(echo "$fail" | lab_median)" \
		"$(echo "$repair" | lab_median)" "$(used)"
	lab_stop_opensm
done
