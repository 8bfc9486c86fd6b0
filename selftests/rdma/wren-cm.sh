#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, run by both guests at once (N=2): the RDMA CM over Wren.
# ib_core's MAD layer must have created the GSI QP (QP1) on wren_0 through
# the kernel verbs, and rdma-core's librdmacm examples connect through it
# between the two Wren NICs: rping (RC, data validated with -V), ucmatose
# (RC), rdma_server/rdma_client (the endpoint API), udaddy (UD, CM SIDR)
# and perftest's ib_write_bw -R.  Guest 0
# serves, guest 1 connects, both on the Wren addresses.  Afterwards the device's kernel object counts are
# back to what they were before, and wren_ib.ko and wren.ko unload with
# no kernel warning.
#
#   flock /tmp/wren-guest.lock make vmtest T=rdma/wren-cm.sh N=2
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"

rping_count=${WREN_CM_RPING_COUNT:-10}
pair_init cm "CM"
plan 11
dmesg -C

rdma_env_check 2>"$res/cm-env.err" ||
	bail "the bench's rdma-core build with librdmacm is in place" "$(cat "$res/cm-env.err")"
modprobe rdma_ucm || bail "modprobe rdma_ucm"
rdma_wren_up || bail "$RDMA_SETUP_ERR" "$(dmesg | tail -n 20)"
ok "$RDMA_WREN_DEV on $RDMA_WREN_IF, RoCE v2 GID index $RDMA_WREN_GID for $WREN_IP"

# The MAD layer attaches only to a kernel verbs provider, and then
# creates QP1 (type GSI) on the port.
gsi=$(rdma resource show qp link "$RDMA_WREN_DEV/1" 2>&1)
if [[ $gsi == *"lqpn 1 "*"type GSI"* ]]; then
	ok "the MAD layer created the GSI QP on $RDMA_WREN_DEV"
else
	not_ok "the MAD layer created the GSI QP on $RDMA_WREN_DEV"
	diag "$gsi"
fi

# Object counts of the device: "pd N cq N qp N cm_id N mr N ctx N ...".
counts() {
	rdma resource show 2>/dev/null | sed -n "s/^[0-9]*: $RDMA_WREN_DEV: //p"
}
# counts_are OBJECTS: counts() is OBJECTS now (a function, so that
# wait_for reads the counts at each try, not once).
counts_are() { [ "$(counts)" = "$1" ]; }
base=$(counts)
diag "objects before: $base"
barrier up

# client_retry CMD...: the client runs until the server took it.  Before
# the server listens, the peer's CM answers a REQ with a reject and a
# SIDR REQ with "unsupported" (RDMA_CM_EVENT_UNREACHABLE): retried.
client_retry() {
	local i
	for ((i = 0; i < 30; i++)); do
		out=$(timeout 120 "$@" 2>&1)
		rc=$?
		[ "$rc" = 0 ] && return 0
		case $out in
		*REJECTED* | *UNREACHABLE* | *"error 111"* | *"connect error"* | \
		*"Unable to perform rdma_client"* | *"Couldn't connect"* | \
		*"Connection refused"*) ;;
		*) return 0 ;;
		esac
		nap 0.3
	done
}

# cm_run SERVER_CMD... -- CLIENT_CMD...: guest 0 serves, guest 1 connects
# (retrying until the server listens); out and rc are this guest's.
cm_run() {
	local server=()

	while [ "$1" != -- ]; do
		server+=("$1")
		shift
	done
	shift
	if [ "$me" = 0 ]; then
		out=$(timeout 180 "${server[@]}" 2>&1)
		rc=$?
	else
		client_retry "$@"
	fi
}

# rping: -V makes both sides compare every ping buffer with the pattern.
cm_run rping -s -a "$WREN_IP" -v -V -C "$rping_count" -- \
	rping -c -a "$WREN_PEER_IP" -v -V -C "$rping_count"
n=$(grep -cE "^(server )?ping data: rdma-ping-" <<<"$out")
diag "$(tail -n 5 <<<"$out")"
if [ "$rc" = 0 ] && [ "$n" = "$rping_count" ]; then
	ok "rping: $rping_count pings validated"
else
	not_ok "rping: $rping_count pings validated (exit $rc, $n pings)"
fi
barrier rping 300

# ucmatose: RC connections through the CM, messages sent both ways.
cm_run ucmatose -b "$WREN_IP" -- ucmatose -s "$WREN_PEER_IP"
diag "$(tail -n 5 <<<"$out")"
check "ucmatose: RC connection, data both ways (exit $rc)" test "$rc" = 0
barrier ucmatose 300

# rdma_server/rdma_client: librdmacm's endpoint API (rdma_create_ep,
# rdma_get_request, rdma_post_send/recv) with inline sends.
cm_run rdma_server -s "$WREN_IP" -p 7471 -- rdma_client -s "$WREN_PEER_IP" -p 7471
diag "$(tail -n 3 <<<"$out")"
check "rdma_server/rdma_client: endpoint API, a message each way (exit $rc)" \
	test "$rc/${out##*end }" = 0/0
barrier rdma_server 300

# udaddy: UD QPs whose address the CM resolves with SIDR over QP1.
cm_run udaddy -b "$WREN_IP" -- udaddy -s "$WREN_PEER_IP"
diag "$(tail -n 5 <<<"$out")"
check "udaddy: UD through CM SIDR, data both ways (exit $rc)" test "$rc" = 0
barrier udaddy 300

# perftest with -R: the connection through rdma_cm instead of a socket.
bw_args=(ib_write_bw -R -d "$RDMA_WREN_DEV" -p 18650 -s 65536 -n 200)
cm_run "${bw_args[@]}" -- "${bw_args[@]}" "$WREN_PEER_IP"
# All of it when it failed (one unexplained failure in about ten runs).
if [ "$rc" = 0 ]; then diag "$(tail -n 4 <<<"$out")"; else diag "$out"; fi
check "ib_write_bw -R: connected through rdma_cm, 200 x 64 KiB (exit $rc)" test "$rc" = 0
barrier perftest 300

# Every object the runs made is gone again (the CM destroys its ids and
# AHs from work items: give it a few seconds).
wait_for 20 counts_are "$base"
now=$(counts)
check "kernel object counts back to the baseline ($now)" test "$now" = "$base"
barrier counted 300

check "wren_ib.ko unloads under the CM" wren_ib_unload
check "wren.ko unloads" rmmod wren
check_dmesg "no kernel warnings"
tap_done
