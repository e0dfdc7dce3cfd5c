#!/bin/sh
# Part 1 of make demo, inside the guest: every disk's writeback
# throttling knobs and live state, and the trace events.
. /guest/lib.sh
for dev in $(guest_disks); do
	q=/sys/block/$dev/queue
	d=/sys/kernel/debug/block/$dev/rqos/wbt
	echo "== $dev ($(disk_type "$dev")): rotational=$(cat "$q/rotational") queue_depth=$(cat "/sys/block/$dev/device/queue_depth" 2>/dev/null || echo '?') write_cache='$(cat "$q/write_cache")'"
	for f in wb_lat_usec wbt_lat_usec wb_window_usec; do
		printf '   %-15s %s\n' "$f" "$(cat "$q/$f" 2>/dev/null || echo '(absent)')"
	done
	[ -d "$d" ] && printf '   debugfs:        enabled=%s step=%s %s inflight=%s\n' \
		"$(cat "$d/enabled")" "$(cat "$d/step")" "$(cat "$d/limits")" "$(cat "$d/inflight")"
done
echo "== trace events: $(cd /sys/kernel/tracing/events/wbt 2>/dev/null && echo wbt_*)"

# tools/wbt/wbtmon.sh live: background writeback against a reader on a
# queueing null_blk disk (the selftests' "hdd-fifo" model, QD 32 and 2 ms, at
# 20 MiB/s), with a 10 ms target that the reads behind queued writes miss.
mon=/kselftest/wbt/wbtmon.sh
if [ -f "$mon" ] &&
	make_qdev demo_mon hdd-fifo memory_backed=0 size=2048 fifo_bw_mbps=20; then
	echo "== wbtmon.sh on $QDEV: dd writes 160 MiB through the page cache, dd reads 4k direct"
	echo 10000 >"/sys/block/$QDEV/queue/wb_lat_usec"
	# held open, so that the reader's closes are never the last one,
	# which would wait for all of the writeback (sync_blockdev)
	exec 3<"/dev/$QDEV"
	bg=$(cat /proc/sys/vm/dirty_background_ratio)
	# writeback starts at once and keeps going; the writer stays below
	# the dirty limits, so all of it is background writeback
	echo 8388608 >/proc/sys/vm/dirty_background_bytes
	# away from the blocks read, which direct IO would first write back
	dd if=/dev/zero of="/dev/$QDEV" bs=1M seek=512 count=160 2>/dev/null &
	wpid=$!
	read_loop "/dev/$QDEV" &
	rpid=$!
	sleep 1
	sh "$mon" -i 1 -n 6 "$QDEV" 2>&1 | sed 's/^/   /'
	kill "$rpid" "$wpid" 2>/dev/null
	wait
	exec 3<&-
	echo "$bg" >/proc/sys/vm/dirty_background_ratio
	remove_qdev demo_mon
else
	echo "demo: no wbtmon.sh run: ${WBT_ERR:-$mon missing}"
fi
echo "demo: done"
