#!/bin/bash
# scripts/bench.sh --standing: each goal's verdict from the newest run that
# measured it, whatever the order the runs are named in; a newer run that
# did not measure a goal leaves the older verdict; runs recording
# different series are refused, and so is a directory without results.
# The series a run records is what scripts/build-kernel.sh wrote next to
# the image (tree_series of scripts/lib.sh, read by series_of() of
# bench/run.py): made-up trees.  Inputs are two committed runs of the same
# series, W3 on ssd in both, and copies of them; and the committed
# bench/results/standing.md must be what --standing prints for its runs.
# shellcheck disable=SC2317 # the functions that check calls
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
check "a goal only the older run has a cell of keeps its verdict" \
	grep -qF "| $hdd | wbt/upstream = 0.992 | within noise | \`20261207-004125\` |" "$tmp/a"
"$bench" --standing "$old" "$new" >"$tmp/b" 2>&1
check "the order of the arguments does not matter" cmp -s "$tmp/a" "$tmp/b"
# The count line against the table under it.
count() {
	"$py" - "$1" <<'PY'
import re
import sys
text = open(sys.argv[1]).read()
m = re.search(r"^(\d+) goals: (\d+) hold, (\d+) within noise, (\d+) missed, (\d+) not measured\.$",
              text, re.M)
rows = [r for r in text.splitlines() if r.startswith("| ") and not r.startswith("| goal |")]
want = [len(rows)] + [sum(1 for r in rows if r.split(" | ")[2] == v)
                      for v in ("holds", "within noise", "**NO**", "not measured")]
sys.exit(not m or [int(x) for x in m.groups()] != want)
PY
}
check "the count line is the table's ($(grep -m1 'goals:' "$tmp/a"))" count "$tmp/a"

# Copies of the two runs.  mk NAME SRC [SERIES [DROP [DATE]]]: the copy
# records SERIES (none: no series), without the boots of configuration
# DROP, started at DATE.
mk() {
	mkdir -p "$tmp/$1"
	"$py" - "$2/results.json" "$tmp/$1/results.json" "${3:-}" "${4:-}" "${5:-}" <<'PY'
import json
import sys
res = json.load(open(sys.argv[1]))
if sys.argv[3]:
    res["invocation"]["series"] = sys.argv[3]
if sys.argv[5]:
    res["invocation"]["date"] = sys.argv[5]
res["runs"] = [r for r in res["runs"] if r["config"] != sys.argv[4]]
json.dump(res, open(sys.argv[2], "w"))
PY
}
mk s1 "$old" "patches 111, work/linux aaa"
mk s2 "$new" "patches 222, work/linux bbb"
mk s3 "$new" "patches 111, work/linux aaa"
mk n3 "$new"
# The same patches applied in another work tree: other commit ids.
mk s4 "$new" "patches 111, work/linux bbb"
mk s5 "$new" "patches 111, (applied at aaa) work/linux bbb"
mk s6 "$new" "patches 111, work/linux aaa with uncommitted changes ccc"
mk u3 "$new" "" upstream
# Two runs started at the same time: the later name is the newer.
mk t1 "$new" "" "" 20990101-000000
mk t2 "$old" "" "" 20990101-000000
expect_fail "runs of different series" "$bench" --standing "$tmp/s1" "$tmp/s2"
"$bench" --standing "$tmp/s1" "$tmp/s3" >"$tmp/c" 2>&1
check "runs of one recorded series are taken" \
	grep -qF "| $p99 | wbt/upstream = 1.148 | **NO** | \`s3\` |" "$tmp/c"
check "and the series is named" grep -q 'series: patches 111, work/linux aaa$' "$tmp/c"
"$bench" --standing "$tmp/s1" "$tmp/s4" >"$tmp/h" 2>&1
check "the same patches applied in another tree are one series" \
	grep -qF "| $p99 | wbt/upstream = 1.148 | **NO** | \`s4\` |" "$tmp/h"
expect_fail "runs of different series" "$bench" --standing "$tmp/s1" "$tmp/s5"
expect_fail "runs of different series" "$bench" --standing "$tmp/s1" "$tmp/s6"
"$bench" --standing "$tmp/s1" "$tmp/n3" >"$tmp/d" 2>&1
check "a run without a series is named as unchecked" \
	grep -q '^Runs that record no series, .*: n3\.$' "$tmp/d"
check "and its verdicts are taken" \
	grep -qF "| $p99 | wbt/upstream = 1.148 | **NO** | \`n3\` |" "$tmp/d"
"$bench" --standing "$tmp/t2" "$tmp/t1" >"$tmp/g" 2>&1
check "a tie in dates goes to the later name ($(row "$p99" "$tmp/g"))" \
	grep -qF "| $p99 | wbt/upstream = 1.169 | **NO** | \`t2\` |" "$tmp/g"
"$bench" --standing "$old" "$tmp/u3" >"$tmp/e" 2>&1
check "a newer run without 6.12's boots leaves the older verdict ($(row "$p99" "$tmp/e"))" \
	grep -qF "| $p99 | wbt/upstream = 1.169 | **NO** | \`20261207-004125\` |" "$tmp/e"
"$bench" --standing "$top/bench/results/20261207-044607" >"$tmp/f" 2>&1
no_cellless() { grep -q "^| W1 qd1wc " "$1" && ! grep -qF "| W1 - " "$1"; }
check "a goal no cell of a run measured gets no row" no_cellless "$tmp/f"
expect_fail "results.json not found" "$bench" --standing "$old" "$tmp/none"
echo '{"runs": []}' >"$tmp/n3/results.json"
expect_fail "not a results file" "$bench" --standing "$old" "$tmp/n3"
expect_fail "exclude each other" "$bench" --standing "$old" --cover "$old"

# What a kernel build records, and what a run reads back from it.
w=$tmp/work
git init -q "$w/linux"
git -C "$w/linux" -c user.name=t -c user.email=t@t commit -q --allow-empty -m base
at=$(git -C "$w/linux" rev-parse HEAD)
echo "0123456789abcdef0123 $at" >"$w/linux.wbt.stamp"
series() { WBT_WORK=$w bash -c '. "$1/scripts/lib.sh" && tree_series "$2"' _ "$top" "$1"; }
head=$(git -C "$w/linux" rev-parse --short=12 HEAD)
check "a clean tree: the patches' sum and HEAD ($(series "$w/linux"))" \
	test "$(series "$w/linux")" = "patches 0123456789ab, $w/linux $head"
echo x >"$w/linux/f"
git -C "$w/linux" add f
s1=$(series "$w/linux")
echo y >"$w/linux/f"
named() { [[ $1 == *" with uncommitted changes "???????????? ]] && [ "$(series "$w/linux")" != "$1" ]; }
check "uncommitted changes are named by their sum ($s1)" named "$s1"
git -C "$w/linux" -c user.name=t -c user.email=t@t commit -q -a -m unexported
check "a commit not exported: the commit the patches were applied at ($(series "$w/linux"))" \
	grep -q "^patches 0123456789ab, (applied at ${at:0:12}) $w/linux [0-9a-f]\{12\}$" \
	<<<"$(series "$w/linux")"
echo z >"$w/linux/new"
check "an untracked file counts as a change" grep -q "with uncommitted changes" \
	<<<"$(series "$w/linux")"
mkdir -p "$w/linux/plain"
check "a directory that is not a git tree of its own records nothing" \
	test -z "$(series "$w/linux/plain")"
mkdir -p "$w/build/wbt"
rs() { (cd "$top/bench" && WBT_WORK=$w "$py" -c 'import sys, run; print(run.series_of(sys.argv[1]))' "$1"); }
check "an image without a record: no series" test "$(rs wbt)" = None
echo "patches 1, work/linux 2" >"$w/build/wbt/series"
check "an image's record is the run's series" test "$(rs wbt)" = "patches 1, work/linux 2"

# bench/results/standing.md holds what --standing prints for the runs it
# names, in one piece, so an edit by hand or a stale table fails.
st=$top/bench/results/standing.md
# shellcheck disable=SC2016 # the backquotes are markdown
mapfile -t sruns < <(sed -n -E 's|^- `([0-9]{8}-[0-9]{6})`: .*|\1|p' "$st")
check "bench/results/standing.md names its runs (${#sruns[@]})" test "${#sruns[@]}" -gt 0
for r in "${sruns[@]}"; do
	check "its run $r is committed" committed "bench/results/$r/results.json"
done
"$bench" --standing "${sruns[@]/#/$top/bench/results/}" >"$tmp/st" 2>&1
if ! check "bench/results/standing.md is what --standing prints for them" \
	contains "$tmp/st" "$st"; then
	diff -u "$st" "$tmp/st" | head -40
fi
exit "$fails"
