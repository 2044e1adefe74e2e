#!/bin/sh
# The fors command line: bad arguments give one line naming the argument
# and exit status 2; a schedule it prints passes its own check.
set -u
: "${FORS:?FORS must name the fors binary}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

fors() { ${FORS_WRAP:-} "$FORS" "$@"; }
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect STATUS PATTERN ARGS...: exit status and a line of stderr.
# FORS_WRAP, when set, runs fors under a tool such as valgrind.
expect() {
	want=$1 pat=$2
	shift 2
	fors "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		ko "fors $*: exit $got, want $want"
	elif [ -n "$pat" ] && ! grep -q -- "$pat" "$tmp/err"; then
		ko "fors $*: stderr lacks '$pat': $(cat "$tmp/err")"
	elif [ "$want" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
		ko "fors $*: want one line of error, got: $(cat "$tmp/err")"
	elif [ "$want" -eq 2 ] && [ -s "$tmp/out" ]; then
		ko "fors $*: printed output despite the error"
	else
		ok
	fi
}

S="schedule --hosts-per-leaf"
expect 2 "" 
expect 2 "unknown command 'frobnicate'" frobnicate
expect 2 "--leaves is required" $S 4 --reduction 1
expect 2 "--hosts-per-leaf is required" schedule --leaves 4 --reduction 1
expect 2 "--reduction is required" $S 4 --leaves 4
expect 2 "--reduction: expected a non-negative integer, got '-1'" $S 4 --leaves 4 --reduction -1
expect 2 "--leaves: expected a non-negative integer, got 'four'" $S 4 --leaves four --reduction 1
expect 2 "--leaves: expected a non-negative integer, got '4x'" $S 4 --leaves 4x --reduction 1
expect 2 "--hosts-per-leaf: '99999999999999999999' is out of range" $S 99999999999999999999 --leaves 4 --reduction 1
expect 2 "--leaves: '1' is out of range 2..2048" $S 4 --leaves 1 --reduction 0
expect 2 "reduction 4 must be below hosts-per-leaf 4" $S 4 --leaves 4 --reduction 4
expect 2 "exceeds the limit of 2048 hosts" $S 64 --leaves 64 --reduction 0
expect 2 "unknown option '--bogus'" $S 4 --leaves 4 --reduction 1 --bogus
expect 2 "--output needs a value" $S 4 --leaves 4 --reduction 1 --output
expect 2 "unexpected argument 'extra'" $S 4 --leaves 4 --reduction 1 extra
expect 2 "--impacted cannot exceed the planes" $S 4 --leaves 4 --reduction 1 --impacted 5
expect 2 "--schedule is required" check
expect 1 "cannot write" $S 4 --leaves 4 --reduction 1 --output "$tmp/no/such/dir"
expect 1 "cannot open" check --schedule "$tmp/missing"
expect 0 "" --help
expect 0 "" schedule --help
expect 0 "" check --help

fors --version | grep -q '^fors [0-9]' && ok || ko "--version"

# the README's main job: the LHCb DAQ topology, one failed link
fors $S 20 --leaves 18 --reduction 2 >"$tmp/s" && ok || ko "schedule"
head -2 "$tmp/s" | grep -q '^fabric hosts-per-leaf 20 leaves 18 planes 20 reduction 2 impacted 2 lmc - phases 378$' \
	&& ok || ko "fabric line of FT(2;20,18) f=2"
[ "$(grep -c '^phase ' "$tmp/s")" -eq 378 ] && ok || ko "378 phase blocks"
tail -1 "$tmp/s" | grep -qx 'end 129240' && ok || ko "end line"
fors check --schedule "$tmp/s" >/dev/null && ok || ko "check of a fresh schedule"
fors $S 20 --leaves 18 --reduction 2 --output "$tmp/o" >/dev/null && cmp -s "$tmp/s" "$tmp/o" \
	&& ok || ko "--output writes what stdout shows"

# a corrupted schedule fails the check with the violation
sed '4s/^\([0-9]*\) [0-9]*/\1 0/' "$tmp/s" >"$tmp/bad"
expect 1 "phase 0" check --schedule "$tmp/bad"
head -100 "$tmp/s" >"$tmp/trunc"
expect 1 "truncated file" check --schedule "$tmp/trunc"

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
