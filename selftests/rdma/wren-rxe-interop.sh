#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, run by both guests at once (N=2, RXE=1): Wren against Linux's
# rdma_rxe on the wire.  Guest 0 has a Wren NIC, guest 1 a virtio-net NIC
# on the same fabric with rdma_rxe on it (tools/testbench/vmrun.sh RXE=);
# rxe is the independent RoCEv2 implementation, so a failure here is a bug
# in the Wren model until shown otherwise.  Everything runs in both
# directions (the server / target on either side):
#
#   1. rdma-core's ibv_rc_pingpong and ibv_ud_pingpong with -c (the data
#      of every iteration compared);
#   2. our wren_verbs_test (verbs/): the data of every RC opcode and
#      size pattern checked byte for byte on both sides, atomics'
#      results, and the protection cases (NAKs on the wire), target on one
#      side, initiator on the other; IBA 1.5's ATOMIC WRITE where both
#      kernels report it (6.12), but not FLUSH, whose ICRC rxe computes
#      over its headers twice (verbs/iba15.c says why);
#   3. rping through rdma_cm (Wren's GSI QP1 against rxe's), every ping
#      buffer validated on both sides (-V);
#   4. Debian's perftest: ib_write_bw and ib_read_bw at 64 KiB (2 walks
#      the sizes), ib_atomic_bw with fetch-and-add and compare-and-swap
#      (perftest does not check data: 1 to 3 do);
#   5. loss recovery between the two: with the fabric dropping 1% of the
#      frames on the rxe guest's link (both ways), wren_verbs_test's bw
#      mode moves WREN_INTEROP_LOSS_MIB (8) MiB by RDMA WRITE and by RDMA
#      READ in 256 KiB messages, 4 deep, active side on either guest, and
#      the passive side checks every byte (--verify): sequence error NAKs,
#      timeouts and go-back-N retransmission across implementations.
#
# With PCAP=1 the fabric captures 1 to 3 (not 4 and 5, which are bulk),
# and selftests/host/roce-pcap-check.py can check both sides' frames after
# the run (scripts/check/interop.sh does).
#
#   flock /tmp/wren-guest.lock make vmtest T=rdma/wren-rxe-interop.sh RXE=1
#
# WREN_INTEROP_ITERS: pingpong iterations (100); WREN_INTEROP_RPING: rping
# count (10); WREN_INTEROP_PT_ITERS:
# perftest iterations per size (5; perftest's minimum).
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/fabric.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"
. "$WREN_TOP/selftests/lib/rdma-fabric.sh"
. "$WREN_TOP/selftests/lib/perftest.sh"

iters=${WREN_INTEROP_ITERS:-100}
pt_iters=${WREN_INTEROP_PT_ITERS:-5}
rping_count=${WREN_INTEROP_RPING:-10}
bin=$WREN_TOP/build/tests/rdma/wren_verbs_test
pingpongs=(
	"ibv_rc_pingpong -s 4096"
	"ibv_rc_pingpong -s 65536"
	"ibv_ud_pingpong -s 1024"
)
perftests=(
	"ib_write_bw -s 65536"
	"ib_read_bw -s 65536"
	"ib_atomic_bw -A FETCH_AND_ADD"
	"ib_atomic_bw -A CMP_AND_SWAP"
)
pair_init interop "interop"
loss_mib=${WREN_INTEROP_LOSS_MIB:-8}
# Per direction: each pingpong, the verbs cases, rping, each perftest,
# WRITE and READ under loss.
plan $((3 + 2 * (${#pingpongs[@]} + 2 + ${#perftests[@]} + 2)))
dmesg -C

if ! rdma_env_check 2>"$res/interop-env.err" || [ ! -x "$bin" ]; then
	bail "the bench's rdma-core build with libwren and wren_verbs_test are in place" \
		"$(cat "$res/interop-env.err"); run make rdma-tests"
fi
modprobe rdma_ucm || bail "modprobe rdma_ucm"
rdma_fabric_up || bail "$RDMA_SETUP_ERR" "$(dmesg | tail -n 20)"
ok "$RDMA_KIND: $RDMA_DEV on $RDMA_IF, RoCE v2 GID index $RDMA_GID for $WREN_IP"
echo "$RDMA_KIND" >"$res/interop-kind"
barrier up
read -r peer_kind <"$peer_res/interop-kind"
if [ "$RDMA_KIND" = "$peer_kind" ]; then
	bail "one guest on Wren, the other on rxe" "both are $RDMA_KIND: run with RXE=1"
fi
check "ping $WREN_PEER_IP over $RDMA_IF (the fabric)" \
	wait_for 60 busybox ping -c 1 -W 2 "$WREN_PEER_IP"

# perftest gives the requester the responder's outstanding-read count as
# max_rd_atomic: with rxe's 128 against Wren's smaller limit the Wren
# side's modify to RTS fails (EINVAL, as mlx5 and rxe themselves refuse a
# max_rd_atomic above their max_qp_rd_atom).  Both use the smaller one.
rd_atom() {
	ibv_devinfo -v -d "$RDMA_DEV" | awk '
		$1 == "max_qp_rd_atom:" || $1 == "max_qp_init_rd_atom:" {
			if (m == "" || $2 < m) m = $2 }
		END { print m + 0 }'
}
rd_atom >"$res/interop-rd-atom"
barrier rd-atom
read -r my_rd <"$res/interop-rd-atom"
read -r peer_rd <"$peer_res/interop-rd-atom"
out_reads=$((my_rd < peer_rd ? my_rd : peer_rd))
diag "outstanding reads/atomics for perftest: $out_reads (ours $my_rd, the peer's $peer_rd)"

# side S: "wren" or "rxe", the device of guest S.
side() {
	if [ "$1" = "$me" ]; then echo "$RDMA_KIND"; else echo "$peer_kind"; fi
}

# pingpong SERVER PORT PROGRAM ARGS...: guest SERVER serves, the other
# connects over the control network and retries until it listens.
pingpong() {
	local srv=$1 port=$2 out rc=1 i what
	shift 2
	local cmd=("$1" -d "$RDMA_DEV" -g "$RDMA_GID" -p "$port" -n "$iters" -c "${@:2}")
	what="$* -c, server on $(side "$srv"), client on $(side $((1 - srv)))"
	if [ "$me" = "$srv" ]; then
		out=$(timeout 180 "${cmd[@]}" 2>&1)
		rc=$?
	else
		for ((i = 0; i < 60; i++)); do
			out=$(timeout 180 "${cmd[@]}" "$WREN_PEER_VIRTIO_IP" 2>&1)
			rc=$?
			[[ $out == *"Couldn't connect"* ]] || break
			nap 0.3
		done
	fi
	# "ITERS iters in S seconds" comes only after every iteration, -c
	# having compared the data.
	if [ "$rc" = 0 ] && [[ $out == *"$iters iters in"* ]]; then
		ok "$what: $iters iterations, data checked"
		diag "$(grep -E 'bytes in|iters in' <<<"$out")"
	else
		not_ok "$what (exit $rc)"
		diag "$out"
	fi
}

# only_reasons DIAG PATTERN...: every reason of a failed case (its "#"
# lines, reasons joined by "; ") matches one of the glob PATTERNs.
only_reasons() {
	local diag=$1 r p hit
	shift
	diag=${diag//$'\n'/; }
	while [ -n "$diag" ]; do
		r=${diag%%; *}
		[ "$r" = "$diag" ] && diag= || diag=${diag#*; }
		r=${r#\# }
		r=${r#target: }
		[ -z "${r// /}" ] && continue
		hit=0
		for p in "$@"; do
			# shellcheck disable=SC2053 # p is a glob on purpose
			[[ $r == $p ]] && hit=1 && break
		done
		[ $hit = 1 ] || return 1
	done
}

# known_difference DESC DIAG TARGET_OUT INITIATOR TARGET: why a failing
# wren_verbs_test case is a known rxe behaviour rather than a Wren bug
# (printed), or nothing.  Every reason the case gives must be the
# expected one; each entry was checked against drivers/infiniband/sw/rxe
# of Linux 6.1 (and seen on 6.12).  None concerns the wire, except 2, whose NAK is rxe's
# choice (and Wren completes it as that NAK says), and 4, where rxe grants
# an access through a memory window that the window does not cover.
known_difference() {
	local desc=$1 diag=$2 tout=$3 ini=$4 tgt=$5
	case $desc in
	"SEND with a wrong lkey: LOC_PROT_ERR"*)
		# 1: local only, nothing is sent: on 6.1 copy_data() fails the
		# lkey lookup with -EINVAL and rxe_req.c completes the WR as
		# LOC_QP_OP_ERR; since "RDMA/rxe: Fix multiple rxe_qp_error
		# calls" (6.10) the QP goes to error and the completer flushes
		# the failed WR with the rest (WR_FLUSH_ERR, seen on 6.12).
		[ "$ini" = rxe ] &&
			only_reasons "$diag" "completion status local QP operation error*want local protection error" \
				"completion status Work Request Flushed Error*want local protection error" &&
			echo "rxe completes a SEND with a bad lkey with LOC_QP_OP_ERR (6.1) or WR_FLUSH_ERR (6.12), not LOC_PROT_ERR (local status, nothing sent)"
		;;
	"SEND longer than the receive:"*)
		# 2: copy_data() returns -EINVAL, not -ENOSPC, when the message
		# is longer than the receive, so send_data_in() takes it for a
		# malformed WQE: NAK Remote Operational Error (not Invalid
		# Request) and LOC_QP_OP_ERR (not LOC_LEN_ERR) on the receive;
		# the Wren sender completes with REM_OP_ERR, as that NAK says.
		[ "$tgt" = rxe ] &&
			[[ $diag == *"receive status local QP operation error, want local length error"* ]] &&
			only_reasons "$diag" "*receive status local QP operation error, want local length error" \
				"completion status remote operation error*want remote invalid request error" &&
			echo "rxe as the receiver of a too-long SEND: LOC_QP_OP_ERR and a Remote Operational Error NAK (Wren: REM_OP_ERR), not LOC_LEN_ERR and Invalid Request"
		;;
	"mw type 2: WRITE of a few packets whose last byte is one past the window:"*)
		# 4: check_rkey() in rxe_resp.c checks an access through a
		# window against the range of the window's MR only
		# (mr_check_range(mw->mr, ...)), not the window's: the WRITE
		# completes and lands past the window, inside the MR (6.1 and
		# 6.12).
		[ "$tgt" = rxe ] &&
			only_reasons "$diag" "completion status success*want remote access error" \
				"CHECK * -> BAD byte at MR offset * changed*" &&
			echo "rxe as the target checks an access through a memory window against the MR's range, not the window's"
		;;
	"mw type 2: SEND_WITH_INV naming the key:"*)
		# 5: rxe writes the kernel's ib_wc flags into its user CQ and
		# rdma-core's rxe provider copies them into ibv_wc.wc_flags as
		# they are: IB_WC_WITH_INVALIDATE (1 << 2) reads as
		# IBV_WC_IP_CSUM_OK, IBV_WC_WITH_INV (1 << 3) is never set.  The
		# invalidated key it reports must be the right one.
		[ "$tgt" = rxe ] &&
			[[ $diag =~ wc_flags\ 0x[0-9a-f]*[4-7],\ invalidated_rkey\ (0x[0-9a-f]+)\;\ want\ IBV_WC_WITH_INV\ \(0x8\)\ and\ (0x[0-9a-f]+) ]] &&
			[ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] &&
			only_reasons "$diag" "WAITRECV * -> BAD receive of a SEND_WITH_INV: wc_flags 0x*, invalidated_rkey 0x*" \
				"want IBV_WC_WITH_INV (0x8) and 0x*" &&
			echo "rxe reports a received SEND_WITH_INV with the kernel's IB_WC_WITH_INVALIDATE bit (IBV_WC_IP_CSUM_OK to libibverbs), not IBV_WC_WITH_INV; the key is right"
		;;
	rereg*)
		# 3: 6.1's rxe has no rereg_user_mr.
		[ "$tgt" = rxe ] && grep -q 'ibv_rereg_mr returned -4, errno 95' "$tout" &&
			echo "rxe has no ibv_rereg_mr (EOPNOTSUPP on the target), so the rereg cases cannot run with rxe as the target"
		;;
	esac
}

# verbs TARGET PORT: wren_verbs_test's target on guest TARGET, the
# initiator on the other.  The initiator's guest judges: every case ok, or
# failing only as known_difference explains (listed as diagnostics); the
# target's guest then reports that verdict for its side.
verbs() {
	local tgt=$1 port=$2 rc t0=$SECONDS total nok what out line desc diag why
	local explained='' unexplained='' ini_kind tgt_kind tout
	ini_kind=$(side $((1 - tgt)))
	tgt_kind=$(side "$tgt")
	what="wren_verbs_test: initiator on $ini_kind, target on $tgt_kind"
	if [ "$me" = "$tgt" ]; then
		timeout 600 "$bin" target -d "$RDMA_DEV" -g "$RDMA_GID" -p "$port" \
			>"$res/interop-target-$port.out" 2>&1
		rc=$?
		barrier "verbs-ran-$port" 600
		wait_for 60 test -e "$peer_res/interop-verdict-$port"
		read -r verdict <"$peer_res/interop-verdict-$port"
		if [ "$rc" = 0 ] || [ "$verdict" = explained ]; then
			ok "$what: the target ran every case, exit $rc ($((SECONDS - t0)) s)"
		else
			not_ok "$what: target exit $rc, initiator's verdict '$verdict'"
			diag "$(tail -n 20 "$res/interop-target-$port.out")"
		fi
		return
	fi
	out=$res/interop-initiator-$port.out
	timeout 600 "$bin" initiator -d "$RDMA_DEV" -g "$RDMA_GID" -p "$port" \
		"$WREN_PEER_VIRTIO_IP" >"$out" 2>"$res/interop-initiator-$port.err"
	rc=$?
	barrier "verbs-ran-$port" 600
	tout=$peer_res/interop-target-$port.out
	total=$(grep -cE '^(not )?ok ' "$out")
	nok=$(grep -c '^ok ' "$out")
	# Each "not ok" with the "#" lines after it.
	desc=
	while IFS= read -r line; do
		case $line in
		"#"*) [ -n "$desc" ] && diag+="$line"$'\n'; continue ;;
		esac
		if [ -n "$desc" ]; then
			why=$(known_difference "$desc" "$diag" "$tout" "$ini_kind" "$tgt_kind")
			if [ -n "$why" ]; then
				explained+="$desc: $why"$'\n'
			else
				unexplained+="$desc"$'\n'"$diag"
			fi
		fi
		desc=
		case $line in
		"not ok "*) desc=${line#not ok * - }; diag= ;;
		esac
		[ "$line" = "<end>" ] && break
	done < <(cat "$out"; echo "<end>")
	if [ "$total" = "$("$bin" count)" ] && [ -z "$unexplained" ] &&
		{ [ "$rc" = 0 ] || [ -n "$explained" ]; }; then
		echo explained >"$res/interop-verdict-$port"
		ok "$what: $nok/$total cases ok ($(grep -c '# SKIP' "$out") skipped), $(grep -c . <<<"${explained%$'\n'}") known rxe differences, $((SECONDS - t0)) s"
		[ -n "$explained" ] && diag "known rxe differences (see known_difference):"$'\n'"$explained"
	else
		echo failed >"$res/interop-verdict-$port"
		not_ok "$what: $nok/$total cases ok, exit $rc"
		diag "$unexplained"
		[ -n "$explained" ] && diag "known rxe differences (see known_difference):"$'\n'"$explained"
		diag "$(tail -n 10 "$res/interop-initiator-$port.err")"
	fi
}

# rping_pair SERVER: rping through rdma_cm, server on guest SERVER, both
# on the fabric addresses; -V compares every ping buffer on both sides.
rping_pair() {
	local srv=$1 out rc=1 n i what
	what="rping -V through rdma_cm, server on $(side "$srv"), client on $(side $((1 - srv)))"
	if [ "$me" = "$srv" ]; then
		out=$(timeout 180 rping -s -a "$WREN_IP" -v -V -C "$rping_count" 2>&1)
		rc=$?
		n=$(grep -c "server ping data: rdma-ping-" <<<"$out")
	else
		# Until the server listens, its CM rejects the connection.
		for ((i = 0; i < 30; i++)); do
			out=$(timeout 120 rping -c -a "$WREN_PEER_IP" -v -V -C "$rping_count" 2>&1)
			rc=$?
			[ "$rc" = 0 ] && break
			[[ $out == *REJECTED* || $out == *"connect error"* ]] || break
			nap 0.3
		done
		n=$(grep -c "^ping data: rdma-ping-" <<<"$out")
	fi
	if [ "$rc" = 0 ] && [ "$n" = "$rping_count" ]; then
		ok "$what: $rping_count pings validated"
	else
		not_ok "$what: exit $rc, $n pings"
		diag "$(tail -n 10 <<<"$out")"
	fi
}

# perf SERVER PORT KEY PROGRAM ARGS...: a perftest pair, server on guest
# SERVER; the client checks it printed a result for every size.
perf() {
	local srv=$1 port=$2 key=$3 out rc t0=$SECONDS what
	shift 3
	local cmd=("$1" -d "$RDMA_DEV" -x "$RDMA_GID" -p "$port" -F -n "$pt_iters" "${@:2}")
	case $1 in ib_read_* | ib_atomic_*) cmd+=(-o "$out_reads") ;; esac
	what="$*, server on $(side "$srv"), client on $(side $((1 - srv)))"
	out=$res/$key.out
	if [ "$me" = "$srv" ]; then
		perftest_server "$key" "$out" "${cmd[@]}"
		rc=$?
		if [ "$rc" = 0 ]; then
			ok "$what (server side) in $((SECONDS - t0)) s"
		else
			not_ok "$what (server side): exit $rc"
			diag "$(tail -n 20 "$out")"
		fi
		return
	fi
	perftest_client "$key" "$out" "$WREN_PEER_VIRTIO_IP" "${cmd[@]}"
	rc=$?
	local want=1 got
	got=$(awk 'f && $1 ~ /^[0-9]+$/ && NF >= 4 { n++ } /#bytes/ { f = 1 } END { print n + 0 }' "$out")
	if [ "$rc" = 0 ] && [ "$got" -ge "$want" ]; then
		ok "$what: $got sizes, $pt_iters iterations each, in $((SECONDS - t0)) s"
		diag "$(grep -A 30 '#bytes' "$out" | grep -E '^ *(#bytes|[0-9])')"
	else
		not_ok "$what: exit $rc, $got of $want sizes"
		diag "$(tail -n 30 "$out")"
	fi
}

port=19100
for srv in 0 1; do
	for r in "${pingpongs[@]}"; do
		read -r -a words <<<"$r"
		port=$((port + 1))
		pingpong "$srv" "$port" "${words[@]}"
		barrier "pp-$port" 300
	done
done
for tgt in 0 1; do
	port=$((port + 10))
	verbs "$tgt" "$port"
	barrier "verbs-$port" 600
done
for srv in 0 1; do
	rping_pair "$srv"
	barrier "rping-$srv" 300
done
# With PCAP=1 the pingpongs, the verbs cases and rping above are captured
# (every opcode, both implementations' frames, for roce-pcap-check.py);
# the bulk runs below are not.
[ -n "${WREN_PCAP_DIR:-}" ] && fabric_ctl pcap "$me" off >/dev/null
n=0
for srv in 0 1; do
	for r in "${perftests[@]}"; do
		read -r -a words <<<"$r"
		port=$((port + 1))
		n=$((n + 1))
		perf "$srv" "$port" "interop-pt-$n" "${words[@]}"
		barrier "pt-$port" 300
	done
done

# lossy ACTIVE OP PORT: wren_verbs_test bw, active side on guest ACTIVE.
lossy() {
	local act=$1 op=$2 port=$3 rc t0=$SECONDS what out=$res/interop-loss-$3.out
	local size=262144
	what="$loss_mib MiB RDMA ${op^^} at 1% loss, active on $(side "$act"), passive on $(side $((1 - act)))"
	if [ "$me" != "$act" ]; then
		timeout 600 "$bin" bw --passive --listen "$port" --op "$op" --size "$size" \
			--depth 4 --mr-mib "$loss_mib" --verify -d "$RDMA_DEV" -g "$RDMA_GID" \
			>"$out" 2>&1
		rc=$?
		check "$what: passive side, exit $rc" test "$rc" = 0
		[ "$rc" = 0 ] || diag "$(tail -n 10 "$out")"
		return
	fi
	timeout 600 "$bin" bw --active --connect "$WREN_PEER_VIRTIO_IP:$port" --op "$op" \
		--size "$size" --depth 4 --mr-mib "$loss_mib" \
		--iters $(((loss_mib << 20) / size)) --verify \
		-d "$RDMA_DEV" -g "$RDMA_GID" >"$out" 2>&1
	rc=$?
	if [ "$rc" = 0 ] && grep -q "data verified" "$out"; then
		ok "$what: data verified ($((SECONDS - t0)) s)"
	else
		not_ok "$what: exit $rc after $((SECONDS - t0)) s"
		diag "$(tail -n 10 "$out")"
	fi
}

rxe_port=$me
[ "$RDMA_KIND" = rxe ] || rxe_port=$peer
if [ "$RDMA_KIND" = wren ]; then
	fabric_ctl loss "$rxe_port" 1% >/dev/null || diag "fabric_ctl loss $rxe_port 1% failed"
fi
barrier loss-on 60
for act in 0 1; do
	for op in write read; do
		port=$((port + 1))
		lossy "$act" "$op" "$port"
		barrier "loss-$port" 600
	done
done
if [ "$RDMA_KIND" = wren ]; then
	diag "fabric port $rxe_port dropped $(fabric_ctl stats "$rxe_port" |
		awk '$3 ~ /^drop_(rx|tx)_loss$/ { s += $4 } END { print s + 0 }') frames"
	fabric_ctl loss "$rxe_port" 0 >/dev/null
fi
diag "$(rdma statistic show link "$RDMA_DEV/1" 2>&1)"

check_dmesg "no kernel warnings"
tap_done
