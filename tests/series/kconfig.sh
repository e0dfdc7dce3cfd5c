#!/bin/bash
# make olddefconfig on the patched tree keeps a config's choice of 6.12's
# writeback throttling symbols: CONFIG_BLK_WBT=n stays off (no hooks, no
# throttling), CONFIG_BLK_WBT_MQ=n stays off (built, off by default), and
# a config that names neither gets both, on.
set -u
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/../harness/lib.sh"
linux=${WBT_WORK:-$top/work}/linux
[ -f "$linux/block/Kconfig" ] || { echo "FAIL: no kernel tree at $linux (make apply)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mk() { make -s -C "$linux" O="$tmp" "$@" >/dev/null 2>"$tmp/make.err" || { cat "$tmp/make.err"; return 1; }; }
cfg() { "$linux/scripts/config" --file "$tmp/.config" "$@"; }

check "defconfig configures" mk defconfig
cp "$tmp/.config" "$tmp/base.config"

# olddefconfig_with EDIT...: the base config, edited with scripts/config
olddefconfig_with() {
	cp "$tmp/base.config" "$tmp/.config"
	cfg "$@" && mk olddefconfig
}
# shellcheck disable=SC2317 # called through check
sym_is() { [ "$(cfg -s "$1")" = "$2" ] || { echo "  $1=$(cfg -s "$1"), want $2"; return 1; }; }

olddefconfig_with -e BLK_WBT -d BLK_WBT_MQ
check "BLK_WBT=y BLK_WBT_MQ=n is kept" sym_is BLK_WBT y
check "BLK_WBT_MQ=n is kept" sym_is BLK_WBT_MQ n
olddefconfig_with -d BLK_WBT -d BLK_WBT_MQ
check "BLK_WBT=n is kept" sym_is BLK_WBT n
check "BLK_WBT=n: BLK_WBT_MQ is not set" sym_is BLK_WBT_MQ undef
olddefconfig_with -e BLK_WBT -e BLK_WBT_MQ
check "BLK_WBT=y BLK_WBT_MQ=y is kept" sym_is BLK_WBT_MQ y
olddefconfig_with --undefine BLK_WBT --undefine BLK_WBT_MQ
check "neither named: BLK_WBT defaults to y" sym_is BLK_WBT y
check "neither named: BLK_WBT_MQ defaults to y" sym_is BLK_WBT_MQ y
exit "$fails"
