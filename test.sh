#!/usr/bin/env bash
# Runs every test of phitsim on a fresh Debian machine: engine, CLI, site
# (native) and the browser end-to-end test. Installs what the tests need.
set -euo pipefail
cd "$(dirname "$0")"

# the browser end-to-end test drives Debian's chromium
if ! command -v chromium >/dev/null 2>&1; then
  echo "installing chromium (apt)…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
# the Slurm test (cmd/phitsim TestSlurmCluster) starts a one-node cluster:
# Debian's slurm-wlm and munge (with CI=true it fails without them)
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  echo "installing slurm-wlm and munge (apt)…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi
# the race detector (the partitioned runs' check below) needs cgo: a C compiler
if ! command -v gcc >/dev/null 2>&1; then
  echo "installing gcc (apt)…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc libc6-dev >/dev/null
fi
# echarts and the other front-end packages, from the committed lockfile
npm ci --no-audit --no-fund --loglevel=error
go mod download
go vet ./...
go test -count=1 -timeout 25m ./...
# The partitioned engine under the race detector (engine/PARALLEL.md): a few
# configurations, one per kind of state the partitions split
# (engine/sim/parallel_race_test.go, built only with -race)
CGO_ENABLED=1 go test -race -count=1 -run '^TestParallelRace$' ./engine/sim/
# Short fuzz runs of every decoder (config JSON, -set, the CLI's -loads and
# -values lists, the URL fragment, the worker protocol, the partitions' window messages) and of every parameter's
# extremes on every preset; their seed corpora are committed under testdata/fuzz (plain go test above replays
# them). Counts, not durations: a -fuzztime duration can fail with "context
# deadline exceeded" when it ends (a race in Go's fuzzing coordinator before
# Go 1.27) on a loaded machine.
go test -run '^$' -fuzz '^FuzzDecode$' -fuzztime 100000x ./engine/config/
go test -run '^$' -fuzz '^FuzzSet$' -fuzztime 20000x ./engine/config/
go test -run '^$' -fuzz '^FuzzParseValues$' -fuzztime 20000x ./cmd/phitsim/
go test -run '^$' -fuzz '^FuzzExtremes$' -fuzztime 2000x ./engine/sim/
go test -run '^$' -fuzz '^FuzzDecodeURL$' -fuzztime 20000x ./site/experiment/
go test -run '^$' -fuzz '^FuzzDecode$' -fuzztime 100000x ./site/protocol/
go test -run '^$' -fuzz '^FuzzRemoteDecode$' -fuzztime 20000x ./engine/sim/
