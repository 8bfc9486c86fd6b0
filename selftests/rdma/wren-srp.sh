#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, run by both guests at once (N=2): SRP, the SCSI RDMA
# Protocol, over Wren through the kernel verbs.  Guest 0 is the target:
# LIO with ib_srpt, a WREN_SRP_MB MiB (default 32) ramdisk LUN (rd_mcp),
# the target port named by wren_0's GID with an ACL for guest 1's SRP
# initiator port ID, listening on the RDMA CM (srpt's rdma_cm_port).  Guest 1 logs
# in with ib_srp through the RDMA CM (add_target's dest=IP:PORT: RoCE has
# no subnet manager to find the target with), writes the whole LUN with
# wren-pattern's seeded stream with O_DIRECT, reads it back checking
# every byte, prints both rates, and deletes the remote port.  The data
# must have crossed wren_0 as RoCE both ways (the target RDMA READs the
# writes and RDMA WRITEs the reads); nothing of SRP may be left in
# `rdma resource`; the modules unload with no kernel warning.
# The configfs steps are those of LIO's own tools (targetcli's /srpt),
# written out: Documentation/.../apps.rst shows them.
#
#   make vmtest T=rdma/wren-srp.sh KVER=6.12
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"

mb=${WREN_SRP_MB:-32}
pattern=$WREN_TOP/build/tools/wren-pattern
seed=5000
cm_port=5000
pair_init srp "SRP"
plan 8
dmesg -C

rdma_wren_up || bail "$RDMA_SETUP_ERR" "$(dmesg | tail -n 20)"
ok "$RDMA_WREN_DEV on $RDMA_WREN_IF for $WREN_IP"
# Objects of the device before: the MAD layer's (rdma-setup.sh).
base=$(rdma_objects "$RDMA_WREN_DEV")

cfg=/sys/kernel/config/target
backstore=$cfg/core/rd_mcp_0/wren
# The target port is named by wren_0's GID 0 ("0x" and 32 hex digits);
# the ACL is the initiator's SRP port ID, "0x", its 8-byte ID extension
# (0) and the interface ID of its GID 0, which ib_srp logs in with: srpt
# names an RDMA CM session by the target's own address, so the port ID is
# what tells initiators apart.
gid_hex() {
	local g
	read -r g <"/sys/class/infiniband/$RDMA_WREN_DEV/ports/1/gids/0"
	echo "${g//:/}"
}
tport=$cfg/srpt/0x$(gid_hex)
tpg=$tport/tpgt_1
gid_hex >"$res/srp-gid"
wait_for 60 test -s "$peer_res/srp-gid" || bail "the peer's GID"
peer_gid=$(cat "$peer_res/srp-gid")
acl=$tpg/acls/0x0000000000000000${peer_gid:16}

target_up() {
	modprobe target_core_mod && modprobe ib_srpt || return 1
	grep -q " /sys/kernel/config configfs" /proc/mounts ||
		mount -t configfs none /sys/kernel/config || return 1
	mkdir -p "$backstore" &&
		echo "rd_pages=$((mb << 8))" >"$backstore/control" &&
		echo 1 >"$backstore/enable" || return 1
	mkdir -p "$tpg" || return 1
	mkdir "$tpg/lun/lun_0" &&
		ln -s "$backstore" "$tpg/lun/lun_0/wren" || return 1
	mkdir -p "$acl/lun_0" &&
		ln -s "$tpg/lun/lun_0" "$acl/lun_0/lun_0" || return 1
	echo 1 >"$tpg/enable" &&
		echo "$cm_port" >"$cfg/srpt/discovery_auth/rdma_cm_port"
}

# Undone in the reverse order, each step's failure on stderr.
target_down() {
	local d
	echo 0 >"$cfg/srpt/discovery_auth/rdma_cm_port"
	echo 0 >"$tpg/enable"
	rm -f "$acl/lun_0/lun_0" "$tpg/lun/lun_0/wren"
	for d in "$acl/lun_0" "$acl" "$tpg/lun/lun_0" "$tpg" "$tport" \
		"$cfg/srpt" "$backstore" "$cfg/core/rd_mcp_0"; do
		[ ! -d "$d" ] || rmdir "$d"
	done
	modprobe -r ib_srpt
}

# The SCSI disk behind the SRP remote port (LIO's LUN 0), once scanned.
srp_disk() {
	local p host d
	for p in /sys/class/srp_remote_ports/port-*; do
		[ -e "$p" ] || continue
		host=${p##*/port-}
		host=${host%%:*}
		for d in /sys/class/scsi_disk/"$host":*/device/block/*; do
			[ -e "$d" ] && echo "/dev/${d##*/}" && return 0
		done
	done
	return 1
}

# rate BYTES NS: MB/s, one decimal.
rate() {
	echo "$(($1 * 10000 / $2 / 10)).$(($1 * 10000 / $2 % 10))"
}

bytes=$((mb << 20))
tx0=$(rdma_hw_counter "$RDMA_WREN_DEV" tx_roce_bytes)
rx0=$(rdma_hw_counter "$RDMA_WREN_DEV" rx_roce_bytes)
# roce_both_ways: both of this side's RoCE byte counters grew by at least
# the LUN since the start (a check's description, the figures in it).
roce_both_ways() {
	local tx rx
	tx=$(($(rdma_hw_counter "$RDMA_WREN_DEV" tx_roce_bytes) - tx0))
	rx=$(($(rdma_hw_counter "$RDMA_WREN_DEV" rx_roce_bytes) - rx0))
	check "$1 both ways as RoCE on $RDMA_WREN_DEV (tx_roce_bytes +$tx, rx_roce_bytes +$rx)" \
		test "$tx" -ge "$bytes" -a "$rx" -ge "$bytes"
}

if [ "$me" = 0 ]; then
	if target_up >"$res/srp-target.err" 2>&1; then
		cat /sys/module/ib_srpt/parameters/srpt_service_guid >"$res/srp-service-guid"
		ok "LIO target: ib_srpt port ${tport##*/}, $mb MiB ramdisk LUN, ACL ${acl##*/}, RDMA CM port $cm_port"
	else
		diag "$(cat "$res/srp-target.err"; dmesg | tail -n 20)"
		target_down 2>/dev/null
		bail "LIO target: ib_srpt port ${tport##*/}, $mb MiB ramdisk LUN"
	fi
	barrier target 120
	# The initiator logs in and does its I/O; its session is still up.
	barrier io 600
	# LIO's statistics of the LUN as mapped to the initiator's ACL.
	st=$acl/lun_0/statistics/scsi_auth_intr
	read -r wmb <"$st/write_mbytes"
	read -r rmb <"$st/read_mbytes"
	check "LIO served guest 1's port ID: write_mbytes $wmb, read_mbytes $rmb" \
		test "$wmb" -ge "$mb" -a "$rmb" -ge "$mb"
	roce_both_ways "the LUN's data crossed"
	barrier logout 120
	target_down 2>"$res/srp-down.err"
	check "the target taken down, ib_srpt unloaded" test ! -e /sys/module/ib_srpt
	[ ! -s "$res/srp-down.err" ] || diag "$(cat "$res/srp-down.err")"
else
	barrier target 120
	guid=$(cat "$peer_res/srp-service-guid")
	guid=${guid#0x}
	# No udev in the guests to load the disk driver on the LUN's modalias.
	modprobe -a sd_mod ib_srp || bail "modprobe sd_mod ib_srp"
	if ! echo "id_ext=$guid,ioc_guid=$guid,dest=$WREN_PEER_IP:$cm_port" \
		>"/sys/class/infiniband_srp/srp-$RDMA_WREN_DEV-1/add_target" 2>"$res/srp-login.err" ||
	   ! wait_for 30 srp_disk; then
		diag "$(cat "$res/srp-login.err"; dmesg | tail -n 20)"
		bail "ib_srp logged in through the RDMA CM and the LUN appeared"
	fi
	disk=$(srp_disk)
	ok "ib_srp logged in through the RDMA CM: $disk"
	t0=$(date +%s%N)
	"$pattern" gen "$seed" "$bytes" |
		dd of="$disk" bs=1M oflag=direct iflag=fullblock status=none 2>"$res/srp-io.err"
	wrc=$?
	t1=$(date +%s%N)
	dd if="$disk" bs=1M count="$mb" iflag=direct status=none 2>>"$res/srp-io.err" |
		"$pattern" check "$seed" "$bytes" >>"$res/srp-io.err" 2>&1
	rrc=$?
	t2=$(date +%s%N)
	w=$(rate "$bytes" $((t1 - t0)))
	r=$(rate "$bytes" $((t2 - t1)))
	if [ "$wrc" = 0 ] && [ "$rrc" = 0 ]; then
		ok "$mb MiB written with O_DIRECT and read back equal: write $w MB/s, read $r MB/s"
	else
		not_ok "$mb MiB written with O_DIRECT and read back equal (write $wrc, read $rrc)"
		diag "$(cat "$res/srp-io.err")"
	fi
	roce_both_ways "the LUN's data crossed"
	barrier io 600
	for p in /sys/class/srp_remote_ports/port-*; do
		[ -e "$p/delete" ] && echo 1 >"$p/delete"
	done
	wait_for 30 sh -c '! ls -d /sys/class/srp_remote_ports/port-* >/dev/null 2>&1'
	modprobe -r ib_srp
	barrier logout 120
	check "the remote port deleted, ib_srp unloaded" test ! -e /sys/module/ib_srp
fi

if wait_for 30 rdma_objects_are "$RDMA_WREN_DEV" "$base"; then
	ok "$RDMA_WREN_DEV holds only the MAD layer's objects again"
else
	not_ok "$RDMA_WREN_DEV holds only the MAD layer's objects again"
	diag "before: $base; now: $(rdma_objects "$RDMA_WREN_DEV")"
fi
check_dmesg "no kernel warnings"
check "rmmod wren_ib and wren" wren_unload
tap_done
