#!/bin/bash
# bench/report.py's metrics on made-up runs whose answers are known: the
# three-way verdict, failed runs kept out of the medians, the W1 device
# rates over the common window, the floor of a queueing profile, W9's
# stacked cells against the bare disk, W9's boot of its own, a failed
# boot's finished workloads kept, and the shuffled run order of
# bench/run.py (recorded seed, every configuration once per round, bad
# SEED and PROFILES refused).
set -u
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
pyout=$(cd "$top/bench" && "$py" - <<'PY'
import report

def agg_of(a, b):
    # (median, min, max, n)
    return {"wbt": {"W|c|m": a}, "none": {"W|c|m": b}}

def say(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)

v = report.verdict(agg_of((90, 85, 95, 3), (100, 95, 105, 3)), "wbt", "none", "W|c|m", "le", 1.0)
say(v[1] == "holds", "0.9 x none against <= 1.0 holds (%s)" % (v,))
v = report.verdict(agg_of((101, 98, 103, 3), (100, 99, 102, 3)), "wbt", "none", "W|c|m", "le", 1.0)
say(v[1] == "within noise", "1 %% over, ranges overlapping: within noise (%s)" % (v,))
v = report.verdict(agg_of((101, 101, 101, 3), (100, 100, 100, 3)), "wbt", "none", "W|c|m", "le", 1.0)
say(v[1] == "NO", "1 %% over, ranges apart: NO (%s)" % (v,))
v = report.verdict(agg_of((110, 90, 120, 3), (100, 90, 120, 3)), "wbt", "none", "W|c|m", "le", 1.0)
say(v[1] == "NO", "10 %% over, ranges overlapping: NO (%s)" % (v,))
v = report.verdict(agg_of((50, 45, 55, 3), (100, 95, 105, 3)), "wbt", "none", "W|c|m", "le", 0.1)
say(v[1] == "NO", "0.5 x none against <= 0.1 is NO, not noise (%s)" % (v,))
v = report.verdict(agg_of((66847, 66847, 66847, 3), (66847, 66847, 66847, 3)),
                   "wbt", "none", "W|c|m", "le", 1.0)
say(v[1] == "within noise", "the same histogram bucket on both sides is noise, not holds (%s)" % (v,))
v = report.verdict({"wbt": {}}, "wbt", "none", "W|c|m", "le", 1.0)
say(v[1] is None, "a missing side is not measured (%s)" % (v,))
v = report.verdict(agg_of((1.9, 1.5, 2.1, 3), (1, 1, 1, 3)), "wbt", "abs", "W|c|m", "le", 2.0)
say(v[1] == "holds" and "wbt = 1.900" in v[0], "an absolute bound on the metric itself (%s)" % (v,))
v = report.verdict(agg_of((2.1, 1.9, 2.2, 3), (1, 1, 1, 3)), "wbt", "abs", "W|c|m", "le", 2.0)
say(v[1] == "NO", "an absolute bound is never noise (%s)" % (v,))

# Two runs of one cell: the window is the shorter reader (10 s); a failed
# run with a shorter reader does not shorten it, nor count in the medians.
def run(cfg, ok, secs, rate_sect, p99, idle):
    pts = [[t / 2.0 - 2, int(rate_sect * (t / 2.0)), int(2 * rate_sect * (t / 2.0))]
           for t in range(0, 2 * int(secs + 4))]
    return {"config": cfg, "repeat": 1, "ok": ok, "notes": [],
            "metrics": {"W1|hdd|read_p99_us": [p99], "IDLE|hdd|idle_p50_us": [idle]},
            "w1stat": {"hdd": [{"read_secs": secs, "pts": pts}]},
            "meta": {"dev.hdd": "nullb0 wb_lat_usec=75000 max_sectors_kb=128",
                     "qdev.hdd.fifo_bw_mbps": "40", "qdev.hdd.fifo_base_nsec": "200000",
                     "qdev.hdd.fifo_write_bw_mbps": "0", "qdev.hdd.fifo_write_base_nsec": "0",
                     "qdev.hdd.fifo_seek_nsec": "8000000"}}
res = {"invocation": {"configs": ["none", "wbt"], "params": {"W1_RUNTIME": 40}},
       "runs": [run("none", True, 12, 2048, 50000, 8000), run("wbt", True, 10, 4096, 9000, 8000),
                run("wbt", False, 3, 9999, 1, 1)]}
say(report.w1_window(res, "hdd") == 10, "window = shortest good reader (%s)" % report.w1_window(res, "hdd"))
agg = report.aggregate(res)
say(agg["wbt"]["W1|hdd|read_p99_us"][3] == 1, "the failed run is kept out of the medians")
say(abs(agg["none"]["W1|hdd|dev_read_kbs"][0] - 1024) < 1, "device read rate over the window: %s KB/s"
    % agg["none"]["W1|hdd|dev_read_kbs"][0])
say(abs(agg["wbt"]["W1|hdd|dev_write_kbs"][0] - 4096) < 1, "device write rate over the window: %s KB/s"
    % agg["wbt"]["W1|hdd|dev_write_kbs"][0])
# floor: 8000 us idle + 0.2 ms + 128 KiB at 40 MiB/s (3125 us) + 8 ms seek
fl = agg["wbt"]["IDLE|hdd|floor_us"][0]
say(abs(fl - (8000 + 200 + 3125 + 8000)) < 1, "floor = idle p50 + one write (%s us)" % fl)
say(abs(agg["wbt"]["W1|hdd|read_p99_floor"][0] - 9000 / fl) < 0.001, "p99 against the floor")
g = dict((t, v) for t, _, v in report.goals(agg, ["W1"]))
say(g.get("W1 hdd wbt: read p99 within 2x of the floor") == "holds", "floor goal from GOALS: %s"
    % g.get("W1 hdd wbt: read p99 within 2x of the floor"))

# W10: the ratios come from the three phases of one boot; a boot missing
# a phase gives none of them, and says so.
import gzip, json, os, tempfile
def w10_raw(phases):
    d = tempfile.mkdtemp()
    with open(os.path.join(d, "results.txt"), "w") as f:
        for ph, (h, l, p99) in phases.items():
            j = {"jobs": [{"jobname": "reader",
                           "read": {"clat_ns": {"percentile": {"99.000000": p99 * 1000}}}}]}
            with gzip.open(os.path.join(d, "w10-hdd-%s.json.gz" % ph), "wt") as g:
                json.dump(j, g)
            f.write("W10 dev=hdd phase=%s heavy=%d light=%d secs=20 json=w10-hdd-%s.json.gz\n"
                    % (ph, h, l, ph))
    return d
M = 1048576
m = report.parse_run(w10_raw({"single": (0, 200 * M, 5000), "equal": (200 * M, 200 * M, 6000),
                              "weighted": (330 * M, 50 * M, 4000)}))["metrics"]
say(m.get("W10|hdd|weighted_ratio") == [6.6], "W10 weighted ratio 330/50 (%s)" % m.get("W10|hdd|weighted_ratio"))
say(m.get("W10|hdd|equal_ratio") == [1.0], "W10 equal ratio (%s)" % m.get("W10|hdd|equal_ratio"))
say(m.get("W10|hdd|total_rel") == [0.95], "W10 total against the equal run 380/400 (%s)" % m.get("W10|hdd|total_rel"))
say(m.get("W10|hdd|read_p99_rel") == [0.8], "W10 reader p99 against the light writer alone (%s)"
    % m.get("W10|hdd|read_p99_rel"))
rec = report.parse_run(w10_raw({"single": (0, 200 * M, 5000), "weighted": (330 * M, 50 * M, 4000)}))
say("W10|hdd|weighted_ratio" not in rec["metrics"] and any("phase" in n for n in rec["notes"]),
    "W10 without its equal phase: no ratio, and a note (%s)" % rec["notes"])
agg = {"wbt": {"W10|hdd|weighted_ratio": (4.9, 4.8, 5.0, 3), "W10|hdd|total_rel": (0.97, 0.96, 0.98, 3),
               "W10|hdd|read_p99_rel": (0.9, 0.8, 1.0, 3)}}
g = dict((t, v) for t, _, v in report.goals(agg, ["W10"]))
say(g.get("W10 hdd wbt: weights 1000:100 give at least 5:1 of the bytes written") == "NO",
    "W10 ratio goal: 4.9 misses 5 (%s)" % g)
say(g.get("W10 hdd wbt: total at 1000:100 >= 95 % of the equal-weight run") == "holds",
    "W10 total goal holds at 0.97")

# W9: W1's and W8's lines through a stack are W9's PROFILE+STACK/w1 and
# /w8 cells, the fsync probe's latencies come from its own fio output,
# the device rates from the stat samples, and each stack is judged
# against the bare disk of the same profile and configuration.
d = tempfile.mkdtemp()
def gz(name, obj):
    with gzip.open(os.path.join(d, name), "wt") as g:
        g.write(obj if isinstance(obj, str) else json.dumps(obj))
# 97 reads from the page cache (50 us), 2 that waited 2 ms and 1 that waited 6 ms
gz("w1.json.gz", {"jobs": [{"jobname": "reader", "read": {"clat_ns": {"max": 9e6, "percentile": {
    "99.900000": 8e6}, "bins": {"50000": 97, "2000000": 2, "6000000": 1}}, "bw": 1000,
    "total_ios": 100}}]})
gz("w1f.json.gz", {"jobs": [{"jobname": "fsync", "sync": {"lat_ns": {"max": 7e6, "percentile": {
    "50.000000": 2e6, "99.000000": 6e6}}}}]})
# 1000 sectors read and 3000 written per second, over 10 s
gz("st.txt.gz", "".join("%d 0 0 %d 0 0 0 %d 0\n" % (100 + t, 1000 * t, 3000 * t) for t in range(11)))
with open(os.path.join(d, "results.txt"), "w") as f:
    f.write("W9 sub=W1 dev=hdd+crypt_null rep=1 json=w1.json.gz read_secs=10 write_mb=100 "
            "write_secs=10 r0=100 r1=110 stat=st.txt.gz fsync=w1f.json.gz\n")
    f.write("W9 sub=W8 dev=hdd+crypt_null reads=8 p50=1 p75=1 p90=1 p95=1 p99=1 p99.5=1 "
            "p99.9=1 p99.99=1 p99.999=1 p99.9999=1 max=5 read_kbs=7 write_kbs=7 secs=1\n")
rec = report.parse_run(d)
m = rec["metrics"]
say(not rec["notes"] and m.get("W9|hdd+crypt_null/w1|read_p99.9_us") == [8000.0] and
    m.get("W9|hdd+crypt_null/w8|read_max_us") == [5.0] and "W1|hdd+crypt_null|read_kbs" not in m,
    "W9 lines are W9's cells (%s)" % sorted(m))
say(m.get("W9|hdd+crypt_null/w1|read_waited_pct") == [3.0] and
    m.get("W9|hdd+crypt_null/w1|read_waited_mean_us") == [3333.333],
    "reads that waited for the device: 3 %% of them, 3.33 ms on average (%s, %s)"
    % (m.get("W9|hdd+crypt_null/w1|read_waited_pct"),
       m.get("W9|hdd+crypt_null/w1|read_waited_mean_us")))
say(m.get("W9|hdd+crypt_null/w1|fsync_p99_us") == [6000.0] and
    m.get("W9|hdd+crypt_null/w1|fsync_max_us") == [7000.0], "W9 fsync latencies from the probe's file")
rec.update(config="wbt", repeat=1, ok=True)
a9 = report.aggregate({"invocation": {"configs": ["wbt"], "params": {"W1_RUNTIME": 40}},
                       "runs": [rec]})
tot = a9["wbt"].get("W9|hdd+crypt_null/w1|dev_total_kbs", (None,))[0]
say(tot is not None and abs(tot - 2000) < 1, "W9 device rate from the stat samples: %s KB/s" % tot)
agg = {"wbt": {"W9|hdd+crypt_null/w1|read_max_us": (130, 120, 140, 3),
               "W9|hdd+bare/w1|read_max_us": (100, 90, 110, 3),
               "W9|hdd+linear/w1|read_max_us": (110, 100, 120, 3),
               "W9|ssd+bare/w1|read_max_us": (10, 9, 11, 3),
               "W9|ssd+linear/w1|read_max_us": (20, 19, 21, 3),
               "W9|hdd+crypt_null/w1|fsync_p99_us": (50, 45, 55, 3),
               "W9|hdd+crypt_aes/w1|fsync_p99_us": (80, 75, 85, 3),
               "W9|hdd+linear/w1|fsync_p99_us": (900, 900, 900, 3)},
       "none": {"W9|hdd+crypt_null/w1|fsync_p99_us": (60, 55, 65, 3),
                "W9|hdd+crypt_aes/w1|fsync_p99_us": (60, 58, 62, 3),
                "W9|hdd+linear/w1|fsync_p99_us": (1, 1, 1, 3)}}
g = dict((t, v) for t, _, v in report.goals(agg, ["W9"]))
say(g.get("W9 hdd+crypt_null/w1 wbt: read max within 1.25x of the bare disk's") == "NO" and
    g.get("W9 hdd+linear/w1 wbt: read max within 1.25x of the bare disk's") == "holds" and
    g.get("W9 ssd+linear/w1 wbt: read max within 1.25x of the bare disk's") == "NO" and
    "W9 hdd+bare/w1 wbt: read max within 1.25x of the bare disk's" not in g,
    "W9 against the bare disk of its own profile: 1.3x and 2x miss, 1.1x holds, bare not judged")
say(g.get("W9 hdd+crypt_null/w1 wbt vs none: fsync p99 no worse") == "holds" and
    g.get("W9 hdd+crypt_aes/w1 wbt vs none: fsync p99 no worse") == "NO" and
    "W9 hdd+linear/w1 wbt vs none: fsync p99 no worse" not in g,
    "W9 fsync goal on the dm-crypt cells only: 50/60 holds, 80/60 misses")

# W11: the reader's latencies and the writer's rate come from the fio
# jobs of its own file, and are judged against upstream.
d = tempfile.mkdtemp()
gz("w11.json.gz", {"jobs": [
    {"jobname": "writer", "write": {"bw": 8192}},
    {"jobname": "reader", "read": {"bw": 16, "clat_ns": {"max": 9e6, "mean": 2e6, "percentile": {
        "25.000000": 1e6, "50.000000": 2e6, "75.000000": 3e6, "90.000000": 4e6,
        "99.000000": 8e6}, "bins": {"2000000": 119, "9000000": 1}}}}]})
with open(os.path.join(d, "results.txt"), "w") as f:
    f.write("W11 dev=ssd json=w11.json.gz\n")
m = report.parse_run(d)["metrics"]
say(m.get("W11|ssd|read_p99_us") == [8000.0] and m.get("W11|ssd|read_max_us") == [9000.0] and
    m.get("W11|ssd|writer_kbs") == [8192], "W11 reader latencies and writer rate (%s)" % sorted(m))
agg = {"wbt": {"W11|ssd|read_p99_us": (9, 8.8, 9.2, 3)},
       "upstream": {"W11|ssd|read_p99_us": (6, 5.9, 6.1, 3)}}
g = dict((t, v) for t, _, v in report.goals(agg, ["W11"]))
say(g.get("W11 ssd wbt vs upstream: read p99 <= upstream's") == "NO",
    "W11 reader p99 against upstream's: 1.5x misses (%s)" % g)

# A boot that fails keeps what it finished: W2 ended with ok=1, W7 with a
# failure (ok=0), and the OOM killer ended W5 before its TIME line.  Only
# W2's results are kept, in the medians, and the report names the loss.
d = tempfile.mkdtemp()
with open(os.path.join(d, "results.txt"), "w") as f:
    f.write("W2 dev=ssd fs=ext4 fsync=0 mb=100 secs=2\n"
            "TIME W2 secs=10.00 ok=1\n"
            "W7 dev=ssd idle=1,1,1 busy=4,4,4\n"
            "TIME W7 secs=20.00 ok=0\n"
            "W5 dev=ssd fs=xfs clients=1 mbps=40\n")
done = report.finished_workloads(d)
kept = report.parse_run(d, keep=done)["metrics"]
say(done == ["W2"] and sorted(kept) == ["W2|ssd/ext4/fsync=0|mbps", "time|W2|secs"],
    "a failed boot keeps only the workloads that finished with ok=1 (%s, %s)"
    % (done, sorted(kept)))
full = report.parse_run(d)["metrics"]
say("W5|ssd/xfs/1cl|mbps" in full and "W7|ssd|start_ratio" in full,
    "without keep, every workload's lines are read (%s)" % sorted(full))
ok_run = {"config": "wbt", "repeat": 1, "ok": True, "rc": 0, "notes": [],
          "metrics": {"W2|ssd/ext4/fsync=0|mbps": [40.0], "W7|ssd|start_ratio": [2.0]},
          "cdf": {}, "meta": {}, "workloads": ["W2", "W7", "W5"]}
part = dict(ok_run, repeat=2, ok=False, rc=1, reason="exit 137", kept=done,
            metrics=kept)
lost = dict(ok_run, repeat=3, ok=False, rc=1, reason="exit 137",
            metrics={"W2|ssd/ext4/fsync=0|mbps": [1.0]})
res = {"invocation": {"configs": ["wbt"]}, "runs": [ok_run, part, lost]}
agg = report.aggregate(res)["wbt"]
say(agg["W2|ssd/ext4/fsync=0|mbps"][3] == 2 and agg["W7|ssd|start_ratio"][3] == 1,
    "medians: W2 of the good and the kept boot, W7 of the good one only (%s)" % agg)
say(report.finished_workloads(tempfile.mkdtemp()) == [],
    "no results.txt: nothing finished")

# A run of W9 alone has no shared boot: its setup must not give the
# shared boot's memory as if one had run.
with open("results/20261203-143937/results.json") as f:
    w9only = json.load(f)
guest = [ln for ln in report.markdown(w9only).splitlines() if ln.startswith("- guest:")]
say(len(guest) == 1 and "no shared boot" in guest[0] and "1024 MiB" not in guest[0],
    "a run of own boots only names no shared memory (%s)" % guest[:1])
PY
)
echo "$pyout"
fails=$((fails + $(grep -c '^FAIL' <<<"$pyout")))
[ -n "$pyout" ] || { echo "FAIL: the python checks printed nothing"; fails=$((fails + 1)); }

# The run order: parse_args only (no boot).
order=$(cd "$top/bench" && "$py" - <<'PY'
import random, run
a = run.parse_args(["--seed", "42", "--configs", "none,upstream,wbt", "--workloads", "W1"])
rng = random.Random(a.seed_value)
plan = [c for r in range(3) for c in rng.sample(a.config_list, 3)]
print(a.seed_value, " ".join(plan))
PY
)
check "seed 42 is taken and every round holds each configuration once ($order)" \
	"$py" -c 'import sys; w = sys.argv[1].split(); s, p = w[0], w[1:]
sys.exit(not (s == "42" and all(sorted(p[i:i + 3]) == ["none", "upstream", "wbt"] for i in (0, 3, 6))))' "$order"
# W9 boots on its own, with its own memory; the other workloads share one boot.
boots=$(cd "$top/bench" && "$py" - <<'PY'
import run
a = run.parse_args(["--seed", "1", "--configs", "none,wbt", "--repeats", "2",
                    "--workloads", "W1,W9"])
plan = run.run_plan(a)
print(" ".join("%s-r%d%s:%s:%d" % (c, r, b[0], ",".join(b[1]), b[2]) for c, r, b in plan))
PY
)
check "W9 boots on its own with more memory, after its configuration's shared boot ($boots)" \
	"$py" -c 'import sys; p = sys.argv[1].split()
ok = len(p) == 8 and all(p[i].split(":")[1:] == ["W1", "1024"] and
                         p[i + 1].split(":")[1:] == ["W9", "2560"] and
                         p[i + 1].startswith(p[i].split(":")[0] + "-W9") for i in range(0, 8, 2))
sys.exit(not (ok and sorted(x.split("-")[0] for x in p[:4]) == ["none"] * 2 + ["wbt"] * 2))' "$boots"
expect_fail "SEED must be a whole number" env SEED=x "$py" "$top/bench/run.py" --workloads W1
expect_fail "unknown profile 'floppy'" env PROFILES=floppy "$py" "$top/bench/run.py"
expect_fail "leaves no workload" env PROFILES=nvme "$py" "$top/bench/run.py" --workloads W6
# STACKS selects W9's stacks, in the table's order; a bad one is refused.
stacks=$(cd "$top/bench" && "$py" -c 'import run
print(run.parse_args(["--workloads", "W9", "--stacks", "raid1,bare"]).params["W9_STACKS"])')
check "STACKS=raid1,bare runs W9 on bare and raid1 ($stacks)" test "$stacks" = "bare raid1"
expect_fail "unknown stack 'lvm'" env STACKS=lvm "$py" "$top/bench/run.py" --workloads W9
expect_fail "W9 is not among the workloads" env STACKS=bare "$py" "$top/bench/run.py" --workloads W1
exit "$fails"
