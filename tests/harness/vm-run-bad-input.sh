#!/bin/bash
# vm-run.sh refuses bad arguments with a message and a non-zero exit,
# before it boots anything.
set -u
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
vmrun=$top/scripts/vm-run.sh
# A scratch work tree and no KVM probe: nothing here may reach the real
# work/ (a probe of /bin/true would cache a wrong verdict there).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export WBT_WORK=$tmp WBT_ACCEL=tcg
expect_fail "unknown disk type 'floppy'" "$vmrun" -k /bin/true -d floppy -- true
expect_fail "bad disk size" "$vmrun" -k /bin/true -d virtio:lots -- true
expect_fail "not a positive number: 'soon'" "$vmrun" -t soon -- true
expect_fail "not a positive number: '0'" "$vmrun" -m 0 -- true
expect_fail "no guest command given" "$vmrun" -k /bin/true
expect_fail "kernel image /nonexistent not found" "$vmrun" -k /nonexistent -- true
# Every flavour of build-kernel.sh is a name -k knows, not a path.
for f in wbt upstream debug nohooks mqoff upstream-mqoff cand; do
	expect_fail "kernel image $tmp/build/$f/arch/x86/boot/bzImage not found" \
		"$vmrun" -k "$f" -- true
done
exit "$fails"
