#!/bin/bash
# SPDX-License-Identifier: MIT
# The ILP precompute as a real batch job (doc/ilp.md, "On Slurm"): a
# one-node Slurm (munged, slurmctld and slurmd as children of this script,
# on loopback, with a slurm.conf made from `slurmd -C`) runs the unmodified
# examples/ilp-precompute.slurm as an array job under an unprivileged user
# (SLURMCHECK_USER, default nobody). Checked: every task COMPLETED with
# exit 0; the shards' cache lists exactly the entries of an unsharded run;
# the plan finds nothing left to solve; arrays that would leave shards
# unrun (--array=1-4, --array=0-6:2) fail in every task with one line; root
# refuses the batch user's cache, naming the setting, and trusts it with
# it; OpenSM with fors (ibsim) then routes a complex scenario from that
# cache once fors.conf has ilp_cache_user. Needs root, the Debian packages
# slurmctld, slurmd, slurm-client, munge and coinor-cbc.
set -u
. "$(dirname "$0")/lab.sh"

user=${SLURMCHECK_USER:-nobody}
deadline=${SLURMCHECK_TIMEOUT:-90}
fails=0
ok() { echo "PASS: $*"; }
ko() { echo "FAIL: $*"; fails=$((fails + 1)); }

[ "$(id -u)" -eq 0 ] || lab_die "slurmcheck needs root: slurmd runs jobs as another user"
for p in munged slurmctld slurmd sbatch squeue scontrol cbc runuser; do
	command -v "$p" >/dev/null ||
		lab_die "$p not found: apt-get install --no-install-recommends slurmctld slurmd slurm-client munge coinor-cbc"
done
id "$user" >/dev/null 2>&1 || lab_die "no user $user (SLURMCHECK_USER)"

lab_init "${LAB_DIR:-lab-out}/slurm"
# The cluster's files where the batch user can reach them, whatever the
# permissions of the tree above lab_dir; kept in lab_dir/cluster after.
s=$(mktemp -d "${TMPDIR:-/tmp}/fors-slurm.XXXXXX") || lab_die "mktemp failed"
mkdir -p "$s/state" "$s/spool" "$s/job" "$s/bin"
chmod 0755 "$s"
slurm_pids=""
export SLURM_CONF=$s/slurm.conf

# Newest first, each waited for: the container's PID 1 reaps late.
slurm_stop() {
	for p in $slurm_pids; do
		kill "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	slurm_pids=""
}
slurm_exit() {
	slurm_stop
	lab_stop
	rm -rf "$lab_dir/cluster"
	cp -a "$s" "$lab_dir/cluster" 2>/dev/null && rm -f "$lab_dir/cluster/munge.key"
	rm -rf "$s"
}
trap slurm_exit EXIT

# within CMD...: until CMD succeeds, every 0.2 s; 1 after the deadline.
within() {
	local t=0
	until "$@"; do
		t=$((t + 1))
		[ $t -le $((deadline * 5)) ] || return 1
		sleep 0.2
	done
}

# A free TCP port on loopback from $1 on.
free_port() {
	local p=$1
	while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do
		p=$((p + 1))
	done
	echo "$p"
}

slurm_conf() {
	local hw node ctl
	hw=$(slurmd -C | head -n 1)
	node=${hw#NodeName=}
	node=${node%% *}
	ctl=$(free_port 16817)
	cat >"$SLURM_CONF" <<EOF
ClusterName=forscheck
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctl
SlurmdPort=$(free_port $((ctl + 1)))
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$s/munge.sock
CredType=cred/munge
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd.pid
SlurmctldLogFile=$s/slurmctld.log
SlurmdLogFile=$s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 ${hw#NodeName=$node } State=UNKNOWN
PartitionName=check Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
}

slurm_start() {
	mungekey -c -k "$s/munge.key" >/dev/null 2>&1 || lab_die "mungekey failed"
	munged -F --key-file="$s/munge.key" --socket="$s/munge.sock" \
		--pid-file="$s/munged.pid" --log-file="$s/munged.log" \
		--seed-file="$s/munged.seed" >"$s/munged.out" 2>&1 &
	slurm_pids="$!"
	lab_wait_for "$s/munged.out" 'Created socket' 1 || lab_die "munged did not start: see $s/munged.out"
	slurm_conf
	slurmctld -D -f "$SLURM_CONF" >"$s/slurmctld.out" 2>&1 &
	slurm_pids="$! $slurm_pids"
	slurmd -D -f "$SLURM_CONF" >"$s/slurmd.out" 2>&1 &
	slurm_pids="$! $slurm_pids"
	within idle ||
		lab_die "the node never became idle: see $s/slurmctld.log, $s/slurmd.log"
}

idle() {
	[ "$(sinfo -h -o %T 2>/dev/null)" = idle ]
}

# submit ARRAY: the unmodified example as an array job of the batch user,
# its job id on standard output. One CPU a task, whatever the machine has.
submit() {
	runuser -u "$user" -- env PATH="$s/bin:$PATH" SLURM_CONF="$SLURM_CONF" \
		sbatch --parsable --chdir="$s/job" --array="$1" --cpus-per-task=1 \
		--export=ALL,REFERENCE="$s/job/ref.net",CACHE="$s/job/site/ilp-cache",FAILURES=2 \
		<"$lab_top/examples/ilp-precompute.slurm"
}

# finished JOB: wait until none of its tasks is queued or running.
finished() {
	within gone "$1"
}

gone() {
	[ -z "$(squeue -h -j "$1" 2>/dev/null)" ]
}

# states JOB: "STATE EXIT" per task.
states() {
	scontrol show job -o "$1" | sed -n 's/.* JobState=\([A-Z_]*\) .* ExitCode=\([0-9:]*\) .*/\1 \2/p'
}

# The array 0-2: three shards of FT(2;4,4) up to 2 failed cables.
run_shards() {
	local job
	job=$(submit 0-2) || { ko "sbatch --array=0-2 refused"; return 1; }
	finished "$job" || { ko "array $job did not finish in ${deadline} s"; return 1; }
	if [ "$(states "$job" | grep -c '^COMPLETED 0:0$')" -eq 3 ] && [ "$(states "$job" | wc -l)" -eq 3 ]; then
		ok "array 0-2 ($job) as $user: 3 tasks COMPLETED, exit 0"
	else
		ko "array 0-2 ($job): $(states "$job" | paste -sd ' ')"
	fi
	if grep -l '^to solve: 0 phases' "$s/job/fors-ilp-${job}_"*.out >/dev/null; then
		ok "the last task's plan: $(grep -h '^to solve: 0 phases' "$s/job/fors-ilp-${job}_"*.out | head -n 1)"
	else
		ko "no task's plan found the cache complete"
	fi
}

# refused ARRAY: every task fails with exit 2 and its output is one line.
refused() {
	local job n
	job=$(submit "$1") || { ko "sbatch --array=$1 refused by sbatch"; return; }
	finished "$job" || { ko "array $1 did not finish"; return; }
	n=$(states "$job" | wc -l)
	if [ "$n" -gt 0 ] && [ "$(states "$job" | grep -c '^FAILED 2:0$')" -eq "$n" ] &&
	   [ "$(cat "$s/job/fors-ilp-${job}_"*.out | wc -l)" -eq "$n" ]; then
		ok "array $1: $n tasks refused: $(head -n 1 "$(ls "$s/job/fors-ilp-${job}_"*.out | head -n 1)")"
	else
		ko "array $1: $(states "$job" | paste -sd ' '), $(cat "$s/job/fors-ilp-${job}_"*.out)"
	fi
}

# The batch user's cache against an unsharded one of root's; root's
# refusal names the setting, which then trusts it.
check_cache() {
	local c=$s/job/site/ilp-cache
	"$FORS" ilp precompute --reference "$s/job/ref.net" --max-failures 2 \
		--cache "$s/whole" >"$s/whole.txt" 2>&1 || ko "the unsharded precompute failed"
	"$FORS" ilp list --cache "$s/whole" >"$s/whole.list" 2>&1
	if "$FORS" ilp list --cache "$c" >/dev/null 2>"$s/refused.txt"; then
		ko "root trusted the cache of $user without ilp_cache_user"
	elif grep -q "owned by $user .*'ilp_cache_user $user' in fors.conf, --trust-user $user" "$s/refused.txt"; then
		ok "refused without the setting: $(cat "$s/refused.txt")"
	else
		ko "refusal without the setting: $(cat "$s/refused.txt")"
	fi
	"$FORS" ilp list --cache "$c" --trust-user "$user" >"$s/sharded.list" 2>&1
	if [ -s "$s/whole.list" ] && cmp -s "$s/whole.list" "$s/sharded.list"; then
		ok "the shards' union lists the unsharded cache's $(wc -l <"$s/whole.list") entries"
	else
		ko "the shards' union differs: $(diff "$s/whole.list" "$s/sharded.list" | head -n 5)"
	fi
	"$FORS" ilp precompute --reference "$s/job/ref.net" --max-failures 2 \
		--cache "$c" --trust-user "$user" --plan >"$s/plan.txt" 2>&1
	grep -q '^to solve: 0 phases' "$s/plan.txt" && ok "root's plan: $(grep '^to solve' "$s/plan.txt")" ||
		ko "root's plan: $(cat "$s/plan.txt")"
}

# OpenSM with fors on the same fabric, L01-S01 and L02-S02 cut: refused
# without ilp_cache_user, routed from the cache with it.
check_opensm() {
	local c=$s/job/site/ilp-cache want
	lab_ibsim "$s/job/ref.net"
	for want in refused cached; do
		printf 'link_holddown_s 0\nstate_file %s\nilp_cache %s\nilp_lookup %s ilp lookup\n' \
			"$lab_dir/fors-state-$want" "$c" "$FORS" >"$lab_dir/fors.conf"
		[ $want = refused ] || echo "ilp_cache_user $user" >>"$lab_dir/fors.conf"
		lab_opensm "$(lab_first_host)" fors 2
		lab_reroute "Unlink \"L01\"[6]" "Unlink \"L02\"[7]"
		case $want,$(lab_summary) in
		refused,*"method lec,"*) grep -q "ILP cache $c refused (.*ilp_cache_user $user" "$lab_dir/osm.log" &&
			ok "OpenSM without ilp_cache_user: $(grep -o 'ILP cache .* refused.*' "$lab_dir/osm.log" | tail -n 1)" ||
			ko "OpenSM without ilp_cache_user: no refusal in its log" ;;
		cached,*"method ilp,"*) grep -q "routed from the ILP cache $c" "$lab_dir/osm.log" &&
			ok "OpenSM with ilp_cache_user $user: $(lab_summary)" ||
			ko "OpenSM with ilp_cache_user: no log line naming the cache" ;;
		*) ko "OpenSM ($want): $(lab_summary)" ;;
		esac
		lab_verify "slurm-$want" >/dev/null || ko "OpenSM ($want): its tables do not verify: see $v"
		lab_stop_opensm
		lab_console "ReLink \"L01\"[6]"
		lab_console "ReLink \"L02\"[7]"
	done
}

start=$(date +%s)
install -m 0755 "$FORS" "$s/bin/fors"
"$FORS" netgen --hosts-per-leaf 4 --leaves 4 --spines 4 >"$s/job/ref.net"
chown -R "$user" "$s/job"
slurm_start
echo "slurm: up in $(($(date +%s) - start)) s: $(sinfo -h -o '%P %D %T %C')"
run_shards
refused 1-4
refused 0-6:2
slurm_stop
check_cache
check_opensm
echo "slurmcheck: $(($(date +%s) - start)) s, $fails failed"
[ "$fails" -eq 0 ]
