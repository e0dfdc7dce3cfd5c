#!/bin/bash
# The cover letter's results come from one benchmark run: the table in
# patches/cover.txt is exactly what scripts/bench.sh --cover prints for the
# run it names, so an edit by hand or a table from another run fails.
set -u
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
cover=$top/patches/cover.txt
mapfile -t runs < <(sed -n -E 's|^Results of bench/results/([0-9]{8}-[0-9]{6}) .*|\1|p' "$cover")
check "the cover letter's results name one run (${runs[*]:-none})" test "${#runs[@]}" = 1
run=${runs[0]:-}
if [ -n "$run" ]; then
	tmp=$(mktemp)
	trap 'rm -f "$tmp"' EXIT
	check "that run is committed" committed "bench/results/$run/results.json"
	"$top/scripts/bench.sh" --cover "$top/bench/results/$run" >"$tmp" 2>&1
	# The table must appear in the cover letter line for line, in one piece.
	check "the cover letter's table is the run's, as bench.sh --cover prints it" \
		contains "$tmp" "$cover"
fi
exit "$fails"
