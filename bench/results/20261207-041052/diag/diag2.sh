#!/bin/sh
. /guest/lib.sh
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
T=/sys/kernel/tracing
echo 16384 > $T/buffer_size_kb
for e in block_bio_queue block_rq_insert block_rq_issue block_rq_complete; do
	echo 'rwbs ~ "*R*"' > $T/events/block/$e/filter
	echo 1 > $T/events/block/$e/enable
done
sh /run/wbt-bench.sh; rc=$?
echo 0 > $T/events/block/enable
mkdir -p /run/out
cat $T/trace | gzip > /run/out/btrace.gz
send_file /run/out/btrace.gz
exit $rc
