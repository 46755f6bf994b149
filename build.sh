#!/usr/bin/env bash
# Builds the static site into dist/ (or $1): the UI and the engine worker as
# WebAssembly, Go's wasm_exec.js, ECharts from npm (package-lock.json), the
# files of static/, and precompressed .gz copies. The folder is complete: copy
# it to any static host; it needs no CDN and works offline.
set -euo pipefail
cd "$(dirname "$0")"
out="${1:-dist}"
mkdir -p "$out"

goroot="$(go env GOROOT)"
wasm_exec="$goroot/lib/wasm/wasm_exec.js"
[ -f "$wasm_exec" ] || wasm_exec="$goroot/misc/wasm/wasm_exec.js"

# saturating float conversions and sign extension: ~10% faster engine, and
# supported by every browser with WebAssembly threads-era features (2019+)
export GOWASM=satconv,signext
echo "build.sh: compiling wasm/ui and wasm/worker" >&2
GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o "$out/ui.wasm" ./wasm/ui &
ui=$!
GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o "$out/worker.wasm" ./wasm/worker
wait "$ui"

if [ ! -f node_modules/echarts/dist/echarts.min.js ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	echo "build.sh: npm ci" >&2
	npm ci --no-audit --no-fund --loglevel=error >&2
fi
cp node_modules/echarts/dist/echarts.min.js "$out/"
cp "$wasm_exec" "$out/wasm_exec.js"
cp static/* "$out/"

# Precompressed copies, served by serve.go (and by hosts that support them).
for f in "$out"/*.wasm "$out"/*.js; do
	gzip -9 -n -c "$f" >"$f.gz"
done
echo "build.sh: built $out/" >&2
ls -l "$out" >&2
