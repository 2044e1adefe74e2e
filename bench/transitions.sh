#!/bin/bash
# SPDX-License-Identifier: MIT
# Credit loops during reroutes (make bench-transitions, issue 31): one
# OpenSM per engine on ibsim's FT(2;8,8) at LMC 2, through the lab's event
# sequence (healthy, one cut, three cuts, a spine gone, repaired) and a
# second one (a leaf's cables cut one by one and mended), each state
# settled. While OpenSM sends new tables, any switch may forward any LID by
# its old entry or its new one: `fors check --previous` checks the union of
# the tables before and after every transition (OpenSM's own dumps, on the
# fabric as ibnetdiscover reads it after the event). fors installs a
# reroute whose union loops in two steps (doc/routing.md, "Reroutes"):
# its first stage is read from OpenSM's dump while it is in
# (stage_wait_ms 2000), and both steps are checked. Engines: fors, minhop,
# updn, updn with a root_guid_file naming the spines (updnR), ftree,
# dfsssp. Writes doc/transitions.md (TRANS_DOC); the runs stay in
# transitions/ (TRANS_DIR). TRANS_ENGINES selects a subset;
# TRANS_REPORT_ONLY=1 rewrites the report from TRANS_DIR's finished run.
set -eu
LAB_TIMEOUT=${LAB_TIMEOUT:-300}
export LAB_STAGE_WAIT_MS=2000
. "$(dirname "$0")/../lab/lab.sh"
. "$(dirname "$0")/scenarios.sh"

lmc=2 m0=8 m1=8 ns=8
engines=${TRANS_ENGINES:-fors minhop updn updnR ftree dfsssp}
out=$(mkdir -p "${TRANS_DIR:-transitions}" && cd "${TRANS_DIR:-transitions}" && pwd)
doc=${TRANS_DOC:-$lab_top/doc/transitions.md}
snapshot_binaries "$out" "${TRANS_REPORT_ONLY:-}"
results=$out/results.tsv

lport() { echo $((m0 + 1 + $1)); }
leaf() { printf 'L%02d' "$1"; }

# The states, "name|console commands" (commands split by ';').
states() {
	local gone="" back="" l
	for l in $(seq 0 $((m1 - 1))); do
		gone="$gone;Unlink \"$(leaf "$l")\"[$(lport $((ns - 1)))]"
		back="$back;ReLink \"$(leaf "$l")\"[$(lport $((ns - 1)))]"
	done
	echo "healthy|"
	echo "1 cut|Unlink \"L00\"[$(lport 0)]"
	echo "3 cuts|Unlink \"L01\"[$(lport 1)];Unlink \"L02\"[$(lport 2)]"
	echo "spine gone|${gone#;}"
	echo "repaired|ReLink \"L00\"[$(lport 0)];ReLink \"L01\"[$(lport 1)];ReLink \"L02\"[$(lport 2)]$back"
	echo "L03 1 cut|Unlink \"L03\"[$(lport 3)]"
	echo "L03 2 cuts|Unlink \"L03\"[$(lport 4)]"
	echo "L03 3 cuts|Unlink \"L03\"[$(lport 5)]"
	echo "L03 mended|ReLink \"L03\"[$(lport 3)];ReLink \"L03\"[$(lport 4)];ReLink \"L03\"[$(lport 5)]"
}

# Settled: no routing for 3 s and no first stage waiting for its rest.
settle() {
	local n m t=0
	n=$(osm_count 'building routing with|SUBNET UP')
	while sleep 3; m=$(osm_count 'building routing with|SUBNET UP'); [ "$m" != "$n" ] ||
		! osm_routing_done || lab_stage_in; do
		n=$m t=$((t + 3))
		[ $t -le "$LAB_TIMEOUT" ] || return 1
	done
}

# A first stage is in: SUBNET UP after the last staged update, and its rest
# not begun.
stage_up() {
	awk '/fors: staged update/ { up = 0; rest = 0; seen = 1 }
		/SUBNET UP/ { up = 1 }
		/the rest of a staged update/ { rest = 1 }
		END { exit !(seen && up && !rest) }' "$lab_dir/osm.log"
}

# snap DIR: OpenSM's dump and the fabric now.
snap() {
	mkdir -p "$1"
	cp "$lab_dir/opensm-lfts.dump" "$1/lfts.dump"
	lab_run ibnetdiscover >"$1/topology.txt" 2>"$1/ibnetdiscover.err" ||
		lab_die "ibnetdiscover failed: see $1/ibnetdiscover.err"
}

# union OLD NEW: 0 when the union of their dumps, on NEW's fabric, has no
# loop; the verdict line in NEW/union.txt.
union() {
	lab_union "$2/topology.txt" "$2/lfts.dump" "$1/lfts.dump" "$lmc" \
		"$2/union-$(basename "$1").txt"
}

# run ENGINE: one OpenSM through every state.
run() {
	local eng=$1 osm=$1 d prev="" i=0 name cmds s0 staged cmd
	local -a c
	[ "$eng" != updnR ] || osm=updn
	d=$out/$eng
	rm -rf "$d"
	lab_init "$d/lab"
	"$FORS" netgen --hosts-per-leaf $m0 --leaves $m1 --spines $ns >"$lab_dir/net"
	lab_ibsim "$lab_dir/net"
	if [ "$eng" = updnR ]; then
		lab_run ibnetdiscover >"$lab_dir/discovered.txt" 2>&1 ||
			lab_die "ibnetdiscover failed: see $lab_dir/discovered.txt"
		sed -n 's/^Switch.*"S-\([0-9a-f]*\)".*# "S[0-9]*".*/0x\1/p' \
			"$lab_dir/discovered.txt" >"$lab_dir/roots"
		[ -s "$lab_dir/roots" ] || lab_die "no spine GUIDs in $lab_dir/discovered.txt"
		LAB_OPENSM_EXTRA="root_guid_file $lab_dir/roots" opensm_start "$osm"
	else
		opensm_start "$osm"
	fi
	while IFS='|' read -r name cmds; do
		i=$((i + 1))
		s0=$(osm_count 'fors: staged update')
		IFS=';' read -r -a c <<<"$cmds"
		for cmd in "${c[@]}"; do
			lab_console "$cmd"
		done
		staged=""
		if [ "$eng" = fors ] && [ -n "$prev" ]; then
			# the first stage, while it is in
			local t=0
			while [ "$(osm_count 'fors: staged update')" = "$s0" ] && [ $t -lt 40 ]; do
				sleep 0.25
				t=$((t + 1))
			done
			t=0
			while [ "$(osm_count 'fors: staged update')" != "$s0" ] && ! stage_up &&
			      lab_stage_in && [ $t -lt 40 ]; do
				sleep 0.1
				t=$((t + 1))
			done
			if stage_up; then
				snap "$d/$i-stage"
				lab_stage_in && staged=$d/$i-stage
			fi
		fi
		settle || lab_die "$eng: no settled state after $name"
		snap "$d/$i"
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$eng" "$i" "$name" "$(osm_used)" \
			"$(step "$prev" "$d/$i" "$staged" "$s0")" "$prev" >>"$results"
		prev=$d/$i
	done < <(states)
	lab_stop
}

# step PREV CUR STAGE S0: the transition's verdict: "-" for the first
# state; loop/none for one step; for two, both verdicts and the direct one.
step() {
	local v
	[ -n "$1" ] || { echo "-"; return; }
	if [ -n "$3" ]; then
		v=$(union "$1" "$3" && echo none || echo loop)
		v="$v+$(union "$3" "$2" && echo none || echo loop)"
		echo "staged $v (direct: $(union "$1" "$2" && echo none || echo loop))"
	elif [ "$(osm_count 'fors: staged update')" != "$4" ]; then
		echo "staged, first stage not read"
	else
		union "$1" "$2" && echo none || echo loop
	fi
}

# unreachable ENGINE: the most unreachable (switch, LID) pairs in any of
# its settled states' tables, as fors check counted them.
unreachable() {
	cat "$out/$1"/[0-9]/union-*.txt "$out/$1"/[0-9][0-9]/union-*.txt 2>/dev/null |
		sed -n 's/.*fail: \([0-9]*\) unreachable.*/\1/p; s/.* \([0-9]*\) unreachable;.*/\1/p' |
		sort -n | tail -n 1
}

report() {
	local eng
	echo "# Credit loops during reroutes: fors and OpenSM's engines"
	echo
	echo "Generated by \`make bench-transitions\` (bench/transitions.sh) on $run_date;"
	echo "machine: $(uname -m), $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1);"
	echo "OpenSM $(dpkg-query -W -f '${Version}' opensm 2>/dev/null || echo '?'); fors at $commit. Rerun the script rather than editing this file."
	echo
	echo "ibsim's FT(2;8,8) (\`fors netgen --hosts-per-leaf 8 --leaves 8 --spines 8\`),"
	echo "LMC $lmc, one OpenSM per engine through the states below, each settled."
	echo "While OpenSM sends new tables, block by block and switch by switch, any"
	echo "switch may forward any LID by its old entry or its new one. A transition"
	echo "is safe when the union of the two table sets (OpenSM's own dumps) has no"
	echo "cycle in its channel dependency graph and forwards no LID in a circle"
	echo "(\`fors check --previous\`, every switch and CA a source, one VL, on the"
	echo "fabric after the event). fors installs a reroute whose union would loop"
	echo "in two steps (doc/routing.md, \"Reroutes\"): its first stage is read from"
	echo "OpenSM's dump while it is in, and each step is checked; \"direct\" is the"
	echo "union of the tables before and after, as if installed at once. updnR is"
	echo "updn with a \`root_guid_file\` naming the spines."
	echo
	table_head '| transition |' '|---|'
	awk -F'\t' -v list="$engines" '
		BEGIN { n = split(list, E, " ") }
		{ v[$1, $2] = $5 " (" $4 ")"; name[$2] = $3; if ($2 > last) last = $2 }
		END {
			for (i = 2; i <= last; i++) {
				printf "| %s -> %s |", name[i - 1], name[i]
				for (j = 1; j <= n; j++) printf " %s |", v[E[j], i]
				printf "\n"
			}
		}' "$results"
	echo
	echo "Transitions whose union loops (a step of fors's two counts as one"
	echo "transition):"
	echo
	for eng in $engines; do
		awk -F'\t' -v e="$eng" -v u="$(unreachable "$eng")" '$1 == e && $5 != "-" { n++; if ($5 ~ /loop/ && $5 !~ /^staged none\+none/) l++ }
			END { printf "- %s: %d of %d; in its settled tables, at most %s unreachable (switch, LID) pairs\n", e, l, n, u == "" ? "?" : u }' "$results"
	done
	echo
	echo "An engine whose tables never turn down-up (updn with the spines as roots)"
	echo "cannot loop in any mix either, but it buys that with pairs it leaves"
	echo "unreachable: a spine reaches neither the other spines nor the hosts"
	echo "behind its cut cables. fors keeps every pair reachable in its settled"
	echo "tables and gets there in two steps where one would loop; its first stage"
	echo "leaves some pairs without a route for one sweep (doc/routing.md)."
	echo
	echo "In parentheses, the engine OpenSM used (it falls back to minhop when an"
	echo "engine fails). The dumps, fabrics and union reports are in"
	echo "\`$(basename "$out")/<engine>/<state>/\` of the run."
}

if [ -n "${TRANS_REPORT_ONLY:-}" ]; then
	finished_run "$out"
else
	: >"$results"
	t_start=$(now)
	run_stamp
	for eng in $engines; do
		echo "== $eng"
		run "$eng"
		awk -F'\t' -v e="$eng" '$1 == e { printf "   %s: %s (%s)\n", $3, $5, $4 }' "$results"
	done
	printf 'run_date="%s"\ncommit="%s"\n' "$run_date" "$commit" >"$out/run.env"
	echo "== $(minsec "$(since "$t_start")")"
fi
report >"$doc"
echo "== report: $doc"
