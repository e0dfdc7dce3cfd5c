#!/bin/sh
# Who has the CPUs during W3: every context switch and wakeup of the guest,
# with the stack of every uninterruptible sleep, from the moment fio's
# reader runs; offcpu.py reads the trace.
. /guest/lib.sh
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
T=/sys/kernel/tracing
echo 49152 > $T/buffer_size_kb
sh /run/wbt-bench.sh &
bench=$!
pid=
while [ -z "$pid" ] && kill -0 $bench 2>/dev/null; do
	for p in $(pidof fio); do
		fds=$(ls -l /proc/"$p"/fd 2>/dev/null)
		pp=$(awk '/^PPid:/ {print $2}' /proc/"$p"/status 2>/dev/null)
		# fio's job processes are children of fio; the reader's files are reader.*.
		[ "$(cat /proc/"$pp"/comm 2>/dev/null)" = fio ] &&
			echo "$fds" | grep -q 'reader\.' && pid=$p
	done
	sleep 0.2
done
if [ -n "$pid" ]; then
	echo 'stacktrace if prev_state == 2' > $T/events/sched/sched_switch/trigger
	echo 1 > $T/events/sched/sched_switch/enable
	echo 1 > $T/events/sched/sched_wakeup/enable
fi
while kill -0 "$pid" 2>/dev/null; do
	grep bench_ /proc/diskstats > /run/diskstats.last
	sleep 0.5
done
wait $bench; rc=$?
echo 0 > $T/events/sched/enable
mkdir -p /run/out
{ echo "reader pid $pid"; cat /run/diskstats.last; } > /run/out/pid.txt
cat $T/trace | gzip > /run/out/strace.gz
send_file /run/out/strace.gz
send_file /run/out/pid.txt
exit $rc
