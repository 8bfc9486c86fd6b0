# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# wait_for SECONDS COMMAND...: run COMMAND until it succeeds, at most for
# SECONDS; returns COMMAND's last status.  Between tries it naps
# ${WAIT_INTERVAL:-0.2} s: under TCG a tight loop would steal the vCPU from
# the very thing being waited for.  A nap, not sleep(1): an exec a try
# kept a guest waiting at a barrier (a builtin test) at half a vCPU,
# which under TCG is host CPU taken from the guest it waits for.
wait_for() {
	local timeout=$1 rc deadline
	shift
	deadline=$((SECONDS + timeout))
	while :; do
		"$@" && return 0
		rc=$?
		[ "$SECONDS" -ge "$deadline" ] && return "$rc"
		nap "${WAIT_INTERVAL:-0.2}"
	done
}

# nap SECONDS: a sleep without an exec (each exec from the 9p root costs
# about 0.2 s of guest CPU under TCG, which tests that measure the guest's
# CPU would see): a read with a timeout from a FIFO that nobody writes.
NAP_FD=
nap() {
	if [ -z "$NAP_FD" ]; then
		local fifo=/tmp/.nap.$$
		rm -f "$fifo"
		if mkfifo "$fifo" 2>/dev/null && exec {NAP_FD}<>"$fifo"; then
			rm -f "$fifo"
		else
			NAP_FD=none
		fi
	fi
	if [ "$NAP_FD" = none ]; then
		sleep "$1"
	else
		read -r -t "$1" -u "$NAP_FD" _ || true
	fi
}
