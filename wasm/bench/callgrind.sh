#!/usr/bin/env bash
# Instructions per simulated cycle of the bench, natively and in WebAssembly
# under Node, with valgrind's callgrind (deterministic, unlike wall time on a
# shared machine): each build runs -cycles LONG and -cycles SHORT, and the
# difference divided by the cycles between them removes start-up and V8's
# compilation. Also prints the indirect jumps per cycle: Go's WebAssembly back
# end turns every jump into a br_table dispatch (engine/BENCHMARKS.md).
# Usage: wasm/bench/callgrind.sh [PRESET] (default h2); takes ~10 minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
preset=${1:-h2}
short=400 long=4000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/bench" ./wasm/bench
GOOS=js GOARCH=wasm go build -o "$tmp/bench.wasm" ./wasm/bench
node_exec="$(go env GOROOT)/lib/wasm/wasm_exec_node.js"
count() { # out-file command... -> "instructions indirect-jumps"
	local out=$1
	shift
	GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --branch-sim=yes \
		--callgrind-out-file="$out" "$@" >"$out.log" 2>&1
	awk '/Collected :/ {print $4, $7}' "$out.log"
}
# the bench runs 6 simulations of cycles/4 warm-up + cycles each
span=$((6 * (long - short) * 5 / 4))
declare -A ir bi
for build in native wasm; do
	for c in $short $long; do
		if [ $build = native ]; then
			read -r i b < <(count "$tmp/cg.$build.$c" "$tmp/bench" -preset "$preset" -cycles $c)
		else
			read -r i b < <(count "$tmp/cg.$build.$c" node --no-liftoff --no-wasm-tier-up "$node_exec" \
				"$tmp/bench.wasm" -preset "$preset" -cycles $c)
		fi
		ir[$build.$c]=$i bi[$build.$c]=$b
	done
done
n=$(((ir[native.$long] - ir[native.$short]) / span))
w=$(((ir[wasm.$long] - ir[wasm.$short]) / span))
printf '%s: instructions per simulated cycle: native %d, wasm %d (%s×); indirect jumps per cycle: native %d, wasm %d\n' \
	"$preset" "$n" "$w" "$(echo "scale=2; $w/$n" | bc)" \
	$(((bi[native.$long] - bi[native.$short]) / span)) $(((bi[wasm.$long] - bi[wasm.$short]) / span))
