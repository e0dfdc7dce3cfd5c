#!/bin/sh
# W3 on qd1wc with debugfs sampled every 50 ms: what class the writes
# are in, reads_active, recent_wait, the limits.
. /guest/lib.sh
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
mkdir -p /run/out
(
	while :; do
		d=/sys/kernel/debug/block/bench_qd1wc/rqos/wbt
		if [ -d "$d" ]; then
			echo "$(cut -d' ' -f1 /proc/uptime) $(cat $d/inflight_class) ra=$(cat $d/reads_active) rw=$(cat $d/recent_wait) lim=$(cat $d/limits | tr '\n' ' ')"
		fi
		sleep 0.05
	done
) > /run/out/samples.txt 2>/dev/null &
s=$!
sh /run/wbt-bench.sh; rc=$?
kill $s
d=/sys/kernel/debug/block
gzip -c /run/out/samples.txt > /run/out/samples.gz
send_file /run/out/samples.gz
exit $rc
