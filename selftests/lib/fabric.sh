# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# Talk to the bench's fabric from a guest.  The fabrics' control sockets
# live on the host and unix sockets do not cross 9p, so vmrun.sh runs a
# small agent that executes `wren-fabric ctl` for us through files in our
# results share (tools/testbench/README.md, "Fabric agent"):
#
#   . "$WREN_TOP/selftests/lib/wait.sh"    # nap
#   . "$WREN_TOP/selftests/lib/fabric.sh"
#   fabric_ctl link 0 down          # Wren fabric; prints the answer
#   fabric_ctl stats 1
#   WREN_FABRIC=virtio fabric_ctl stats 0
#   fabric_stat 0 rx_frames          # one per-port counter
#
# fabric_ctl returns wren-fabric ctl's status (0 ok, 1 error from the
# fabric, 2 fabric unreachable or a request the agent refused) or 3 when no
# answer came within FABRIC_CTL_TIMEOUT seconds (default 20: the agent
# polls every 0.2 s, a busy TCG host answers slower).

FABRIC_SEQ=${FABRIC_SEQ:-0}

fabric_ctl() {
	local dir=${WREN_RESULTS:?WREN_RESULTS not set} seq rep deadline rc
	FABRIC_SEQ=$((FABRIC_SEQ + 1))
	seq=$FABRIC_SEQ
	rep=$dir/fabric-rep.$seq
	rm -f "$rep"
	# Written under a name the agent ignores, then renamed into place, so
	# that it never reads half a line.
	echo "${WREN_FABRIC:-wren} $*" >"$dir/.fabric-req.$seq" &&
		mv -f "$dir/.fabric-req.$seq" "$dir/fabric-req.$seq" || return 2
	deadline=$((SECONDS + ${FABRIC_CTL_TIMEOUT:-20}))
	until [ -e "$rep" ]; do
		if [ "$SECONDS" -ge "$deadline" ]; then
			rm -f "$dir/fabric-req.$seq"
			echo "fabric_ctl: no answer to '$*' within ${FABRIC_CTL_TIMEOUT:-20} s (is the vmrun fabric agent running?)" >&2
			return 3
		fi
		nap 0.1
	done
	{
		read -r rc
		cat
	} <"$rep"
	rm -f "$rep"
	case "$rc" in
	'' | *[!0-9]*) return 2 ;;
	esac
	return "$rc"
}

# fabric_stat PORT KEY: the value of one per-port counter of the Wren
# fabric ("port N KEY VALUE" lines of `stats N`), empty on failure.
fabric_stat() {
	fabric_ctl stats "$1" | awk -v p="$1" -v k="$2" \
		'$1 == "port" && $2 == p && $3 == k { print $4; exit }'
}
