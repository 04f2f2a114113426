#!/bin/sh
# Benchmarks of rscheck against named peers, measured in the same run on
# the same machine. Figures go to docs/performance.md.
#
#   ./bench/run.sh            native: validate vs xmllint, explore
#   ./bench/run.sh browser    also the browser benchmark (bench/browser)
#
# Needs xmllint (make bench installs it) and ../shared/reference/schemas.
set -eu
cd "$(dirname "$0")/.."
out=bench/out
mkdir -p "$out"
schemas=../shared/reference/schemas
runs=${RUNS:-7}

echo "== machine"
nproc; uptime; go version; xmllint --version 2>&1 | head -1

echo "== building"
go build -o "$out/rscheck" ./cmd/rscheck
[ -f "$out/rl50k.xml" ] || go run ./bench/genlist -n 50000 -o "$out/rl50k.xml"
ls -l "$out/rl50k.xml"

echo "== validate: 50,000-entry Resource List, $runs runs each, alternating"
go run ./bench/compare -runs "$runs" \
	-names "xmllint --noout --schema (libxml2),rscheck validate (XSD + all rules),rscheck validate --schema-only" -- \
	"xmllint --noout --schema $schemas/wrapper-all.xsd $out/rl50k.xml 2>/dev/null" \
	"$out/rscheck validate --format json -o /dev/null $out/rl50k.xml" \
	"$out/rscheck validate --schema-only --format json -o /dev/null $out/rl50k.xml"

echo "== explore: generated Source of 100,000 resources (an index of two lists)"
go test ./explorer -run '^$' -bench 'BenchmarkExplore' -benchtime 3x -benchmem -count 1

if [ "${1:-}" = browser ]; then
	echo "== browser (headless Chromium): page ready and validation vs xmllint-wasm"
	./bench/browser/run.sh
fi
