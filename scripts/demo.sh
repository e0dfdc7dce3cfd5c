#!/bin/bash
# make demo: boot the patched kernel and show writeback throttling at work
# on a virtio-blk disk: its knobs, then a buffered writer against a reader
# with the wbt trace events on.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/vm-run.sh" -n demo -t 900 -m 1024 -d virtio:4G -- /guest/demo.sh
