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

# Git in the kernel tree, with the project's identity.
kgit() {
	git -C "$LINUX" -c user.name="$(git -C "$TOP" config user.name)" \
		-c user.email="$(git -C "$TOP" config user.email)" "$@"
}

# Serialise kernel builds: the machine has two cores.
build_lock() {
	mkdir -p "$WORK"
	exec 9>"$WORK/.build.lock"
	if ! flock -n 9; then
		log "another kernel build holds $WORK/.build.lock; waiting"
		flock 9
	fi
}
