# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash disable=SC2034 # the ll_* variables are what callers read
#
# Shared by the lossless-RoCE pair tests (selftests/rdma/wren-qos-ets.sh,
# wren-pfc.sh, wren-dcqcn.sh): bring the Wren NIC up for RDMA, run
# wren_verbs_test bandwidth flows on a priority, and read the counters
# that the tests compare - the NIC's (ethtool -S, hw_counters, devlink
# health, rdma -dd res) and the fabric's (snapshots of `stats PORT`).
# Needs tap.sh, wait.sh, pair.sh, fabric.sh, rdma-env.sh, wren.sh and
# rdma-setup.sh sourced.  Guest i is on fabric port i.
#
#   ll_up                    wren.ko + wren_ib.ko, $WREN_IP on the netdev;
#                            sets ll_if ll_dev ll_gid ll_bdf ll_dl
#   ll_rdma_up               the tests' first check: ll_up, with the RDMA
#                            environment and wren_verbs_test; bails
#                            (pair.sh) without them
#   ll_lossless OK FAIL MAP CMD...
#                            the lossless port: DSCP trust with the
#                            dscp-prio entries MAP, PFC on priority 3
#                            only, then CMD... (ll_setup); checks OK,
#                            bails FAIL
#   ll_cnp                   the dscp-prio entry of the NIC's CNPs
#   ll_speed_is MBPS         the netdev reports that link speed
#   ll_passive PORT OUT ARGS / ll_active PORT OUT ARGS
#                            one side of `wren_verbs_test bw` (ARGS: --op,
#                            --size, --sl, --tclass, ...), output in OUT
#   ll_mbs OUT               the MB/s an active side printed
#   ll_qpn OUT               the QP number a side printed
#   ll_eth_snap FILE         ethtool -S now, into FILE
#   ll_fab_snap PORT FILE    the fabric's `stats PORT` now, into FILE
#   ll_val FILE KEY          a counter of such a snapshot (0 if absent)
#   ll_hw NAME               an RDMA hw counter of port 1 (0 if absent)
#   ll_health                state of the pfc_storm reporter (healthy|error)
#   ll_diag KEY              a value of its diagnose output
#   ll_qp_attr QPN ATTR      a driver attribute of a QP in rdma -dd res
#   ll_qp_cc QPN             its DCQCN state in one query: "RATE TARGET
#                            ALPHA ACTIVE" (kb/s, kb/s, /WREN_DCQCN_ALPHA_MAX,
#                            0|1)
#   ll_param NAME VALUE      a devlink runtime parameter of the NIC
#   ll_above_kmax K A B      of the arrivals between two `qdepth` snapshots
#                            A and B: "PERCENT N", the share that met a
#                            queue of K bytes or more, and their number

ll_bin=$WREN_TOP/build/tests/rdma/wren_verbs_test
# The NIC sends CNPs with the contract's power-on DSCP and priority
# (np_cnp_dscp, np_cnp_prio): a port that trusts DSCP maps one to the other.
ll_cnp=$WREN_DCQCN_NP_CNP_DSCP_DEFAULT:$WREN_DCQCN_NP_CNP_PRIO_DEFAULT

# The tests set DCB up themselves, on a NIC fresh from its reset: a
# driver an earlier test left loaded is unloaded first (the NIC resets
# at remove), and the boot's QoS profile (WREN_QOS_PROFILE) stays off.
ll_up() {
	if grep -q '^wren ' /proc/modules; then
		wren_unload || return 1
	fi
	WREN_QOS_PROFILE='' rdma_wren_up || return 1
	ll_if=$RDMA_WREN_IF
	ll_dev=$RDMA_WREN_DEV
	ll_gid=$RDMA_WREN_GID
	ll_bdf=$(wren_bdf)
	ll_dl=pci/$ll_bdf
}

# shellcheck disable=SC2154 # res: pair.sh's pair_init sets it
ll_rdma_up() {
	if rdma_env_check 2>"$res/env.err" && [ -x "$ll_bin" ] && ll_up 2>>"$res/env.err"; then
		ok "RDMA up: $ll_dev on $ll_if ($WREN_IP, GID $ll_gid)"
	else
		bail "RDMA up on the Wren NIC" "${RDMA_SETUP_ERR:-} $(cat "$res/env.err")"
	fi
}

# The first DSCP app entry switches the port to DSCP trust.
ll_lossless() {
	local good=$1 fail=$2 map=$3
	shift 3
	if ll_setup "dcb app add dev $ll_if dscp-prio $map" \
		"dcb pfc set dev $ll_if prio-pfc all:off 3:on" "$@"; then
		ok "$good"
	else
		bail "$fail" "$ll_setup_err; $(dcb app show dev "$ll_if" 2>&1); $(dcb pfc show dev "$ll_if" 2>&1); $(ethtool -a "$ll_if" 2>&1 | tr '\n' ' '); $(dmesg | tail -n 5)"
	fi
}

ll_speed_is() {
	local s
	read -r s <"/sys/class/net/$ll_if/speed" 2>/dev/null && [ "$s" = "$1" ]
}

ll_passive() {
	local port=$1 out=$2
	shift 2
	timeout "${LL_FLOW_TIMEOUT:-300}" "$ll_bin" bw --passive --listen "$port" \
		-d "$ll_dev" -g "$ll_gid" "$@" >"$out" 2>&1
}

ll_active() {
	local port=$1 out=$2
	shift 2
	timeout "${LL_FLOW_TIMEOUT:-300}" "$ll_bin" bw --active \
		--connect "$WREN_PEER_VIRTIO_IP:$port" -d "$ll_dev" -g "$ll_gid" "$@" \
		>"$out" 2>&1
}

ll_mbs() {
	sed -n 's/^# bw: .* s: \([0-9.]*\) MB\/s.*/\1/p' "$1" | head -n 1
}

ll_qpn() {
	sed -n 's/^# bw: .*, qpn \([0-9]*\)$/\1/p' "$1" | head -n 1
}

ll_eth_snap() {
	ethtool -S "$ll_if" >"$1" 2>&1
}

ll_fab_snap() {
	fabric_ctl stats "$1" >"$2" 2>&1
}

# Both kinds of snapshot: "key: value" (ethtool -S) and "port N key value".
ll_val() {
	awk -v k="$2" '
		$1 == k":" { print $2; f = 1; exit }
		$1 == "port" && $3 == k { print $4; f = 1; exit }
		END { if (!f) print 0 }' "$1"
}

ll_hw() {
	local v
	read -r v <"/sys/class/infiniband/$ll_dev/ports/1/hw_counters/$1" 2>/dev/null || v=0
	echo "$v"
}

ll_health() {
	devlink health show "$ll_dl" reporter pfc_storm 2>/dev/null |
		sed -n 's/.*state \([a-z]*\).*/\1/p' | head -n 1
}

ll_diag() {
	devlink health diagnose "$ll_dl" reporter pfc_storm 2>/dev/null |
		tr -s ' \n' '  ' | sed -n "s/.*[ ]$1: \([^ ]*\).*/\1/p;s/^$1: \([^ ]*\).*/\1/p" |
		head -n 1
}

ll_qp_attr() {
	rdma -dd res show qp link "$ll_dev/1" lqpn "$1" 2>/dev/null |
		tr -s ' \n' '  ' | sed -n "s/.* drv_$2 \([0-9]*\).*/\1/p" | head -n 1
}

ll_qp_cc() {
	rdma -dd res show qp link "$ll_dev/1" lqpn "$1" 2>/dev/null | tr -s ' \n' '  ' |
		awk '{ for (i = 1; i < NF; i++) v[$i] = $(i + 1) }
		     END { if ("drv_cc_rate_kbps" in v)
			     print v["drv_cc_rate_kbps"], v["drv_cc_target_kbps"],
				   v["drv_cc_alpha"], v["drv_cc_rp_active"] }'
}

# ll_ge A B / ll_between X LO HI: awk comparisons of decimal numbers.
ll_ge() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'
}

ll_between() {
	awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x + 0 >= lo + 0 && x + 0 <= hi + 0) }'
}

# ll_setup CMD...: run each command line (its words split), dcb ones
# through wren_dcb (wren.sh), which runs a set once more when iproute2
# 6.1's dcb reads its own stale ACK; what a command says is shown.  Sets
# ll_setup_err to the first command that failed, with its output;
# returns 1 then.
ll_setup() {
	local cmd out rc
	ll_setup_err=
	for cmd in "$@"; do
		rc=0
		# shellcheck disable=SC2086 # the words of one command
		case $cmd in
		"dcb "*) out=$(wren_dcb ${cmd#"dcb "} 2>&1) || rc=$? ;;
		*) out=$($cmd 2>&1) || rc=$? ;;
		esac
		if [ "$rc" -ne 0 ]; then
			ll_setup_err="$cmd: $out"
			return 1
		fi
		[ -z "$out" ] || diag "$cmd: $out"
	done
}

ll_param() {
	devlink dev param set "$ll_dl" name "$1" value "$2" cmode runtime
}

# The histogram's buckets are powers of two: a "_lt_L" bucket counts as
# at or above K when L >= 2K, i.e. when it holds only depths >= K.
ll_above_kmax() {
	awk -v k="$1" '
		FNR == NR && $1 == "port" { a[$3] = $4; next }
		$1 == "port" && $3 ~ /_hist_/ {
			n = $4 - a[$3]; tot += n
			lim = $3; sub(/.*_(lt|ge)_/, "", lim)
			if ($3 ~ /_ge_/ || ($3 ~ /_lt_/ && lim + 0 >= 2 * k)) hi += n
		}
		END { printf "%.1f %d\n", tot ? 100 * hi / tot : 0, tot }' "$2" "$3"
}
