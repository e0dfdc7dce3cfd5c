#!/bin/bash
# Build every patch of the series on its own, in order (bisectability).
#   --touched  compile the objects each patch touches, with the VM config,
#              plus the last patch's objects with writeback throttling
#              configured out
#   --boot     build a whole bzImage at every patch and boot it with
#              tests/guest/bisect.sh: queue/wbt_lat_usec is there with
#              6.12's behaviour and throttles.  Each patch's console is
#              work/check-series/NN.console (scripts/check.sh counts its
#              KTAP results); a patch that does not build has none.
# Uses a detached worktree (work/series-build) and its own output directory.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mode=${1:-}
case $mode in --touched | --boot) ;; *) die "usage: $0 --touched|--boot" ;; esac
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
if [ "$mode" = --boot ]; then
	[ -f "$WORK/initramfs.cpio" ] || die "no initramfs (run: make initramfs)"
	res=$WORK/check-series
	rm -rf "$res"
	mkdir -p "$res"
fi

# Objects of the final build that a commit's .c files produce.
objects() {
	git -C "$wt" diff --name-only --diff-filter=AM "$1~1" "$1" -- '*.c' |
		while read -r f; do
			o=${f%.c}.o
			[ -f "$WORK/build/wbt/$o" ] && echo "$o"
		done
	return 0
}

rc=0 n=0
for c in $(kgit rev-list --reverse "$BASE_BRANCH..$SERIES_BRANCH"); do
	n=$((n + 1))
	subj=$(kgit log -1 --format=%s "$c")
	git -C "$wt" checkout -q --detach "$c"
	cp "$ref" "$out/.config"
	"${mk[@]}" olddefconfig >/dev/null
	if [ "$mode" = --boot ]; then
		nn=$(printf %02d "$n")
		if ! step "patch $nn, '$subj': build bzImage" "${mk[@]}" bzImage; then
			rc=1
			continue
		fi
		# The console is the result; check.sh reads its KTAP lines.
		step "patch $nn: boot, wbt_lat_usec and throttling" \
			"$TOP/scripts/vm-run.sh" -q -k "$out/arch/x86/boot/bzImage" -t 900 \
			-l "$res/$nn.console" -- /tests/guest/bisect.sh || rc=1
		continue
	fi
	mapfile -t tgt < <(objects "$c")
	[ ${#tgt[@]} -gt 0 ] || tgt=(prepare)
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
