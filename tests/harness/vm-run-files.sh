#!/bin/bash
# vm-run.sh -o: the files a guest sends back over the console.  A QEMU
# stand-in plays a guest that sends one file twice (the second copy must
# win), one that does not decode, one cut short and sent again, and dies
# while sending two more: a file it was sending must not appear, half
# written, in place of nothing or of an earlier whole copy.
set -u
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/work"
cat >"$tmp/bin/qemu-system-x86_64" <<'QEMU'
#!/bin/bash
if [ "${1:-}" = --version ]; then
	echo "QEMU emulator version 7.2.99 (stand-in)"
	exit 0
fi
b64() { printf '%s' "$1" | base64; }
echo "WBT-FILE-BEGIN results.txt"
b64 "first copy"
echo "WBT-FILE-END"
echo "WBT-FILE-BEGIN w1.json"
b64 "whole"
echo "[   12.345678] a kernel message inside a file"
echo "WBT-FILE-END"
echo "WBT-FILE-BEGIN bad.txt"
echo "!!! not base64 !!!"
echo "WBT-FILE-END"
echo "WBT-FILE-BEGIN results.txt"
b64 "second copy"
echo "WBT-FILE-END"
echo "WBT-FILE-BEGIN meta.txt"
b64 "cut short and sent again" | head -c 8
echo
echo "WBT-FILE-BEGIN meta.txt"
b64 "sent again"
echo "WBT-FILE-END"
echo "WBT-FILE-BEGIN results.txt"
b64 "third copy, cut short by the guest's death" | head -c 12
echo
echo "WBT-FILE-BEGIN w3.json"
b64 "never finished" | head -c 8
echo
echo "[   99.000000] Out of memory: Killed process 1 (init)"
exit 0
QEMU
chmod +x "$tmp/bin/qemu-system-x86_64"
: >"$tmp/bzImage"
: >"$tmp/work/initramfs.cpio"
out=$(env PATH="$tmp/bin:$PATH" WBT_WORK="$tmp/work" WBT_ACCEL=tcg \
	"$top/scripts/vm-run.sh" -q -k "$tmp/bzImage" -l "$tmp/console.log" \
	-o "$tmp/out" -- true 2>&1)
rc=$?
o=$tmp/out
check "a guest that died fails the run (rc $rc)" test "$rc" -ne 0
check "the last whole copy of a file sent twice wins, not a later cut one ($(cat "$o/results.txt" 2>&1))" \
	test "$(cat "$o/results.txt" 2>/dev/null)" = "second copy"
check "a copy cut short and then sent again whole is the whole one ($(cat "$o/meta.txt" 2>&1))" \
	test "$(cat "$o/meta.txt" 2>/dev/null)" = "sent again"
check "a kernel message inside a file is not part of it" \
	test "$(cat "$o/w1.json" 2>/dev/null)" = "whole"
check "a file cut short by the guest's death is not written" test ! -e "$o/w3.json"
check "a file that does not decode is not written" test ! -e "$o/bad.txt"
check "no .part file is left behind ($(ls "$o"))" \
	bash -c "! ls '$o'/*.part >/dev/null 2>&1"
check "the cut and the undecodable files are named in a warning" \
	bash -c "grep -q 'w3.json.part: the guest stopped' <<<'$out' && grep -q 'bad.txt.part' <<<'$out'"
exit "$fails"
