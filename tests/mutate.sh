#!/bin/bash
# SPDX-License-Identifier: MIT
# The mutation stage (make mutants, doc/testing.md): every mutant of
# tests/mutants.txt applied alone to a scratch copy of the tree, its suites
# rebuilt and run; a mutant they do not kill survives, and the stage fails.
# The copy is built once; each mutant recompiles one file and relinks only
# the programs of its suites, which stop at their first failing case
# (FORS_CHECK_FIRST_FAILURE, tests/suite.h).
#
#   tests/mutate.sh               every mutant
#   MUTANTS="a b" tests/mutate.sh  those only
#
# MUTANT_LIST names another list, MUTANT_DIR the scratch copy (default
# mutants-build), MUTANT_BUDGET the
# seconds the mutants may take in all (default 900): past it the stage
# fails, saying how far it got. The tree must be a git checkout: the copy
# is what git tracks, as it is in the working tree.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
list=${MUTANT_LIST:-$top/tests/mutants.txt}
work=${MUTANT_DIR:-mutants-build}
budget=${MUTANT_BUDGET:-1200}
jobs=$(nproc 2>/dev/null || echo 2)

die() {
	echo "mutate: $*" >&2
	exit 2
}

# The mutants, one a line: name, file, from, to, suites, why, split by \037.
records() {
	awk -v us="$(printf '\037')" '
		function flush() {
			if (name != "")
				print name us file us from us to us suites us why
			name = file = from = to = suites = why = ""
		}
		/^#/ { next }
		/^[[:space:]]*$/ { flush(); next }
		{
			key = $0; sub(/:.*/, "", key)
			val = $0; sub(/^[a-z]+: ?/, "", val)
			if (key == "mutant") name = val
			else if (key == "file") file = val
			else if (key == "from") from = val
			else if (key == "to") to = val
			else if (key == "suites") suites = val
			else if (key == "why") why = val
			else { print "mutate: unknown key " key > "/dev/stderr"; exit 2 }
		}
		END { flush() }' "$list"
}

# Replace FROM (once, exactly) by TO in file $1; \n and \t decoded.
apply() {
	FROM=$2 TO=$3 perl -0777 -ne '
		my ($f, $t) = @ENV{qw(FROM TO)};
		for ($f, $t) { s/\\n/\n/g; s/\\t/\t/g }
		my $n = () = /\Q$f\E/g;
		die "found $n times\n" if $n != 1;
		s/\Q$f\E/$t/;
		print' "$1" >"$1.mutant" && mv "$1.mutant" "$1"
}

setup() {
	rm -rf "$work"
	mkdir -p "$work" || die "cannot create $work"
	(cd "$top" && git ls-files -z | tar --null -T - -cf -) | tar -C "$work" -xf - ||
		die "$top: cannot copy the tracked files (is it a git checkout?)"
	cd "$work" || die "cannot enter $work"
	echo "mutate: building the scratch copy in $work"
	{ autoreconf -fi && ./configure -q CFLAGS="-O2 -g -Wall -Wextra -Werror" &&
		make -s -j"$jobs" && make -s -j"$jobs" check TESTS=; } >build.log 2>&1 ||
		die "the unmutated copy does not build: see $work/build.log"
}

# Run one mutant; prints its line, returns 0 killed, 1 survived, 2 invalid.
one() {
	local name=$1 file=$2 from=$3 to=$4 suites=$5 why=$6 t0 s r=0 targets
	t0=$(date +%s)
	cp -p "$file" "$file.orig"
	if ! apply "$file" "$from" "$to" 2>"mutant-$name.log"; then
		mv "$file.orig" "$file"
		echo "INVALID   $name: its text is not in $file once ($(cat "mutant-$name.log"))"
		return 2
	fi
	# a script suite runs the fors command: build it with the mutant too
	case " $suites" in *.sh*) targets="src/cli/fors $suites" ;; *) targets=$suites ;; esac
	if ! make -s -j"$jobs" $targets >>"mutant-$name.log" 2>&1; then
		echo "INVALID   $name: does not build (mutant-$name.log)"
		r=2
	else
		for s in $suites; do
			FORS_CHECK_FIRST_FAILURE=1 srcdir=$PWD \
				FORS=$PWD/src/cli/fors timeout 300 "./$s" \
				>>"mutant-$name.log" 2>&1 || { r=3; break; }
		done
		if [ $r = 3 ]; then
			echo "killed    $name ($(($(date +%s) - t0)) s, by $s)"
			r=0
		else
			echo "SURVIVED  $name: $why ($suites)"
			r=1
		fi
	fi
	mv "$file.orig" "$file"
	touch "$file"
	return $r
}

[ -f "$list" ] || die "no $list"
recs=$(records) || exit 2
setup
start=$(date +%s)
n=0 killed=0 survived=0 invalid=0
while IFS=$'\037' read -r name file from to suites why; do
	case " ${MUTANTS:-$name} " in *" $name "*) ;; *) continue ;; esac
	if [ $(($(date +%s) - start)) -gt "$budget" ]; then
		echo "mutate: the budget of $budget s is spent after $n mutants"
		invalid=$((invalid + 1))
		break
	fi
	n=$((n + 1))
	one "$name" "$file" "$from" "$to" "$suites" "$why" </dev/null
	case $? in
	0) killed=$((killed + 1)) ;;
	1) survived=$((survived + 1)) ;;
	*) invalid=$((invalid + 1)) ;;
	esac
done <<EOF
$recs
EOF
echo "mutate: $n mutants, $killed killed, $survived survived, $invalid invalid, in $(($(date +%s) - start)) s"
[ $survived = 0 ] && [ $invalid = 0 ] && [ $n -gt 0 ]
