#!/bin/bash
# Run sparse (make C=2) over every object whose .c file the series adds or
# changes, in the patched tree and, for the files that exist there, in the
# pristine base; fail on any warning the base does not have.  Line numbers
# are dropped before comparing, so moved code is not "new".
# Usage: scripts/sparse-series.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 0 ] || die "usage: $0 (no arguments)"
need sparse make gcc
[ -f "$WORK/build/wbt/.config" ] || die "no VM kernel build in work/build/wbt (run: make build)"
# The base files are checked with the same .config in a worktree of the
# pristine base (work/linux-base carries the test device patch).
base_wt=$WORK/sparse-base
base_out=$base_wt/.build-sparse

mapfile -t files < <(kgit diff --name-only --diff-filter=AM "$BASE_BRANCH" "$SERIES_BRANCH" -- '*.c')
objs=() base_objs=()
for f in "${files[@]}"; do
	o=${f%.c}.o
	[ -f "$WORK/build/wbt/$o" ] || continue
	objs+=("$o")
	kgit cat-file -e "$BASE_BRANCH:$f" 2>/dev/null && base_objs+=("$o")
done
[ ${#objs[@]} -gt 0 ] || die "the series changes no object of the VM build"

build_lock
kbuild_env
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# sparse_of SRC OUT OBJ...: sparse warnings of OBJs, "file: message" per line
sparse_of() {
	local src=$1 out=$2
	shift 2
	kmake "$src" "$out" -s C=2 CHECK="sparse" "$@" 2>&1 >/dev/null |
		grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' |
		sed -E 's/^([^:]+):[0-9]+:[0-9]+: /\1: /' | sort || true
}

step "sparse: ${objs[*]} (patched)" sparse_of "$LINUX" "$WORK/build/wbt/" "${objs[@]}" >"$tmp/new"
if [ ${#base_objs[@]} -gt 0 ]; then
	if [ "$(git -C "$base_wt" rev-parse HEAD 2>/dev/null)" != "$(kgit rev-parse "$BASE_BRANCH")" ]; then
		rm -rf "$base_wt"
		kgit worktree prune
		step "check out the base into $base_wt" kgit worktree add -q --detach "$base_wt" "$BASE_BRANCH"
	fi
	mkdir -p "$base_out"
	cp "$WORK/build/wbt/.config" "$base_out/.config"
	make -C "$base_wt" O="$base_out" -s olddefconfig >/dev/null
	step "sparse: ${base_objs[*]} (base)" sparse_of "$base_wt" "$base_out" "${base_objs[@]}" >"$tmp/old"
else
	: >"$tmp/old"
fi
log "sparse: $(wc -l <"$tmp/new") warning(s) in the patched files, $(wc -l <"$tmp/old") in the base"
# Lines of new that old lacks, counting duplicates.
added=$(comm -23 "$tmp/new" "$tmp/old")
if [ -n "$added" ]; then
	echo "sparse: new warnings:"
	echo "$added"
	exit 1
fi
echo "sparse: no new warnings (${#objs[@]} objects)"
