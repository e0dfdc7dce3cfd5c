#!/bin/bash
# scripts/ktap.sh counts every result against its plan: complete,
# truncated, crashed, bailed-out and skipped KTAP streams (fixtures/), and
# KUnit consoles checked against a case list, consoles whose lines the
# kernel's messages cut in two; lib.sh's console_splats finds RCU stalls
# and reports that start in the middle of a line.
set -u
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"
# shellcheck source=scripts/ktap.sh
. "$top/scripts/ktap.sh"
fx=$top/tests/harness/fixtures
got=""
# shellcheck disable=SC2317 # called by ktap.sh
record() { got+="$1|$2|${3:-}"$'\n'; }

# expect DESCRIPTION EXPECTED-LINES CMD...: what CMD records, in order
expect() {
	local what=$1 want=$2
	shift 2
	got=""
	"$@"
	if [ "$got" = "$want"$'\n' ]; then
		echo "ok: $what"
	else
		echo "FAIL: $what"
		diff <(echo "$want") <(printf '%s' "$got") | sed 's/^/    /'
		fails=$((fails + 1))
	fi
}

expect "a complete stream: every result, the skip's reason" \
"PASS|k: first|
PASS|k: second|
SKIP|k: third|no ide disk" ktap -x k "$fx/ksft-complete.ktap"
expect "a stream cut off mid-run: the missing results and the missing exit status fail" \
"PASS|k: first|
PASS|k: second|
FAIL|k: results 3-5 of 5 missing (last result: 2 (second))|
FAIL|k: no exit status (the run was cut off)|" ktap -x k "$fx/ksft-truncated.ktap"
expect "a test that crashed: missing results and its exit status fail" \
"PASS|k: first|
PASS|k: second|
FAIL|k: results 3-4 of 4 missing (last result: 2 (second))|
FAIL|k: exit status 139|" ktap -x k "$fx/ksft-crashed.ktap"
expect "all results pass but the test exits 1: a failure" \
"PASS|k: first|
PASS|k: second|
FAIL|k: exit status 1|" ktap -x k "$fx/ksft-exit1.ktap"
expect "a failed result explains exit 1: counted once" \
"PASS|k: first|
FAIL|k: second|" ktap -x k "$fx/ksft-failed.ktap"
expect "a whole-script skip (1..0 # SKIP, exit 4) is one skip with its reason" \
"SKIP|k|must be run as root" ktap -x k "$fx/ksft-skipall.ktap"
expect "ktap_helpers.sh's reasonless skip takes the diagnostic line before it" \
"PASS|k: first|
SKIP|k: bfq_disables|no bfq in this kernel" ktap -x k "$fx/ksft-helpers-skip.ktap"
expect "more results than planned fail" \
"PASS|k: first|
PASS|k: second|
PASS|k: third|
PASS|k: fourth|
FAIL|k: 4 results, but the plan is 3|" ktap -x k "$fx/ksft-extra.ktap"
expect "a bail out fails, and so do the results it left out" \
"PASS|k: first|
FAIL|k: results 2-3 of 3 missing (last result: 1 (first))|
FAIL|k: bailed out: the device vanished|" ktap -x k "$fx/ksft-bail.ktap"
expect "the same result three times does not fill a plan of 3" \
"PASS|k: first|
PASS|k: first|
PASS|k: first|
FAIL|k: results numbered out of sequence (number@position: 1@2 1@3)|" ktap -x k "$fx/ksft-renumbered.ktap"
expect "a plan of 0 without # SKIP fails" \
"FAIL|k: a plan of 0 results without # SKIP|" ktap -x k "$fx/ksft-plan0.ktap"
expect "a last line without a newline still counts" \
"PASS|k: first|" ktap -x k "$fx/ksft-no-newline.ktap"
expect "without -x an exit status is not required" \
"PASS|k: first|
PASS|k: second|
FAIL|k: results 3-5 of 5 missing (last result: 2 (second))|" ktap k "$fx/ksft-truncated.ktap"
expect "a console: the kernel's KTAP (KUnit) and messages are not the stream's results" \
"PASS|k: tracefs mounted|
PASS|k: virtio disk attached and seen (vda)|" ktap k "$fx/smoke-with-kunit.console"
expect "a console: kernel messages inside the stream's lines split them, and they still count" \
"PASS|k: wbt_lat_usec_exists|
PASS|k: wbt_lat_usec_default (reads '75000')|
PASS|k: throttles (off 32, on 24 of 32)|" ktap k "$fx/ksft-interleaved.console"
check "a console: the firmware's escapes are not glued to the guest's first line" \
	grep -qx 'WBT-GUEST: kernel 6.12.117-wbt-vm+, 2 cpus, 2044284 kB' \
	<<<"$(console_lines "$fx/ksft-interleaved.console")"
expect "a stream sent back as a file: dmesg lines quoted in diagnostics are the test's" \
"PASS|k: first|
PASS|k: second|" ktap -x k "$fx/ksft-dmesg-quoted.ktap"
expect "a stream that never came back fails" \
"FAIL|k: no output ($fx/nonexistent.ktap is missing or empty)|" ktap -x k "$fx/nonexistent.ktap"

mapfile -t cases < <(kunit_cases "$fx/kunit-cases.c")
check "kunit_cases reads KUNIT_CASE, _PARAM and _SLOW" \
	test "${cases[*]}" = "wbt_test_alpha wbt_test_beta wbt_test_gamma"
mapfile -t two < <(kunit_cases "$fx/kunit-two-suites.c" two_b_cases)
check "kunit_cases SOURCE ARRAY reads only that suite's cases" \
	test "${two[*]}" = "wbt_test_delta wbt_test_epsilon"
expect "KUnit: a complete suite, every case of the list" \
"PASS|kunit wbt: wbt_test_alpha|
PASS|kunit wbt: wbt_test_beta|
PASS|kunit wbt: wbt_test_gamma|" kunit wbt "$fx/kunit-complete.console" "${cases[@]}"
expect "KUnit: a suite that crashed: each case without a result fails" \
"PASS|kunit wbt: wbt_test_alpha|
FAIL|kunit wbt: wbt_test_beta: no result|
FAIL|kunit wbt: wbt_test_gamma: no result|
FAIL|kunit wbt: 1 of 3 planned results|
FAIL|kunit wbt: the suite did not finish|" kunit wbt "$fx/kunit-crashed.console" "${cases[@]}"
expect "KUnit: a case in the source but not in the console fails" \
"PASS|kunit wbt: wbt_test_alpha|
PASS|kunit wbt: wbt_test_beta|
PASS|kunit wbt: wbt_test_gamma|
FAIL|kunit wbt: wbt_test_delta: no result|" kunit wbt "$fx/kunit-complete.console" "${cases[@]}" wbt_test_delta

check "splat scan: an RCU stall fails the run" \
	grep -q 'rcu: INFO: rcu_preempt self-detected stall' <<<"$(console_splats "$fx/console-rcu-stall.console")"
check "splat scan: a WARNING after user output on the same line fails the run" \
	grep -q 'WARNING: CPU: 1 PID: 77 at block/blk-mq-wbt.c' <<<"$(console_splats "$fx/console-midline.console")"
check "splat scan: user text that mentions WARNING or BUG does not" \
	test -z "$(console_splats "$fx/console-clean.console")"
check "splat scan: SLUB's report, its banner and an RCU tasks-trace stall" \
	test "$(console_splats "$fx/console-slub.console" | wc -l)" = 3
check "splat scan: the Oops of a crashed KUnit run" \
	test "$(console_splats "$fx/kunit-crashed.console" | wc -l)" = 2
exit "$fails"
