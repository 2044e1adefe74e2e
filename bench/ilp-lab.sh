#!/bin/bash
# SPDX-License-Identifier: MIT
# The plugin's time on an ILP cache hit (doc/ilp.md, "Measured"): stock
# OpenSM with fors on the FT(2;20,18) 326-host fabric in the ibsim lab, LMC
# 5. L01-S01 and L02-S02 are cut (a complex class: two impacted planes, one
# cable's worth of bandwidth lost) and relinked REPS times, routed from the
# cache that bench/ilp.sh filled in BENCH_ILP_DIR, then the same with no
# cache, by the native solver. The first cached routing is verified from
# the switches. Prints OpenSM's routing time (lab_routing_ms) and the time
# on fors's own log line, medians with their range.
set -eu
. "$(dirname "$0")/../lab/lab.sh"
reps=${REPS:-5}
out=$(cd "${BENCH_ILP_DIR:-bench-ilp}" 2>/dev/null && pwd) ||
	lab_die "no ${BENCH_ILP_DIR:-bench-ilp}: run make bench-ilp first"
[ -d "$out/cache/scenarios" ] || lab_die "no cache in $out: run make bench-ilp first"
lab_init "$out/lab"
lab_ibsim "$out/lhcb326.net"

# fors's own time, from its last "fors: routed" line
fors_ms() { lab_summary | sed -n 's/.*, \([0-9.]*\) ms, .*/\1/p'; }

# run NAME CONFIG-LINES: REPS cuts and repairs; the cut's method must be $want
run() {
	local name=$1 want=$2 osm="" own="" r
	printf 'link_holddown_s 0\nstate_file %s\n%s' "$lab_dir/fors-state" "$3" >"$lab_dir/fors.conf"
	rm -f "$lab_dir/fors-state"
	lab_opensm "$(lab_first_host)" fors 5
	lab_wait_for "$lab_dir/osm.log" 'fors: routed' 1 || lab_die "$name: no first routing"
	lab_settle
	for r in $(seq "$reps"); do
		lab_reroute 'Unlink "L01"[22]' 'Unlink "L02"[23]'
		lab_settle
		case "$(lab_summary)" in
		*"method $want,"*) ;;
		*) lab_die "$name: expected method $want: $(lab_summary)" ;;
		esac
		osm="$osm $(lab_routing_ms)" own="$own $(fors_ms)"
		if [ "$r" = 1 ] && [ "$want" = ilp ]; then
			lab_verify cached >/dev/null || lab_die "$name: the tables do not verify: see $v"
			echo "verified from the switches: $(tail -n 1 "$v/check-ibroute.txt")"
		fi
		lab_reroute 'ReLink "L01"[22]' 'ReLink "L02"[23]'
		lab_settle
	done
	printf '%-22s OpenSM %-24s fors %s ms\n' "$name" "$(echo "$osm" | lab_median) ms" \
		"$(echo "$own" | lab_median)"
	lab_stop_opensm
}

echo "== the plugin on FT(2;20,18), 326 hosts, L01-S01 and L02-S02 cut, $reps times"
run "from the ILP cache" ilp "ilp_cache $out/cache
ilp_lookup $FORS ilp lookup
"
grep -o 'routed from the ILP cache.*' "$lab_dir/osm.log" | tail -n 1
run "native (no cache)" lec ""
