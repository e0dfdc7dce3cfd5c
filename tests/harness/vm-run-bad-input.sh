#!/bin/bash
# vm-run.sh refuses bad arguments with a message and a non-zero exit,
# before it boots anything.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
fails=0
expect_fail() { # expect_fail PATTERN ARGS...
	local pat=$1 out rc
	shift
	out=$("$top/scripts/vm-run.sh" "$@" 2>&1)
	rc=$?
	if [ $rc -eq 0 ] || ! grep -q -- "$pat" <<<"$out"; then
		echo "FAIL: vm-run.sh $* -> rc=$rc, output: $out"
		fails=$((fails + 1))
	else
		echo "ok: vm-run.sh $* -> $(grep -m1 -- "$pat" <<<"$out")"
	fi
}
expect_fail "unknown disk type 'floppy'" -k /bin/true -d floppy -- true
expect_fail "bad disk size" -k /bin/true -d virtio:lots -- true
expect_fail "not a positive number: 'soon'" -t soon -- true
expect_fail "not a positive number: '0'" -m 0 -- true
expect_fail "no guest command given" -k /bin/true
expect_fail "kernel image /nonexistent not found" -k /nonexistent -- true
exit $fails
