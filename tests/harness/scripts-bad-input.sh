#!/bin/bash
# The build and series scripts refuse bad arguments with a clear message.
set -u
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
expect_fail "usage:" "$top/scripts/build-kernel.sh" nosuchflavour
expect_fail "usage:" "$top/scripts/build-series.sh" --sometimes
expect_fail "usage:" "$top/scripts/apply-series.sh" everything
expect_fail "ONLY: unknown group 'gust'" env ONLY=lint,gust "$top/scripts/check.sh"
expect_fail "usage:" env ONLY=lint "$top/scripts/check.sh" --everything
check "check.sh without ONLY runs every group" \
	test "$(env -u ONLY "$top/scripts/check.sh" --list | tr '\n' ' ')" = \
	"lint harness series build guest bisect deb stress "
check "ONLY=lint,guest runs those two" \
	test "$(env ONLY=lint,guest "$top/scripts/check.sh" --list | tr '\n' ' ')" = "lint guest "
check "ONLY='lint harness' (spaces) runs those two" \
	test "$(env ONLY='lint harness' "$top/scripts/check.sh" --list | tr '\n' ' ')" = "lint harness "
expect_fail "names no group" env ONLY=' , ' "$top/scripts/check.sh" --list
# make checks the duration before it builds the debug kernel, also under -j
# and -k (and whatever flags the make check that runs this test has).
expect_fail "whole number from 30" env -u MAKEFLAGS -u MAKELEVEL \
	make -C "$top" --no-print-directory -k -j2 stress DURATION=abc
expect_fail "no such patch" "$top/scripts/checkpatch-series.sh" 9999-none.patch
expect_fail "whole number from 30" "$top/scripts/stress.sh" abc
expect_fail "whole number from 30" "$top/scripts/stress.sh" 5
expect_fail "whole number from 30" env DURATION=-1 "$top/scripts/stress.sh"
expect_fail "unknown CONFIG" "$top/scripts/deb.sh" nosuchconfig
expect_fail "unknown option" "$top/scripts/deb.sh" --nosuchoption
expect_fail "must be config or package" env DEB_STEP=everything "$top/scripts/deb.sh" vm
expect_fail "wbt@USEC needs USEC" env CONFIGS=none,wbt@abc "$top/scripts/bench.sh" --quick
expect_fail "unknown configuration" env CONFIGS=none,nosuch "$top/scripts/bench.sh" --quick
expect_fail "for configuration cand not found (run: make build-cand)" \
	env CONFIGS=none,cand BENCH_KERNEL_WBT=/bin/true \
	BENCH_KERNEL_CAND=/nonexistent/bzImage "$top/scripts/bench.sh" --quick
exit "$fails"
