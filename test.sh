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
# echarts and the other front-end packages, from the committed lockfile
npm ci --no-audit --no-fund --loglevel=error
go mod download
go vet ./...
go test -count=1 -timeout 25m ./...
# site decoders: short fuzz runs of the URL fragment and the worker protocol
# (seed corpora in site/*/testdata/fuzz; plain go test above replays them)
go test -run '^$' -fuzz '^FuzzDecodeURL$' -fuzztime 10s ./site/experiment/
go test -run '^$' -fuzz '^FuzzDecode$' -fuzztime 10s ./site/protocol/
