#!/bin/bash
# make check: every test of the project, in order of cost.  Each test is
# counted once; the last line is "N passed, N failed, N skipped".
#   ONLY=group[,group]  run only these groups: lint harness series build
#                       guest deb stress (default: all)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

res=$WORK/check
rm -rf "$res"
mkdir -p "$res"
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

# A KTAP result line, with the indent of its level: "ok N name # SKIP why".
ktap_re() { printf '^ {%d}(not ok|ok) [0-9]+ ([^#]*)(# *([A-Za-z]+) *(.*))?$' "$1"; }

# ktap_record NAME: record the result that ktap_re just matched.
ktap_record() {
	if [ "${BASH_REMATCH[4]^^}" = SKIP ]; then
		record SKIP "$1" "${BASH_REMATCH[5]:-no reason given}"
	elif [ "${BASH_REMATCH[1]}" = ok ]; then
		record PASS "$1"
	else
		record FAIL "$1"
	fi
}

# ktap PREFIX FILE: count the top-level KTAP results in FILE.
ktap() {
	local prefix=$1 file=$2 line n=0 intap=0 re
	re=$(ktap_re 0)
	while IFS= read -r line; do
		# Results start at the plan's header; KUnit's boot output before
		# it is counted by kunit().
		[[ $line == "TAP version"* ]] && intap=1
		[ $intap = 1 ] || continue
		if [[ $line =~ $re ]]; then
			n=$((n + 1))
			ktap_record "$prefix: ${BASH_REMATCH[2]% }"
		fi
	done < <(sed -e 's/^\[[ 0-9.]*\] //' "$file")
	[ "$n" -gt 0 ] || record FAIL "$prefix: no results in $file"
}

# kunit FILE: count the KUnit cases of every suite in a console log.
kunit() {
	local file=$1 line n=0 insuite=0 suite="" re
	re=$(ktap_re 4)
	while IFS= read -r line; do
		if [[ $line =~ ^\ {4}#\ Subtest:\ (.*)$ ]]; then
			insuite=1 suite=${BASH_REMATCH[1]}
		elif [ $insuite = 1 ] && [[ $line =~ $re ]]; then
			n=$((n + 1))
			ktap_record "kunit $suite: ${BASH_REMATCH[2]% }"
		elif [[ $line =~ ^(not\ ok|ok)\ [0-9]+ ]]; then
			insuite=0
		fi
	done <"$file"
	[ "$n" -gt 0 ] || record FAIL "kunit: no KUnit results in $file"
}

# vmtest NAME LOGNAME VM-ARGS...: one guest run counted as a test; its
# console is kept as work/check/LOGNAME.console.
vmtest() {
	local name=$1 lname=$2 logf=$res/$2.log
	shift 2
	if "$TOP/scripts/vm-run.sh" -q -n "$lname" "$@" >"$logf" 2>&1; then
		record PASS "$name"
	else
		record FAIL "$name"
		tail -n 15 "$logf" | sed 's/^/        | /'
	fi
	cp "$(find "$WORK/logs/vm" -name "*-$lname.log" | sort | tail -n1)" "$res/$lname.console"
}

group() { [ -z "${ONLY:-}" ] || [[ ,$ONLY, == *,$1,* ]]; }
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
		t "harness: $(basename "$f" .sh)" bash "$f"
	done
fi

if group series; then
	banner "series: git am, export round trip, checkpatch, per-patch build"
	t "series: applies to the pinned base with git am" "$TOP/scripts/apply-series.sh"
	t "series: patches/ matches the work tree" "$TOP/scripts/verify-series.sh"
	while read -r p; do
		t "series: checkpatch --strict $p" "$TOP/scripts/checkpatch-series.sh" "$p"
	done <"$TOP/patches/series"
	t "series: every patch builds the objects it touches" \
		"$TOP/scripts/build-series.sh" --touched
	t "series: sparse finds no new warnings in the changed files" \
		"$TOP/scripts/sparse-series.sh"
fi

if group build; then
	banner "build: VM kernel and initramfs"
	t "build: wbt VM kernel" "$TOP/scripts/build-kernel.sh" wbt
	t "build: initramfs" "$TOP/scripts/mkinitramfs.sh"
fi

if group guest; then
	banner "guest: boot the patched kernel and test it"
	disks=(-d virtio -d scsi -d ahci -d ide -d nvme)
	vmtest "guest: boots with every disk type, no kernel warnings" check-smoke \
		-t 600 -a kunit.enable=1 "${disks[@]}" -- /guest/smoke.sh
	ktap "guest smoke" "$res/check-smoke.console"
	if grep -q '^CONFIG_WBT_KUNIT_TEST=y' "$TOP/configs/wbt.config"; then
		kunit "$res/check-smoke.console"
	else
		record SKIP "kunit" "the series has no KUnit suite yet (configs/wbt.config)"
	fi
	if [ -d "$LINUX/tools/testing/selftests/wbt" ]; then
		vmtest "guest: kselftests run to the end, no kernel warnings" check-ksft \
			-t 2400 -m 2048 "${disks[@]}" -o "$res/ksft" -- /tests/guest/kselftests.sh
		for f in "$res"/ksft/*.ktap; do
			[ -f "$f" ] || { record FAIL "kselftests: no results came back"; break; }
			ktap "kselftest $(basename "$f" .ktap)" "$f"
		done
	else
		record SKIP "kselftests" "the series has no tools/testing/selftests/wbt yet"
	fi
	# The observability recipes of Documentation/block/writeback-throttling.rst.
	vmtest "guest: the document's recipes run, no kernel warnings" check-recipes \
		-t 600 -o "$res/recipes" -- /tests/guest/recipes.sh
	if [ -f "$res/recipes/recipes.ktap" ]; then
		ktap "recipe" "$res/recipes/recipes.ktap"
	else
		record FAIL "recipes: no results came back"
	fi
fi

if group deb; then
	banner "deb: the VM-config Debian package, its image, one boot"
	t "deb: the distribution config configures with wbt (DEB_STEP=config)" \
		env DEB_STEP=config "$TOP/scripts/deb.sh" distro
	t "deb: make deb CONFIG=vm builds the packages" "$TOP/scripts/deb.sh" vm
	if [[ $(tail -n1 "$res/results.txt") == PASS* ]]; then
		"$TOP/tests/deb/check-deb.sh" "$WORK/deb/vm" >"$res/deb.ktap" 2>"$res/deb.log" || true
		ktap "deb" "$res/deb.ktap"
	else
		record SKIP "deb: package checks" "no package was built"
	fi
fi

if group stress; then
	banner "stress: short soak on the debug kernel (lockdep, KASAN, ...)"
	t "stress: 2-minute soak on the debug kernel, no kernel reports, data verified" \
		"$TOP/scripts/stress.sh" "${STRESS_SECONDS:-120}"
fi

echo
if [ "$fail" -gt 0 ]; then
	echo "Failed:"
	printf '  %s\n' "${failed[@]}"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
