#!/bin/bash
# SPDX-License-Identifier: MIT
# The main job (make demo): the LHCb DAQ network FT(2;20,18) in ibsim, routed
# by real OpenSM with routing_engine fors at LMC 5; then the paper's 1F
# scenario (one failed leaf-spine link), then a cable set with m > f (3F on
# leaves 0, 5 and 11, nine spines). For each state: f, m, phases, routing
# time, and the verification of what the switches hold.
set -eu
. "$(dirname "$0")/lab.sh"

lab_init "${DEMO_DIR:-demo}"
"$FORS" netgen --hosts-per-leaf 20 --leaves 18 --spines 20 >"$lab_dir/lhcb.net"
echo "== FT(2;20,18): 18 leaves, 20 spines, 360 hosts; ibsim and OpenSM in $lab_dir"
lab_ibsim "$lab_dir/lhcb.net"
lab_opensm "$(lab_first_host)" fors 5

# Leaf port of spine s in fors netgen's nets: after the 20 host ports.
cable() { echo "\"L$(printf %02d "$1")\"[$((21 + $2))]"; }

failed=0
show() {
	name=$1
	shift
	[ $# -eq 0 ] || lab_reroute "$@"
	lab_settle
	echo "== $name"
	echo "   $(lab_summary)"
	echo "   OpenSM routing time (its log, whole routing): $(lab_routing_ms) ms"
	if out=$(lab_verify "$name"); then
		echo "   verified from the switches (ibroute): ${out#*: }"
	else
		echo "   VERIFICATION FAILED: $out"
		failed=1
	fi
}

show healthy
show 1F "Unlink $(cable 0 7)"
set -- "ReLink $(cable 0 7)"
for f in 0:0 0:1 0:2 5:3 5:4 5:5 11:6 11:7 11:8; do
	set -- "$@" "Unlink $(cable "${f%:*}" "${f#*:}")"
done
show 3F-SW0-5-11 "$@"
echo "== logs, dumps and schedules in $lab_dir"
exit $failed
