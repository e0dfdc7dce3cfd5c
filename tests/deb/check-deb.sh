#!/bin/bash
# Check the linux-image package that scripts/deb.sh built: it installs a
# kernel image, System.map and config; the image is the patched kernel
# (wbt symbols, sysfs attribute and trace event names); and it boots under
# QEMU with our initramfs standing in for the distribution's initrd and
# shows the wb_lat_usec knob.  KTAP on stdout, one result per check.
# Usage: check-deb.sh [DIR]   (DIR: where the .deb files are [work/deb/vm])
# The package is unpacked into DIR/root, as dpkg -i would install it.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

dir=${1:-$WORK/deb/vm}
[ -d "$dir" ] || die "$dir: no such directory (run: make deb CONFIG=vm)"
need dpkg-deb nm strings
n=0 fails=0
declare -a results=()
res() { # res OK|FAIL NAME [DETAIL]
	n=$((n + 1))
	if [ "$1" = OK ]; then
		results+=("ok $n $2")
	else
		results+=("not ok $n $2")
		fails=$((fails + 1))
	fi
	[ -z "${3:-}" ] || results+=("# $3")
}
finish() {
	echo "TAP version 13"
	echo "1..$n"
	printf '%s\n' "${results[@]}"
	exit $((fails > 0))
}

mapfile -t debs < <(find "$dir" -maxdepth 1 -name 'linux-image-*.deb' ! -name '*-dbg_*' | sort)
if [ ${#debs[@]} -ne 1 ]; then
	res FAIL "one linux-image package" "found ${#debs[@]} in $dir"
	finish
fi
deb=${debs[0]}
res OK "one linux-image package" "$(basename "$deb")"

root=$dir/root
rm -rf "$root"
dpkg-deb -x "$deb" "$root"
kimg=$(find "$root/boot" -maxdepth 1 -name 'vmlinuz-*' | head -n1)
krel=${kimg##*/vmlinuz-}
map=$root/boot/System.map-$krel
cfg=$root/boot/config-$krel
if [ -n "$kimg" ] && [ -f "$map" ] && [ -f "$cfg" ]; then
	res OK "package installs vmlinuz, System.map and config" "release $krel"
else
	res FAIL "package installs vmlinuz, System.map and config" \
		"$(cd "$root" && find boot | tr '\n' ' ')"
	finish
fi
if grep -qx CONFIG_BLK_WBT=y "$cfg" && grep -qx CONFIG_BLK_WBT_MQ=y "$cfg" &&
	grep -qx CONFIG_WBT=y "$cfg"; then
	res OK "config: BLK_WBT=y, BLK_WBT_MQ=y, WBT=y"
else
	res FAIL "config: BLK_WBT=y, BLK_WBT_MQ=y, WBT=y"
fi

# Function symbols, from the packaged System.map.
for sym in wbt_throttle wbt_window_end blk_mq_wbt_init blk_mq_wbt_lat_store; do
	if grep -qE " [Tt] $sym\$" "$map"; then
		res OK "System.map: $sym"
	else
		res FAIL "System.map: $sym"
	fi
done

# The image itself: decompress it and look for the names user space sees.
vmlinux=$dir/vmlinux
if "$LINUX/scripts/extract-vmlinux" "$kimg" >"$vmlinux" 2>/dev/null &&
	[ "$(head -c4 "$vmlinux" | tail -c3)" = ELF ]; then
	res OK "extract-vmlinux: the image decompresses to an ELF vmlinux"
else
	res FAIL "extract-vmlinux: the image decompresses to an ELF vmlinux"
	finish
fi
strings -a "$vmlinux" >"$dir/vmlinux.strings"
for s in wb_lat_usec wb_window_usec wbt_step; do
	if grep -qxF "$s" "$dir/vmlinux.strings"; then
		res OK "vmlinux string: $s"
	else
		res FAIL "vmlinux string: $s"
	fi
done

# Boot the packaged image.  The guest prints its release and the knob.
vmlog=$dir/boot.log
rm -f "$dir/boot.console"
# shellcheck disable=SC2016 # expanded by the guest's shell
if "$TOP/scripts/vm-run.sh" -q -l "$dir/boot.console" -t 300 -k "$kimg" -d virtio -- \
	'echo "DEB-RELEASE=$(uname -r)"; echo "DEB-WB_LAT_USEC=$(cat /sys/block/vda/queue/wb_lat_usec)"' \
	>"$vmlog" 2>&1; then
	if grep -qx "DEB-RELEASE=$krel" "$dir/boot.console"; then
		res OK "boot: the packaged kernel runs" "uname -r: $krel"
	else
		res FAIL "boot: the packaged kernel runs" "$(grep DEB-RELEASE "$dir/boot.console")"
	fi
	lat=$(sed -n 's/^DEB-WB_LAT_USEC=\([0-9][0-9]*\)$/\1/p' "$dir/boot.console")
	if [ -n "$lat" ]; then
		res OK "boot: /sys/block/vda/queue/wb_lat_usec" "$lat"
	else
		res FAIL "boot: /sys/block/vda/queue/wb_lat_usec" \
			"$(grep DEB-WB_LAT_USEC "$dir/boot.console" || echo 'no output')"
	fi
else
	res FAIL "boot: the packaged kernel runs" "$(tail -n3 "$vmlog" | tr '\n' ' ')"
fi
finish
