#!/usr/bin/env bash
# Instructions per packet-hop of each routing, deterministic (valgrind's
# callgrind counts the instructions of costWindow only): the routing cost
# table of engine/BENCHMARKS.md. Usage: engine/sim/costs.sh [ROUTING...]
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/sim.test" .
routings=("$@")
[ ${#routings[@]} -gt 0 ] || routings=(MIN VAL UGAL PB PAR OLM ACOR PB_ACOR)
base=""
printf '%-8s %14s %12s %8s\n' routing instructions hops per-hop
for r in "${routings[@]}"; do
	out=$(PHITSIM_COST=$r GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind \
		--callgrind-out-file="$tmp/cg.$r" --collect-atstart=no \
		--toggle-collect='phitsim/engine/sim.costWindow' \
		"$tmp/sim.test" -test.run '^TestCallgrindWindow$' -test.v 2>&1)
	hops=$(grep -o 'hops [0-9]*' <<<"$out" | awk '{print $2}')
	ir=$(grep -o 'Collected : [0-9]*' <<<"$out" | awk '{print $3}')
	per=$((ir / hops))
	[ -n "$base" ] || base=$per
	printf '%-8s %14s %12s %8s  %+d%%\n' "$r" "$ir" "$hops" "$per" $(((per - base) * 100 / base))
	[ -z "${KEEP:-}" ] || cp "$tmp/cg.$r" "${KEEP}/cg.$r"
done
