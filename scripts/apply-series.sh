#!/bin/bash
# Apply patches/ to the pinned base with git am, on branch "wbt" of
# work/linux.  A no-op when the branch already holds exactly this series.
# Refuses to throw away commits that were not exported (FORCE=1 overrides).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/get-base.sh"
stamp=$WORK/series.stamp
mapfile -t plist <"$TOP/patches/series"
sum=$(cd "$TOP/patches" && cat series "${plist[@]}" | sha256sum | cut -d' ' -f1)

if kgit rev-parse -q --verify "refs/heads/$SERIES_BRANCH" >/dev/null; then
	head=$(kgit rev-parse "$SERIES_BRANCH")
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum $head" ]; then
		log "series: already applied ($(kgit rev-list --count "$BASE_BRANCH..$head") patches)"
		kgit checkout -q "$SERIES_BRANCH"
		exit 0
	fi
	if [ "${FORCE:-0}" != 1 ] && [ -f "$stamp" ] &&
		[ "$(cut -d' ' -f2 "$stamp")" != "$head" ]; then
		die "$LINUX branch $SERIES_BRANCH has commits that are not in patches/ (run: make export, or FORCE=1 make apply to discard them)"
	fi
fi
[ -z "$(kgit status --porcelain --untracked-files=no)" ] ||
	die "$LINUX has uncommitted changes (commit and export them, or discard them)"

apply() {
	local p
	kgit am --abort >/dev/null 2>&1 || true
	kgit checkout -q -B "$SERIES_BRANCH" "$BASE_BRANCH"
	while read -r p; do
		[ -n "$p" ] || continue
		[ -f "$TOP/patches/$p" ] || die "patches/series names $p, which does not exist"
		if ! kgit am -q --keep-cr "$TOP/patches/$p" >/dev/null 2>&1; then
			kgit am --show-current-patch=diff >/dev/null 2>&1 || true
			kgit am --abort >/dev/null 2>&1 || true
			die "patch $p does not apply to the base"
		fi
	done <"$TOP/patches/series"
}
step "git am $(wc -l <"$TOP/patches/series") patches" apply
echo "$sum $(kgit rev-parse HEAD)" >"$stamp"
