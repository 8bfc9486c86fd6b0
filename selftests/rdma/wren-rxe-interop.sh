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
#   2. our wren_verbs_test (tests/rdma): the data of every RC opcode and
#      size pattern checked byte for byte on both sides, atomics'
#      results, and the protection cases (NAKs on the wire), target on one
#      side, initiator on the other;
#   3. Debian's perftest: ib_write_bw, ib_read_bw over every size -a walks
#      (2 B .. 8 MiB), ib_atomic_bw with fetch-and-add and compare-and-swap
#      (perftest does not check data: 1 and 2 do).
#
# rping is left out: it needs rdma_cm, i.e. the GSI QP on Wren (issue 5).
#
#   flock /tmp/wren-guest.lock make vmtest T=rdma/wren-rxe-interop.sh RXE=1
#
# WREN_INTEROP_ITERS: pingpong iterations (100); WREN_INTEROP_PT_ITERS:
# perftest iterations per size (5; perftest's minimum).
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/driver/wren-lib.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"
. "$WREN_TOP/selftests/lib/rdma-fabric.sh"
. "$WREN_TOP/selftests/lib/perftest.sh"

iters=${WREN_INTEROP_ITERS:-100}
pt_iters=${WREN_INTEROP_PT_ITERS:-5}
bin=$WREN_TOP/build/tests/rdma/wren_verbs_test
pingpongs=(
	"ibv_rc_pingpong -s 4096"
	"ibv_rc_pingpong -s 65536"
	"ibv_ud_pingpong -s 1024"
)
perftests=(
	"ib_write_bw -a"
	"ib_read_bw -a"
	"ib_atomic_bw -A FETCH_AND_ADD"
	"ib_atomic_bw -A CMP_AND_SWAP"
)
pair_init interop "interop"
# Per direction: each pingpong, the verbs cases, each perftest.
plan $((3 + 2 * (${#pingpongs[@]} + 1 + ${#perftests[@]})))
dmesg -C

if ! rdma_env_check 2>"$res/interop-env.err" || [ ! -x "$bin" ]; then
	bail "the bench's rdma-core build with libwren and wren_verbs_test are in place" \
		"$(cat "$res/interop-env.err"); run make rdma-tests"
fi
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
			sleep 1
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

# verbs TARGET PORT: wren_verbs_test's target on guest TARGET, the
# initiator on the other; one result per guest (the initiator's failing
# cases as diagnostics).
verbs() {
	local tgt=$1 port=$2 rc t0=$SECONDS total nok bad what
	what="wren_verbs_test: initiator on $(side $((1 - tgt))), target on $(side "$tgt")"
	if [ "$me" = "$tgt" ]; then
		timeout 600 "$bin" target -d "$RDMA_DEV" -g "$RDMA_GID" -p "$port" \
			>"$res/interop-target-$port.out" 2>&1
		rc=$?
		if [ "$rc" = 0 ]; then
			ok "$what: the target judged every case ($((SECONDS - t0)) s)"
		else
			not_ok "$what: target exit $rc"
			diag "$(tail -n 20 "$res/interop-target-$port.out")"
		fi
		return
	fi
	timeout 600 "$bin" initiator -d "$RDMA_DEV" -g "$RDMA_GID" -p "$port" \
		"$WREN_PEER_VIRTIO_IP" >"$res/interop-initiator-$port.out" \
		2>"$res/interop-initiator-$port.err"
	rc=$?
	total=$(grep -cE '^(not )?ok ' "$res/interop-initiator-$port.out")
	nok=$(grep -c '^ok ' "$res/interop-initiator-$port.out")
	bad=$(grep '^not ok ' "$res/interop-initiator-$port.out")
	if [ "$rc" = 0 ] && [ -z "$bad" ] && [ "$total" = "$("$bin" count)" ]; then
		ok "$what: $nok/$total cases ok ($(grep -c '# SKIP' "$res/interop-initiator-$port.out") skipped), $((SECONDS - t0)) s"
	else
		not_ok "$what: $nok/$total cases ok, exit $rc"
		diag "$bad"
		diag "$(tail -n 10 "$res/interop-initiator-$port.err")"
	fi
}

# perf SERVER PORT KEY PROGRAM ARGS...: a perftest pair, server on guest
# SERVER; the client checks it printed a result for every size.
perf() {
	local srv=$1 port=$2 key=$3 out rc t0=$SECONDS what
	shift 3
	local cmd=("$1" -d "$RDMA_DEV" -x "$RDMA_GID" -p "$port" -F -n "$pt_iters" "${@:2}")
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
	[[ " $* " == *" -a "* ]] && want=23 # 2 B .. 8 MiB
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
diag "$(rdma statistic show link "$RDMA_DEV/1" 2>&1)"

bad=$(wren_bad_dmesg)
check "no kernel warnings" test -z "$bad"
[ -z "$bad" ] || diag "$bad"
tap_done
