#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, run by both guests at once: Debian's perftest binaries,
# against the bench's rdma-core build and libwren (or, in a package boot,
# PKG=1 after wren-pkg-install.sh, against the installed packages in /usr
# alone), run to completion between the two guests' Wren NICs (wren_0)
# through the fabric.
# RC: ib_send_bw, ib_write_bw, ib_read_bw and ib_send_lat over every size
# perftest's -a walks (2 B to 8 MiB, which covers the 2 B .. 1 MiB the
# spec asks for), ib_write_lat and ib_read_lat at 1 MiB (their sweeps
# cost 14 s each under TCG and walk the data paths the bandwidth sweeps
# walked), ib_atomic_bw and ib_atomic_lat with fetch-and-add and
# compare-and-swap; UD: ib_send_bw and ib_send_lat -a (up to the path
# MTU, perftest's UD limit).
# Each pair checks that the client printed a result line for every size.
#
# Guest 1 serves, guest 0 connects over the virtio control network; the
# guests meet through marker files in each other's results directory
# (lib/pair.sh markers tagged pt, safe in a boot shared with other
# tests).  Iterations per size: WREN_PERFTEST_ITERS (default 10;
# perftest's minimum is 5).
# ibv_*_pingpong are wren-pingpong.sh's job.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
if [ "${WREN_PKG:-0}" = 1 ]; then
	. "$WREN_TOP/selftests/lib/pkg.sh"
	pkg_system_libs
else
	. "$WREN_TOP/selftests/lib/rdma-env.sh"
fi
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"
. "$WREN_TOP/selftests/lib/perftest.sh"

iters=${WREN_PERFTEST_ITERS:-10}
pair_init pt "perftest sweep"

# The sweep: "NAME ARGS..." each, in the order both guests run them.
sweep=(
	"ib_send_bw -a"
	"ib_write_bw -a"
	"ib_read_bw -a"
	"ib_atomic_bw -A FETCH_AND_ADD"
	"ib_atomic_bw -A CMP_AND_SWAP"
	"ib_send_lat -a"
	"ib_write_lat -s 1048576"
	"ib_read_lat -s 1048576"
	"ib_atomic_lat -A FETCH_AND_ADD"
	"ib_atomic_lat -A CMP_AND_SWAP"
	"ib_send_bw -c UD -a"
	"ib_send_lat -c UD -a"
)
plan $((3 + ${#sweep[@]}))
dmesg -C

if [ "${WREN_PKG:-0}" = 1 ]; then
	if ! pkg_debs_present ||
		[ "$(dpkg-query -W -f '${Version}' libibverbs1)" != "$PKG_RDMA_VERSION" ]; then
		bail "the packaged rdma-core is installed" "libibverbs1 $(dpkg-query -W -f '${Version}' libibverbs1)"
	fi
else
	rdma_env_check 2>"$res/pt-env.err" ||
		bail "the bench's rdma-core build with libwren is in place" "$(cat "$res/pt-env.err")"
fi
rdma_wren_up || bail "$RDMA_SETUP_ERR" "$(dmesg | tail -n 20)"
ok "$RDMA_WREN_DEV on $RDMA_WREN_IF, RoCE v2 GID index $RDMA_WREN_GID for $WREN_IP"
barrier up 300

# The sizes -a walks, as perftest prints them in its first column; UD
# stops at the path MTU (the port's active MTU).
all_sizes() {
	local s
	for ((s = 2; s <= 1 << 23; s <<= 1)); do
		echo "$s"
	done
}
ud_sizes() {
	local s mtu
	mtu=$(ibv_devinfo -d "$RDMA_WREN_DEV" | awk '$1 == "active_mtu:" { print $2; exit }')
	for ((s = 2; s <= ${mtu:-1024}; s <<= 1)); do
		echo "$s"
	done
}

# sizes_seen OUT: the sizes with a result line in a perftest output.
sizes_seen() {
	awk 'f && $1 ~ /^[0-9]+$/ && NF >= 4 { print $1 } /#bytes/ { f = 1 }' "$1"
}

port=18900
n=0
for t in "${sweep[@]}"; do
	n=$((n + 1))
	port=$((port + 1))
	read -r -a words <<<"$t"
	cmd=("${words[0]}" -d "$RDMA_WREN_DEV" -x "$RDMA_WREN_GID" -p "$port" -F -n "$iters"
		"${words[@]:1}")
	key=pt-$n
	out=$res/$key.out
	t0=$SECONDS
	if [ "$me" = 1 ]; then
		perftest_server "$key" "$out" "${cmd[@]}"
		rc=$?
		# The server of a READ, atomic or bandwidth test prints no
		# results: its part is to exit 0.
		if [ "$rc" = 0 ]; then
			ok "$t (server) in $((SECONDS - t0)) s"
		else
			not_ok "$t (server): exit $rc"
			diag "$(tail -n 20 "$out")"
		fi
		continue
	fi
	perftest_client "$key" "$out" "$WREN_PEER_VIRTIO_IP" "${cmd[@]}"
	rc=$?
	case $t in
	*" -a"*"UD"* | *"UD"*" -a"*) want=$(ud_sizes) ;;
	*" -a"*) want=$(all_sizes) ;;
	*" -s "*) want=${t##* -s } ;;
	*) want=8 ;;
	esac
	got=$(sizes_seen "$out")
	missing=$(comm -23 <(sort <<<"$want") <(sort <<<"$got") | sort -n | tr '\n' ' ')
	if [ "$rc" = 0 ] && [ -z "$missing" ]; then
		ok "$t: $(wc -l <<<"$got") sizes, $iters iterations each, in $((SECONDS - t0)) s"
		diag "$(grep -A 40 '#bytes' "$out" | grep -E '^ *(#bytes|[0-9])')"
	else
		not_ok "$t: exit $rc${missing:+, no result for sizes $missing}"
		diag "$(tail -n 30 "$out")"
	fi
done
: >"$res/barrier-$pair_tag-done"
# The NIC's counters after the sweep: retransmits and timeouts explain a
# slow size.
diag "$(rdma statistic show link "$RDMA_WREN_DEV/1" 2>&1)"
# Not a barrier: a peer that is late here must not turn this side's
# finished sweep into a failure.
wait_for 120 test -e "$peer_res/barrier-$pair_tag-done" -o -e "$peer_res/abort-$pair_tag"
check_dmesg "no kernel warnings"
# The next test of a shared boot loads the modules itself.
check "rmmod wren_ib and wren" wren_unload
tap_done
