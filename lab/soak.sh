#!/bin/bash
# SPDX-License-Identifier: MIT
# The soak (make soakcheck in CI, make soak for the long run; doc/soak.md):
# real OpenSM with routing_engine fors,minhop on an ibsim fat tree, driven
# through many random events chosen by a seeded RNG: a cable cut, several at
# once, a whole spine, a leaf's every uplink, two leaves left without a
# common spine, flapping bursts, repairs of some or all cut cables. The
# plugin runs with a short hold-down, so held cables occur.
#
# After every event, once OpenSM has settled (no sweep for 2 s), what is in
# force is checked:
# - fors routed: fors check of the schedule fors wrote through OpenSM's
#   opensm-lfts.dump, and through what ibroute reads from the switches at
#   the first and last check and whenever SOAK_IBROUTE_EVERY checks or
#   sweeps have passed; with held cables, the transfers must also be
#   delivered with those cables removed from the topology; the cables the
#   plugin counts down and held (log line, state file) must match the fabric;
# - fors declined: the reason must be a documented one and true of the
#   fabric (its cables down, or back within the hold-down and so possibly
#   held), minhop must have routed instead, and a decline that rests on held
#   cables must end (a new routing) once their hold-down has;
# - a sweep between events (a held cable back in use) is checked the same
#   way; after every other event that left cables held, the soak waits for
#   that sweep. Every routing is also checked by the plugin itself before
#   it installs the tables (verify TRUE), which would log "tables not
#   installed".
# - every table set fors installs, first stages of staged updates included
#   (stage_wait_ms 1500), is copied from OpenSM's dump when its sweep ends;
#   at each check, the union of every consecutive pair since the last check
#   must have no credit loop and no forwarding circle (fors check
#   --previous, on the fabric at the check; issue 31). A pair is not
#   checked when minhop routed between them, or when two sweeps ended
#   before the soak could copy the first (counted).
# OpenSM must stay alive (checked after every event); its VmRSS is read
# after every sweep. RSS rule: the baseline is OpenSM's VmRSS after event 20
# (after the last event if there are fewer); the run fails if the VmRSS
# after the last event exceeds it by more than 10% or 2048 kB, whichever is
# larger.
#
# Output in SOAK_DIR: soak.tsv (per event: number, time, kind, detail,
# sweeps, routing, verification, RSS kB), commands.log (every console
# command), routing.log (OpenSM's routing lines), failures.txt, summary.txt,
# and the files of every failed check (ev-NNNN/). Exit 1 on any failure.
#
# Parameters (environment, or the options below):
#   SOAK_EVENTS (--events)     events, default 40
#   SOAK_SEED   (--seed)       RNG seed, default from the clock; the events
#                              depend on the seed and the shape only, so
#                              SOAK_SEED=S SOAK_EVENTS=N replays a run up to
#                              event N (SOAK_DRY=1 prints the events and
#                              their console commands without a lab)
#   SOAK_DIR    (--dir)        output directory, default soak-out
#   SOAK_HOSTS  (--hosts)      hosts per leaf M0, default 8
#   SOAK_LEAVES (--leaves)     leaves M1, default 8
#   SOAK_SPINES (--spines)     spines, default 8
#   SOAK_CABLES (--cables)     cables per leaf-spine pair, default 1
#   SOAK_DUAL   (--dual)       dual-port hosts per even leaf, default 0
#   SOAK_LMC    (--lmc)        default: the least LMC for spines x cables planes
#   SOAK_HOLDDOWN (--holddown) fors.conf link_holddown_s, default 5
#   SOAK_IBROUTE_EVERY (--ibroute-every)  default 10
#   SOAK_KEEP=1                keep every check's files (default: failures only)
set -u
. "$(dirname "$0")/lab.sh"

usage() {
	echo "usage: $0 [--events N] [--seed S] [--dir D] [--hosts M0] [--leaves M1] [--spines S]" >&2
	echo "       [--cables C] [--dual D] [--lmc L] [--holddown SEC] [--ibroute-every N]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	[ $# -ge 2 ] || usage
	case $1 in
	--events) SOAK_EVENTS=$2 ;;
	--seed) SOAK_SEED=$2 ;;
	--dir) SOAK_DIR=$2 ;;
	--hosts) SOAK_HOSTS=$2 ;;
	--leaves) SOAK_LEAVES=$2 ;;
	--spines) SOAK_SPINES=$2 ;;
	--cables) SOAK_CABLES=$2 ;;
	--dual) SOAK_DUAL=$2 ;;
	--lmc) SOAK_LMC=$2 ;;
	--holddown) SOAK_HOLDDOWN=$2 ;;
	--ibroute-every) SOAK_IBROUTE_EVERY=$2 ;;
	*) usage ;;
	esac
	shift 2
done
events=${SOAK_EVENTS:-40}
seed=${SOAK_SEED:-$(($(date +%s) % 100000))}
m0=${SOAK_HOSTS:-8} m1=${SOAK_LEAVES:-8} ns=${SOAK_SPINES:-8} nc=${SOAK_CABLES:-1}
dual=${SOAK_DUAL:-0} hold=${SOAK_HOLDDOWN:-5} ibroute_every=${SOAK_IBROUTE_EVERY:-10}
for v in events seed m0 m1 ns nc dual hold ibroute_every; do
	case ${!v} in '' | *[!0-9]*) echo "soak: $v must be a number, got '${!v}'" >&2; exit 2 ;; esac
done
[ "$m1" -ge 2 ] && [ "$ns" -ge 1 ] && [ "$nc" -ge 1 ] && [ "$m0" -ge 1 ] &&
	[ "$ibroute_every" -ge 1 ] || { echo "soak: bad fabric shape" >&2; exit 2; }
if [ -n "${SOAK_LMC:-}" ]; then
	lmc=$SOAK_LMC
else
	lmc=0
	while [ $((1 << lmc)) -lt $((ns * nc)) ]; do lmc=$((lmc + 1)); done
fi
slack_ms=5000		# a cable may still be held this long after its hold-down
overdue_ms=10000	# a held cable must be back in use (a new routing) by then

# ---------------------------------------------------------------- the model
# Cable c joins leaf cl[c] to spine cs[c] (rank cr[c]); its leaf port is
# M0 + 1 + spine * C + rank (fors netgen). cut: unlinked on ibsim's console.
# live: not cut and in OpenSM's part of the fabric (reachable from L00, where
# OpenSM attaches); fors counts every other cable of the fabric as down.
# ret: when it last became live again (ms), 0 if never down.
ncab=$((m1 * ns * nc))
declare -a cl cs cr cut live ret inl ins
for ((c = 0; c < ncab; c++)); do
	cl[c]=$((c / (ns * nc))) cs[c]=$((c / nc % ns)) cr[c]=$((c % nc))
	cut[c]=0 live[c]=1 ret[c]=0
done
for ((l = 0; l < m1; l++)); do inl[l]=1; done
for ((s = 0; s < ns; s++)); do ins[s]=1; done

leafname() { printf -v LN 'L%02d' "$1"; }
# cable name in messages and the TSV: L03-S05 (L03-S05.1 with parallel cables)
cabname() {
	printf -v CN 'L%02d-S%02d' "${cl[$1]}" "${cs[$1]}"
	[ "$nc" -eq 1 ] || CN="$CN.${cr[$1]}"
}
cabport() { CP=$((m0 + 1 + cs[$1] * nc + cr[$1])); }

stamp() {
	local t=${EPOCHREALTIME/./}
	now=$((t / 1000))
}

# The component of L00 over uncut cables; live and ret follow. visible: 1 if
# OpenSM's part of the fabric changed.
visible=0
recompute() {
	local c l s changed=1 n
	for ((l = 0; l < m1; l++)); do inl[l]=0; done
	for ((s = 0; s < ns; s++)); do ins[s]=0; done
	inl[0]=1
	while [ $changed = 1 ]; do
		changed=0
		for ((c = 0; c < ncab; c++)); do
			[ "${cut[c]}" = 0 ] || continue
			l=${cl[c]} s=${cs[c]}
			if [ "${inl[l]}" = 1 ] && [ "${ins[s]}" = 0 ]; then
				ins[s]=1 changed=1
			elif [ "${ins[s]}" = 1 ] && [ "${inl[l]}" = 0 ]; then
				inl[l]=1 changed=1
			fi
		done
	done
	stamp
	for ((c = 0; c < ncab; c++)); do
		n=0
		[ "${cut[c]}" = 0 ] && [ "${inl[${cl[c]}]}" = 1 ] && n=1
		[ "$n" = "${live[c]}" ] && continue
		live[c]=$n visible=1
		[ "$n" = 0 ] || ret[c]=$now
	done
}

# lab commands, or in a dry run only the model
event_cmds=""
unlink() {
	cabport "$1"
	leafname "${cl[$1]}"
	[ "${SOAK_DRY:-0}" = 1 ] || lab_console "Unlink \"$LN\"[$CP]"
	event_cmds="$event_cmds Unlink:$LN[$CP]"
	cut[$1]=1
	recompute
}
relink() {
	cabport "$1"
	leafname "${cl[$1]}"
	[ "${SOAK_DRY:-0}" = 1 ] || lab_console "ReLink \"$LN\"[$CP]"
	event_cmds="$event_cmds ReLink:$LN[$CP]"
	cut[$1]=0
	recompute
}
pause_ms() { [ "${SOAK_DRY:-0}" = 1 ] || sleep "$(printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)))"; }

# A live cable possibly held at time $2 (ms): back within the hold-down.
maybe_held() {
	[ "${live[$1]}" = 1 ] && [ "${ret[$1]}" -gt 0 ] &&
		[ "$2" -lt $((ret[$1] + hold * 1000 + slack_ms)) ]
}

# ------------------------------------------------------------ the events
# Chosen from the model (which cables are cut) and the RNG only, never from
# timing, so that a seed replays the same events. RANDOM is read only in
# this shell, never in a command substitution.
rnd() { R=$((RANDOM % $1)); }
uncut_list() {
	local c
	U=()
	for ((c = 0; c < ncab; c++)); do [ "${cut[c]}" = 1 ] || U+=("$c"); done
}
cut_list() {
	local c
	K=()
	for ((c = 0; c < ncab; c++)); do [ "${cut[c]}" = 0 ] || K+=("$c"); done
}
cab_of() { CB=$((($1 * ns + $2) * nc + $3)); }

declare -A kinds=()
pick_kind() {
	local budget=$((ncab / 4)) w total=0 k
	cut_list
	if [ ${#K[@]} -eq 0 ]; then
		w="cut:30 multi:20 spine:12 flap:25 isolate:8 partition:5"
	elif [ ${#K[@]} -ge "$budget" ]; then
		w="repair-some:45 repair-all:35 flap:20"
	else
		w="cut:22 multi:12 spine:8 flap:18 isolate:4 partition:3 repair-some:23 repair-all:10"
	fi
	for k in $w; do total=$((total + ${k#*:})); done
	rnd $total
	for k in $w; do
		R=$((R - ${k#*:}))
		if [ $R -lt 0 ]; then
			kind=${k%:*}
			return
		fi
	done
}

# run_event: one random event; sets kind, detail, event_cmds.
run_event() {
	local c n i k s l a b up t
	event_cmds="" detail=""
	pick_kind
	uncut_list
	case $kind in
	cut | multi | spine | isolate | flap | partition)
		[ ${#U[@]} -gt 0 ] || kind=repair-all ;;
	esac
	[ "$kind" != partition ] || [ "$ns" -ge 2 ] || kind=cut
	case $kind in
	cut)
		uncut_list
		rnd ${#U[@]}
		c=${U[R]}
		cabname "$c"
		detail="$CN"
		unlink "$c"
		;;
	multi)
		rnd 3
		n=$((R + 2))
		for ((i = 0; i < n; i++)); do
			uncut_list
			[ ${#U[@]} -gt 0 ] || break
			rnd ${#U[@]}
			c=${U[R]}
			cabname "$c"
			detail="$detail${detail:+,}$CN"
			unlink "$c"
		done
		;;
	spine)
		rnd "$ns"
		s=$R
		n=0
		for ((l = 0; l < m1; l++)); do
			for ((k = 0; k < nc; k++)); do
				cab_of "$l" "$s" "$k"
				[ "${cut[CB]}" = 0 ] || continue
				unlink "$CB"
				n=$((n + 1))
			done
		done
		printf -v detail 'S%02d (%d cables)' "$s" "$n"
		;;
	isolate)
		rnd "$m1"
		l=$R
		n=0
		for ((s = 0; s < ns; s++)); do
			for ((k = 0; k < nc; k++)); do
				cab_of "$l" "$s" "$k"
				[ "${cut[CB]}" = 0 ] || continue
				unlink "$CB"
				n=$((n + 1))
			done
		done
		leafname "$l"
		detail="$LN every uplink ($n cables)"
		;;
	partition)
		# two leaves, one keeps the first half of the spines, the other
		# the rest: no common spine, unless other cuts leave one no uplink
		rnd "$m1"
		a=$R
		rnd $((m1 - 1))
		b=$(((a + 1 + R) % m1))
		rnd $((ns - 1))
		t=$((R + 1))
		for ((s = 0; s < ns; s++)); do
			l=$a
			[ $s -lt $t ] && l=$b
			for ((k = 0; k < nc; k++)); do
				cab_of "$l" "$s" "$k"
				[ "${cut[CB]}" = 0 ] || continue
				unlink "$CB"
			done
		done
		leafname "$a"
		detail="$LN keeps S00-S$(printf %02d $((t - 1)))"
		leafname "$b"
		detail="$detail, $LN keeps S$(printf %02d "$t")-S$(printf %02d $((ns - 1)))"
		;;
	flap)
		uncut_list
		rnd ${#U[@]}
		c=${U[R]}
		rnd 4
		n=$((R + 2))
		rnd 4
		up=1
		[ $R -eq 0 ] && up=0	# a quarter end with the cable down
		for ((i = 0; i < n; i++)); do
			unlink "$c"
			rnd 900
			pause_ms $((R + 100))
			[ $i -eq $((n - 1)) ] && [ $up = 0 ] && break
			relink "$c"
			if [ $i -lt $((n - 1)) ]; then
				rnd 900
				pause_ms $((R + 100))
			fi
		done
		cabname "$c"
		detail="$CN x$n, ends $([ $up = 1 ] && echo up || echo down)"
		;;
	repair-some)
		cut_list
		n=0
		for c in "${K[@]}"; do
			rnd 2
			[ $R -eq 0 ] || continue
			relink "$c"
			n=$((n + 1))
		done
		if [ $n -eq 0 ]; then
			rnd ${#K[@]}
			relink "${K[R]}"
			n=1
		fi
		detail="$n of ${#K[@]}"
		;;
	repair-all)
		cut_list
		for c in "${K[@]}"; do relink "$c"; done
		detail="${#K[@]} cables"
		;;
	esac
	kinds[$kind]=$((${kinds[$kind]:-0} + 1))
}

RANDOM=$seed
if [ "${SOAK_DRY:-0}" = 1 ]; then
	for ((ev = 1; ev <= events; ev++)); do
		visible=0
		run_event
		printf '%d\t%s\t%s\t%s\n' "$ev" "$kind" "$detail" "${event_cmds# }"
	done
	exit 0
fi

# ------------------------------------------------------------ the lab
t_start=$SECONDS
lab_init "${SOAK_DIR:-soak-out}"
S=$lab_dir
rm -rf "$S"/ev-* "$S"/soak.tsv "$S"/failures.txt "$S"/commands.log "$S"/routing.log \
	"$S"/bin "$S"/summary.txt "$S"/tables
mkdir -p "$S/tables"
# The fors binary and the plugin as they are now: a rebuild in the tree
# during the run must not change what is tested.
mkdir -p "$S/bin"
cp "$FORS" "$S/bin/fors" && cp "$FORS_PLUGIN_DIR/libfors.so" "$S/bin/libfors.so" ||
	lab_die "cannot copy fors and libfors.so into $S/bin"
FORS=$S/bin/fors FORS_PLUGIN_DIR=$S/bin
netgen_opts=(--hosts-per-leaf "$m0" --leaves "$m1" --spines "$ns")
[ "$nc" -eq 1 ] || netgen_opts+=(--cables "$nc")
[ "$dual" -eq 0 ] || netgen_opts+=(--dual "$dual")
"$FORS" netgen "${netgen_opts[@]}" >"$S/net" || lab_die "netgen failed"
# After lab_init: a short hold-down, so held cables occur, and a state file.
# A first stage stays 1.5 s, so that the soak can copy it (issue 31).
printf 'link_holddown_s %s\nstate_file %s\nstage_wait_ms 1500\n' "$hold" \
	"$S/fors-state" >"$S/fors.conf"
fabric="FT(2;$m0,$m1) $ns spines x $nc cable(s), dual $dual, LMC $lmc"
echo "soak: seed $seed, $events events, $fabric, hold-down $hold s, in $S"

# Failures by class: verification (fors check, held cables, the plugin's
# bookkeeping, its own verification), decline (undocumented or untrue
# reason, no fallback), stale (a decline for held cables outliving their
# hold-down), other (OpenSM died, did not reroute or settle, tools failed).
rss_max=0
fails=0
declare -A failed=([verification]=0 [decline]=0 [stale]=0 [other]=0)
: >"$S/failures.txt"
fail() {
	fails=$((fails + 1))
	failed[$1]=$((${failed[$1]} + 1))
	echo "FAIL ($1): event $ev: ${*:2}" | tee -a "$S/failures.txt"
}

# OpenSM's log, read incrementally: the routing lines only, into routing.log.
log_off=0
cnt_attempt=0 cnt_routed=0 cnt_decline=0 cnt_notinst=0 cnt_up=0 cnt_minhop=0
last=none last_line="" in_sweep=0 since_outcome_minhop=0 sweep_ok=1
declare -A decl_all=() rel_all=()
cnt_release=0
# The table sets fors installed, for the union checks (issue 31): tab_n
# copied, tab_prev the last one's file ("" when the chain broke), the pairs
# still to check in tables/pairs, tab_fors/tab_stage what this sweep did.
tab_n=0 tab_prev="" tab_fors=0 tab_stage=0 tab_staged=0 tab_missed=0
tab_checked=0 tab_skipped=0 tab_ups=0 tab_last=""
pat="building routing with 'fors'|fors: routed|fors: staged update|fors: cannot route this fabric|fors: tables not installed|fors: verification|-> SUBNET UP|ERRORS DURING INITIALIZATION|minhop tables configured|held cables put back into use early"
poll_log() {
	local size chunk="$S/.chunk" part line r
	size=$(stat -c %s "$lab_dir/osm.log" 2>/dev/null) || return 0
	[ "$size" -gt "$log_off" ] || return 0
	tail -c +$((log_off + 1)) "$lab_dir/osm.log" | head -c $((size - log_off)) >"$chunk"
	size=$(stat -c %s "$chunk")
	if [ -n "$(tail -c 1 "$chunk")" ]; then	# a line still being written
		part=$(tail -n 1 "$chunk" | wc -c)
		size=$((size - part))
		head -c "$size" "$chunk" >"$chunk.1" && mv "$chunk.1" "$chunk"
	fi
	log_off=$((log_off + size))
	while IFS= read -r line; do
		echo "$line" >>"$S/routing.log"
		case $line in
		*"building routing with 'fors'"*)
			cnt_attempt=$((cnt_attempt + 1)) in_sweep=1 ;;
		*"fors: routed "*)
			tab_fors=1
			cnt_routed=$((cnt_routed + 1)) last=routed last_line=$line ;;
		*"fors: staged update"*)
			tab_stage=1 ;;
		*"fors: cannot route this fabric: "*)
			cnt_decline=$((cnt_decline + 1)) last=declined last_line=$line
			since_outcome_minhop=0
			r=$(reason_class "${line#*cannot route this fabric: }")
			decl_all[$r]=$((${decl_all[$r]:-0} + 1)) ;;
		*"fors: tables not installed: "*)
			cnt_notinst=$((cnt_notinst + 1)) last=notinst last_line=$line
			since_outcome_minhop=0
			fail verification "the plugin's own verification failed: ${line#*fors: }" ;;
		*"held cables put back into use early"*)
			# fors could not route with the held cables left out
			cnt_release=$((cnt_release + 1))
			r=$(reason_class "${line#*fors: }")
			r=${r%: held cables put back into use early}
			rel_all[$r]=$((${rel_all[$r]:-0} + 1)) ;;
		*"fors: verification: "*)
			echo "  $line" >>"$S/failures.txt" ;;
		*"minhop tables configured"*)
			tab_fors=0 tab_prev="" tab_ups=0
			cnt_minhop=$((cnt_minhop + 1)) since_outcome_minhop=1 ;;
		*"-> SUBNET UP"* | *"ERRORS DURING INITIALIZATION"*)
			sweep_ok=0
			[ $tab_fors = 0 ] || { tab_ups=$((tab_ups + 1)); tab_last=$tab_stage; }
			tab_fors=0 tab_stage=0
			if [[ $line == *"-> SUBNET UP"* ]]; then
				sweep_ok=1 cnt_up=$((cnt_up + 1))
				r=$(rss)
				[ -z "$r" ] || [ "$r" -le "$rss_max" ] || rss_max=$r
			fi
			in_sweep=0 ;;
		esac
	done < <(grep -a -E "$pat" "$chunk")
	tables_copy
}

# The table set of the sweep that just ended, copied, and its pair with the
# one before queued; two in one read of the log: the first is lost.
tables_copy() {
	local f
	[ $tab_ups -gt 0 ] || return 0
	if [ $tab_ups -gt 1 ]; then
		tab_missed=$((tab_missed + tab_ups - 1)) tab_prev=""
	fi
	tab_ups=0 tab_n=$((tab_n + 1)) tab_staged=$((tab_staged + tab_last))
	f=$S/tables/$tab_n.dump
	cp "$lab_dir/opensm-lfts.dump" "$f" 2>/dev/null || { tab_prev=""; return 0; }
	[ -z "$tab_prev" ] || echo "$tab_prev $f" >>"$S/tables/pairs"
	tab_prev=$f
}

# unions TOPO DIR: the queued pairs' unions on the fabric TOPO; 1 when one
# loops (vmsg says which, and the pair and the check's output are kept in
# DIR).
unions() {
	local a b r=0
	[ -s "$S/tables/pairs" ] || return 0
	while read -r a b; do
		tab_checked=$((tab_checked + 1))
		lab_union "$1" "$b" "$a" "$lmc" "$b.union" && continue
		vmsg="a mix of $(basename "$a") and $(basename "$b") can loop: $(grep -m 1 'loop in the union' "$b.union" || tail -n 1 "$b.union")"
		cp "$a" "$b" "$b.union" "$2/" 2>/dev/null
		r=1
	done <"$S/tables/pairs"
	: >"$S/tables/pairs"
	[ "${SOAK_KEEP:-0}" = 1 ] || [ $r = 1 ] || find "$S/tables" -name '*.dump*' ! -path "$tab_prev" -delete
	return $r
}

# A decline's reason without names: the class counted in the summary.
reason_class() {
	printf '%s\n' "$1" | sed -E 's/"[^"]*" \([^)]*\)/"X"/g'
}

# Log time "Nov 23 19:07:45 865514" of a log line, in ms since the epoch.
line_ms() {
	local s
	set -- $1
	s=$(date -d "$1 $2 $3" +%s 2>/dev/null) || { echo 0; return; }
	echo $((s * 1000 + 10#$4 / 1000))
}

# Until no routing and no sweep for 2 s (OpenSM sweeps every second); 1
# after LAB_TIMEOUT or if OpenSM died.
settle() {
	local sig quiet=0 t=0
	poll_log
	sig="$cnt_attempt $cnt_up"
	while [ $quiet -lt 4 ] || [ $in_sweep = 1 ]; do
		sleep 0.5
		t=$((t + 1))
		[ $t -le $((LAB_TIMEOUT * 2)) ] && alive || return 1
		poll_log
		if [ "$sig" = "$cnt_attempt $cnt_up" ]; then
			quiet=$((quiet + 1))
		else
			sig="$cnt_attempt $cnt_up" quiet=0
		fi
	done
}

# Wait for a routing attempt after $1 attempts, and its sweep to end.
wait_reroute() {
	local t=0
	poll_log
	while [ $cnt_attempt -le "$1" ] || [ $in_sweep = 1 ]; do
		sleep 0.2
		t=$((t + 1))
		[ $t -le $((LAB_TIMEOUT * 5)) ] && alive || return 1
		poll_log
	done
}

opensm_pid() {
	local p=$lab_opensm_pid q
	[ "$(cat /proc/$p/comm 2>/dev/null)" = opensm ] && { echo "$p"; return; }
	for q in $(cat /proc/$p/task/*/children 2>/dev/null); do
		[ "$(cat /proc/$q/comm 2>/dev/null)" = opensm ] && { echo "$q"; return; }
	done
}
alive() {
	[ -n "$osm_pid" ] && [ -r "/proc/$osm_pid/status" ] &&
		! grep -q '^State:[[:space:]]*Z' "/proc/$osm_pid/status"
}
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$osm_pid/status" 2>/dev/null; }

# ------------------------------------------------------------ the checks
# The leaves' GUIDs, from the healthy fabric: GUID -> leaf index.
declare -A leaf_of_guid=()
learn_guids() {
	local g d
	while read -r g d; do
		[[ $d =~ ^L[0-9]+$ ]] && leaf_of_guid[$g]=$((10#${d#L}))
	done < <(sed -n 's/^Switch[[:space:]]*[0-9]* "\([^"]*\)".*# "\([^"]*\)".*/\1 \2/p' "$1")
}

# The cable of a state file line's two ends, into CB; 1 if not a leaf-spine cable.
cable_of_ends() {
	local a=$1 pa=$2 b=$3 pb=$4 l p
	if [ -n "${leaf_of_guid[$a]:-}" ]; then
		l=${leaf_of_guid[$a]} p=$pa
	elif [ -n "${leaf_of_guid[$b]:-}" ]; then
		l=${leaf_of_guid[$b]} p=$pb
	else
		return 1
	fi
	p=$((p - m0 - 1))
	[ $p -ge 0 ] && [ $p -lt $((ns * nc)) ] || return 1
	CB=$((l * ns * nc + p))
}

# The decline's reason must be documented and true of the fabric: every
# cable it needs dead is down or (back within the hold-down) held. held_due:
# when the reason stops being true because held cables are due back (0: it
# stays true, it rests on cables that are down).
decline_true() {
	local reason=$1 t=$2 a b c n x y
	held_due=0
	case $reason in
	'leaf "'*'" ('*') has hosts but no live uplink'*)
		a=${reason#leaf \"}
		a=${a%%\"*}
		[[ $a =~ ^L[0-9]+$ ]] || { why="$a is not a leaf of the net file"; return 1; }
		x=$((10#${a#L}))
		[ "${inl[x]}" = 1 ] || { why="$a is not in OpenSM's subnet"; return 1; }
		for ((c = x * ns * nc; c < (x + 1) * ns * nc; c++)); do
			plane_due "$t" "$c" || { cabname "$c"; why="$CN is up and not held"; return 1; }
		done
		;;
	'"'*'" ('*') and "'*'" ('*'): no chain of live cables joins these leaves'*)
		a=${reason#\"}
		a=${a%%\"*}
		b=${reason#*) and \"}
		b=${b%%\"*}
		[[ $a =~ ^L[0-9]+$ && $b =~ ^L[0-9]+$ ]] || { why="$a or $b is not a leaf of the net file"; return 1; }
		x=$((10#${a#L})) y=$((10#${b#L}))
		[ "${inl[x]}" = 1 ] && [ "${inl[y]}" = 1 ] ||
			{ why="$a or $b is not in OpenSM's subnet"; return 1; }
		joined "$t" "$x" "$y" && { why="live cables join $a and $b (through other leaves)"; return 1; }
		;;
	*)
		why="not a documented reason"
		return 1
		;;
	esac
}
# plane_due T CABLE...: the plane is dead at T if one of its cables is down
# or held; it comes back when its last held cable is due (none if one is
# down); held_due keeps the earliest plane to come back.
# Whether leaf $2 reaches leaf $3 over cables in use at $1 (leaves and
# spines taking turns): fors routes such leaves through a third one.
joined() {
	local t=$1 to=$3 l m s queue=("$2") seen_l=() seen_s=()
	seen_l[$2]=1
	while [ ${#queue[@]} -gt 0 ]; do
		l=${queue[0]} queue=("${queue[@]:1}")
		[ "$l" = "$to" ] && return 0
		for ((s = 0; s < ns; s++)); do
			[ -z "${seen_s[s]}" ] && spine_used "$t" "$l" "$s" || continue
			seen_s[s]=1
			for ((m = 0; m < m1; m++)); do
				[ -z "${seen_l[m]}" ] && [ "${inl[m]}" = 1 ] &&
					spine_used "$t" "$m" "$s" || continue
				seen_l[m]=1
				queue+=("$m")
			done
		done
	done
	return 1
}

# Whether a cable between leaf $2 and spine $3 is in use at $1.
spine_used() {
	local k
	for ((k = 0; k < nc; k++)); do
		plane_due "$1" $((($2 * ns + $3) * nc + k)) || return 0
	done
	return 1
}

plane_due() {
	local t=$1 c due=0
	shift
	for c in "$@"; do
		[ "${live[c]}" = 0 ] && return 0
	done
	for c in "$@"; do
		maybe_held "$c" "$t" || continue
		[ $((ret[c] + hold * 1000)) -le $due ] || due=$((ret[c] + hold * 1000))
	done
	[ $due -gt 0 ] || return 1
	[ $held_due -gt 0 ] && [ $held_due -le $due ] || held_due=$due
}

# The topology without the held cables: the transfers must not need them.
without_held() {
	awk 'FNR == NR { drop[$1 " " $2 " " $3 " " $4] = 1; drop[$3 " " $4 " " $1 " " $2] = 1; next }
	     /^(Switch|Ca|Hca)/ { id = $0; sub(/^[^"]*"/, "", id); sub(/".*/, "", id) }
	     /^\[[0-9]+\]/ {
		p = $1; gsub(/[^0-9]/, "", p)
		r = $0; sub(/^[^"]*"/, "", r); rid = r; sub(/".*/, "", rid)
		rp = r; sub(/^[^"]*"\[/, "", rp); sub(/\].*/, "", rp)
		if ((id " " p " " rid " " rp) in drop) next
	     }
	     { print }' "$1" "$2"
}

# verify_routed DIR: the last routing, from outside. 0 pass, 1 fail, 2 a
# new sweep came in the meantime (check again).
verify_routed() {
	local d=$1 sig="$cnt_attempt $cnt_up" lid ok=0 held_n=0 down_n=0 c line rt
	local -A down_set=()
	held_first_due=0
	rm -rf "$d"
	mkdir -p "$d"
	cp "$lab_dir/opensm-lfts.dump" "$lab_dir/opensm-fors-schedule.dump" "$d/" &&
		cp "$lab_dir/fors-state" "$d/" || { poll_log; [ "$sig" = "$cnt_attempt $cnt_up" ] || return 2; vmsg="cannot copy the dumps"; return 1; }
	printf '%s\n' "$last_line" >"$d/routing.txt"
	lab_run ibnetdiscover >"$d/topology.txt" 2>"$d/ibnetdiscover.err" || ok=1
	if [ "$do_ibroute" = 1 ] && [ $ok = 0 ]; then
		: >"$d/ibroute.txt"
		for lid in $(sed -n 's/^Switch.*# ".*" base port 0 lid \([0-9]*\).*/\1/p' "$d/topology.txt"); do
			lab_run ibroute "$lid" >>"$d/ibroute.txt" 2>>"$d/ibroute.err" || ok=1
		done
	fi
	poll_log
	[ "$sig" = "$cnt_attempt $cnt_up" ] || return 2
	[ $ok = 0 ] || { vmsg="ibnetdiscover or ibroute failed (see $d)"; return 1; }
	[ ${#leaf_of_guid[@]} -gt 0 ] || learn_guids "$d/topology.txt"
	vmsg="dump"
	"$FORS" check --topology "$d/topology.txt" --lfts "$d/opensm-lfts.dump" \
		--schedule "$d/opensm-fors-schedule.dump" >"$d/check-dump.txt" 2>&1 ||
		{ vmsg="fors check of OpenSM's dump: $(tail -n 1 "$d/check-dump.txt")"; return 1; }
	if [ "$do_ibroute" = 1 ]; then
		vmsg="dump+ibroute"
		"$FORS" check --topology "$d/topology.txt" --lfts "$d/ibroute.txt" \
			--schedule "$d/opensm-fors-schedule.dump" >"$d/check-ibroute.txt" 2>&1 ||
			{ vmsg="fors check of ibroute: $(tail -n 1 "$d/check-ibroute.txt")"; return 1; }
	fi
	unions "$d/topology.txt" "$d" || return 1
	# The cables fors counts down and held, against the fabric.
	rt=$(line_ms "$last_line")
	: >"$d/held.txt"
	while read -r line; do
		set -- $line
		local st=$6 ea=${2//\"/} pa=$3 eb=${4//\"/} pb=$5
		cable_of_ends "$ea" "$pa" "$eb" "$pb" || { vmsg="state file: a cable not between a leaf and a spine: $line"; return 1; }
		cabname "$CB"
		case $st in
		down)
			down_n=$((down_n + 1)) down_set[$CB]=1
			[ "${live[CB]}" = 0 ] || { vmsg="fors counts $CN down, it is up"; return 1; } ;;
		held)
			held_n=$((held_n + 1))
			[ "$held_first_due" -gt 0 ] && [ "$held_first_due" -le $(((${10} + hold) * 1000)) ] ||
				held_first_due=$(((${10} + hold) * 1000))
			echo "$ea $pa $eb $pb" >>"$d/held.txt"
			maybe_held "$CB" "$rt" || { vmsg="fors holds $CN, back for longer than the hold-down"; return 1; } ;;
		esac
	done < <(grep '^cable ' "$d/fors-state")
	for ((c = 0; c < ncab; c++)); do
		[ "${live[c]}" = 1 ] || [ -n "${down_set[$c]:-}" ] ||
			{ cabname "$c"; vmsg="$CN is down, fors does not count it down"; return 1; }
	done
	case $last_line in
	*"cables $down_n down $held_n held"*) ;;
	*) vmsg="log line's cables differ from the state file ($down_n down, $held_n held)"; return 1 ;;
	esac
	if [ $held_n -gt 0 ]; then
		vmsg="$vmsg+held"
		without_held "$d/held.txt" "$d/topology.txt" >"$d/topology-noheld.txt"
		"$FORS" check --topology "$d/topology-noheld.txt" --lfts "$d/opensm-lfts.dump" \
			--schedule "$d/opensm-fors-schedule.dump" >"$d/check-noheld.txt" 2>&1
		grep -q ' 0 shared (phase, link) pairs, 0 undelivered,' "$d/check-noheld.txt" ||
			{ vmsg="transfers over held cables: $(tail -n 1 "$d/check-noheld.txt")"; return 1; }
	fi
	return 0
}

# The routing line, short: f 1, m 1, 64 phases, alg2, cables 0 down 1 held, generation 2
short_routing() {
	printf '%s\n' "$1" | sed -E 's/.*fors: routed [^:]*: (f [0-9]+, m [0-9]+, [0-9]+ phases) \(([0-9]+) split\), method ([a-z0-9]+), .*(cables [0-9]+ down [0-9]+ held), .* generation ([0-9]+) .*/\1, \2 split, \3, \4, generation \5/'
}

# After an event or between events: settle, then check what is in force.
# Sets vres (the TSV's verify column) and vrout (its routing column).
checks=0 verified=0 ibroute_checks=0 settled_declines=0 stale=0 ibr_checks="" ibr_sweeps=0
declare -A decl_settled=()
checkpoint() {
	local d tries=0 r reason t
	while :; do
		tries=$((tries + 1))
		if [ $tries -gt 10 ]; then
			fail other "no stable state to verify after 10 tries"
			vres="FAIL unstable" vrout="?"
			return
		fi
		if ! settle; then
			fail other "OpenSM did not settle within ${LAB_TIMEOUT} s (or died)"
			vres="FAIL no settle" vrout="?"
			return
		fi
		# a sweep that ended in errors wrote no dump: OpenSM sweeps again
		if [ $sweep_ok = 0 ]; then
			sleep 1
			continue
		fi
		case $last in
		routed)
			vrout=$(short_routing "$last_line")
			# ibroute at the first and last check, and once
			# ibroute_every checks or sweeps have passed
			do_ibroute=0
			[ -z "$ibr_checks" ] || [ $((checks - ibr_checks)) -ge "$ibroute_every" ] ||
				[ $((cnt_attempt - ibr_sweeps)) -ge "$ibroute_every" ] ||
				[ "$ev" -eq "$events" ] && do_ibroute=1
			d=$(printf '%s/ev-%04d%s' "$S" "$ev" "$1")
			verify_routed "$d"
			r=$?
			[ $r = 2 ] && continue
			checks=$((checks + 1))
			if [ $do_ibroute = 1 ]; then
				ibroute_checks=$((ibroute_checks + 1))
				ibr_checks=$checks ibr_sweeps=$cnt_attempt
			fi
			if [ $r = 0 ]; then
				verified=$((verified + 1))
				vres="pass $vmsg"
				[ "${SOAK_KEEP:-0}" = 1 ] || rm -rf "$d"
			else
				vres="FAIL $vmsg"
				fail verification "$vmsg (files in $d)"
			fi
			return
			;;
		declined)
			reason=${last_line#*cannot route this fabric: }
			vrout="declined: $reason"
			t=$(line_ms "$last_line")
			checks=$((checks + 1))
			if ! decline_true "$reason" "$t"; then
				vres="FAIL decline: $why"
				fail decline "decline not justified: $reason: $why"
				return
			fi
			if [ $since_outcome_minhop = 0 ]; then
				vres="FAIL no fallback"
				fail decline "declined, and minhop did not route after it"
				return
			fi
			if [ $held_due -gt 0 ]; then
				# Held cables are due back: fors must route again then.
				local a=$cnt_attempt
				stamp
				while [ $now -lt $((held_due + overdue_ms)) ] && [ $cnt_attempt = "$a" ]; do
					sleep 0.5
					poll_log
					stamp
				done
				[ $cnt_attempt = "$a" ] || continue
				stale=$((stale + 1))
				vres="FAIL stale decline"
				fail stale "declined for held cables, due back $(((now - held_due) / 1000)) s ago, and no routing since: $reason"
				return
			fi
			settled_declines=$((settled_declines + 1))
			r=$(reason_class "$reason")
			decl_settled[$r]=$((${decl_settled[$r]:-0} + 1))
			vres="decline ok"
			return
			;;
		notinst)
			checks=$((checks + 1))
			vres="FAIL tables not installed" vrout="${last_line#*fors: }"
			return
			;;
		*)
			fail other "no routing by fors yet"
			vres="FAIL" vrout="none"
			return
			;;
		esac
	done
}

tsv() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$S/soak.tsv"
}
printf 'event\ttime\tkind\tdetail\tsweeps\trouting\tverify\trss_kb\n' >"$S/soak.tsv"

summary() {
	local k r status=PASS rss_limit="" grow=""
	echo "== soak summary ($S)"
	echo "seed $seed; $fabric; hold-down $hold s"
	printf 'events: %d of %d:' "$done_events" "$events"
	for k in cut multi spine isolate partition flap repair-some repair-all; do
		printf ' %s %d' "$k" "${kinds[$k]:-0}"
	done
	echo
	echo "sweeps (fors routings attempted): $cnt_attempt: routed $cnt_routed, declined $cnt_decline, tables not installed $cnt_notinst; minhop routed $cnt_minhop"
	echo "checks: $checks after settling: $verified routings verified (fors check of OpenSM's dump; $ibroute_checks also through ibroute), $settled_declines declines verified, $stale stale declines"
	echo "transitions: $tab_n table sets installed by fors ($tab_staged first stages), $tab_checked unions of consecutive sets checked, $tab_missed sets lost to a quick sweep"
	echo "failures: $fails: verification ${failed[verification]}, decline ${failed[decline]}, stale decline ${failed[stale]}, other ${failed[other]}"
	if [ $cnt_release -gt 0 ]; then
		echo "held cables put back into use early (not routable without them): $cnt_release, by reason:"
		for r in "${!rel_all[@]}"; do
			echo "  ${rel_all[$r]}: $r"
		done
	fi
	if [ $cnt_decline -gt 0 ]; then
		echo "declines, by reason (all / in force after settling):"
		for r in "${!decl_all[@]}"; do
			echo "  ${decl_all[$r]} / ${decl_settled[$r]:-0}: $r"
		done
	fi
	if alive; then echo "OpenSM (pid $osm_pid): alive"; else echo "OpenSM (pid $osm_pid): DEAD"; status=FAIL; fi
	if [ -n "$rss_base" ]; then
		rss_limit=$((rss_base + (rss_base / 10 > 2048 ? rss_base / 10 : 2048)))
		if [ "$rss_end" -gt $rss_limit ]; then grow="GROWS beyond the limit"; status=FAIL; else grow="within the limit"; fi
	fi
	echo "OpenSM VmRSS kB: start $rss_start (first routing), baseline $rss_base (event $rss_base_ev), end $rss_end, max $rss_max; limit $rss_limit: $grow"
	echo "duration: $((SECONDS - t_start)) s"
	[ $fails -eq 0 ] || status=FAIL
	echo "soak: $status"
	if [ $status = FAIL ] && [ -s "$S/failures.txt" ]; then
		echo "first failure: $(grep -m 1 '^FAIL' "$S/failures.txt")"
		echo "replay: SOAK_SEED=$seed SOAK_EVENTS=$first_fail_ev SOAK_HOSTS=$m0 SOAK_LEAVES=$m1 SOAK_SPINES=$ns SOAK_CABLES=$nc SOAK_DUAL=$dual SOAK_LMC=$lmc SOAK_HOLDDOWN=$hold $0"
	fi
	[ $status = PASS ]
}

# ------------------------------------------------------------ the run
lab_ibsim "$S/net"
lab_opensm "$(lab_first_host)" fors,minhop "$lmc"
osm_pid=$(opensm_pid)
[ -n "$osm_pid" ] || lab_die "no opensm process under pid $lab_opensm_pid"
echo "soak: opensm pid $osm_pid, ibsim pid $lab_ibsim_pid"
ev=0 done_events=0 first_fail_ev=""
rss_start="" rss_base="" rss_base_ev="" rss_end=""
base_at=$((events < 20 ? events : 20))
lab_wait_for "$lab_dir/osm.log" 'fors: routed' 1 || true
checkpoint ""
rss_start=$(rss) rss_end=$rss_start
[ "$rss_start" -le "$rss_max" ] || rss_max=$rss_start
echo "soak: event 0 (healthy): $vrout | $vres | $rss_start kB"
last_sig="$cnt_attempt $cnt_up"
[ $fails -eq 0 ] || first_fail_ev=0
tsv 0 "$(date +%T)" healthy "" "$cnt_attempt" "$vrout" "$vres" "$rss_start"
[ $base_at -gt 0 ] || { rss_base=$rss_start rss_base_ev=0; }

# between LABEL: check a sweep that came after the last check.
between() {
	checkpoint "-between"
	echo "soak: $1 (after event $((ev - 1))): $((cnt_attempt - a_last)) sweep(s): $vrout | $vres | $(rss) kB"
	tsv "$((ev - 1))+" "$(date +%T)" "($1)" "" $((cnt_attempt - a_last)) "$vrout" "$vres" "$(rss)"
	a_last=$cnt_attempt last_sig="$cnt_attempt $cnt_up"
}

a_last=$cnt_attempt held_first_due=0
for ((ev = 1; ev <= events; ev++)); do
	f0=$fails
	# After every other event that left cables held, wait for the sweep
	# that brings the first back into use (the plugin's timer), and check
	# it; otherwise the next event comes while they are held.
	if [ "$last" = routed ] && [ "$held_first_due" -gt 0 ] && [ $((ev % 2)) -eq 1 ]; then
		stamp
		while [ $cnt_attempt = "$a_last" ] && [ $now -lt $((held_first_due + overdue_ms)) ]; do
			sleep 0.5
			poll_log
			stamp
		done
		if [ $cnt_attempt = "$a_last" ]; then
			fail stale "held cables due back $(((now - held_first_due) / 1000)) s ago, and no routing since"
		else
			between "hold-down ends"
		fi
	fi
	# a sweep since the last check (a held cable back in use): check it too
	poll_log
	[ "$cnt_attempt $cnt_up" = "$last_sig" ] || between "between events"
	a0=$cnt_attempt
	visible=0
	t_ev=$(date +%T.%N | cut -c1-12)
	run_event
	echo "$ev $t_ev $kind:$event_cmds" >>"$S/commands.log"
	if [ $visible = 1 ] && ! wait_reroute "$a0"; then
		fail other "no routing within ${LAB_TIMEOUT} s after: $kind $detail (or OpenSM died)"
	fi
	checkpoint ""
	last_sig="$cnt_attempt $cnt_up" a_last=$cnt_attempt
	if ! alive; then
		fail other "OpenSM (pid $osm_pid) died"
		tsv "$ev" "$(date +%T)" "$kind" "$detail" $((cnt_attempt - a0)) "$vrout" "$vres" "dead"
		done_events=$ev
		[ -n "$first_fail_ev" ] || first_fail_ev=$ev
		break
	fi
	r=$(rss)
	rss_end=$r
	[ "$r" -le "$rss_max" ] || rss_max=$r
	[ "$ev" -ne "$base_at" ] || { rss_base=$r rss_base_ev=$ev; }
	tsv "$ev" "$t_ev" "$kind" "$detail" $((cnt_attempt - a0)) "$vrout" "$vres" "$r"
	echo "soak: event $ev $kind $detail: $((cnt_attempt - a0)) sweep(s): $vrout | $vres | $r kB"
	[ $fails -eq "$f0" ] || [ -n "$first_fail_ev" ] || first_fail_ev=$ev
	done_events=$ev
done
summary | tee "$S/summary.txt"
status=${PIPESTATUS[0]}
lab_stop
exit "$status"
