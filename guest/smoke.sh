#!/bin/sh
# Boot smoke test, as KTAP: every disk type the host attached is there as
# a request-based disk, and the writeback throttling state of each disk.
# Usage: /guest/smoke.sh TYPE...   (TYPE: virtio scsi ahci ide nvme, as
# scripts/vm-run.sh -d attached them)
. /guest/lib.sh
disks=$(guest_disks)
echo "TAP version 13"
echo "1..$(($# + 1))"
i=1
if [ -d /sys/kernel/tracing/events ]; then
	echo "ok $i tracefs mounted"
else
	echo "not ok $i tracefs mounted"
fi
for d in $disks; do
	q=/sys/block/$d/queue
	echo "# $d ($(disk_type "$d")): rotational=$(cat "$q/rotational") depth=$(cat "$q/nr_requests") wc=$(cat "$q/write_cache") sched=$(cat "$q/scheduler")"
	for f in wb_lat_usec wbt_lat_usec wb_window_usec; do
		[ -e "$q/$f" ] && echo "#   $f=$(cat "$q/$f")"
	done
done
for want in "$@"; do
	i=$((i + 1))
	found=
	for d in $disks; do
		[ "$(disk_type "$d")" = "$want" ] && found=$d && break
	done
	if [ -n "$found" ]; then
		echo "ok $i $want disk attached and seen ($found)"
	else
		echo "# no request-based disk of type $want among: $disks"
		echo "not ok $i $want disk attached and seen"
	fi
done
for e in /sys/kernel/tracing/events/wbt/wbt_*; do
	[ -d "$e" ] && echo "# wbt event: ${e##*/}"
done
exit 0
