#!/bin/sh
# The demonstration run inside the guest (see scripts/demo.sh).
. /guest/lib.sh
dev=$(guest_disks | head -n1)
[ -n "$dev" ] || { echo "demo: no disk"; exit 1; }
q=/sys/block/$dev/queue
echo "== writeback throttling state of $dev ($(disk_kind "$dev")) =="
for f in rotational write_cache nr_requests scheduler wb_lat_usec wb_window_usec wbt_lat_usec; do
	printf '  %-14s %s\n' "$f" "$(cat "$q/$f" 2>/dev/null || echo '(absent)')"
done
ev=/sys/kernel/tracing/events/wbt
if [ -d "$ev" ]; then
	echo 1 >"$ev/enable"
else
	echo "  (no wbt trace events in this kernel)"
fi
mkfs.ext4 -q -F "/dev/$dev" && mount "/dev/$dev" /mnt || exit 1
echo "== writing 1.5 GiB in the background while reading =="
dd if=/dev/zero of=/mnt/big bs=1M count=1536 2>/dev/null &
w=$!
sleep 2
t0=$(date +%s)
dd if=/dev/zero of=/mnt/small bs=1M count=64 oflag=direct 2>/dev/null
echo "  64 MiB O_DIRECT write next to the writer: $(($(date +%s) - t0)) s"
wait $w
sync
if [ -d "$ev" ]; then
	echo 0 >"$ev/enable"
	echo "== wbt trace events seen =="
	for e in wbt_stat wbt_lat wbt_step wbt_timer; do
		printf '  %-10s %s\n' "$e" "$(grep -c " $e:" /sys/kernel/tracing/trace)"
	done
	grep -m3 ' wbt_step:' /sys/kernel/tracing/trace
fi
umount /mnt
echo "demo: done"
