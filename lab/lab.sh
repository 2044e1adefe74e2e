# SPDX-License-Identifier: MIT
# The ibsim lab, sourced by lab/demo.sh, lab/test.sh and lab/bench.sh: a
# simulated fabric (ibsim), the real opensm on it through ibsim's
# libumad2sim.so, failures injected on ibsim's console, and what OpenSM
# installed read back and verified. Only processes started here are
# stopped, by PID; ibsim talks over a local socket named for this lab.
# See doc/lab.md.

lab_top=$(cd "$(dirname "$0")/.." && pwd)
FORS=${FORS:-$lab_top/src/cli/fors}
FORS_PLUGIN_DIR=${FORS_PLUGIN_DIR:-$lab_top/.libs}
FORS_PEER=${FORS_PEER:-$lab_top/examples/fors-sched-peer}
LAB_TIMEOUT=${LAB_TIMEOUT:-120}
lab_pids=""

lab_die() {
	echo "lab: $*" >&2
	exit 1
}

lab_umad2sim() {
	if [ -n "${UMAD2SIM:-}" ]; then
		echo "$UMAD2SIM"
		return
	fi
	dpkg -L libumad2sim0 2>/dev/null | grep '/libumad2sim\.so$' | head -n 1
}

# lab_init DIR: a fresh lab directory; everything runs and is written there.
lab_init() {
	lab_dir=$(mkdir -p "$1" && cd "$1" && pwd)
	rm -rf "$lab_dir"/sys-* "$lab_dir"/osm.log "$lab_dir"/*.dump "$lab_dir"/fors.conf \
		"$lab_dir"/fors-state "$lab_dir"/cache
	lab_preload=$(lab_umad2sim)
	[ -f "$lab_preload" ] || lab_die "libumad2sim.so not found: apt-get install libumad2sim0 (or set UMAD2SIM)"
	[ -x "$FORS" ] || lab_die "$FORS not built: run ./bootstrap"
	[ -f "$FORS_PLUGIN_DIR/libfors.so" ] || lab_die "$FORS_PLUGIN_DIR/libfors.so not built"
	# Every state is routed as it is: the hold-down has a test of its own.
	# A staged update's first stage stays LAB_STAGE_WAIT_MS (fors's default
	# unless set), long enough for lab/test.sh to read it.
	printf 'link_holddown_s 0\nstage_wait_ms %s\n' "${LAB_STAGE_WAIT_MS:-100}" \
		>"$lab_dir/fors.conf"
	export IBSIM_SOCKNAME="fors-lab-$$"
	trap lab_stop EXIT
	trap 'exit 130' INT TERM
}

# Newest first: OpenSM must leave before the simulator it talks to.
lab_stop() {
	for p in $lab_pids; do
		lab_kill "$p"
	done
	lab_pids=""
}

lab_kill() {
	kill "$1" 2>/dev/null || return 0
	t=0
	while kill -0 "$1" 2>/dev/null && [ $t -lt 50 ]; do
		sleep 0.2
		t=$((t + 1))
	done
	kill -9 "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

# Wait until file $1 matches the extended regexp $2 at least $3 times; a
# file not yet created counts no match.
lab_wait_for() {
	t=0
	while [ "$(cat "$1" 2>/dev/null | grep -c -E "$2")" -lt "$3" ]; do
		t=$((t + 1))
		[ $t -le $((LAB_TIMEOUT * 5)) ] || return 1
		sleep 0.2
	done
}

# lab_ibsim NETFILE: the simulator, its console fed from a FIFO that a
# holder keeps open (ibsim spins on a closed stdin).
lab_ibsim() {
	cp "$1" "$lab_dir/fabric.net"
	rm -f "$lab_dir/console"
	mkfifo "$lab_dir/console"
	sleep 2147483647 >"$lab_dir/console" &
	lab_pids="$! $lab_pids"
	# LAB_IBSIM_OPTS: ibsim's limits for big fabrics (-N nodes, -S
	# switches, -P ports: FT(2;32,64) needs -N 2200).
	# shellcheck disable=SC2086
	(cd "$lab_dir" && exec ibsim ${LAB_IBSIM_OPTS:-} -s fabric.net <console >ibsim.log 2>&1) &
	lab_ibsim_pid=$!
	lab_pids="$! $lab_pids"
	lab_wait_for "$lab_dir/ibsim.log" 'sim>' 1 ||
		lab_die "ibsim did not start: see $lab_dir/ibsim.log"
}

# The first host of the lab's net file: where OpenSM attaches.
lab_first_host() {
	sed -n 's/^\(Hca\|Ca\) [0-9]* "\([^"]*\)".*/\2/p' "$lab_dir/fabric.net" | head -n 1
}

# lab_console 'Unlink "L00"[21]': one command on ibsim's console.
lab_console() {
	printf '%s\n' "$1" >"$lab_dir/console"
}

lab_run() {
	(cd "$lab_dir" && SIM_HOST=$lab_sim_host LD_PRELOAD=$lab_preload "$@")
}

# lab_opensm HOST ENGINE LMC [WRAPPER...]: opensm attached at HOST, in the
# background, routing with ENGINE ("fors", "minhop", ...).
lab_opensm() {
	lab_sim_host=$1
	cat >"$lab_dir/opensm.conf" <<EOF
routing_engine $2
event_plugin_name fors
lmc $3
dump_files_dir $lab_dir
log_file $lab_dir/osm.log
force_log_flush TRUE
log_flags 0x47
sweep_interval 1
EOF
	[ -z "${LAB_PLUGIN_OPTIONS:-}" ] ||
		echo "event_plugin_options $LAB_PLUGIN_OPTIONS" >>"$lab_dir/opensm.conf"
	# Further opensm.conf lines (root_guid_file for updn, say).
	[ -z "${LAB_OPENSM_EXTRA:-}" ] ||
		printf '%s\n' "$LAB_OPENSM_EXTRA" >>"$lab_dir/opensm.conf"
	shift 3
	: >"$lab_dir/osm.log"
	# Its own cache (guid2lid): OpenSMs of other labs must not lend it LIDs.
	mkdir -p "$lab_dir/cache"
	(cd "$lab_dir" && SIM_HOST=$lab_sim_host LD_PRELOAD=$lab_preload \
		OSM_CACHE_DIR="$lab_dir/cache" \
		LD_LIBRARY_PATH=$FORS_PLUGIN_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
		FORS_CONFIG=${FORS_CONFIG:-$(lab_config)} \
		exec "$@" opensm -F "$lab_dir/opensm.conf" >opensm.out 2>&1) &
	lab_opensm_pid=$!
	lab_pids="$! $lab_pids"
	lab_wait_for "$lab_dir/osm.log" 'SUBNET UP' 1 ||
		lab_die "no SUBNET UP: see $lab_dir/osm.log"
}

# The lab's fors.conf (lab_init writes one); else the system default.
lab_config() {
	[ -f "$lab_dir/fors.conf" ] && echo "$lab_dir/fors.conf"
}

lab_stop_opensm() {
	lab_kill "$lab_opensm_pid"
}

lab_routings() {
	grep -c 'fors: routed' "$lab_dir/osm.log"
}

# lab_reroute CMD...: run console commands, then wait for fors to route
# the changed fabric and OpenSM to dump what it installed.
lab_reroute() {
	n=$(lab_routings)
	d=$(grep -c 'SUBNET UP' "$lab_dir/osm.log")
	local cmd
	for cmd in "$@"; do
		lab_console "$cmd"
	done
	lab_wait_for "$lab_dir/osm.log" 'fors: routed' $((n + 1)) ||
		lab_die "no rerouting after: $*"
	lab_wait_for "$lab_dir/osm.log" 'SUBNET UP' $((d + 1)) ||
		lab_die "no SUBNET UP after: $*"
}

# Until a few sweeps pass without another routing, and no staged update
# waits for its rest.
lab_settle() {
	n=$(lab_routings)
	while sleep 3; m=$(lab_routings); [ "$m" != "$n" ] || lab_stage_in; do
		n=$m
	done
}

# Whether the first stage of a staged update is in the switches now, its
# rest not begun (fors.conf's stage_wait_ms).
lab_stage_in() {
	grep -E 'fors: (staged update|the rest of a staged update)' "$lab_dir/osm.log" |
		tail -n 1 | grep -q 'fors: staged update'
}

# lab_union TOPO LFTS PREV LMC OUT: fors check --previous into OUT; 0 when
# a mix of PREV and LFTS (on the fabric TOPO) has no credit loop and
# sends no LID round a circle (issue 31).
lab_union() {
	"$FORS" check --topology "$1" --lfts "$2" --lmc "$4" --previous "$3" \
		>"$5" 2>&1
	grep -q '^union with .*, no credit loop, 0 LIDs in a forwarding loop$' "$5"
}

# The last routing's summary line, without the log prefix.
lab_summary() {
	grep 'fors: routed' "$lab_dir/osm.log" | tail -n 1 | sed 's/.*fors: //'
}

# OpenSM's own time for the last routing (the first with "first"), in ms:
# from "building routing with" to "tables configured on all switches" in its
# log (log_flags 0x47), so the same span for every engine, fallbacks included.
lab_routing_ms() {
	awk -v first="${1:-}" '
		function us(t, u,  a) { split(t, a, ":"); return ((a[1] * 60 + a[2]) * 60 + a[3]) * 1e6 + u }
		/building routing with/ { if (!open) t0 = us($3, $4); open = 1 }
		/tables configured on all switches/ && open {
			ms = (us($3, $4) - t0) / 1e3; open = 0
			if (first) exit
		}
		END { if (ms != "") printf "%.1f\n", ms < 0 ? ms + 864e5 : ms }' "$lab_dir/osm.log"
}

# The median of the numbers on standard input, with their range.
lab_median() {
	tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{ v[NR] = $1 }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.1f (%.1f-%.1f)", m, v[1], v[NR] }'
}

# lab_tables NAME: into NAME/, OpenSM's dump, the fabric as ibnetdiscover
# sees it, and the tables ibroute reads from every switch.
lab_tables() {
	v="$lab_dir/$1"
	mkdir -p "$v"
	cp "$lab_dir/opensm-lfts.dump" "$v/"
	lab_run ibnetdiscover >"$v/topology.txt" 2>"$v/ibnetdiscover.err" ||
		lab_die "ibnetdiscover failed: see $v/ibnetdiscover.err"
	: >"$v/ibroute.txt"
	for lid in $(sed -n 's/^Switch.*# ".*" base port 0 lid \([0-9]*\).*/\1/p' "$v/topology.txt"); do
		lab_run ibroute "$lid" >>"$v/ibroute.txt" 2>>"$v/ibroute.err" ||
			lab_die "ibroute $lid failed: see $v/ibroute.err"
	done
}

# lab_verify NAME: lab_tables, then fors check with the schedule fors wrote
# on OpenSM's own dump and on what ibroute read.
lab_verify() {
	lab_tables "$1"
	cp "$lab_dir/opensm-fors-schedule.dump" "$v/"
	"$FORS" check --topology "$v/topology.txt" --lfts "$v/opensm-lfts.dump" \
		--schedule "$v/opensm-fors-schedule.dump" >"$v/check-dump.txt" 2>&1 &&
	"$FORS" check --topology "$v/topology.txt" --lfts "$v/ibroute.txt" \
		--schedule "$v/opensm-fors-schedule.dump" >"$v/check-ibroute.txt" 2>&1
	r=$?
	paste -sd ' ' "$v/check-ibroute.txt"
	return $r
}

# lab_osmtest: SA queries against the fors-routed subnet: the inventory
# (nodes, ports, path records between all ports), event forwarding, QoS
# records and traps 64/65. Flows that wait for an unanswered MAD to time out
# (-f a, -f v) never end under umad2sim, which delivers no send timeouts;
# -f s and -f m fail the same way with OpenSM's own minhop on ibsim. See
# doc/lab.md.
lab_osmtest() {
	lab_run osmtest -f c -i "$lab_dir/osmtest.dat" >"$lab_dir/osmtest-c.log" 2>&1 || return 1
	for f in e q t; do
		lab_run timeout 120 osmtest -f $f -i "$lab_dir/osmtest.dat" \
			>"$lab_dir/osmtest-$f.log" 2>&1 || return 1
	done
}
