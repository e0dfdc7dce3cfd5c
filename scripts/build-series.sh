#!/bin/bash
# Build every patch of the series on its own, in order (bisectability).
#   --touched  compile the objects each patch touches, with the VM config,
#              plus the last patch's objects with writeback throttling
#              configured out (fits in CI)
#   --full     build a whole bzImage at every patch (slow)
# Uses a detached worktree (work/series-build) and its own output directory.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mode=${1:-}
case $mode in --touched | --full) ;; *) die "usage: $0 --touched|--full" ;; esac
need make gcc ccache
ref=$WORK/build/wbt/.config
[ -f "$ref" ] || die "no VM kernel build in work/build/wbt (run: make build)"

wt=$WORK/series-build
out=$wt/.build-series
if [ ! -d "$wt" ]; then
	kgit worktree prune
	kgit worktree add -q --detach "$wt" "$BASE_BRANCH"
fi
build_lock
mkdir -p "$out"
kbuild_env
mk=(kmake "$wt" "$out" -s)

# Objects of the final build that a commit's .c files produce.
objects() {
	git -C "$wt" diff --name-only --diff-filter=AM "$1~1" "$1" -- '*.c' |
		while read -r f; do
			o=${f%.c}.o
			[ -f "$WORK/build/wbt/$o" ] && echo "$o"
		done
	return 0
}

rc=0
for c in $(kgit rev-list --reverse "$BASE_BRANCH..$SERIES_BRANCH"); do
	subj=$(kgit log -1 --format=%s "$c")
	git -C "$wt" checkout -q --detach "$c"
	cp "$ref" "$out/.config"
	"${mk[@]}" olddefconfig >/dev/null
	if [ "$mode" = --full ]; then
		tgt=(bzImage)
	else
		mapfile -t tgt < <(objects "$c")
		[ ${#tgt[@]} -gt 0 ] || tgt=(prepare)
	fi
	if step "build '$subj': ${tgt[*]}" "${mk[@]}" W=1 "${tgt[@]}"; then :; else rc=1; fi
done

if [ "$mode" = --touched ]; then
	# The whole feature configured out: every file the series touches.
	cp "$ref" "$out/.config"
	"$wt/scripts/config" --file "$out/.config" -d BLK_WBT -d WBT -d WBT_KUNIT_TEST
	"${mk[@]}" olddefconfig >/dev/null
	# Only objects still built: a single-object make compiles any file.
	built() {
		local o=$1 sym
		# shellcheck disable=SC2016
		sym=$(grep -oE "obj-\\\$\(CONFIG_[A-Z0-9_]+\)[[:space:]]*\+=.*\b${o##*/}\b" \
			"$wt/$(dirname "$o")/Makefile" | sed -n 's/^obj-\$(\(CONFIG_[A-Z0-9_]*\)).*/\1/p')
		[ -z "$sym" ] || grep -q "^$sym=y" "$out/.config"
	}
	mapfile -t tgt < <(git -C "$wt" diff --name-only --diff-filter=AM "$BASE_BRANCH" HEAD -- 'block/*.c' 'mm/*.c' |
		sed 's/\.c$/.o/' | while read -r o; do
			[ -f "$WORK/build/wbt/$o" ] && built "$o" && echo "$o"
		done)
	if [ ${#tgt[@]} -gt 0 ]; then
		step "build with writeback throttling configured out: ${tgt[*]}" \
			"${mk[@]}" W=1 "${tgt[@]}" || rc=1
	fi
fi
exit $rc
