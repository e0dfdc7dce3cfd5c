#!/bin/bash
# Build the guest initramfs (work/initramfs.cpio) from Debian's packages:
# busybox-static plus the tools the tests and benchmarks run, with the
# shared libraries they link, and the project's guest/ and tests/ files.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$WORK/initramfs.cpio
# The series' kselftests, from the kernel work tree.
ksft=$LINUX/tools/testing/selftests
# The wbt document: tests/guest/recipes.sh runs the recipes it contains.
doc=$LINUX/Documentation/block/writeback-throttling.rst
# Programs copied from the host with their libraries.
progs=(fio blktrace blkparse btt mkfs.ext4 mke2fs e2fsck tune2fs mkfs.xfs dbench
	mkswap swapon swapoff losetup trace-cmd perf dmsetup mdadm cryptsetup)
need busybox cpio ldd "${progs[@]}"
busybox | grep -q 'statically linked' || file -L "$(command -v busybox)" |
	grep -q 'statically linked' || die "busybox is not static (install busybox-static)"

inputs=$( (sha256sum "$0" "$(command -v busybox)" && for p in "${progs[@]}"; do
	sha256sum "$(command -v "$p")"; done &&
	find "$TOP/guest" "$TOP/tests" "$ksft/wbt" "$ksft/kselftest" "$LINUX/tools/wbt" "$doc" -type f -print0 \
		2>/dev/null | sort -z | xargs -0 sha256sum) |
	sha256sum | cut -d' ' -f1)
if [ -f "$out" ] && [ "$(cat "$out.sum" 2>/dev/null)" = "$inputs" ]; then
	log "initramfs: cached $out"
	exit 0
fi

root=$WORK/initramfs
rm -rf "$root"
mkdir -p "$root"/usr/share "$root"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,etc,proc,sys,dev,tmp,mnt,run,root}

build() {
	local p path lib
	cp "$(command -v busybox)" "$root/bin/busybox"
	"$root/bin/busybox" --list-full | while read -r p; do
		[ -e "$root/$p" ] || ln -s /bin/busybox "$root/$p"
	done
	for p in "${progs[@]}"; do
		path=$(command -v "$p")
		path=$(readlink -f "$path")
		rm -f "$root/usr/bin/$p" "$root/sbin/$p" "$root/bin/$p" "$root/usr/sbin/$p"
		cp "$path" "$root/usr/bin/$p"
		ldd "$path" | awk '/=>/ {print $3} /ld-linux/ {print $1}' |
			while read -r lib; do
				[ -e "$root$lib" ] && continue
				mkdir -p "$root$(dirname "$lib")"
				cp -L "$lib" "$root$lib"
			done
	done
	cp -r "$TOP/guest" "$root/guest"
	cp -r "$TOP/tests" "$root/tests"
	install -m 0755 "$TOP/guest/init" "$root/init"
	if [ -d "$ksft/wbt" ]; then
		mkdir -p "$root/kselftest"
		cp -r "$ksft/wbt" "$ksft/kselftest" "$root/kselftest/"
		# wbt_monitor.sh finds the monitor next to it, as installed
		if [ -f "$LINUX/tools/wbt/wbtmon.sh" ]; then
			install -m 0755 "$LINUX/tools/wbt/wbtmon.sh" "$root/kselftest/wbt/"
		fi
	else
		log "initramfs: no wbt kselftests in $ksft (series not applied?)"
	fi
	if [ -f "$doc" ]; then
		mkdir -p "$root/doc"
		cp "$doc" "$root/doc/"
	fi
	cp -r /usr/share/dbench "$root/usr/share/" 2>/dev/null || true
	printf 'root:x:0:0:root:/root:/bin/sh\n' >"$root/etc/passwd"
	printf 'root:x:0:\n' >"$root/etc/group"
	pack_cpio "$root" >"$out.tmp"
	mv "$out.tmp" "$out"
}
step "build initramfs" build
echo "$inputs" >"$out.sum"
log "initramfs: $out ($(du -h "$out" | cut -f1))"
