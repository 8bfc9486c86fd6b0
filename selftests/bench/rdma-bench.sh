#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# RDMA between the two bench guests over Wren (wren_0, the NIC does the
# RoCEv2 work) and, in the same boot between the same guests, over Linux's
# rdma_rxe on the virtio-net NIC (rxe0, the guest CPU does it), with the
# same tools: Debian's perftest against the bench's rdma-core build.
# Guest 1 serves, guest 0 runs the clients and prints, at each netdev MTU
# (1500, then 9000: path MTU 1024 and 4096):
#   ib_write_bw 64 KiB and ib_read_bw 64 KiB bandwidth and ib_send_lat 8 B
#   latency (t_typical), their ratios Wren/rxe against the bench's targets
#   (write >= 20x rxe's, read >= 15x, latency <= 1/5 of rxe's); for the
#   bandwidth tests also the passive side's (guest 1's) CPU use from the
#   moment the connection is up until its perftest exits, from /proc/stat;
#   the control path on guest 0 alone: a 1 GiB MR registered and
#   deregistered, 1000 RC QPs created and destroyed (wren_verbs_test
#   ctlpath), Wren's times against rxe's (target: no slower).
# Run through `make bench-rdma` (mk/bench-rdma.mk).
#
# Environment (kernel command-line words through make's APPEND):
#   BENCH_RDMA_ROUNDS  rounds, each runs every test on Wren then rxe (2)
#   BENCH_RDMA_MTUS    netdev MTUs of both NICs, comma separated, one
#                      pass of rounds each (1500,9000; the profile mode
#                      uses the first)
#   BENCH_RDMA_BW_SECS   duration of each bandwidth run, s (5; the same
#                        for both, whatever their speed)
#   BENCH_RDMA_LAT_ITERS iterations of the latency test (1000)
#   BENCH_RDMA_TESTS   the tests of a round, comma separated
#                      (ib_write_bw,ib_send_lat,ib_read_bw); with
#                      ib_write_bw alone and many rounds at MTU 9000 the
#                      stress that found the lost virtio-net kick
#                      (bench.rst)
#   BENCH_RDMA_CTL_MR_MIB, BENCH_RDMA_CTL_QPS  the control path's MR size
#                        (1024 MiB) and QP count (1000); 0 skips either
#   BENCH_RDMA_PROFILE   1: Wren's ib_write_bw (or BENCH_RDMA_PROFILE_TEST,
#                        a perftest bandwidth test) of 64 KiB alone, one
#                        run of BENCH_RDMA_BW_SECS, for `make bench-profile`
#                        (scripts/bench/profile.sh), which profiles the
#                        host while it runs; guest 0 creates profile.go in
#                        its results as its client starts
# Exit status: 0 when every run measured something, whatever the ratios.
set -u
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"
. "$WREN_TOP/selftests/lib/perftest.sh"

rounds=${BENCH_RDMA_ROUNDS:-2}
bw_secs=${BENCH_RDMA_BW_SECS:-5}
lat_iters=${BENCH_RDMA_LAT_ITERS:-1000}
profile=${BENCH_RDMA_PROFILE:-0}
ctl_mib=${BENCH_RDMA_CTL_MR_MIB:-1024}
ctl_qps=${BENCH_RDMA_CTL_QPS:-1000}
mtus=${BENCH_RDMA_MTUS:-1500,9000}
mtus=${mtus//,/ }
paths="wren rxe"
me=${WREN_GUEST_INDEX:-0}
res=$WREN_RESULTS
peer_res=$(perftest_peer_results)

die() {
	echo "bench-rdma: $*" >&2
	echo "bench-rdma: $*"
	: >"$res/abort"
	exit 1
}

rdma_env_check || die "the bench's rdma-core build with libwren is not in place (make rdma-core)"
rdma_wren_up || die "Wren: $RDMA_SETUP_ERR"
if [ "$profile" = 1 ]; then
	paths=wren
	rounds=1
	mtus=${mtus%% *}
else
	rdma_rxe_up || die "rxe: $RDMA_SETUP_ERR"
fi
# The passive side's background: its CPU use while nothing runs.
if [ "$me" = 1 ]; then
	read -r b0 s0 t0 < <(perftest_cpu_sample)
	nap 3
	read -r b1 s1 t1 < <(perftest_cpu_sample)
	echo "$(((b1 - b0) * 100 / (t1 - t0 > 0 ? t1 - t0 : 1)))" >"$res/idle.cpu"
fi
: >"$res/ready"
wait_for 300 test -e "$peer_res/ready" -o -e "$peer_res/abort"
[ -e "$peer_res/ready" ] || die "the peer did not set its RDMA devices up"

# The tests of one round, "NAME SIZE ARGS..." each.
tests=("ib_write_bw 65536 -D $bw_secs" "ib_send_lat 8 -n $lat_iters"
	"ib_read_bw 65536 -D $bw_secs")
case ${BENCH_RDMA_PROFILE_TEST:-ib_write_bw} in
ib_write_bw | ib_read_bw | ib_send_bw) ;;
*) die "BENCH_RDMA_PROFILE_TEST=$BENCH_RDMA_PROFILE_TEST: not a perftest bandwidth test" ;;
esac
[ "$profile" = 1 ] && tests=("${BENCH_RDMA_PROFILE_TEST:-ib_write_bw} 65536 -D $bw_secs")
# ran NAME: is NAME one of this run's tests?
ran() {
	local t
	for t in "${tests[@]}"; do
		[ "${t%% *}" = "$1" ] && return 0
	done
	return 1
}
if [ -n "${BENCH_RDMA_TESTS:-}" ] && [ "$profile" != 1 ]; then
	all=("${tests[@]}") tests=()
	for t in "${all[@]}"; do
		case ",$BENCH_RDMA_TESTS," in *",${t%% *},"*) tests+=("$t") ;; esac
	done
	[ ${#tests[@]} -gt 0 ] || die "BENCH_RDMA_TESTS=$BENCH_RDMA_TESTS: none of ib_write_bw, ib_send_lat, ib_read_bw"
fi

# active_mtu DEV: the port's active MTU as ibv_devinfo prints it (4096).
active_mtu() {
	ibv_devinfo -d "$1" 2>/dev/null | awk '$1 == "active_mtu:" { print $2; exit }'
}
# set_mtu MTU: both of this guest's NICs at netdev MTU MTU, and until
# both RDMA ports follow.  The peer does the same before it serves or
# connects, so each pair of a pass runs at one path MTU.
set_mtu() {
	local want=1024 path ifc dev
	[ "$1" -ge 4200 ] && want=4096
	for path in $paths; do
		if [ "$path" = wren ]; then
			ifc=$RDMA_WREN_IF dev=$RDMA_WREN_DEV
		else
			ifc=$RDMA_RXE_IF dev=$RDMA_RXE_DEV
		fi
		ip link set dev "$ifc" mtu "$1" || return 1
		wait_for 30 test "$(active_mtu "$dev")" = "$want" || return 1
	done
}

# The Wren port counters that say a run lost or repeated something.
wren_err_names="retransmits local_ack_timeout_err packet_seq_err out_of_sequence
	duplicate_request implied_nak_seq_err rnr_nak_received rnr_nak_sent
	rx_roce_discards rx_icrc_errors"
# wren_stats: this guest's Wren port counters, "NAME VALUE" a line.
wren_stats() {
	rdma statistic show link "$RDMA_WREN_DEV/1" 2>&1 | tr ' ' '\n' | paste -d ' ' - -
}
# wren_errs: those counters of this guest's Wren port, "NAME VALUE" a line.
wren_errs() {
	wren_stats | awk -v names="$wren_err_names" '
		BEGIN { n = split(names, a); for (i = 1; i <= n; i++) want[a[i]] = 1 }
		want[$1] { print $1, $2 }'
}
# wren_errs_moved BEFORE AFTER: the counters that moved, "NAME +N ...".
wren_errs_moved() {
	awk 'NR == FNR { b[$1] = $2; next }
	     $2 != b[$1] { printf "%s%s +%d", sep, $1, $2 - b[$1]; sep = " " }' \
		<(printf '%s\n' "$1") <(printf '%s\n' "$2")
}

# run ROUND PATH TEST...: one pair; guest 1 serves, guest 0 connects.
# Output in $res/<mtu>-<round>-<path>-<name>.out (and .cpu on the server);
# for Wren also .errs, the counters above that moved during the pair; for
# a pair that failed, .dmesg.  A pair perftest could not time is run
# again, up to $tries times in all, the earlier outputs kept as .try<N>:
# the client decides and leaves its verdict for the server.
port=18800
tries=3
run() {
	local round=$1 path=$2 name=$3 size=$4 dev gid host key out rc before
	local try verdict
	if [ "$path" = wren ]; then
		dev=$RDMA_WREN_DEV gid=$RDMA_WREN_GID host=$WREN_PEER_VIRTIO_IP
	else
		dev=$RDMA_RXE_DEV gid=$RDMA_RXE_GID host=$WREN_PEER_VIRTIO_IP
	fi
	key=$mtu-$round-$path-$name
	out=$res/$key.out
	shift 4
	rm -f "$out.errs" "$out".try*
	[ "$path" = wren ] && before=$(wren_errs)
	for ((try = 1; ; try++)); do
		port=$((port + 1))
		local cmd=("$name" -d "$dev" -x "$gid" -p "$port" -F -s "$size" "$@")
		if [ "$me" = 1 ]; then
			perftest_server "$key.$try" "$out" "${cmd[@]}"
			rc=$?
			wait_for 60 test -e "$peer_res/verdict-$key.$try"
			verdict=$(cat "$peer_res/verdict-$key.$try" 2>/dev/null)
		else
			perftest_client "$key.$try" "$out" "$host" "${cmd[@]}"
			rc=$?
			verdict=final
			[ "$rc" = 0 ] && [ "$try" -lt "$tries" ] &&
				perftest_untimed "$out" "$name" && verdict=again
			echo "$verdict" >"$res/verdict-$key.$try"
		fi
		[ "$verdict" = again ] || break
		mv -f "$out" "$out.try$try"
		[ "$me" = 0 ] &&
			echo "bench-rdma: MTU $mtu round $round $path $name: perftest could not time the run (kept as $(basename "$out").try$try); again"
	done
	# A failed pair keeps this guest's kernel log (a hang's first warning).
	[ "$rc" = 0 ] || dmesg >"$out.dmesg" 2>&1
	if [ "$path" = wren ]; then
		wren_errs_moved "$before" "$(wren_errs)" >"$out.errs.tmp"
		mv -f "$out.errs.tmp" "$out.errs"
	fi
	return "$rc"
}

if [ "$me" = 1 ]; then
	# Serve every pair in the client's order, then wait for its summary.
	for mtu in $mtus; do
		set_mtu "$mtu" || die "MTU $mtu: the RDMA ports did not follow"
		for round in $(seq 1 "$rounds"); do
			for t in "${tests[@]}"; do
				for path in $paths; do
					# shellcheck disable=SC2086 # t holds several words
					run "$round" "$path" $t
				done
			done
		done
	done
	: >"$res/served"
	wait_for 120 test -e "$peer_res/summary" -o -e "$peer_res/abort"
	exit 0
fi

echo "bench-rdma: kernel $(uname -r), $(nproc) vCPU per guest, perftest $(dpkg-query -W -f '${Version}' perftest 2>/dev/null) with rdma-core $WREN_RDMA_CORE"
if [ "$profile" = 1 ]; then
	echo "bench-rdma: Wren $RDMA_WREN_DEV on $RDMA_WREN_IF $WREN_IP (GID $RDMA_WREN_GID), netdev MTU $mtus, profile run (no rxe)"
else
	echo "bench-rdma: Wren $RDMA_WREN_DEV on $RDMA_WREN_IF $WREN_IP (GID $RDMA_WREN_GID), rxe $RDMA_RXE_DEV on $RDMA_RXE_IF $WREN_VIRTIO_IP (GID $RDMA_RXE_GID), netdev MTUs $mtus"
fi
echo "bench-rdma: RC, ib_*_bw $bw_secs s a run, ib_send_lat $lat_iters iterations, $rounds round(s)"
echo "bench-rdma: guest 1 CPU busy while idle (3 s before the runs): $(cat "$peer_res/idle.cpu" 2>/dev/null || echo ?)%"
failed=0
# mean PATH NAME: mean over the rounds, empty when none measured.
mean() {
	local n=${cnt[$1-$2]:-0}
	[ "$n" -gt 0 ] && awk -v s="${sum[$1-$2]}" -v n="$n" 'BEGIN { printf "%.2f", s / n }'
}
line() {
	# line LABEL WREN RXE UNIT OP TARGET
	if [ -z "$2" ] || [ -z "$3" ]; then
		echo "bench-rdma: $1: Wren ${2:-failed} $4, rxe ${3:-failed} $4: no ratio"
		return
	fi
	awk -v l="$1" -v w="$2" -v r="$3" -v u="$4" -v op="$5" -v t="$6" 'BEGIN {
		q = r ? w / r : 0
		pass = (op == ">=") ? q >= t : (op == "<=" ? q <= t : q < t)
		printf "bench-rdma: %s: Wren %.2f %s, rxe %.2f %s, ratio Wren/rxe %.3f, target %s %s: %s\n",
			l, w, u, r, u, q, op, t, pass ? "PASS" : "FAIL"
	}'
}
# pass MTU: every round of every test at this MTU, then its summary.
pass() {
	local mtu=$1 round t name size args path key rc fig unit extra
	local busy soft secs wbw rbw wlat rlat wrd rrd n m e0 e1
	declare -A sum=() cnt=()
	set_mtu "$mtu" || { echo "bench-rdma: MTU $mtu: the RDMA ports did not follow"; failed=1; return; }
	echo "bench-rdma: MTU $mtu: path MTU $(active_mtu "$RDMA_WREN_DEV") (Wren), $(active_mtu "$RDMA_RXE_DEV") (rxe)"
	for round in $(seq 1 "$rounds"); do
		for t in "${tests[@]}"; do
			read -r name size args <<<"$t"
			for path in $paths; do
				key=$mtu-$round-$path-$name
				[ "$profile" = 1 ] && : >"$res/profile.go"
				# shellcheck disable=SC2086 # args holds several words
				run "$round" "$path" "$name" "$size" $args
				rc=$?
				# Bandwidth: BW average (MB/s); latency: t_typical (us).
				fig=$(perftest_figure "$res/$key.out" "$name")
				case $name in
				*_bw) unit=MB/s ;;
				*) unit=us ;;
				esac
				if [ "$rc" = 0 ] && perftest_untimed "$res/$key.out" "$name"; then
					echo "bench-rdma: MTU $mtu round $round $path $name $size B: perftest could not time it in $tries tries: not counted"
					failed=1
					continue
				fi
				if [ "$rc" != 0 ] || [ -z "$fig" ]; then
					echo "bench-rdma: MTU $mtu round $round $path $name $size B: failed (exit $rc):"
					tail -n 15 "$res/$key.out" | sed 's/^/bench-rdma:   /'
					failed=1
					continue
				fi
				extra=
				if [ "$unit" = MB/s ]; then
					wait_for 30 test -e "$peer_res/$key.out.cpu"
					read -r busy soft secs <"$peer_res/$key.out.cpu" 2>/dev/null
					extra="  [passive side (guest 1) CPU busy ${busy:-?}% (irq+softirq ${soft:-?}%) over ${secs:-?} s]"
					sum[$path-$name-cpu]=$(awk -v a="${sum[$path-$name-cpu]:-0}" -v b="${busy:-0}" 'BEGIN { print a + b }')
				fi
				if [ "$path" = wren ]; then
					wait_for 30 test -e "$peer_res/$key.out.errs"
					e0=$(cat "$res/$key.out.errs" 2>/dev/null)
					e1=$(cat "$peer_res/$key.out.errs" 2>/dev/null)
					[ -n "$e0$e1" ] &&
						extra="$extra  [counters moved: guest 0 ${e0:-none}; guest 1 ${e1:-none}]"
				fi
				printf 'bench-rdma: MTU %s round %s %-4s %-11s %6s B: %9.2f %s%s\n' \
					"$mtu" "$round" "$path" "$name" "$size" "$fig" "$unit" "$extra"
				sum[$path-$name]=$(awk -v a="${sum[$path-$name]:-0}" -v b="$fig" 'BEGIN { print a + b }')
				cnt[$path-$name]=$((${cnt[$path-$name]:-0} + 1))
			done
		done
	done
	[ "$profile" = 1 ] && return
	wbw=$(mean wren ib_write_bw) rbw=$(mean rxe ib_write_bw)
	wlat=$(mean wren ib_send_lat) rlat=$(mean rxe ib_send_lat)
	wrd=$(mean wren ib_read_bw) rrd=$(mean rxe ib_read_bw)
	# The targets: write >= 20x rxe's, read >= 15x, latency <= 1/5.
	ran ib_write_bw && line "MTU $mtu ib_write_bw 64 KiB bandwidth" "$wbw" "$rbw" MB/s ">=" 20
	ran ib_read_bw && line "MTU $mtu ib_read_bw 64 KiB bandwidth" "$wrd" "$rrd" MB/s ">=" 15
	ran ib_send_lat && line "MTU $mtu ib_send_lat 8 B latency (typical)" "$wlat" "$rlat" us "<=" 0.2
	for name in ib_write_bw ib_read_bw; do
		n=${cnt[wren-$name]:-0} m=${cnt[rxe-$name]:-0}
		if [ "$n" = 0 ] || [ "$m" = 0 ]; then
			continue
		fi
		awk -v l="MTU $mtu $name" -v wc="${sum[wren-$name-cpu]}" -v rc="${sum[rxe-$name-cpu]}" -v n="$n" -v m="$m" 'BEGIN {
			printf "bench-rdma: %s: passive side CPU busy: Wren %.0f%%, rxe %.0f%%\n", l, wc / n, rc / m
		}'
	done
}
for mtu in $mtus; do
	pass "$mtu"
done
: >"$res/summary"
# The control path, one device at a time on this guest alone.
ctl() {
	grep -h "^ctlpath: $2 " "$res/ctlpath-$1.out" 2>/dev/null | awk '{ print $3 }'
}
if [ "$profile" != 1 ]; then
	wvt=$WREN_TOP/build/tests/rdma/wren_verbs_test
	"$wvt" ctlpath -d "$RDMA_WREN_DEV" --big-mr-mib "$ctl_mib" --qps "$ctl_qps" \
		>"$res/ctlpath-wren.out" 2>&1 || failed=1
	"$wvt" ctlpath -d "$RDMA_RXE_DEV" --big-mr-mib "$ctl_mib" --qps "$ctl_qps" \
		>"$res/ctlpath-rxe.out" 2>&1 || failed=1
	for fig in reg_mr_${ctl_mib}_mib dereg_mr_${ctl_mib}_mib \
		create_${ctl_qps}_rc_qps destroy_${ctl_qps}_rc_qps create_destroy_${ctl_qps}_rc_qps; do
		w=$(ctl wren "$fig") r=$(ctl rxe "$fig")
		[ -n "$w$r" ] || continue
		line "control path $fig" "$w" "$r" ms "<=" 1
	done
	grep -hv '^ctlpath: ' "$res/ctlpath-wren.out" "$res/ctlpath-rxe.out" 2>/dev/null |
		sed 's/^/bench-rdma: ctlpath: /'
fi
# Why Wren's figures are what they are: its retransmissions, and frames
# the fabric dropped (queue full, send failures) during the whole run.
echo "bench-rdma: $RDMA_WREN_DEV counters (guest 0): $(wren_stats | grep -E '^(tx_roce_packets|rx_roce_packets|retransmits|local_ack_timeout_err|packet_seq_err|out_of_sequence|implied_nak_seq_err|rnr_nak_received) ' |
	tr '\n' ' ')"
. "$WREN_TOP/selftests/lib/fabric.sh"
for p in 0 1; do
	echo "bench-rdma: Wren fabric port $p: $(fabric_ctl stats "$p" 2>&1 |
		awk '$3 ~ /^(rx_frames|tx_frames|drop_queue_full|drop_send_fail|q[0-9]+_max_depth_bytes)$/ && $4 != 0 { printf "%s %s ", $3, $4 }')"
done
exit $failed
