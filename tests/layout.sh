#!/bin/sh
# SPDX-License-Identifier: MIT
# The source tree's rules (src/README.md), each a failure when broken:
#  1. only sys/ touches the operating system: the objects of every other
#     folder but the shells (plugin/, cli/) reference no process, thread,
#     clock, temporary-file or rename call (nm);
#  2. only plugin/ includes OpenSM's headers;
#  3. every .c file under src/ is in src/README.md's file table;
#  4. a folder includes only the folders its row of src/README.md's folder
#     table allows ("may include"), so the includes follow the data flow.
# FORS_OBJECTS names the libtool objects of the libraries (.lo, relative to
# the build directory); srcdir is the source tree.
set -u
src=${srcdir:-.}/src
readme=$src/README.md
fail=0

bad() {
	echo "layout: $*"
	fail=1
}

# 1. The system calls sys/ owns, as nm shows them undefined in an object.
banned='^(__)?(fork|vfork|execve|execv|execvp|execvpe|execl|execlp|execle|posix_spawnp?|waitpid|wait|wait3|wait4|waitid|poll|ppoll|select|pselect|kill|killpg|clock_gettime|time|gettimeofday|rename|renameat|renameat2|mkstemp|mkstemps|mkdtemp|tmpfile|pthread_create|sleep|usleep|nanosleep)(_chk|64)?$'
nobj=0
for lo in ${FORS_OBJECTS:-}; do
	dir=${lo#src/}
	dir=${dir%%/*}
	case $dir in sys | plugin | cli) continue ;; esac
	[ -f "$lo" ] || { bad "$lo: no such object (build first)"; continue; }
	for o in $(sed -n "s/^\(pic\|non_pic\)_object='\(.*\)'$/\2/p" "$lo"); do
		[ "$o" = none ] && continue
		o=$(dirname "$lo")/$o
		nobj=$((nobj + 1))
		for s in $(nm -u "$o" | awk '{ print $NF }' | grep -E "$banned"); do
			bad "$o (src/$dir/) calls $s: only sys/ may"
		done
	done
done
[ "$nobj" -gt 0 ] || bad "FORS_OBJECTS named no object: nothing checked"

# 2. OpenSM's headers.
for f in $(find "$src" -name '*.[ch]' ! -path '*/plugin/*' | sort); do
	grep -n -E '^#[[:space:]]*include[[:space:]]*<(opensm|complib|iba|vendor)/' "$f" |
		while IFS= read -r l; do
			echo "layout: ${f#"$src"/}:$l: OpenSM's headers belong to plugin/"
		done | grep . && fail=1
done

# 3. Every .c in the file table.
nc=0
for f in $(cd "$src" && find . -name '*.c' | sed 's|^\./||' | sort); do
	nc=$((nc + 1))
	grep -q "^| \`$f\` |" "$readme" || bad "src/$f is not in src/README.md's file table"
done

# 4. Includes by the folder table: "| `DIR/` | what | DEPS |".
allowed() {
	sed -n "s/^| \`$1\/\` | .* | \(.*\) |$/\1/p" "$readme"
}
ninc=0
for d in $(cd "$src" && find . -mindepth 1 -maxdepth 1 -type d | sed 's|^\./||' | sort); do
	deps=$(allowed "$d")
	[ -n "$deps" ] || { bad "src/$d/ has no row in src/README.md's folder table"; continue; }
	for f in $(find "$src/$d" -name '*.[ch]' | sort); do
		for t in $(sed -n 's/^#[[:space:]]*include[[:space:]]*"\([a-z]*\)\/.*/\1/p' "$f"); do
			ninc=$((ninc + 1))
			[ "$t" = "$d" ] && continue
			case " $deps " in
			*" $t "*) ;;
			*) bad "${f#"$src"/} includes $t/: src/$d/ may include only: $deps" ;;
			esac
		done
	done
done

echo "layout: $nobj objects, $nc sources, $ninc includes checked"
exit $fail
