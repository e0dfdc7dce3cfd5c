# shellcheck shell=bash
# KTAP streams read as test results, every result counted against its plan.
# Sourced by scripts/check.sh, scripts/stress.sh and the harness tests,
# after scripts/lib.sh; the caller defines record STATUS NAME [REASON]
# (STATUS: PASS, FAIL, SKIP).

# ktap_re INDENT: a result line at INDENT spaces, "ok N name # SKIP why".
ktap_re() { printf '^ {%d}(not ok|ok) ([0-9]+)( ([^#]*))?(# *([A-Za-z]+) *(.*))?$' "$1"; }

# stream_lines FILE: the lines of a KTAP stream.  A console (*.console,
# written by vm-run.sh) shares its lines with the kernel's messages and is
# read through console_lines; a stream the guest sent back as a file holds
# only the test's output, and loses only its carriage returns.
stream_lines() {
	if [[ $1 == *.console ]]; then
		console_lines "$1"
	else
		tr -d '\r' <"$1"
	fi
}

# kernel_lines FILE: the kernel's messages in a console log (the lines
# with a printk timestamp, PRINTK_TS_RE of lib.sh), without the timestamp.
kernel_lines() { console_lines "$1" | sed -n -E "s/^$PRINTK_TS_RE//p"; }

# ktap [-x] PREFIX FILE: record the top-level results of the KTAP stream in
# FILE as "PREFIX: name".  The kernel's own messages in a console (lines
# with a printk timestamp, such as KUnit's KTAP) are not part of it.  A
# plan of N with fewer than N results, a bail out, a stream without plan
# or results, and (with -x, for the streams of tests/guest/kselftests.sh)
# a missing "# exit status" line, or a non-zero one that no failed result
# or bail out explains, each add a FAIL that says what is missing.
ktap() {
	local want_exit=0
	if [ "$1" = -x ]; then
		want_exit=1
		shift
	fi
	local prefix=$1 file=$2 line re intap=0 plan="" n=0 nfail=0 last="none"
	local exitst="" skipall="" note="" bail="" name reason badnum=""
	re=$(ktap_re 0)
	if [ ! -s "$file" ]; then
		record FAIL "$prefix: no output ($file is missing or empty)"
		return 0
	fi
	while IFS= read -r line || [ -n "$line" ]; do
		[[ $line =~ ^$PRINTK_TS_RE ]] && continue
		# Results start at the header; a console's boot output before
		# it is not part of the stream.
		if [[ $line == "TAP version"* || $line == "KTAP version"* ]]; then
			intap=1
			continue
		fi
		[ $intap = 1 ] || continue
		if [[ $line =~ ^1\.\.([0-9]+)( *# *[Ss][Kk][Ii][Pp] *(.*))?$ ]]; then
			plan=${BASH_REMATCH[1]}
			if [ "$plan" = 0 ] && [ -n "${BASH_REMATCH[2]}" ]; then
				skipall=${BASH_REMATCH[3]:-no reason given}
			fi
		elif [[ $line =~ $re ]]; then
			n=$((n + 1))
			[ "${BASH_REMATCH[2]}" = "$n" ] || badnum+=" ${BASH_REMATCH[2]}@$n"
			name=${BASH_REMATCH[4]% }
			last="$n ($name)"
			if [ "${BASH_REMATCH[6]^^}" = SKIP ]; then
				# ktap_helpers.sh's ktap_test_skip gives no reason: the
				# diagnostic line before the result has it.
				reason=${BASH_REMATCH[7]:-$note}
				record SKIP "$prefix: $name" "${reason:-no reason given}"
			elif [ "${BASH_REMATCH[1]}" = ok ]; then
				record PASS "$prefix: $name"
			else
				nfail=$((nfail + 1))
				record FAIL "$prefix: $name"
			fi
			note=""
		elif [[ $line =~ ^#\ exit\ status\ ([0-9]+)$ ]]; then
			exitst=${BASH_REMATCH[1]}
		elif [[ $line =~ ^Bail\ out!\ *(.*)$ ]]; then
			bail=${BASH_REMATCH[1]:-no reason given}
		elif [[ $line =~ ^#\ (.*)$ ]]; then
			note=${BASH_REMATCH[1]}
		fi
	done < <(stream_lines "$file")

	if [ $intap = 0 ]; then
		record FAIL "$prefix: no KTAP stream in $file"
	elif [ -n "$skipall" ] && [ "$n" = 0 ]; then
		record SKIP "$prefix" "$skipall"
	elif [ -n "$skipall" ]; then
		record FAIL "$prefix: $n result(s) after a plan that skips everything"
	elif [ "$plan" = 0 ]; then
		record FAIL "$prefix: a plan of 0 results without # SKIP"
	elif [ -z "$plan" ]; then
		record FAIL "$prefix: no plan line (1..N); $n result(s)"
	elif [ "$n" -lt "$plan" ]; then
		record FAIL "$prefix: results $((n + 1))-$plan of $plan missing (last result: $last)"
	elif [ "$n" -gt "$plan" ]; then
		record FAIL "$prefix: $n results, but the plan is $plan"
	fi
	[ -z "$badnum" ] || record FAIL "$prefix: results numbered out of sequence (number@position:$badnum)"
	[ -z "$bail" ] || record FAIL "$prefix: bailed out: $bail"
	[ $want_exit = 1 ] || return 0
	if [ -z "$exitst" ]; then
		record FAIL "$prefix: no exit status (the run was cut off)"
	elif [ "$exitst" = 4 ] && [ -n "$skipall" ]; then
		:
	elif [ "$exitst" != 0 ] && ! { [ "$exitst" = 1 ] && [ "$nfail" -gt 0 ] || [ -n "$bail" ]; }; then
		record FAIL "$prefix: exit status $exitst"
	fi
}

# kunit_cases SOURCE [ARRAY]: the case names of a KUnit suite's source
# file, in order; only those of the struct kunit_case ARRAY[] when the file
# holds several suites.
kunit_cases() {
	local pat='^[[:space:]]*KUNIT_CASE[A-Z_]*\(([A-Za-z0-9_]+).*'
	if [ -n "${2:-}" ]; then
		sed -n -E "/struct kunit_case $2\[\]/,/^};/s/$pat/\1/p" "$1"
	else
		sed -n -E "s/$pat/\1/p" "$1"
	fi
}

# The series' KUnit suites: NAME:SOURCE[:ARRAY] (relative to the kernel
# tree; ARRAY names the suite's case array when SOURCE holds several).
KUNIT_SUITES=(
	wbt:lib/tests/wbt_kunit.c:wbt_controller_cases
	wbt_wait:lib/tests/wbt_kunit.c:wbt_wait_cases
	wbt_group:lib/tests/wbt_kunit.c:wbt_group_cases
	null_blk_fifo:drivers/block/null_blk/fifo_kunit.c
)

# kunit_suites TREE FILE: record every case of every suite of KUNIT_SUITES
# from console log FILE, against the case list of the suite's source in
# kernel tree TREE.  Sets KUNIT_NCASES to the number of cases in the
# sources.
kunit_suites() {
	local tree=$1 file=$2 s name src array
	local -a cases
	KUNIT_NCASES=0
	for s in "${KUNIT_SUITES[@]}"; do
		IFS=: read -r name src array <<<"$s"
		src=$tree/$src
		mapfile -t cases < <(kunit_cases "$src" "$array" 2>/dev/null)
		if [ ${#cases[@]} = 0 ]; then
			record FAIL "kunit $name: no KUNIT_CASE in $src"
			continue
		fi
		KUNIT_NCASES=$((KUNIT_NCASES + ${#cases[@]}))
		kunit "$name" "$file" "${cases[@]}"
	done
}

# kunit SUITE FILE CASES...: record the cases of KUnit suite SUITE from a
# console log as "kunit SUITE: case".  Every case named in CASES must have
# a result, the suite's plan must be met, and the suite must have ended.
kunit() {
	local suite=$1 file=$2 line insuite=0 re plan="" n=0 c ended=0
	shift 2
	local -A seen=()
	re=$(ktap_re 4)
	while IFS= read -r line || [ -n "$line" ]; do
		if [[ $line =~ ^\ {4}#\ Subtest:\ (.*)$ ]]; then
			[ "${BASH_REMATCH[1]}" = "$suite" ] && insuite=1 || insuite=0
		elif [ $insuite = 1 ] && [[ $line =~ ^\ {4}1\.\.([0-9]+)$ ]]; then
			plan=${BASH_REMATCH[1]}
		elif [ $insuite = 1 ] && [[ $line =~ $re ]]; then
			n=$((n + 1))
			c=${BASH_REMATCH[4]% }
			seen[$c]=1
			if [ "${BASH_REMATCH[6]^^}" = SKIP ]; then
				record SKIP "kunit $suite: $c" "${BASH_REMATCH[7]:-no reason given}"
			elif [ "${BASH_REMATCH[1]}" = ok ]; then
				record PASS "kunit $suite: $c"
			else
				record FAIL "kunit $suite: $c"
			fi
		elif [ $insuite = 1 ] && [[ $line =~ ^(not\ ok|ok)\ [0-9]+\ $suite$ ]]; then
			insuite=0 ended=1
		fi
	done < <(kernel_lines "$file")
	if [ "$n" = 0 ]; then
		record FAIL "kunit $suite: no results in $file"
		return 0
	fi
	for c in "$@"; do
		[ -n "${seen[$c]:-}" ] || record FAIL "kunit $suite: $c: no result"
	done
	if [ -n "$plan" ] && [ "$n" -lt "$plan" ]; then
		record FAIL "kunit $suite: $n of $plan planned results"
	fi
	[ $ended = 1 ] || record FAIL "kunit $suite: the suite did not finish"
}
