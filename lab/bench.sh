#!/bin/bash
# SPDX-License-Identifier: MIT
# OpenSM's routing time with fors, minhop and ftree on the same FT(2;20,18)
# LMC 5 lab fabric, healthy and after the paper's 1F failure, read from
# OpenSM's log (lab_routing_ms); side by side. REPS runs per engine.
# Results: doc/performance.md.
set -eu
. "$(dirname "$0")/lab.sh"

reps=${REPS:-3}
lab_init "${BENCH_DIR:-bench-lab}"
"$FORS" netgen --hosts-per-leaf 20 --leaves 18 --spines 20 >"$lab_dir/lhcb.net"
lab_ibsim "$lab_dir/lhcb.net"

# One routing after the console commands given, by whichever engine.
reroute_any() {
	n=$(grep -c 'tables configured on all switches' "$lab_dir/osm.log")
	for c in "$@"; do
		lab_console "$c"
	done
	lab_wait_for "$lab_dir/osm.log" 'tables configured on all switches' $((n + 1)) ||
		lab_die "no rerouting"
	lab_wait_for "$lab_dir/osm.log" 'SUBNET UP' 2 || lab_die "no SUBNET UP"
	sleep 3
}

printf '%-8s %-8s %s\n' engine state "OpenSM routing time, ms (each run)"
for engine in fors minhop ftree; do
	healthy="" failed=""
	for r in $(seq "$reps"); do
		lab_opensm "$(lab_first_host)" "$engine" 5
		healthy="$healthy $(lab_routing_ms)"
		used=$(grep 'tables configured on all switches' "$lab_dir/osm.log" | tail -n 1 | sed 's/.*-> osm_ucast_mgr_process: //; s/ tables.*//')
		reroute_any 'Unlink "L00"[28]'
		failed="$failed $(lab_routing_ms)"
		used1=$(grep 'tables configured on all switches' "$lab_dir/osm.log" | tail -n 1 | sed 's/.*-> osm_ucast_mgr_process: //; s/ tables.*//')
		lab_stop_opensm
		lab_console 'ReLink "L00"[28]'
	done
	printf '%-8s %-8s %s  (routed by %s)\n' "$engine" healthy "$healthy" "$used"
	printf '%-8s %-8s %s  (routed by %s)\n' "$engine" 1F "$failed" "$used1"
done
