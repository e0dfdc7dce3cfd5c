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

# Whether a kernel throttles background writeback at all, the same way on
# 6.12 and on the series: with throttling off, the flusher fills the
# device's tags; with it on, a limit holds it to a part of them.  Create
# the disk with make_qdev NAME hdd-fifo max_sectors=$INFLIGHT_MAX_SECTORS:
# small requests, so that the dirty data is many more requests than the
# device has tags, 2.8 ms each, about 11 MB/s.
# shellcheck disable=SC2034 # used by the scripts that source this file
INFLIGHT_MAX_SECTORS=64
INFLIGHT_MB=48	# written per run: about 4 s of writeback

# max_write_inflight DEV: write INFLIGHT_MB MiB through the page cache
# while the flusher writes it back, and print the largest number of writes
# in flight on the device that a sample of /sys/block/DEV/inflight showed
# meanwhile.  Fails when the writer failed or the writeback did not finish
# within a bound far beyond its duration.
max_write_inflight()
{
	_f=/sys/block/$1/inflight
	dd if=/dev/zero of="/dev/$1" bs=1M count=$INFLIGHT_MB 2> /dev/null &
	_dd=$!
	_max=0 _n=0 _done=
	# a few ms per sample under TCG: bound the wait at several minutes
	while [ "$_n" -lt 100000 ]; do
		read -r _r _w < "$_f"
		[ "$_w" -gt "$_max" ] && _max=$_w
		_n=$((_n + 1))
		[ $((_n % 64)) -eq 0 ] || continue
		pid_alive $_dd && continue
		# done when nothing is dirty or under writeback any more
		_dirty=$(awk '/^(Dirty|Writeback):/ { s += $2 } END { print s }' /proc/meminfo)
		if [ "$_dirty" -lt 1024 ] && [ "$_w" -eq 0 ]; then
			_done=1
			break
		fi
	done
	echo "$_max"
	wait $_dd && [ -n "$_done" ]
}

# inflight_setup DEV: background writeback only (no dirtier sleeps in
# balance_dirty_pages(), which would lift the limit, and the flusher starts
# at once), and no elevator between the limit and the tags
inflight_setup()
{
	wbt_set_dirty $((768 << 20)) $((4 << 20))
	echo none > "/sys/block/$1/queue/scheduler"
}
