#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test: dma-buf MRs on the local Wren device alone, with
# wren_dmabuf_test (wren_dmabuf_test.c, `make rdma-tests`).  A memfd made
# into a dma-buf by udmabuf is registered with ibv_reg_dmabuf_mr; two RC
# QPs of the device, connected to each other, WRITE a seeded pattern into
# it and READ it back through the NIC's loopback, checked through the
# memfd's own mapping; NCCL's probe (fd -1) must fail with EBADF and a
# wrong rkey with a remote access error.  Needs udmabuf, which Debian's
# 6.12 kernel has and 6.1 lacks: there the dma-buf cases are skipped with
# that reason.  No peer is needed.
#
#   flock /tmp/wren-guest.lock make vmtest T=rdma/wren-dmabuf.sh KVER=6.12
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"

bin=$WREN_TOP/build/tests/dmabuf/wren_dmabuf_test
res=${WREN_RESULTS:-/tmp}
dmesg -C

setup_failed() {
	not_ok "$1"
	[ -n "${2:-}" ] && diag "$2"
	wren_ib_unload 2>/dev/null
	rmmod wren 2>/dev/null
	tap_done
	exit 1
}

rdma_env_check 2>"$res/dmabuf-env.err" ||
	setup_failed "the bench's rdma-core build with libwren is in place" "$(cat "$res/dmabuf-env.err")"
[ -x "$bin" ] || setup_failed "wren_dmabuf_test is built (make rdma-tests)"
rdma_wren_up || setup_failed "$RDMA_SETUP_ERR" "$(dmesg | tail -n 20)"
ok "$RDMA_WREN_DEV on $RDMA_WREN_IF, RoCE v2 GID index $RDMA_WREN_GID for $WREN_IP"

# Built in on Debian's 6.12 (CONFIG_UDMABUF=y), a module elsewhere.
modprobe udmabuf 2>/dev/null || true
loaded=0
grep -q '^udmabuf ' /proc/modules && loaded=1

# run LABEL ARGS...: one wren_dmabuf_test run, its PASS/FAIL/SKIP lines
# as TAP; sets rc, cases, shift_ (the MR's page_shift per rdma res) and
# mtt (its num_mtt).
run() {
	local label=$1 line lkey='' out t0=$SECONDS
	shift
	out=$(timeout 300 "$bin" -d "$RDMA_WREN_DEV" -g "$RDMA_WREN_GID" \
		-x "rdma -dd res show mr dev $RDMA_WREN_DEV" "$@" 2>&1)
	rc=$?
	cases=0 shift_='' mtt=''
	while IFS= read -r line; do
		case $line in
		"PASS "*) ok "$label: ${line#PASS }"; cases=$((cases + 1)) ;;
		"FAIL "*) not_ok "$label: ${line#FAIL }"; cases=$((cases + 1)) ;;
		"SKIP "*)
			line=${line#SKIP }
			skip "$label: ${line%%: *}" "${line#*: }"
			;;
		"INFO dmabuf lkey "*) lkey=${line#INFO dmabuf lkey } ;;
		*)
			diag "$line"
			if [ -n "$lkey" ] && [[ $line == *"lkey $lkey "* ]]; then
				[[ $line =~ page_shift[[:space:]]+([0-9]+) ]] && shift_=${BASH_REMATCH[1]}
				[[ $line =~ num_mtt[[:space:]]+([0-9]+) ]] && mtt=${BASH_REMATCH[1]}
			fi
			;;
		esac
	done <<<"$out"
	diag "$label: wren_dmabuf_test exit $rc, $((SECONDS - t0)) s, page_shift ${shift_:-?}, num_mtt ${mtt:-?}"
}

if [ -c /dev/udmabuf ]; then
	# 4 KiB pages of a memfd, which need not be contiguous.
	run "4k" -s $((1 << 20))
	if [ "$rc" = 0 ] && [ "$cases" = 8 ]; then
		ok "4k: all 8 cases ran and passed"
	else
		not_ok "4k: all 8 cases ran and passed (exit $rc, $cases cases)"
	fi
	# 2 MiB huge pages: the MTT must use pages of at least 2 MiB.
	hp=/proc/sys/vm/nr_hugepages
	hp_was=$(cat "$hp")
	echo $((hp_was + 4)) >"$hp" 2>/dev/null
	if [ "$(cat "$hp")" -ge $((hp_was + 4)) ]; then
		run "2m" -H -s $((4 << 20))
		if [ "$rc" = 0 ] && [ "$cases" = 8 ]; then
			ok "2m: all 8 cases ran and passed"
		else
			not_ok "2m: all 8 cases ran and passed (exit $rc, $cases cases)"
		fi
		if [ -n "$shift_" ] && [ "$shift_" -ge 21 ] &&
		   [ "$mtt" = $(((4 << 20) >> shift_)) ]; then
			ok "2m: the MTT uses ${shift_}-bit pages, $mtt entries for 4 MiB"
		else
			not_ok "2m: the MTT uses pages of at least 2 MiB (page_shift ${shift_:-?}, num_mtt ${mtt:-?})"
		fi
	else
		skip "2m: dma-buf MR of huge pages" "no 2 MiB huge pages to reserve"
	fi
	echo "$hp_was" >"$hp" 2>/dev/null
	[ "$loaded" = 1 ] && rmmod udmabuf 2>/dev/null
else
	# The verb exists on every kernel: NCCL's probe still runs.
	run "no udmabuf" -s $((1 << 20))
	if [ "$rc" = 0 ]; then
		ok "no udmabuf: the probe case passed"
	else
		not_ok "no udmabuf: the probe case passed (exit $rc)"
	fi
	skip "dma-buf MRs of memory" "no udmabuf in this kernel ($(uname -r))"
fi

check_dmesg "no kernel warnings"
check "rmmod wren_ib and wren" wren_unload
tap_done
