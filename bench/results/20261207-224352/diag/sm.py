import gzip
import re
import sys

# Debugfs samples of diag3.sh, about every 90 ms, in 10 s buckets: the share of
# samples with a dirtier asleep in the last 200 ms (rw) and with reads
# active (ra), the mean step and the mean writes in flight per class.
S = re.compile(r'(\S+) rw=(\d) ra=(\d) st=(-?\d+) bg=(\d+) normal=(\d+) max=(\d+)')
rows = []
for line in gzip.open(sys.argv[1], 'rt'):
    m = S.match(line)
    if m:
        rows.append([float(m.group(1))] + [int(x) for x in m.groups()[1:]])
t0 = rows[0][0]
b = {}
for r in rows:
    b.setdefault(int((r[0] - t0) // 10), []).append(r)
for k in sorted(b):
    w = b[k]
    n = len(w)
    print('%3d s n=%3d rw=%.2f ra=%.2f step=%.2f bg=%.1f normal=%.1f max=%.1f'
          % (k * 10, n, *[sum(x[i] for x in w) / n for i in range(1, 7)]))
