#!/bin/sh
. /guest/lib.sh
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
T=/sys/kernel/tracing
echo 32768 > $T/buffer_size_kb
echo 1 > $T/events/wbt/enable
(for ph in single equal weighted; do
	while [ ! -e /tmp/w10-ssd-$ph.json ] && [ ! -e /tmp/w10-hdd-$ph.json ]; do sleep 0.2; done
	echo "MARK start of $ph" > $T/trace_marker
	sleep 3
	for c in /sys/fs/cgroup /tmp/cgroup /run/cgroup; do
		for g in w10h w10l; do
			[ -e $c/$g/io.weight ] && echo "MARK $c/$g $(cat $c/$g/io.weight | tr '\n' ' ') $(cat $c/$g/cgroup.procs | tr '\n' ' ')" > $T/trace_marker
		done
	done
	rm -f /tmp/d10-never
done) &
mpid=$!
sh /run/wbt-bench.sh; rc=$?
kill $mpid 2>/dev/null
echo 0 > $T/events/wbt/enable
mkdir -p /run/out
cat $T/trace | gzip > /run/out/trace.gz
send_file /run/out/trace.gz
exit $rc
