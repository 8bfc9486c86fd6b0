#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# check-driver: the guest pairs of the driver layer of selftests/plan (6.1,
# 6.12, 6.1 behind intel-iommu, 6.1 with two vCPUs), each running its
# guests' selftests with kselftest's runner.  Each guest's TAP lands in
# $BUILD/check (vmtest.sh files it there).
#
# usage: check/driver.sh
. "$(dirname "$0")/../lib/common.sh"
set +e # failures are handled here, one by one

# One boot per guest pair of the driver layer in selftests/plan (kernel,
# bench variables, each guest's tests); DRIVER_BOOTS overrides the list.
. "$SCRIPTS/lib/plan.sh"
# shellcheck source=scripts/lib/check.sh
. "$SCRIPTS/lib/check.sh"
boots=${DRIVER_BOOTS:-$(plan_boots driver)}
status=0
# A TCG vCPU starved by a busy host can stall for 20 s inside any kernel
# code (seen: clear_page_erms in a page fault) and trip the soft-lockup
# and RCU-stall detectors, which the dmesg checks would then blame on the
# driver.  Longer thresholds (soft lockups reported after 120 s, RCU stalls
# after 120 s) still catch a driver that really spins.
append=${APPEND:-watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=120}

"$SCRIPTS/deps/kernel.sh" || status=1
for kver in 6.1 6.12; do
	if ! make -C "$TOP" --no-print-directory modules KVER="$kver"; then
		echo "check-driver: modules for $kver did not build" >&2
		status=1
	fi
done

# The RDMA tests need rdma-core with libwren and the verbs
# test program; without them those tests report what is missing.
make -C "$TOP" --no-print-directory rdma-tests || status=1
# GPUDirect: the stand-in GPU driver and NVIDIA's nvidia-peermem, built
# from Debian's package against wren_peer_mem.ko (mk/gpu.mk), and the
# registry's test client (mk/peer_mem.mk).
for kver in 6.1 6.12; do
	make -C "$TOP" --no-print-directory gpu-modules KVER="$kver" || status=1
	make -C "$TOP" --no-print-directory peer-test-modules KVER="$kver" || status=1
done

# shellcheck disable=SC2086 # boot names
check_guests driver "$append" $boots || status=1
exit $status
