#!/bin/bash
# Build a VM kernel.  Usage: build-kernel.sh FLAVOUR
#   wbt       patched tree (work/linux, series applied), configs vm + wbt
#   upstream  pristine base (work/linux-base), configs vm + upstream
#   debug     patched tree, configs vm + wbt + debug
#   nohooks   patched tree, configs vm + nohooks: CONFIG_BLK_WBT=n (not wbt,
#             whose CONFIG_BLK_WBT_MQ=y cannot be taken without it),
#             the benchmark's W6 reference without the throttle's hooks
#   mqoff     patched tree, configs vm + wbt + mqoff: CONFIG_BLK_WBT_MQ=n
#   upstream-mqoff  pristine base, configs vm + upstream + mqoff
#   cand      candidate tree (work/linux-cand, a git worktree of work/linux
#             made at the wbt branch if missing), configs vm + wbt: the
#             benchmark's cand configuration, a change under measurement
# Output: work/build/FLAVOUR/arch/x86/boot/bzImage.  work/build/FLAVOUR links
# to SRC/.build-FLAVOUR: with the output inside each source tree, compiler
# command lines are the same in every tree and ccache hits across them.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=${1:-}
case $flavour in
wbt) src=$LINUX frags="vm wbt" ;;
upstream) src=$WORK/linux-base frags="vm upstream" ;;
debug) src=$LINUX frags="vm wbt debug" ;;
nohooks) src=$LINUX frags="vm nohooks" ;;
mqoff) src=$LINUX frags="vm wbt mqoff" ;;
upstream-mqoff) src=$WORK/linux-base frags="vm upstream mqoff" ;;
cand) src=$WORK/linux-cand frags="vm wbt" ;;
*) die "usage: $0 wbt|upstream|debug|nohooks|mqoff|upstream-mqoff|cand" ;;
esac
need make gcc ccache flex bison bc perl
if [ "$flavour" = cand ] && [ ! -d "$src" ]; then
	[ -d "$LINUX/.git" ] || die "$LINUX missing (run: make apply)"
	step "make $src, a worktree of $LINUX at branch wbt" \
		git -C "$LINUX" worktree add -q --detach "$src" wbt
	log "cand: edit $src, then build it again and bench CONFIGS=...,cand"
fi
[ -d "$src" ] || die "$src missing (run: make apply)"
# Stage work/build/FLAVOUR/arch/x86/boot/bzImage of the Makefile.

out=$src/.build-$flavour
mkdir -p "$out" "$WORK/build"
ln -sfn "$out" "$WORK/build/$flavour"
build_lock

kbuild_env
jobs=${JOBS:-$(nproc)}
mk=(kmake "$src" "$out")

configure() {
	local f files=() frag_sum
	for f in $frags; do files+=("$TOP/configs/$f.config"); done
	frag_sum=$(cat "${files[@]}" | sha256sum | cut -d' ' -f1)
	if [ -f "$out/.config" ] && [ "$(cat "$out/.frag_sum" 2>/dev/null)" = "$frag_sum" ] &&
		[ "$out/.config" -nt "$src/.git/HEAD" ]; then
		"${mk[@]}" -s olddefconfig
		return
	fi
	local log=$out/merge_config.log
	(cd "$src" && scripts/kconfig/merge_config.sh -n -O "$out" "${files[@]}") >"$log" 2>&1 ||
		{ cat "$log" >&2; die "merge_config.sh failed"; }
	# merge_config only warns about options it could not set; here they are errors.
	if grep -q -e '^Value requested for' -e 'warning:' "$log"; then
		grep -A2 -e '^Value requested for' -e 'warning:' "$log" >&2
		die "config fragments ($frags) request options the kernel did not take"
	fi
	echo "$frag_sum" >"$out/.frag_sum"
}

# What the image is built from (tree_series), taken before the build and
# written next to the image after it, for the benchmark's record; removed
# first, so that a failed build leaves no claim about the image.
rm -f "$out/series"
series=$(tree_series "$src") || series=
step "configure $flavour ($frags)" configure
ccache -z >/dev/null
step "build $flavour bzImage (-j$jobs)" "${mk[@]}" -s bzImage
[ -z "$series" ] || echo "$series" >"$out/series"
log "ccache: $(ccache -s | grep -iE 'hits|misses' | tr -s ' ' | paste -sd' ')"
ls -l "$out/arch/x86/boot/bzImage" >&2
