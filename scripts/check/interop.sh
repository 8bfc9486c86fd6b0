#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# check-interop: Wren on the wire.  First the host test of the
# capture checker (roce-pcap-check-test.py), then the guest pairs of the
# interop layer of selftests/plan (INTEROP_BOOTS overrides them), each
# followed by the check of its fabric captures:
#   - selftests/rdma/wren-roce-traffic.sh between two Wren guests with the
#     fabric capturing (PCAP=1), then selftests/host/roce-pcap-check.py
#     over the captures: Wireshark's dissector finds no malformed frame
#     and no error, every ICRC is right, and Wren sent every kind of
#     frame the traffic should produce;
#   - selftests/rdma/wren-rxe-interop.sh between a Wren guest and an
#     rdma_rxe guest on the same fabric (RXE=1), captured the same way,
#     and the same check over both implementations' frames.
# Guest TAP lands in $BUILD/check (vmtest.sh), the captures' TAP in
# $BUILD/check/roce-pcap-<test>-<KVER>.tap.
. "$(dirname "$0")/../lib/common.sh"
set +e # failures are handled here, one by one

check=$BUILD/check
. "$SCRIPTS/lib/plan.sh"
boots=${INTEROP_BOOTS:-$(plan_boots interop)}
append=${APPEND:-watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=120}
pcapcheck=$TOP/selftests/host/roce-pcap-check.py
status=0
mkdir -p "$check"

# What each side of the traffic sends (roce-pcap-check.py's names).
requests=RC_SEND_FIRST,RC_SEND_MIDDLE,RC_SEND_LAST,RC_SEND_ONLY,RC_SEND_LAST_IMM,RC_SEND_ONLY_IMM,RC_WRITE_FIRST,RC_WRITE_MIDDLE,RC_WRITE_LAST,RC_WRITE_ONLY,RC_WRITE_LAST_IMM,RC_WRITE_ONLY_IMM,RC_READ_REQUEST,RC_CMP_SWAP,RC_FETCH_ADD,UD_SEND_ONLY,UD_SEND_ONLY_IMM
responses=RC_ACK,RC_ATOMIC_ACK,RC_READ_RESPONSE_FIRST,RC_READ_RESPONSE_MIDDLE,RC_READ_RESPONSE_LAST,RC_READ_RESPONSE_ONLY,RC_NAK_REM_ACCESS,RC_NAK_INV_REQ

# pcap_check TEST BOOT KVER ARGS...: roce-pcap-check.py over the captures
# of the vmtest run of BOOT, TAP into the check directory.
pcap_check() {
	local test=$1 boot=$2 kver=$3 tap run
	shift 3
	run=$BUILD/bench/vmtest-$kver-$boot/pcap-wren
	tap=$check/roce-pcap-$(basename "$test" .sh)-$kver.tap
	if ! compgen -G "$run/port*.pcap" >/dev/null; then
		printf '1..1\nnot ok 1 - roce-pcap/%s: no captures in %s\n' "$kver" "$run" >"$tap"
		status=1
		return
	fi
	"$pcapcheck" --prefix "roce-pcap/$kver/$(basename "$test" .sh): " "$@" "$run"/port*.pcap >"$tap" ||
		status=1
	echo "check-interop: $tap: $(grep -c '^ok' "$tap") ok, $(grep -c '^not ok' "$tap") not ok"
}

"$SCRIPTS/deps/tshark.sh" || status=1
make -C "$TOP" --no-print-directory check-roce-pcap-host || status=1
make -C "$TOP" --no-print-directory rdma-tests || status=1
# The modules and the bench's own dependencies once for all the boots,
# not before each (vmtest VMTEST_DEPS=0).
# shellcheck disable=SC2086 # boot names
for kver in $(plan_kvers $boots); do
	make -C "$TOP" --no-print-directory modules KVER="$kver" || status=1
	make -C "$TOP" --no-print-directory vmtest-deps KVER="$kver" || status=1
done
for b in $boots; do
	echo "check-interop: $(plan_boot "$b" | sed "s/^interop /$b: KVER=/")"
	make -C "$TOP" --no-print-directory vmtest B="$b" TIMEOUT=1200 \
		APPEND="$append" VMTEST_DEPS=0 || status=1
	plan_boot "$b" >/dev/null
	kver=$PLAN_KVER
	for t in $(plan_boot_tests "$b" | cut -d' ' -f1); do
		case $t in
		rdma:wren-roce-traffic.sh)
			pcap_check rdma/wren-roce-traffic.sh "$b" "$kver" \
				--label 52:54:00:00:00:01=target --label 52:54:00:00:00:02=initiator \
				--expect "initiator:$requests,RC_SEND_ONLY_INV,RC_SEND_LAST_INV" \
				--expect "target:$responses,RC_RNR_NAK,RC_NAK_PSN_SEQ_ERR,RC_NAK_REM_OP"
			;;
		rdma:wren-rxe-interop.sh)
			# IBA 1.5's ATOMIC WRITE both ways where the kernels
			# report it (6.2 and later); FLUSH does not pass
			# between the two (selftests/rdma/verbs/iba15.c).
			iba15=
			[ "$kver" = 6.1 ] || iba15=,RC_ATOMIC_WRITE
			pcap_check rdma/wren-rxe-interop.sh "$b" "$kver" \
				--label 52:54:00:00:00:01=wren --label 52:54:00:00:00:02=rxe \
				--expect "wren:$requests,$responses$iba15" \
				${iba15:+--expect "rxe:RC_ATOMIC_WRITE"}
			;;
		esac
	done
done
exit $status
