#!/bin/bash
# make demo, part 1: boot the patched kernel and show its writeback
# throttling state on every disk type, its trace events and the live
# monitor under load.  The Makefile then runs part 2, the benchmark's W1
# in short form (scripts/bench.sh --demo): a buffered streaming writer
# against a reader on the queueing test device, with throttling off (none)
# and on (wbt) side by side.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

log "demo 1/2: the patched kernel's writeback throttling state"
console=$WORK/logs/vm/$(date +%Y%m%d-%H%M%S)-demo-state.log
"$TOP/scripts/vm-run.sh" -q -l "$console" -t 300 -d virtio -d scsi -d nvme -d ide \
	-- /guest/demo.sh
grep -E '^(== |   |demo:)' "$console"
log "demo 2/2: W1, a streaming writer against a reader, none vs wbt"
