#!/bin/sh
# A kernel built with CONFIG_BLK_WBT_MQ=n (throttling built, off by
# default), as some distributions configure it: the same script runs on the
# series' kernel and on unpatched 6.12 built that way (scripts/check.sh),
# and checks what 6.12 does, value by value.  In 6.12 a disk then has no
# throttling policy: queue/wbt_lat_usec fails a read with EINVAL, and the
# first write sets the policy up; -1 or the default turns throttling on
# by default, another value is the target, 0 leaves it off.
. /guest/lib.sh

# fresh_disk NAME: a new rotational disk that nobody wrote a setting to
fresh_disk()
{
	make_qdev "$1" hdd-fifo max_sectors=$INFLIGHT_MAX_SECTORS || return 1
	dev=$QDEV
}

# first_write NAME VALUE TEST: on a fresh disk, the first write of VALUE
# to wbt_lat_usec reads back
first_write()
{
	_rc=0
	fresh_disk "$1" || _rc=1
	knob_set "$dev" wbt_lat_usec "$2" || _rc=1
	_v=$(knob_get "$dev" wbt_lat_usec)
	[ "$_v" = "$2" ] || _rc=1
	wbt_result $_rc "$3" "(reads '$_v')"
}

main()
{
	ktap_print_header
	wbt_init
	wbt_plan read_einval wb_lat_usec_reads_0 not_throttled minus1_sets_up \
		throttles_after_minus1 value_sets_up zero_sets_up_off

	if ! fresh_disk mqoff1; then
		wbt_skip_rest "$WBT_ERR"
		ktap_finished
	fi
	ktap_print_msg "disk $dev, $(uname -r)"
	if [ ! -e "$(qfile "$dev" wbt_lat_usec)" ]; then
		wbt_skip_rest "no queue/wbt_lat_usec: CONFIG_BLK_WBT=n?"
		ktap_finished
	fi

	# 1: no policy, so the read fails, with EINVAL
	err=$(cat "$(qfile "$dev" wbt_lat_usec)" 2>&1)
	rc=$?
	ktap_print_msg "read: status $rc, '$err'"
	[ $rc -ne 0 ] && case $err in *"nvalid argument"*) true ;; *) false ;; esac
	wbt_result $? read_einval

	# 2: the series' own file says off, plainly
	if [ -e "$(qfile "$dev" wb_lat_usec)" ]; then
		v=$(knob_get "$dev" wb_lat_usec)
		[ "$v" = 0 ]
		wbt_result $? wb_lat_usec_reads_0 "(reads '$v')"
	else
		wbt_skip wb_lat_usec_reads_0 "no queue/wb_lat_usec (6.12)"
	fi

	# 3-5: nothing throttled until -1 is written, then the default is on
	inflight_setup "$dev"
	depth=$(cat "/sys/block/$dev/queue/nr_requests")
	rc=0
	off=$(max_write_inflight "$dev") || rc=1
	ktap_print_msg "most writes in flight before any write to wbt_lat_usec: $off"
	# unthrottled, the flusher fills the tags
	[ -n "$off" ] && [ "$off" -ge "$depth" ] || rc=1
	wbt_result $rc not_throttled "($off of $depth)"
	rc=0
	knob_set "$dev" wbt_lat_usec -1 || rc=1
	v=$(knob_get "$dev" wbt_lat_usec)
	[ "$v" = 75000 ] || rc=1
	wbt_result $rc minus1_sets_up "(reads '$v')"
	rc=0
	on=$(max_write_inflight "$dev") || rc=1
	ktap_print_msg "most writes in flight after -1: $on"
	[ -n "$on" ] && [ -n "$off" ] && [ "$on" -lt "$off" ] || rc=1
	wbt_result $rc throttles_after_minus1 "(before $off, after $on)"

	# 6-7: another value is the target; 0 sets the policy up, off
	first_write mqoff2 10000 value_sets_up
	first_write mqoff3 0 zero_sets_up_off

	ktap_finished
}

main "$@"
