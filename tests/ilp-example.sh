#!/bin/bash
# SPDX-License-Identifier: MIT
# examples/ilp-precompute.slurm without Slurm: the array variables set as
# sbatch sets them, fors a stand-in that records its arguments. An array
# that would leave shards unrun (not from 0, a step, a list with a gap) is
# refused by every task with one line before fors runs; a proper one runs
# its shard, then the plan on the whole cache, after creating the cache's
# parent directories. lab/slurm.sh runs it under a real Slurm.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
job=$top/examples/ilp-precompute.slurm
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fors-ilp-example.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
printf '#!/bin/sh\necho "$*" >>"%s/calls"\n' "$tmp" >"$tmp/bin/fors"
chmod +x "$tmp/bin/fors"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }

# task ID MIN MAX STEP COUNT: the job as that array task; STEP '-' unset.
task() {
	local step=()
	[ "$4" = - ] || step=(SLURM_ARRAY_TASK_STEP="$4")
	rm -f "$tmp/calls"
	env -u SLURM_ARRAY_TASK_STEP PATH="$tmp/bin:$PATH" CACHE="$tmp/a/b/cache" \
		REFERENCE=ref.net FAILURES=3 SLURM_CPUS_PER_TASK=2 \
		SLURM_ARRAY_TASK_ID="$1" SLURM_ARRAY_TASK_MIN="$2" \
		SLURM_ARRAY_TASK_MAX="$3" SLURM_ARRAY_TASK_COUNT="$5" "${step[@]}" \
		bash "$job" >"$tmp/out" 2>"$tmp/err"
}

# refused WHAT ID MIN MAX STEP COUNT: exit 2, one line, fors never run.
refused() {
	local what=$1
	shift
	task "$@"
	local rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] &&
	   [ ! -e "$tmp/calls" ] && grep -q '^fors-ilp: .*shards would be left unrun$' "$tmp/err"; then
		ok
	else
		ko "$what: exit $rc, want 2 with one line: $(cat "$tmp/err" "$tmp/calls" 2>/dev/null)"
	fi
}

refused "--array=1-4" 1 1 4 1 4
refused "--array=1-4, its last task" 4 1 4 1 4
refused "--array=0-6:2" 0 0 6 2 4
refused "--array=0-6:2, its last task" 6 0 6 2 4
refused "--array=0,2,3" 2 0 3 - 3
task "" "" "" - 0
[ $? -eq 2 ] && grep -q 'not an array task' "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	ok || ko "not an array task: $(cat "$tmp/err")"

task 2 0 3 1 4
if [ $? -eq 0 ] && [ -d "$tmp/a/b" ] && [ "$(sed -n 1p "$tmp/calls")" = \
	"ilp precompute --reference ref.net --max-failures 3 --cache $tmp/a/b/cache --solver cbc --jobs 2 --shard 2/4" ] &&
   [ "$(sed -n 2p "$tmp/calls")" = "ilp precompute --reference ref.net --max-failures 3 --cache $tmp/a/b/cache --plan" ] &&
   [ "$(wc -l <"$tmp/calls")" -eq 2 ]; then
	ok
else
	ko "--array=0-3, task 2: $(cat "$tmp/err" "$tmp/calls" 2>/dev/null)"
fi
task 0 0 0 - 1
[ $? -eq 0 ] && grep -q -- '--shard 0/1$' "$tmp/calls" && ok || ko "--array=0: $(cat "$tmp/err")"

echo "ilp-example: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
