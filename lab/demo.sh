#!/bin/bash
# SPDX-License-Identifier: MIT
# The main job (make demo): the LHCb event builder as it is cabled, FT(2;20,18)
# with 326 hosts on its 360 ports (leaf 0 full, slots 18 and 19 of the other
# leaves empty), in ibsim, routed by real OpenSM with routing_engine fors at
# LMC 5: healthy, then the paper's nine failure scenarios (bench/scenarios.sh),
# each from the healthy fabric. For each state: f, m, the phases against the
# bound T* (the fewest any schedule can have, doc/schedule.md), the routing
# time, and the verification of what the switches hold (fors check through
# OpenSM's dump and through ibroute).
set -eu
. "$(dirname "$0")/lab.sh"
. "$(dirname "$0")/../bench/scenarios.sh"

lab_init "${DEMO_DIR:-demo}"
absent=$(for l in $(seq 1 17); do printf '%d,%d\n' $((l * 20 + 18)) $((l * 20 + 19)); done | paste -sd, -)
"$FORS" netgen --hosts-per-leaf 20 --leaves 18 --spines 20 --absent "$absent" \
	>"$lab_dir/lhcb.net"
echo "== FT(2;20,18): 18 leaves, 20 spines, 326 hosts on 360 ports; ibsim and OpenSM in $lab_dir"
lab_ibsim "$lab_dir/lhcb.net"
lab_opensm "$(lab_first_host)" fors 5

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
	case $(lab_summary) in
	*" phases (0 split), bound "*) ;;
	*) echo "   NO BOUND IN THE LOG LINE"; failed=1 ;;
	esac
}

# The console commands that cut (Unlink) or mend (ReLink) a scenario's cables.
links() {
	expand_cuts "$2" | while IFS=: read -r l s; do
		echo "$1 $(cable "$l" "$s")"
	done
}

show healthy
mend=()
while IFS='|' read -r name label cuts; do
	[ -n "$cuts" ] || continue
	mapfile -t cut < <(links Unlink "$cuts")
	show "$label" "${mend[@]}" "${cut[@]}"
	mapfile -t mend < <(links ReLink "$cuts")
done <<<"$scenarios"
echo "== logs, dumps and schedules in $lab_dir"
exit $failed
