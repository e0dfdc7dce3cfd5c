#!/bin/bash
# make stress: the reliability soak on the debug kernel.
#
# Usage: scripts/stress.sh [--check] [SECONDS]  (make stress [DURATION=SECONDS])
#   SECONDS   guest time of the soak, 30 to 86400 [600]
#   --check   only check SECONDS (make checks it before building)
# Boots the debug kernel (make build-debug: configs/debug.config, lockdep,
# KASAN, atomic sleep checks, hung task 30 s, soft lockup, workqueue
# watchdog, timer debug objects) with KUnit enabled and runs
# guest/stress.sh.  Passes when the guest reports STRESS: PASS with the
# throttle seen at work (writes throttled, the step moved, inflight 0 at
# the end), every case of the KUnit suite passes under the debug kernel,
# and the console holds no lockdep, KASAN, WARN, BUG, hung-task,
# soft-lockup or RCU stall report (scripts/vm-run.sh).
# Console and summary: work/stress/<date>/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/ktap.sh
. "$TOP/scripts/ktap.sh"

only_check=0
case ${1:-} in
-h | --help) usage_from_header 0 ;;
--check) only_check=1; shift ;;
esac
dur=${1:-${DURATION:-600}}
if ! [[ $dur =~ ^[0-9]+$ ]] || [ "$dur" -lt 30 ] || [ "$dur" -gt 86400 ]; then
	die "SECONDS must be a whole number from 30 to 86400 (got '$dur')"
fi
[ "$only_check" = 0 ] || exit 0
[ -f "$WORK/build/debug/arch/x86/boot/bzImage" ] ||
	die "no debug kernel in work/build/debug (run: make build-debug)"

out=$WORK/stress/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
# Boot, KUnit, setup and teardown under KASAN and TCG take minutes on top
# of the soak itself.
limit=$((dur + 1200))
log "stress: ${dur}s soak on the debug kernel (hard limit ${limit}s), output $out"
set +e
"$TOP/scripts/vm-run.sh" -q -k debug -l "$out/console.log" -m 1280 -c 2 -t "$limit" \
	-a kunit.enable=1 -d virtio:2G -o "$out" -- /guest/stress.sh "$dur"
rc=$?
set -e
[ -f "$out/console.log" ] || die "the VM run wrote no console log (exit $rc)"

fails=()
grep -q 'KernelAddressSanitizer initialized' "$out/console.log" ||
	fails+=("the kernel booted is not the KASAN debug kernel")
grep -q '^stress: lockdep active' "$out/console.log" ||
	fails+=("lockdep was not active in the guest")
# KUnit, as scripts/check.sh reads it: every case of the suite's source
# has passed (or was skipped with a reason) under the debug kernel.
kpass=0 kskip=0
# shellcheck disable=SC2317 # called by kunit()
record() {
	case $1 in
	PASS) kpass=$((kpass + 1)) ;;
	SKIP) kskip=$((kskip + 1)) fails+=("KUnit under the debug kernel: $2 skipped (${3:-}): every case must pass") ;;
	FAIL) fails+=("KUnit under the debug kernel: $2") ;;
	esac
}
kunit_suites "$LINUX" "$out/console.log"
kunit="$kpass passed, $kskip skipped, $KUNIT_NCASES cases in the sources"
grep '^stress: ' "$out/console.log" | grep -E 'FAIL|workers alive' | tail -n 8 >&2 || true
# The soak sizes its memory pressure to stay clear of the OOM killer;
# when it did not, say so, as the killed soak prints no summary.
oom=$(grep -o 'Out of memory: Killed process [0-9]* ([^)]*)' "$out/console.log" |
	sed 's/.*process //' | tr '\n' ' ' || true)
[ -z "$oom" ] || fails+=("the guest ran out of memory: the OOM killer killed ${oom% }")
summary=$(sed -n 's/^STRESS-SUMMARY: //p' "$out/console.log" | tail -n1)
[ -n "$summary" ] || fails+=("the guest printed no summary")
grep -q '^STRESS: PASS' "$out/console.log" || fails+=("the guest did not report STRESS: PASS")
[ "$rc" -eq 0 ] || fails+=("the VM run failed (exit $rc; see $out/console.log)")

echo "stress summary (${dur}s): ${summary:-none}"
echo "KUnit under the debug kernel: ${kunit:-none}"
if [ ${#fails[@]} -gt 0 ]; then
	printf 'stress: FAIL: %s\n' "${fails[@]}"
	exit 1
fi
echo "stress: PASS (no lockdep, KASAN, WARN, BUG, hung-task, soft-lockup or RCU stall report)"
