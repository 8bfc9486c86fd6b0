#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Packages needed to fetch rdma-core 56.1 (trixie's source) and build it with
# the Wren provider and pyverbs, plus Debian's perftest and qperf, whose binaries the
# guests run against that build through LD_LIBRARY_PATH, and nvme-cli for
# the NVMe over RoCE test.  libdrm-dev gives pyverbs its dma-buf support
# (GPU memory tests).
. "$(dirname "$0")/../lib/common.sh"

pkgs="dpkg-dev cmake ninja-build pkg-config gcc libnl-3-dev
libnl-route-3-dev libudev-dev python3-dev cython3 libdrm-dev perftest qperf nvme-cli"

# libudev-dev must match the installed libudev1, which may come from
# bookworm-backports (pulled in by another package); ask for that version.
if v=$(dpkg-query -W -f '${Version}' libudev1 2>/dev/null) && [ -n "$v" ]; then
	pkgs=$(echo "$pkgs" | sed "s/libudev-dev/libudev-dev=$v/")
fi
# shellcheck disable=SC2086 # a list of package names
exec "$SCRIPTS/lib/apt-install.sh" $pkgs
