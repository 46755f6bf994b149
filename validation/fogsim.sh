#!/bin/sh
# Runs FOGSim's side of the validation rows (rows.txt) with a FOGSim binary built from
# github.com/fuentesp/fogsim (v5, commit dcdd75f, its Makefile). Usage:
#   validation/fogsim.sh FOGSIM_BINARY OUTDIR [ROW_ID_PATTERN] [EXTRA_KEYS...]
# Writes OUTDIR/<row>_s<seed> (FOGSim's main output file, plus .transient for transient rows) for seed 1
# of every row, then seed 2, skipping runs whose output file exists (finished, or being written by another instance:
# REVERSE=1 walks the rows from the end, so two instances share the work). `go run ./cmd/fogsimcmp
# -fogsim OUTDIR` then reads them; delete a failed run's file to run it again.
set -eu
bin=$1; out=$2; pat=${3:-.}
shift 2; [ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
order=cat; [ "${REVERSE:-}" = 1 ] && order=tac
# every row's seed 1 first, then seed 2: a partial pass still covers every row
for seed in 1 2; do
	grep -v '^#' "$here/rows.txt" | grep '|' | grep -v '^common' | $order | while IFS='|' read -r id _ _ keys; do
		id=$(echo $id)
		echo "$id" | grep -q -- "$pat" || continue
		f="$out/${id}_s$seed"
		[ -e "$f" ] && continue
		# shellcheck disable=SC2086
		(cd "$out" && nice "$bin" "$here/fogsim-h4.cfg" OutputFileName="${id}_s$seed" Seed=$seed $keys "$@" \
			>"${id}_s$seed.stdout" 2>&1) || echo "FOGSim failed on $id seed $seed (see $f.stdout)" >&2
	done
done
