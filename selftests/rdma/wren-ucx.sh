#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, both guests at once: Debian's UCX (ucx-utils: 1.13 on
# Debian 12, 1.18 on Debian 13) over Wren, and over rdma_rxe in the same
# run for comparison.
#
# - ucx_info -d lists rc_verbs and ud_verbs on wren_0:1.
# - ucx_perftest between the guests, guest 1 serving: UCT put_bw, put_lat,
#   get (zero copy, 64 KiB / 8 B) and am_bw, am_lat over rc_verbs; am_bw,
#   am_lat over ud_verbs; UCP tag_bw (64 KiB) and tag_lat (8 B) over
#   rc_verbs (UD for wireup) and over ud_verbs alone.  UCX_NET_DEVICES
#   names the device; the GID is UCX's own choice (the RoCE v2 IPv4 one:
#   nothing sets UCX_IB_GID_INDEX).  ucx_perftest 1.13 has no data check:
#   wren-mpi.sh checks data that UCX carried.
# - Wren's RoCE byte counters on both sides grow by at least the bytes
#   each bandwidth test moved, so the traffic crossed the NIC.
# - UCP tag_bw and tag_lat over rxe0 on the control network (rxe reports
#   no packet type in a UD completion's SL, so UCX's destination GID
#   check must be off there: UCX_UD_ETH_DGID_CHECK=n), and the Wren/rxe
#   ratios as diagnostics.
#
# In a package boot (PKG=1, after wren-pkg-install.sh) everything runs
# against /usr's libraries; elsewhere against the bench's rdma-core build.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"
. "$WREN_TOP/selftests/lib/apps.sh"
app_stack

pair_init ucx "UCX"
# "NAME|ENV|ARGS|KIND|BYTES": KIND lat or bw; BYTES a bandwidth test
# moves (iterations x size), 0 for latency tests.
bw_n=200
lat_n=1000
wren_cases=(
	"rc put_bw|-|-t put_bw -x rc_verbs -D zcopy -s 65536 -n $bw_n -w 20|bw|$((bw_n * 65536))"
	"rc put_lat|-|-t put_lat -x rc_verbs -s 8 -n $lat_n -w 100|lat|0"
	"rc get_bw|-|-t get -x rc_verbs -D zcopy -s 65536 -n $bw_n -w 20|bw|$((bw_n * 65536))"
	"rc am_bw|-|-t am_bw -x rc_verbs -D bcopy -s 4096 -n $bw_n -w 20|bw|$((bw_n * 4096))"
	"rc am_lat|-|-t am_lat -x rc_verbs -s 8 -n $lat_n -w 100|lat|0"
	"ud am_bw|-|-t am_bw -x ud_verbs -D bcopy -s 512 -n $bw_n -w 20|bw|$((bw_n * 512))"
	"ud am_lat|-|-t am_lat -x ud_verbs -s 8 -n $lat_n -w 100|lat|0"
	"ucp rc tag_bw|UCX_TLS=rc_verbs,ud_verbs|-t tag_bw -s 65536 -n $bw_n -w 20|bw|$((bw_n * 65536))"
	"ucp rc tag_lat|UCX_TLS=rc_verbs,ud_verbs|-t tag_lat -s 8 -n $lat_n -w 100|lat|0"
	"ucp ud tag_bw|UCX_TLS=ud_verbs|-t tag_bw -s 65536 -n $bw_n -w 20|bw|$((bw_n * 65536))"
	"ucp ud tag_lat|UCX_TLS=ud_verbs|-t tag_lat -s 8 -n $lat_n -w 100|lat|0"
)
rxe_cases=(
	"ucp rc tag_bw|UCX_TLS=rc_verbs,ud_verbs|-t tag_bw -s 65536 -n $bw_n -w 20|bw|0"
	"ucp rc tag_lat|UCX_TLS=rc_verbs,ud_verbs|-t tag_lat -s 8 -n $lat_n -w 100|lat|0"
)
plan $((4 + ${#wren_cases[@]} + 1 + ${#rxe_cases[@]}))

rdma_wren_up || bail "$RDMA_SETUP_ERR" "$(dmesg | tail -n 20)"
rdma_rxe_up || bail "$RDMA_SETUP_ERR" "$(dmesg | tail -n 20)"
ok "$RDMA_WREN_DEV on $RDMA_WREN_IF and $RDMA_RXE_DEV on $RDMA_RXE_IF"

# ucx_info -d: "# Transport: rc_verbs" then "# Device: wren_0:1".
tl_devs() {
	awk '$2 == "Transport:" { t = $3 } $2 == "Device:" { print t " " $3 }'
}
devs=$(UCX_NET_DEVICES=$RDMA_WREN_DEV:1 ucx_info -d 2>&1 | tl_devs)
for tl in rc_verbs ud_verbs; do
	if grep -qx "$tl $RDMA_WREN_DEV:1" <<<"$devs"; then
		ok "ucx_info -d: $tl on $RDMA_WREN_DEV:1"
	else
		not_ok "ucx_info -d: $tl on $RDMA_WREN_DEV:1"
		diag "$devs"
	fi
done
if [ "${WREN_PKG:-0}" = 1 ] && pkg_debs_present; then
	lib=$(ldd /usr/lib/x86_64-linux-gnu/ucx/libuct_ib.so.0 2>/dev/null |
		awk '$1 == "libibverbs.so.1" { print $3 }')
	if [ -n "$lib" ] && [ "$(dpkg-query -W -f '${Version}' libibverbs1)" = "$PKG_RDMA_VERSION" ] &&
		[ -z "${LD_LIBRARY_PATH:-}" ]; then
		ok "UCX's libuct_ib loads $(readlink -f "$lib") of libibverbs1 $PKG_RDMA_VERSION"
	else
		not_ok "UCX's libuct_ib loads the packaged libibverbs"
		diag "libibverbs: ${lib:-none}; LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
	fi
else
	skip "UCX's libuct_ib loads the packaged libibverbs" "not a package boot"
fi
barrier up 300

# Debian 13's ucx_perftest is built with MPI and, with stdin no
# terminal, takes itself for an mpirun rank of a job of one ("exactly
# 2 processes in p2p case (actual: 1)"): -P 0 turns MPI off where the
# option is there (1.13 has none).
rte=
ucx_perftest -h 2>&1 | grep -q -- '-P <0|1>' && rte="-P 0"

# perf_final OUT KIND: the figure of ucx_perftest's "Final:" line,
# average latency (us) or overall bandwidth (MB/s).
perf_final() {
	awk -v k="$2" '$1 == "Final:" { print (k == "lat" ? $4 : $7) }' "$1"
}

port=14100
declare -A wren_fig
# run_cases DEV LABEL EXTRAENV CASE...: each case between the guests,
# one check per case; figures in fig[NAME].
run_cases() {
	local dev=$1 label=$2 extra=$3 c name env args kind bytes out before after rc f
	shift 3
	for c in "$@"; do
		IFS='|' read -r name env args kind bytes <<<"$c"
		port=$((port + 1))
		out=$res/ucx-$label-${name// /-}.out
		[ "$env" = - ] && env=
		[ "$kind" = lat ] || [ "$dev" != "$RDMA_WREN_DEV" ] || before=$(app_roce_bytes "$dev")
		# shellcheck disable=SC2086 # ENV and EXTRAENV are VAR=value words
		app_pair "$port" "$out" "" "" env UCX_NET_DEVICES="$dev:1" $env $extra \
			ucx_perftest $rte -p "$port" -d "$dev:1" $args
		rc=$?
		f=$(perf_final "$out" "$kind")
		fig[$name]=$f
		if [ "$rc" != 0 ] || { [ "$me" = 0 ] && [ -z "$f" ]; }; then
			not_ok "$label $name"
			diag "$(tail -n 8 "$out")"
			continue
		fi
		if [ "$bytes" != 0 ]; then
			after=$(app_roce_bytes "$dev")
			# Guest 0 sends for put, am and tag, guest 1 for get: the
			# sum of both directions covers either.
			read -r t0 r0 <<<"$before"
			read -r t1 r1 <<<"$after"
			if [ $((t1 - t0 + r1 - r0)) -lt "$bytes" ]; then
				not_ok "$label $name: $dev's RoCE counters grew by $((t1 - t0 + r1 - r0)) of $bytes bytes"
				continue
			fi
		fi
		if [ "$me" = 0 ]; then
			ok "$label $name: $f $([ "$kind" = lat ] && echo us || echo MB/s)"
		else
			ok "$label $name (server)"
		fi
	done
}

declare -A fig
run_cases "$RDMA_WREN_DEV" wren "" "${wren_cases[@]}"
for k in "${!fig[@]}"; do wren_fig[$k]=${fig[$k]}; done
barrier wren 300

fig=()
if ! grep -q "$RDMA_RXE_DEV" <(UCX_NET_DEVICES=$RDMA_RXE_DEV:1 ucx_info -d 2>&1); then
	not_ok "ucx_info -d lists $RDMA_RXE_DEV"
else
	ok "ucx_info -d lists $RDMA_RXE_DEV"
fi
run_cases "$RDMA_RXE_DEV" rxe "UCX_UD_ETH_DGID_CHECK=n" "${rxe_cases[@]}"
if [ "$me" = 0 ]; then
	for k in "ucp rc tag_bw" "ucp rc tag_lat"; do
		w=${wren_fig[$k]:-} r=${fig[$k]:-}
		[ -n "$w" ] && [ -n "$r" ] &&
			diag "$k: wren $w, rxe $r, wren/rxe $(awk -v w="$w" -v r="$r" 'BEGIN { printf "%.2f", (r > 0) ? w / r : 0 }')"
	done
fi
barrier finished 300
tap_done
