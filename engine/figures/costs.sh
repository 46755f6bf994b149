#!/usr/bin/env bash
# Callgrind instruction counts of what the gallery's run-time estimate
# models (figures.JobInstructions), deterministic: callgrind counts
# callgrindRun only (TestCallgrindRun). Usage:
#   engine/figures/costs.sh idle:<h2|h4|fbfly16>:<cycles> ...   an idle network
#   engine/figures/costs.sh '<figure>:<series>:<load>[:<edits>]' ...  one job of a figure
#     (edits: TestCallgrindRun's costEdit, e.g. routing=PB,h=2)
# Prints per probe the instructions, the cycles, the router ports, the
# packet-hops and the estimate.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/figures.test" .
for probe in "$@"; do
	if [[ $probe == idle:* ]]; then
		export PHITSIM_COST_IDLE=${probe#idle:} PHITSIM_COST_RUN=
	else
		export PHITSIM_COST_RUN=$probe PHITSIM_COST_IDLE=
	fi
	out=$(GOGC=off GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind \
		--callgrind-out-file="$tmp/cg.out" --collect-atstart=no \
		--toggle-collect='phitsim/engine/figures.callgrindRun' \
		"$tmp/figures.test" -test.run '^TestCallgrindRun$' -test.v 2>&1)
	ir=$(grep -o 'Collected : [0-9]*' <<<"$out" | awk '{print $3}')
	line=$(grep -o 'cycles [0-9]* ports.*' <<<"$out")
	printf '%-45s instructions %12s  %s\n' "$probe" "$ir" "$line"
done
