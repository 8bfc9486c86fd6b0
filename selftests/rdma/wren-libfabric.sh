#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, both guests at once: Debian 12's libfabric (libfabric1 and
# libfabric-bin 1.17) over Wren through its verbs provider.
#
# - fi_info lists wren_0 for the verbs provider (msg endpoints) and for
#   verbs;ofi_rxm (rdm endpoints).
# - fi_pingpong between the guests, guest 1 serving, with data checks
#   (-c): msg endpoints of the verbs provider, connected through rdma_cm
#   to the server's Wren address, and rdm endpoints of ofi_rxm over
#   verbs, each over every size of its sweep (-S all), tagged and untagged.
# - Wren's RoCE byte counters grow by at least the bytes a run moved.
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

pair_init lf "libfabric"
# "PROVIDER|EP|MODE"
cases=(
	"verbs|msg|msg"
	"verbs;ofi_rxm|rdm|msg"
	"verbs;ofi_rxm|rdm|tagged"
)
plan $((3 + ${#cases[@]}))

rdma_wren_up || bail "$RDMA_SETUP_ERR" "$(dmesg | tail -n 20)"
ok "$RDMA_WREN_DEV on $RDMA_WREN_IF"
for p in "verbs FI_EP_MSG" "verbs;ofi_rxm FI_EP_RDM"; do
	read -r prov ep <<<"$p"
	out=$(fi_info -p "$prov" -t "$ep" -d "$RDMA_WREN_DEV" 2>&1)
	if grep -q "domain: $RDMA_WREN_DEV" <<<"$out"; then
		ok "fi_info -p '$prov' -t $ep lists domain $RDMA_WREN_DEV"
	else
		not_ok "fi_info -p '$prov' -t $ep lists domain $RDMA_WREN_DEV"
		diag "$(head -n 20 <<<"$out")"
	fi
done
barrier up 300

# The Wren addresses: msg endpoints connect through rdma_cm to them, and
# fi_pingpong's control connection goes the same way.
APP_PEER=$WREN_PEER_IP
port=47600
for c in "${cases[@]}"; do
	IFS='|' read -r prov ep mode <<<"$c"
	port=$((port + 1))
	out=$res/lf-${prov//;/-}-$ep-$mode.out
	before=$(app_roce_bytes "$RDMA_WREN_DEV")
	app_pair "$port" "$out" "-B $port" "-P $port" \
		fi_pingpong -p "$prov" -e "$ep" -m "$mode" -d "$RDMA_WREN_DEV" -S all -I 5 -c
	rc=$?
	read -r t0 r0 <<<"$before"
	read -r t1 r1 <<<"$(app_roce_bytes "$RDMA_WREN_DEV")"
	# One line per size: "bytes iters total time MB/sec usec/xfer ..."
	sizes=$(awk '$1 ~ /^[0-9.]+[kmg]?$/ && $2 ~ /^[0-9]+[kmg]?$/ { n++ } END { print n + 0 }' "$out")
	moved=$((t1 - t0 + r1 - r0))
	label="fi_pingpong -p '$prov' -e $ep -m $mode -c"
	if [ "$rc" != 0 ] || { [ "$me" = 0 ] && [ "$sizes" -lt 10 ]; }; then
		not_ok "$label"
		diag "$(tail -n 10 "$out")"
	elif [ "$moved" -lt $((1 << 20)) ]; then
		not_ok "$label: $RDMA_WREN_DEV's RoCE counters grew by only $moved bytes"
	elif [ "$me" = 0 ]; then
		ok "$label: $sizes sizes, data checked, $(awk '$1 == "1m" { print $6 " MB/s at 1 MiB" }' "$out")"
	else
		ok "$label (server), $moved RoCE bytes"
	fi
done
barrier finished 300
tap_done
