#!/bin/bash
# checkpatch.pl --strict on one patch of the series (or all).  Message types
# listed for a patch in patches/checkpatch.ignore ("PATCH TYPE[,TYPE]") are
# accepted; the cover letter justifies each of them.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# checkpatch runs scripts/spdxcheck.py with python3: use Debian's, which has
# python3-ply, not a user's pyenv or venv.
export PATH=/usr/bin:$PATH
if [ $# -gt 0 ]; then
	list=("$@")
else
	mapfile -t list <"$TOP/patches/series"
fi
for p in "${list[@]}"; do
	[ -f "$TOP/patches/$p" ] || die "no such patch: $p"
done
[ -x "$LINUX/scripts/checkpatch.pl" ] || die "$LINUX missing (run: make apply)"
rc=0
for p in "${list[@]}"; do
	ignore=$(awk -v p="$p" '$1 == p {print $2}' "$TOP/patches/checkpatch.ignore" 2>/dev/null |
		paste -sd, -)
	args=(--strict --no-summary --show-types --root="$LINUX")
	[ -z "$ignore" ] || args+=(--ignore "$ignore")
	if out=$(cd "$LINUX" && scripts/checkpatch.pl "${args[@]}" "$TOP/patches/$p" 2>&1); then
		echo "$p: clean${ignore:+ (accepted: $ignore)}"
	else
		echo "$out"
		echo "$p: checkpatch found problems"
		rc=1
	fi
done
exit $rc
