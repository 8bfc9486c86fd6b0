#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, run by both guests at once (N=2): rdma-core's
# ibv_rc_pingpong, ibv_ud_pingpong and ibv_srq_pingpong, from the bench's
# build through libwren, between the two Wren NICs through the fabric,
# with their data checking (-c).  Guest 0 serves, guest 1 connects; they
# swap QP numbers over the virtio control network, the traffic itself is
# RoCEv2 on the Wren ports.  Iterations: WREN_PINGPONG_ITERS (default 200).
#
#   flock /tmp/wren-guest.lock make vmtest T=rdma/wren-pingpong.sh
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"

iters=${WREN_PINGPONG_ITERS:-200}
# "PROGRAM ARGS...", in the order both guests run them.
runs=(
	"ibv_rc_pingpong -s 4096"
	"ibv_rc_pingpong -s 65536 -m 1024"
	"ibv_ud_pingpong -s 1024"
	"ibv_srq_pingpong -s 4096 -q 4"
)
pair_init pingpong "pingpong"
plan $((3 + ${#runs[@]}))
dmesg -C

rdma_env_check 2>"$res/pingpong-env.err" ||
	bail "the bench's rdma-core build with libwren is in place" "$(cat "$res/pingpong-env.err")"
rdma_wren_up || bail "$RDMA_SETUP_ERR" "$(dmesg | tail -n 20)"
ok "$RDMA_WREN_DEV on $RDMA_WREN_IF, RoCE v2 GID index $RDMA_WREN_GID for $WREN_IP"
barrier up

# pingpong PORT PROGRAM ARGS...: the server on guest 0; the client on
# guest 1 retries until the server listens.
pingpong() {
	local port=$1 out rc=1 i
	shift
	local cmd=("$1" -d "$RDMA_WREN_DEV" -g "$RDMA_WREN_GID" -p "$port" -n "$iters" -c "${@:2}")

	if [ "$me" = 0 ]; then
		out=$(timeout 180 "${cmd[@]}" 2>&1)
		rc=$?
	else
		for ((i = 0; i < 60; i++)); do
			out=$(timeout 180 "${cmd[@]}" "$WREN_PEER_VIRTIO_IP" 2>&1)
			rc=$?
			[[ $out == *"Couldn't connect"* ]] || break
			nap 0.3
		done
	fi
	diag "$out"
	# Both sides print "N bytes in S seconds" and "ITERS iters in S
	# seconds" only after every iteration, -c having compared the data.
	if [ "$rc" = 0 ] && [[ $out == *"$iters iters in"* ]]; then
		ok "$*: $iters iterations, data checked"
	else
		not_ok "$*: $iters iterations, data checked (exit $rc)"
	fi
}

port=18515
for r in "${runs[@]}"; do
	read -r -a words <<<"$r"
	pingpong "$port" "${words[@]}"
	port=$((port + 1))
	barrier "after-$port" 300
done

check_dmesg "no kernel warnings"
# The next test of a shared boot loads the modules itself.
check "rmmod wren_ib and wren" wren_unload
tap_done
