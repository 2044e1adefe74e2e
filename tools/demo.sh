#!/bin/sh
# The main job until the OpenSM lab exists: the FORS schedule of the LHCb
# DAQ network FT(2;20,18) healthy and after one, two and three failed
# leaf-spine links on a leaf (f = 0..3), each verified by `fors check`.
set -eu
fors=${1:-src/cli/fors}
out=${DEMO_DIR:-demo-schedules}
mkdir -p "$out"
for f in 0 1 2 3; do
	file="$out/lhcb-ft-20-18-f$f.schedule"
	"$fors" schedule --hosts-per-leaf 20 --leaves 18 --reduction "$f" \
		--output "$file"
	"$fors" check --schedule "$file"
done
echo "schedules written to $out/"
