#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Packages needed to fetch Debian's QEMU 7.2 source and build
# qemu-system-x86_64 with the Wren device, plus the firmware (SeaBIOS, iPXE
# option ROMs) that the blob-stripped Debian source does not carry.
. "$(dirname "$0")/../lib/common.sh"

pkgs="dpkg-dev patch meson ninja-build pkg-config python3 python3-venv gcc make
flex bison libglib2.0-dev libpixman-1-dev zlib1g-dev libfdt-dev libslirp-dev
libcap-ng-dev libattr1-dev seabios ipxe-qemu qemu-system-data"

# shellcheck disable=SC2086 # a list of package names
exec "$SCRIPTS/lib/apt-install.sh" $pkgs
