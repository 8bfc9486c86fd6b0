# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# wait_for SECONDS COMMAND...: run COMMAND until it succeeds, at most for
# SECONDS; returns COMMAND's last status.  Between tries it sleeps
# ${WAIT_INTERVAL:-0.2} s: under TCG a tight loop would steal the vCPU from
# the very thing being waited for.
wait_for() {
	local timeout=$1 rc deadline
	shift
	deadline=$((SECONDS + timeout))
	while :; do
		"$@" && return 0
		rc=$?
		[ "$SECONDS" -ge "$deadline" ] && return "$rc"
		sleep "${WAIT_INTERVAL:-0.2}"
	done
}
