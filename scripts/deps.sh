#!/bin/bash
# Install the Debian packages the harness needs (only the missing ones).
# Stage work/deps.stamp of the Makefile: the stamp holds the package list
# and is rewritten only when the list changes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkgs=(build-essential bc bison flex libelf-dev libssl-dev dwarves cpio kmod
	rsync sparse python3 python3-flake8 python3-matplotlib python3-ply python3-git shellcheck ccache xz-utils file
	qemu-system-x86 busybox-static fio blktrace e2fsprogs xfsprogs dbench util-linux
	git perl trace-cmd linux-perf dpkg-dev debhelper dmsetup mdadm cryptsetup-bin)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
stamp() {
	mkdir -p "$WORK"
	printf '%s\n' "${pkgs[@]}" >"$WORK/deps.stamp.$$"
	if cmp -s "$WORK/deps.stamp.$$" "$WORK/deps.stamp"; then
		rm -f "$WORK/deps.stamp.$$"
	else
		mv "$WORK/deps.stamp.$$" "$WORK/deps.stamp"
	fi
}
if [ ${#missing[@]} -eq 0 ]; then
	log "deps: all ${#pkgs[@]} packages present"
	stamp
	exit 0
fi
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
command -v apt-get >/dev/null || die "apt-get not found: install ${missing[*]} by hand"
step "apt-get update" $sudo apt-get update -q >/dev/null
step "apt-get install ${missing[*]}" $sudo env DEBIAN_FRONTEND=noninteractive \
	apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
stamp
