# shellcheck shell=bash
# Helpers of the harness tests (tests/harness/*.sh): each test prints one
# "ok:" or "FAIL:" line per check and exits with the number of failures.
# shellcheck disable=SC2034 # used by the sourcing test
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fails=0
# The bench's Python, as scripts/bench.sh picks it, writing no bytecode
# into the tree.
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
export PYTHONDONTWRITEBYTECODE=1

# check DESCRIPTION CMD...: CMD must succeed; returns CMD's success.
check() {
	local what=$1
	shift
	if "$@"; then
		echo "ok: $what"
	else
		echo "FAIL: $what"
		fails=$((fails + 1))
		return 1
	fi
}

# expect_fail PATTERN CMD...: CMD must fail and print PATTERN.
expect_fail() {
	local pat=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc -eq 0 ] || ! grep -q -- "$pat" <<<"$out"; then
		echo "FAIL: $* -> rc=$rc, output: $out"
		fails=$((fails + 1))
	else
		echo "ok: $* -> $(grep -m1 -- "$pat" <<<"$out")"
	fi
}

# committed PATH: PATH (from the top of the repository) is in git.
committed() { git -C "$top" ls-files --error-unmatch "$1" >/dev/null 2>&1; }

# contains PART WHOLE: file WHOLE holds file PART's text in one piece.
contains() {
	"$py" -c 'import sys; sys.exit(open(sys.argv[1]).read() not in open(sys.argv[2]).read())' \
		"$1" "$2"
}
