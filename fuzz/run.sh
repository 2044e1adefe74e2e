#!/bin/sh
# Run every fuzz target built by fuzz/build.sh for SECONDS each (default 60)
# on a copy of its seeds (fuzz/corpus/TARGET) plus the inputs that once broke
# it (fuzz/regressions/TARGET): the committed corpus never grows. Fails if a
# target finds a crash, a leak, a timeout or a sanitizer report, and names
# the input that reproduces it. Usage: fuzz/run.sh [SECONDS [DIR]]
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
out=${2:-fuzz-build}
failed=""

# One target, its log in $work/log, what it found in $work/artifacts.
run() {
	t=$1 work=$out/run/$1
	rm -rf "$work"
	mkdir -p "$work/corpus" "$work/artifacts"
	cp "$src/fuzz/corpus/$t"/* "$work/corpus/"
	set -- "$work/corpus"
	[ -d "$src/fuzz/regressions/$t" ] && set -- "$@" "$src/fuzz/regressions/$t"
	[ -f "$src/fuzz/$t.dict" ] && set -- -dict="$src/fuzz/$t.dict" "$@"
	"$out/$t" -max_total_time="$secs" -timeout=25 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$work/artifacts/" "$@" \
		>"$work/log" 2>&1
}

# libFuzzer's last status line and its speed.
stats() {
	grep -E '^#[0-9]+' "$1" | tail -n 1
	grep -E 'stat::(number_of_executed_units|average_exec_per_sec)' "$1"
}

for f in "$src"/fuzz/*.c; do
	t=$(basename "$f" .c)
	echo "== fuzz $t: $secs s"
	if run "$t"; then
		stats "$out/run/$t/log"
		continue
	fi
	tail -n 40 "$out/run/$t/log"
	for a in "$out/run/$t/artifacts"/*; do
		[ -e "$a" ] && echo "fuzz: $t: reproduce with: $out/$t $a"
	done
	failed="$failed $t"
done
if [ -n "$failed" ]; then
	echo "fuzz: failed:$failed (inputs in $out/run/*/artifacts)"
	exit 1
fi
echo "fuzz: every target ran $secs s without a finding"
