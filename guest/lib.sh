# shellcheck shell=sh
# Helpers for scripts that run inside the test guest (busybox sh).  The
# kselftests' wbt_lib.sh is the one place for what the guest scripts share
# with them: the null_blk profiles (make_qdev) and the disk-type mapper
# (disk_type).
WBT_DIR=/kselftest/wbt
# shellcheck source=/dev/null
. "$WBT_DIR/wbt_lib.sh"

# send_file PATH [NAME]: copy a file back to the host over the console;
# scripts/vm-run.sh -o DIR writes it to DIR/NAME.
send_file() {
	echo "WBT-FILE-BEGIN ${2:-$(basename "$1")}"
	base64 "$1"
	echo "WBT-FILE-END"
}

# Request-based disks other than null_blk and zram, as sysfs names.
guest_disks() {
	for d in /sys/block/*; do
		d=${d##*/}
		case $d in
		loop* | ram* | zram* | nullb*) continue ;;
		esac
		[ -e "/sys/block/$d/mq" ] && echo "$d"
	done
}
