#!/bin/sh
# Boot smoke test: list the disks the guest sees and the writeback
# throttling state of each, as KTAP.
. /guest/lib.sh
disks=$(guest_disks)
n=$(echo "$disks" | wc -w)
echo "TAP version 13"
echo "1..$((n + 1))"
i=1
if [ -d /sys/kernel/tracing/events ]; then
	echo "ok $i tracefs mounted"
else
	echo "not ok $i tracefs mounted"
fi
for d in $disks; do
	i=$((i + 1))
	q=/sys/block/$d/queue
	echo "# $d ($(disk_kind "$d")): rotational=$(cat "$q/rotational") depth=$(cat "$q/nr_requests") wc=$(cat "$q/write_cache") sched=$(cat "$q/scheduler")"
	for f in wb_lat_usec wbt_lat_usec wb_window_usec; do
		[ -e "$q/$f" ] && echo "#   $f=$(cat "$q/$f")"
	done
	echo "ok $i $d is a request-based disk"
done
for e in /sys/kernel/tracing/events/wbt/wbt_*; do
	[ -d "$e" ] && echo "# wbt event: ${e##*/}"
done
exit 0
