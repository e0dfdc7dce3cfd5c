#!/bin/sh
# shellcheck shell=sh
# Benchmark workloads W1..W10 inside the test guest (busybox sh).
#
# Run by bench/run.py through scripts/vm-run.sh: this file and bench.env
# (the parameters, key=value) are copied into the guest's /run/.  Every
# result goes back to the host with send_file: results.txt (one line per
# measurement), meta.txt (kernel, memory, dirty limits, device settings)
# and the fio JSON outputs (gzipped).  Progress lines start with "BENCH:".
. /guest/lib.sh
. /run/bench.env

OUT=/tmp/bench-out
MNT=/mnt
mkdir -p "$OUT"
: >"$OUT/results.txt"
: >"$OUT/meta.txt"

say() { echo "BENCH: $*"; }
# Seconds since boot with centisecond resolution.
now() { cut -d' ' -f1 /proc/uptime; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
meta() { echo "$*" >>"$OUT/meta.txt"; }
result() { echo "$*" >>"$OUT/results.txt"; }
drop_caches() { sync; echo 3 >/proc/sys/vm/drop_caches; }

# ---------------------------------------------------------------------------
# Memory and dirty limits: set explicitly, recorded.
echo "$DIRTY_BYTES" >/proc/sys/vm/dirty_bytes
echo "$DIRTY_BG_BYTES" >/proc/sys/vm/dirty_background_bytes
meta "kernel=$(uname -r)"
meta "version=$(cat /proc/version)"
meta "mem_kb=$(awk '/^MemTotal/ {print $2}' /proc/meminfo)"
meta "cpus=$(nproc)"
meta "dirty_bytes=$(cat /proc/sys/vm/dirty_bytes)"
meta "dirty_background_bytes=$(cat /proc/sys/vm/dirty_background_bytes)"
# KNOB_MODE: off (wb_lat_usec=0), default (left alone) or set:USEC.
case $KNOB_MODE in
off | default) ;;
set:*[!0-9]* | set:) say "ERROR: bad KNOB_MODE '$KNOB_MODE'"; exit 1 ;;
set:*) ;;
*) say "ERROR: bad KNOB_MODE '$KNOB_MODE'"; exit 1 ;;
esac
meta "knob_mode=$KNOB_MODE"
meta "fio=$(fio --version)"

VIRTIO=$(find_disk virtio)
[ -n "$VIRTIO" ] || { say "ERROR: no virtio-blk disk in the guest"; exit 1; }

# ---------------------------------------------------------------------------
# Devices.  The queueing null_blk ("qdev") profiles are the kselftests'
# table (tools/testing/selftests/wbt/qdev_profiles, through make_qdev of
# their wbt_lib.sh, which guest/lib.sh sources); the bench only sets the
# size.

# qdev_create PROFILE [NAME]: create a null_blk device of PROFILE (a line
# of qdev_profiles) named NAME [bench_PROFILE] and print its disk name,
# of QDEV_MB MiB if set.  Returns 2 when the kernel's null_blk has no FIFO
# latency model (the profile needs it), 1 on other errors.
qdev_create() {
	case $1 in
	fast) size=4096 ;;
	*) size=2048 ;;
	esac
	size=${QDEV_MB:-$size}
	make_qdev "${2:-bench_$1}" "$1" size="$size" >&2
	rc=$?
	if [ "$rc" -ne 0 ]; then
		[ "$rc" = 2 ] || say "ERROR: null_blk $1: $WBT_ERR" >&2
		return "$rc"
	fi
	echo "$QDEV"
}

# qdev_destroy NAME: remove the null_blk device NAME, if it exists.
qdev_destroy() {
	cfg=$NULLB_CFG/$1
	[ -d "$cfg" ] || return 0
	echo 0 >"$cfg/power" 2>/dev/null
	rmdir "$cfg"
}

# qdev_record PROFILE: the device's configfs attributes into meta.txt.
qdev_record() {
	cfg=$NULLB_CFG/bench_$1
	for a in "$cfg"/*; do
		case ${a##*/} in power | badblocks) continue ;; esac
		[ -f "$a" ] || continue
		meta "qdev.$1.${a##*/}=$(cat "$a" 2>/dev/null)"
	done
}

knob_file() {
	q=/sys/block/$1/queue
	if [ -e "$q/wb_lat_usec" ]; then
		echo "$q/wb_lat_usec"
	elif [ -e "$q/wbt_lat_usec" ]; then
		echo "$q/wbt_lat_usec"
	fi
}

# qdev_has_fifo: does this kernel's null_blk have the FIFO latency model?
qdev_has_fifo() {
	[ -d "$NULLB_CFG" ] || modprobe null_blk nr_devices=0 2>/dev/null
	grep -q fifo_bw_mbps "$NULLB_CFG/features" 2>/dev/null
}
if qdev_has_fifo; then HAVE_FIFO=1; else HAVE_FIFO=0; fi
meta "qdev_fifo_model=$HAVE_FIFO"

QDEV_NOTED=" "

# devs LIST: the devices a workload runs on.  A queueing profile the kernel
# cannot provide is replaced by virtio-blk (said loudly), without running
# the same device twice.
devs() {
	seen=" "
	for d; do
		case $d in
		virtio | fast) ;;
		*)
			if [ "$HAVE_FIFO" = 0 ]; then
				case $QDEV_NOTED in
				*" $d "*) ;;
				*)
					say "NOTE: qdev '$d' UNAVAILABLE: this kernel's null_blk has no FIFO" \
						"latency model (no fifo_bw_mbps attribute); using virtio-blk instead" >&2
					meta "qdev.$d=unavailable"
					QDEV_NOTED="$QDEV_NOTED$d "
					;;
				esac
				d=virtio
			fi
			;;
		esac
		case $seen in
		*" $d "*) continue ;;
		esac
		seen="$seen$d "
		echo "$d"
	done
}

# knob_apply DISK: apply the throttling mode to DISK; KV says what the
# knob reads back ("absent" when the kernel has none there).
knob_apply() {
	k=$(knob_file "$1")
	if [ -z "$k" ]; then
		case $QDEV_NOTED in
		*" knob-$LABEL "*) ;;
		*)
			say "NOTE: $1 has no wb_lat_usec/wbt_lat_usec knob"
			QDEV_NOTED="${QDEV_NOTED}knob-$LABEL "
			;;
		esac
		KV=absent
		return 0
	fi
	case $KNOB_MODE in
	off) echo 0 >"$k" ;;
	set:*)
		# The value read back below goes into the report.
		echo "${KNOB_MODE#set:}" >"$k" ||
			{ say "ERROR: $1: writing ${KNOB_MODE#set:} to ${k##*/} failed"; fails=$((fails + 1)); }
		;;
	esac
	KV="${k##*/}=$(cat "$k")"
}

# dev_open REQUESTED: set DEV (sysfs name) and LABEL (what is measured:
# the profile, or "virtio" when the qdev is unavailable), apply the
# throttling mode and record the device.  REQUESTED PROFILE+STACK (W9)
# builds STACK over the profile's disk (stack_open): the knob is set on
# the disk(s) below, DEV is the top device, LABEL is PROFILE+STACK.
# Returns 1 if the device is unusable.
dev_open() {
	req=${1%%+*}
	STACK=
	case $1 in *+*) STACK=${1#*+} ;; esac
	DEV="" LABEL=""
	case $req in
	virtio) DEV=$VIRTIO LABEL=virtio ;;
	*)
		DEV=$(qdev_create "$req")
		rc=$?
		if [ "$rc" != 0 ] || [ -z "$DEV" ]; then
			say "ERROR: cannot create null_blk profile '$req'"
			return 1
		else
			LABEL=$req
			meta "qdev.$req=available"
			qdev_record "$req"
		fi
		;;
	esac
	wait_node "$DEV"
	knob_apply "$DEV"
	q=/sys/block/$DEV/queue
	meta "dev.$LABEL=$DEV $KV rotational=$(cat "$q/rotational") nr_requests=$(cat "$q/nr_requests")" \
		"write_cache=$(tr ' ' _ <"$q/write_cache") scheduler=$(sed 's/.*\[\(.*\)\].*/\1/' "$q/scheduler")" \
		"max_sectors_kb=$(cat "$q/max_sectors_kb")"
	idle_read
	[ -z "$STACK" ] && return 0
	if [ "$LABEL" != "$req" ] || [ "$req" = virtio ]; then
		say "ERROR: $1: a stack needs a queueing null_blk profile"
		dev_close
		return 1
	fi
	stack_open "$req" || { dev_close; return 1; }
}

wait_node() {
	i=0
	while [ ! -b "/dev/$1" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# stack_open PROFILE: build STACK over DEV, the profile's disk: dm-linear
# (LVM's mapping), dm-crypt through cryptsetup's plain mode with the null
# cipher (dm-crypt's threads without the cost of AES under TCG) or
# aes-xts-plain64 (a laptop's LUKS), or an md raid1 of DEV and a second
# disk of the profile.  On success DEV is the top device and LABEL
# PROFILE+STACK; BOTTOM holds the disk(s) below.
W9_NAME=bench_w9
stack_open() {
	prof=$1 BOTTOM=$DEV
	export DM_DISABLE_UDEV=1
	case $STACK in
	bare) top=$DEV ;;
	linear)
		dm_make "$W9_NAME" "0 $(cat "/sys/block/$DEV/size") linear /dev/$DEV 0" ||
			{ say "ERROR: $LABEL+$STACK: $WBT_ERR"; return 1; }
		top=$DMDEV
		;;
	crypt_null | crypt_aes)
		command -v cryptsetup >/dev/null || { say "ERROR: cryptsetup not installed"; return 1; }
		if [ "$STACK" = crypt_null ]; then
			set -- --cipher cipher_null-ecb --key-size 0 --keyfile-size 0
		else
			set -- --cipher aes-xts-plain64 --key-size 512 --keyfile-size 64
		fi
		# plain: no header, the key read from the file as it is.
		wbt_timeout 60 cryptsetup open --type plain --batch-mode --disable-locks \
			--key-file /dev/zero "$@" "/dev/$DEV" "$W9_NAME" >/tmp/crypt.err 2>&1 ||
			{ say "ERROR: $LABEL+$STACK: cryptsetup open: $(cat /tmp/crypt.err)"; return 1; }
		top=$(dmsetup info -c --noheadings -o blkdevname "$W9_NAME" 2>/dev/null)
		;;
	raid1)
		d2=$(qdev_create "$prof" "bench_${prof}_2") || return 1
		wait_node "$d2"
		knob_apply "$d2"
		BOTTOM="$DEV $d2"
		# No bitmap and no resync: the array's writes are the
		# workload's, and the array starts clean.
		wbt_timeout 120 mdadm --create "/dev/md/$W9_NAME" --run --quiet --level=1 \
			--raid-devices=2 --metadata=1.2 --bitmap=none --assume-clean \
			"/dev/$DEV" "/dev/$d2" >/tmp/md.err 2>&1 ||
			{ say "ERROR: $LABEL+raid1: mdadm --create: $(cat /tmp/md.err)"; return 1; }
		top=$(readlink -f "/dev/md/$W9_NAME")
		top=${top##*/}
		;;
	*) say "ERROR: unknown stack '$STACK'"; return 1 ;;
	esac
	wait_node "$top"
	if [ -z "$top" ] || [ ! -b "/dev/$top" ]; then
		say "ERROR: $LABEL+$STACK: no top device"
		return 1
	fi
	DEV=$top
	LABEL=$prof+$STACK
	meta "dev.$LABEL=$DEV over $BOTTOM $KV"
}

stack_close() {
	case $STACK in
	'' | bare) return 0 ;;
	raid1)
		if [ -e "/dev/md/$W9_NAME" ]; then
			wbt_timeout 120 mdadm --stop "/dev/md/$W9_NAME" >/dev/null 2>&1 ||
				say "ERROR: mdadm --stop $W9_NAME failed"
		fi
		# Without udev nobody else removes mdadm's link.
		rm -f "/dev/md/$W9_NAME"
		for _b in $BOTTOM; do
			mdadm --zero-superblock "/dev/$_b" >/dev/null 2>&1
		done
		qdev_destroy "bench_${LABEL%%+*}_2"
		;;
	*)
		dmsetup info "$W9_NAME" >/dev/null 2>&1 || return 0
		dm_remove "$W9_NAME" || say "ERROR: dmsetup remove $W9_NAME failed"
		;;
	esac
}

# idle_read: the unloaded read latency of DEV, once per device and boot,
# before anything else runs on it: 4k O_DIRECT random reads at queue depth
# 1, for the floor of the report (bench/README.md).
IDLE_DONE=" "
idle_read() {
	case " $LABEL $IDLE_DONE" in " fast "* | " $LABEL "*" $LABEL "*) return 0 ;; esac
	IDLE_DONE="$IDLE_DONE$LABEL "
	fio --name=idle --filename="/dev/$DEV" --rw=randread --bs=4k --direct=1 \
		--ioengine=psync --size=256m --time_based --runtime="$IDLE_RUNTIME" \
		--percentile_list=50:90:99:99.9 --output-format=json \
		--output="/tmp/idle-$LABEL.json" >/dev/null 2>&1 ||
		{ say "ERROR: idle read on $LABEL failed"; fails=$((fails + 1)); return 0; }
	keep_json "/tmp/idle-$LABEL.json" "idle-$LABEL"
	result "IDLE dev=$LABEL json=idle-$LABEL.json.gz"
	say "IDLE $LABEL: unloaded 4k reads for ${IDLE_RUNTIME}s done"
}

dev_close() {
	stack_close
	case $LABEL in
	virtio) ;;
	*) qdev_destroy "bench_${LABEL%%+*}" ;;
	esac
	STACK=
}

# fs_make [MOUNT OPTIONS]: fresh ext4 on DEV, mounted on MNT.  Inode tables
# and the journal are written by mkfs, so no lazy-init thread writes in the
# background during a measurement.  FS=xfs makes XFS instead.
fs_make() {
	if [ "${FS:-ext4}" = xfs ]; then
		mkfs.xfs -q -f -K "/dev/$DEV" || { dev_close; return 1; }
	else
		mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0,nodiscard "/dev/$DEV" ||
			{ dev_close; return 1; }
	fi
	if [ -n "${1:-}" ]; then
		mount -o "$1" "/dev/$DEV" "$MNT" || { dev_close; return 1; }
	else
		mount "/dev/$DEV" "$MNT" || { dev_close; return 1; }
	fi
}

fs_done() {
	umount "$MNT"
	dev_close
}

# rtag W: the tag of a result line of workload W's code: "W9 sub=W" when
# it runs for W9 (through a stack), else W.
rtag() {
	if [ "$WL" = W9 ]; then echo "W9 sub=$1"; else echo "$1"; fi
}

# send_json FILE NAME: gzip a fio JSON output for send_file.
keep_json() {
	gzip -c "$1" >"$OUT/$2.json.gz"
}

# ---------------------------------------------------------------------------
# stat_line: uptime and the device's /sys/block/X/stat, summed over the
# disks below a stack (BOTTOM): the disks the throttle acts on, so that
# raid1's rates count both mirrors' writes.
stat_line() {
	# shellcheck disable=SC2086 # BOTTOM is a list of disk names
	if [ -n "$STACK" ]; then set -- $BOTTOM; else set -- "$DEV"; fi
	for _s; do cat "/sys/block/$_s/stat"; done |
		awk -v t="$(now)" '{ for (i = 1; i <= NF; i++) s[i] += $i; n = NF }
			END { printf "%s", t; for (i = 1; i <= n; i++) printf " %d", s[i]; print "" }'
}

# ---------------------------------------------------------------------------
# W1: buffered streaming writer (dd bs=1M, W1_WRITE_MB per pass, rewriting
# the same file) against a reader of a cold file (fio, buffered psync reads
# of W1_BS, every read timed).  The writer starts 2 s early and runs passes
# until the reader is done.
w1() {
	dev_open "$1" || return 1
	fs_make || return 1
	rep=$2
	say "W1 $LABEL rep $rep: cold file ${W1_READ_MB} MiB, writer passes of ${W1_WRITE_MB} MiB"
	dd if=/dev/zero of="$MNT/rfile" bs=1M count="$W1_READ_MB" 2>/dev/null
	dd if=/dev/zero of="$MNT/wfile" bs=1M count="$W1_WRITE_MB" 2>/dev/null
	[ "$WL" = W9 ] && dd if=/dev/zero of="$MNT/sfile" bs=4k count=16 2>/dev/null
	drop_caches
	rm -f /tmp/w1.stop
	(
		n=0
		t0=$(now)
		while [ ! -e /tmp/w1.stop ]; do
			dd if=/dev/zero of="$MNT/wfile" bs=1M count="$W1_WRITE_MB" conv=notrunc \
				2>/dev/null || break
			n=$((n + 1))
		done
		sync
		t1=$(now)
		echo "$n $(elapsed "$t0" "$t1")" >/tmp/w1.writer
	) &
	wpid=$!
	# The device's sector counts, twice a second, for rates over the same
	# window in every configuration (the report picks the window).
	: >/tmp/w1.stat
	(
		while [ ! -e /tmp/w1.stop ]; do
			stat_line >>/tmp/w1.stat
			sleep 0.5
		done
	) &
	spid=$!
	sleep 2
	# W9 adds a small file's 4 KiB write + fsync four times a second, for
	# W1_RUNTIME from the reader's start whenever the reader ends, with the
	# writer running: the journal commits and sync writes that must not
	# queue behind throttled writeback (dm-crypt).
	ppid=
	if [ "$WL" = W9 ]; then
		fio --name=fsync --filename="$MNT/sfile" --rw=write --bs=4k --size=64k --fsync=1 \
			--rate_iops=4 --ioengine=psync --time_based --runtime="$W1_RUNTIME" \
			--percentile_list=50:90:99:99.9 --output-format=json \
			--output=/tmp/w1f.json >/dev/null 2>/tmp/w1f.err &
		ppid=$!
	fi
	r0=$(now)
	fio --name=reader --filename="$MNT/rfile" --rw=read --bs="$W1_BS" --ioengine=psync \
		--invalidate=1 --size="${W1_READ_MB}m" --runtime="$W1_RUNTIME" \
		--percentile_list=1:5:10:25:50:75:90:95:99:99.5:99.9:99.99:99.999 \
		--write_lat_log=/tmp/w1lat --log_avg_msec=0 \
		--output-format=json+ --output=/tmp/w1.json >/dev/null 2>/tmp/w1.err ||
		{ say "ERROR: W1 fio failed: $(cat /tmp/w1.err)"; touch /tmp/w1.stop; wait; fs_done; return 1; }
	# The counters at the reader's end, for the report's common window.
	stat_line >>/tmp/w1.stat
	r1=$(now)
	fsync=
	if [ -n "$ppid" ]; then
		if wait "$ppid"; then
			keep_json /tmp/w1f.json "w1f-$LABEL-r$rep"
			fsync=" fsync=w1f-$LABEL-r$rep.json.gz"
		else
			say "ERROR: W1 fsync probe failed: $(cat /tmp/w1f.err)"
			fails=$((fails + 1))
		fi
	fi
	touch /tmp/w1.stop
	wait "$wpid"
	wait "$spid"
	read -r passes wsecs </tmp/w1.writer
	keep_json /tmp/w1.json "w1-$LABEL-r$rep"
	gzip -c /tmp/w1.stat >"$OUT/w1stat-$LABEL-r$rep.txt.gz"
	# When the slowest reads happened (ms since the reader started: a
	# transient at the start, or spread over the run?).
	slow=$(sort -t, -k2,2nr /tmp/w1lat_clat.1.log 2>/dev/null | head -5 |
		awk -F', *' '{ printf "%s%d:%.0f", (NR > 1 ? "," : ""), $1, $2 / 1000 }')
	rm -f /tmp/w1lat_*.log
	[ "$WL" = W9 ] || result "W1SLOW dev=$LABEL rep=$rep at_ms_lat_us=${slow:-none}"
	result "$(rtag W1) dev=$LABEL rep=$rep json=w1-$LABEL-r$rep.json.gz read_secs=$(elapsed "$r0" "$r1")" \
		"write_mb=$((passes * W1_WRITE_MB)) write_secs=$wsecs r0=$r0 r1=$r1" \
		"stat=w1stat-$LABEL-r$rep.txt.gz$fsync"
	say "W1 $LABEL rep $rep: done (reader $(elapsed "$r0" "$r1") s, writer $passes passes in $wsecs s)"
	fs_done
}

# ---------------------------------------------------------------------------
# W2: Jan Kara's dd bs=1M of a large file, with and without conv=fsync, on
# ext4 and ext4 -o nodelalloc,data=ordered, on a QD=32 and a QD=1 device.
w2() {
	for fs in ext4 ext4-ordered; do
		for fsync in 0 1; do
			dev_open "$1" || return 1
			opts=""
			[ "$fs" = ext4-ordered ] && opts=nodelalloc,data=ordered
			fs_make "$opts" || return 1
			conv=""
			[ "$fsync" = 1 ] && conv=conv=fsync
			drop_caches
			t0=$(now)
			# shellcheck disable=SC2086 # conv is one word or empty
			dd if=/dev/zero of="$MNT/big" bs=1M count="$W2_MB" $conv 2>/dev/null
			t1=$(now)
			result "W2 dev=$LABEL fs=$fs fsync=$fsync mb=$W2_MB secs=$(elapsed "$t0" "$t1")"
			say "W2 $LABEL $fs fsync=$fsync: $W2_MB MiB in $(elapsed "$t0" "$t1") s"
			fs_done
		done
	done
}

# ---------------------------------------------------------------------------
# W3/W4: Jan Kara's fio jobs from the seed thread, sizes scaled to the guest.
# W3: 4 random buffered writers with fdatasync=256 + a random reader over 20
# files switching file every 16 IOs.  W4: one random writer of 2x guest RAM
# + the same reader, 3 s ramp.
fio_jan() {
	w=$1
	job=/tmp/$w.fio
	{
		echo "[global]"
		echo "direct=0"
		echo "ioengine=sync"
		echo "runtime=$JAN_RUNTIME"
		echo "time_based"
		echo "invalidate=1"
		echo "blocksize=4096"
		echo "group_reporting=1"
		echo "directory=$MNT"
		echo "percentile_list=1:5:10:25:50:75:90:95:99:99.9:99.99"
		[ "$w" = W4 ] && echo "ramp_time=3"
		echo "[writer]"
		echo "nrfiles=1"
		if [ "$w" = W3 ]; then
			echo "filesize=${W3_WFILE_MB}m"
			echo "size=${W3_WFILE_MB}m"
			echo "fdatasync=256"
			echo "numjobs=4"
		else
			echo "filesize=$(($(awk '/^MemTotal/ {print $2}' /proc/meminfo) * 2))k"
		fi
		echo "readwrite=randwrite"
		echo "[reader]"
		echo "new_group"
		echo "filesize=${JAN_RFILE_MB}m"
		echo "size=$((JAN_RFILE_MB * 20))m"
		echo "nrfiles=20"
		echo "file_service_type=random:16"
		echo "readwrite=randread"
	} >"$job"
	cp "$job" "$OUT/$w.fio"
}

w34() {
	w=$1
	dev_open "$2" || return 1
	fs_make || return 1
	fio_jan "$w"
	say "$w $LABEL: fio ${JAN_RUNTIME}s"
	fio --output-format=json+ --output="/tmp/$w.json" "/tmp/$w.fio" >/dev/null 2>"/tmp/$w.err" ||
		{ say "ERROR: $w fio failed: $(cat "/tmp/$w.err")"; fs_done; return 1; }
	keep_json "/tmp/$w.json" "$(echo "$w" | tr W w)-$LABEL"
	result "$w dev=$LABEL json=$(echo "$w" | tr W w)-$LABEL.json.gz"
	say "$w $LABEL: done"
	fs_done
}

# ---------------------------------------------------------------------------
# W11: a reader that comes and goes.  One 4 KiB O_DIRECT read, then a pause
# longer than a window, next to a buffered writer slower than the device:
# it is never dirty throttled, so its writeback is what nobody waits for,
# and every read may find the reads of the last one forgotten.
w11() {
	dev_open "$1" || return 1
	fs_make || return 1
	# Laid out and written back first, so the run starts with no backlog.
	dd if=/dev/zero of="$MNT/rfile" bs=1M count=64 2>/dev/null
	sync
	job=/tmp/W11.fio
	{
		echo "[global]"
		echo "ioengine=psync"
		echo "runtime=$W11_SECS"
		echo "time_based"
		echo "blocksize=4096"
		echo "directory=$MNT"
		echo "percentile_list=25:50:75:90:99"
		echo "[writer]"
		echo "filename=wfile"
		echo "readwrite=write"
		echo "blocksize=1m"
		echo "size=128m"
		echo "rate=${W11_RATE_KB}k"
		echo "[reader]"
		echo "new_group"
		echo "filename=rfile"
		echo "direct=1"
		echo "size=64m"
		echo "readwrite=randread"
		echo "thinktime=${W11_THINK_MS}ms"
	} >"$job"
	cp "$job" "$OUT/W11.fio"
	say "W11 $LABEL: fio ${W11_SECS}s"
	fio --output-format=json+ --output=/tmp/W11.json "$job" >/dev/null 2>/tmp/W11.err ||
		{ say "ERROR: W11 fio failed: $(cat /tmp/W11.err)"; fs_done; return 1; }
	keep_json /tmp/W11.json "w11-$LABEL"
	result "W11 dev=$LABEL json=w11-$LABEL.json.gz"
	say "W11 $LABEL: done"
	fs_done
}

# ---------------------------------------------------------------------------
# W5: dbench (loadfile client.txt, sent gzipped).  One argument per
# cell: DEVICE:FS:CLIENTS, e.g. hdd:ext4:1 or ssd:xfs:4.
w5() {
	if [ ! -f /tmp/client.txt ]; then
		gunzip -c /run/client.txt.gz >/tmp/client.txt ||
			{ say "ERROR: no dbench loadfile"; return 1; }
	fi
	IFS=: read -r d FS n <<EOC
$1
EOC
	dev_open "$d" || return 1
	fs_make || { FS=; return 1; }
	say "W5 $LABEL $FS: dbench $n client(s), ${W5_TIME}s"
	dbench -c /tmp/client.txt -D "$MNT" -t "$W5_TIME" "$n" >/tmp/dbench.out 2>&1
	tp=$(sed -n 's/^ *Throughput \([0-9.]*\) MB\/sec.*/\1/p' /tmp/dbench.out | tail -n1)
	ml=$(sed -n 's/.*max_latency=\([0-9.]*\) ms.*/\1/p' /tmp/dbench.out | tail -n1)
	[ -n "$tp" ] || { say "ERROR: dbench: $(tail -n3 /tmp/dbench.out)"; FS=; fs_done; return 1; }
	result "W5 dev=$LABEL fs=$FS clients=$n mbps=$tp max_latency_ms=${ml:-nan}"
	say "W5 $LABEL $FS: $n client(s): $tp MB/s"
	FS=
	fs_done
}

# ---------------------------------------------------------------------------
# W7 (seed 003): "cp bigfile bigfile.out" in a loop against an application
# start: reading a cold tree of small files of mixed sizes and their
# metadata (du, then every file), W7_STARTS times on the idle file system,
# then W7_STARTS times under the copy loop.  Caches are dropped before each
# start without sync (the tree is clean; a sync would wait for the copy).
w7_start() {
	echo 3 >/proc/sys/vm/drop_caches
	t0=$(now)
	du -s "$MNT/app" >/dev/null
	find "$MNT/app" -type f -exec cat {} + >/dev/null
	elapsed "$t0" "$(now)"
}

w7() {
	QDEV_MB=$W7_DEV_MB
	dev_open "$1"
	rc=$?
	QDEV_MB=
	[ "$rc" = 0 ] || return 1
	fs_make || return 1
	say "W7 $LABEL: tree of $W7_FILES files, bigfile ${W7_BIG_MB} MiB"
	i=0
	while [ "$i" -lt "$W7_FILES" ]; do
		dir=$MNT/app/d$((i % 16))
		[ -d "$dir" ] || mkdir -p "$dir"
		# Sizes 1 KiB to 256 KiB, skewed small, as icons and thumbnails.
		kb=$(( (i * 7919 % 97) * (i * 7919 % 97) / 36 + 1 ))
		dd if=/dev/zero of="$dir/f$i" bs=1k count="$kb" 2>/dev/null
		i=$((i + 1))
	done
	dd if=/dev/zero of="$MNT/bigfile" bs=1M count="$W7_BIG_MB" 2>/dev/null
	sync
	idle="" busy=""
	k=0
	while [ "$k" -lt "$W7_STARTS" ]; do
		idle="$idle${idle:+,}$(w7_start)"
		k=$((k + 1))
	done
	rm -f /tmp/w7.stop
	(
		while [ ! -e /tmp/w7.stop ]; do
			cp "$MNT/bigfile" "$MNT/bigfile.out" || break
		done
	) &
	cpid=$!
	sleep 3
	k=0
	while [ "$k" -lt "$W7_STARTS" ]; do
		busy="$busy${busy:+,}$(w7_start)"
		k=$((k + 1))
	done
	touch /tmp/w7.stop
	wait "$cpid"
	result "W7 dev=$LABEL idle=$idle busy=$busy"
	say "W7 $LABEL: start idle $idle s, under the copy $busy s"
	fs_done
}

# ---------------------------------------------------------------------------
# W8 (seed 000, exactly): read-to-pipe-async reads a cold file in 4 KiB
# reads and writes every block to a new file on the same file system,
# timing each read: the read rate is the write rate.
w8() {
	dev_open "$1" || return 1
	fs_make || return 1
	say "W8 $LABEL: read-to-pipe-async of a cold ${W8_MB} MiB file"
	dd if=/dev/zero of="$MNT/src" bs=1M count="$W8_MB" 2>/dev/null
	drop_caches
	/run/read-to-pipe-async -f "$MNT/src" >"$MNT/src.new" 2>/tmp/w8.out ||
		{ say "ERROR: W8: $(tail -n2 /tmp/w8.out)"; fs_done; return 1; }
	line=$(sed -n 's/^RTPA //p' /tmp/w8.out)
	[ -n "$line" ] || { say "ERROR: W8: no RTPA line"; fs_done; return 1; }
	result "$(rtag W8) dev=$LABEL $line"
	say "W8 $LABEL: $(grep '^Read rate' /tmp/w8.out)"
	fs_done
}

# ---------------------------------------------------------------------------
# W10 (seed 004): buffered writers in cgroups of different io.weight.  Each
# phase runs writers of 64 MiB files in a loop (fio, bs=1M) and a reader in
# the heavy cgroup (4k O_DIRECT random reads at queue depth 1 of a 64 MiB
# file); the bytes each cgroup wrote to the device come from io.stat over
# W10_SECS after W10_WARMUP, the reader's latencies over the same window.
# Phases: "single", the light cgroup's writer alone; "equal", both writers
# at weight 100; "weighted", the heavy one at 1000 and the light at 100.
w10_phase() {
	hw=1000
	[ "$1" = equal ] && hw=100
	if ! cg_make w10h "$hw" || ! cg_make w10l 100; then
		say "ERROR: W10: $WBT_ERR"
		rmdir "$WBT_CG/w10h" "$WBT_CG/w10l" 2>/dev/null
		return 1
	fi
	run=$((W10_WARMUP + W10_SECS))
	pids=
	for g in l h; do
		[ "$1" = single ] && [ $g = h ] && continue
		cg_bg "w10$g" fio --name=w --filename="$MNT/w$g-$1" --rw=write --bs=1M --thread \
			--size=64m --ioengine=psync --end_fsync=0 --time_based \
			--runtime="$run"
		pids="$pids $WBT_LASTPID"
	done
	cg_bg w10h fio --name=reader --filename="$MNT/rfile" --rw=randread --bs=4k --thread \
		--direct=1 --ioengine=psync --size=64m --time_based --runtime="$run" \
		--ramp_time="$W10_WARMUP" --percentile_list=50:99:99.9 \
		--output-format=json --output="/tmp/w10-$LABEL-$1.json"
	rpid=$WBT_LASTPID
	sleep "$W10_WARMUP"
	h0=$(cg_wbytes w10h "$majmin") l0=$(cg_wbytes w10l "$majmin")
	sleep "$W10_SECS"
	h=$(($(cg_wbytes w10h "$majmin") - h0)) l=$(($(cg_wbytes w10l "$majmin") - l0))
	# shellcheck disable=SC2086
	wait_pids 120 $pids $rpid || say "ERROR: W10 $LABEL $1: fio still running"
	# shellcheck disable=SC2086
	wait $pids $rpid
	# Write back the phase's last dirty pages while their cgroups exist.
	sync
	rm -f "$MNT/wl-$1" "$MNT/wh-$1"
	rmdir "$WBT_CG/w10h" "$WBT_CG/w10l" || say "ERROR: W10: cannot remove its cgroups"
	[ -s "/tmp/w10-$LABEL-$1.json" ] || { say "ERROR: W10 $LABEL $1: no reader output"; return 1; }
	keep_json "/tmp/w10-$LABEL-$1.json" "w10-$LABEL-$1"
	result "W10 dev=$LABEL phase=$1 heavy=$h light=$l secs=$W10_SECS json=w10-$LABEL-$1.json.gz"
	say "W10 $LABEL $1: heavy $((h >> 20)) MiB, light $((l >> 20)) MiB in ${W10_SECS}s"
}

w10() {
	dev_open "$1" || return 1
	fs_make noatime || return 1
	cg_setup || { say "ERROR: W10: $WBT_ERR"; fs_done; return 1; }
	majmin=$(cat "/sys/block/$DEV/dev")
	# The writers' files are new in each phase, created by the writer in
	# its cgroup: a page's writeback is charged to the cgroup that owns the
	# inode, and an inode written before by another cgroup (the root's dd,
	# or the previous phase's cgroup, dying but alive while the inode is)
	# is charged there until writeback switches it over, seconds later.
	dd if=/dev/zero of="$MNT/rfile" bs=1M count=64 2>/dev/null
	sync
	say "W10 $LABEL: phases single, equal, weighted, ${W10_WARMUP}+${W10_SECS}s each"
	rc=0
	for ph in single equal weighted; do
		w10_phase "$ph" || rc=1
	done
	fs_done
	return $rc
}

# ---------------------------------------------------------------------------
# W9 (issue 17): W1 and W8 through the stacks of W9_STACKS over each
# profile of W9_DEVS: "bare" (the disk itself, this boot's reference),
# dm-linear, dm-crypt with the null cipher and with aes-xts-plain64
# (cryptsetup plain), md raid1 of two disks of the profile.  The knob is
# set on the disks below, and the device rates are theirs (stat_line); W1
# gains a small file's fsync four times a second.  md keeps its default
# safe_mode_delay: its superblock writes on going idle are part of raid1.
# The stacks run in W9_STACKS's order, which run.py shuffles per boot.  Stacks need the queueing
# profiles: without the FIFO model W9 fails rather than run on virtio.
# (The shell's variables are global: the loop's are W9's own.)
w9() {
	w9_rc=0
	for w9_d in $W9_DEVS; do
		case $w9_d in
		virtio | fast)
			say "ERROR: W9 needs queueing profiles, not $w9_d"
			w9_rc=1
			continue
			;;
		esac
		if [ "$HAVE_FIFO" = 0 ]; then
			say "ERROR: W9 $w9_d: this kernel's null_blk has no FIFO latency model"
			w9_rc=1
			continue
		fi
		for w9_st in $W9_STACKS; do
			w1 "$w9_d+$w9_st" 1 || w9_rc=1
			w8 "$w9_d+$w9_st" || w9_rc=1
		done
	done
	return "$w9_rc"
}

# ---------------------------------------------------------------------------
# W6: overhead on a fast null_blk (no queueing model): O_DIRECT 4k random
# writes, and buffered 1M sequential writes through the block device's page
# cache (the writeback path wbt throttles).
w6() {
	dev_open fast || { say "W6: no fast null_blk, skipped"; return 1; }
	say "W6 $DEV: O_DIRECT 4k randwrite, ${W6_RUNTIME}s"
	fio --name=w6rand --filename="/dev/$DEV" --rw=randwrite --bs=4k --direct=1 \
		--ioengine=psync --size=1g --time_based --runtime="$W6_RUNTIME" \
		--output-format=json --output=/tmp/w6rand.json >/dev/null 2>&1 ||
		{ say "ERROR: W6 randwrite failed"; dev_close; return 1; }
	say "W6 $DEV: buffered 1M sequential writes, ${W6_RUNTIME}s"
	fio --name=w6seq --filename="/dev/$DEV" --rw=write --bs=1M --direct=0 \
		--ioengine=psync --size=2g --time_based --runtime="$W6_RUNTIME" --end_fsync=1 \
		--output-format=json --output=/tmp/w6seq.json >/dev/null 2>&1 ||
		{ say "ERROR: W6 seqwrite failed"; dev_close; return 1; }
	keep_json /tmp/w6rand.json w6-rand
	keep_json /tmp/w6seq.json w6-seq
	result "W6 dev=fast rand=w6-rand.json.gz seq=w6-seq.json.gz"
	say "W6: done"
	dev_close
}

# ---------------------------------------------------------------------------
# Send back what is new in $OUT since the last call, and results.txt and
# meta.txt, which grow: after each workload, so that a boot that dies later
# (the OOM killer, a hang, a panic) still returns the workloads it finished.
# Console messages are held back while the base64 streams are written so
# they cannot interleave with them; dmesg is checked for problems at the
# end.  The host keeps the last copy of a file that arrived whole.
SENT=/tmp/bench-sent
mkdir -p "$SENT"
send_out() {
	lvl=$(cut -f1 /proc/sys/kernel/printk)
	echo 1 >/proc/sys/kernel/printk
	for f in "$OUT"/*; do
		b=${f##*/}
		case $b in
		results.txt | meta.txt) ;;
		*) [ -e "$SENT/$b" ] && continue ;;
		esac
		send_file "$f"
		: >"$SENT/$b"
	done
	echo "$lvl" >/proc/sys/kernel/printk
}

fails=0
for wl in $WORKLOADS; do
	WL=$wl
	wl_t0=$(now)
	wl_fails=$fails
	# shellcheck disable=SC2086 # device lists are space separated
	case $wl in
	W1)
		r=1
		while [ "$r" -le "$GUEST_REPEATS" ]; do
			for d in $(devs $W1_DEVS); do
				w1 "$d" "$r" || fails=$((fails + 1))
			done
			r=$((r + 1))
		done
		;;
	W2) for d in $(devs $W2_DEVS); do w2 "$d" || fails=$((fails + 1)); done ;;
	W3) for d in $(devs $W3_DEVS); do w34 W3 "$d" || fails=$((fails + 1)); done ;;
	W4) for d in $(devs $W4_DEVS); do w34 W4 "$d" || fails=$((fails + 1)); done ;;
	W5)
		for c in $W5_CELLS; do
			d=$(devs "${c%%:*}")
			w5 "$d:${c#*:}" || fails=$((fails + 1))
		done
		;;
	W6) w6 || fails=$((fails + 1)) ;;
	W7) for d in $(devs $W7_DEVS); do w7 "$d" || fails=$((fails + 1)); done ;;
	W8) for d in $(devs $W8_DEVS); do w8 "$d" || fails=$((fails + 1)); done ;;
	W10) for d in $(devs $W10_DEVS); do w10 "$d" || fails=$((fails + 1)); done ;;
	W11) for d in $(devs $W11_DEVS); do w11 "$d" || fails=$((fails + 1)); done ;;
	W9) w9 || fails=$((fails + 1)) ;;
	*) say "ERROR: unknown workload $wl"; fails=$((fails + 1)) ;;
	esac
	t=$(elapsed "$wl_t0" "$(now)")
	say "$wl finished in $t s"
	# ok=1: the workload finished without a failure; bench/run.py keeps
	# such a workload's results from a boot that fails later.
	result "TIME $wl secs=$t ok=$([ "$fails" = "$wl_fails" ] && echo 1 || echo 0)"
	send_out
done

dmesg | tail -n 50 | grep -E 'BUG:|WARNING:|Oops' || true
say "done, $fails failure(s)"
[ "$fails" = 0 ]
