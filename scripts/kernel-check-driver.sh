#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# check-driver: the guest tests of selftests/driver/ in the bench, for
# Linux 6.1, 6.12, and 6.1 behind intel-iommu (bus addresses != physical).
# Each guest's TAP lands in $BUILD/check (vmtest.sh files it there).
#
# usage: kernel-check-driver.sh
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=${TOP:-$(cd "$here/.." && pwd)}
BUILD=${BUILD:-$top/build}
# One boot per configuration runs its tests (DRIVER_TESTS overrides them).
# kver:iommu:guests:test[:VAR=value,...], the optional last field giving
# more bench variables.  A pair of 6.12 guests runs every driver test
# (run-all.sh, with the fabric capturing for the VLAN checks); a pair of
# 6.1 guests runs the Ethernet and RDMA tests, rdma-core's pingpongs,
# perftest's sweep, the CM and NVMe-oF (run-net.sh); a 6.1 pair behind
# intel-iommu runs the load loop, fatal error and admin timeout tests on
# one guest and rdma-core's python suite on the other (run-core.sh); a
# 6.1 pair with two vCPUs each runs RSS (run-rss.sh).
configs=${DRIVER_CONFIGS:-"6.1:0:2:driver/run-net.sh 6.12:0:2:driver/run-all.sh:PCAP=1 6.1:1:2:driver/run-core.sh 6.1:0:2:driver/run-rss.sh:SMP=2"}
status=0
# A TCG vCPU starved by a busy host can stall for 20 s inside any kernel
# code (seen: clear_page_erms in a page fault) and trip the soft-lockup
# and RCU-stall detectors, which the dmesg checks would then blame on the
# driver.  Longer thresholds (soft lockups reported after 120 s, RCU stalls
# after 120 s) still catch a driver that really spins.
append=${APPEND:-watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=120}

"$here/deps-kernel.sh" || status=1
for kver in 6.1 6.12; do
	if ! make -C "$top" --no-print-directory modules KVER="$kver"; then
		echo "check-driver: modules for $kver did not build" >&2
		status=1
	fi
done

# The RDMA tests in run-all.sh need rdma-core with libwren and the verbs
# test program; without them those tests report what is missing.
make -C "$top" --no-print-directory rdma-tests || status=1

for cfg in $configs; do
	IFS=: read -r kver iommu guests cfg_tests cfg_vars <<EOF
$cfg
EOF
	# The optional fifth field: VAR=value words separated by commas.
	extra=$(printf '%s' "${cfg_vars:-}" | tr ',' ' ')
	for t in ${DRIVER_TESTS:-${cfg_tests:-driver/run-all.sh}}; do
		echo "check-driver: $t KVER=$kver IOMMU=$iommu N=$guests $extra"
		# shellcheck disable=SC2086 # $extra is split into make variables
		make -C "$top" --no-print-directory vmtest T="$t" KVER="$kver" \
			IOMMU="$iommu" N="${guests:-2}" APPEND="$append" \
			TIMEOUT=1200 $extra || status=1
	done
done
exit $status
