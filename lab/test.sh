#!/bin/bash
# SPDX-License-Identifier: MIT
# The lab tests (make labcheck, CI): real OpenSM with routing_engine fors on
# ibsim fabrics, through healthy, simple (m <= f) and complex (m > f)
# failure states and back, each verified from what the switches hold; osmtest
# against the fors-routed subnet; a bad configuration file, named through
# event_plugin_options; LMC 1 for 8 planes; the subnet manager's leaf alone;
# a fabric fors declines (OpenSM falls back to minhop); parallel cables at
# LMC 0; a control: minhop's credit loop after a cut, which fors check
# must find; the ILP cache consulted and refused; Aggregation Nodes; an
# NDR-shaped fabric under ibsim limits from LAB_IBSIM_OPTS. LAB_VALGRIND=1 runs
# OpenSM under valgrind memcheck and fails on any error in fors's code.
# LAB_ONLY=FUNCTION runs one test (ilp_cache, flapping, ...).
set -u
. "$(dirname "$0")/lab.sh"
# Long enough to read a staged update's first stage from the switches.
export LAB_STAGE_WAIT_MS=${LAB_STAGE_WAIT_MS:-2000}

fails=0
ok() { echo "PASS: $*"; }
ko() { echo "FAIL: $*"; fails=$((fails + 1)); }

# leaf_port M0 SPINE: the leaf port of a spine's cable in fors netgen's nets.
leaf_port() { echo $(($1 + 1 + $2)); }

state() {
	local st=$1 s0
	shift
	s0=$(grep -c 'fors: staged update' "$lab_dir/osm.log")
	if [ $# -gt 0 ]; then
		lab_reroute "$@"
	fi
	staged=0
	if [ "$(grep -c 'fors: staged update' "$lab_dir/osm.log")" -gt "$s0" ] &&
	   lab_stage_in; then
		stage_tables "$st-stage"
		lab_stage_in && staged=1
	fi
	lab_settle
	stages=$(($(grep -c 'fors: staged update' "$lab_dir/osm.log") - s0))
	if out=$(lab_verify "$st"); then
		ok "$name $st: $(lab_summary) | $out"
	else
		ko "$name $st: $(lab_summary) | $out"
	fi
	[ "${last_dir:-}" != "$lab_dir" ] || transition "$last_state" "$st"
	last_state=$st last_dir=$lab_dir
}

# stage_tables NAME: the fabric and OpenSM's dump while a first stage is
# in. ibroute cannot be used: a first stage leaves some LIDs without a
# route, and the switch LIDs ibroute needs may be among them.
stage_tables() {
	mkdir -p "$lab_dir/$1"
	cp "$lab_dir/opensm-lfts.dump" "$lab_dir/$1/ibroute.txt"
	lab_run ibnetdiscover >"$lab_dir/$1/topology.txt" 2>"$lab_dir/$1/ibnetdiscover.err" ||
		lab_die "ibnetdiscover failed: see $lab_dir/$1/ibnetdiscover.err"
}

# union OLD NEW: fors check --previous on what ibroute read from the
# switches in two states; 0 when a mix of them cannot loop.
union() {
	lab_union "$lab_dir/$2/topology.txt" "$lab_dir/$2/ibroute.txt" \
		"$lab_dir/$1/ibroute.txt" \
		"$(lab_summary | sed -n 's/^routed .* lmc \([0-9]*\):.*/\1/p')" \
		"$lab_dir/$2/union-$1.txt"
}

# transition OLD NEW: every step the switches took between two settled
# states has a union without a loop (doc/routing.md, "Reroutes").
transition() {
	if [ "$stages" -gt "$staged" ]; then
		ko "$name $1 -> $2: $stages staged updates, $staged of them read from the switches"
	elif [ "$staged" = 1 ]; then
		if union "$1" "$2-stage" && union "$2-stage" "$2"; then
			ok "$name $1 -> $2: staged; neither step's union loops$(union "$1" "$2" || echo ', the direct one would')"
		else
			ko "$name $1 -> $2: a staged step's union loops: see $lab_dir/$2*/union-*.txt"
		fi
	elif ! union "$1" "$2"; then
		ko "$name $1 -> $2: the union loops: see $lab_dir/$2/union-$1.txt"
	else
		ok "$name $1 -> $2: one step, its union does not loop"
	fi
}

# fabric NAME M0 M1 SPINES LMC NETGEN-OPTIONS...
fabric() {
	local name=$1 m0=$2 m1=$3 s=$4 lmc=$5
	shift 5
	lab_init "${LAB_DIR:-lab-out}/$name"
	"$FORS" netgen --hosts-per-leaf "$m0" --leaves "$m1" --spines "$s" "$@" \
		>"$lab_dir/net" || lab_die "netgen failed"
	lab_ibsim "$lab_dir/net"
	if [ "${LAB_VALGRIND:-0}" = 1 ]; then
		LAB_TIMEOUT=600 lab_opensm "$(lab_first_host)" fors "$lmc" valgrind \
			--log-file="$lab_dir/valgrind.log" --leak-check=full \
			--fullpath-after=/ --num-callers=30
	else
		lab_opensm "$(lab_first_host)" fors "$lmc"
	fi
	p0=$(leaf_port "$m0" 0) p1=$(leaf_port "$m0" 1) p2=$(leaf_port "$m0" 2)
	state healthy
	# What an application reads: the example of the reader library on the
	# schedule the plugin wrote.
	if "$FORS_PEER" "$lab_dir/healthy/opensm-fors-schedule.dump" 0 0 >"$lab_dir/peer.txt" &&
	   grep -q '^send ' "$lab_dir/peer.txt" && grep -q ', generation 1$' "$lab_dir/peer.txt"; then
		ok "$name fors-sched-peer: $(grep '^send ' "$lab_dir/peer.txt")"
	else
		ko "$name fors-sched-peer: see $lab_dir/peer.txt"
	fi
	if lab_osmtest; then ok "$name osmtest"; else ko "$name osmtest: see $lab_dir/osmtest-*.log"; fi
	state simple "Unlink \"L00\"[$p0]"
	state complex "Unlink \"L01\"[$p1]" "Unlink \"L02\"[$p2]"
	# The last spine loses every cable: gone from OpenSM's subnet, still
	# expected by the plugin's memory, so f counts it.
	local gone=() back=() l
	for l in $(seq 0 $((m1 - 1))); do
		gone+=("Unlink \"L$(printf %02d "$l")\"[$(leaf_port "$m0" $((s - 1)))]")
		back+=("ReLink \"L$(printf %02d "$l")\"[$(leaf_port "$m0" $((s - 1)))]")
	done
	state spine-gone "${gone[@]}"
	case $(lab_summary) in
	*"f 2, m 4,"*) ok "$name spine-gone: counted as failed (f 2, m 4)" ;;
	*) ko "$name spine-gone: expected f 2, m 4: $(lab_summary)" ;;
	esac
	state repaired "ReLink \"L00\"[$p0]" "ReLink \"L01\"[$p1]" "ReLink \"L02\"[$p2]" "${back[@]}"
	if cmp -s "$lab_dir/healthy/ibroute.txt" "$lab_dir/repaired/ibroute.txt"; then
		ok "$name repaired: the switches hold the healthy tables again"
	else
		ko "$name repaired: tables differ from the healthy ones"
	fi
	lab_stop
	if [ "${LAB_VALGRIND:-0}" = 1 ]; then
		valgrind_ours "$lab_dir/valgrind.log" && ok "$name valgrind" ||
			ko "$name valgrind: see $lab_dir/valgrind.log"
	fi
}

# Valgrind error and leak records whose stack passes through fors's code.
valgrind_ours() {
	grep -q 'ERROR SUMMARY' "$1" || return 1
	awk -v top="$lab_top/src/" '
		/^==[0-9]+== *$/ { if (ours) n++; ours = 0; next }
		index($0, top) || index($0, "libfors.so") { ours = 1 }
		END { if (ours) n++; exit n > 0 }' "$1"
}

bad_config() {
	lab_init "${LAB_DIR:-lab-out}/config"
	"$FORS" netgen --hosts-per-leaf 2 --leaves 2 --spines 2 >"$lab_dir/net"
	cat >"$lab_dir/bad.conf" <<EOF
schedule_file relative/path
colour blue
verify maybe
EOF
	lab_ibsim "$lab_dir/net"
	rm -f "$lab_dir/fors.conf"	# no FORS_CONFIG: the options name the file
	LAB_PLUGIN_OPTIONS="other=1,fors_config=$lab_dir/bad.conf" \
		lab_opensm "$(lab_first_host)" fors 1
	lab_wait_for "$lab_dir/osm.log" 'fors: routed' 1 || true
	for m in "bad.conf:1: schedule_file: expected an absolute path, got 'relative/path'; using the default" \
		 "fors: warning: $lab_dir/bad.conf:2: unknown key 'colour' ignored" \
		 "bad.conf:3: verify: expected TRUE or FALSE, got 'maybe'; using the default"; do
		grep -qF "$m" "$lab_dir/osm.log" && ok "config message: $m" ||
			ko "config message missing: $m"
	done
	[ -s "$lab_dir/opensm-fors-schedule.dump" ] && ok "bad config: defaults used, schedule written" ||
		ko "bad config: no schedule in the default place"
	lab_stop
}

# LMC 1 for 8 planes (doc/narrow-lmc.md): two LIDs per host instead of
# eight. Healthy, simple, complex and repaired keep every phase whole; with
# a spine gone too, phases split and the tables still verify.
narrow() {
	fabric ft-8-8-lmc1 8 8 8 1
	local whole
	whole=$(grep -c 'fors: routed FT(2;8,8) lmc 1: .* phases (0 split)' "$lab_dir/osm.log")
	if [ "$whole" -ge 4 ]; then
		ok "ft-8-8-lmc1: $whole routings at LMC 1 with no phase split"
	else
		ko "ft-8-8-lmc1: $whole routings without a split, want 4 or more"
	fi
}

# Two leaves whose live spines are disjoint (issue 34): L00 keeps S00 and
# S01, L01 keeps S02 and S03. fors routes them through L02 and L03 in
# detour phases of their own instead of handing the fabric to minhop;
# every state verified from the switches, the mixes included.
apart() {
	local cut=() back=() c
	lab_init "${LAB_DIR:-lab-out}/apart"
	"$FORS" netgen --hosts-per-leaf 4 --leaves 4 --spines 4 >"$lab_dir/net"
	for c in 0:2 0:3 1:0 1:1; do
		cut+=("Unlink \"L0${c%:*}\"[$(leaf_port 4 "${c#*:}")]")
		back+=("ReLink \"L0${c%:*}\"[$(leaf_port 4 "${c#*:}")]")
	done
	lab_ibsim "$lab_dir/net"
	lab_opensm "$(lab_first_host)" fors 2
	name=apart state healthy
	name=apart state disjoint "${cut[@]}"
	if grep -q 'fors: detours: 32 transfers between leaves without a common live plane' "$lab_dir/osm.log" &&
	   ! grep -q 'fors: cannot route\|minhop tables configured' "$lab_dir/osm.log"; then
		ok "apart: L00 and L01 routed by fors through a third leaf ($(grep -o 'in the last [0-9]* phases, [0-9]* of them added' "$lab_dir/osm.log" | tail -1))"
	else
		ko "apart: no detours, or fors declined: see $lab_dir/osm.log"
	fi
	name=apart state back "${back[@]}"
	lab_stop
}

# The subnet manager's own leaf cut off from every spine: OpenSM sees that
# leaf alone, whose hosts need no uplink (no transfer leaves it), and fors
# routes it instead of handing it to minhop; then the whole fabric again.
alone() {
	local up=() back=() s
	lab_init "${LAB_DIR:-lab-out}/alone"
	"$FORS" netgen --hosts-per-leaf 4 --leaves 4 --spines 4 >"$lab_dir/net"
	for s in 0 1 2 3; do
		up+=("Unlink \"L00\"[$(leaf_port 4 $s)]")
		back+=("ReLink \"L00\"[$(leaf_port 4 $s)]")
	done
	lab_ibsim "$lab_dir/net"
	lab_opensm "$(lab_first_host)" fors 2
	name=alone state cut-off "${up[@]}"
	case "$(lab_summary)" in
	*"3 phases"*) ok "alone: L00 alone routed by fors in 3 phases, the bound for its 4 hosts" ;;
	*) ko "alone: $(lab_summary)" ;;
	esac
	grep -q 'minhop tables configured\|fors: cannot route' "$lab_dir/osm.log" &&
		ko "alone: fors declined, minhop routed: see $lab_dir/osm.log"
	name=alone state back "${back[@]}"
	lab_stop
}

# An NDR-shaped fabric as NVIDIA's switches are cabled: 64-port leaves
# (32 hosts, two cables to each of 16 spines) with their Aggregation Node
# on port 65, three service hosts on a spine, routed at LMC 0: one LID per
# host for 32 planes, no phase split, verified from the switches.
ndr_cabled() {
	name=ndr-cabled
	lab_init "${LAB_DIR:-lab-out}/ndr-cabled"
	"$FORS" netgen --hosts-per-leaf 32 --leaves 8 --spines 16 --cables 2 \
		--aggregation --spine-hosts 3 >"$lab_dir/net" || lab_die "netgen failed"
	lab_ibsim "$lab_dir/net"
	lab_opensm "$(lab_first_host)" fors 0
	state healthy
	# 24 switches reach 256 hosts, 24 switch LIDs, 24 Aggregation Nodes and
	# 3 spine hosts: 24 x 307 pairs, in OpenSM's dump and through ibroute
	if grep -q 'fors: routed FT(2;32,8) lmc 0: f 0, m 0, [0-9]* phases (0 split)' "$lab_dir/osm.log" &&
	   grep -q ' 7368 (switch, LID) pairs, 0 unreachable; .*no credit loop' "$lab_dir/healthy/check-ibroute.txt" &&
	   grep -q ' 7368 (switch, LID) pairs, 0 unreachable; .*no credit loop' "$lab_dir/healthy/check-dump.txt"; then
		ok "ndr-cabled: LMC 0 for 32 planes of parallel cables, no split, Aggregation Nodes and spine hosts reached"
	else
		ko "ndr-cabled: see $lab_dir/osm.log"
	fi
	lab_stop
}

# An NDR-shaped fabric (as many spines as hosts on a leaf) under ibsim
# limits given through LAB_IBSIM_OPTS, as FT(2;32,64) needs them
# (lab/bench-ndr.sh): FT(2;16,16) with 16 spines under limits below ibsim's
# defaults that still fit its 288 nodes, so ibsim must have taken them; fors
# routes it healthy and with the bench's cut (L05-S07), each verified.
ndr_limits() {
	name=ndr-limits
	lab_init "${LAB_DIR:-lab-out}/ndr-limits"
	"$FORS" netgen --hosts-per-leaf 16 --leaves 16 --spines 16 >"$lab_dir/net" ||
		lab_die "netgen failed"
	LAB_IBSIM_OPTS="-N 300 -S 40 -P 2000" lab_ibsim "$lab_dir/net"
	if grep -q '^MaxNetNodes *= 300$' "$lab_dir/ibsim.log" &&
	   grep -q '^MaxNetSwitches *= 40$' "$lab_dir/ibsim.log" &&
	   grep -q '^MaxNetPorts *= 2000$' "$lab_dir/ibsim.log"; then
		ok "ndr-limits: ibsim runs with LAB_IBSIM_OPTS' limits (300 nodes, 40 switches, 2000 ports)"
	else
		ko "ndr-limits: ibsim's limits are not LAB_IBSIM_OPTS': see $lab_dir/ibsim.log"
	fi
	lab_opensm "$(lab_first_host)" fors 2
	state healthy
	state cut "Unlink \"L05\"[$(leaf_port 16 7)]"
	if grep -q 'fors: routed FT(2;16,16) lmc 2: f 0, m 0,' "$lab_dir/osm.log" &&
	   grep -q 'fors: routed FT(2;16,16) lmc 2: f 1, m 1,' "$lab_dir/osm.log"; then
		ok "ndr-limits: fors routed FT(2;16,16) healthy and with L05-S07 cut"
	else
		ko "ndr-limits: no fors routing of FT(2;16,16) healthy and cut: see $lab_dir/osm.log"
	fi
	lab_stop
}

# The schedule generation in the file the plugin wrote.
generation() {
	sed -n '2s/.* generation \([0-9]*\).*/\1/p' "$lab_dir/opensm-fors-schedule.dump"
}

# A cable flapping ten times inside the hold-down changes the schedule
# twice: when it first goes down, and when it has been up for the
# hold-down; OpenSM restarted in between keeps the cable held (state_file).
flapping() {
	local hold=40 cab="\"L00\"[$(leaf_port 4 0)]" g0 i
	lab_init "${LAB_DIR:-lab-out}/flapping"
	"$FORS" netgen --hosts-per-leaf 4 --leaves 4 --spines 4 >"$lab_dir/net"
	printf 'link_holddown_s %s\nstate_file %s\nstage_wait_ms %s\n' $hold \
		"$lab_dir/fors-state" "$LAB_STAGE_WAIT_MS" >"$lab_dir/fors.conf"
	lab_ibsim "$lab_dir/net"
	lab_opensm "$(lab_first_host)" fors 2
	lab_settle
	g0=$(generation)
	for i in 1 2 3 4 5 6 7 8 9 10; do
		lab_reroute "Unlink $cab"
		if [ "$i" = 1 ]; then
			lab_settle
			[ "$(generation)" = $((g0 + 1)) ] ||
				ko "flapping: generation $(generation) after the first cut, want $((g0 + 1))"
		fi
		lab_reroute "ReLink $cab"
	done
	lab_settle
	case "$(lab_summary)" in
	*"cables 0 down 1 held"*) ok "flapping: ten flaps, the cable held: $(lab_summary)" ;;
	*) ko "flapping: expected the cable held: $(lab_summary)" ;;
	esac
	[ "$(generation)" = $((g0 + 1)) ] && ok "flapping: one new generation for ten flaps" ||
		ko "flapping: generation $(generation) after ten flaps, want $((g0 + 1))"
	lab_stop_opensm
	lab_opensm "$(lab_first_host)" fors 2
	lab_wait_for "$lab_dir/osm.log" 'fors: routed' 1 || lab_die "no routing after the restart"
	case "$(lab_summary)" in
	*"cables 0 down 1 held"*"generation $((g0 + 1))"*)
		ok "flapping: after a restart the cable is still held, the generation kept" ;;
	*) ko "flapping: after a restart: $(lab_summary)" ;;
	esac
	"$FORS" status --state "$lab_dir/fors-state" >"$lab_dir/status.txt" 2>&1 &&
		grep -q '"L00"\[5\] - "S00"\[1\]: held (carries data again in [0-9]* s), went down [0-9]* s ago, came back [0-9]* s ago, 10 flaps' \
		"$lab_dir/status.txt" && ok "flapping: fors status: $(grep "^\"" "$lab_dir/status.txt")" ||
		ko "flapping: fors status: $(cat "$lab_dir/status.txt")"
	if lab_wait_for "$lab_dir/osm.log" 'cables 0 down 0 held' 1; then
		lab_settle	# a new up-down order: staged (doc/routing.md)
		[ "$(generation)" = $((g0 + 2)) ] &&
			ok "flapping: back in use after the hold-down, generation $((g0 + 2))" ||
			ko "flapping: back in use, but generation $(generation), want $((g0 + 2))"
	else
		ko "flapping: the held cable never came back: $(lab_summary)"
	fi
	lab_stop
}

# A standby subnet manager that takes over, attached elsewhere, must give
# applications the same schedule and the switches the same tables.
standby() {
	local last
	lab_init "${LAB_DIR:-lab-out}/standby"
	"$FORS" netgen --hosts-per-leaf 4 --leaves 4 --spines 4 --dual 1 --fail 1:2 >"$lab_dir/net"
	lab_ibsim "$lab_dir/net"
	lab_opensm "$(lab_first_host)" fors 2
	lab_settle
	mkdir -p "$lab_dir/first"
	mv "$lab_dir/opensm-fors-schedule.dump" "$lab_dir/opensm-lfts.dump" "$lab_dir/first/"
	lab_stop_opensm
	last=$(sed -n 's/^\(Hca\|Ca\) [0-9]* "\([^"]*\)".*/\2/p' "$lab_dir/fabric.net" | tail -n 1)
	lab_opensm "$last" fors 2
	lab_settle
	if cmp -s "$lab_dir/first/opensm-fors-schedule.dump" "$lab_dir/opensm-fors-schedule.dump" &&
	   cmp -s "$lab_dir/first/opensm-lfts.dump" "$lab_dir/opensm-lfts.dump"; then
		ok "standby: OpenSM on $last writes the schedule and tables OpenSM on $(lab_first_host) wrote, byte for byte"
	else
		ko "standby: outputs differ: see $lab_dir/first and $lab_dir"
	fi
	lab_stop
}

# A state file from another fabric is forgotten, with a line saying so.
foreign_state() {
	lab_init "${LAB_DIR:-lab-out}/foreign"
	"$FORS" netgen --hosts-per-leaf 4 --leaves 4 --spines 4 >"$lab_dir/net"
	"$FORS" netgen --hosts-per-leaf 2 --leaves 2 --spines 2 >"$lab_dir/fors-state"
	printf 'link_holddown_s 0\nstate_file %s\nstage_wait_ms %s\n' \
		"$lab_dir/fors-state" "$LAB_STAGE_WAIT_MS" >"$lab_dir/fors.conf"
	lab_ibsim "$lab_dir/net"
	lab_opensm "$(lab_first_host)" fors 2
	lab_wait_for "$lab_dir/osm.log" 'fors: routed' 1 || true
	if grep -q 'fors: the remembered fabric (state_file) shares no switch with this subnet: forgotten' "$lab_dir/osm.log" &&
	   lab_verify foreign >/dev/null; then
		ok "foreign state file: forgotten, the fabric routed and verified"
	else
		ko "foreign state file: see $lab_dir/osm.log"
	fi
	lab_stop
}

# The control: OpenSM's own minhop after one cut cable has a credit loop,
# and fors check finds it in OpenSM's dump and in what ibroute reads back.
control() {
	lab_init "${LAB_DIR:-lab-out}/control"
	"$FORS" netgen --hosts-per-leaf 4 --leaves 4 --spines 4 >"$lab_dir/net"
	lab_ibsim "$lab_dir/net"
	lab_opensm "$(lab_first_host)" minhop 2
	d=$(grep -c 'SUBNET UP' "$lab_dir/osm.log")
	lab_console "Unlink \"L00\"[$(leaf_port 4 0)]"
	lab_wait_for "$lab_dir/osm.log" 'SUBNET UP' $((d + 1)) || lab_die "no SUBNET UP after the cut"
	lab_wait_for "$lab_dir/osm.log" 'minhop tables configured' 2 || lab_die "minhop did not reroute"
	lab_tables 1F
	local f
	for f in opensm-lfts.dump ibroute.txt; do
		if ! "$FORS" check --topology "$v/topology.txt" --lfts "$v/$f" --lmc 2 \
			>"$v/loops-$f.txt" 2>&1 && grep -q '^  credit loop: ' "$v/loops-$f.txt"; then
			ok "control: minhop's tables after a cut have a credit loop ($f): $(grep '^  credit loop' "$v/loops-$f.txt")"
		else
			ko "control: no credit loop found in minhop's tables ($f): see $v/loops-$f.txt"
		fi
	done
	lab_stop
}

# The ILP cache (doc/ilp.md): a complex scenario routed from a cache that
# CBC precomputed, verified; then a corrupt entry and a world-writable cache,
# each refused with a log line, the native solver routing instead.
ilp_cache() {
	local c cut1 cut2
	lab_init "${LAB_DIR:-lab-out}/ilp"
	"$FORS" netgen --hosts-per-leaf 4 --leaves 4 --spines 4 >"$lab_dir/net"
	c="$lab_dir/ilp-cache"
	rm -rf "$c"
	if ! "$FORS" ilp precompute --reference "$lab_dir/net" --max-failures 2 \
		--cache "$c" >"$lab_dir/precompute.txt" 2>&1; then
		ko "ilp: precompute failed: see $lab_dir/precompute.txt"
		return
	fi
	printf 'link_holddown_s 0\nstate_file %s\nilp_cache %s\nilp_lookup %s ilp lookup\nstage_wait_ms %s\n' \
		"$lab_dir/fors-state" "$c" "$FORS" "$LAB_STAGE_WAIT_MS" >"$lab_dir/fors.conf"
	lab_ibsim "$lab_dir/net"
	lab_opensm "$(lab_first_host)" fors 2
	cut1="Unlink \"L01\"[$(leaf_port 4 1)]" cut2="Unlink \"L02\"[$(leaf_port 4 2)]"
	name=ilp state complex-cached "$cut1" "$cut2"
	case "$(lab_summary)" in
	*"method ilp,"*) grep -q "routed from the ILP cache $c" "$lab_dir/osm.log" &&
		ok "ilp: routed from the cache: $(grep -o 'routed from the ILP cache.*' "$lab_dir/osm.log" | tail -n 1)" ||
		ko "ilp: no log line naming the cache" ;;
	*) ko "ilp: not routed from the cache: $(lab_summary)" ;;
	esac
	for f in "$c"/phases/*; do printf x >>"$f"; done
	ilp_refused corrupt "not used (exit 5"
	rm -rf "$c"
	"$FORS" ilp precompute --reference "$lab_dir/net" --max-failures 2 \
		--cache "$c" >"$lab_dir/precompute2.txt" 2>&1 || ko "ilp: second precompute failed"
	chmod 0777 "$c"
	ilp_refused world-writable "ILP cache $c refused"
	lab_stop
}

# ilp_refused NAME LOG: OpenSM restarted on the same cuts routes natively,
# saying why in its log, and its tables verify.
ilp_refused() {
	lab_stop_opensm
	lab_opensm "$(lab_first_host)" fors 2
	lab_wait_for "$lab_dir/osm.log" 'fors: routed' 1 || lab_die "no routing after the restart"
	name=ilp state "$1"
	if grep -q "$2" "$lab_dir/osm.log" && case "$(lab_summary)" in *"method lec,"*) true ;; *) false ;; esac; then
		ok "ilp $1: refused, routed natively: $(grep -o "$2.*" "$lab_dir/osm.log" | tail -n 1)"
	else
		ko "ilp $1: expected \"$2\" and method lec: $(lab_summary)"
	fi
}

# SHARP Aggregation Nodes behind every switch (fors netgen --aggregation)
# and three service hosts on a spine: OpenSM sees them all as CAs; fors
# routes their LIDs, gives them no slot and names the spine hosts, and the
# checks on what the switches hold reach every one of their LIDs.
aggregation() {
	name=aggregation
	lab_init "${LAB_DIR:-lab-out}/aggregation"
	"$FORS" netgen --hosts-per-leaf 4 --leaves 4 --spines 4 --aggregation \
		--spine-hosts 3 >"$lab_dir/net" || lab_die "netgen failed"
	lab_ibsim "$lab_dir/net"
	lab_opensm "$(lab_first_host)" fors 2
	state healthy
	state cut "Unlink \"L00\"[$(leaf_port 4 0)]"
	# 8 switches reach 16 hosts, 8 Aggregation Nodes and 3 spine hosts
	# (4 LIDs each) and 8 switch LIDs: 8 x 116 pairs
	if grep -q ' 928 (switch, LID) pairs, 0 unreachable;' "$lab_dir/cut/check-ibroute.txt" &&
	   [ "$(grep -c '^Ca.*Aggregation Node' "$lab_dir/cut/topology.txt")" -eq 8 ] &&
	   [ "$(grep -c '^host ' "$lab_dir/cut/opensm-fors-schedule.dump")" -eq 16 ] &&
	   grep -q 'fors: 3 host ports on spines take no part in the exchange, routed for reachability: "V00" on "S00"' "$lab_dir/osm.log"; then
		ok "aggregation: 8 Aggregation Nodes and 3 spine hosts reached from every switch, 16 hosts in the exchange"
	else
		ko "aggregation: see $lab_dir/cut/check-ibroute.txt and $lab_dir/osm.log"
	fi
	lab_stop
}

# Participants: fors.conf names a GUID file that is not there yet (logged;
# every host port takes part), then lists all host ports but H001's and
# H006's: the next heavy sweep schedules 14, and the two left out stay
# reachable from every switch.
participants() {
	name=participants
	lab_init "${LAB_DIR:-lab-out}/participants"
	rm -f "$lab_dir/cn"
	echo "participants $lab_dir/cn" >>"$lab_dir/fors.conf"
	"$FORS" netgen --hosts-per-leaf 4 --leaves 4 --spines 4 >"$lab_dir/net" ||
		lab_die "netgen failed"
	lab_ibsim "$lab_dir/net"
	lab_opensm "$(lab_first_host)" fors 2
	state healthy
	awk '/^Ca/ { d = $0 } /^\[1\]\(/ && d { if (d !~ /"H001"|"H006"/) {
		g = $1; sub(/^\[1\]\(/, "", g); sub(/\).*/, "", g); print "0x" g }
		d = "" }' "$lab_dir/healthy/topology.txt" >"$lab_dir/cn"
	state cut "Unlink \"L00\"[$(leaf_port 4 0)]"
	if grep -q "participants: cannot open $lab_dir/cn" "$lab_dir/osm.log" &&
	   [ "$(grep -c '^host ' "$lab_dir/healthy/opensm-fors-schedule.dump")" -eq 16 ] &&
	   [ "$(wc -l <"$lab_dir/cn")" -eq 14 ] &&
	   [ "$(grep -c '^host ' "$lab_dir/cut/opensm-fors-schedule.dump")" -eq 14 ] &&
	   grep -q 'fors: 14 of the 16 host ports take part in the exchange' "$lab_dir/osm.log"; then
		ok "participants: 16 host ports while the file was missing, then the 14 it lists; all reachable"
	else
		ko "participants: see $lab_dir/cut/check-ibroute.txt and $lab_dir/osm.log"
	fi
	lab_stop
}

if [ -n "${LAB_ONLY:-}" ]; then
	$LAB_ONLY
elif [ "${LAB_VALGRIND:-0}" = 1 ]; then
	fabric ft-4-4-valgrind 4 4 4 2
else
	fabric ft-4-4 4 4 4 2
	fabric ft-8-8-dual 8 8 8 3 --dual 2
	narrow
	bad_config
	apart
	alone
	control
	flapping
	foreign_state
	standby
	ilp_cache
	aggregation
	participants
	ndr_cabled
	ndr_limits
fi
echo "lab: $fails failure(s)"
[ $fails -eq 0 ]
