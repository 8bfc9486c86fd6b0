#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, run by both guests at once (N=2): Debian's qperf (0.4.11)
# against the bench's rdma-core build and libwren, between the guests'
# Wren NICs.  Guest 0 runs the qperf server; guest 1 runs the RC tests
# through the RDMA CM (-cm1: qperf's own connection setup exchanges LIDs,
# which RoCE has not), each for WREN_QPERF_SECS seconds (default 1):
# send/receive bandwidth and latency, RDMA WRITE and READ bandwidth,
# fetch-and-add's message rate and qperf's two atomic verification tests
# (ver_rc_fetch_add and ver_rc_compare_swap check every value an atomic
# returns, and fail on the first "mismatch").
# Each test must print its figure; the client's RoCE byte counters must
# have grown.  qperf's UD tests build no GRH without the RDMA CM, so they
# cannot run on any RoCE device, and UC is not connected by the CM: both
# are left out (Documentation/.../apps.rst).
#
#   make vmtest T=rdma/wren-qperf.sh KVER=6.12
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"

secs=${WREN_QPERF_SECS:-1}
lport=19765
# test: the word of its figure in qperf's output.
tests=(
	"rc_bw bw"
	"rc_lat latency"
	"rc_rdma_write_bw bw"
	"rc_rdma_read_bw bw"
	"rc_fetch_add_mr msg_rate"
	"ver_rc_fetch_add msg_rate"
	"ver_rc_compare_swap msg_rate"
)
pair_init qperf "qperf"
# The server's results: its setup, its log, dmesg, the unload; the
# client's: its setup, a figure a test, its counter, dmesg, the unload.
plan $((me == 0 ? 4 : 4 + ${#tests[@]}))
dmesg -C

command -v qperf >/dev/null || bail "qperf is installed" "make deps installs it"
rdma_env_check 2>"$res/qperf-env.err" ||
	bail "the bench's rdma-core build is in place" "$(cat "$res/qperf-env.err")"
modprobe rdma_ucm || bail "modprobe rdma_ucm"
rdma_wren_up || bail "$RDMA_SETUP_ERR" "$(dmesg | tail -n 20)"
ok "$RDMA_WREN_DEV on $RDMA_WREN_IF, $WREN_IP"

if [ "$me" = 0 ]; then
	timeout 600 qperf -lp "$lport" >"$res/qperf-server.log" 2>&1 &
	server=$!
	: >"$res/qperf-listening"
	barrier finished 600
	kill "$server" 2>/dev/null
	wait "$server" 2>/dev/null
	diag "$(cat "$res/qperf-server.log")"
	check "the qperf server reported no error" test ! -s "$res/qperf-server.log"
else
	wait_for 60 test -e "$peer_res/qperf-listening"
	tx0=$(rdma_hw_counter "$RDMA_WREN_DEV" tx_roce_bytes)
	for t in "${tests[@]}"; do
		name=${t%% *}
		word=${t#* }
		# The server's listener comes up just after its marker: retry a
		# refused control connection.  And qperf's server sends the
		# client its RDMA CM port before it calls rdma_listen()
		# (cm_open_server() in qperf's rdma.c), so a client that
		# connects first is rejected: retry that twice, and say so.
		rejected=0
		for ((i = 0; i < 50; i++)); do
			out=$(timeout 120 qperf -cm1 -lp "$lport" -t "$secs" "$WREN_PEER_IP" "$name" 2>&1)
			rc=$?
			if [[ $out == *"Event rejected"* ]] && [ "$rejected" -lt 2 ]; then
				rejected=$((rejected + 1))
				diag "$name: rejected by the RDMA CM, qperf's listen race; again"
				continue
			fi
			[[ $out == *"failed to connect"* || $out == *"refused"* ]] || break
			nap 0.2
		done
		fig=$(sed -n "s/^ *$word *= *//p" <<<"$out" | head -n 1)
		again=
		[ "$rejected" = 0 ] || again=" (run $((rejected + 1)) times: qperf's listen race)"
		# A verification test reports a wrong value as "mismatch".
		if [ "$rc" = 0 ] && [ -n "$fig" ] && [[ $out != *"mismatch"* ]]; then
			ok "$name: $word $fig$again"
		else
			not_ok "$name: $word (exit $rc)"
			diag "$out"
		fi
	done
	tx=$(($(rdma_hw_counter "$RDMA_WREN_DEV" tx_roce_bytes) - tx0))
	check "the tests ran as RoCE on $RDMA_WREN_DEV (tx_roce_bytes +$tx)" test "$tx" -gt $((1 << 20))
	barrier finished 600
fi

check_dmesg "no kernel warnings"
check "rmmod wren_ib and wren" wren_unload
tap_done
