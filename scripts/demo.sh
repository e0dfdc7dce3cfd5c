#!/bin/bash
# make demo: boot the patched kernel and show writeback throttling at work.
# Part 1 shows the knobs and trace events on every disk type; part 2 is
# the benchmark's W1 in short form: a buffered streaming writer against a
# reader on the queueing test device, with throttling off (none) and on
# (wbt) side by side.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

log "demo 1/2: the patched kernel's writeback throttling state"
console=$WORK/logs/vm/$(date +%Y%m%d-%H%M%S)-demo-state.log
"$TOP/scripts/vm-run.sh" -q -l "$console" -t 300 -d virtio -d scsi -d nvme -d ide \
	-- /guest/demo.sh
grep -E '^(== |   |demo:)' "$console"
log "demo 2/2: W1, a streaming writer against a reader, none vs wbt"
"$TOP/scripts/bench.sh" --demo
