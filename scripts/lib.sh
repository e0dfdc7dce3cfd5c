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

# tree_series SRC: what a kernel built from the git tree SRC is built
# from, one line: its HEAD; the sha256 of its changes against HEAD, the
# untracked files not ignored included; and for work/linux the sum of
# patches/ that apply-series.sh last applied (its stamp), with the commit
# it was applied at when HEAD has moved on.  Plumbing only, so that the
# user's diff settings do not change the sum.  Nothing when SRC is not a
# git tree of its own or git fails.
tree_series() {
	local src=$1 head diff empty patches='' at
	[ -e "$src/.git" ] || return 0
	head=$(git -C "$src" rev-parse HEAD 2>/dev/null) || return 0
	diff=$( (git -C "$src" diff-index -p --no-ext-diff --binary HEAD -- &&
		git -C "$src" ls-files -z -o --exclude-standard |
		(cd "$src" && xargs -0 -r sha256sum --)) | sha256sum | cut -c1-12) || return 0
	empty=$(sha256sum </dev/null | cut -c1-12)
	[ "$diff" = "$empty" ] && diff=
	if [ "$src" = "$LINUX" ] && [ -f "$WORK/linux.wbt.stamp" ]; then
		read -r patches at <"$WORK/linux.wbt.stamp" || return 0
		patches="patches ${patches:0:12}, "
		[ "$at" = "$head" ] || patches="$patches(applied at ${at:0:12}) "
	fi
	printf '%s%s %s%s\n' "$patches" "${src#"$TOP"/}" "${head:0:12}" \
		"${diff:+ with uncommitted changes $diff}"
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
	local rc=${1:-2} text
	text=$(sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//')
	if [ "$rc" = 0 ]; then
		echo "$text"
	else
		echo "$text" >&2
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

# A printk timestamp at the start of a console line (vm-run.sh boots with
# printk.time=1), as an extended regular expression.
PRINTK_TS_RE='\[ *[0-9]+\.[0-9]+\] '

# console_lines FILE: a saved console log as lines, each either the
# kernel's (starting with a printk timestamp) or user space's.  The kernel
# writes to the console while user space is in the middle of a line, so a
# kernel message can start inside a user line ("1..4[    1.88] tsc: ...")
# and the rest of that user line then follows the message.  Each kernel
# message gets a line of its own, and the two pieces of the user line are
# joined again.  Carriage returns and terminal escape sequences (the
# firmware's screen resets before the kernel's first message) are dropped.
console_lines() {
	LC_ALL=C TS=$PRINTK_TS_RE awk '
	{
		gsub(/\r/, "")
		gsub(/\033(\[[0-9;?]*[A-Za-z]|[A-Za-z])/, "")
		line = $0
		while (match(substr(line, 2), ENVIRON["TS"])) {
			head = substr(line, 1, RSTART)
			if (head ~ "^" ENVIRON["TS"])
				print head
			else
				cut = cut head
			line = substr(line, RSTART + 1)
		}
		if (line ~ "^" ENVIRON["TS"]) {
			print line
		} else {
			print cut line
			cut = ""
		}
	}
	END { if (cut != "") print cut }' "$1"
}

# pack_cpio DIR: DIR as a newc cpio archive on stdout, owned by root.
pack_cpio() {
	(cd "$1" && find . -print0 | sort -z | cpio --null -o -H newc --owner=0:0 --quiet)
}

# kmake SRC OUT ARGS...: make in the kernel tree SRC, output in OUT, with
# ccache for the compiler and the host tools and a job per core (JOBS).
kmake() {
	local src=$1 out=$2
	shift 2
	make -C "$src" O="$out" CC="ccache gcc" HOSTCC="ccache gcc" -j"${JOBS:-$(nproc)}" "$@"
}

# vm_accel IMAGE TMPDIR: choose QEMU's accelerator for booting IMAGE.  Sets
# ACCEL (kvm or tcg) and ACCEL_WHY (one line: why).  WBT_ACCEL=kvm|tcg
# forces one.  Otherwise KVM is used only when /dev/kvm is writable *and*
# a probe boot of IMAGE with a trivial init reached user space under it:
# on some hosts /dev/kvm is there but "-cpu host" aborts (failed to set
# MSR) or the guest hangs before the kernel prints anything.  A KVM
# failure is only blamed on KVM when the same probe passes under TCG.  The
# verdict is cached in work/accel/, keyed by the QEMU version and the host
# CPU, so it is probed once per work tree.
# shellcheck disable=SC2034 # ACCEL and ACCEL_WHY are for the caller
vm_accel() {
	local image=$1 tmp=$2 dev=${WBT_KVM_DEV:-/dev/kvm} key cache verdict
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
	need qemu-system-x86_64 flock busybox file
	file -L "$(command -v busybox)" | grep -q 'statically linked' ||
		die "busybox is not static (install busybox-static): the KVM probe needs it"
	key=$( (qemu-system-x86_64 --version | head -n1
		grep -m1 '^model name' /proc/cpuinfo || uname -m) | sha256sum | cut -c1-16)
	cache=$WORK/accel/kvm-$key
	mkdir -p "$WORK/accel"
	# One probe at a time; a run that waited reads the verdict it wrote.
	exec 8>"$WORK/accel/.lock"
	flock 8
	if [ ! -s "$cache" ]; then
		log "KVM probe: booting $image under KVM with a trivial init (once per work tree)"
		verdict=$(kvm_probe "$image" "$tmp" kvm)
		if [ "${verdict%%$'\n'*}" != ok ] &&
			[ "$(kvm_probe "$image" "$tmp" tcg | head -n1)" != ok ]; then
			# Not KVM's fault: the kernel does not boot at all.
			exec 8>&-
			ACCEL=tcg ACCEL_WHY="KVM probe inconclusive: ${verdict#*$'\n'}, but the kernel does not reach user space under TCG either (not cached)"
			return 0
		fi
		printf '%s\n' "$verdict" >"$cache.$$"
		mv "$cache.$$" "$cache"
	fi
	exec 8>&-
	if [ "$(head -n1 "$cache")" = ok ]; then
		ACCEL=kvm ACCEL_WHY="KVM probe passed ($(tail -n1 "$cache"))"
	else
		ACCEL=tcg ACCEL_WHY="KVM probe failed: $(tail -n1 "$cache") (cached in $cache)"
	fi
}

# kvm_probe IMAGE TMPDIR kvm|tcg: boot IMAGE with an init that only prints a
# marker; print "ok" or "fail", then one line of detail.
kvm_probe() {
	local image=$1 dir=$2/probe accel=$3 out rc t0 secs why cpu=host
	[ "$accel" = kvm ] || cpu=max
	rm -rf "$dir"
	mkdir -p "$dir/root/bin"
	cp "$(command -v busybox)" "$dir/root/bin/busybox"
	printf '%s\n' '#!/bin/busybox sh' '/bin/busybox echo WBT-KVM-PROBE: user space' \
		'/bin/busybox poweroff -f' >"$dir/root/init"
	chmod +x "$dir/root/init"
	pack_cpio "$dir/root" >"$dir/probe.cpio"
	t0=$(date +%s)
	set +e
	out=$(timeout --foreground -k 5 "${WBT_KVM_PROBE_SECS:-30}" qemu-system-x86_64 -M pc \
		-m 256 -smp 2 -nographic -no-reboot -monitor none -serial stdio -nic none \
		-accel "$accel" -cpu "$cpu" -kernel "$image" -initrd "$dir/probe.cpio" \
		-append 'console=ttyS0 rdinit=/init panic=-1 quiet' </dev/null 2>&1)
	rc=$?
	set -e
	secs=$(($(date +%s) - t0))
	rm -rf "$dir"
	if grep -q 'WBT-KVM-PROBE: user space' <<<"$out"; then
		printf 'ok\nuser space reached in %ss\n' "$secs"
		return 0
	fi
	why=$(tr -d '\r' <<<"$out" | grep -v '^[[:space:]]*$' | grep -iE 'error|fail|abort|kvm|panic' |
		head -n1 | cut -c1-160 || true)
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		why="no user space after ${secs}s${why:+: $why}"
	else
		why="qemu exit $rc${why:+: $why}"
	fi
	printf 'fail\n%s\n' "$why"
}

# console_splats FILE: the kernel reports in a saved console log that fail
# a run (BUG, WARNING, Oops, panic, lockdep, KASAN, SLUB, hung task, soft
# lockup, RCU stall), at most five.  Only the kernel's own messages count
# (they carry a printk timestamp), so user-space output that mentions BUG
# or WARNING does not, and one that starts in the middle of a user line
# does (console_lines).
console_splats() {
	console_lines "$1" | sed -n -E "s/^$PRINTK_TS_RE//p" |
		grep -E '^(BUG:|BUG [A-Za-z0-9_.:-]+ \(|WARNING:|Oops|Kernel panic|INFO: task .* blocked for more than|watchdog: BUG: soft lockup|(rcu: )?INFO: rcu_[a-z_]+ (self-)?detected (stall|stalls)|rcu: INFO: .*stall|={60,}$)' |
		head -n5 || true
}

# export_series OUTDIR: write the series of work/linux (base..wbt) to
# OUTDIR: one git format-patch file per commit, the series file and the
# cover letter, whose subject and blurb come from patches/cover.txt (first
# line: subject; the rest: body).  Runs in a subshell: its temporary
# directory goes with it.
export_series() (
	local out=$1 tmp n cover subject date p
	[ -d "$LINUX/.git" ] || die "no kernel work tree at $LINUX (run: make apply)"
	kgit rev-parse -q --verify "refs/heads/$SERIES_BRANCH" >/dev/null ||
		die "branch $SERIES_BRANCH missing in $LINUX"
	[ -z "$(kgit status --porcelain --untracked-files=no)" ] ||
		die "$LINUX has uncommitted changes; commit them first"
	n=$(kgit rev-list --count "$BASE_BRANCH..$SERIES_BRANCH")
	[ "$n" -gt 0 ] || die "no commits on $SERIES_BRANCH"

	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	kgit format-patch -q --zero-commit --no-signature --numbered --cover-letter \
		--cover-from-description=none -o "$tmp" "$BASE_BRANCH..$SERIES_BRANCH"

	cover=$TOP/patches/cover.txt
	[ -f "$cover" ] || die "$cover missing"
	subject=$(head -n1 "$cover")
	# The cover letter takes the last patch's date: exports are reproducible.
	date=$(kgit log -1 --format=%aD "$SERIES_BRANCH")
	python3 - "$tmp"/0000-cover-letter.patch "$cover" "$subject" "$date" <<'PY'
import re, sys
path, cover, subject, date = sys.argv[1:]
body = open(cover).read().split('\n', 1)[1].lstrip('\n')
s = open(path).read()
s = s.replace('*** SUBJECT HERE ***', subject).replace('*** BLURB HERE ***', body.rstrip('\n'))
s = re.sub(r'^Date: .*$', 'Date: ' + date, s, count=1, flags=re.M)
open(path, 'w').write(s)
PY

	mkdir -p "$out"
	rm -f "$out"/[0-9][0-9][0-9][0-9]-*.patch
	cp "$tmp"/*.patch "$out"/
	for p in "$out"/[0-9][0-9][0-9][0-9]-*.patch; do
		p=${p##*/}
		[ "${p#0000-}" = "$p" ] && echo "$p"
	done >"$out/series"
	log "exported $n patches to $out"
)

# series_matches: do patches/ and work/linux (branch wbt) hold the same
# series?  Prints the first differences on stderr when they do not.
series_matches() (
	local tmp
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	export_series "$tmp/out" 2>/dev/null || return 1
	if ! diff -r -x cover.txt -x checkpatch.ignore -x upstream.series \
		"$TOP/patches" "$tmp/out" >"$tmp/diff"; then
		head -40 "$tmp/diff" >&2
		return 1
	fi
)
