#!/bin/bash
# make bench: the benchmark suite (bench/README.md).
#
# Usage: scripts/bench.sh [--quick | --demo] [bench/run.py options]
#   --quick     W1 only, short, 3 interleaved repeats (make bench QUICK=1)
#   --demo      W1 short form, none and wbt side by side (make demo)
#   --report D  rewrite D/results.md and the plots from D/results.json
#   --cover D   print the cover letter's results table of D/results.json
#   --standing D...  print each goal's verdict in the newest run D that
#               measured it (runs of one series)
# Environment: WORKLOADS (e.g. "W1 W3"), REPEATS [3], CONFIGS
# [none,upstream,wbt, nohooks with W6; wbt@USEC adds the patched kernel at
# target USEC; cand the candidate kernel of make build-cand], PROFILES
# (devices, e.g. "hdd ssd fast"), STACKS (W9's stacks, e.g. "bare linear"),
# SEED (run order), QUICK=1 (same as
# --quick), BENCH_KERNEL_WBT, BENCH_KERNEL_UPSTREAM, BENCH_KERNEL_NOHOOKS,
# BENCH_KERNEL_CAND (flavour or bzImage), BENCH_OUT (output directory).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

help=0
case ${1:-} in
-h | --help)
	(usage_from_header 0)
	echo
	help=1
	;;
esac
args=("$@")
case ${QUICK:-} in
'' | 0) ;;
1) args=(--quick "${args[@]}") ;;
*) die "QUICK must be 0 or 1 (got '$QUICK')" ;;
esac
# Debian's python3 (for python3-matplotlib), not a user's pyenv/venv one.
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
need "$py"
[ "$help" = 0 ] || exec "$py" "$TOP/bench/run.py" --help
export PYTHONDONTWRITEBYTECODE=1
exec "$py" "$TOP/bench/run.py" "${args[@]}"
