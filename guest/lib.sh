# shellcheck shell=sh
# Helpers for scripts that run inside the test guest (busybox sh).

# send_file PATH [NAME]: copy a file back to the host over the console;
# scripts/vm-run.sh -o DIR writes it to DIR/NAME.
send_file() {
	echo "WBT-FILE-BEGIN ${2:-$(basename "$1")}"
	base64 "$1"
	echo "WBT-FILE-END"
}

# Request-based disks other than null_blk and zram, as sysfs names.
guest_disks() {
	for d in /sys/block/*; do
		d=${d##*/}
		case $d in
		loop* | ram* | zram* | nullb*) continue ;;
		esac
		[ -e "/sys/block/$d/mq" ] && echo "$d"
	done
}

# What driver family a disk belongs to: virtio, scsi, ahci, ide, nvme.
disk_kind() {
	p=$(readlink -f "/sys/block/$1/device" 2>/dev/null)
	case $1 in
	vd*) echo virtio ;;
	nvme*) echo nvme ;;
	sd*)
		case $p in
		*/virtio*) echo scsi ;;
		*/ata*)
			if [ -e "$(echo "$p" | sed 's,/ata[0-9]*/.*,,')/driver" ] &&
				readlink "$(echo "$p" | sed 's,/ata[0-9]*/.*,,')/driver" | grep -q ahci; then
				echo ahci
			else
				echo ide
			fi
			;;
		*) echo unknown ;;
		esac
		;;
	*) echo unknown ;;
	esac
}
