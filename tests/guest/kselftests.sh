#!/bin/sh
# Run every wbt kselftest installed in /kselftest/wbt, one after the other,
# and send each one's KTAP output back to the host (scripts/check.sh
# counts the results).  Each test has its own timeout from "settings".
. /guest/lib.sh
dir=/kselftest/wbt
[ -d "$dir" ] || { echo "kselftests: $dir missing"; exit 1; }
limit=$(sed -n 's/^timeout=//p' "$dir/settings" 2>/dev/null)
limit=${limit:-300}
cd "$dir" || exit 1
for t in ${WBT_KSELFTESTS:-$(ls wbt_*.sh)}; do
	[ -x "$t" ] || continue
	echo "kselftests: running $t (timeout ${limit}s)"
	timeout "$limit" "./$t" >"/tmp/$t.ktap" 2>&1
	echo "# exit status $?" >>"/tmp/$t.ktap"
	cat "/tmp/$t.ktap"
	send_file "/tmp/$t.ktap" "$t.ktap"
done
