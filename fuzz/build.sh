#!/bin/sh
# Build the libFuzzer targets, one per fuzz/*.c (doc/fuzzing.md), into DIR
# (default fuzz-build). Every source under src/ but the two shells (plugin/,
# cli/) is compiled again there with clang and the sanitizers; the gcc
# build is not touched.
# Usage: fuzz/build.sh [DIR]; FUZZ_CC=clang-14 picks another clang.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-fuzz-build}
cc=${FUZZ_CC:-clang}
cflags="-std=c11 -D_GNU_SOURCE -O1 -g -fno-omit-frame-pointer
	-Wall -Wextra -Werror -I$src/include -I$src/src
	-fsanitize=address,undefined -fno-sanitize-recover=all"

rm -rf "$out/obj"
mkdir -p "$out/obj"
for f in $(find "$src/src" -name '*.c' ! -path '*/plugin/*' ! -path '*/cli/*' | sort); do
	rel=${f#"$src"/src/}
	$cc $cflags -fsanitize=fuzzer-no-link -c "$f" \
		-o "$out/obj/$(echo "${rel%.c}" | tr / -).o"
done
for f in "$src"/fuzz/*.c; do
	t=$(basename "$f" .c)
	$cc $cflags -fsanitize=fuzzer "$f" "$out"/obj/*.o -o "$out/$t"
	echo "fuzz: built $out/$t"
done
