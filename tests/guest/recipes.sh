#!/bin/sh
# Run the observability recipes of Documentation/block/writeback-throttling.rst
# exactly as the document gives them, and send the KTAP results back to the
# host (scripts/check.sh counts them).  Usage: recipes.sh [DOCUMENT]
#
# A recipe is the literal block that follows a ".. recipe: NAME" comment in
# the document.  A line starting with "# " (the root prompt) is a command,
# other lines continue it.  The recipes name the disk "sda", and "8:0" in
# trace events: here those are replaced by the name and MAJ:MIN of a
# queueing null_blk disk.  Each recipe runs while
# a buffered writer and a direct reader load the disk, and every two
# seconds the latency target is set anew below the disk's read latency, so
# that wbt scales down from step 0 and every event fires.  The recipe's
# output is then checked for the events of that disk.  The same commands
# run on unpatched 6.12 (scripts/check.sh), which has the null_blk model
# but only wbt_lat_usec.
# make_qdev, wbt_bg, read_loop, KTAP and the cleanup trap, from the
# kselftests' wbt_lib.sh
. /guest/lib.sh

DOC=${1:-/doc/writeback-throttling.rst}
RECIPES="trace-cmd perf-trace perf-record bpftrace blktrace"
TARGET_USEC=1000	# below the 2 ms base latency of the "hdd-fifo" model
OUT=/tmp/recipes.ktap

# recipe_text NAME: the commands of recipe NAME, prompts removed
recipe_text()
{
	awk -v want="$1" '
	$0 == ".. recipe: " want { st = 1; next }
	st == 1 && /::$/ { st = 2; next }
	st == 2 && /^$/ { if (n) exit; next }
	st == 2 && /^[^ ]/ { exit }
	st == 2 { sub(/^  /, ""); sub(/^# /, ""); print; n++ }
	' "$DOC"
}

load_start()
{
	# off, then on again below: re-enabling starts from step 0
	knob_set "$dev" "$KNOB" 0
	wbt_bg dd if=/dev/zero of="/dev/$dev" bs=1M count=1000
	WPID=$WBT_LASTPID
	wbt_bg read_loop "/dev/$dev"
	RPID=$WBT_LASTPID
	# every two seconds, so that a slow starting recipe still sees steps
	wbt_bg sh -c "f=/sys/block/$dev/queue/$KNOB
		while sleep 2; do echo 0 > \$f; echo $TARGET_USEC > \$f; done"
	TPID=$WBT_LASTPID
}

load_stop()
{
	kill "$WPID" "$RPID" "$TPID" 2>/dev/null
	wait_pids 120 "$WPID" "$RPID" "$TPID" ||
		ktap_print_msg "load did not stop: $(pid_state "$WPID")"
	knob_set "$dev" "$KNOB" -1
}

# run_recipe NAME [WRAPPER...]: run recipe NAME under load in its own
# directory; its output is in $WBT_TMP/NAME.out
run_recipe()
{
	_r=$1
	shift
	recipe_text "$_r" | sed -e "s/sda/$dev/g" -e "s/8:0/$majmin/g" > "$WBT_TMP/$_r.sh"
	if [ ! -s "$WBT_TMP/$_r.sh" ]; then
		ktap_print_msg "no recipe '$_r' in $DOC"
		return 1
	fi
	sed "s/^/# $_r: /" "$WBT_TMP/$_r.sh"
	mkdir -p "$WBT_TMP/$_r"
	load_start
	(cd "$WBT_TMP/$_r" && sh -e "$WBT_TMP/$_r.sh") > "$WBT_TMP/$_r.out" 2>&1
	_rc=$?
	load_stop
	if [ $_rc -ne 0 ]; then
		ktap_print_msg "$_r: exit status $_rc"
		tail -n 20 "$WBT_TMP/$_r.out" | sed 's/^/# | /'
	fi
	return $_rc
}

# expect NAME PATTERN WHAT: the output of recipe NAME matches PATTERN
expect()
{
	grep -q -e "$2" "$WBT_TMP/$1.out" && return 0
	ktap_print_msg "$1: no $3 in the output; it has:"
	grep -o 'wbt_[a-z]*[:(] *[^ ]*' "$WBT_TMP/$1.out" | sort | uniq -c | sed 's/^/# | /'
	head -n 5 "$WBT_TMP/$1.out" | sed 's/^/# | /'
	return 1
}

main()
{
	ktap_print_header
	wbt_init
	wbt_plan documented trace-cmd perf-trace perf-record bpftrace-fields \
		bpftrace blktrace

	if [ ! -r "$DOC" ]; then
		wbt_skip_rest "no $DOC in the initramfs"
		ktap_finished
	fi

	# 1: the document has exactly the recipes this test runs
	have=$(sed -n 's/^\.\. recipe: //p' "$DOC" | sort | tr '\n' ' ')
	want=$(echo "$RECIPES" | tr ' ' '\n' | sort | tr '\n' ' ')
	rc=0
	if [ "$have" != "$want" ]; then
		ktap_print_msg "recipes in $DOC: $have; in this test: $want"
		rc=1
	fi
	wbt_result $rc documented

	if ! make_qdev recipes hdd-fifo; then
		wbt_skip_rest "$WBT_ERR"
		ktap_finished
	fi
	dev=$QDEV
	majmin=$(cat "/sys/block/$dev/dev")
	# the load's knob: wb_lat_usec, or 6.12's wbt_lat_usec on 6.12
	KNOB=wb_lat_usec
	[ -e "/sys/block/$dev/queue/$KNOB" ] || KNOB=wbt_lat_usec
	wbt_set_dirty 33554432 8388608
	ktap_print_msg "disk $dev ($majmin), target ${TARGET_USEC}us under load"

	# 2: trace-cmd record/report
	rc=1
	if run_recipe trace-cmd; then
		rc=0
		expect trace-cmd "wbt_stat: *$majmin: rmean=" "wbt_stat of $majmin" || rc=1
		# the reason as text ("scale down"), not as an address
		expect trace-cmd "wbt_step: *$majmin: [a-z]* [a-z]*: step=" \
			"wbt_step of $majmin with its reason" || rc=1
		expect trace-cmd "wbt_timer: *$majmin: status=" "wbt_timer of $majmin" || rc=1
		for e in wbt_stat wbt_lat wbt_step wbt_timer; do
			grep -m 1 " $e: " "$WBT_TMP/trace-cmd.out" | sed 's/^ */# /'
		done
	fi
	wbt_result $rc trace-cmd

	# 3: perf trace
	rc=1
	if run_recipe perf-trace; then
		rc=0
		# perf trace 6.1 prints the reason as an address, as documented
		expect perf-trace "wbt:wbt_stat(name: \"$majmin\"" "wbt_stat of $majmin" || rc=1
		expect perf-trace "wbt:wbt_step(name: \"$majmin\"" "wbt_step of $majmin" || rc=1
		grep -m 1 "wbt:wbt_step(" "$WBT_TMP/perf-trace.out" | sed 's/^ */# /'
	fi
	wbt_result $rc perf-trace

	# 4: perf record/script
	rc=1
	if run_recipe perf-record; then
		rc=0
		expect perf-record "wbt:wbt_stat: $majmin: " "wbt_stat of $majmin" || rc=1
		expect perf-record "wbt:wbt_step: $majmin: [a-z]* [a-z]*: step=" \
			"wbt_step of $majmin with its reason" || rc=1
		grep -m 1 "wbt:wbt_step: " "$WBT_TMP/perf-record.out" | sed 's/^ */# /'
	fi
	wbt_result $rc perf-record

	# 5: the bpftrace one-liner's tracepoint and fields exist
	T=$(wbt_trace_dir)
	recipe_text bpftrace > "$WBT_TMP/bpftrace.sh"
	ev=$(sed -n 's/.*tracepoint:wbt:\([a-z_]*\).*/\1/p' "$WBT_TMP/bpftrace.sh" | head -n 1)
	fmt=$T/events/wbt/$ev/format
	rc=0
	if [ -z "$ev" ] || [ ! -r "$fmt" ]; then
		ktap_print_msg "bpftrace: no wbt tracepoint '$ev' (${fmt})"
		rc=1
	else
		fields=$(grep -o 'args->[a-z_]*' "$WBT_TMP/bpftrace.sh" | sed 's/args->//' | sort -u)
		for f in $fields; do
			if ! grep -q "field:[^;]*[ *]$f\(\[[0-9]*\]\)\{0,1\};" "$fmt"; then
				ktap_print_msg "bpftrace: $ev has no field $f"
				rc=1
			fi
		done
	fi
	wbt_result $rc bpftrace-fields

	# 6: bpftrace itself
	if command -v bpftrace > /dev/null; then
		ktap_print_msg "bpftrace is installed, but this test does not run it yet"
		wbt_result 1 bpftrace
	else
		wbt_skip bpftrace "not in the initramfs: it needs about 260 MB of LLVM and clang libraries and a kernel with BPF_SYSCALL and BPF_EVENTS"
	fi

	# 7: blktrace, blkparse, btt
	rc=1
	if run_recipe blktrace; then
		rc=0
		expect blktrace "^Q2G " "Q2G line" || rc=1
		expect blktrace "^D2C " "D2C line" || rc=1
		expect blktrace "BLKavg" "request sizes" || rc=1
		grep -q ' D  *W' "$WBT_TMP/blktrace/wbt.txt" 2>/dev/null ||
			{ ktap_print_msg "blktrace: no dispatched writes in wbt.txt"; rc=1; }
	fi
	wbt_result $rc blktrace

	ktap_finished
}

# The results are counted on the host; the run itself succeeded.
(main) > "$OUT" 2>&1
echo "# exit status $?" >> "$OUT"
cat "$OUT"
send_file "$OUT" recipes.ktap
