#!/bin/bash
# bench/report.py on a committed full W1 run: the goals table, the derived
# read + write rate (the sum of each run's own two rates) and the bounds
# section come out of the recorded samples, and a missing file is refused.
set -u
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
src=$top/bench/results/20261201-010137/results.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$src" "$tmp/"
"$py" "$top/bench/run.py" --report "$tmp" >/dev/null 2>&1
md=$tmp/results.md
check "results.md written" test -s "$md"
check "goals table has the W1 hdd p99.9 goal" \
	grep -q '^| W1 hdd wbt vs none: read p99.9 at least 10x lower | wbt/none = ' "$md"
check "goals table has the W1 hdd p99 goal that was a kselftest" \
	grep -q '^| W1 hdd wbt vs none: read p99 at least 1.5x lower | wbt/none = ' "$md"
check "plots written" test -s "$tmp/cdf-w1-hdd.png"
# The median of read + write must equal the median of the per-run sums.
want=$("$py" - "$src" <<'PY'
import json, statistics, sys
res = json.load(open(sys.argv[1]))
s = [a + b for r in res["runs"] if r["config"] == "wbt"
     for a, b in zip(r["metrics"]["W1|hdd|read_kbs"], r["metrics"]["W1|hdd|write_kbs"])]
print("%.0f" % statistics.median(s))
PY
)
check "read + write rate of wbt on hdd is the median of the per-run sums ($want)" \
	grep -q "^| hdd | read + write rate (KB/s) | .* | $want (" "$md"
check "bounds section names the target read back from the device" \
	grep -q 'misses the target (75.0 ms here)' "$md"
out=$("$py" "$top/bench/run.py" --report "$tmp/nosuch" 2>&1)
check "missing results.json is refused" grep -q 'not found' <<<"$out"
exit "$fails"
