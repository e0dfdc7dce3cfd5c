#!/bin/sh
# W3 on qd1wc: where the fio processes sleep, every 50 ms, and the
# throttle's counters at the end of the run.
. /guest/lib.sh
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
mkdir -p /run/out
(
	while :; do
		d=/sys/kernel/debug/block/bench_qd1wc/rqos/wbt
		if [ -d "$d" ]; then
			w=""
			for p in $(pidof fio); do
				w="$w $(cat "/proc/$p/wchan" 2>/dev/null):$(cut -d' ' -f3 "/proc/$p/stat" 2>/dev/null)"
			done
			echo "$(cut -d' ' -f1 /proc/uptime) inflight=$(cat $d/inflight) ra=$(cat $d/reads_active)$w"
			cat $d/stats > /run/out/stats.txt
		fi
		sleep 0.05
	done
) > /run/out/samples.txt 2>/dev/null &
s=$!
sh /run/wbt-bench.sh; rc=$?
kill $s
gzip -c /run/out/samples.txt > /run/out/samples.gz
send_file /run/out/samples.gz
send_file /run/out/stats.txt
exit $rc
