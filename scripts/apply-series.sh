#!/bin/bash
# Apply patches/ to the pinned base with git am.  Usage: apply-series.sh TREE
#   wbt       work/linux       branch wbt:      every patch in patches/series
#   upstream  work/linux-base  branch upstream: the patches in
#             patches/upstream.series (the test device only), for the
#             unpatched baseline
# A no-op when the branch already holds exactly its patches.  Refuses to
# throw away commits of work/linux that were not exported (FORCE=1
# overrides).  Stages work/linux.wbt.stamp and work/linux-base.upstream.stamp
# of the Makefile; the base must be imported (make base).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case ${1:-} in
wbt) tree=$LINUX branch=$SERIES_BRANCH list=$TOP/patches/series ;;
upstream) tree=$WORK/linux-base branch=upstream list=$TOP/patches/upstream.series ;;
*) die "usage: $0 wbt|upstream" ;;
esac
[ $# -eq 1 ] || die "usage: $0 wbt|upstream"
if [ ! -f "$WORK/base.stamp" ] || ! kgit rev-parse -q --verify "refs/heads/$BASE_BRANCH" >/dev/null; then
	die "no imported base in $LINUX (run: make base)"
fi

# apply_to TREE BRANCH SERIESFILE
apply_to() {
	local tree=$1 branch=$2 list=$3 stamp sum head p
	local -a plist
	stamp=$WORK/$(basename "$tree").$branch.stamp
	mapfile -t plist <"$list"
	sum=$(cd "$TOP/patches" && cat "$list" "${plist[@]}" | sha256sum | cut -d' ' -f1)

	# A worktree whose metadata went with a re-imported base is rebuilt.
	if [ "$tree" != "$LINUX" ] && [ -d "$tree" ] && ! git -C "$tree" rev-parse -q HEAD >/dev/null 2>&1; then
		log "$tree: not a worktree of $LINUX any more; checking it out again"
		rm -rf "$tree"
	fi
	if [ ! -d "$tree" ]; then
		kgit worktree prune
		kgit worktree add -q -f --detach "$tree" "$BASE_BRANCH"
	fi
	if kgit_in "$tree" rev-parse -q --verify "refs/heads/$branch" >/dev/null; then
		head=$(kgit_in "$tree" rev-parse "$branch")
		if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum $head" ]; then
			log "$branch: already applied (${#plist[@]} patches) in $tree"
			kgit_in "$tree" checkout -q "$branch"
			return 0
		fi
		if [ "$tree" = "$LINUX" ] && [ "${FORCE:-0}" != 1 ] && [ -f "$stamp" ] &&
			[ "$(cut -d' ' -f2 "$stamp")" != "$head" ]; then
			if series_matches 2>/dev/null; then
				log "$branch: work tree commits match patches/"
				echo "$sum $head" >"$stamp"
				return 0
			fi
			die "$tree branch $branch has commits that are not in patches/ (run: make export, or FORCE=1 make apply to discard them)"
		fi
	fi
	[ -z "$(kgit_in "$tree" status --porcelain --untracked-files=no)" ] ||
		die "$tree has uncommitted changes (commit and export them, or discard them)"

	kgit_in "$tree" am --abort >/dev/null 2>&1 || true
	kgit_in "$tree" checkout -q -B "$branch" "$BASE_BRANCH"
	for p in "${plist[@]}"; do
		[ -n "$p" ] || continue
		[ -f "$TOP/patches/$p" ] || die "$(basename "$list") names $p, which does not exist"
		if ! kgit_in "$tree" am -q --keep-cr "$TOP/patches/$p" >/dev/null 2>&1; then
			kgit_in "$tree" am --abort >/dev/null 2>&1 || true
			die "patch $p does not apply to the base"
		fi
	done
	echo "$sum $(kgit_in "$tree" rev-parse HEAD)" >"$stamp"
}

step "git am $(basename "$list") onto the base ($tree)" apply_to "$tree" "$branch" "$list"
