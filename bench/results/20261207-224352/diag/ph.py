import gzip
import re
import sys

# The wbt trace events of diag.sh in 10 s buckets: windows, the mean
# writes in flight at a window's end (wbt_timer), and the windows per step
# and per verdict.
T = re.compile(r' (\d+\.\d+): wbt_timer: (\S+): status=(\d+), step=(-?\d+), '
               r'inflight=(\d+)')


def share(counts):
    return ' '.join('%d:%d' % kv for kv in sorted(counts.items()))


for d in sys.argv[1:]:
    ev = []
    for line in gzip.open(d + '/trace.gz', 'rt'):
        m = T.search(line)
        if m:
            ev.append((float(m.group(1)), int(m.group(3)), int(m.group(4)),
                       int(m.group(5))))
    t0 = ev[0][0]
    b = {}
    for t, s, step, inf in ev:
        b.setdefault(int((t - t0) // 10), []).append((s, step, inf))
    for k in sorted(b):
        w = b[k]
        steps, sts = {}, {}
        for s, step, inf in w:
            steps[step] = steps.get(step, 0) + 1
            sts[s] = sts.get(s, 0) + 1
        print('%s %3d-%3ds n=%3d inflight %.1f steps %s status %s'
              % (d, k * 10, k * 10 + 10, len(w), sum(x[2] for x in w) / len(w),
                 share(steps), share(sts)))
