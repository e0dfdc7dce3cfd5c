#!/bin/sh
# Part 1 of make demo, inside the guest: every disk's writeback
# throttling knobs and live state, and the trace events.
. /guest/lib.sh
for dev in $(guest_disks); do
	q=/sys/block/$dev/queue
	d=/sys/kernel/debug/block/$dev/rqos/wbt
	echo "== $dev ($(disk_kind "$dev")): rotational=$(cat "$q/rotational") queue_depth=$(cat "/sys/block/$dev/device/queue_depth" 2>/dev/null || echo '?') write_cache='$(cat "$q/write_cache")'"
	for f in wb_lat_usec wbt_lat_usec wb_window_usec; do
		printf '   %-15s %s\n' "$f" "$(cat "$q/$f" 2>/dev/null || echo '(absent)')"
	done
	[ -d "$d" ] && printf '   debugfs:        enabled=%s step=%s %s inflight=%s\n' \
		"$(cat "$d/enabled")" "$(cat "$d/step")" "$(cat "$d/limits")" "$(cat "$d/inflight")"
done
echo "== trace events: $(cd /sys/kernel/tracing/events/wbt 2>/dev/null && echo wbt_*)"
echo "demo: done"
