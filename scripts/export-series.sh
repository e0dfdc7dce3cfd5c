#!/bin/bash
# Export the kernel work tree's series (base..wbt in work/linux) into
# patches/: one git format-patch file per commit, the series file and the
# cover letter.  The cover letter's subject and blurb come from
# patches/cover.txt (first line: subject; the rest: body).
# Usage: export-series.sh [OUTDIR]   (default: patches/)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=${1:-$TOP/patches}
[ -d "$LINUX/.git" ] || die "no kernel work tree at $LINUX (run: make apply)"
kgit rev-parse -q --verify "refs/heads/$SERIES_BRANCH" >/dev/null ||
	die "branch $SERIES_BRANCH missing in $LINUX"
[ -z "$(kgit status --porcelain --untracked-files=no)" ] ||
	die "$LINUX has uncommitted changes; commit them first"
n=$(kgit rev-list --count "$BASE_BRANCH..$SERIES_BRANCH")
[ "$n" -gt 0 ] || die "no commits on $SERIES_BRANCH"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kgit format-patch -q --zero-commit --no-signature --numbered --cover-letter \
	--cover-from-description=none -o "$tmp" "$BASE_BRANCH..$SERIES_BRANCH"

cover=$TOP/patches/cover.txt
[ -f "$cover" ] || die "$cover missing"
subject=$(head -n1 "$cover")
# The cover letter takes the last patch's date, so exports are reproducible.
date=$(kgit log -1 --format=%aD "$SERIES_BRANCH")
python3 - "$tmp"/0000-cover-letter.patch "$cover" "$subject" "$date" <<'PY'
import re, sys
path, cover, subject, date = sys.argv[1:]
body = open(cover).read().split('\n', 1)[1].lstrip('\n')
s = open(path).read()
s = s.replace('*** SUBJECT HERE ***', subject).replace('*** BLURB HERE ***', body.rstrip('\n'))
s = re.sub(r'^Date: .*$', 'Date: ' + date, s, count=1, flags=re.M)
open(path, 'w').write(s)
PY

mkdir -p "$out"
rm -f "$out"/[0-9][0-9][0-9][0-9]-*.patch
cp "$tmp"/*.patch "$out"/
for p in "$out"/[0-9][0-9][0-9][0-9]-*.patch; do
	p=${p##*/}
	[ "${p#0000-}" = "$p" ] && echo "$p"
done >"$out/series"
log "exported $n patches to $out"
