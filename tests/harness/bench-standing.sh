#!/bin/bash
# scripts/bench.sh --standing: each goal's verdict from the newest run that
# measured it, whatever the order the runs are named in; runs recording
# different series are refused, and so is a directory without results.
# A run records the series its wbt kernel was built from (series_of()).
# Inputs are two committed runs of the same series, W3 on ssd in both,
# and copies of them in a temporary directory.
set -u
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
old=$top/bench/results/20261207-004125
new=$top/bench/results/20261207-041052
bench=$top/scripts/bench.sh
row() { grep -F "| $1 |" "$2"; }
p99="W3 ssd wbt vs upstream: read p99 <= upstream's"
hdd="W3 hdd wbt vs upstream: read p99 <= upstream's"

"$bench" --standing "$new" "$old" >"$tmp/a" 2>&1
check "the newer run's verdict stands ($(row "$p99" "$tmp/a"))" \
	grep -qF "| $p99 | wbt/upstream = 1.148 | **NO** | \`20261207-041052\` |" "$tmp/a"
check "a goal only the older run measured keeps its verdict" \
	grep -qF "| $hdd | wbt/upstream = 0.992 | within noise | \`20261207-004125\` |" "$tmp/a"
"$bench" --standing "$old" "$new" >"$tmp/b" 2>&1
check "the order of the arguments does not matter" cmp -s "$tmp/a" "$tmp/b"
check "the count line adds up ($(grep -m1 goals: "$tmp/a"))" \
	grep -q '^80 goals: 39 hold, 20 within noise, 21 missed, 0 not measured\.$' "$tmp/a"

# Copies of the two runs that record a series: NAME's series is SERIES.
record() {
	mkdir -p "$tmp/$1"
	"$py" -c 'import json, sys
res = json.load(open(sys.argv[1]))
res["invocation"]["series"] = sys.argv[3]
json.dump(res, open(sys.argv[2], "w"))' "$2/results.json" "$tmp/$1/results.json" "$3"
}
record s1 "$old" "patches 111, work/linux aaa"
record s2 "$new" "patches 222, work/linux bbb"
record s3 "$new" "patches 111, work/linux aaa"
expect_fail "runs of different series" "$bench" --standing "$tmp/s1" "$tmp/s2"
check "runs of one recorded series are taken" \
	"$bench" --standing "$tmp/s1" "$tmp/s3" >/dev/null
check "and the series is named" grep -q 'series: patches 111, work/linux aaa$' \
	<("$bench" --standing "$tmp/s1" "$tmp/s3")
expect_fail "results.json not found" "$bench" --standing "$old" "$tmp/none"
expect_fail "exclude each other" "$bench" --standing "$old" --cover "$old"
exit "$fails"
