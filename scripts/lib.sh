# shellcheck shell=bash
# Common helpers for the wbt harness scripts.  Source, do not run.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${WBT_WORK:-$TOP/work}
LINUX=$WORK/linux          # kernel git work tree: base commit + the series
BASE_BRANCH=base           # branch holding the pristine pinned base
SERIES_BRANCH=wbt          # branch the series is applied on
export TOP WORK LINUX BASE_BRANCH SERIES_BRANCH

_t0=$(date +%s)

log() { printf '[%s +%4ss] %s\n' "$(date +%H:%M:%S)" "$(($(date +%s) - _t0))" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# step NAME CMD...: run CMD, print how long it took.
step() {
	local name=$1 s rc
	shift
	s=$(date +%s)
	log "$name ..."
	"$@"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		log "$name: done in $(($(date +%s) - s))s"
	else
		log "$name: FAILED ($rc) after $(($(date +%s) - s))s"
	fi
	return "$rc"
}

need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 ||
			die "missing tool '$t' (run: make deps)"
	done
}

# Read the pin file into PIN_* variables.
load_pin() {
	local k v
	while IFS='=' read -r k v; do
		case $k in
		'' | \#*) continue ;;
		PKG | VERSION | TARBALL | SHA256) printf -v "PIN_$k" '%s' "$v" ;;
		*) die "base.pin: unknown key '$k'" ;;
		esac
	done <"$TOP/base.pin"
	if [ -z "${PIN_PKG:-}" ] || [ -z "${PIN_VERSION:-}" ] ||
		[ -z "${PIN_TARBALL:-}" ] || [ -z "${PIN_SHA256:-}" ]; then
		die "base.pin: PKG, VERSION, TARBALL and SHA256 are required"
	fi
}

# kgit_in TREE ARGS...: git in a kernel tree, with the project's identity.
kgit_in() {
	local tree=$1
	shift
	git -C "$tree" -c user.name="$(git -C "$TOP" config user.name)" \
		-c user.email="$(git -C "$TOP" config user.email)" "$@"
}

# kgit ARGS...: git in the series' tree, work/linux.
kgit() { kgit_in "$LINUX" "$@"; }

# Serialise kernel builds: the machine has two cores.
build_lock() {
	mkdir -p "$WORK"
	exec 9>"$WORK/.build.lock"
	if ! flock -n 9; then
		log "another kernel build holds $WORK/.build.lock; waiting"
		flock 9
	fi
}

# usage_from_header [STATUS]: print the comment block at the top of the
# calling script (after the shebang, up to "set -euo") and exit with
# STATUS [2]; on stdout for -h (STATUS 0), on stderr otherwise.
usage_from_header() {
	local rc=${1:-2}
	if [ "$rc" = 0 ]; then
		sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
	else
		sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2
	fi
	exit "$rc"
}

# kbuild_env: the environment every kernel build of the harness uses.
# The build output lies inside each source tree and CCACHE_BASEDIR is
# work/, so compiler command lines match across trees and ccache hits; a
# fixed timestamp keeps init/version.c cacheable.
kbuild_env() {
	export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/wbt-ccache}
	export CCACHE_BASEDIR=$WORK
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
	export KBUILD_BUILD_TIMESTAMP="2024-11-17 00:00:00"
	export KBUILD_BUILD_USER=wbt KBUILD_BUILD_HOST=wbt
}

# vm_accel IMAGE: choose QEMU's accelerator for booting IMAGE.  Sets ACCEL
# (kvm or tcg) and ACCEL_WHY (one line: why).  WBT_ACCEL=kvm|tcg forces
# one.  Otherwise KVM is used only when /dev/kvm is writable *and* a probe
# boot of IMAGE with a trivial init reached user space under it: on some
# hosts /dev/kvm is there but "-cpu host" aborts (failed to set MSR) or
# the guest hangs before the kernel prints anything.  The probe's verdict
# is cached in work/accel/, keyed by the QEMU version and the host CPU.
# shellcheck disable=SC2034 # ACCEL and ACCEL_WHY are for the caller
vm_accel() {
	local image=$1 dev=${WBT_KVM_DEV:-/dev/kvm} key cache
	case ${WBT_ACCEL:-} in
	kvm | tcg)
		ACCEL=$WBT_ACCEL ACCEL_WHY="forced by WBT_ACCEL=$WBT_ACCEL"
		return 0
		;;
	'') ;;
	*) die "WBT_ACCEL must be kvm or tcg (got '$WBT_ACCEL')" ;;
	esac
	if [ ! -w "$dev" ]; then
		ACCEL=tcg ACCEL_WHY="$dev is missing or not writable"
		return 0
	fi
	need qemu-system-x86_64
	key=$( (qemu-system-x86_64 --version | head -n1
		grep -m1 '^model name' /proc/cpuinfo || uname -m) | sha256sum | cut -c1-16)
	cache=$WORK/accel/kvm-$key
	if [ ! -s "$cache" ]; then
		mkdir -p "$WORK/accel"
		log "KVM probe: booting $image under KVM with a trivial init (once per machine)"
		kvm_probe "$image" >"$cache.tmp"
		mv "$cache.tmp" "$cache"
	fi
	if [ "$(head -c2 "$cache")" = ok ]; then
		ACCEL=kvm ACCEL_WHY="KVM probe passed ($(tail -n1 "$cache"))"
	else
		ACCEL=tcg ACCEL_WHY="KVM probe failed: $(tail -n1 "$cache") (cached in $cache)"
	fi
}

# kvm_probe IMAGE: boot IMAGE under KVM with an init that only prints a
# marker; print "ok" or "fail", then one line of detail.
kvm_probe() {
	local image=$1 tmp out rc t0 secs why
	need busybox cpio timeout
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/wbt-kvm-probe.XXXXXX")
	mkdir -p "$tmp/root/bin"
	cp "$(command -v busybox)" "$tmp/root/bin/busybox"
	printf '%s\n' '#!/bin/busybox sh' '/bin/busybox echo WBT-KVM-PROBE: user space' \
		'/bin/busybox poweroff -f' >"$tmp/root/init"
	chmod +x "$tmp/root/init"
	(cd "$tmp/root" && find . | cpio -o -H newc --owner=0:0 --quiet) >"$tmp/probe.cpio"
	t0=$(date +%s)
	set +e
	out=$(timeout -k 5 "${WBT_KVM_PROBE_SECS:-30}" qemu-system-x86_64 -M pc -m 256 \
		-smp 1 -nographic -no-reboot -monitor none -serial stdio -nic none \
		-accel kvm -cpu host -kernel "$image" -initrd "$tmp/probe.cpio" \
		-append 'console=ttyS0 rdinit=/init panic=-1 quiet' </dev/null 2>&1)
	rc=$?
	set -e
	secs=$(($(date +%s) - t0))
	rm -rf "$tmp"
	if grep -q 'WBT-KVM-PROBE: user space' <<<"$out"; then
		printf 'ok\nuser space reached in %ss\n' "$secs"
		return 0
	fi
	why=$(tr -d '\r' <<<"$out" | grep -v '^[[:space:]]*$' | grep -iE 'error|fail|abort|kvm' |
		head -n1 | cut -c1-160 || true)
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		why="no user space after ${secs}s${why:+: $why}"
	else
		why="qemu exit $rc${why:+: $why}"
	fi
	printf 'fail\n%s\n' "$why"
}

# console_splats FILE: the kernel reports in a saved console log that fail
# a run (BUG, WARNING, Oops, panic, lockdep, KASAN, hung task, soft lockup,
# RCU stall), at most five, as "LINE:TEXT".  A kernel message can start in
# the middle of a line when user space printed text without a newline, so
# the log is first split before every printk timestamp (vm-run.sh boots
# with printk.time=1).
console_splats() {
	sed -E 's/(.)(\[ *[0-9]+\.[0-9]+\] )/\1\n\2/g' "$1" |
		sed -E 's/^\[ *[0-9]+\.[0-9]+\] //' |
		grep -n -E '^(BUG:|WARNING:|Oops|Kernel panic|INFO: task .* blocked for more than|watchdog: BUG: soft lockup|(rcu: )?INFO: rcu_[a-z]+ (self-)?detected (stall|stalls)|rcu: INFO: .*stall|={66}$)' |
		head -n5 || true
}
