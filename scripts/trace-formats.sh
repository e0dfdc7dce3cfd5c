#!/bin/bash
# The wbt trace events' format files against 6.12's.
#
# Usage: scripts/trace-formats.sh --update   read the formats from the
#                                            unpatched 6.12 kernel (make
#                                            build-upstream) into
#                                            tests/trace-formats/6.12/
#        scripts/trace-formats.sh --check [KERNEL]
#                                            read them from KERNEL (the
#                                            patched VM kernel by default)
#                                            and compare: every line that
#                                            differs must be allowed, with
#                                            its reason, in
#                                            tests/trace-formats/allow
#        scripts/trace-formats.sh --compare GOLDEN-DIR DIR
#                                            only the comparison, of two
#                                            directories of format files
#
# A format file names each field with its type, offset, size and
# signedness, and gives the print format: what perf, trace-cmd and
# bpftrace read.  The allow file has one rule per line, "EVENT PREFIX #
# reason": a line of EVENT's format (EVENT may be "*") that starts with
# PREFIX may differ.  A rule without a reason is refused.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

EVENTS="wbt_stat wbt_lat wbt_step wbt_timer"
GOLDEN=$TOP/tests/trace-formats/6.12
ALLOW=${WBT_TRACE_ALLOW:-$TOP/tests/trace-formats/allow}

usage() {
	sed -n '3,16s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

# read_formats KERNEL DIR: boot KERNEL and copy its wbt format files to DIR
read_formats() {
	local kernel=$1 dir=$2 out
	[ -e "$(kernel_path "$kernel")" ] ||
		die "no kernel '$kernel' at $(kernel_path "$kernel") (make build or make build-upstream)"
	out=$(mktemp -d "$WORK/trace-formats.XXXXXX")
	# shellcheck disable=SC2016 # expanded in the guest
	"$TOP/scripts/vm-run.sh" -q -k "$kernel" -t 300 -n trace-formats -o "$out" -- sh -c '
		. /guest/lib.sh
		T=/sys/kernel/tracing
		[ -d $T/events ] || mount -t tracefs none $T || exit 1
		for e in '"$EVENTS"'; do
			cat $T/events/wbt/$e/format > /tmp/$e.format || exit 1
			send_file /tmp/$e.format
		done'
	mkdir -p "$dir"
	for e in $EVENTS; do
		[ -s "$out/$e.format" ] || die "the guest sent no format of $e"
		cp "$out/$e.format" "$dir/$e.format"
	done
	rm -rf "$out"
}

# kernel_path KERNEL: the bzImage of a flavour, or KERNEL itself
kernel_path() {
	case $1 in
	wbt | upstream | debug | nohooks | mqoff | upstream-mqoff) echo "$WORK/build/$1/arch/x86/boot/bzImage" ;;
	*) echo "$1" ;;
	esac
}

# allowed EVENT LINE: LINE of EVENT's format may differ, by a rule of ALLOW
allowed() {
	local ev=$1 line=$2 rev prefix
	while IFS= read -r rule; do
		rev=${rule%% *}
		prefix=${rule#* }
		prefix=${prefix%%#*}
		prefix=${prefix%"${prefix##*[! ]}"}
		if [ "$rev" = "*" ] || [ "$rev" = "$ev" ]; then
			[[ $line == "$prefix"* ]] && return 0
		fi
	done < <(grep -v '^[[:space:]]*\(#\|$\)' "$ALLOW")
	return 1
}

# check_allow: every rule names an event, a prefix and a reason
check_allow() {
	local n=0 bad=0 rule ev
	[ -r "$ALLOW" ] || die "no $ALLOW"
	while IFS= read -r rule; do
		n=$((n + 1))
		ev=${rule%% *}
		if [[ $rule != *" # "?* ]] || [ "$ev" = "$rule" ] ||
			{ [ "$ev" != "*" ] && [[ " $EVENTS " != *" $ev "* ]]; }; then
			echo "$ALLOW: bad rule (want 'EVENT PREFIX # reason'): $rule" >&2
			bad=1
		fi
	done < <(grep -v '^[[:space:]]*\(#\|$\)' "$ALLOW")
	[ "$bad" = 0 ] || exit 1
}

# compare GOLDEN DIR: exit 1 on a difference no rule allows
compare() {
	local golden=$1 dir=$2 e rc=0 line
	check_allow
	for e in $EVENTS; do
		[ -r "$golden/$e.format" ] || die "no golden format $golden/$e.format"
		if [ ! -r "$dir/$e.format" ]; then
			echo "FAIL: $e: no format file"
			rc=1
			continue
		fi
		local n=0 bad=0
		while IFS= read -r line; do
			n=$((n + 1))
			if allowed "$e" "${line:2}"; then
				echo "  allowed: $e: $line"
			else
				echo "  DIFFERS: $e: $line"
				bad=1
			fi
		done < <(diff "$golden/$e.format" "$dir/$e.format" | grep '^[<>]' || true)
		if [ "$bad" = 0 ]; then
			echo "ok: $e: same as 6.12 ($n allowed line(s) differ)"
		else
			echo "FAIL: $e: differs from 6.12 (< 6.12, > this kernel)"
			rc=1
		fi
	done
	return $rc
}

case ${1:-} in
--update)
	[ $# = 1 ] || usage
	read_formats upstream "$GOLDEN"
	log "wrote $GOLDEN/ from the unpatched 6.12 kernel"
	;;
--check)
	[ $# -le 2 ] || usage
	check_allow
	tmp=$(mktemp -d "$WORK/trace-formats.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	read_formats "${2:-wbt}" "$tmp"
	compare "$GOLDEN" "$tmp"
	;;
--compare)
	[ $# = 3 ] || usage
	compare "$2" "$3"
	;;
*) usage ;;
esac
