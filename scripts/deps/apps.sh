#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Debian's application stack above verbs, as an operator installs it: UCX
# (ucx_info, ucx_perftest), Open MPI with NetPIPE and the headers and
# wrappers that build our MPI check program, libfabric's fi_* tools.  The
# bench guests run these host binaries over 9p; the packaged rdma-core
# (make deb-rdma-core) replaces Debian's libibverbs under them in the
# guests only (tools/testbench, PKG=1).
. "$(dirname "$0")/../lib/common.sh"
exec "$SCRIPTS/lib/apt-install.sh" ucx-utils openmpi-bin libopenmpi-dev \
	netpipe-openmpi libfabric-bin
