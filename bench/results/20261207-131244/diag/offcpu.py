#!/usr/bin/env python3
"""Where W3's CPUs go, from the boots of offcpu.sh (each DIR holds
strace.gz, every sched_switch and sched_wakeup of the guest with the stack
of every uninterruptible sleep, and pid.txt, the reader's pid and the
device's last /proc/diskstats line).  Prints, per boot: the device's
requests, each task's CPU time, the uninterruptible sleeps by task and
stack, and fio's reader: its sleeps and the delay from each wakeup (or
preemption) to running again.  Usage: offcpu.py DIR..."""
import collections
import gzip
import os
import re
import sys

SW = re.compile(r"\[(\d+)\]\s+\S+\s+(\d+\.\d+): sched_switch: prev_comm=(.*) prev_pid=(\d+) "
                r"prev_prio=\d+ prev_state=(\S+) ==> next_comm=(.*) next_pid=(\d+) ")
WK = re.compile(r"\s(\d+\.\d+): sched_wakeup: comm=.* pid=(\d+) ")
# Frames that say how a task sleeps, not why.
SKIP = ("trace_", "__traceiter", "__schedule", "schedule", "io_schedule", "folio_wait",
        "__folio_lock", "bit_wait", "__wait_on_bit", "out_of_line", "do_syscall",
        "entry_SYSCALL", "__x64_", "x64_sys", "__bio", "submit_bio_wait", "rq_qos_wait",
        "wbt_throttle", "schedule_timeout", "wait_for_common", "__wait_for")


def q(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p / 100.0 * len(v)))] if v else float("nan")


def task(comm, pid, reader):
    if pid == reader:
        return "reader"
    return re.sub(r"[0-9]+(:[0-9A-Za-z_-]+)?$", "", comm.split("/")[0])


def boot(d):
    with open(os.path.join(d, "pid.txt")) as f:
        hdr = f.read().split("\n")
    reader = hdr[0].split()[-1]
    ds = hdr[1].split()
    print("%s: device reads %s, writes %s (merged %s), %s sectors written"
          % (d, ds[3], ds[7], ds[8], ds[9]))
    cpu, outs, stacks = collections.Counter(), collections.Counter(), collections.Counter()
    cur, st = {}, []
    first = last = out = slept = woken = pend = None
    delays, sleeps, thr, edges, inthr = [], [], [], [], {}
    for ln in gzip.open(os.path.join(d, "strace.gz"), "rt", errors="replace"):
        if ln.startswith(" => "):
            st.append(ln[4:].split("+")[0].strip())
            continue
        if st:
            why = [s for s in st if not s.startswith(SKIP)][:3]
            stacks[(out, " < ".join(why))] += 1
            if pend and any("rq_qos_throttle" in f for f in st):
                inthr[pend[1]] = pend[0]
            st = []
            pend = None
        m = SW.search(ln)
        if m:
            c, t = int(m.group(1)), float(m.group(2))
            first = first or t
            last = t
            if c in cur:
                cpu[cur[c][0]] += t - cur[c][1]
            out = task(m.group(3), m.group(4), reader)
            outs[out] += 1
            cur[c] = (task(m.group(6), m.group(7), reader), t)
            if m.group(3) == "fio" and m.group(5) == "D" and m.group(4) != reader:
                pend = (t, m.group(4))
            if m.group(4) == reader:
                slept = t
                woken = t if m.group(5).startswith("R") else None
            elif m.group(7) == reader and woken is not None:
                delays.append((t - woken) * 1e3)
                woken = None
            continue
        m = WK.search(ln)
        if m and m.group(2) in inthr:
            t0, t1 = inthr.pop(m.group(2)), float(m.group(1))
            thr.append((t1 - t0) * 1e3)
            edges += [(t0, 1), (t1, -1)]
        if m and m.group(2) == reader and slept is not None and woken is None:
            woken = float(m.group(1))
            sleeps.append((woken - slept) * 1e3)
    span = last - first
    print("  %.1f s traced; CPU time per task (s, share of 2 CPUs, times switched out):"
          % span)
    for p, v in cpu.most_common(6):
        print("    %-10s %6.2f s %5.1f %% %7d" % (p, v, 100 * v / (2 * span), outs[p]))
    print("  uninterruptible sleeps by task and stack:")
    for (p, why), v in stacks.most_common(6):
        print("    %6d %-8s %s" % (v, p, why))
    held = collections.Counter()
    n, at = 0, None
    for t, step in sorted(edges):
        if at is not None:
            held[n] += t - at
        n, at = n + step, t
    print("  fio writers asleep in the throttle: n=%d p50 %.2f p90 %.2f p99 %.2f ms; "
          "time with k asleep: %s" % (len(thr), q(thr, 50), q(thr, 90), q(thr, 99),
                                      " ".join("%d:%.0f%%" % (k, 100 * v / sum(held.values()))
                                               for k, v in sorted(held.items()))))
    print("  reader: sleeps n=%d p50 %.2f p99 %.2f ms, sum %.1f s"
          % (len(sleeps), q(sleeps, 50), q(sleeps, 99), sum(sleeps) / 1e3))
    print("  reader: wakeup->run n=%d p50 %.2f p90 %.2f p99 %.2f p99.9 %.2f max %.2f ms, "
          "sum %.1f s" % (len(delays), q(delays, 50), q(delays, 90), q(delays, 99),
                          q(delays, 99.9), max(delays or [0]), sum(delays) / 1e3))


for arg in sys.argv[1:]:
    boot(arg)
