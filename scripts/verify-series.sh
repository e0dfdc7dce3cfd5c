#!/bin/bash
# Check that patches/ and the kernel work tree (work/linux, branch wbt)
# hold the same series: export the work tree to a temporary directory and
# compare file by file.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if series_matches; then
	log "series: patches/ matches $LINUX ($SERIES_BRANCH)"
else
	die "patches/ and $LINUX ($SERIES_BRANCH) differ: run 'make export' (tree is newer) or 'make apply' (patches/ is newer)"
fi
