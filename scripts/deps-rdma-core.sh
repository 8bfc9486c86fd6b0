#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Packages needed to fetch rdma-core 56.1 (trixie's source) and build it with
# the Wren provider and pyverbs, plus Debian's perftest, whose binaries the
# guests run against that build through LD_LIBRARY_PATH, and nvme-cli for
# the NVMe over RoCE test.  libdrm-dev gives pyverbs its dma-buf support
# (GPU memory tests).
set -eu

pkgs="dpkg-dev cmake ninja-build pkg-config gcc libnl-3-dev
libnl-route-3-dev libudev-dev python3-dev cython3 libdrm-dev perftest nvme-cli"

missing=
for p in $pkgs; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

# libudev-dev must match the installed libudev1, which may come from
# bookworm-backports (pulled in by another package); ask for that version.
missing=$(for p in $missing; do
	if [ "$p" = libudev-dev ] &&
	   v=$(dpkg-query -W -f '${Version}' libudev1 2>/dev/null) && [ -n "$v" ]; then
		echo "libudev-dev=$v"
	else
		echo "$p"
	fi
done)

# shellcheck disable=SC2086 # word splitting of the package list is intended
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
