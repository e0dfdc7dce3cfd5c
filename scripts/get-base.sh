#!/bin/bash
# Install the pinned linux-source-6.12, check it and import it into the
# kernel git work tree (work/linux, branch "base").  Runs once; later calls
# only verify the cached tree.  Stage work/base.stamp of the Makefile.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
load_pin

# The stamp's first line is what the pin asked for: the tree is imported
# again only when the pin's package or version changes, not when base.pin
# is merely touched or its comments edited.
stamp=$WORK/base.stamp
if [ -f "$stamp" ] && [ "$(head -n1 "$stamp")" = "$PIN_PKG $PIN_VERSION" ] &&
	[ -d "$LINUX/.git" ] && kgit rev-parse -q --verify "refs/heads/$BASE_BRANCH" >/dev/null; then
	log "base: cached $(tail -n1 "$stamp") in $LINUX"
	exit 0
fi
pinned="$PIN_PKG $PIN_VERSION"
if [ "${FORCE:-0}" != 1 ] && [ -d "$LINUX/.git" ] &&
	kgit rev-parse -q --verify "refs/heads/$SERIES_BRANCH" >/dev/null &&
	! series_matches 2>/dev/null; then
	die "importing the base again would discard commits of $LINUX that are not in patches/ (run: make export, or FORCE=1 make base)"
fi

installed=$(dpkg-query -W -f='${Status} ${Version}' "$PIN_PKG" 2>/dev/null || true)
if [ "$installed" != "install ok installed $PIN_VERSION" ]; then
	sudo=""
	[ "$(id -u)" = 0 ] || sudo=sudo
	if apt-cache madison "$PIN_PKG" 2>/dev/null | awk '{print $3}' |
		grep -qxF "$PIN_VERSION"; then
		step "apt-get install $PIN_PKG=$PIN_VERSION" \
			$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--allow-downgrades "$PIN_PKG=$PIN_VERSION" >/dev/null
	else
		cat >&2 <<EOF
************************************************************************
WARNING: the pinned base $PIN_PKG=$PIN_VERSION is no longer offered by
the package archive.  Falling back to the newest version that is.  The
series is still checked to apply with git am.  To re-pin, put the new
VERSION and SHA256 (sha256sum $PIN_TARBALL) into base.pin and commit.
************************************************************************
EOF
		step "apt-get install $PIN_PKG (newest)" \
			$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			"$PIN_PKG" >/dev/null
		PIN_VERSION=$(dpkg-query -W -f='${Version}' "$PIN_PKG")
		PIN_SHA256=$(sha256sum "$PIN_TARBALL" | cut -d' ' -f1)
		log "base: using UNPINNED $PIN_VERSION (sha256 $PIN_SHA256)"
	fi
fi

[ -f "$PIN_TARBALL" ] || die "$PIN_TARBALL not found after installing $PIN_PKG"
sum=$(sha256sum "$PIN_TARBALL" | cut -d' ' -f1)
[ "$sum" = "$PIN_SHA256" ] ||
	die "$PIN_TARBALL: sha256 $sum does not match base.pin ($PIN_SHA256)"

rm -rf "$LINUX" "$WORK/linux.tmp"
mkdir -p "$WORK/linux.tmp"
step "unpack $PIN_TARBALL" \
	tar -C "$WORK/linux.tmp" --strip-components=1 -xJf "$PIN_TARBALL"
mv "$WORK/linux.tmp" "$LINUX"

import() {
	kgit init -q -b "$BASE_BRANCH"
	kgit config core.autocrlf false
	kgit config gc.auto 0
	kgit add -A -f .
	kgit commit -q -m "Linux $PIN_PKG $PIN_VERSION (Debian)" \
		-m "Imported from $PIN_TARBALL, sha256 $PIN_SHA256."
	kgit tag -f "base-${PIN_VERSION//\~/_}" >/dev/null
}
step "import base into git" import
printf '%s\n%s\n' "$pinned" "$PIN_PKG $PIN_VERSION" >"$stamp"
