#!/usr/bin/env python3
"""Host driver of the wbt benchmark suite (see bench/README.md).

Boots one QEMU guest per (configuration, repeat), in rounds of one boot
per configuration, each round shuffled with a recorded seed, runs the
selected workloads in it with
bench/guest/wbt-bench.sh, collects the raw results and writes
results.json, results.md and the plots (bench/report.py).
"""

import argparse
import datetime
import fcntl
import gzip
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

import report

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.environ.get("WBT_WORK", os.path.join(TOP, "work"))
GUEST_SCRIPT = os.path.join(TOP, "bench", "guest", "wbt-bench.sh")
WORKLOADS = ["W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "W10", "W11"]
CONFIGS = ["none", "upstream", "wbt", "nohooks"]
# nohooks, the patched kernel built without the hooks (CONFIG_BLK_WBT=n),
# is the reference of the overhead workload only.
ONLY = {"nohooks": ["W6"]}
# Optional extra configurations: wbt@USEC, the patched kernel with wb_lat_usec
# set to USEC on every benchmark device (for measuring the latency target's
# trade-off; the goals stay computed for "wbt" only).
WBT_AT = re.compile(r"wbt@([0-9]+)")
# cand, the patched kernel with a candidate change (the tree work/linux-cand,
# built by "scripts/build-kernel.sh cand"), against wbt in one invocation:
# the A/B of a change to the control law before it goes into the series.
CAND = "cand"
WBT_AT_MAX = 10 * 1000 * 1000
MIB = 1024 * 1024

# Sizes, scaled to a 1 GiB TCG guest (bench/README.md explains the scaling).
GUEST_MEM_MB = 1024
# Workloads that boot on their own, with this much memory: W9's raid1
# holds two memory-backed disks of the profile, which a 1 GiB guest
# cannot.  The other workloads keep their 1 GiB boots unchanged.
OWN_BOOT = {"W9": 2560}
DIRTY_BYTES = 64 * MIB
DIRTY_BG_BYTES = 32 * MIB
# Devices are the null_blk profiles of the kselftests' qdev_profiles table,
# plus virtio (a virtio-blk disk) and fast (null_blk without a model).
PARAMS = {
    "full": {
        "W1_DEVS": "hdd qd1wc ssd usb nvme hdd-fifo virtio", "W1_WRITE_MB": 192,
        "W1_READ_MB": 256,
        "W1_BS": "4k", "W1_RUNTIME": 40,
        "W2_DEVS": "hdd qd1wc ssd usb nvme", "W2_MB": 192,
        "W3_DEVS": "hdd qd1wc ssd usb", "W4_DEVS": "virtio", "JAN_RUNTIME": 30,
        "W3_WFILE_MB": 64, "JAN_RFILE_MB": 8,
        # dbench DEVICE:FS:CLIENTS; XFS on ssd is Jan Kara's -38 % case.
        "W5_CELLS": "hdd:ext4:1 hdd:ext4:4 ssd:xfs:1 ssd:xfs:2 ssd:xfs:4", "W5_TIME": 15,
        "W6_RUNTIME": 10,
        "W7_DEVS": "ssd hdd", "W7_FILES": 300, "W7_STARTS": 3, "W7_BIG_MB": 192,
        # W7's device is smaller than the others: the copy loop writes the
        # copy to fresh blocks faster than ext4 reuses the freed ones, and
        # null_blk keeps every block ever written in the guest's memory.
        # On a 2 GiB device, none's copy took 780 MiB of the 1 GiB guest
        # and the OOM killer ended the boot (20261207-004125).
        "W7_DEV_MB": 640,
        "W8_DEVS": "ssd hdd", "W8_MB": 160,
        # Stacked devices (issue 17): W1 and W8 through each stack over
        # each profile; "bare" is the disk itself in the same boot.
        "W9_DEVS": "ssd hdd", "W9_STACKS": "bare linear crypt_null crypt_aes raid1",
        # cgroup weights (seed 004): three phases of warm-up + window each.
        "W10_DEVS": "hdd ssd", "W10_WARMUP": 5, "W10_SECS": 20,
        # A reader that comes and goes (one read, then a pause longer than
        # a window) next to writeback nobody waits for: a writer slower
        # than the device is never dirty throttled.
        "W11_DEVS": "ssd hdd", "W11_SECS": 90, "W11_RATE_KB": 8192, "W11_THINK_MS": 250,
        "IDLE_RUNTIME": 3,
    },
}
PARAMS["quick"] = dict(PARAMS["full"], W1_DEVS="hdd", W1_RUNTIME=20, W1_READ_MB=160,
                       IDLE_RUNTIME=2)
PARAMS["demo"] = dict(PARAMS["quick"], W1_RUNTIME=30, W1_READ_MB=256)
DEV_KEYS = ["W1_DEVS", "W2_DEVS", "W3_DEVS", "W4_DEVS", "W7_DEVS", "W8_DEVS", "W9_DEVS",
            "W10_DEVS", "W11_DEVS"]
# Rough guest seconds per workload and device, for the VM timeout.
BUDGET = {"W1": 80, "W2": 90, "W3": 50, "W4": 60, "W5": 40, "W6": 40, "W7": 90, "W8": 60,
          "W9": 140 * 5, "W10": 120, "W11": 110}
IDLE_BUDGET = 10


def log(msg):
    print("[%s] %s" % (time.strftime("%H:%M:%S"), msg), flush=True)


def die(msg):
    print("error: " + msg, file=sys.stderr)
    sys.exit(2)


def kernel_image(k):
    if k in ("wbt", "upstream", "debug", "nohooks", CAND):
        return os.path.join(WORK, "build", k, "arch", "x86", "boot", "bzImage")
    return k


def vm_accel(kernel):
    """The accelerator vm-run.sh boots with, and why: "tcg: <reason>"."""
    out = subprocess.run([os.path.join(TOP, "scripts", "vm-run.sh"), "-A", "-k", kernel],
                         stdout=subprocess.PIPE, text=True)
    if out.returncode != 0 or not out.stdout.strip():
        die("vm-run.sh -A could not choose an accelerator")
    return out.stdout.strip().splitlines()[-1]


def build_running():
    """True if a kernel build holds work/.build.lock right now."""
    path = os.path.join(WORK, ".build.lock")
    if not os.path.exists(path):
        return False
    with open(path) as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        fcntl.flock(f, fcntl.LOCK_UN)
    return False


def dbench_loadfile():
    """The dbench loadfile, gzipped once into work/bench/ for the guest."""
    src = "/usr/share/dbench/client.txt"
    if not os.path.exists(src):
        die("%s not found (install dbench: make deps)" % src)
    dst = os.path.join(WORK, "bench", "client.txt.gz")
    if not os.path.exists(dst) or os.path.getmtime(dst) < os.path.getmtime(src):
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(src, "rb") as i, gzip.open(dst + ".tmp", "wb") as o:
            shutil.copyfileobj(i, o)
        os.replace(dst + ".tmp", dst)
    return dst


def parse_args(argv):
    p = argparse.ArgumentParser(prog="scripts/bench.sh",
                                description="wbt benchmark suite")
    p.add_argument("--quick", action="store_true", help="W1 only, short (a few minutes)")
    p.add_argument("--demo", action="store_true",
                   help="W1 short form, none and wbt side by side (make demo)")
    p.add_argument("--workloads", default=os.environ.get("WORKLOADS", ""),
                   help="comma or space separated subset of W1..W11 [all; QUICK: W1]")
    p.add_argument("--repeats", default=os.environ.get("REPEATS", ""),
                   help="boots per configuration [3]")
    p.add_argument("--configs", default=os.environ.get("CONFIGS", ""),
                   help="subset of none,upstream,wbt,nohooks plus wbt@USEC (patched kernel, "
                   "wb_lat_usec=USEC) and cand (the candidate kernel) "
                   "[none,upstream,wbt, and nohooks with W6; demo: none,wbt]")
    p.add_argument("--profiles", default=os.environ.get("PROFILES", ""),
                   help="devices to run on: null_blk profiles of qdev_profiles, virtio, "
                   "fast [all the workloads name]")
    p.add_argument("--stacks", default=os.environ.get("STACKS", ""),
                   help="W9's stacks, a subset of %s [all]"
                   % PARAMS["full"]["W9_STACKS"].replace(" ", ","))
    p.add_argument("--seed", default=os.environ.get("SEED", ""),
                   help="seed of the shuffled run order [random, recorded]")
    p.add_argument("--kernel-nohooks",
                   default=os.environ.get("BENCH_KERNEL_NOHOOKS", "nohooks"),
                   help="patched kernel without the hooks, for nohooks [nohooks]")
    p.add_argument("--kernel-wbt", default=os.environ.get("BENCH_KERNEL_WBT", "wbt"),
                   help="patched kernel (flavour or bzImage) for none and wbt [wbt]")
    p.add_argument("--kernel-cand", default=os.environ.get("BENCH_KERNEL_CAND", CAND),
                   help="candidate kernel (flavour or bzImage), for cand [cand]")
    p.add_argument("--kernel-upstream",
                   default=os.environ.get("BENCH_KERNEL_UPSTREAM", "upstream"),
                   help="unpatched kernel (flavour or bzImage) [upstream]")
    p.add_argument("--out", default=os.environ.get("BENCH_OUT", ""),
                   help="output directory [bench/results/<date>; demo: work/bench/demo-<date>]")
    p.add_argument("--report", metavar="DIR",
                   help="only regenerate results.md and plots from DIR/results.json")
    p.add_argument("--cover", metavar="DIR",
                   help="only print the cover letter's results table of DIR/results.json")
    p.add_argument("--standing", metavar="DIR", nargs="+",
                   help="only print where each goal stands over the runs DIR... of one "
                   "series: each goal's verdict in the newest run that measured it")
    a = p.parse_args(argv)

    if sum(1 for x in (a.report, a.cover, a.standing) if x) > 1:
        die("--report, --cover and --standing exclude each other")
    if a.report or a.cover or a.standing:
        return a
    if a.quick and a.demo:
        die("--quick and --demo exclude each other")
    names = [w.strip().upper() for w in re.split(r"[,\s]+", a.workloads) if w.strip()]
    for w in names:
        if w not in WORKLOADS:
            die("unknown workload '%s' (known: %s)" % (w, " ".join(WORKLOADS)))
    if a.quick or a.demo:
        if names and names != ["W1"]:
            die("QUICK and demo run W1 only (got WORKLOADS=%s)" % ",".join(names))
        names = ["W1"]
    a.workload_list = [w for w in WORKLOADS if w in names] or list(WORKLOADS)

    rep = a.repeats.strip() or ("1" if a.demo else "3")
    if not re.fullmatch(r"[0-9]+", rep) or not 1 <= int(rep) <= 20:
        die("REPEATS must be a whole number from 1 to 20 (got '%s')" % a.repeats)
    a.repeat_count = int(rep)

    cfgs = [c.strip() for c in re.split(r"[,\s]+", a.configs) if c.strip()]
    for c in cfgs:
        if c.startswith("wbt@"):
            m = WBT_AT.fullmatch(c)
            if not m or not 1 <= int(m.group(1)) <= WBT_AT_MAX:
                die("configuration '%s': wbt@USEC needs USEC, wb_lat_usec in microseconds, "
                    "a whole number from 1 to %d (e.g. wbt@15000)" % (c, WBT_AT_MAX))
            # One spelling per value: wbt@015000 is wbt@15000.
            cfgs[cfgs.index(c)] = "wbt@%d" % int(m.group(1))
        elif c not in CONFIGS and c != CAND:
            die("unknown configuration '%s' (known: %s, wbt@USEC, %s)"
                % (c, " ".join(CONFIGS), CAND))
    if not cfgs:
        cfgs = ["none", "wbt"] if a.demo else [
            c for c in CONFIGS if c not in ONLY or set(ONLY[c]) & set(a.workload_list)]
    if "none" not in cfgs:
        die("the configurations must include none: every figure is a ratio against it")
    # The fixed configurations in their order, cand, then wbt@USEC by USEC.
    extra = sorted({c for c in cfgs if c.startswith("wbt@")}, key=lambda c: int(c[4:]))
    a.config_list = [c for c in CONFIGS + [CAND] if c in cfgs] + extra
    a.mode = "demo" if a.demo else "quick" if a.quick else "full"

    a.params = dict(PARAMS[a.mode])
    known = sorted(set(profile_names()) | {"virtio", "fast"})
    sel = [x for x in re.split(r"[,\s]+", a.profiles) if x]
    for x in sel:
        if x not in known:
            die("unknown profile '%s' (known: %s)" % (x, " ".join(known)))
    if sel:
        for k in DEV_KEYS:
            a.params[k] = " ".join(d for d in a.params[k].split() if d in sel)
        a.params["W5_CELLS"] = " ".join(c for c in a.params["W5_CELLS"].split()
                                        if c.split(":")[0] in sel)
        if "fast" not in sel:
            a.workload_list = [w for w in a.workload_list if w != "W6"]
        a.workload_list = [w for w in a.workload_list
                           if w == "W6" or workload_devs(a.params, w)]
        if not a.workload_list:
            die("PROFILES=%s leaves no workload to run" % a.profiles)
        a.config_list = [c for c in a.config_list
                         if c not in ONLY or set(ONLY[c]) & set(a.workload_list)]
    a.profile_list = sel
    stacks = [x for x in re.split(r"[,\s]+", a.stacks) if x]
    for x in stacks:
        if x not in PARAMS["full"]["W9_STACKS"].split():
            die("unknown stack '%s' (known: %s)" % (x, PARAMS["full"]["W9_STACKS"]))
    if stacks:
        if "W9" not in a.workload_list:
            die("STACKS=%s selects W9's stacks, but W9 is not among the workloads" % a.stacks)
        a.params["W9_STACKS"] = " ".join(x for x in PARAMS["full"]["W9_STACKS"].split()
                                         if x in stacks)

    if a.seed.strip():
        if not re.fullmatch(r"[0-9]+", a.seed.strip()):
            die("SEED must be a whole number (got '%s')" % a.seed)
        a.seed_value = int(a.seed.strip())
    else:
        a.seed_value = random.SystemRandom().randrange(1 << 31)
    return a


QDEV_PROFILES = "tools/testing/selftests/wbt/qdev_profiles"


def profile_names():
    """The profile names of the kselftests' qdev_profiles table: from the
    applied series, else from the patch of patches/ that adds the table."""
    path = os.path.join(WORK, "linux", QDEV_PROFILES)
    if os.path.exists(path):
        with open(path) as f:
            lines = f.read().splitlines()
    else:
        lines, inside = [], False
        pdir = os.path.join(TOP, "patches")
        for name in sorted(os.listdir(pdir)):
            if not name.endswith(".patch"):
                continue
            with open(os.path.join(pdir, name), errors="replace") as f:
                for ln in f:
                    if ln.startswith("diff --git"):
                        inside = ln.rstrip().endswith("b/" + QDEV_PROFILES)
                    elif inside and ln.startswith("+") and not ln.startswith("+++"):
                        lines.append(ln[1:].rstrip("\n"))
        if not lines:
            die("no %s in work/linux or patches/" % QDEV_PROFILES)
    return [ln.split()[0] for ln in lines if ln.strip() and not ln.startswith("#")]


def workload_devs(params, w):
    """The devices workload w runs on, with these parameters."""
    if w == "W5":
        return sorted({c.split(":")[0] for c in params["W5_CELLS"].split()})
    if w == "W6":
        return ["fast"]
    return params.get(w + "_DEVS", "").split()


def record_cand(a, outdir):
    """Write the candidate's change against the wbt branch to DIR/cand.diff,
    when cand is the flavour built from work/linux-cand, and work/linux's
    changes not committed to the branch, if any, to DIR/wbt.diff."""
    if a.kernel_cand != CAND:
        log("cand: kernel %s (not the cand flavour: no cand.diff)" % a.kernel_cand)
        return
    tree = os.path.join(WORK, "linux-cand")
    out = subprocess.run(["git", "-C", tree, "diff", "wbt", "--"], stdout=subprocess.PIPE,
                         text=True, errors="replace")
    if out.returncode != 0:
        die("cand: git diff in %s failed" % tree)
    if not out.stdout.strip():
        log("NOTE: work/linux-cand does not differ from the wbt branch")
    with open(os.path.join(outdir, "cand.diff"), "w") as f:
        f.write(out.stdout)
    log("cand: %s (%d diff lines against the wbt branch)"
        % (os.path.join(outdir, "cand.diff"), out.stdout.count("\n")))
    # The wbt kernel is built from work/linux's tree, which may hold
    # changes not committed to the branch: cand.diff does not show them.
    wtree = os.path.join(WORK, "linux")
    dirty = subprocess.run(["git", "-C", wtree, "diff", "wbt", "--"], stdout=subprocess.PIPE,
                           text=True, errors="replace")
    if dirty.returncode != 0:
        die("wbt: git diff in %s failed" % wtree)
    if dirty.stdout.strip():
        with open(os.path.join(outdir, "wbt.diff"), "w") as f:
            f.write(dirty.stdout)
        log("NOTE: work/linux differs from the wbt branch (%d diff lines): the wbt kernel may "
            "hold those changes, which cand.diff does not show; kept in %s"
            % (dirty.stdout.count("\n"), os.path.join(outdir, "wbt.diff")))


def workloads_of(a, cfg):
    return [w for w in a.workload_list if cfg not in ONLY or w in ONLY[cfg]]


def boots_of(a, cfg):
    """The boots of one configuration and repeat: [(name suffix, workloads,
    guest memory)]: the workloads of OWN_BOOT each in a boot of its own,
    the others together."""
    wls = workloads_of(a, cfg)
    rest = [w for w in wls if w not in OWN_BOOT]
    out = [("", rest, GUEST_MEM_MB)] if rest else []
    return out + [("-" + w, [w], OWN_BOOT[w]) for w in wls if w in OWN_BOOT]


def knob_mode(cfg):
    """KNOB_MODE for the guest script: off, default or set:USEC."""
    if cfg == "none":
        return "off"
    if cfg.startswith("wbt@"):
        return "set:" + cfg[4:]
    return "default"


def kernel_of(a, cfg):
    return {"upstream": a.kernel_upstream, "nohooks": a.kernel_nohooks,
            CAND: a.kernel_cand}.get(cfg, a.kernel_wbt)


def run_plan(a):
    """[(configuration, repeat, boot)]: rounds of every configuration once,
    each round shuffled with the recorded seed; a configuration's boots
    (boots_of) follow each other."""
    rng = random.Random(a.seed_value)
    plan = []
    for r in range(1, a.repeat_count + 1):
        plan += [(c, r, b) for c in rng.sample(a.config_list, len(a.config_list))
                 for b in boots_of(a, c)]
    return plan


def boot_params(a, params, idx):
    """The parameters of boot idx: W9's stacks in an order shuffled per
    boot (from the recorded seed), so that drift through a boot does not
    always fall on the same stack, bare included."""
    out = dict(params)
    if "W9_STACKS" in out:
        st = out["W9_STACKS"].split()
        random.Random("%d-%d" % (a.seed_value, idx)).shuffle(st)
        out["W9_STACKS"] = " ".join(st)
    return out


def run_one(a, cfg, rep, boot, idx, total, outdir, params, files):
    """Boot one guest for configuration cfg, repeat rep and boot (a boots_of
    entry); return the run record."""
    kernel = kernel_of(a, cfg)
    suffix, wls, mem = boot
    knob = knob_mode(cfg)
    raw = os.path.join(outdir, "raw", "%s-r%d%s" % (cfg, rep, suffix))
    if os.path.exists(raw):
        shutil.rmtree(raw)
    os.makedirs(raw)
    tmp = tempfile.mkdtemp(prefix="wbt-bench.")
    env = os.path.join(tmp, "bench.env")
    params = boot_params(a, params, idx)
    with open(env, "w") as f:
        f.write("KNOB_MODE=%s\n" % knob)
        f.write("WORKLOADS='%s'\n" % " ".join(wls))
        f.write("DIRTY_BYTES=%d\nDIRTY_BG_BYTES=%d\nGUEST_REPEATS=1\n"
                % (DIRTY_BYTES, DIRTY_BG_BYTES))
        for k, v in sorted(params.items()):
            f.write("%s='%s'\n" % (k, v))
    devs = {d for w in wls for d in workload_devs(params, w)}
    timeout = 120 + (sum(BUDGET[w] * max(1, len(workload_devs(params, w))) for w in wls)
                     + IDLE_BUDGET * len(devs)) * 3
    cmd = [os.path.join(TOP, "scripts", "vm-run.sh"), "-k", kernel, "-m", str(mem),
           "-d", "virtio:4G", "-a", "null_blk.nr_devices=0", "-t", str(timeout),
           # vm-run.sh's log names are [A-Za-z0-9._-]: wbt@15000 -> wbt_15000.
           "-n", "bench-%s-r%d%s" % (cfg.replace("@", "_"), rep, suffix), "-o", raw,
           "-f", GUEST_SCRIPT, "-f", env]
    for f in files:
        cmd += ["-f", f]
    cmd += ["--", "/run/wbt-bench.sh"]
    load = os.getloadavg()
    log("run %d/%d: %s (kernel %s, wbt %s), repeat %d%s; host load %.2f %.2f %.2f"
        % (idx, total, cfg, kernel, knob, rep, " (%s, %d MiB)" % (" ".join(wls), mem)
           if suffix else "", load[0], load[1], load[2]))
    t0 = time.time()
    errors = []
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, errors="replace")
    tail = []
    accel = None
    for line in proc.stdout:
        line = line.rstrip("\r\n").replace("\r", "")
        tail = (tail + [line])[-15:]
        ma = re.search(r"vm\[[^]]*\]: accelerator (\S+: .*)$", line)
        if ma:
            accel = ma.group(1)
        m = line.find("BENCH: ")
        if m >= 0:
            log("  %s r%d: %s" % (cfg, rep, line[m + 7:]))
            if line[m + 7:].startswith("ERROR"):
                errors.append(line[m + 7:])
        elif re.match(r"^\[[0-9:]+ \+ *[0-9]+s\] vm\[", line):
            print("  " + line, flush=True)
    rc = proc.wait()
    secs = time.time() - t0
    shutil.rmtree(tmp, ignore_errors=True)
    rec = report.parse_run(raw)
    # A workload's ERROR line or an unparsable result fails the run too.
    rec.update(config=cfg, repeat=rep, kernel=kernel, knob=knob, rc=rc,
               ok=rc == 0 and not errors and not rec["notes"],
               secs=round(secs, 1), accel=accel, host_load=[round(x, 2) for x in load],
               workloads=wls, boot=suffix, guest_mem_mb=mem,
               w9_stacks=params.get("W9_STACKS") if "W9" in wls else None)
    if not rec["ok"]:
        why = errors or rec["notes"] or \
            [t for t in tail if "timed out" in t or "Kernel panic" in t] or \
            ["exit %d; last console line: %s" % (rc, tail[-1] if tail else "none")]
        rec["reason"] = "; ".join(why[:3])
        # The guest sends its results after each workload: what it finished
        # without a failure before the boot failed still counts.
        done = report.finished_workloads(raw)
        part = report.parse_run(raw, keep=done) if done else None
        if part and not part["notes"]:
            for k in ("metrics", "cdf", "w1stat", "slow"):
                rec.pop(k, None)
            rec.update((k, v) for k, v in part.items() if k not in ("meta", "notes"))
            rec["kept"] = done
    if not rec["ok"]:
        log("run %d/%d: %s r%d%s FAILED (exit %d); last console lines:"
            % (idx, total, cfg, rep, suffix, rc))
        for t in tail:
            print("    " + t)
        if rec.get("kept"):
            log("run %d/%d: %s r%d%s: the results of %s, finished before, are kept"
                % (idx, total, cfg, rep, suffix, " ".join(rec["kept"])))
    else:
        log("run %d/%d: %s r%d%s done in %.0f s" % (idx, total, cfg, rep, suffix, secs))
    return rec


def run_name(d):
    return os.path.basename(os.path.normpath(d))


def load_results(d):
    path = os.path.join(d, "results.json")
    if not os.path.exists(path):
        die("%s not found" % path)
    with open(path) as f:
        try:
            res = json.load(f)
        except ValueError as e:
            die("%s: not a results file (%s)" % (path, e))
    inv = res.get("invocation") if isinstance(res, dict) else None
    if not isinstance(inv, dict) or not isinstance(res.get("runs"), list) or \
            not isinstance(inv.get("date"), str) or not isinstance(inv.get("repeats"), int) or \
            not all(isinstance(inv.get(k), list) for k in ("configs", "workloads")):
        die("%s: not a results file (no invocation with a date, repeats, configs and "
            "workloads, or no runs)" % path)
    return res


def series_of(kernel):
    """What the kernel image KERNEL was built from, as build-kernel.sh
    wrote it next to the image (the tree's HEAD, the sha256 of its
    uncommitted changes, and for work/linux the patches/ sum applied);
    None for a bzImage given by path or an image built before the record
    existed."""
    try:
        with open(os.path.join(WORK, "build", kernel, "series")) as f:
            return f.read().strip() or None
    except OSError:
        return None


def main(argv):
    a = parse_args(argv)
    if a.standing:
        runs = [(run_name(d), load_results(d)) for d in a.standing]
        try:
            sys.stdout.write(report.standing_text(runs))
        except ValueError as e:
            die(str(e))
        return 0
    if a.report or a.cover:
        res = load_results(a.report or a.cover)
        if a.cover:
            sys.stdout.write(report.cover_text(res, run_name(a.cover)))
        else:
            report.write_all(res, a.report)
        return 0

    for c in a.config_list:
        k = kernel_of(a, c)
        if not os.path.exists(kernel_image(k)):
            die("kernel image %s for configuration %s not found (run: make %s)"
                % (kernel_image(k), c, {"upstream": "build-upstream", "nohooks": "bench",
                                        CAND: "build-cand"}.get(c, "build")))
    if not os.path.exists(os.path.join(WORK, "initramfs.cpio")):
        die("work/initramfs.cpio not found (run: make initramfs)")
    if build_running():
        log("WARNING: a kernel build holds work/.build.lock: the numbers will be noisy")

    accel = vm_accel(a.kernel_wbt)
    log("accelerator: %s" % accel)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    # Demo results are not for committing: they go under work/.
    outdir = a.out or (os.path.join(WORK, "bench", "demo-" + stamp) if a.demo
                       else os.path.join(TOP, "bench", "results", stamp))
    os.makedirs(outdir, exist_ok=True)
    params = a.params
    files = [dbench_loadfile()] if "W5" in a.workload_list else []
    if "W8" in a.workload_list or "W9" in a.workload_list:
        rtpa = os.path.join(WORK, "bench", "read-to-pipe-async")
        if not os.path.exists(rtpa):
            die("%s not found (run: make bench, which builds it)" % rtpa)
        files.append(rtpa)

    # Interleaved rounds (one boot of each configuration per repeat), each
    # round in an order shuffled with the recorded seed.
    plan = run_plan(a)
    log("bench (%s): %s; configurations %s; %d repeat(s); %d boots; seed %d; results in %s"
        % (a.mode, " ".join(a.workload_list), ",".join(a.config_list), a.repeat_count,
           len(plan), a.seed_value, outdir))
    if a.kernel_wbt == a.kernel_upstream:
        log("NOTE: none/wbt use the same kernel as upstream (%s): development run"
            % a.kernel_wbt)
    if CAND in a.config_list:
        record_cand(a, outdir)
    if series_of(a.kernel_wbt) is None:
        log("NOTE: the wbt kernel %s records no series (built before build-kernel.sh "
            "recorded it, or not a flavour): rebuild it to record one" % a.kernel_wbt)
    t0 = time.time()
    res = {
        "invocation": {
            "mode": a.mode, "date": stamp, "workloads": a.workload_list,
            "configs": a.config_list, "repeats": a.repeat_count,
            "kernels": dict({"none": a.kernel_wbt, "upstream": a.kernel_upstream,
                             "wbt": a.kernel_wbt, "nohooks": a.kernel_nohooks,
                             CAND: a.kernel_cand},
                            **{c: a.kernel_wbt for c in a.config_list if c.startswith("wbt@")}),
            "guest_mem_mb": GUEST_MEM_MB, "dirty_bytes": DIRTY_BYTES,
            "dirty_background_bytes": DIRTY_BG_BYTES, "params": params,
            "host": os.uname().nodename, "host_cpus": os.cpu_count(),
            "accel": accel, "seed": a.seed_value, "profiles": a.profile_list,
            "order": ["%s-r%d%s" % (c, r, b[0]) for c, r, b in plan],
            "host_load_start": [round(x, 2) for x in os.getloadavg()],
            "series": series_of(a.kernel_wbt),
        },
        "runs": [],
    }
    for i, (c, r, b) in enumerate(plan, 1):
        res["runs"].append(run_one(a, c, r, b, i, len(plan), outdir, params, files))
        res["invocation"]["wall_secs"] = round(time.time() - t0, 1)
        with open(os.path.join(outdir, "results.json"), "w") as f:
            json.dump(res, f, indent=1, sort_keys=True)
    log("all %d runs done in %.1f min" % (len(plan), (time.time() - t0) / 60))
    report.write_all(res, outdir)
    if a.demo:
        print(report.demo_table(res))
    failed = [r for r in res["runs"] if not r["ok"]]
    log("results: %s" % os.path.join(outdir, "results.md"))
    if failed:
        log("%d run(s) failed: %s" % (len(failed), ", ".join(
            "%s-r%d%s" % (r["config"], r["repeat"], r.get("boot", "")) for r in failed)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
