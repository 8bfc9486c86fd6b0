#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test: with wren.ko and wren_ib.ko loaded, the bench's rdma-core
# build (selftests/lib/rdma-env.sh) finds the Wren ib device through
# libwren: ibv_devices lists it, ibv_devinfo reads it as an Ethernet (RoCE)
# port, and verbs_smoke.py creates and destroys every object the provider
# implements.  Needs `make rdma-core` and `make modules` on the host.
#
#   flock /tmp/wren-guest.lock make vmrun N=1 \
#       SCRIPT=providers/wren/tests/guest-verbs.sh
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
mods=${WREN_MODULES:-$WREN_TOP/build/modules/${WREN_KVER:-$(uname -r | cut -d. -f1,2)}}

check "the bench's rdma-core build with libwren is in place" rdma_env_check
check "modprobe ib_uverbs" modprobe ib_uverbs
check "insmod wren.ko" insmod "$mods/wren.ko"
check "insmod wren_ib.ko" insmod "$mods/wren_ib.ko"

dev=
for _ in $(seq 50); do
	for d in /sys/class/infiniband/wren_*; do
		[ -e "$d" ] && dev=${d##*/} && break 2
	done
	sleep 0.2
done
if [ -z "$dev" ]; then
	not_ok "wren_ib registers an ib device wren_N"
	diag "$(dmesg | tail -20)"
	tap_done
	exit 1
fi
ok "wren_ib registers ib device $dev"

out=$(ibv_devices 2>&1)
diag "$out"
check "ibv_devices lists $dev" grep -qw "$dev" <<<"$out"

out=$(ibv_devinfo -d "$dev" 2>&1)
rc=$?
diag "$out"
check "ibv_devinfo -d $dev succeeds (libwren opened a context)" test "$rc" = 0
check "ibv_devinfo: transport InfiniBand, link_layer Ethernet" \
	grep -q "link_layer:.*Ethernet" <<<"$out"

python3 "$WREN_TOP/providers/wren/tests/verbs_smoke.py" "$dev" >"${WREN_RESULTS:-/tmp}/verbs_smoke.tap" 2>&1
while IFS= read -r line; do
	case $line in
	"ok "*) ok "${line#* - }" ;;
	"not ok "*) not_ok "${line#* - }" ;;
	"1.."*) ;;
	*) diag "$line" ;;
	esac
done <"${WREN_RESULTS:-/tmp}/verbs_smoke.tap"

check "rmmod wren_ib" rmmod wren_ib
check "rmmod wren" rmmod wren
tap_done
