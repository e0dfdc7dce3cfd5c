#!/bin/bash
# make check: every test of the project, in order of cost.  Each test is
# counted once; the last line is "N passed, N failed, N skipped".
#   ONLY=group[,group]  run only these groups: lint harness series build
#                       guest bisect deb stress (default: all); commas or
#                       spaces separate them
#   --list              print the groups that would run, and exit
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pass=0 fail=0 skip=0
failed=()

record() { # record STATUS NAME [REASON]
	case $1 in
	PASS) pass=$((pass + 1)) ; printf '  PASS  %s\n' "$2" ;;
	FAIL) fail=$((fail + 1)) failed+=("$2") ; printf '  FAIL  %s\n' "$2" ;;
	SKIP) skip=$((skip + 1)) ; printf '  SKIP  %s (%s)\n' "$2" "$3" ;;
	esac
	printf '%s %s %s\n' "$1" "$2" "${3:-}" >>"$res/results.txt"
}

# t NAME CMD...: one test; output goes to work/check/NAME.log.
t() {
	local name=$1 logf
	shift
	logf=$res/$(echo "$name" | tr -c 'A-Za-z0-9._\n-' '_').log
	if "$@" >"$logf" 2>&1; then
		record PASS "$name"
	else
		record FAIL "$name"
		tail -n 15 "$logf" | sed 's/^/        | /'
	fi
}

# shellcheck source=scripts/ktap.sh
. "$TOP/scripts/ktap.sh"

# stage NAME TARGET...: a pipeline stage, made by the Makefile (the one
# dependency graph), counted as a test.
stage() {
	local name=$1
	shift
	t "$name" make -C "$TOP" --no-print-directory "$@"
}

# vmtest NAME LOGNAME VM-ARGS...: one guest run counted as a test; its
# console is work/check/LOGNAME.console, written by this run only.
vmtest() {
	local name=$1 con=$res/$2.console logf=$res/$2.log
	shift 2
	rm -f "$con"
	if "$TOP/scripts/vm-run.sh" -q -l "$con" "$@" >"$logf" 2>&1; then
		record PASS "$name"
	else
		record FAIL "$name"
		tail -n 15 "$logf" | sed 's/^/        | /'
	fi
}

groups="lint harness series build guest bisect deb stress"
# Groups are separated by commas or white space.
read -r -d '' -a sel < <(printf '%s\0' "${ONLY:-}" | tr ', \t\n' '    ') || true
for g in "${sel[@]}"; do
	[[ " $groups " == *" $g "* ]] || die "ONLY: unknown group '$g' (groups: $groups)"
done
[ -z "${ONLY:-}" ] || [ "${#sel[@]}" -gt 0 ] || die "ONLY='$ONLY' names no group (groups: $groups)"
only=$(IFS=,; echo "${sel[*]}")
group() { [ -z "$only" ] || [[ ,$only, == *,$1,* ]]; }
case ${1:-} in
--list)
	for g in $groups; do group "$g" && echo "$g"; done
	exit 0
	;;
'') ;;
*) die "usage: $0 [--list]" ;;
esac
res=$WORK/check
rm -rf "$res"
mkdir -p "$res"
banner() { log "== $* =="; }

if group lint; then
	banner "lint: shellcheck, flake8"
	mapfile -t sh < <(find "$TOP/scripts" "$TOP/guest" "$TOP/tests" "$TOP/bench" \
		-name '*.sh' 2>/dev/null; echo "$TOP/guest/init"; echo "$TOP/.ci/run")
	t "lint: shellcheck scripts, guest and tests" shellcheck -x -e SC1091 "${sh[@]}"
	py=$(find "$TOP/scripts" "$TOP/bench" "$TOP/tests" -name '*.py' 2>/dev/null)
	if [ -n "$py" ]; then
		# shellcheck disable=SC2086
		t "lint: flake8" /usr/bin/python3 -m flake8 --max-line-length=100 $py
	else
		record SKIP "lint: flake8" "no Python files"
	fi
fi

if group harness; then
	banner "harness: bad input is refused"
	for f in "$TOP"/tests/harness/*.sh; do
		[ "$(basename "$f")" != lib.sh ] || continue
		t "harness: $(basename "$f" .sh)" bash "$f"
	done
fi

if group series; then
	banner "series: git am, export round trip, checkpatch, per-patch build"
	stage "series: applies to the pinned base with git am" apply
	t "series: patches/ matches the work tree" "$TOP/scripts/verify-series.sh"
	t "series: make olddefconfig keeps CONFIG_BLK_WBT and CONFIG_BLK_WBT_MQ as set" \
		bash "$TOP/tests/series/kconfig.sh"
	while read -r p; do
		t "series: checkpatch --strict $p" "$TOP/scripts/checkpatch-series.sh" "$p"
	done <"$TOP/patches/series"
	stage "series: every patch builds the objects it touches" series-touched
	stage "series: sparse finds no new warnings in the changed files" sparse
fi

if group build; then
	banner "build: VM kernel and initramfs"
	stage "build: wbt VM kernel" build
	stage "build: initramfs" initramfs
fi

if group guest; then
	banner "guest: boot the patched kernel and test it"
	group build || stage "guest: the kernel and the initramfs are built" build initramfs
	types=(virtio scsi ahci ide nvme)
	disks=()
	for d in "${types[@]}"; do disks+=(-d "$d"); done
	vmtest "guest: boots with every disk type, no kernel warnings" check-smoke \
		-t 600 -a kunit.enable=1 "${disks[@]}" -- /guest/smoke.sh "${types[@]}"
	ktap "guest smoke" "$res/check-smoke.console"
	kunit_suites "$LINUX" "$res/check-smoke.console"
	# Every test of the series' kselftest Makefile runs and comes back.
	# shellcheck disable=SC2016 # $(TEST_PROGS) is make's
	mapfile -t ksft < <(make -s -C "$LINUX/tools/testing/selftests/wbt" -f Makefile -f - \
		print-progs <<<'print-progs: ; @printf "%s\n" $(TEST_PROGS)' 2>/dev/null)
	[ ${#ksft[@]} -gt 0 ] || record FAIL "kselftests: no TEST_PROGS in the wbt kselftest Makefile"
	vmtest "guest: kselftests run to the end, no kernel warnings" check-ksft \
		-t 2400 -m 2048 "${disks[@]}" -o "$res/ksft" -- /tests/guest/kselftests.sh "${ksft[@]}"
	for f in "${ksft[@]}"; do
		ktap -x "kselftest $f" "$res/ksft/$f.ktap"
	done
	# The trace events' format files are 6.12's (make trace-formats).
	t "guest: the wbt trace event formats are 6.12's, but for tests/trace-formats/allow" \
		"$TOP/scripts/trace-formats.sh" --check
	# The observability recipes of Documentation/block/writeback-throttling.rst.
	vmtest "guest: the document's recipes run, no kernel warnings" check-recipes \
		-t 600 -o "$res/recipes" -- /tests/guest/recipes.sh
	ktap "recipe" "$res/recipes/recipes.ktap"
	# The same command lines on unpatched 6.12: the trace consumers see
	# the same events and fields on both kernels.
	stage "guest: the unpatched 6.12 kernel is built" build-upstream
	vmtest "guest: the document's recipes run on unpatched 6.12, no kernel warnings" \
		check-recipes-upstream -k upstream -t 600 -o "$res/recipes-upstream" \
		-- /tests/guest/recipes.sh
	ktap "recipe on 6.12" "$res/recipes-upstream/recipes.ktap"
	# Built with CONFIG_BLK_WBT_MQ=n, as some distributions do: the same
	# script on both kernels checks wbt_lat_usec against 6.12's behaviour.
	stage "guest: both kernels build with CONFIG_BLK_WBT_MQ=n" build-mqoff
	vmtest "guest: CONFIG_BLK_WBT_MQ=n on the series, no kernel warnings" check-mqoff \
		-k mqoff -t 600 -- /tests/guest/mqoff.sh
	ktap "BLK_WBT_MQ=n" "$res/check-mqoff.console"
	vmtest "guest: CONFIG_BLK_WBT_MQ=n on unpatched 6.12, no kernel warnings" \
		check-mqoff-upstream -k upstream-mqoff -t 600 -- /tests/guest/mqoff.sh
	ktap "BLK_WBT_MQ=n on 6.12" "$res/check-mqoff-upstream.console"
fi

if group bisect; then
	banner "bisect: a kernel at every patch builds, boots and throttles"
	group build || group guest || stage "bisect: the initramfs is built" initramfs
	# A failing patch does not stop the others: each one's console is
	# counted, and a patch that did not build or boot has none.
	stage "bisect: a kernel builds and boots at every patch" check-series
	n=0
	while read -r p; do
		n=$((n + 1))
		nn=$(printf %02d "$n")
		ktap "bisect: patch $nn (${p%.patch})" "$WORK/check-series/$nn.console"
	done <"$TOP/patches/series"
fi

if group deb; then
	banner "deb: the VM-config Debian package, its image, one boot"
	group build || group guest || stage "deb: the initramfs is built" initramfs
	stage "deb: the distribution config configures with wbt (DEB_STEP=config)" \
		deb DEB_STEP=config CONFIG=distro
	stage "deb: make deb CONFIG=vm builds the packages" deb CONFIG=vm
	if [[ $(tail -n1 "$res/results.txt") == PASS* ]]; then
		"$TOP/tests/deb/check-deb.sh" "$WORK/deb/vm" >"$res/deb.ktap" 2>"$res/deb.log" || true
		ktap "deb" "$res/deb.ktap"
	else
		record SKIP "deb: package checks" "no package was built"
	fi
fi

if group stress; then
	banner "stress: short soak on the debug kernel (lockdep, KASAN, ...)"
	stage "stress: 2-minute soak on the debug kernel, no kernel reports, data verified" \
		stress DURATION="${STRESS_SECONDS:-120}"
fi

echo
if [ "$fail" -gt 0 ]; then
	echo "Failed:"
	printf '  %s\n' "${failed[@]}"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
