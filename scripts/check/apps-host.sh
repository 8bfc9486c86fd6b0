#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make check-apps-host` (mk/apps.mk, which builds wren_mpi_check first):
# selftests/host/mpi-host.sh, the checks with Open MPI on the host itself,
# TAP in $BUILD/check/apps-host.tap.
#
# usage: check/apps-host.sh
. "$(dirname "$0")/../lib/common.sh"
. "$SCRIPTS/lib/check.sh"

MPI_CHECK=${MPI_CHECK:-$BUILD/apps/wren_mpi_check}
export MPI_CHECK
check_tap apps-host "$TOP/selftests/host/mpi-host.sh"
