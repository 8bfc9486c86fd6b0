#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, run by both guests at once: RC between the two Wren NICs
# over a bad wire.  Guest 1 drives (the active side of wren_verbs_test bw
# and the fabric's fault settings), guest 0 is the passive side.
#
#   1. with the fabric losing and corrupting frames on guest 0's link and
#      duplicating and reordering them towards both guests (rates below),
#      32 MiB of RDMA WRITE, READ and SEND and a run of atomic
#      fetch-and-adds complete with every byte and every atomic result
#      checked: a responder that executed a duplicated atomic twice, or a
#      requester that took a reordered response for its own, fails here;
#   2. the counters that should move, moved: the fabric's injected
#      faults; on the requester (guest 1) the NIC's retransmits and ICRC
#      errors, on the responder (guest 0) its ICRC errors, out-of-sequence
#      packets and duplicate requests;
#   3. a link flap in the middle of a WRITE stream: the link is down for
#      WREN_FAULT_FLAP_S seconds, within the QP's retry budget (local ACK
#      timeout 2^18 x 4.096 us = 1.07 s, 7 retries), and the WRITE
#      completes with its data verified once the link is back; the frames
#      sent towards the downed port found no way (the fabric dropped or
#      flooded them to nobody) and the requester retransmitted.
#
# Rates (WREN_FAULT_*, probability or N%): loss 1% and corruption 1% each
# way on guest 0's link, duplication 2% and reordering 2% of the frames
# the fabric sends each guest.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/fabric.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"

pair_init wf "wire fault"
bin=$WREN_TOP/build/tests/rdma/wren_verbs_test
# 32 MiB an operation: at MTU 1024 some 330 frames lost and as many
# corrupted on guest 0's link each way, and four times that duplicated or
# reordered; 64 MiB took 4 s more an operation for no more kinds.
mib=${WREN_FAULT_MIB:-32}
atomics=${WREN_FAULT_ATOMICS:-16384}
loss=${WREN_FAULT_LOSS:-1%}
corrupt=${WREN_FAULT_CORRUPT:-1%}
dup=${WREN_FAULT_DUPLICATE:-2%}
reorder=${WREN_FAULT_REORDER:-2%}
flap_s=${WREN_FAULT_FLAP_S:-2}
# As wren-rdma.sh's loss test: go-back-N resends what is in flight, so a
# few 256 KiB WRITEs in flight keep a bad wire's cost bounded.
size=262144
depth=4
peer_ctl=$WREN_PEER_VIRTIO_IP
ops="write read send atomic"
if [ "$me" = 0 ]; then
	plan 9
else
	plan 13
fi

# --- setup ---------------------------------------------------------------
if rdma_env_check 2>"$res/wf-env.err" && [ -x "$bin" ]; then
	ok "rdma-core with libwren and wren_verbs_test are built"
else
	bail "rdma-core with libwren and wren_verbs_test are built" \
		"$(cat "$res/wf-env.err"); run make rdma-tests"
fi
dmesg -C
rdma_wren_up || bail "$RDMA_SETUP_ERR"
dev=$RDMA_WREN_DEV
gidx=$RDMA_WREN_GID
counters=/sys/class/infiniband/$dev/ports/1/hw_counters
counter() { local v; read -r v <"$counters/$1" 2>/dev/null && echo "${v:-0}"; }
# Each NIC sees the faults from its side: guest 0's link corrupts both
# ways, so both count ICRC errors; the requester retransmits what was
# lost; the responder sees the gaps (out of sequence) and the resends
# and fabric copies of what it had executed (duplicate requests).
if [ "$me" = 0 ]; then
	nic_counters="rx_icrc_errors out_of_sequence duplicate_request"
else
	nic_counters="retransmits rx_icrc_errors"
fi
declare -A before
for c in $nic_counters; do
	before[$c]=$(counter "$c")
done

barrier up
if [ "$me" = 1 ]; then
	{
		fabric_ctl loss 0 "$loss" && fabric_ctl corrupt 0 "$corrupt" &&
			fabric_ctl duplicate all "$dup" && fabric_ctl reorder all "$reorder"
	} >/dev/null
	check "fabric: loss $loss and corruption $corrupt on guest 0's link, duplication $dup and reordering $reorder to both" \
		test $? = 0
fi
barrier faults-on

# run_op OP PORT MIB: one bw run; the passive side checks its buffer,
# the active side its completions (and READ and atomic results).
run_op() {
	local op=$1 port=$2 m=$3 rc t0 what
	shift 3
	if [ "$op" = atomic ]; then
		what="$atomics atomic fetch-and-adds"
		set -- --iters "$atomics" "$@"
	else
		what="$m MiB RDMA ${op^^}"
		set -- --size "$size" --iters $(((m << 20) / size)) "$@"
	fi
	if [ "$me" = 0 ]; then
		timeout 600 "$bin" bw --passive --listen "$port" --op "$op" --size "$size" \
			--depth "$depth" --mr-mib "$m" --verify -d "$dev" -g "$gidx" \
			>"$res/wf-$op-$port.out" 2>&1
		rc=$?
		if [ "$rc" = 0 ]; then
			ok "passive side of the $what: its memory checked"
		else
			not_ok "passive side of the $what (exit $rc)"
			diag "$(tail -n 5 "$res/wf-$op-$port.out")"
		fi
	else
		t0=$SECONDS
		timeout 600 "$bin" bw --active --connect "$peer_ctl:$port" --op "$op" \
			--depth "$depth" --mr-mib "$m" --verify -d "$dev" -g "$gidx" \
			"$@" >"$res/wf-$op-$port.out" 2>&1
		rc=$?
		if [ "$rc" = 0 ] && grep -q "verified" "$res/wf-$op-$port.out"; then
			ok "$what over the bad wire complete, data verified ($((SECONDS - t0)) s)"
		else
			not_ok "$what over the bad wire complete, data verified"
			diag "exit $rc after $((SECONDS - t0)) s: $(tail -n 5 "$res/wf-$op-$port.out")"
		fi
		diag "$(grep '^# bw:' "$res/wf-$op-$port.out")"
	fi
}

port=18700
for op in $ops; do
	port=$((port + 1))
	barrier "op-$op"
	run_op "$op" "$port" "$mib"
done

barrier faults-done
if [ "$me" = 1 ]; then
	st0=$(fabric_ctl stats 0)
	st1=$(fabric_ctl stats 1)
	{
		fabric_ctl loss 0 0 && fabric_ctl corrupt 0 0 &&
			fabric_ctl duplicate all 0 && fabric_ctl reorder all 0
	} >/dev/null
	fstat() { awk -v k="$2" '$3 == k { print $4; exit }' <<<"$1"; }
	lost=$(($(fstat "$st0" drop_rx_loss) + $(fstat "$st0" drop_tx_loss)))
	bad=$(($(fstat "$st0" rx_corrupted) + $(fstat "$st0" tx_corrupted)))
	dups=$(($(fstat "$st0" tx_duplicated) + $(fstat "$st1" tx_duplicated)))
	reord=$(($(fstat "$st0" tx_reordered) + $(fstat "$st1" tx_reordered)))
	check "fabric: $lost lost, $bad corrupted, $dups duplicated, $reord reordered" \
		test "$lost" -gt 0 -a "$bad" -gt 0 -a "$dups" -gt 0 -a "$reord" -gt 0
fi
barrier faults-off
moved='' stuck=''
for c in $nic_counters; do
	now=$(counter "$c")
	moved="$moved $c ${before[$c]:-?}->${now:-?}"
	[ "${now:-0}" -gt "${before[$c]:-0}" ] || stuck="$stuck $c"
done
check "NIC counters moved:$moved" test -z "$stuck"

# --- link flap in the middle of a WRITE ----------------------------------
# A timed run (WREN_FAULT_FLAP_RUN_S): the active side says it is under
# way after its first 256 completions, the link goes down, comes back,
# and the flow goes on to its end; the passive side checks what landed.
barrier flap
flap_run=${WREN_FAULT_FLAP_RUN_S:-8}
if [ "$me" = 1 ]; then
	rm -f "$res/wf-flap-ready"
	# Frames for a port whose link is down are dropped if they were
	# queued to it, flooded to the other (down) ports otherwise: the
	# fabric forgets a downed port's MAC.
	lost_way() {
		echo $(($(fabric_stat 0 drop_tx_link_down) + $(fabric_stat 0 drop_rx_link_down) +
			$(fabric_stat 1 flooded)))
	}
	way0=$(lost_way) rtx0=$(counter retransmits)
	t0=$SECONDS
	timeout 600 "$bin" bw --active --connect "$peer_ctl:18710" --op write \
		--size "$size" --depth "$depth" --mr-mib "$mib" --seconds "$flap_run" \
		--timeout 18 --ready-file "$res/wf-flap-ready" -d "$dev" -g "$gidx" \
		>"$res/wf-flap.out" 2>&1 &
	pid=$!
	if wait_for 120 test -e "$res/wf-flap-ready"; then
		fabric_ctl link 0 down >/dev/null
		nap "$flap_s"
		fabric_ctl link 0 up >/dev/null
		ok "link of guest 0 down for $flap_s s in the middle of a ${flap_run} s WRITE stream"
	else
		not_ok "the WRITE stream got under way within 120 s"
	fi
	wait "$pid"
	rc=$?
	if [ "$rc" = 0 ] && grep -q "^OK WRITE data verified" "$res/wf-flap.out"; then
		ok "the WRITE stream survived the flap, data verified ($((SECONDS - t0)) s)"
	else
		not_ok "the WRITE stream survived the flap, data verified"
		diag "exit $rc after $((SECONDS - t0)) s: $(tail -n 5 "$res/wf-flap.out")"
	fi
	diag "$(grep '^# bw:' "$res/wf-flap.out")"
	way=$(($(lost_way) - way0)) rtx=$(($(counter retransmits) - rtx0))
	check "frames towards the downed link found no way ($way) and were retransmitted ($rtx)" \
		test "$way" -gt 0 -a "$rtx" -gt 0
else
	timeout 600 "$bin" bw --passive --listen 18710 --op write --size "$size" \
		--depth "$depth" --mr-mib "$mib" --verify --timeout 18 -d "$dev" -g "$gidx" \
		>"$res/wf-flap.out" 2>&1
	rc=$?
	check "passive side of the WRITE stream across the flap (exit $rc)" test "$rc" = 0
	[ "$rc" = 0 ] || diag "$(tail -n 5 "$res/wf-flap.out")"
fi
barrier flap-done
# Later tests of a shared boot load the modules themselves.
check "wren_ib.ko and wren.ko unload" wren_unload
check_dmesg "dmesg has no warnings, oopses or timeouts"
tap_done
