#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Debian's application stack above verbs, as an operator installs it: UCX
# (ucx_info, ucx_perftest), Open MPI with NetPIPE and the headers and
# wrappers that build our MPI check program, libfabric's fi_* tools.  The
# bench guests run these host binaries over 9p; the packaged rdma-core
# (make deb-rdma-core) replaces Debian's libibverbs under them in the
# guests only (tools/testbench, PKG=1).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/apt-install.sh" ucx-utils openmpi-bin libopenmpi-dev \
	netpipe-openmpi libfabric-bin
