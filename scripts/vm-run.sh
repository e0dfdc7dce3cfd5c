#!/bin/bash
# Boot a kernel under QEMU, run one command in the guest and propagate its
# exit status.  The console is shown (unless -q) and saved under work/logs/vm/.
# The run fails if the kernel logs a BUG, WARNING, Oops, lockdep, KASAN,
# SLUB, hung-task, soft-lockup or RCU stall report, or panics, even when the
# command itself succeeded.
#
# Usage: vm-run.sh [options] -- COMMAND...
#   -k KERNEL   flavour (wbt, upstream, debug, nohooks, mqoff, upstream-mqoff, cand)
#               or a bzImage path [wbt]
#   -d DISK     add a disk: virtio|scsi|ahci|ide|nvme[:SIZE], repeatable
#               (SIZE as for truncate, default 2G; sparse files, one run only)
#   -m MB       guest memory [2048]
#   -c CPUS     guest CPUs [2]
#   -t SECONDS  hard timeout for the whole run [600]
#   -a ARGS     extra kernel command line
#   -f FILE     copy FILE into the guest's /run/, repeatable
#   -n NAME     name of the log file: work/logs/vm/DATE-NAME.log [run]
#   -l LOG      write the console log to LOG instead (overrides -n)
#   -o DIR      copy the guest's /run/out (what the command leaves there,
#               sent back over the console) to DIR
#   -q          do not echo the console
#   -A          print the accelerator that a boot would use, and why, then
#               exit (this may run the KVM probe, which boots KERNEL briefly)
#   -h          this help
# Environment: WBT_ACCEL=kvm|tcg forces the accelerator; by default KVM is
# used when a probe boot shows that it works (see vm_accel in lib.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=wbt mem=2048 cpus=2 timeout=600 append="" name=run quiet=0 outdir="" logf=""
disks=() files=() only_accel=0
while getopts k:d:m:c:t:a:f:n:l:o:qAh opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	d) disks+=("$OPTARG") ;;
	m) mem=$OPTARG ;;
	c) cpus=$OPTARG ;;
	t) timeout=$OPTARG ;;
	a) append=$OPTARG ;;
	f) files+=("$OPTARG") ;;
	n) name=$OPTARG ;;
	l) logf=$OPTARG ;;
	o) outdir=$OPTARG ;;
	q) quiet=1 ;;
	A) only_accel=1 ;;
	h) usage_from_header 0 ;;
	*) usage_from_header ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = -- ] && shift
[ $# -gt 0 ] || [ "$only_accel" = 1 ] || { echo "error: no guest command given" >&2; usage_from_header; }
for v in "$mem" "$cpus" "$timeout"; do
	if ! [[ $v =~ ^[0-9]+$ ]] || [ "$v" -eq 0 ]; then
		die "not a positive number: '$v'"
	fi
done
[[ $name =~ ^[A-Za-z0-9._-]+$ ]] || die "bad log name '$name'"
for d in "${disks[@]}"; do
	case ${d%%:*} in
	virtio | scsi | ahci | ide | nvme) ;;
	*) die "unknown disk type '${d%%:*}' (virtio, scsi, ahci, ide, nvme)" ;;
	esac
	[ "${d%%:*}" = "$d" ] || [[ ${d#*:} =~ ^[0-9]+[KMG]?$ ]] || die "bad disk size in '-d $d'"
done
need qemu-system-x86_64 cpio timeout

case $kernel in
wbt | upstream | debug | nohooks | mqoff | upstream-mqoff | cand) image=$WORK/build/$kernel/arch/x86/boot/bzImage ;;
*) image=$kernel ;;
esac
[ -f "$image" ] || die "kernel image $image not found (run: make build)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wbt-vm.XXXXXX")
imgdir=$tmp
trap 'rm -rf "$tmp" "$imgdir"' EXIT
vm_accel "$image" "$tmp"
if [ "$only_accel" = 1 ]; then
	echo "$ACCEL: $ACCEL_WHY"
	exit 0
fi
initrd=$WORK/initramfs.cpio
[ -f "$initrd" ] || die "$initrd not found (run: make initramfs)"

# Disk images live in RAM when there is room: deleting gigabytes written to
# a file system mounted with discard takes minutes.
if [ -d /dev/shm ] && [ "$(df -Pk /dev/shm | awk 'NR == 2 {print $4}')" -gt 8388608 ]; then
	imgdir=$(mktemp -d /dev/shm/wbt-vm.XXXXXX)
fi

# The command and extra files go into a second cpio archive appended to the
# initramfs; the kernel unpacks both.
mkdir -p "$tmp/extra/run"
{
	echo '#!/bin/sh'
	printf '%s\n' "$*"
} >"$tmp/extra/run/cmd.sh"
chmod +x "$tmp/extra/run/cmd.sh"
for f in "${files[@]}"; do
	[ -f "$f" ] || die "-f $f: no such file"
	cp "$f" "$tmp/extra/run/"
done
pack_cpio "$tmp/extra" >"$tmp/extra.cpio"
cat "$initrd" "$tmp/extra.cpio" >"$tmp/initrd.cpio"

qemu=(qemu-system-x86_64 -M pc -m "$mem" -smp "$cpus" -nographic -no-reboot
	-monitor none -serial stdio -nic none)
if [ "$ACCEL" = kvm ]; then
	qemu+=(-accel kvm -cpu host)
else
	qemu+=(-accel tcg -cpu max)
fi
i=0
for d in "${disks[@]}"; do
	type=${d%%:*} size=2G
	[ "$type" = "$d" ] || size=${d#*:}
	img=$imgdir/disk$i.img
	truncate -s "$size" "$img"
	drv="if=none,id=d$i,file=$img,format=raw,cache=writeback"
	case $type in
	virtio) qemu+=(-drive "$drv" -device "virtio-blk-pci,drive=d$i") ;;
	scsi) qemu+=(-device "virtio-scsi-pci,id=vscsi$i" -drive "$drv"
		-device "scsi-hd,drive=d$i,bus=vscsi$i.0") ;;
	ahci) qemu+=(-device "ahci,id=ahci$i" -drive "$drv"
		-device "ide-hd,drive=d$i,bus=ahci$i.0") ;;
	ide) qemu+=(-drive "file=$img,format=raw,if=ide,index=$i,cache=writeback") ;;
	nvme) qemu+=(-drive "$drv" -device "nvme,serial=wbt$i,drive=d$i") ;;
	esac
	i=$((i + 1))
done

if [ -z "$logf" ]; then
	mkdir -p "$WORK/logs/vm"
	logf=$WORK/logs/vm/$(date +%Y%m%d-%H%M%S)-$name.log
else
	mkdir -p "$(dirname "$logf")"
fi
cmdline="console=ttyS0 panic=-1 loglevel=7 printk.time=1 rdinit=/init $append"
log "vm[$name]: accelerator $ACCEL: $ACCEL_WHY"
log "vm[$name]: $image, ${#disks[@]} disk(s), $ACCEL, timeout ${timeout}s, log $logf"
# The header says what ran, so a log read later tells how it was made.
{
	echo "WBT-HOST: accel=$ACCEL ($ACCEL_WHY)"
	echo "WBT-HOST: kernel=$image disks=${disks[*]:-none} mem=${mem}M cpus=$cpus timeout=${timeout}s"
	echo "WBT-HOST: $(qemu-system-x86_64 --version | head -n1)"
} >"$logf"

set +e
if [ "$quiet" = 1 ]; then
	timeout --foreground -k 10 "$timeout" "${qemu[@]}" -kernel "$image" -initrd "$tmp/initrd.cpio" \
		-append "$cmdline" </dev/null >>"$logf" 2>&1
else
	timeout --foreground -k 10 "$timeout" "${qemu[@]}" -kernel "$image" -initrd "$tmp/initrd.cpio" \
		-append "$cmdline" </dev/null 2>&1 | tee -a "$logf"
fi
qrc=${PIPESTATUS[0]}
set -e
tr -d '\r' <"$logf" >"$logf.tmp" && mv "$logf.tmp" "$logf"

# The kernel shares the console: its messages can land between and inside
# the guest's lines, and console_lines gives each one a line of its own.
# guest/init's last line is "WBT-EXIT: N"; it is found at the end of a
# line, even behind an unfinished one.
console_lines "$logf" >"$tmp/console"
rc=$(grep -v -E "^$PRINTK_TS_RE" "$tmp/console" |
	sed -n -E 's/^.*WBT-EXIT: ([0-9]+)$/\1/p' | tail -n1)
if [ -n "$outdir" ]; then
	mkdir -p "$outdir"
	# Files sent back by guest/lib.sh's send_file, base64 between markers;
	# the kernel's messages in between are not part of the file.  A file
	# that does not decode is reported, and the run goes on to its checks.
	# A file may come more than once (a guest sends what it has so far):
	# each copy goes to NAME.part and replaces NAME only once it is whole,
	# so a guest that dies while sending leaves the previous copy.
	TS="^$PRINTK_TS_RE" awk -v dir="$outdir" '
		/^WBT-FILE-BEGIN / {
			if (cmd != "")
				close(cmd)	# the copy before it was cut short
			f = dir "/" $2; cmd = "base64 -d > \"" f ".part\""; next }
		/^WBT-FILE-END/ {
			if (cmd != "" && close(cmd) == 0)
				system("mv -f \"" f ".part\" \"" f "\"")
			cmd = ""; next }
		cmd != "" && $0 ~ ENVIRON["TS"] { next }
		cmd != "" { print | cmd }' "$tmp/console" ||
		log "vm[$name]: WARNING: a file the guest sent back did not decode (log: $logf)"
	for p in "$outdir"/*.part; do
		[ -e "$p" ] || continue
		log "vm[$name]: WARNING: ${p##*/}: the guest stopped while sending it, or it did not decode; dropped"
		rm -f "$p"
	done
fi

bad=$(console_splats "$logf")
if [ -n "$bad" ]; then
	log "vm[$name]: FAIL: the kernel reported problems:"
	echo "$bad" >&2
	exit 1
fi
if [ -z "$rc" ]; then
	if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
		log "vm[$name]: FAIL: timed out after ${timeout}s (log: $logf)"
	else
		log "vm[$name]: FAIL: guest did not finish (qemu exit $qrc; log: $logf)"
	fi
	exit 1
fi
log "vm[$name]: guest command exited $rc"
exit "$rc"
