import gzip, re, sys
for d in sys.argv[1:]:
    ev = []
    for line in gzip.open(d + '/trace.gz', 'rt'):
        m = re.search(r' (\d+\.\d+): wbt_timer: (\S+): status=(\d+), step=(-?\d+), inflight=(\d+)', line)
        if m:
            ev.append((float(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4)), int(m.group(5))))
    names = {}
    for e in ev: names[e[1]] = names.get(e[1], 0) + 1
    for name in names:
        w = [e for e in ev if e[1] == name]
        if len(w) < 20: continue
        t0, t1 = w[0][0], w[-1][0]
        steps = {}; st = {}
        for e in w:
            steps[e[3]] = steps.get(e[3], 0) + 1
            st[e[2]] = st.get(e[2], 0) + 1
        print('%s %s: %d windows over %.1f s, mean in flight %.2f, steps %s, status %s' % (
            d, name, len(w), t1 - t0, sum(e[4] for e in w) / len(w),
            ' '.join('%d:%d%%' % (s, 100 * c / len(w)) for s, c in sorted(steps.items())),
            ' '.join('%d:%d%%' % (s, 100 * c / len(w)) for s, c in sorted(st.items()))))
