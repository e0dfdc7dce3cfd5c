#!/bin/bash
# vm-run.sh chooses the accelerator by what works: a QEMU stand-in on PATH
# plays a host whose /dev/kvm is writable but whose KVM aborts ("failed to
# set MSR"), one whose KVM guest hangs, and one whose KVM works.  Shows the
# fallback to TCG with its reason, the cached verdict, the log header, the
# WBT_ACCEL override and its refusal of a bad value; and a kernel that
# boots under neither, which must not be blamed on KVM.
set -u
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
# The caller's own choice (WBT_ACCEL=tcg make check) must not steer the test.
unset WBT_ACCEL WBT_KVM_PROBE_SECS
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
cat >"$tmp/bin/qemu-system-x86_64" <<'QEMU'
#!/bin/bash
# The stand-in: logs its arguments, behaves as FAKE_KVM says under KVM,
# and "boots" by printing what the guest's init would print.
if [ "${1:-}" = --version ]; then
	echo "QEMU emulator version 7.2.99 (stand-in)"
	exit 0
fi
echo "$*" >>"$FAKE_QEMU_LOG"
probe=0
[[ "$*" == */probe/probe.cpio* ]] && probe=1
if [ "$FAKE_KVM" = broken ] && [ $probe = 1 ]; then
	echo "Kernel panic - not syncing: VFS: Unable to mount root fs"
	exit 0
fi
if [[ " $* " == *" -accel kvm "* ]]; then
	case $FAKE_KVM in
	abort)
		[ -z "${FAKE_SLOW:-}" ] || sleep 1
		echo "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69" >&2
		echo "qemu-system-x86_64: ../../target/i386/kvm/kvm.c:3212: kvm_buf_set_msrs: Assertion failed." >&2
		exit 134 ;;
	hang) echo "Booting from ROM.."; sleep 30; exit 0 ;;
	esac
fi
if [ $probe = 1 ]; then
	echo "WBT-KVM-PROBE: user space"
else
	echo "WBT-GUEST: kernel stand-in"
	echo "WBT-EXIT: 0"
fi
QEMU
chmod +x "$tmp/bin/qemu-system-x86_64"
: >"$tmp/bzImage"
: >"$tmp/kvm"

# run WORKDIR FAKE_KVM [ENV...]: vm-run.sh with the stand-in; output in $out
run() {
	local w=$1 k=$2
	shift 2
	mkdir -p "$w"
	: >"$w/initramfs.cpio"
	out=$(env PATH="$tmp/bin:$PATH" WBT_WORK="$w" WBT_KVM_DEV="$tmp/kvm" \
		FAKE_KVM="$k" FAKE_QEMU_LOG="$w/qemu.calls" WBT_KVM_PROBE_SECS=3 "$@" \
		"$top/scripts/vm-run.sh" -q -k "$tmp/bzImage" -l "$w/console.log" -- true 2>&1)
}
kvm_calls() { grep -c -- '-accel kvm' "$1/qemu.calls" 2>/dev/null; }

w=$tmp/abort
run "$w" abort
check "KVM aborts: the run passes under TCG" grep -q 'guest command exited 0' <<<"$out"
check "KVM aborts: one line says TCG and why" \
	grep -q 'accelerator tcg: KVM probe failed: qemu exit 134: .*failed to set MSR 0x10a' <<<"$out"
check "KVM aborts: the guest was booted with -accel tcg" \
	grep -q -- '-accel tcg -cpu max' "$w/qemu.calls"
check "KVM aborts: the console log's header names the accelerator" \
	grep -q '^WBT-HOST: accel=tcg (KVM probe failed' "$w/console.log"
check "KVM aborts: the verdict is cached in work/accel/" \
	bash -c "ls '$w'/accel/kvm-* >/dev/null"
run "$w" abort
check "KVM aborts: a second run does not probe again" test "$(kvm_calls "$w")" = 1

w=$tmp/hang
run "$w" hang
check "KVM guest hangs: the probe times out and the run falls back to TCG" \
	grep -q 'accelerator tcg: KVM probe failed: no user space after' <<<"$out"

w=$tmp/works
run "$w" ok
check "KVM works: the guest is booted with -accel kvm -cpu host" \
	bash -c "grep -v probe.cpio '$w/qemu.calls' | grep -q -- '-accel kvm -cpu host'"
check "KVM works: the header says kvm" grep -q '^WBT-HOST: accel=kvm (KVM probe passed' "$w/console.log"

w=$tmp/concurrent
mkdir -p "$w"
: >"$w/initramfs.cpio"
for i in 1 2; do
	env PATH="$tmp/bin:$PATH" WBT_WORK="$w" WBT_KVM_DEV="$tmp/kvm" FAKE_KVM=abort \
		FAKE_QEMU_LOG="$w/qemu.calls" FAKE_SLOW=1 "$top/scripts/vm-run.sh" -q \
		-k "$tmp/bzImage" -l "$w/console$i.log" -- true >"$w/out$i" 2>&1 &
done
wait
check "two first runs at once: both boot, and KVM is probed once" \
	bash -c "grep -q 'guest command exited 0' '$w/out1' && grep -q 'guest command exited 0' '$w/out2' &&
		[ \$(grep -c -- '-accel kvm' '$w/qemu.calls') = 1 ]"

w=$tmp/broken
run "$w" broken
check "a kernel that boots under neither: not blamed on KVM, nothing cached" \
	bash -c "grep -q 'KVM probe inconclusive: .*not reach user space under TCG either' <<<'$out' &&
		! ls '$w'/accel/kvm-* >/dev/null 2>&1"

w=$tmp/forced
run "$w" abort WBT_ACCEL=tcg
check "WBT_ACCEL=tcg: no probe, TCG" \
	bash -c "! grep -q -- '-accel kvm' '$w/qemu.calls' && grep -q 'accel=tcg (forced by WBT_ACCEL=tcg)' '$w/console.log'"
w=$tmp/forcedkvm
run "$w" ok WBT_ACCEL=kvm
check "WBT_ACCEL=kvm: no probe, KVM" \
	bash -c "[ \$(grep -c . '$w/qemu.calls') = 1 ] && grep -q 'accel=kvm (forced by WBT_ACCEL=kvm)' '$w/console.log'"
w=$tmp/bad
run "$w" ok WBT_ACCEL=hvf
check "WBT_ACCEL=hvf is refused with a message" grep -q "WBT_ACCEL must be kvm or tcg (got 'hvf')" <<<"$out"
check "WBT_ACCEL=hvf boots nothing" test ! -e "$w/qemu.calls"

w=$tmp/nokvm
mkdir -p "$w"
: >"$w/initramfs.cpio"
out=$(env PATH="$tmp/bin:$PATH" WBT_WORK="$w" WBT_KVM_DEV="$tmp/nonexistent" FAKE_KVM=ok \
	FAKE_QEMU_LOG="$w/qemu.calls" "$top/scripts/vm-run.sh" -A -k "$tmp/bzImage" 2>&1)
check "no /dev/kvm: -A says tcg and why, boots nothing" \
	bash -c "grep -q '^tcg: .*nonexistent is missing or not writable' <<<'$out' && test ! -e '$w/qemu.calls'"
exit "$fails"
