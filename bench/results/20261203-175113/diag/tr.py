import gzip
import re
import sys
# W1's (and W9's W1 cells'): mean writes in flight and time per step
# over the reader's window [r0, r1]
for d in sys.argv[1:]:
    res = open(d + '/results.txt').read()
    win = {m.group(1): (float(m.group(2)), float(m.group(3))) for m in
           re.finditer(r'(?:W1|W9 sub=W1) dev=(\S+) .*?r0=([\d.]+) r1=([\d.]+)', res)}
    ev = []
    for line in gzip.open(d + '/trace.gz', 'rt'):
        m = re.search(r' (\d+\.\d+): wbt_timer: (\S+): status=\d+, '
                      r'step=(-?\d+), inflight=(\d+)', line)
        if m:
            ev.append((float(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4))))
    for dev, (r0, r1) in sorted(win.items()):
        # the device's events are those of the name seen inside its window
        names = {}
        for t, n, s, i in ev:
            if r0 <= t <= r1:
                names[n] = names.get(n, 0) + 1
        name = max(names, key=names.get)
        w = [(s, i) for t, n, s, i in ev if n == name and r0 <= t <= r1]
        steps = {}
        for s, _ in w:
            steps[s] = steps.get(s, 0) + 1
        print('%s %s: %d windows, mean in flight %.2f, steps %s' % (
            d, dev, len(w), sum(i for _, i in w) / len(w),
            ' '.join('%d:%d%%' % (s, 100 * c / len(w)) for s, c in sorted(steps.items()))))
