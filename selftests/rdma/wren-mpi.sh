#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, both guests at once: Debian's Open MPI (4.1 on Debian 12,
# 5.0 on Debian 13) across the two guests over UCX on Wren, launched by
# mpirun through ssh (selftests/lib/ssh.sh); guest 0 runs mpirun, guest
# 1's sshd starts its orted (5.0: PRRTE's prted), with the same options.
#
# - wren_mpi_check (wren_mpi_check.c, make mpi-check) on 4 ranks, 2 a guest:
#   allreduce, alltoall, one-sided put/get with fences and with
#   lock/unlock, every result checked.
# - NetPIPE (NPopenmpi) between the guests: its integrity mode (-i) up to
#   64 KiB, then the latency/bandwidth curve up to 1 MiB.
# - The proof that Wren carried them: pml ucx is forced (--mca pml ucx
#   --mca pml_ucx_devices any, osc ucx), so Open MPI cannot fall back to
#   ob1 over TCP, and UCX_TLS leaves UCX only self, shared memory and the
#   verbs transports of UCX_NET_DEVICES=wren_0:1; Wren's RoCE byte
#   counters grow by at least what the jobs moved between the guests.
# - The same allreduce timing over rxe0 on the control network, and the
#   ratio, as diagnostics.
#
# In a package boot (PKG=1, after wren-pkg-install.sh) everything runs
# against /usr's libraries; elsewhere against the bench's rdma-core build
# (LD_LIBRARY_PATH, forwarded to the remote ranks with -x).
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"
. "$WREN_TOP/selftests/lib/apps.sh"
. "$WREN_TOP/selftests/lib/ssh.sh"
app_stack

pair_init mpi "MPI"
# Built with the guest root's own Open MPI (make mpi-check ROOTFS=).
check_bin=$WREN_TOP/build/apps${WREN_ROOTFS:+/$WREN_ROOTFS}/wren_mpi_check
if [ "$me" = 0 ]; then
	plan 6
else
	plan 3
fi

rdma_wren_up || bail "$RDMA_SETUP_ERR" "$(dmesg | tail -n 20)"
rdma_rxe_up || bail "$RDMA_SETUP_ERR" "$(dmesg | tail -n 20)"
[ -x "$check_bin" ] || bail "wren_mpi_check is built" "no $check_bin (make mpi-check)"
ssh_up || bail "sshd up" "$SSH_ERR"
ok "$RDMA_WREN_DEV, $RDMA_RXE_DEV and sshd up"
barrier up 300

if [ "$me" = 1 ]; then
	before=$(app_roce_bytes "$RDMA_WREN_DEV")
	# Guest 0's jobs run ranks here through sshd; wait for its verdict.
	if wait_for 900 test -e "$peer_res/mpi-done" -o -e "$peer_res/abort-mpi" &&
		[ -e "$peer_res/mpi-done" ]; then
		ok "served guest 0's MPI jobs"
	else
		not_ok "served guest 0's MPI jobs" && diag "no mpi-done from guest 0"
	fi
	read -r t0 r0 <<<"$before"
	read -r t1 r1 <<<"$(app_roce_bytes "$RDMA_WREN_DEV")"
	moved=$((t1 - t0 + r1 - r0))
	if [ "$moved" -ge $((8 << 20)) ]; then
		ok "$RDMA_WREN_DEV's RoCE counters: $moved bytes during the jobs"
	else
		not_ok "$RDMA_WREN_DEV's RoCE counters grew by only $moved bytes during the jobs"
	fi
	ssh_down
	tap_done
	exit
fi

ssh_wait guest1 || bail "ssh guest1 true" "$SSH_ERR"
read -r -a wopts <<<"$(app_mpi_opts "$RDMA_WREN_DEV")"
read -r -a ropts <<<"$(app_mpi_opts "$RDMA_RXE_DEV")"
before=$(app_roce_bytes "$RDMA_WREN_DEV")

out=$res/mpi-check.out
if timeout 600 mpirun "${wopts[@]}" -np 4 --host guest0:2,guest1:2 "$check_bin" >"$out" 2>&1; then
	ok "wren_mpi_check, 4 ranks over pml ucx on $RDMA_WREN_DEV: $(grep -c '^ok' "$out") checks"
else
	not_ok "wren_mpi_check, 4 ranks over pml ucx on $RDMA_WREN_DEV"
fi
diag "$(grep -E '^(not )?ok|^#' "$out" | tail -n 40)"

out=$res/mpi-netpipe-i.out
if timeout 600 mpirun "${wopts[@]}" -np 2 --host guest0,guest1 NPopenmpi -i -u 65536 \
	-o "$res/np-i.txt" >"$out" 2>&1 && ! grep -qi 'integrity check failed\|error' "$out"; then
	ok "NetPIPE integrity mode up to 64 KiB"
else
	not_ok "NetPIPE integrity mode up to 64 KiB"
	diag "$(tail -n 10 "$out")"
fi

out=$res/mpi-netpipe.out
if timeout 600 mpirun "${wopts[@]}" -np 2 --host guest0,guest1 NPopenmpi -u 1048576 -n 20 -p 0 \
	-o "$res/np.txt" >"$out" 2>&1 && grep -q 'Mbps in' "$out"; then
	# "  0:       1 bytes   25 times -->      0.02 Mbps in     404.45 usec"
	peak=$(awk '/Mbps in/ { for (i = 1; i < NF; i++) if ($(i + 1) == "Mbps" && $i + 0 > m) m = $i + 0 }
		END { printf "%.1f", m / 8 }' "$out")
	lat=$(awk '/Mbps in/ { for (i = 1; i < NF; i++) if ($(i + 1) == "usec" && (l == "" || $i + 0 < l)) l = $i + 0 }
		END { printf "%.1f", l }' "$out")
	ok "NetPIPE to 1 MiB: peak $peak MB/s, latency $lat us"
else
	not_ok "NetPIPE to 1 MiB"
	diag "$(tail -n 10 "$out")"
fi

read -r t0 r0 <<<"$before"
read -r t1 r1 <<<"$(app_roce_bytes "$RDMA_WREN_DEV")"
moved=$((t1 - t0 + r1 - r0))
if [ "$moved" -ge $((8 << 20)) ]; then
	ok "$RDMA_WREN_DEV's RoCE counters: $moved bytes during the jobs"
else
	not_ok "$RDMA_WREN_DEV's RoCE counters grew by only $moved bytes during the jobs"
fi

# Allreduce timing, Wren then rxe, for the ratio.
w=$(timeout 300 mpirun "${wopts[@]}" -np 2 --host guest0,guest1 "$check_bin" --bench --iters 5 2>&1 | grep '^allreduce')
r=$(timeout 300 mpirun "${ropts[@]}" -np 2 --host guest0,guest1 "$check_bin" --bench --iters 5 2>&1 | grep '^allreduce')
if [ -n "$w" ]; then
	ok "allreduce timing over $RDMA_WREN_DEV: $w"
	diag "over $RDMA_RXE_DEV: ${r:-failed}"
else
	not_ok "allreduce timing over $RDMA_WREN_DEV"
fi
: >"$res/mpi-done"
ssh_down
tap_done
