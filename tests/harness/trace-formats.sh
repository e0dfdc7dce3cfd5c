#!/bin/bash
# scripts/trace-formats.sh --compare fails on a format that differs from
# the golden one, passes on a difference the allow file names, refuses an
# allow rule without a reason, and refuses bad arguments.
set -u
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
tf=$top/scripts/trace-formats.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/gold" "$tmp/same" "$tmp/id" "$tmp/type"
for e in wbt_stat wbt_lat wbt_step wbt_timer; do
	cat >"$tmp/gold/$e.format" <<EOT
name: $e
ID: 100
format:
	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:u64 rmax;	offset:8;	size:8;	signed:0;

print fmt: "%s: rmax=%llu", REC->name, REC->rmax
EOT
	cp "$tmp/gold/$e.format" "$tmp/same/"
	sed 's/^ID: 100/ID: 2000/' "$tmp/gold/$e.format" >"$tmp/id/$e.format"
	cp "$tmp/gold/$e.format" "$tmp/type/"
done
sed -i 's/u64 rmax;	offset:8;	size:8;	signed:0;/s64 rmax;	offset:8;	size:8;	signed:1;/' \
	"$tmp/type/wbt_stat.format"
echo '* ID: # ids differ between builds' >"$tmp/allow"
echo '* ID:' >"$tmp/noreason"
export WBT_TRACE_ALLOW=$tmp/allow
check "identical formats pass" "$tf" --compare "$tmp/gold" "$tmp/same"
check "an allowed difference (ID) passes" "$tf" --compare "$tmp/gold" "$tmp/id"
expect_fail "FAIL: wbt_stat: differs from 6.12" "$tf" --compare "$tmp/gold" "$tmp/type"
rm "$tmp/same/wbt_lat.format"
expect_fail "FAIL: wbt_lat: no format file" "$tf" --compare "$tmp/gold" "$tmp/same"
WBT_TRACE_ALLOW=$tmp/noreason expect_fail "bad rule" "$tf" --compare "$tmp/gold" "$tmp/id"
expect_fail "Usage" "$tf" --bogus
expect_fail "Usage" "$tf" --compare "$tmp/gold"
exit "$fails"
