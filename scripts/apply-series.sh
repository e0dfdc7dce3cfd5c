#!/bin/bash
# Apply patches/ to the pinned base with git am:
#   work/linux       branch wbt:      every patch in patches/series
#   work/linux-base  branch upstream: the patches in patches/upstream.series
#                    (the test device only), for the unpatched baseline
# A no-op when a branch already holds exactly its patches.  Refuses to throw
# away commits of work/linux that were not exported (FORCE=1 overrides).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/get-base.sh"

# apply_to TREE BRANCH SERIESFILE
apply_to() {
	local tree=$1 branch=$2 list=$3 stamp sum head p
	local -a plist
	stamp=$WORK/$(basename "$tree").$branch.stamp
	mapfile -t plist <"$list"
	sum=$(cd "$TOP/patches" && cat "$list" "${plist[@]}" | sha256sum | cut -d' ' -f1)
	g() { git -C "$tree" -c user.name="$(git -C "$TOP" config user.name)" \
		-c user.email="$(git -C "$TOP" config user.email)" "$@"; }

	if [ ! -d "$tree" ]; then
		kgit worktree prune
		kgit worktree add -q -f --detach "$tree" "$BASE_BRANCH"
	fi
	if g rev-parse -q --verify "refs/heads/$branch" >/dev/null; then
		head=$(g rev-parse "$branch")
		if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum $head" ]; then
			log "$branch: already applied (${#plist[@]} patches) in $tree"
			g checkout -q "$branch"
			return 0
		fi
		if [ "$tree" = "$LINUX" ] && [ "${FORCE:-0}" != 1 ] && [ -f "$stamp" ] &&
			[ "$(cut -d' ' -f2 "$stamp")" != "$head" ]; then
			if "$TOP/scripts/verify-series.sh" >/dev/null 2>&1; then
				log "$branch: work tree commits match patches/"
				echo "$sum $head" >"$stamp"
				return 0
			fi
			die "$tree branch $branch has commits that are not in patches/ (run: make export, or FORCE=1 make apply to discard them)"
		fi
	fi
	[ -z "$(g status --porcelain --untracked-files=no)" ] ||
		die "$tree has uncommitted changes (commit and export them, or discard them)"

	g am --abort >/dev/null 2>&1 || true
	g checkout -q -B "$branch" "$BASE_BRANCH"
	for p in "${plist[@]}"; do
		[ -n "$p" ] || continue
		[ -f "$TOP/patches/$p" ] || die "$(basename "$list") names $p, which does not exist"
		if ! g am -q --keep-cr "$TOP/patches/$p" >/dev/null 2>&1; then
			g am --abort >/dev/null 2>&1 || true
			die "patch $p does not apply to the base"
		fi
	done
	echo "$sum $(g rev-parse HEAD)" >"$stamp"
}

step "git am patches/series onto the base ($LINUX)" \
	apply_to "$LINUX" "$SERIES_BRANCH" "$TOP/patches/series"
step "git am patches/upstream.series onto the base ($WORK/linux-base)" \
	apply_to "$WORK/linux-base" upstream "$TOP/patches/upstream.series"
