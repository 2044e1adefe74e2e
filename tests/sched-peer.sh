#!/bin/sh
# The example fors-sched-peer on a routed fabric: what it prints agrees
# with the schedule file's lines, bad arguments exit 1, bad files exit 2.
set -u
: "${FORS:?FORS must name the fors binary}"
: "${FORS_PEER:?FORS_PEER must name the fors-sched-peer binary}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

fors() { ${FORS_WRAP:-} "$FORS" "$@"; }
peer() { ${FORS_WRAP:-} "$FORS_PEER" "$@"; }
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect STATUS PATTERN ARGS...: exit status and stderr of the example.
expect() {
	want=$1 pat=$2
	shift 2
	peer "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		ko "peer $*: exit $got, want $want"
	elif ! grep -q -- "$pat" "$tmp/err"; then
		ko "peer $*: stderr lacks '$pat': $(cat "$tmp/err")"
	elif [ -s "$tmp/out" ]; then
		ko "peer $*: printed output despite the error"
	else
		ok
	fi
}

# Two cut cables on two spines, an absent host, dual-port hosts.
N="netgen --hosts-per-leaf 6 --leaves 4 --spines 6"
fors $N >"$tmp/h.net" && fors $N --fail 0:5,1:4 --absent 7 --dual 2 >"$tmp/f.net" &&
	fors route --topology "$tmp/f.net" --reference "$tmp/h.net" --lmc 3 \
		--text --output "$tmp" >/dev/null && ok || ko "netgen and route"
S=$tmp/fors-schedule.dump
# The plugin adds a generation; fors route does not (yet).
sed '2s/$/ generation 7/' "$S" >"$tmp/gen"

# The transfer line of phase $1 whose field $2 is $3: "src dst plane dlid".
line() {
	awk -v p="$1" -v f="$2" -v h="$3" '
		$1 == "phase" { in_p = ($2 == p); next }
		in_p && NF == 4 && $f == h { print; exit }' "$S"
}

# The host line's fields as the example prints them.
host() {
	awk -v h="$1" '$1 == "host" && $2 == h {
		printf "%s %s port %s guid %s lid %s", $2, $5, $6, $3, $4 }' "$S"
}

# For every host and a few phases, the example against the file itself.
want() {
	echo "phase $2 of $nph (bound $bound), generation 7"
	echo "host $(host "$1")"
	set -- "$(line "$2" 1 "$1")" "$(line "$2" 2 "$1")"
	if [ -n "$1" ]; then
		set -- "$1" "$2" $1
		echo "send $(host "$4") dlid $6 plane $5"
	else
		echo "send idle"
	fi
	if [ -n "$2" ]; then
		set -- $2
		echo "recv $(host "$1") dlid $4 plane $3"
	else
		echo "recv idle"
	fi
}

nph=$(sed -n '2s/.* phases \([0-9]*\).*/\1/p' "$S")
[ "$nph" -gt 20 ] && ok || ko "phases of the routed schedule: '$nph'"
bound=$(sed -n '2s/.* bound \([0-9]*\).*/\1/p' "$S")
[ "$bound" -gt 20 ] && [ "$bound" -le "$nph" ] && ok || ko "bound of the routed schedule: '$bound'"
for h in $(awk '$1 == "host" { print $2 }' "$S"); do
	for p in 0 5 $((nph - 1)); do
		want "$h" "$p" >"$tmp/want"
		peer "$tmp/gen" "$h" "$p" >"$tmp/got" 2>"$tmp/err" &&
			cmp -s "$tmp/want" "$tmp/got" && ok ||
			ko "host $h phase $p: $(diff "$tmp/want" "$tmp/got") $(cat "$tmp/err")"
	done
done

# The compact form of the same file answers the same.
fors schedule --input "$tmp/gen" --output "$tmp/gen2" &&
	[ "$(head -1 "$tmp/gen2")" = "fors-schedule 2" ] &&
	peer "$tmp/gen" 3 4 >"$tmp/a" && peer "$tmp/gen2" 3 4 >"$tmp/b" &&
	cmp -s "$tmp/a" "$tmp/b" && ok || ko "the compact form answers as the text"

# The same host by id, by description, by DESCRIPTION:PORT, by GUID.
peer "$tmp/gen" 3 4 >"$tmp/a" && peer "$tmp/gen" H003 4 >"$tmp/b" &&
	peer "$tmp/gen" H003:1 4 >"$tmp/c" && cmp -s "$tmp/a" "$tmp/b" &&
	cmp -s "$tmp/a" "$tmp/c" && ok || ko "host by id, description, port"
peer "$tmp/gen" H000:2 4 >"$tmp/b" && peer "$tmp/gen" 6 4 >"$tmp/a" &&
	cmp -s "$tmp/a" "$tmp/b" && ok || ko "second port of a dual-port host"
sed '3s/ 0x0000000000000000 / 0x0002c90300001234 /' "$tmp/gen" >"$tmp/guid"
peer "$tmp/guid" 0x0002C90300001234 4 >"$tmp/b" && peer "$tmp/guid" 0 4 >"$tmp/a" &&
	cmp -s "$tmp/a" "$tmp/b" && ok || ko "host by port GUID"
sed '2s/ bound [0-9]*//' "$S" >"$tmp/nobound"
peer "$tmp/nobound" 0 0 | head -1 | grep -qx "phase 0 of $nph" && ok ||
	ko "no generation or bound key, neither shown"

# An abstract schedule: host ids only, no DLIDs.
fors schedule --hosts-per-leaf 4 --leaves 3 --reduction 1 >"$tmp/abs"
peer "$tmp/abs" 0 0 >"$tmp/out" && grep -qx 'send [0-9]* dlid - plane -' "$tmp/out" &&
	grep -qx 'host 0' "$tmp/out" && ok || ko "abstract schedule: $(cat "$tmp/out")"

expect 1 "Usage:" "$tmp/gen" 3
expect 1 "host id 7 has no host port" "$tmp/gen" 7 0
expect 1 "host id 24 is out of range 0..23" "$tmp/gen" 24 0
expect 1 "phase $nph is out of range 0..$((nph - 1))" "$tmp/gen" 3 "$nph"
expect 1 "'x' is not a phase number" "$tmp/gen" 3 x
expect 1 "'H000' names 2 host ports: add :PORT" "$tmp/gen" H000 0
expect 1 "no host port 'H999' in the schedule" "$tmp/gen" H999 0
expect 1 "no host port 'H000:3'" "$tmp/gen" H000:3 0
expect 1 "port GUID 0x0 names 23 host ports" "$tmp/gen" 0x0 0
expect 1 "'0xg' is not a port GUID" "$tmp/gen" 0xg 0
expect 1 "no host port has port GUID 0x1" "$tmp/gen" 0x1 0
expect 2 "cannot open $tmp/none" "$tmp/none" 3 0
head -40 "$tmp/gen" >"$tmp/trunc"
expect 2 "trunc:40: truncated file" "$tmp/trunc" 3 0
sed '2s/generation 7/generation seven/' "$tmp/gen" >"$tmp/badgen"
expect 2 "badgen:2: bad value for key 'generation'" "$tmp/badgen" 3 0
peer --help | grep -q '^Usage: fors-sched-peer' && ok || ko "--help"

echo "sched-peer: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
