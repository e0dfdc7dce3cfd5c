#!/bin/bash
# make demo: boot the patched kernel and show writeback throttling at work.
# Part 1 shows the knobs and trace events on every disk type; part 2 is
# the benchmark's W1 in short form: a buffered streaming writer against a
# reader on the queueing test device, with throttling off (none) and on
# (wbt) side by side.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

log "demo 1/2: the patched kernel's writeback throttling state"
"$TOP/scripts/vm-run.sh" -q -n demo-state -t 300 -d virtio -d scsi -d nvme -d ide \
	-- /guest/demo.sh
grep -E '^(== |   |demo:)' "$(find "$WORK/logs/vm" -name '*-demo-state.log' | sort | tail -n1)"
log "demo 2/2: W1, a streaming writer against a reader, none vs wbt"
"$TOP/scripts/bench.sh" --demo
