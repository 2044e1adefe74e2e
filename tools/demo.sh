#!/bin/sh
# The main job until the OpenSM lab exists: route the LHCb DAQ network
# FT(2;20,18) with LMC 5 healthy, after the paper's 1F scenario (one failed
# leaf-spine link) and after 3F SW0,5,11 (nine links on nine spines, m > f),
# and verify each by following every transfer through the LFTs.
set -eu
fors=${1:-src/cli/fors}
out=${DEMO_DIR:-demo}
mkdir -p "$out"
gen="$fors netgen --hosts-per-leaf 20 --leaves 18 --spines 20"
$gen >"$out/lhcb.net"
$gen --fail 0:7 >"$out/lhcb-1f.net"
$gen --fail 0:0,0:1,0:2,5:3,5:4,5:5,11:6,11:7,11:8 >"$out/lhcb-3f-0-5-11.net"
for s in lhcb lhcb-1f lhcb-3f-0-5-11; do
	echo "== $s"
	mkdir -p "$out/$s"
	"$fors" route --topology "$out/$s.net" --reference "$out/lhcb.net" \
		--lmc 5 --output "$out/$s"
	"$fors" check --schedule "$out/$s/fors-schedule.dump" \
		--topology "$out/$s.net" --lfts "$out/$s/fors-lfts.dump"
done
echo "schedules and LFT dumps written to $out/"
