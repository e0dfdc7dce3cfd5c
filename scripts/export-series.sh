#!/bin/bash
# Export the kernel work tree's series (base..wbt in work/linux) into
# patches/: one git format-patch file per commit, the series file and the
# cover letter.  The cover letter's subject and blurb come from
# patches/cover.txt (first line: subject; the rest: body).
# Usage: export-series.sh [OUTDIR]   (default: patches/)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -le 1 ] || die "usage: $0 [OUTDIR]"
export_series "${1:-$TOP/patches}"
