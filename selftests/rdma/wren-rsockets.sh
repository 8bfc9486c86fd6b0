#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, run by both guests at once (N=2): rsockets, rdma-core's
# sockets over RDMA (librdmacm), over Wren, data verified each time:
# rstream with rpoll (-T a) and its data check (-T v), riostream (the
# iomapped variant) with its data check, and an ordinary TCP program
# (wren_tcp_pattern.py: socket, connect, send, recv) under
# LD_PRELOAD=librspreload.so, whose bytes must cross wren_0 as RoCE.
# Guest 0 serves, guest 1 connects; rsockets' own examples retry
# nothing, so the client of each waits for its server's port.
#
#   make vmtest T=rdma/wren-rsockets.sh
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"

bytes=${WREN_RSOCKETS_BYTES:-4194304}
pair_init rsockets "rsockets"
plan 7
dmesg -C

rdma_env_check 2>"$res/rsockets-env.err" ||
	bail "the bench's rdma-core build with librdmacm is in place" "$(cat "$res/rsockets-env.err")"
modprobe rdma_ucm || bail "modprobe rdma_ucm"
rdma_wren_up || bail "$RDMA_SETUP_ERR" "$(dmesg | tail -n 20)"
ok "$RDMA_WREN_DEV on $RDMA_WREN_IF, $WREN_IP"

# run NAME CMD...: the server side on guest 0, the client (CMD and
# -s PEER) on guest 1 once the server's listener is up; both must exit 0
# with their figures printed, but for rstream -T a's client below.
run() {
	local name=$1 out rc i
	shift
	if [ "$me" = 0 ]; then
		: >"$res/rsockets-$name-listening"
		out=$(timeout 120 "$@" -b "$WREN_IP" 2>&1)
		rc=$?
	else
		wait_for 60 test -e "$peer_res/rsockets-$name-listening"
		# The listener is made just after the marker: retry a refusal.
		for ((i = 0; i < 50; i++)); do
			out=$(timeout 120 "$@" -s "$WREN_PEER_IP" 2>&1)
			rc=$?
			[[ $out == *"rconnect"* || $out == *"refused"* ]] || break
			nap 0.2
		done
	fi
	diag "$out"
	if [ "$rc" = 0 ] && [[ $out == *"Gb/sec"* ]]; then
		ok "$name: data verified"
	elif [ "$me" = 1 ] && [ "$rc" = 16 ] && [ "$name" = rpoll ]; then
		# rstream's do_poll() fails on POLLHUP (16), and rsockets'
		# rpoll reports it once the server, done, disconnects, even
		# while the last data is still to be read: the client's side
		# of -T a ends so on rdma_rxe too (5 runs of 5).  The data
		# both ways was verified by the server and by the client up
		# to there; only exit statuses other than 16 fail here.
		ok "$name: data verified (rstream's client ended on rsockets' POLLHUP at the server's close)"
	else
		not_ok "$name: data verified (exit $rc)"
	fi
	barrier "$name" 300
}

# rstream -T a: rsockets' rpoll drives both sides.
run rpoll rstream -T a -T v -S 65536 -C 200
run riostream riostream -T v -S 65536 -C 200

# An ordinary TCP program under the preload.  (rsockets' preload does
# not set itself up in its recv(), so a program whose first socket call
# is recv() on a descriptor it did not open, as socat's is, calls a null
# pointer: Documentation/.../apps.rst.)
key=$([ "$me" = 0 ] && echo rx_roce_bytes || echo tx_roce_bytes)
before=$(rdma_hw_counter "$RDMA_WREN_DEV" "$key")
tcp=$WREN_TOP/build/tests/rdma/wren_tcp_pattern
preload=$WREN_RDMA_CORE/lib/librspreload.so
if [ "$me" = 0 ]; then
	out=$(LD_PRELOAD=$preload timeout 120 "$tcp" serve "$WREN_IP" 7474 "$bytes" 2>&1)
	rc=$?
	want="received $bytes bytes, equal"
else
	out=$(LD_PRELOAD=$preload timeout 120 "$tcp" send "$WREN_PEER_IP" 7474 "$bytes" 2>&1)
	rc=$?
	want="sent $bytes bytes"
fi
diag "$out"
if [ "$rc" = 0 ] && [[ $out == *"$want"* ]]; then
	ok "a TCP program under librspreload.so: $want"
else
	not_ok "a TCP program under librspreload.so: $want (exit $rc)"
fi
moved=$(($(rdma_hw_counter "$RDMA_WREN_DEV" "$key") - before))
if [ "$moved" -ge "$bytes" ]; then
	ok "its bytes crossed $RDMA_WREN_DEV as RoCE ($key +$moved)"
else
	not_ok "its bytes crossed $RDMA_WREN_DEV as RoCE ($key +$moved, fewer than $bytes)"
fi
barrier preload 300

check_dmesg "no kernel warnings"
check "rmmod wren_ib and wren" wren_unload
tap_done
