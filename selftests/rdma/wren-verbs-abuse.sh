#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, one guest: a process that runs the NIC out of resources,
# and one that attacks wren_ib's uverbs ABI.
#
#   1. wren_verbs_test limits (verbs/limits.c): contexts (doorbell
#      pages), PDs, CQs, QPs, SRQs and MRs each filled until the device
#      refuses with ENOMEM at its advertised limit, and filled again to
#      the same count once freed; a CQ overrun raises IBV_EVENT_CQ_ERR;
#      a CQ with completions pending grows and refuses to shrink below
#      them (ibv_resize_cq);
#      an SRQ below its armed limit raises IBV_EVENT_SRQ_LIMIT_REACHED
#      once; an SRQ with receives posted grows (ibv_modify_srq
#      IBV_SRQ_MAX_WR) and they and more complete in order; a WREN_LIMITS_BIG_MR_MIB MiB MR (1024: the boot needs
#      MEM=1536 or more) written and read at both ends and the middle
#      through QPs the NIC loops back to itself;
#   2. wren_verbs_test abuse (verbs/abuse.c): raw uverbs commands
#      with short, oversized and garbage driver data, bad addresses,
#      wrong and stale handles, double destroys, made-up mmap offsets,
#      and two threads destroying the same QP while a third rings
#      doorbells for it; the process exits with objects left, for the
#      kernel to clean up;
#   3. wren_verbs_test mw (verbs/mw.c): memory windows of type 1
#      and 2 bound, used for RDMA WRITE and READ, refused out of range,
#      rights or binding, rebound, unbound, invalidated (LOCAL_INV,
#      SEND_WITH_INV) and deallocated over a loopback RC pair; an MR
#      with a bound window refuses ibv_dereg_mr (EBUSY); every case
#      skips on a device with max_mw 0;
#   4. wren_verbs_test mcast (verbs/mcast.c): UD multicast through
#      the NIC's loopback - two QPs attached receive each message once,
#      a detached one nothing; refused attaches and detaches; the group
#      table filled to max_mcast_grp and a group to max_mcast_qp_attach,
#      then ENOMEM; every case skips on a device with max_mcast_grp 0;
#   5. wren_verbs_test clock (verbs/clock.c): the device clock
#      (hca_core_clock, ibv_query_rt_values_ex near real time and
#      advancing with it) and extended CQs with completion timestamps,
#      device and wall-clock, each between a clock read before the post
#      and one after the poll, also after a resize; every case skips on
#      a device without a clock;
#   6. wren_verbs_test import (verbs/import.c): a second context on
#      a dup of the command file (ibv_import_device) with the owner's PD
#      and MR imported, RDMA WRITE and SEND between a QP of each context,
#      the importer working on after the owner closed its context; bad
#      files and handles refused;
#   7. wren_verbs_test xrc (verbs/xrc.c): XRC domains opened through
#      files, XRC SRQs with CQs of their own, an XRC initiator and target
#      over the NIC's loopback carrying SEND, WRITE, READ and an atomic
#      each for the SRQ it names, a second process opening the domain and
#      the target (ibv_open_qp) and receiving on an SRQ of its own, and a
#      request for another domain's SRQ refused;
#   8. wren_verbs_test ctlpath (verbs/ctlpath.c), make bench-rdma's
#      control-path timer, small and untimed: a 64 MiB MR on its 2 MiB
#      aligned buffer and 100 RC QPs made and freed, its figures printed.
#
# After each the device holds what it held before (rdma resource
# counts); dmesg stays clean and the modules unload.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"

bin=$WREN_TOP/build/tests/rdma/wren_verbs_test
res=${WREN_RESULTS:-/tmp}
big=${WREN_LIMITS_BIG_MR_MIB:-1024}
# The programs' results: the plans of verbs/limits.c, abuse.c, mw.c,
# mcast.c, clock.c, import.c, xrc.c.
n_limits=26
n_abuse=69
n_mw=21
n_mcast=6
n_clock=6
n_import=7
n_xrc=9
plan $((1 + n_limits + 1 + n_abuse + 2 + n_mw + 1 + n_mcast + 1 + n_clock + 1 + n_import + 1 + n_xrc + 1 + 1 + 2))
dmesg -C

if ! rdma_env_check 2>"$res/abuse-env.err" || [ ! -x "$bin" ]; then
	not_ok "rdma-core with libwren and wren_verbs_test are built"
	diag "$(cat "$res/abuse-env.err"); run make rdma-tests"
	exit 1
fi
rdma_wren_up || {
	not_ok "$RDMA_SETUP_ERR"
	exit 1
}
ok "$RDMA_WREN_DEV on $RDMA_WREN_IF, RoCE v2 GID index $RDMA_WREN_GID"
counts() { rdma resource show 2>/dev/null | sed -n "s/^[0-9]*: $RDMA_WREN_DEV: //p"; }
# counts_are OBJECTS: counts() is OBJECTS now (a function, so that
# wait_for reads the counts at each try, not once).
counts_are() { [ "$(counts)" = "$1" ]; }
before=$(counts)

# run MODE CASES ARGS...: one wren_verbs_test mode, its TAP as ours, then
# the device's object counts against the ones before it.
run() {
	local mode=$1 ncases=$2 rc t0=$SECONDS after
	shift 2
	timeout 600 "$bin" "$mode" -d "$RDMA_WREN_DEV" -g "$RDMA_WREN_GID" "$@" \
		>"$res/$mode.out" 2>"$res/$mode.err"
	rc=$?
	tap_relay_cases "$mode: " "$res/$mode.out" "$ncases" case "exit $rc"
	[ -s "$res/$mode.err" ] && diag "$(tail -n 20 "$res/$mode.err")"
	diag "wren_verbs_test $mode: exit $rc, $((SECONDS - t0)) s"
	# A closed file's objects go with ib_uverbs' cleanup of its context.
	wait_for 20 counts_are "$before"
	after=$(counts)
	check "$mode: the device holds what it held before: $after" test "$after" = "$before"
	[ "$after" = "$before" ] || diag "before: $before"
}

db_errors() { ethtool -S "$RDMA_WREN_IF" | awk '$1 == "port_db_errors:" { print $2 }'; }

run limits "$n_limits" --big-mr-mib "$big"
db0=$(db_errors)
run abuse "$n_abuse"
db1=$(db_errors)
# The abuse's doorbells: SQ doorbells for QPs in RESET or gone, CQ
# doorbells past what the CQ produced, an Ethernet doorbell on a user
# page.  The NIC ignores and counts each.
check "the NIC ignored and counted the bad doorbells (port_db_errors ${db0:-?} -> ${db1:-?})" \
	test "${db1:-0}" -gt "${db0:-0}"
run mw "$n_mw"
run mcast "$n_mcast"
run clock "$n_clock"
run import "$n_import"
run xrc "$n_xrc"
# Not TAP: it exits 1 when a verb fails; the figures' lines must be there.
ctlpath_ok() {
	local o=$res/ctlpath.out
	if "$bin" ctlpath -d "$RDMA_WREN_DEV" --big-mr-mib 64 --qps 100 >"$o" 2>&1 &&
	   grep -q '^ctlpath: reg_mr_64_mib [0-9.]* ms$' "$o" &&
	   grep -q '^ctlpath: create_destroy_100_rc_qps [0-9.]* ms$' "$o" &&
	   grep -q '^reg_mr: the 64 MiB buffer is 2 MiB aligned' "$o"; then
		return 0
	fi
	tail -n 20 "$o"
	return 1
}
check "ctlpath: a 64 MiB MR and 100 RC QPs made and freed, figures printed" ctlpath_ok

# Later tests of a shared boot load the modules themselves.
check "wren_ib.ko and wren.ko unload" wren_unload
check_dmesg "dmesg has no warnings, oopses or timeouts"
tap_done
