#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Application figures between the two bench guests, over Wren (wren_0)
# and, in the same boot between the same guests, over rdma_rxe on the
# virtio-net control NIC (rxe0), with Debian's UCX and Open MPI against
# the bench's rdma-core build.  Guest 1 serves (ucx_perftest, and the
# sshd Open MPI starts its ranks through); guest 0 prints, each as
# "bench-apps: NAME wren W rxe R wren/rxe Q":
#   ucx_perftest UCP tag_bw 64 KiB (MB/s) and tag_lat 8 B (us),
#   NetPIPE (NPopenmpi over pml ucx) peak bandwidth (MB/s) and its
#   smallest-message latency (us),
#   wren_mpi_check --bench: MPI_Allreduce of 8 B and 1 MiB over 2 ranks
#   (median us).
# Run through `make bench-apps` (mk/apps.mk).  Exit status: 0 when every
# figure was measured, whatever the ratios.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"
. "$WREN_TOP/selftests/lib/apps.sh"
. "$WREN_TOP/selftests/lib/ssh.sh"

pair_init ba "bench-apps"
check_bin=$WREN_TOP/build/apps/wren_mpi_check
die() {
	echo "bench-apps: $*"
	: >"$res/abort-ba"
	exit 1
}
rdma_wren_up || die "$RDMA_SETUP_ERR"
rdma_rxe_up || die "$RDMA_SETUP_ERR"
ssh_up || die "$SSH_ERR"
barrier up 300

# ucx PORT DEV KIND ARGS...: one ucx_perftest between the guests on its
# own PORT; prints the figure of its Final line (guest 0).
ucx() {
	local port=$1 dev=$2 kind=$3 out
	shift 3
	out=$res/ba-ucx-$port.out
	app_pair "$port" "$out" "" "" env UCX_NET_DEVICES="$dev:1" UCX_TLS=rc_verbs,ud_verbs \
		UCX_UD_ETH_DGID_CHECK="$([ "$dev" = "$RDMA_WREN_DEV" ] && echo y || echo n)" \
		ucx_perftest -p "$port" "$@" || return 1
	awk -v k="$kind" '$1 == "Final:" { print (k == "lat" ? $4 : $7) }' "$out"
}

declare -A fig
port=15100
for dev in "$RDMA_WREN_DEV" "$RDMA_RXE_DEV"; do
	port=$((port + 2))
	fig[tag_bw_$dev]=$(ucx $((port - 1)) "$dev" bw -t tag_bw -s 65536 -n 500 -w 50)
	fig[tag_lat_$dev]=$(ucx "$port" "$dev" lat -t tag_lat -s 8 -n 2000 -w 200)
done
if [ "$me" = 1 ]; then
	wait_for 900 test -e "$peer_res/ba-done" -o -e "$peer_res/abort-ba"
	ssh_down
	exit 0
fi

ssh_wait guest1 || die "$SSH_ERR"
mpi() {
	local -a opts
	read -r -a opts <<<"$(app_mpi_opts "$1")"
	shift
	timeout 600 mpirun "${opts[@]}" -np 2 --host guest0,guest1 "$@"
}
for dev in "$RDMA_WREN_DEV" "$RDMA_RXE_DEV"; do
	out=$res/ba-np-$dev.out
	if mpi "$dev" NPopenmpi -u 1048576 -n 20 -p 0 -o "$res/ba-np-$dev.txt" >"$out" 2>&1; then
		fig[np_bw_$dev]=$(awk '/Mbps in/ { for (i = 1; i < NF; i++) if ($(i + 1) == "Mbps" && $i + 0 > m) m = $i + 0 }
			END { printf "%.1f", m / 8 }' "$out")
		fig[np_lat_$dev]=$(awk '/Mbps in/ { for (i = 1; i < NF; i++) if ($(i + 1) == "usec" && (l == "" || $i + 0 < l)) l = $i + 0 }
			END { printf "%.1f", l }' "$out")
	fi
	line=$(mpi "$dev" "$check_bin" --bench --iters 20 2>&1 | grep '^allreduce')
	fig[ar8_$dev]=$(sed -n 's/.*allreduce_8B_us=\([0-9.]*\).*/\1/p' <<<"$line")
	fig[ar1m_$dev]=$(sed -n 's/.*allreduce_1MiB_us=\([0-9.]*\).*/\1/p' <<<"$line")
done
: >"$res/ba-done"
ssh_down

status=0
for m in "tag_bw ucx_perftest tag_bw 64 KiB MB/s" "tag_lat ucx_perftest tag_lat 8 B us" \
	"np_bw NetPIPE peak MB/s" "np_lat NetPIPE latency us" \
	"ar8 MPI_Allreduce 8 B us" "ar1m MPI_Allreduce 1 MiB us"; do
	read -r key name <<<"$m"
	w=${fig[${key}_$RDMA_WREN_DEV]:-} r=${fig[${key}_$RDMA_RXE_DEV]:-}
	[ -n "$w" ] && [ -n "$r" ] || status=1
	echo "bench-apps: $name: wren ${w:-none} rxe ${r:-none} wren/rxe $(awk -v w="${w:-0}" -v r="${r:-0}" 'BEGIN { printf "%.2f", (r > 0) ? w / r : 0 }')"
done
exit $status
