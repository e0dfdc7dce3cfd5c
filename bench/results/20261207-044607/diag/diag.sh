#!/bin/sh
. /guest/lib.sh
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
T=/sys/kernel/tracing
echo 8192 > $T/buffer_size_kb
echo 1 > $T/events/wbt/enable
sh /run/wbt-bench.sh; rc=$?
echo 0 > $T/events/wbt/enable
mkdir -p /run/out
cat $T/trace | gzip > /run/out/trace.gz
send_file /run/out/trace.gz
exit $rc
