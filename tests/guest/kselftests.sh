#!/bin/sh
# Run the wbt kselftests named on the command line (scripts/check.sh
# passes the TEST_PROGS of the series' kselftest Makefile) from
# /kselftest/wbt, one after the other, and send each one's KTAP output
# back to the host, ending with "# exit status N".  A test that is not
# installed or not executable gets a stream with one failed result.  Each
# test has its own timeout from "settings".  Exits 1 when a test failed.
# Usage: /tests/guest/kselftests.sh TEST...
. /guest/lib.sh
dir=/kselftest/wbt
[ $# -gt 0 ] || { echo "kselftests: no tests named"; exit 2; }
[ -d "$dir" ] || { echo "kselftests: $dir missing"; exit 1; }
limit=$(sed -n 's/^timeout=//p' "$dir/settings" 2>/dev/null)
limit=${limit:-300}
cd "$dir" || exit 1
rc=0
for t in "$@"; do
	out=/tmp/$t.ktap
	if [ ! -f "$t" ] || [ ! -x "$t" ]; then
		why="is not installed in $dir"
		[ -f "$t" ] && why="is not executable (no run bit)"
		echo "kselftests: $t $why"
		printf 'TAP version 13\n1..1\nnot ok 1 %s %s\n# exit status 1\n' "$t" "$why" >"$out"
	else
		echo "kselftests: running $t (timeout ${limit}s)"
		timeout "$limit" "./$t" >"$out" 2>&1
		echo "# exit status $?" >>"$out"
	fi
	cat "$out"
	case $(tail -n1 "$out") in
	"# exit status 0" | "# exit status 4") ;;
	*) rc=1 ;;
	esac
	send_file "$out" "$t.ktap"
done
exit $rc
