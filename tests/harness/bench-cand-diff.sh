#!/bin/bash
# bench/run.py's record of what the cand and wbt kernels hold: cand.diff is
# work/linux-cand against the wbt branch, and changes in work/linux not
# committed to the branch (which the wbt kernel is built from) go to
# wbt.diff, with a note; a clean work/linux writes no wbt.diff.  Made-up
# trees in a temporary WBT_WORK.
set -u
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
g() { git -C "$1" -c user.name=t -c user.email=t@t "${@:2}"; }
mkdir -p "$tmp/work/linux" "$tmp/out1" "$tmp/out2"
g "$tmp/work/linux" init -q -b wbt
echo base >"$tmp/work/linux/f"
g "$tmp/work/linux" add f
g "$tmp/work/linux" commit -q -m base
g "$tmp/work/linux" worktree add -q --detach "$tmp/work/linux-cand" wbt
echo cand >"$tmp/work/linux-cand/f"

record() {
	(cd "$top/bench" && WBT_WORK="$tmp/work" "$py" - "$1" <<'PY'
import sys
import types
import run
run.record_cand(types.SimpleNamespace(kernel_cand=run.CAND), sys.argv[1])
PY
	)
}

log=$(record "$tmp/out1" 2>&1)
check "cand.diff holds the candidate's change" grep -q '^+cand' "$tmp/out1/cand.diff"
check "a clean work/linux writes no wbt.diff" test ! -e "$tmp/out1/wbt.diff"
echo dirty >"$tmp/work/linux/f"
log=$(record "$tmp/out2" 2>&1)
check "work/linux's uncommitted change is kept in wbt.diff" grep -q '^+dirty' "$tmp/out2/wbt.diff"
check "and the run says so ($(grep -m1 NOTE <<<"$log"))" grep -q "NOTE: work/linux differs" <<<"$log"
exit "$fails"
