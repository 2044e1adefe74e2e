#!/bin/bash
# SPDX-License-Identifier: MIT
# Credit loops in the tables OpenSM installs (make bench-loops): on the
# LHCb fabric FT(2;20,18) at LMC 5, OpenSM's routing engines fors, minhop,
# updn and dfsssp, each through the paper's failure scenarios. For every
# (scenario, engine): a fresh OpenSM with that engine on an ibsim fabric
# already in that state, its own opensm-lfts.dump and the fabric read by
# ibnetdiscover, and `fors check --topology --lfts --lmc 5` on them (credit
# loops in one VL, unreachable (switch, LID) pairs); the engine OpenSM really
# used is taken from its log. For fors also the full check with the schedule
# it wrote. Writes doc/credit-loops.md (LOOPS_DOC); everything else stays in
# credit-loops/ (LOOPS_DIR). LOOPS_SCENARIOS and LOOPS_ENGINES select a
# subset (scenario directory names, engine names; a subset run writes its
# report into LOOPS_DIR, not doc/, unless LOOPS_DOC is given).
# LOOPS_REPORT_ONLY=1 rewrites the report from LOOPS_DIR's finished run.
set -eu
# dfsssp at LMC 5 can take long for one routing; lab_opensm waits this many
# seconds for SUBNET UP.
LAB_TIMEOUT=${LAB_TIMEOUT:-900}
. "$(dirname "$0")/../lab/lab.sh"
. "$(dirname "$0")/scenarios.sh"

lmc=5
all_engines="fors minhop updn dfsssp"
engines=${LOOPS_ENGINES:-$all_engines}
out=$(mkdir -p "${LOOPS_DIR:-credit-loops}" && cd "${LOOPS_DIR:-credit-loops}" && pwd)

# Copies of fors and the plugin, taken now: the whole run uses one build,
# even if the tree is rebuilt meanwhile.
snapshot_binaries "$out" "${LOOPS_REPORT_ONLY:-}"

# The scenarios (bench/scenarios.sh): the paper's nine.
selected=${LOOPS_SCENARIOS:-$(scenario_names)}

if [ -n "${LOOPS_DOC:-}" ]; then
	doc=$LOOPS_DOC
elif [ -z "${LOOPS_SCENARIOS:-}" ] && [ "$engines" = "$all_engines" ]; then
	doc=$lab_top/doc/credit-loops.md
else
	doc=$out/credit-loops.md
fi

# cdg_check all|ca TOPO DUMP: the channel dependency graph of an LFT dump,
# built here independently of fors check. "all": fors check's model (every
# switch a source for every LID, CAs sending every LID into their leaf), to
# cross-check its count and verdict; "ca": only what CAs send, followed
# through the tables, which is the graph dfsssp builds (its path walk starts
# across the source port's link, and a switch's port 0 has none). Prints
# DEPS none|loop [CYCLE].
cdg_check() {
	awk -v mode="$1" '
	function hex(s,  i, n) {
		n = 0; s = tolower(s); sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	}
	function ok(x, k) { return k != "" && k != 0 && ((x, k) in peer) }
	function edge(a, b) {
		if ((a, b) in E) return
		E[a, b] = 1; deps++
		np[b]++; pred[b, np[b]] = a
		ns[a]++; succ[a, ns[a]] = b
		indeg[b]++; node[a] = 1; node[b] = 1
	}
	FNR == 1 { f++ }
	f == 1 && /^(Switch|Ca|Hca)/ {
		cur = $0; sub(/^[^"]*"/, "", cur); sub(/".*/, "", cur)
		type[cur] = $1 == "Switch" ? "sw" : "ca"
		d = $0; sub(/^[^#]*# "/, "", d); sub(/".*/, "", d); desc[cur] = d
		next
	}
	f == 1 && /^\[[0-9]+\]/ && cur != "" {
		p = $1; sub(/^\[/, "", p); sub(/\].*/, "", p)
		r = $0; sub(/^[^"]*"/, "", r)
		rid = r; sub(/".*/, "", rid)
		rp = r; sub(/^[^"]*"\[/, "", rp); sub(/\].*/, "", rp)
		peer[cur, p] = rid; peerport[cur, p] = rp
		if (type[cur] == "ca") { leaf[rid] = 1; ca[rid, rp] = cur ":" p }
		next
	}
	f == 2 && /^Unicast lids/ {
		sw = $0; sub(/.*guid 0x/, "", sw); sub(/ .*/, "", sw); sw = "S-" sw
		nsw++; sws[nsw] = sw
		next
	}
	f == 2 && /^0x/ { l = hex($1); lft[sw, l] = $2 + 0; lids[l] = 1 }
	END {
		for (d in lids) {
			d += 0
			if (mode == "all") {
				for (i = 1; i <= nsw; i++) {
					x = sws[i]; k = lft[x, d]
					if (!ok(x, k)) continue
					used[x, k] = 1
					y = peer[x, k]
					if (type[y] != "sw" || !((y, d) in lft)) continue
					if (ok(y, lft[y, d])) edge(x ":" k, y ":" lft[y, d])
				}
				continue
			}
			n = 0
			for (i = 1; i <= nsw; i++) if (sws[i] in leaf) { n++; q[n] = sws[i]; seen[sws[i]] = d }
			for (j = 1; j <= n; j++) {
				x = q[j]; k = lft[x, d]
				if (!ok(x, k)) continue
				used[x, k] = 1
				y = peer[x, k]
				if (type[y] != "sw" || !((y, d) in lft)) continue
				if (ok(y, lft[y, d])) edge(x ":" k, y ":" lft[y, d])
				if (seen[y] != d) { seen[y] = d; n++; q[n] = y }
			}
		}
		# CAs send every LID into their leaf (as fors check models them).
		for (xk in ca) {
			split(xk, a, SUBSEP)
			for (k2 = 1; k2 <= 64; k2++)
				if (k2 != a[2] && ((a[1], k2) in used)) edge(ca[xk], a[1] ":" k2)
		}
		# Kahn: what is left has a cycle.
		n = 0
		for (v in node) if (!indeg[v]) { n++; q[n] = v }
		for (j = 1; j <= n; j++) {
			v = q[j]; done[v] = 1
			for (i = 1; i <= ns[v]; i++) if (--indeg[succ[v, i]] == 0) { n++; q[n] = succ[v, i] }
		}
		for (v in node) if (!(v in done)) break
		if (v == "" || (v in done)) { print deps, "none"; exit }
		# Walk back through predecessors left in the graph until one repeats.
		m = 0
		while (!(v in at)) {
			m++; walk[m] = v; at[v] = m
			for (i = 1; i <= np[v]; i++) if (!(pred[v, i] in done)) break
			v = pred[v, i]
		}
		s = ""
		for (i = m; i >= at[v]; i--) {
			split(walk[i], a, ":")
			s = s "\"" desc[a[1]] "\"[" a[2] "] -> "
			if (i == m) first = desc[a[1]]
		}
		print deps, "loop", s "\"" first "\""
	}' "$2" "$3"
}

# Fields of a fors check summary line: pairs unreachable deps verdict.
check_fields() {
	line=$(grep '(switch, LID) pairs' "$1" | tail -n 1)
	[ -n "$line" ] || {
		echo "- - - error"
		return
	}
	echo "$line" | sed -n 's/.* \([0-9]*\) (switch, LID) pairs, \([0-9]*\) unreachable; \([0-9]*\) channel dependencies, \(.*\)$/\1 \2 \3 \4/p' |
		sed 's/ no credit loop$/ none/; s/ a credit loop$/ loop/'
}

results=$out/results.tsv

# The whole run: every selected scenario and engine, into results.tsv; the
# date, commit and time it took into run.env.
run_all() {
	: >"$results"
	t_start=$(now)
	run_stamp
	total=$(($(echo "$selected" | wc -w) * $(echo "$engines" | wc -w)))
	i=0

	"$FORS" netgen --hosts-per-leaf 20 --leaves 18 --spines 20 >"$out/lhcb.net"
	echo "== FT(2;20,18): 18 leaves, 20 spines, 360 hosts, LMC $lmc; engines: $engines; runs in $out"

	for name in $selected; do
		# A fresh simulator per scenario, its cables cut before any OpenSM
		# runs.
		scenario_lab "$name" "$out/$name" "$out/lhcb.net"

		for eng in $engines; do
			i=$((i + 1))
			osm_route "$eng" "$lab_dir/$eng"
			notes=$(osm_notes "$eng")

			cycle="" sched=""
			if [ $topo_ok = 1 ]; then
				fabric=$(check_state "$e/topology.txt" "$cuts")
				t1=$(now)
				rc=0
				"$FORS" check --topology "$e/topology.txt" --lfts "$e/opensm-lfts.dump" --lmc "$lmc" \
					>"$e/check-tables.txt" 2>"$e/check-tables.err" || rc=$?
				check_fields "$e/check-tables.txt" >"$e/check-fields.txt"
				read -r pairs unr deps verdict <"$e/check-fields.txt"
				ct=$(since "$t1")
				[ $rc -le 1 ] || verdict=error
				cycle=$(sed -n 's/^  \(credit loop: .*\)/\1/p' "$e/check-tables.txt" | head -n 1)
				cdg_check all "$e/topology.txt" "$e/opensm-lfts.dump" >"$e/cdg-all.txt"
				cdg_check ca "$e/topology.txt" "$e/opensm-lfts.dump" >"$e/cdg-ca.txt"
				read -r adeps averdict acycle <"$e/cdg-all.txt"
				read -r cdeps cverdict ccycle <"$e/cdg-ca.txt"
				if [ "$adeps $averdict" = "$deps $verdict" ]; then
					xcheck=same
				else
					xcheck="differs: $adeps $averdict"
					echo "        WARNING: the script's own graph gives $adeps dependencies, $averdict; fors check $deps, $verdict" >&2
				fi
				if [ "$eng" = fors ]; then
					if [ -f "$e/opensm-fors-schedule.dump" ]; then
						rc2=0
						"$FORS" check --schedule "$e/opensm-fors-schedule.dump" --topology "$e/topology.txt" \
							--lfts "$e/opensm-lfts.dump" >"$e/check-schedule.txt" 2>&1 || rc2=$?
						sched=$(grep 'transfers followed' "$e/check-schedule.txt" | tail -n 1 | sed 's/^[^:]*: //')
						[ $rc2 = 0 ] ||
							sched="FAILED (exit $rc2): ${sched:-$(tail -n 1 "$e/check-schedule.txt")}"
					else
						sched="no schedule file"
					fi
				fi
			else
				fabric="-" pairs="-" unr="-" deps="-" verdict="$state" ct="-"
				cdeps="-" cverdict="-" ccycle="" xcheck="-"
			fi
			summary=""
			[ "$eng" != fors ] || summary=$(grep 'fors: routed' "$e/osm.log" | tail -n 1 | sed 's/.*fors: //')
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
				"$name" "$label" "$(describe_cuts "$cuts")" "$eng" "$used" "$tried" "$verdict" \
				"$unr" "$pairs" "$deps" "${ms:--}" "$wall" "$notes" "$cycle" "$summary" "$sched" "$fabric" \
				"$cverdict" "$cdeps" "${ccycle:+credit loop: $ccycle}" "$xcheck" >>"$results"
			printf '[%2d/%d] %-18s %-7s used %-7s %s: %s (CA-sourced: %s), %s/%s unreachable, %s channel dependencies (OpenSM %s s, check %s s, total %s s)%s\n' \
				"$i" "$total" "$label" "$eng" "$used" "${fabric%%,*}" "$verdict" "$cverdict" "$unr" "$pairs" "$deps" \
				"$(awk -v w="$wall" 'BEGIN { printf "%.1f", w }')" "$ct" "$(since "$t_start")" "${notes:+ [$notes]}"
			[ -z "$cycle" ] || echo "        $cycle" | cut -c1-300
			[ -z "$ccycle" ] || echo "        CA-sourced: credit loop: $ccycle" | cut -c1-300
			[ -z "$sched" ] || echo "        fors schedule check: $sched"
		done
		lab_stop
	done
	elapsed=$(since "$t_start")
	printf 'run_date="%s"\ncommit="%s"\nelapsed=%s\n' "$run_date" "$commit" "$elapsed" >"$out/run.env"
}


# The report: results.tsv has one line per (scenario, engine): 1 name,
# 2 label, 3 cut, 4 engine, 5 used, 6 tried, 7 verdict, 8 unreachable,
# 9 pairs, 10 dependencies, 11 OpenSM ms, 12 wall s, 13 notes, 14 cycle,
# 15 fors's log line, 16 schedule check, 17 fabric, 18 CA-sourced verdict,
# 19 its dependencies, 20 its cycle, 21 the cross-check of fors check.
cell() { # engine scenario
	awk -F'\t' -v s="$2" -v e="$1" '$1 == s && $4 == e {
		if ($7 == "none" || $7 == "loop")
			printf "%s (CA: %s); %s/%s; %s; %s", $7, $18, $8, $9, $10, $5
		else
			printf "%s; used %s", $7, $5
		f = 1 }
		END { if (!f) printf "-" }' "$results"
}
# How many runs of engine $1 have a loop, and how many a CA-sourced loop.
loops_of() {
	awk -F'\t' -v e="$1" '$4 == e { n++; if ($7 == "loop") l++; if ($18 == "loop") c++ }
		END { printf "%d %d %d", n, l, c }' "$results"
}
write_report() {
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	cmd="bench/credit-loops.sh"
	[ -z "${MAKELEVEL:-}" ] || cmd="make bench-loops ($cmd)"
	echo "# Credit loops in OpenSM's tables: fors, minhop, updn, dfsssp"
	echo
	echo "Generated by \`$cmd\` on $run_date;"
	echo "machine: $(uname -m), $(nproc) cores, $cpu; OpenSM"
	echo "$(dpkg-query -W -f '${Version}' opensm 2>/dev/null || echo '?'), ibsim $(dpkg-query -W -f '${Version}' ibsim-utils 2>/dev/null || echo '?'); fors at $commit"
	echo "(sha256 of the binaries used: fors $(sha256sum "$FORS" | cut -c1-12), libfors.so"
	echo "$(sha256sum "$FORS_PLUGIN_DIR/libfors.so" | cut -c1-12)). The whole run took $(minsec "$elapsed")."
	echo "Generated: rerun the script (or, for the text alone, LOOPS_REPORT_ONLY=1"
	echo "on the same LOOPS_DIR) rather than editing this file."
	echo
	echo "The LHCb fabric FT(2;20,18) (\`fors netgen --hosts-per-leaf 20 --leaves 18"
	echo "--spines 20\`: leaves L00..L17 = SW0..SW17, spines S00..S19 = SW18..SW37,"
	echo "360 hosts) in ibsim, LMC $lmc. Each scenario gets a fresh ibsim whose"
	echo "cables are cut (\`Unlink\` on its console) before any OpenSM runs; then, per"
	echo "engine, a fresh OpenSM (\`routing_engine <engine>\`, \`event_plugin_name"
	echo "fors\`, as in lab/demo.sh) routes it. Its own \`opensm-lfts.dump\` and the"
	echo "fabric read by \`ibnetdiscover\` (checked to be exactly the scenario's state)"
	echo "go to \`fors check --topology TOPO --lfts opensm-lfts.dump --lmc $lmc\`: every"
	echo "CA LID and LMC offset and every switch LID must be reachable from every"
	echo "switch, and the channel dependency graph over every LID, with every switch"
	echo "and every CA a source, must have no cycle: no credit loop in a single VL."
	echo "The engine OpenSM actually used is the one its log names in \"<engine> tables"
	echo "configured on all switches\": OpenSM falls back to minhop when an engine fails."
	echo
	echo "Each cell: the credit-loop verdict of \`fors check\` (none / loop), and in"
	echo "parentheses the verdict with only CA-sourced packets (see the notes);"
	echo "unreachable (switch, LID) pairs / all pairs; channel dependencies; the engine"
	echo "OpenSM used."
	echo
	table_head '| scenario | cut |' '|---|---|'
	for name in $selected; do
		grep -q "^$name	" "$results" || continue
		printf '| %s | %s |' "$(awk -F'\t' -v s="$name" '$1 == s { print $2; exit }' "$results")" \
			"$(awk -F'\t' -v s="$name" '$1 == s { print $3; exit }' "$results")"
		for eng in $engines; do printf ' %s |' "$(cell "$eng" "$name")"; done
		echo
	done
	echo
	echo "## Per engine and scenario"
	echo
	echo "fors check: its verdict and dependency count; CA-sourced: the same with only"
	echo "what CAs send; OpenSM ms: OpenSM's own routing time from its log"
	echo "(lab_routing_ms); notes: the engines a routing went through when not just the"
	echo "one asked for, dfsssp's own count of the VLs it needs, OpenSM's error."
	echo
	echo "| scenario | engine | used | fors check | unreachable | CA-sourced | OpenSM ms | notes |"
	echo "|---|---|---|---|---|---|---|---|"
	awk -F'\t' '{ printf "| %s | %s | %s | %s, %s deps | %s / %s | %s, %s deps | %s | %s |\n", $2, $4, $5, $7, $10, $8, $9, $18, $19, $11, $13 }' "$results"
	echo
	echo "## Credit loops found"
	echo
	if awk -F'\t' '$14 != "" || $20 != "" { f = 1 } END { exit !f }' "$results"; then
		echo "One cycle of the channel dependency graph per loop, as \`fors check\` prints it"
		echo "(\"switch\"[out port] -> next switch ...); \"CA-sourced\" marks a cycle of the"
		echo "graph of CA-sourced packets only (this script's own graph, same format):"
		echo
		awk -F'\t' '$14 != "" { printf "- %s, %s (used %s): `%s`\n", $2, $4, $5, $14 }
			$20 != "" { printf "- %s, %s (used %s), CA-sourced: `%s`\n", $2, $4, $5, $20 }' "$results"
	else
		echo "None."
	fi
	echo
	if grep -q '	fors	' "$results"; then
		echo "## fors: the full check with its schedule"
		echo
		echo "\`fors check --schedule opensm-fors-schedule.dump --topology TOPO --lfts"
		echo "opensm-lfts.dump\`: every transfer of every phase of the schedule OpenSM's"
		echo "fors wrote, followed through OpenSM's dump."
		echo
		echo "| scenario | fors routed (its log line) | schedule check |"
		echo "|---|---|---|"
		awk -F'\t' '$4 == "fors" { printf "| %s | %s | %s |\n", $2, $15, $16 }' "$results"
		echo
	fi
	echo "## Notes"
	echo
	echo "- In this run, out of each engine's runs, with credit loops in one VL"
	echo "  (every switch a source / CA-sourced packets only):"
	for eng in $engines; do
		set -- $(loops_of "$eng")
		[ "$1" = 0 ] || echo "  $eng $2 / $3 of $1;"
	done | sed '$ s/;$/./'
	echo "- The verdicts are for one virtual lane: the check follows the LFTs only"
	echo "  and does not model SL-to-VL mapping. dfsssp (deadlock-free SSSP) does not"
	echo "  make its LFTs cycle-free by itself: it routes every destination with"
	echo "  Dijkstra, then builds the channel dependency graph of all (source,"
	echo "  destination) LID pairs in VL 0, breaks each cycle by moving the paths over"
	echo "  its weakest link to the next virtual lane, and hands each pair's lane to"
	echo "  applications as the SL of its path record (OpenSM's osm_ucast_dfsssp.c:"
	echo "  dfsssp_remove_deadlocks, get_dfsssp_sl). A loop here for dfsssp is"
	echo "  therefore not by itself a deadlock: it is one only if the cycle's traffic"
	echo "  shares a VL, which dfsssp's SLs are meant to prevent. When dfsssp needs"
	echo "  more VLs than the fabric has, it fails and OpenSM falls back."
	echo "- What dfsssp's graph contains: its path walk (update_channel_dep_graph)"
	echo "  starts across the source port's link, and a switch's port 0 has none, so"
	echo "  packets that switches send themselves add no dependency to it; its graph"
	echo "  is the CA-sourced one, and \"VLs: N needed of M\" (its own log) is what it"
	echo "  concluded from that graph. fors check takes every switch as a source of"
	echo "  every LID as well: LID-routed packets from a switch's port 0 exist (GMP"
	echo "  replies, to the SM's host among others), and in a two-level fat tree a"
	echo "  spine's path to a host behind one of its failed cables, or to another"
	echo "  spine's LID, turns down-up at a leaf. A loop that is gone in the"
	echo "  CA-sourced graph needs such switch-sent packets to close."
	echo "- The CA-sourced verdicts are this script's own: an awk graph built from"
	echo "  the same dump and topology (cdg_check in bench/credit-loops.sh). With"
	echo "  every switch a source, the same code gives"
	echo "  $(awk -F'\t' '$21 == "same" { n++ } $21 != "same" { m++ } END { if (m) printf "a different dependency count or verdict than fors check in %d of %d runs", m, n + m; else printf "exactly fors check'"'"'s dependency count and verdict in all %d runs", n }' "$results")."
	fl=$(awk -F'\t' '$4 == "fors" { n++; if ($7 == "none" && $8 == 0 && $5 == "fors") ok++ }
		END { printf "%d %d", n, ok }' "$results")
	if [ "${fl% *}" -gt 0 ] && [ "${fl% *}" = "${fl#* }" ]; then
		echo "- fors reaches its verdict in a single VL: no credit loop and nothing"
		echo "  unreachable in any of its ${fl% *} runs, with every switch a source, every path"
		echo "  of its tables in VL 0 and no SL to separate them; it needs no extra VL,"
		echo "  and applications keep every VL for their own traffic classes."
	elif [ "${fl% *}" -gt 0 ]; then
		echo "- fors is judged in a single VL like the others, and it does not use SLs"
		echo "  to avoid deadlock: its loops or unreachable pairs above are real."
	fi
	echo "- minhop and updn do not use SLs against deadlock either: their verdicts"
	echo "  hold as they are. The first unreachable pairs of a run are listed in"
	echo "  its check report (\`check-tables.txt\`)."
	echo "- fors has no state file here (the lab's fors.conf), so each OpenSM's fors"
	echo "  meets its state cold, with no remembered healthy fabric: the f and m in"
	echo "  its log line above are what it worked out from the cabling it found."
	echo "- Loops in the mix of old and new tables during a reroute, per engine:"
	echo "  [transitions.md](transitions.md) (\`make bench-transitions\`)."
	echo "- OpenSM ignores the switches' existing LFTs on its first routing, and each"
	echo "  engine here gets a fresh OpenSM, so no engine's tables carry routes left"
	echo "  by the previous one. Logs, dumps, topologies and check reports per"
	echo "  scenario and engine are in \`$(basename "$out")/<scenario>/<engine>/\` of the run."
}

if [ -n "${LOOPS_REPORT_ONLY:-}" ]; then
	finished_run "$out"
else
	run_all
fi
write_report >"$doc"
echo "== $(minsec "$elapsed"); report: $doc; runs in $out"
# fors must route every scenario itself, with no loop, nothing unreachable,
# and its schedule's check passed.
if awk -F'\t' '$4 == "fors" && ($5 != "fors" || $7 != "none" || $8 != 0 || $16 !~ /^[0-9]+ phases/) { f = 1 }
	END { exit !f }' "$results"; then
	echo "== fors: a fallback, a credit loop, unreachable pairs or a failed schedule check: see $doc" >&2
	exit 1
fi
