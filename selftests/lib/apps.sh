# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash disable=SC2154 # me, peer, res, peer_res: pair_init
#
# For the application tests (UCX, libfabric, Open MPI) run by both guests
# of a boot: client/server tools that meet over the control network, and
# the NIC's byte counters that prove the traffic crossed Wren.  Needs
# tap.sh, wait.sh and pair.sh (pair_init) sourced.
#
#   app_pair PORT OUT SRVARGS CLIARGS CMD...
#       guest 1 runs CMD SRVARGS as the server, which must listen on TCP
#       PORT; guest 0 runs CMD CLIARGS PEER once it does, PEER being
#       $APP_PEER or else the server's control network address.  Output
#       in OUT; returns CMD's exit status (124 after APP_TIMEOUT
#       seconds, default 180).  Each call needs its own PORT: it names
#       the marker the client waits for.
#   app_stack          the verbs stack the applications load: in a package
#                      boot (PKG=1) /usr's alone (selftests/lib/pkg.sh),
#                      elsewhere the bench's rdma-core build (rdma-env.sh)
#   app_roce_bytes DEV   tx and rx RoCE bytes of DEV's port 1 ("TX RX")
#   app_listening PORT   something listens on TCP PORT
#   app_mpi_opts DEV     mpirun's options for a job over DEV: pml ucx or
#                        nothing (no fallback to ob1/TCP), UCX limited to
#                        self, shared memory and DEV's verbs transports

app_listening() {
	ss -Hltn "sport = :$1" | grep -q .
}

# A server that died before it listened has nothing to wait for.
app_server_ready() {
	app_listening "$1" || ! kill -0 "$2" 2>/dev/null
}

app_pair() {
	local port=$1 out=$2 srv rc
	local -a sargs cargs
	read -r -a sargs <<<"$3"
	read -r -a cargs <<<"$4"
	shift 4
	if [ "$me" = 1 ]; then
		timeout "${APP_TIMEOUT:-180}" "$@" "${sargs[@]}" >"$out" 2>&1 &
		srv=$!
		wait_for 60 app_server_ready "$port" "$srv"
		: >"$res/app-serving-$port"
		wait "$srv"
		rc=$?
	else
		if ! wait_for 120 test -e "$peer_res/app-serving-$port"; then
			echo "no server on port $port of guest $peer" >"$out"
			return 1
		fi
		timeout "${APP_TIMEOUT:-180}" "$@" "${cargs[@]}" "${APP_PEER:-$WREN_PEER_VIRTIO_IP}" >"$out" 2>&1
		rc=$?
	fi
	return "$rc"
}

app_roce_bytes() {
	local c=/sys/class/infiniband/$1/ports/1/hw_counters tx rx
	read -r tx <"$c/tx_roce_bytes" || return 1
	read -r rx <"$c/rx_roce_bytes" || return 1
	echo "$tx $rx"
}

app_stack() {
	if [ "${WREN_PKG:-0}" = 1 ]; then
		. "$WREN_TOP/selftests/lib/pkg.sh"
		pkg_system_libs
	else
		. "$WREN_TOP/selftests/lib/rdma-env.sh"
	fi
}

app_mpi_opts() {
	local dev=$1
	echo --allow-run-as-root --bind-to none --mca pml ucx --mca pml_ucx_devices any \
		--mca osc ucx --mca btl self --mca plm_rsh_agent ssh \
		--mca oob_tcp_if_include "${WREN_VIRTIO_IP%.*}.0/24" \
		-x UCX_NET_DEVICES="$dev:1" -x UCX_TLS=self,sm,rc_verbs,ud_verbs \
		-x UCX_UD_ETH_DGID_CHECK="$([ "$dev" = "$RDMA_WREN_DEV" ] && echo y || echo n)" \
		${LD_LIBRARY_PATH:+-x LD_LIBRARY_PATH}
}
