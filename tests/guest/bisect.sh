#!/bin/sh
# What a kernel built at any patch of the series must do, so that someone
# who bisects a latency regression through it never lands on a kernel that
# silently behaves differently (make check-series boots one per patch):
# queue/wbt_lat_usec exists with 6.12's default, 0 turns throttling off
# and -1 back on, and with it on, background writeback has fewer writes in
# flight on the device than with it off.
#
# Only what 6.12 already offered is checked, so that the same script runs
# on every kernel from "null_blk: add a queueing latency model" on, which
# the disk needs, to the last patch.  The helpers (make_qdev, wbt_set_dirty,
# KTAP) come from the final series' wbt_lib.sh in the initramfs.
. /guest/lib.sh

# Small requests, so that the dirty data is many more requests than the
# device has tags: 2.8 ms each on the hdd-fifo model, about 11 MB/s.
MAX_SECTORS=64
MB=48		# written per run: about 4 s of writeback

# max_write_inflight DEV: write MB MiB through the page cache while the
# flusher writes it back (background writeback: the dirty limit is far
# away), and print the largest number of writes in flight on the device
# that a sample of /sys/block/DEV/inflight showed meanwhile.  Fails when
# the writer failed or the writeback did not finish within a bound far
# beyond its duration.
max_write_inflight()
{
	_f=/sys/block/$1/inflight
	dd if=/dev/zero of="/dev/$1" bs=1M count=$MB 2> /dev/null &
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

main()
{
	ktap_print_header
	wbt_init
	wbt_plan wbt_lat_usec_exists wbt_lat_usec_default wbt_lat_usec_off_on \
		throttles

	if ! make_qdev bisect hdd-fifo max_sectors=$MAX_SECTORS; then
		wbt_skip_rest "$WBT_ERR"
		ktap_finished
	fi
	dev=$QDEV
	knob=$(qfile "$dev" wbt_lat_usec)
	depth=$(cat "/sys/block/$dev/queue/nr_requests")
	ktap_print_msg "disk $dev, $(uname -r), nr_requests $depth"

	rc=0
	[ -e "$knob" ] || rc=1
	wbt_result $rc wbt_lat_usec_exists
	if [ $rc -ne 0 ]; then
		wbt_skip_rest "no $knob"
		ktap_finished
	fi

	# 6.12's default for a rotational disk
	def=$(knob_get "$dev" wbt_lat_usec)
	[ "$def" = 75000 ]
	wbt_result $? wbt_lat_usec_default "(reads '$def')"

	rc=0
	knob_set "$dev" wbt_lat_usec 0 || rc=1
	off=$(knob_get "$dev" wbt_lat_usec)
	knob_set "$dev" wbt_lat_usec -1 || rc=1
	on=$(knob_get "$dev" wbt_lat_usec)
	[ "$off" = 0 ] && [ "$on" = 75000 ] || rc=1
	wbt_result $rc wbt_lat_usec_off_on "(0 reads '$off', -1 reads '$on')"

	# Only background writeback: no dirtier sleeps in balance_dirty_pages(),
	# which would lift the limit, and the flusher starts at once.
	wbt_set_dirty $((768 << 20)) $((4 << 20))
	echo none > "/sys/block/$dev/queue/scheduler"
	rc=0
	knob_set "$dev" wbt_lat_usec 0 || rc=1
	off=$(max_write_inflight "$dev") || rc=1
	knob_set "$dev" wbt_lat_usec -1 || rc=1
	on=$(max_write_inflight "$dev") || rc=1
	ktap_print_msg "most writes in flight: $off with throttling off, $on with it on"
	# Off, the flusher fills the tags; on, the background limit holds
	# them to a part of the depth.
	[ -n "$on" ] && [ -n "$off" ] && [ "$on" -lt "$off" ] || rc=1
	wbt_result $rc throttles "(off $off, on $on of $depth)"

	ktap_finished
}

main "$@"
