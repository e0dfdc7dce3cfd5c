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
# KTAP) come from the final series' wbt_lib.sh in the initramfs, and
# max_write_inflight from guest/lib.sh.
. /guest/lib.sh

main()
{
	ktap_print_header
	wbt_init
	wbt_plan wbt_lat_usec_exists wbt_lat_usec_default wbt_lat_usec_off_on \
		throttles

	if ! make_qdev bisect hdd-fifo max_sectors=$INFLIGHT_MAX_SECTORS; then
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

	inflight_setup "$dev"
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
