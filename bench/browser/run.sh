#!/bin/sh
# Benchmarks rscheck's browser app against xmllint-wasm in headless
# Chromium, in one run (see main.go). Prepares what it needs: the
# 50,000-entry Resource List, the WebAssembly module and the npm package
# (under bench/browser/node_modules). Flags are passed to the driver.
set -eu
cd "$(dirname "$0")/../.."
list=bench/out/resourcelist-50k.xml
if [ ! -f "$list" ]; then
	mkdir -p bench/out
	go run ./bench/genlist -n 50000 -o "$list"
fi
if [ ! -f bench/browser/node_modules/xmllint-wasm/index-browser.mjs ]; then
	(cd bench/browser && npm install --no-audit --no-fund --silent)
fi
GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o web/static/rscheck.wasm ./wasm
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" web/static/wasm_exec.js
exec go run ./bench/browser -list "$list" "$@"
