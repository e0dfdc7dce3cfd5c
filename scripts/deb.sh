#!/bin/bash
# Build installable Debian packages of the patched kernel (make deb).
# Usage: deb.sh [--configure-only] [CONFIG]
#   CONFIG   distro  the running distribution's config (/boot/config-$(uname -r),
#                    else the newest /boot/config-*, else Debian's
#                    linux-config-6.12 amd64 config) + configs/wbt.config
#                    (without its KUnit option) + configs/deb.config [default]
#            vm      the small QEMU guest config: configs/vm.config +
#                    configs/wbt.config, as scripts/build-kernel.sh wbt
#   --configure-only (or DEB_STEP=config): stop after the .config is made
#                    and checked; nothing is compiled
# Needs the applied series (make deb runs make apply first).  Builds in work/linux/.build-deb-CONFIG
# with `make bindeb-pkg` and moves the packages to work/deb/CONFIG/.
# DEB_BASE_CONFIG=FILE starts the distro config from FILE instead.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

only_config=0
case ${DEB_STEP:-package} in
config) only_config=1 ;;
package) ;;
*) die "DEB_STEP='${DEB_STEP}': must be config or package" ;;
esac
config=""
for a in "$@"; do
	case $a in
	--configure-only) only_config=1 ;;
	-h | --help) usage_from_header 0 ;;
	-*) echo "error: unknown option '$a'" >&2; usage_from_header ;;
	*) [ -z "$config" ] || die "one CONFIG only (got '$config' and '$a')"
	   config=$a ;;
	esac
done
config=${config:-distro}
case $config in
distro | vm) ;;
*) die "unknown CONFIG '$config' (distro or vm)" ;;
esac
if [ -n "${DEB_BASE_CONFIG:-}" ]; then
	[ "$config" = distro ] || die "DEB_BASE_CONFIG only applies to CONFIG=distro"
	[ -f "$DEB_BASE_CONFIG" ] || die "DEB_BASE_CONFIG=$DEB_BASE_CONFIG: no such file"
fi

need make gcc ccache flex bison bc perl dpkg-buildpackage dpkg-deb dh_testdir rsync
[ -f "$WORK/linux.wbt.stamp" ] || die "the series is not applied in $LINUX (run: make apply)"

out=$LINUX/.build-deb-$config
dest=$WORK/deb/$config
mkdir -p "$out" "$dest"

# The distribution config this machine runs, else Debian's for 6.12.
base_config() {
	local f
	if [ -n "${DEB_BASE_CONFIG:-}" ]; then
		echo "$DEB_BASE_CONFIG"
		return
	fi
	if [ -f "/boot/config-$(uname -r)" ]; then
		echo "/boot/config-$(uname -r)"
		return
	fi
	f=$(find /boot -maxdepth 1 -name 'config-*' 2>/dev/null | sort -V | tail -n1)
	if [ -n "$f" ]; then
		echo "$f"
		return
	fi
	f=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz
	if [ ! -f "$f" ]; then
		# Unpack the package instead of installing it: no root needed.
		local d=$WORK/deb/linux-config
		if [ ! -f "$d/$f" ]; then
			rm -rf "$d" && mkdir -p "$d"
			(cd "$d" && apt-get download -q linux-config-6.12 >&2) ||
				die "cannot download linux-config-6.12 (set DEB_BASE_CONFIG=FILE)"
			dpkg-deb -x "$d"/linux-config-6.12_*.deb "$d"
		fi
		f=$d/$f
	fi
	echo "$f"
}

# check_fragment FRAGMENT [lenient]: every option FRAGMENT sets has that
# value in .config.  Lenient: an option whose dependencies are off (absent
# from .config, such as the revocation keys without a revocation list) is
# fine too.
check_fragment() {
	local line sym bad=0
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)= ]]; then
			grep -qxF -- "$line" "$out/.config" && continue
			[ "${2:-}" = lenient ] && ! grep -qE "^(# )?${BASH_REMATCH[1]}[= ]" "$out/.config" &&
				continue
		elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			sym=${BASH_REMATCH[1]}
			grep -q "^$sym=" "$out/.config" || continue
		else
			continue
		fi
		echo "  wanted: $line; got: $(grep -E "^(# )?${BASH_REMATCH[1]}[= ]" "$out/.config" || echo unset)" >&2
		bad=1
	done <"$1"
	return $bad
}

configure() {
	local frags=() f src sum
	case $config in
	vm)
		frags=("$TOP/configs/vm.config" "$TOP/configs/wbt.config")
		# Unchanged fragments: keep .config as it is, so that kbuild
		# has nothing to redo.
		sum=$(cat "${frags[@]}" | sha256sum | cut -d' ' -f1)
		if [ -f "$out/.config" ] && [ "$(cat "$out/.frag_sum" 2>/dev/null)" = "$sum" ]; then
			"${mk[@]}" -s olddefconfig
		else
			rm -f "$out/.frag_sum"
			(cd "$LINUX" && scripts/kconfig/merge_config.sh -n -O "$out" "${frags[@]}") \
				>"$out/merge_config.log" 2>&1 ||
				{ cat "$out/merge_config.log" >&2; die "merge_config.sh failed"; }
			echo "$sum" >"$out/.frag_sum"
		fi
		;;
	distro)
		src=$(base_config)
		log "base config: $src"
		case $src in
		*.xz) xz -dc "$src" >"$out/base.config" ;;
		*) cp "$src" "$out/base.config" ;;
		esac
		# The KUnit test needs CONFIG_KUNIT, which a distribution
		# kernel does not build in.
		grep -v KUNIT "$TOP/configs/wbt.config" >"$out/wbt-nokunit.config"
		frags=("$out/wbt-nokunit.config" "$TOP/configs/deb.config")
		(cd "$LINUX" && scripts/kconfig/merge_config.sh -m -O "$out" \
			"$out/base.config" "${frags[@]}") >"$out/merge_config.log" 2>&1 ||
			{ cat "$out/merge_config.log" >&2; die "merge_config.sh failed"; }
		"${mk[@]}" -s olddefconfig
		;;
	esac
	for f in "${frags[@]}"; do
		if [ "$f" = "$TOP/configs/deb.config" ]; then
			check_fragment "$f" lenient
		else
			check_fragment "$f"
		fi || die "$out/.config lacks options of $(basename "$f")"
	done
	# The series' Kconfig: 6.12's symbols, now for the series' throttle
	# (the core, CONFIG_WBT, is only in the series), on by default.
	grep -qx CONFIG_BLK_WBT=y "$out/.config" || die "CONFIG_BLK_WBT is not y"
	grep -qx CONFIG_BLK_WBT_MQ=y "$out/.config" || die "CONFIG_BLK_WBT_MQ is not y"
	grep -qx CONFIG_WBT=y "$out/.config" || die "CONFIG_WBT is not y"
	log "config: $(grep -c '=y$' "$out/.config") built in, $(grep -c '=m$' "$out/.config") modules; $out/.config"
}

# The same build identity as build-kernel.sh: ccache hits its objects.
kbuild_env
# Set, even empty, LOCALVERSION keeps setlocalversion from appending "+"
# for an untagged git tree: the release is 6.12.117 + CONFIG_LOCALVERSION.
export LOCALVERSION=
jobs=${JOBS:-$(nproc)}
mk=(kmake "$LINUX" "$out")

step "configure $config" configure
if [ "$only_config" = 1 ]; then
	log "configure only: nothing built"
	exit 0
fi
build_lock

kver=$("${mk[@]}" -s kernelrelease)
# Debian revision "1+wbt.<commit>": uname -v names the series commit.
pkgver=${kver%%-*}-1+wbt.$(git -C "$LINUX" rev-parse --short=8 HEAD)
blog=$dest/build.log
rm -f "$dest"/*.deb "$dest"/*.buildinfo "$dest"/*.changes
# dpkg-buildpackage writes its output next to the build directory.
rm -f "$LINUX"/linux-*.deb "$LINUX"/linux-*.buildinfo "$LINUX"/linux-*.changes

# progress PID: every minute, how many files have been compiled so far.
progress() {
	while kill -0 "$1" 2>/dev/null; do
		sleep 60
		kill -0 "$1" 2>/dev/null || break
		log "bindeb-pkg: $(grep -cE '^  (CC|AS) ' "$blog" || true) files compiled; last: $(tail -n1 "$blog" | cut -c1-70)"
	done
}

package() {
	local pid rc=0
	ccache -z >/dev/null
	"${mk[@]}" KBUILD_VERBOSE=0 KDEB_PKGVERSION="$pkgver" bindeb-pkg >"$blog" 2>&1 &
	pid=$!
	progress "$pid" &
	wait "$pid" || rc=$?
	kill "$!" 2>/dev/null || true
	if [ "$rc" -ne 0 ]; then
		tail -n 30 "$blog" >&2
		log "bindeb-pkg failed; full log: $blog"
		return "$rc"
	fi
	log "ccache: $(ccache -s | grep -iE 'hits|misses' | tr -s ' ' | paste -sd' ')"
}

step "bindeb-pkg $kver, version $pkgver (-j$jobs, log $blog)" package
mv "$LINUX"/linux-*.deb "$LINUX"/linux-*.buildinfo "$LINUX"/linux-*.changes "$dest"/
log "packages of $kver ($config config) in $dest:"
ls -1 "$dest"/*.deb
