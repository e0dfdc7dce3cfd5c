#!/bin/sh
# The reliability soak of make stress (scripts/stress.sh), inside the guest.
#
# Usage: /guest/stress.sh [SECONDS]   (default 600)
#
# For SECONDS, everything below runs at once against a queueing null_blk
# ("qdev", the FIFO latency model), the virtio-blk disk, and a second
# queueing null_blk ("pc") that is powered off and on:
#   bgw    background buffered writers: create, write, fsync, delete
#   fio    fio writers with verify=crc32c; each pass's data is read back
#          with O_DIRECT, so a lost or torn write fails the pass
#   rd     foreground readers (buffered random reads of a cold file)
#   knobs  a write every 50 ms to wb_lat_usec, wbt_lat_usec or
#          wb_window_usec: random values in and out of the window's
#          bounds, 0, -1 and bad strings
#   sched  scheduler switches: none, mq-deadline, kyber, bfq, on qdev
#          and pc; not on the disk holding the swap file: 6.12's elevator
#          switch allocates memory (kernfs) with the queue frozen, and
#          reclaim's swap writes to that queue then deadlock (lockdep and
#          the hung-task detector caught it; not wbt's doing)
#   flip   queue/write_cache and queue/rotational toggles
#   pcw    buffered writers on the raw pc device, throttled on it
#   power  pc powered off and on under them; requeue and timeout fault
#          injection on pc and requeue injection on qdev
#   hog    memory pressure: tmpfs fills memory and keeps a quarter to a
#          half of a swap file on the virtio disk (throttled by wbt) full
#   cgw    buffered writers on qdev in two cgroups, whose io.weight
#          changes every 0.2 s to random weights; out of range ones must
#          be refused
#   dm     a dm-linear device ("dl", ext4: bgw and fio workers) and a
#          dm-crypt device ("dc", cipher_null, raw: fio and a buffered
#          writer) over queueing null_blk devices of their own, with
#          requeue injection, knob writes and flips on those
# Then pc is torn down with its writers still writing and dc's disk is
# removed from under dc (the kselftest wbt_stacked.sh removes disks from
# under writers), every worker must exit by itself, the dm devices come down, and qdev is
# removed.  The last lines are a summary of
# what was done and "STRESS: PASS" or "STRESS: FAIL (reasons)".
# Word splitting of device and pid lists is intended; busybox ash has
# $RANDOM.
# shellcheck disable=SC2317,SC2086,SC2046,SC3028

# make_qdev, remove_qdev, write_bounded, wait_pids, pid_state: from the
# kselftests' wbt_lib.sh, through guest/lib.sh
. /guest/lib.sh

DUR=${1:-600}
case $DUR in
'' | *[!0-9]*) echo "stress: SECONDS must be a whole number (got '$DUR')"; exit 2 ;;
esac
S=/tmp/stress
STOP=$S/stop
rm -rf "$S"
mkdir -p "$S"

fail() {
	echo "stress: FAIL: $*"
	echo "$*" >>"$S/fails"
}

# count NAME N: the worker's running total
count() { echo "$2" >"$S/cnt.$1"; }
get() { cat "$S/cnt.$1" 2>/dev/null || echo 0; }
stopped() { [ -e "$STOP" ]; }
# try FILE VALUE: a sysfs write that may be refused
try() { { echo "$2" >"$1"; } 2>/dev/null; }

log() { echo "stress: [$(($(date +%s) - T0))s] $*"; }
T0=$(date +%s)

# ------------------------------------------------------------- devices

# The debug kernel's checkers must be on, or a pass means nothing.
if [ -e /proc/lockdep_stats ]; then
	echo "stress: lockdep active"
else
	echo "stress: no /proc/lockdep_stats: not the debug kernel"
fi

VDA=$(find_disk virtio)
[ -n "$VDA" ] || { echo "stress: no virtio-blk disk"; exit 1; }

if ! make_qdev stress_q hdd-fifo size=384; then
	echo "stress: cannot create the queueing null_blk: $WBT_ERR"
	exit 1
fi
QD=$QDEV
if ! make_qdev stress_pc hdd-fifo size=256 memory_backed=0; then
	echo "stress: cannot create the power-cycled null_blk: $WBT_ERR"
	exit 1
fi
PC=$QDEV
# The stacked devices, each over a queueing null_blk of its own.
if ! make_qdev stress_dl hdd-fifo size=96; then
	echo "stress: cannot create dm-linear's null_blk: $WBT_ERR"
	exit 1
fi
DLB=$QDEV
if ! dm_make stress_dl "0 $(cat "/sys/block/$DLB/size") linear /dev/$DLB 0"; then
	echo "stress: cannot create the dm-linear device: $WBT_ERR"
	exit 1
fi
DL=$DMDEV
if ! make_qdev stress_dc hdd-fifo size=48; then
	echo "stress: cannot create dm-crypt's null_blk: $WBT_ERR"
	exit 1
fi
DCB=$QDEV
if ! dm_make stress_dc "0 $(cat "/sys/block/$DCB/size") crypt cipher_null-ecb - 0 /dev/$DCB 0"; then
	echo "stress: cannot create the dm-crypt device: $WBT_ERR"
	exit 1
fi
DC=$DMDEV
DEVS="$VDA $QD $PC $DLB $DCB"

# Fault injection (CONFIG_BLK_DEV_NULL_BLK_FAULT_INJECTION, configfs).
# Requeue keeps the data; timeout fails the write, so only on pc.
inject() { # inject DIR PROBABILITY INTERVAL
	for kv in "probability=$2" "interval=$3" "times=-1" "verbose=0"; do
		try "$1/${kv%%=*}" "${kv#*=}" || return 1
	done
}
for d in "$NULLB_CFG/stress_q/requeue_inject" "$NULLB_CFG/stress_pc/requeue_inject" \
	"$NULLB_CFG/stress_dl/requeue_inject" "$NULLB_CFG/stress_dc/requeue_inject"; do
	inject "$d" 5 1 || fail "cannot set up requeue fault injection ($d)"
done
inject "$NULLB_CFG/stress_pc/timeout_inject" 1 1 ||
	fail "cannot set up timeout fault injection"
for d in $DEVS; do
	# Injected timeouts fire after io_timeout; keep it far below the
	# 30 s hung-task limit.
	try "/sys/block/$d/queue/io_timeout" 2000
done

mkdir -p /mnt/vda /mnt/qd /mnt/dl
for m in "$VDA:/mnt/vda" "$QD:/mnt/qd" "$DL:/mnt/dl"; do
	if ! mkfs.ext4 -q -F "/dev/${m%%:*}" || ! mount "/dev/${m%%:*}" "${m#*:}"; then
		echo "stress: cannot make and mount ext4 on ${m%%:*}"
		exit 1
	fi
done

# Swap: a file on the virtio disk's ext4.
SWAP_MB=384
swap_used_mb() { awk '/^SwapTotal/ {t = $2} /^SwapFree/ {f = $2} END {print int((t - f) / 1024)}' /proc/meminfo; }
mem_avail_mb() { awk '/^MemAvailable/ {print int($2 / 1024)}' /proc/meminfo; }
# The hog's tmpfs holds 16 MiB files f(HOG_LO+1) to f(HOG_HI): hog_add
# adds the newest, hog_del removes the oldest, the likeliest to be in swap.
HOG_LO=0 HOG_HI=0
hog_add() {
	dd if=/dev/zero of="/mnt/hog/f$((HOG_HI + 1))" bs=1M count=16 2>/dev/null ||
		{ rm -f "/mnt/hog/f$((HOG_HI + 1))"; return 1; }
	HOG_HI=$((HOG_HI + 1))
}
hog_del() {
	[ "$HOG_HI" -gt "$HOG_LO" ] || return 1
	HOG_LO=$((HOG_LO + 1))
	rm -f "/mnt/hog/f$HOG_LO"
}
hog_umount() {
	grep -q ' /mnt/hog ' /proc/mounts || return 0
	rm -f /mnt/hog/f*
	umount /mnt/hog
}
if ! dd if=/dev/zero of=/mnt/vda/swap bs=1M count=$SWAP_MB 2>/dev/null ||
	! chmod 600 /mnt/vda/swap || ! mkswap /mnt/vda/swap >/dev/null ||
	! swapon /mnt/vda/swap; then
	fail "cannot set up the swap file"
fi
PSWPOUT0=$(awk '/^pswpout/ {print $2}' /proc/vmstat)
for m in /mnt/vda /mnt/qd; do
	dd if=/dev/urandom of="$m/cold" bs=1M count=24 2>/dev/null
done
sync
# The hog's fill, while the CPUs are free: memory up to 80 MiB short of
# full.  Under TCG and KASAN the hog alone would take minutes.
mkdir -p /mnt/hog
HOG_OK=
if mount -t tmpfs -o size=100% tmpfs /mnt/hog; then
	HOG_OK=1
	while [ "$(mem_avail_mb)" -gt 80 ] && hog_add; do :; done
else
	fail "cannot mount the hog's tmpfs"
fi
HOG_FILL=$((HOG_HI * 16))

log "devices: virtio $VDA, qdev $QD, pc $PC, dm-linear $DL on $DLB, dm-crypt $DC on $DCB; hog's fill $HOG_FILL MiB; soak ${DUR}s"

# Two cgroups for the weighted writers, removed at the end.
if ! cg_setup || ! cg_make stress_a 100 || ! cg_make stress_b 100; then
	fail "cannot set up the cgroups: $WBT_ERR"
fi

# pc's block device node, kept out of /dev: writing to a vanished node in
# devtmpfs would create a regular file there.
pc_node() {
	mm=$(cat "/sys/block/$PC/dev" 2>/dev/null) || return 1
	rm -f "$S/pc.new"
	mknod "$S/pc.new" b "${mm%%:*}" "${mm#*:}" && mv -f "$S/pc.new" "$S/pc.node"
}
pc_node

# ------------------------------------------------------------- workers

w_bgw() { # w_bgw NAME MNT
	n=0 mb=0
	while ! stopped; do
		f=$2/bgw.$n
		dd if=/dev/zero of="$f" bs=1M count=16 conv=fsync 2>/dev/null &&
			mb=$((mb + 16))
		rm -f "$f"
		n=$((n + 1))
		count "$1" "$n $mb"
	done
}

w_fio() { # w_fio NAME MNT|BLOCKDEV
	n=0 kb=0
	while ! stopped; do
		f=$2/verify.$n
		[ -b "$2" ] && f=$2
		common="--name=v --filename=$f --rw=randwrite --bs=16k --size=12m
			--ioengine=psync --verify=crc32c --randseed=$((n + 1))
			--verify_state_save=0"
		# shellcheck disable=SC2086
		if ! fio $common --do_verify=0 --end_fsync=1 >"$S/$1.out" 2>&1; then
			fail "$1: fio write pass $n failed: $(tail -n 3 "$S/$1.out" | tr '\n' ' ')"
			break
		fi
		# shellcheck disable=SC2086
		if ! fio $common --verify_only --direct=1 --verify_fatal=1 \
			>"$S/$1.out" 2>&1; then
			fail "$1: fio verify pass $n failed: $(grep -i -m3 'verify\|err' "$S/$1.out" | tr '\n' ' ')"
			break
		fi
		[ -b "$f" ] || rm -f "$f"
		n=$((n + 1))
		kb=$((kb + 12 * 1024))
		count "$1" "$n $kb"
	done
}

w_rd() { # w_rd NAME MNT
	n=0
	while ! stopped; do
		fio --name=r --filename="$2/cold" --rw=randread --bs=4k --size=24m \
			--ioengine=psync --invalidate=1 --time_based --runtime=3 \
			>/dev/null 2>&1 || fail "$1: reader failed"
		n=$((n + 1))
		count "$1" "$n"
	done
}

w_knobs() { # w_knobs NAME DEV: one writer per device, so that a device
	# whose sysfs lock is held by a scheduler switch stalls only its own
	n=0 ok=0 refused=0
	q=/sys/block/$2/queue
	while ! stopped; do
		case $((RANDOM % 8)) in
		0) v=0 ;;
		1) v=-1 ;;
		2) v=abc ;;
		*) v=$((RANDOM * 4 + 1)) ;;
		esac
		case $((RANDOM % 3)) in
		0) k=wb_lat_usec ;;
		1) k=wbt_lat_usec ;;
		*) k=wb_window_usec ;;
		esac
		# bad: abc anywhere, a window out of 1000..10000000 (-1 aside)
		bad=0
		case $k:$v in
		*:abc) bad=1 ;;
		wb_window_usec:-1) ;;
		wb_window_usec:*) [ "$v" -ge 1000 ] && [ "$v" -le 10000000 ] || bad=1 ;;
		esac
		if try "$q/$k" "$v"; then
			ok=$((ok + 1))
			[ "$bad" = 0 ] || fail "knobs: $q/$k accepted '$v'"
		else
			refused=$((refused + 1))
			# A device being powered off refuses everything.
			[ "$bad" = 1 ] || [ "$2" = "$PC" ] || fail "knobs: $q/$k refused '$v'"
		fi
		n=$((n + 1))
		count "$1" "$n $ok $refused"
		sleep 0.05
	done
	try "$q/wb_lat_usec" -1
	try "$q/wb_window_usec" -1
}

w_sched() {
	n=0
	while ! stopped; do
		for s in mq-deadline kyber bfq none; do
			try "/sys/block/$QD/queue/scheduler" "$s" && n=$((n + 1))
			try "/sys/block/$PC/queue/scheduler" "$s" && n=$((n + 1))
			count sched "$n"
			sleep 0.5
			stopped && break
		done
	done
}

w_flip() {
	n=0
	while ! stopped; do
		for d in $DEVS; do
			q=/sys/block/$d/queue
			case $(cat "$q/write_cache" 2>/dev/null) in
			"write back") try "$q/write_cache" "write through" && n=$((n + 1)) ;;
			"write through") try "$q/write_cache" "write back" && n=$((n + 1)) ;;
			esac
			r=$(cat "$q/rotational" 2>/dev/null) &&
				try "$q/rotational" $((1 - r)) && n=$((n + 1))
		done
		count flip "$n"
		sleep 0.7
	done
}

w_pcw() { # w_pcw NAME SEEK [NODE DISK]: buffered writes to a raw device
	n=0 ok=0
	while ! stopped; do
		dd if=/dev/zero of="${3:-$S/pc.node}" bs=1M count=32 seek="$2" \
			conv=notrunc 2>/dev/null && ok=$((ok + 1))
		n=$((n + 1))
		count "$1" "$n $ok"
		# Device off: do not spin.
		[ -e "/sys/block/${4:-$PC}" ] || sleep 0.2
	done
}

w_power() {
	n=0
	while ! stopped; do
		sleep 3
		stopped && break
		if ! write_bounded 60 "$NULLB_CFG/stress_pc/power" 0; then
			fail "power: power=0 of $PC did not complete in 60 s"
			break
		fi
		sleep 0.5
		# Teardown owns the device from here.
		stopped && break
		if ! write_bounded 60 "$NULLB_CFG/stress_pc/power" 1; then
			fail "power: power=1 of $PC did not complete in 60 s"
			break
		fi
		try "/sys/block/$PC/queue/io_timeout" 2000
		pc_node || fail "power: no $PC after power=1"
		n=$((n + 1))
		count power "$n"
	done
}

# Keeps swap between a quarter and a half full, from the fill set up
# before the soak: a file more while swap is under a quarter full, the
# oldest file less (the likeliest to be in swap) while it is over half
# full.  Swap is what runs out: the memory-backed null_blk disks grow as
# they are written and cannot be swapped, so they push the hog's tmpfs
# into swap, and with swap full the OOM killer would take the soak itself
# (tmpfs pages belong to no process).  No sleep after a removal: the
# disks may grow faster than one file a second.  Should swapping lag
# behind, under 32 MiB of available memory the newest file goes.
w_hog() {
	n=0 freed=0
	while ! stopped; do
		ma=$(mem_avail_mb) su=$(swap_used_mb)
		if [ "$su" -gt $((SWAP_MB / 2)) ] && hog_del; then
			freed=$((freed + 1))
		elif [ "$ma" -lt 32 ] && [ "$HOG_HI" -gt "$HOG_LO" ]; then
			rm -f "/mnt/hog/f$HOG_HI"
			HOG_HI=$((HOG_HI - 1)) freed=$((freed + 1))
		elif [ "$su" -lt $((SWAP_MB / 4)) ] && [ "$ma" -ge 32 ] && hog_add; then
			n=$((n + 1))
		else
			sleep 1
		fi
		count hog "$n $freed"
	done
	hog_umount || fail "hog: umount of its tmpfs failed"
}

w_cgw() { # w_cgw NAME CGROUP MNT: buffered writes from inside CGROUP
	# the subshell's own pid: $$ would be the soak's
	read -r me _ </proc/self/stat
	echo "$me" >"$WBT_CG/$2/cgroup.procs" || { fail "$1: cannot join cgroup $2"; return; }
	n=0 mb=0
	while ! stopped; do
		dd if=/dev/zero of="$3/$1" bs=1M count=16 2>/dev/null && mb=$((mb + 16))
		n=$((n + 1))
		count "$1" "$n $mb"
	done
	rm -f "$3/$1"
}

w_weights() { # io.weight of both cgroups at random, bad values refused
	n=0
	while ! stopped; do
		for g in stress_a stress_b; do
			try "$WBT_CG/$g/io.weight" $((RANDOM % 10000 + 1)) && n=$((n + 1))
		done
		case $((RANDOM % 4)) in
		0) v=0 ;; 1) v=10001 ;; 2) v=abc ;; *) v=-1 ;;
		esac
		try "$WBT_CG/stress_b/io.weight" "$v" && fail "io.weight $v was taken"
		count weights "$n"
		sleep 0.2
	done
}

PIDS=
NAMES=
start() { # start NAME FUNCTION ARGS...
	st_name=$1
	shift
	("$@"; echo exited >"$S/exit.$st_name") &
	PIDS="$PIDS $!"
	NAMES="$NAMES $st_name:$!"
}

start bgw_vda w_bgw bgw_vda /mnt/vda
start bgw_qd w_bgw bgw_qd /mnt/qd
start fio_vda w_fio fio_vda /mnt/vda
start fio_qd w_fio fio_qd /mnt/qd
start rd_vda w_rd rd_vda /mnt/vda
start rd_qd w_rd rd_qd /mnt/qd
start knobs_vda w_knobs knobs_vda "$VDA"
start knobs_qd w_knobs knobs_qd "$QD"
start knobs_pc w_knobs knobs_pc "$PC"
start knobs_dl w_knobs knobs_dl "$DLB"
start knobs_dc w_knobs knobs_dc "$DCB"
start bgw_dl w_bgw bgw_dl /mnt/dl
start fio_dl w_fio fio_dl /mnt/dl
start fio_dc w_fio fio_dc "/dev/$DC"
start dcw w_pcw dcw 14 "/dev/$DC" "$DCB"
start sched w_sched
start flip w_flip
start pcw0 w_pcw pcw0 0
start pcw1 w_pcw pcw1 64
start power w_power
[ -z "$HOG_OK" ] || start hog w_hog
start cgw_a w_cgw cgw_a stress_a /mnt/qd
start cgw_b w_cgw cgw_b stress_b /mnt/qd
start weights w_weights

# ------------------------------------------------------------- soak

# from the workers' start: setting up the devices takes over a minute
# under KASAN, and the soak is DUR seconds of them all at work
end=$(($(date +%s) + DUR))
while [ "$(date +%s)" -lt "$end" ]; do
	sleep 15
	alive=0
	for p in $PIDS; do pid_alive "$p" && alive=$((alive + 1)); done
	log "workers alive $alive, knobs $(get knobs_vda) / $(get knobs_qd) / $(get knobs_pc), sched $(get sched), power $(get power), fio $(get fio_vda) / $(get fio_qd), hog $(get hog)"
	[ -s "$S/fails" ] && break
done

# ------------------------------------------------------------- teardown

touch "$STOP"
for nv in $NAMES; do
	case $nv in
	power:*) wait_pids 70 "${nv#*:}" || fail "power worker did not stop" ;;
	esac
done
log "stop: tearing $PC down with its writers still writing"
removals=0 removals_ok=0
# remove NAME: power a null_blk off and remove it, bounded
remove() {
	removals=$((removals + 1))
	if write_bounded 60 "$NULLB_CFG/$1/power" 0 && rmdir "$NULLB_CFG/$1"; then
		removals_ok=$((removals_ok + 1))
	else
		fail "removal of $1 did not complete"
	fi
}
remove stress_pc
# dc's disk too, once its fio pass is over (its writes would fail)
for nv in $NAMES; do
	case $nv in
	fio_dc:*) wait_pids 300 "${nv#*:}" || fail "fio_dc did not stop in 300 s" ;;
	esac
done
log "stop: removing $DCB from under $DC"
remove stress_dc

log "waiting for every worker to exit by itself (up to 300 s)"
if ! wait_pids 300 $PIDS; then
	for nv in $NAMES; do
		pid_alive "${nv#*:}" &&
			fail "worker ${nv%%:*} did not exit: $(pid_state "${nv#*:}")"
	done
fi
for nv in $NAMES; do
	[ -e "$S/exit.${nv%%:*}" ] || fail "worker ${nv%%:*} did not finish"
done

for g in stress_a stress_b; do
	rmdir "$WBT_CG/$g" || fail "cgroup $g could not be removed"
done
# The hog's worker unmounts its tmpfs; if it could not, do it here, or
# swapoff would need the memory of the tmpfs that is in swap.
hog_umount || fail "umount of the hog's tmpfs failed"
swapoff /mnt/vda/swap || fail "swapoff failed"
PSWPOUT=$(($(awk '/^pswpout/ {print $2}' /proc/vmstat) - PSWPOUT0))
sync
umount /mnt/qd || fail "umount of $QD failed"
umount /mnt/dl || fail "umount of $DL failed"
# dm-crypt's disk is gone: its table must still come down
for dm in stress_dc stress_dl; do
	dm_remove "$dm" || fail "dmsetup remove $dm did not complete"
done
umount /mnt/vda || fail "umount of $VDA failed"

# The throttle was at work on qdev, and left nothing in flight: a soak in
# which no write ever waited or the step never moved proves nothing.
QDBG=/sys/kernel/debug/block/$QD/rqos/wbt
qd_idle() { [ "$(cat "$QDBG/inflight" 2>/dev/null)" = 0 ]; }
wait_for 30 qd_idle
QSTATS=$(cat "$QDBG/stats" 2>/dev/null)
QTHR=$(field "$QSTATS" throttled)
QUP=$(field "$QSTATS" scale_up)
QDOWN=$(field "$QSTATS" scale_down)
QSTEPS=$((${QUP:-0} + ${QDOWN:-0}))
QINFL=$(cat "$QDBG/inflight" 2>/dev/null)
log "qdev $QD at the end: $QSTATS; inflight ${QINFL:-none}"
[ "${QTHR:-0}" -gt 0 ] || fail "no write was ever throttled on $QD ($QSTATS)"
[ "$QSTEPS" -gt 0 ] || fail "the step never moved on $QD ($QSTATS)"
[ "$QINFL" = 0 ] || fail "$QD has ${QINFL:-an unreadable number of} writes in flight at idle"
remove stress_q
remove stress_dl

# ------------------------------------------------------------- summary

f1() { set -- $1; echo "${1:-0}"; }
f2() { set -- $1; echo "${2:-0}"; }
f3() { set -- $1; echo "${3:-0}"; }
sum() { # sum FIELD NAME...: add up one field of several counters
	_f=$1 _t=0
	shift
	for _c in "$@"; do
		set -- $(get "$_c") 0 0 0
		eval "_t=\$((_t + \${$_f}))"
	done
	echo "$_t"
}
kn="knobs_vda knobs_qd knobs_pc knobs_dl knobs_dc"
knobs="$(sum 1 $kn) $(sum 2 $kn) $(sum 3 $kn)"
verify_kb=$(sum 2 fio_vda fio_qd fio_dl fio_dc)
summary="knob writes: $(f1 "$knobs") ($(f2 "$knobs") taken, $(f3 "$knobs") refused)"
summary="$summary, scheduler switches: $(get sched)"
summary="$summary, write_cache/rotational toggles: $(get flip)"
summary="$summary, power cycles: $(get power)"
summary="$summary, pc writes: $(($(f1 "$(get pcw0)") + $(f1 "$(get pcw1)")))"
summary="$summary, bg write cycles: $(sum 1 bgw_vda bgw_qd bgw_dl)"
summary="$summary, fio passes: $(sum 1 fio_vda fio_qd fio_dl fio_dc)"
summary="$summary, verify MB: $((verify_kb / 1024))"
summary="$summary, reader runs: $(($(get rd_vda) + $(get rd_qd)))"
summary="$summary, dm-linear fio passes: $(f1 "$(get fio_dl)"), dm-crypt fio passes: $(f1 "$(get fio_dc)"), dm-crypt raw writes: $(f1 "$(get dcw)")"
summary="$summary, hog MiB prefilled: $HOG_FILL, added: $(($(f1 "$(get hog)") * 16)), freed: $(($(f2 "$(get hog)") * 16)), pages swapped out: $PSWPOUT"
summary="$summary, cgroup writes MB: $(f2 "$(get cgw_a)") / $(f2 "$(get cgw_b)"), io.weight changes: $(get weights)"
summary="$summary, device removals: $removals_ok/$removals"
summary="$summary, qdev throttled: ${QTHR:-0}, qdev scale steps: $QSTEPS, qdev inflight at the end: ${QINFL:-none}"
echo "STRESS-SUMMARY: $summary"

# A run that did nothing cannot pass.
for c in "$(f1 "$knobs")" "$(get sched)" "$(get flip)" "$(get power)" \
	"$(f1 "$(get fio_vda)")" "$(f1 "$(get fio_qd)")" "$(get rd_vda)" \
	"$(get rd_qd)" "$(f1 "$(get bgw_vda)")" "$(f1 "$(get bgw_qd)")" \
	"$(($(f1 "$(get hog)") + $(f2 "$(get hog)")))" "$PSWPOUT" "$(f2 "$(get cgw_a)")" "$(f2 "$(get cgw_b)")" \
	"$(get weights)" "$(f1 "$(get fio_dl)")" "$(f1 "$(get fio_dc)")" \
	"$(f1 "$(get bgw_dl)")" "$(f1 "$(get dcw)")"; do
	[ "${c:-0}" -gt 0 ] || { fail "an operation count is zero: $summary"; break; }
done
{
	echo "$summary"
	[ -s "$S/fails" ] && cat "$S/fails"
} >"$S/summary"
send_file "$S/summary" stress-summary.txt
if [ -s "$S/fails" ]; then
	echo "STRESS: FAIL ($(wc -l <"$S/fails") problems)"
	exit 1
fi
echo "STRESS: PASS"
