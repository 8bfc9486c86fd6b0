#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make check-apps`: the boots of the apps layer in selftests/plan, after
# what their guests install and run: the wren-dkms package and the
# host's dkms build of it for each boot's kernel (make deb,
# scripts/deb/dkms-binaries.sh), rdma-core's packages with libwren (make
# deb-rdma-core, cached by its inputs), Debian's application stack on
# the host (scripts/deps/apps.sh), the MPI check program (make mpi-check,
# its host test make check-apps-host) and the guests' sshd (make sshd).
# A boot on a root filesystem of its own (ROOTFS=trixie) has its MPI
# program built with that root's Open MPI, and its dkms build made in
# that root (deb/dkms-binaries.sh goes there for the series).
# TAP in $BUILD/check.
. "$(dirname "$0")/../lib/common.sh"
set +e # failures are handled here, one by one

export TOP BUILD
# shellcheck disable=SC1091 # ours
. "$SCRIPTS/lib/plan.sh"
# shellcheck source=scripts/lib/check.sh
. "$SCRIPTS/lib/check.sh"
boots=${APPS_BOOTS:-$(plan_boots apps)}
append=${APPEND:-watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=120}
status=0

"$SCRIPTS/deps/apps.sh" || status=1
# The MPI program and the guests' sshd; the program's own host test.
make -C "$TOP" --no-print-directory mpi-check sshd || status=1
make -C "$TOP" --no-print-directory check-apps-host || status=1
make -C "$TOP" --no-print-directory deb-rdma-core || status=1
deb=$(make -C "$TOP" --no-print-directory -s deb | tail -n 1) || status=1
for b in $boots; do
	plan_boot "$b" >/dev/null
	for w in $PLAN_MAKEVARS; do
		case $w in
		ROOTFS=?*) make -C "$TOP" --no-print-directory mpi-check "$w" || status=1 ;;
		esac
	done
	make -C "$TOP" --no-print-directory modules KVER="$PLAN_KVER" || status=1
	"$SCRIPTS/deb/dkms-binaries.sh" "$deb" "$PLAN_KVER" || status=1
done
# shellcheck disable=SC2086 # boot names
check_guests apps "$append" $boots || status=1
exit $status
