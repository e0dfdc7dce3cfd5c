#!/bin/sh
. /guest/lib.sh
mount -t debugfs none /sys/kernel/debug 2>/dev/null
(
	while :; do
		D=$(ls -d /sys/kernel/debug/block/bench_ssd/rqos/wbt 2>/dev/null)
		if [ -n "$D" ]; then
			echo "$(cut -d' ' -f1 /proc/uptime) rw=$(cat "$D/recent_wait") ra=$(cat "$D/reads_active") st=$(cat "$D/step") $(cat "$D/inflight_class")"
		fi
		sleep 0.05
	done
) > /tmp/samples.txt 2>&1 &
SP=$!
sh /run/wbt-bench.sh; rc=$?
kill $SP
mkdir -p /run/out
gzip -c /tmp/samples.txt > /run/out/samples.gz
send_file /run/out/samples.gz
exit $rc
