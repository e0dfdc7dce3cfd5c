import gzip
import re
import sys

# Per device of each boot: the windows, the mean writes in flight at a
# window's end (wbt_timer), and the share of windows per step and verdict.
TIMER = re.compile(r' (\d+\.\d+): wbt_timer: (\S+): status=(\d+), '
                   r'step=(-?\d+), inflight=(\d+)')


def share(counts, n):
    return ' '.join('%d:%d%%' % (k, 100 * c / n) for k, c in sorted(counts.items()))


for d in sys.argv[1:]:
    ev = []
    for line in gzip.open(d + '/trace.gz', 'rt'):
        m = TIMER.search(line)
        if m:
            ev.append((float(m.group(1)), m.group(2), int(m.group(3)),
                       int(m.group(4)), int(m.group(5))))
    for name in sorted({e[1] for e in ev}):
        w = [e for e in ev if e[1] == name]
        if len(w) < 20:
            continue
        steps, verdicts = {}, {}
        for e in w:
            steps[e[3]] = steps.get(e[3], 0) + 1
            verdicts[e[2]] = verdicts.get(e[2], 0) + 1
        print('%s %s: %d windows over %.1f s, mean in flight %.2f, steps %s, status %s' % (
            d, name, len(w), w[-1][0] - w[0][0], sum(e[4] for e in w) / len(w),
            share(steps, len(w)), share(verdicts, len(w))))
