import gzip, re, sys
for d in sys.argv[1:]:
    q = {}; iss = {}; rows = []
    for line in gzip.open(d + '/btrace.gz', 'rt'):
        m = re.search(r'\s(\d+\.\d+): (block_\w+): 251,0 (\S+) .*?(\d+) \+ (\d+)', line)
        if not m or 'fio' not in line and m.group(2) != 'block_rq_complete':
            if not m: continue
        t, ev, rw, sec = float(m.group(1)), m.group(2), m.group(3), m.group(4)
        if ev == 'block_bio_queue':
            q[sec] = t
        elif ev == 'block_rq_issue':
            iss[sec] = t
        elif ev == 'block_rq_complete' and sec in iss:
            t0 = q.pop(sec, iss[sec]); t1 = iss.pop(sec)
            rows.append((t1 - t0, t - t1, t - t0, rw))
    rows = [r for r in rows]
    def qt(a, p): a = sorted(a); return a[int(p * (len(a) - 1))] * 1000
    for name, i in (('queue->issue', 0), ('issue->complete', 1), ('queue->complete', 2)):
        a = [r[i] for r in rows]
        print('%s %-16s n=%d p50 %.2f p90 %.2f p99 %.2f p99.9 %.2f max %.2f ms' % (
            d, name, len(a), qt(a, .5), qt(a, .9), qt(a, .99), qt(a, .999), max(a) * 1000))
    print(d, 'rwbs', {k: sum(1 for r in rows if r[3] == k) for k in set(r[3] for r in rows)})
