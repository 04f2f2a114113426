#!/bin/sh
# Compares the pure-Go engine with xmllint on the same generated 12 MB,
# 50,000-entry Resource List, in the same run, and prints the ratios.
# Needs xmllint (libxml2-utils) and ../shared/reference/schemas.
# Usage: validator/xsd/testdata/bench.sh [rounds]
set -eu
cd "$(dirname "$0")/.."            # validator/xsd
root=$(cd ../.. && pwd)
schemas="$root/../shared/reference/schemas"
rounds=${1:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -run TestWriteBenchDoc . -args -benchdoc="$tmp/rl.xml" >/dev/null
echo "document: $(wc -c <"$tmp/rl.xml") bytes, $(grep -c '<url>' "$tmp/rl.xml") entries"
go test -c -o "$tmp/xsd.test" . >/dev/null
xl_wall=0; xl_cpu=0; go_wall=0; go_cpu=0
i=0
while [ $i -lt "$rounds" ]; do
  # xmllint: wall and CPU (user+sys) seconds
  set -- $( { /usr/bin/time -f "%e %U %S" xmllint --noout --schema "$schemas/wrapper-all.xsd" "$tmp/rl.xml" 2>&1 >/dev/null; } | tail -1)
  xl_wall=$(echo "$xl_wall + $1" | bc -l); xl_cpu=$(echo "$xl_cpu + $2 + $3" | bc -l)
  # engine: ns/op and cpu-ns/op of one benchmark round
  line=$("$tmp/xsd.test" -test.run '^$' -test.bench 'BenchmarkValidateResourceList$' -test.benchtime 3x | grep '^Benchmark')
  ns=$(echo "$line" | awk '{for (k=1;k<=NF;k++) if ($k=="ns/op") print $(k-1)}')
  cpu=$(echo "$line" | awk '{for (k=1;k<=NF;k++) if ($k=="cpu-ns/op") print $(k-1)}')
  go_wall=$(echo "$go_wall + $ns / 1000000000" | bc -l); go_cpu=$(echo "$go_cpu + $cpu / 1000000000" | bc -l)
  echo "round $((i+1)): xmllint $1 s wall, $(echo "$2 + $3" | bc -l) s CPU; engine $(echo "$ns / 1000000000" | bc -l | cut -c1-6) s wall, $(echo "$cpu / 1000000000" | bc -l | cut -c1-6) s CPU"
  i=$((i+1))
done
printf 'mean: xmllint %.3f s wall, %.3f s CPU; engine %.3f s wall, %.3f s CPU\n' \
  "$(echo "$xl_wall / $rounds" | bc -l)" "$(echo "$xl_cpu / $rounds" | bc -l)" \
  "$(echo "$go_wall / $rounds" | bc -l)" "$(echo "$go_cpu / $rounds" | bc -l)"
printf 'ratio engine/xmllint: %.2f wall, %.2f CPU\n' \
  "$(echo "$go_wall / $xl_wall" | bc -l)" "$(echo "$go_cpu / $xl_cpu" | bc -l)"
