#!/bin/sh
# Times validator.Validate compiled to WebAssembly, under Node (the same V8
# as Chromium), on the 50,000-entry Resource List, and optionally profiles
# it: Node's CPU profile names the Go functions of the module.
#
#   ./bench/wasm/run.sh            four validations, times printed
#   ./bench/wasm/run.sh profile    the same with a CPU profile, summarised
set -eu
cd "$(dirname "$0")/../.."
list=bench/out/rl50k.xml
[ -f "$list" ] || go run ./bench/genlist -n 50000 -o "$list"
GOOS=js GOARCH=wasm go build -o bench/out/wbench.wasm ./bench/wasm
exec_js="$(go env GOROOT)/lib/wasm/wasm_exec_node.js"
if [ "${1:-}" = profile ]; then
	rm -rf bench/out/prof
	node --cpu-prof --cpu-prof-dir=bench/out/prof "$exec_js" bench/out/wbench.wasm "$list"
	python3 bench/wasm/profile.py bench/out/prof "${2:-40}"
else
	node "$exec_js" bench/out/wbench.wasm "$list"
fi
