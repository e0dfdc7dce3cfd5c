import gzip
import re
import sys

# Every read of device 251,0 from block_bio_queue through block_rq_issue
# to block_rq_complete, matched by sector: quantiles of each part, in ms.
EVENT = re.compile(r'\s(\d+\.\d+): (block_\w+): 251,0 (\S+) .*?(\d+) \+ (\d+)')


def quantile(a, p):
    a = sorted(a)
    return a[int(p * (len(a) - 1))] * 1000


for d in sys.argv[1:]:
    queued, issued, rows = {}, {}, []
    for line in gzip.open(d + '/btrace.gz', 'rt'):
        m = EVENT.search(line)
        if not m:
            continue
        t, ev, rwbs, sector = float(m.group(1)), m.group(2), m.group(3), m.group(4)
        if ev == 'block_bio_queue':
            queued[sector] = t
        elif ev == 'block_rq_issue':
            issued[sector] = t
        elif ev == 'block_rq_complete' and sector in issued:
            t1 = issued.pop(sector)
            t0 = queued.pop(sector, t1)
            rows.append((t1 - t0, t - t1, t - t0, rwbs))
    for name, i in (('queue->issue', 0), ('issue->complete', 1), ('queue->complete', 2)):
        a = [r[i] for r in rows]
        print('%s %-16s n=%d p50 %.2f p90 %.2f p99 %.2f p99.9 %.2f max %.2f ms' % (
            d, name, len(a), quantile(a, .5), quantile(a, .9), quantile(a, .99),
            quantile(a, .999), max(a) * 1000))
    kinds = {}
    for r in rows:
        kinds[r[3]] = kinds.get(r[3], 0) + 1
    print(d, 'rwbs', kinds)
