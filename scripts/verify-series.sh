#!/bin/bash
# Check that patches/ and the kernel work tree (work/linux, branch wbt)
# hold the same series: export the work tree to a temporary directory and
# compare file by file.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$TOP/scripts/export-series.sh" "$tmp/out" 2>/dev/null
if diff -r -x cover.txt -x checkpatch.ignore -x upstream.series "$TOP/patches" "$tmp/out" >"$tmp/diff"; then
	log "series: patches/ matches $LINUX ($SERIES_BRANCH)"
else
	head -40 "$tmp/diff" >&2
	die "patches/ and $LINUX ($SERIES_BRANCH) differ: run 'make export' (tree is newer) or 'make apply' (patches/ is newer)"
fi
