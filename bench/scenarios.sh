# SPDX-License-Identifier: MIT
# The paper's failure scenarios on the ibsim lab, and real OpenSM routing
# each of them with one engine at a time: sourced (after lab/lab.sh) by
# bench/credit-loops.sh (make bench-loops) and bench/compare (make
# bench-compare). The fabric is fors netgen's FT(2;20,18): leaves L00..L17
# = the paper's SW0..SW17, spines S00..S19 = SW18..SW37, the cable to spine
# s on leaf port 21 + s.

# name|label|cuts: a cut is LEAF:SPINE (leaf port 21 + SPINE, see cable) or
# @SPINE (all 18 cables of that spine). Leaves SW0..SW17 are L00..L17,
# spines SW18..SW37 are S00..S19. Numbered as in the paper's Fig. 2 and
# Section 3.1.
scenarios='0F|0F|
1F-SW0|1F SW0|0:7
2F-SW0|2F SW0|0:7 0:13
3F-SW0|3F SW0|0:7 0:13 0:18
1F-SW0-5-11|1F SW0,5,11|0:0 5:1 11:2
2F-SW0-5-11|2F SW0,5,11|0:0 0:1 5:2 5:3 11:4 11:5
3F-SW0-5-11|3F SW0,5,11|0:0 0:1 0:2 5:3 5:4 5:5 11:6 11:7 11:8
dead-SW18-19|SW18,19 dead|@0 @1
dead-SW18-19-22-23|SW18,19,22,23 dead|@0 @1 @4 @5'

# Every scenario's name, one a line.
scenario_names() { echo "$scenarios" | cut -d'|' -f1; }

# Leaf port of spine s in fors netgen's nets: after the 20 host ports.
cable() { echo "\"L$(printf %02d "$1")\"[$((21 + $2))]"; }

# The cuts with every @SPINE expanded, one LEAF:SPINE per line.
expand_cuts() {
	for c in $1; do
		case $c in
		@*) for l in $(seq 0 17); do echo "$l:${c#@}"; done ;;
		*) echo "$c" ;;
		esac
	done
}

# The cuts as the doc shows them: L00-S07, ... or S00, S01 (all cables).
describe_cuts() {
	d=""
	for c in $1; do
		case $c in
		@*) d="$d, S$(printf %02d "${c#@}")" ;;
		*) d="$d, L$(printf %02d "${c%:*}")-S$(printf %02d "${c#*:}")" ;;
		esac
	done
	d=${d#, }
	case $1 in
	@*) d="$d: every cable" ;;
	"") d="none" ;;
	esac
	echo "$d"
}

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
minsec() { awk -v s="$1" 'BEGIN { printf "%d min %d s", s / 60, s % 60 }'; }

# Copies of fors and the plugin into OUT/bin, taken now (unless REPORT_ONLY
# is set): the whole run uses one build, even if the tree is rebuilt
# meanwhile. FORS and FORS_PLUGIN_DIR point at them.
snapshot_binaries() {
	if [ -z "$2" ]; then
		mkdir -p "$1/bin"
		cp "$FORS" "$1/bin/fors"
		cp "$FORS_PLUGIN_DIR/libfors.so" "$1/bin/libfors.so"
	fi
	FORS=$1/bin/fors
	FORS_PLUGIN_DIR=$1/bin
}

# table_head FIRST RULE: a Markdown table's head, FIRST's columns then one
# per engine of $engines; RULE the first columns' rule.
table_head() {
	local eng
	printf '%s' "$1"
	for eng in $engines; do printf ' %s |' "$eng"; done
	echo
	printf '%s' "$2"
	for eng in $engines; do printf -- '---|'; done
	echo
}

# The run_date and commit of OUT's finished run, for a report rewritten
# without running again.
finished_run() {
	[ -f "$1/run.env" ] || lab_die "$1: no finished run to report on"
	. "$1/run.env"
}

# run_date and commit of a run about to start.
run_stamp() {
	run_date=$(date -u '+%Y-%m-%d %H:%M UTC')
	commit=$(git -C "$lab_top" rev-parse --short HEAD 2>/dev/null || echo unknown)
	[ -z "$(git -C "$lab_top" status --porcelain 2>/dev/null)" ] || commit="$commit with uncommitted changes"
}

# Matching lines in OpenSM's log; 0 when none (grep -c fails then).
osm_count() { grep -c -E "$1" "$lab_dir/osm.log" || true; }

# The last routing in the log has ended: SUBNET UP, or OpenSM's errors,
# after its last "building routing with".
osm_routing_done() {
	awk '/building routing with/ { open = 1 }
		/SUBNET UP|ERRORS DURING INITIALIZATION/ { open = 0 }
		END { exit open }' "$lab_dir/osm.log"
}

# Until the last routing has ended and a few sweeps (sweep_interval 1) pass
# without another: like lab_settle, for any engine.
osm_settle() {
	t=0
	n=$(osm_count 'building routing with|tables configured on all switches|SUBNET UP')
	while :; do
		sleep 3
		t=$((t + 3))
		m=$(osm_count 'building routing with|tables configured on all switches|SUBNET UP')
		if [ "$m" = "$n" ] && osm_routing_done; then
			return 0
		fi
		[ $t -le "$LAB_TIMEOUT" ] || return 1
		n=$m
	done
}

# The engines OpenSM's last routing tried, in order, and the one whose tables
# it configured (osm_ucast_mgr_process: "<engine> tables configured on all
# switches"); "none" when no engine routed.
osm_tried() {
	awk '/building routing with/ {
			if (!open) seq = ""
			open = 1
			e = $0; sub(/.*building routing with ./, "", e); sub(/. routing algorithm.*/, "", e)
			seq = seq (seq == "" ? "" : ",") e
		}
		/tables configured on all switches|No routing engine able/ { open = 0 }
		END { print seq == "" ? "none" : seq }' "$lab_dir/osm.log"
}
osm_used() {
	u=$(grep 'tables configured on all switches' "$lab_dir/osm.log" | tail -n 1 |
		sed 's/.*osm_ucast_mgr_process: //; s/ tables configured.*//')
	echo "${u:-none}"
}

# opensm_start ENGINE [LMC]: lab_opensm dies when SUBNET UP never comes;
# here that is a result to record (the engine could not route), so lab_die
# returns while it starts. LMC defaults to $lmc.
opensm_start() {
	lab_die() { echo "lab: $*" >&2; return 1; }
	r=0
	lab_opensm "$(lab_first_host)" "$1" "${2:-$lmc}" || r=$?
	lab_die() { echo "lab: $*" >&2; exit 1; }
	return $r
}

# Stop this engine's OpenSM, and forget its PID so that lab_stop at the end
# of the scenario cannot hit a process that reused it.
opensm_stop() {
	lab_stop_opensm
	lab_pids=$(echo " $lab_pids " | sed "s/ $lab_opensm_pid / /; s/^ *//; s/ *$//")
}

# The leaf-spine cables of an ibnetdiscover topology, one "Lxx port Syy" a
# line, seen from the leaves.
leaf_spine_links() {
	awk '/^(Switch|Ca|Hca)/ { sw = $0; sub(/^[^#]*# "/, "", sw); sub(/".*/, "", sw); if ($1 != "Switch") sw = ""; next }
		sw ~ /^L[0-9]+$/ && /^\[[0-9]+\]/ {
			r = $0; sub(/^[^#]*# "/, "", r); sub(/".*/, "", r)
			if (r ~ /^S[0-9]+$/) { p = $1; gsub(/[][]/, "", p); print sw, p, r }
		}' "$1"
}

# check_state TOPO CUTS [CAS]: the topology must be FT(2;20,18) with CAS
# host ports (360 when not given) minus exactly the scenario's cuts (and the
# dead spines' switches): else the tables belong to another state.
check_state() {
	topo=$1 cuts=$2 ncas=${3:-360}
	ncut=$(expand_cuts "$cuts" | grep -c . || true)
	ndead=$(echo "$cuts" | tr ' ' '\n' | grep -c '^@' || true)
	links=$(leaf_spine_links "$topo" | wc -l)
	sws=$(grep -c '^Switch' "$topo" || true)
	cas=$(grep -c -E '^(Ca|Hca)' "$topo" || true)
	bad=$(leaf_spine_links "$topo" | awk '{ if ($2 != 21 + substr($3, 2)) print }')
	[ "$links" -eq $((360 - ncut)) ] && [ "$sws" -eq $((38 - ndead)) ] &&
		[ "$cas" -eq "$ncas" ] && [ -z "$bad" ] ||
		lab_die "$topo: $sws switches, $cas CAs, $links leaf-spine cables; expected $((38 - ndead)), $ncas, $((360 - ncut)) ($bad)"
	for c in $(expand_cuts "$cuts"); do
		l=$(printf L%02d "${c%:*}")
		p=$((21 + ${c#*:}))
		! leaf_spine_links "$topo" | grep -q "^$l $p " ||
			lab_die "$topo: $l[$p] should be cut"
	done
	echo "$sws switches, $links leaf-spine cables"
}

# scenario_lab NAME DIR NETFILE: a fresh simulator of NETFILE in DIR with
# scenario NAME's cables cut before any OpenSM runs; sets label and cuts.
# ibsim prints its prompt once ready and once per command.
scenario_lab() {
	spec=$(echo "$scenarios" | awk -F'|' -v n="$1" '$1 == n')
	[ -n "$spec" ] || lab_die "unknown scenario $1"
	label=$(echo "$spec" | cut -d'|' -f2)
	cuts=$(echo "$spec" | cut -d'|' -f3)

	lab_init "$2"
	lab_ibsim "$3"
	n=1
	for c in $(expand_cuts "$cuts"); do
		lab_console "Unlink $(cable "${c%:*}" "${c#*:}")"
		n=$((n + 1))
	done
	t=0
	while [ "$(grep -o 'sim>' "$lab_dir/ibsim.log" | wc -l)" -lt $n ]; do
		t=$((t + 1))
		[ $t -le 300 ] || lab_die "ibsim did not take the cuts: see $lab_dir/ibsim.log"
		sleep 0.2
	done
	echo "== $label: cut $(describe_cuts "$cuts")"
}

# osm_route ENGINE DIR [LMC]: a fresh OpenSM with routing_engine ENGINE on
# the scenario's simulator, until its routing has settled; then into DIR
# (emptied first) its opensm-lfts.dump (and fors's schedule, when ENGINE is
# fors), the fabric as ibnetdiscover reads it (topology.txt), its log and
# configuration. Sets e (DIR), state ("routed" or why not), used, tried,
# routings, ms (OpenSM's routing time from its log), topo_ok (1 when DIR
# holds a dump and a topology) and wall (seconds it all took).
osm_route() {
	e=$2
	rm -rf "$e"
	mkdir -p "$e"
	rm -f "$lab_dir"/*.dump
	t0=$(now)
	state=routed
	if ! opensm_start "$1" "${3:-$lmc}"; then
		state="no SUBNET UP within ${LAB_TIMEOUT} s"
	elif ! osm_settle; then
		state="routing did not settle within ${LAB_TIMEOUT} s"
	fi
	used=$(osm_used)
	tried=$(osm_tried)
	routings=$(osm_count 'tables configured on all switches')
	ms=$(lab_routing_ms)
	topo_ok=0
	if [ "$state" = routed ] && [ -f "$lab_dir/opensm-lfts.dump" ]; then
		cp "$lab_dir/opensm-lfts.dump" "$e/"
		[ "$1" != fors ] || [ ! -f "$lab_dir/opensm-fors-schedule.dump" ] ||
			cp "$lab_dir/opensm-fors-schedule.dump" "$e/"
		if lab_run ibnetdiscover >"$e/topology.txt" 2>"$e/ibnetdiscover.err"; then
			topo_ok=1
		else
			state="ibnetdiscover failed"
		fi
	elif [ "$state" = routed ]; then
		state="no opensm-lfts.dump"
	fi
	opensm_stop
	cp "$lab_dir/osm.log" "$lab_dir/opensm.conf" "$e/"
	cp "$lab_dir/opensm.out" "$e/" 2>/dev/null || true
	[ ! -f "$lab_dir/fors.conf" ] || cp "$lab_dir/fors.conf" "$e/"
	wall=$(since "$t0")
}

# osm_notes ENGINE: after osm_route, what the report says of the routing:
# the engines it went through when not just ENGINE, how many routings,
# dfsssp's own count of the VLs it needs, OpenSM's last error when another
# engine routed.
osm_notes() {
	notes=""
	[ "$tried" = "$1" ] || notes="tried $tried"
	[ "$routings" -le 1 ] || notes="${notes:+$notes; }$routings routings, the last one checked"
	if [ "$1" = dfsssp ]; then
		vls=$(sed -n 's/.*Virtual Lanes \(available\|needed\): \([0-9]*\).*/\1 \2/p' "$e/osm.log" | tail -n 2 | tr '\n' ' ')
		[ -z "$vls" ] || notes="${notes:+$notes; }VLs: $(echo "$vls" | sed 's/ *$//; s/available \([0-9]*\) needed \([0-9]*\)/\2 needed of \1/')"
	fi
	if [ "$used" != "$1" ]; then
		err=$(grep -E 'ERR [0-9A-F]{4}' "$e/osm.log" | grep -v -i 'umad\|sim' | tail -n 1 | sed 's/.*ERR /ERR /' | tr '\t|' '  ')
		[ -z "$err" ] || notes="${notes:+$notes; }$err"
	fi
	echo "$notes"
}
