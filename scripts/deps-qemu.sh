#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Packages needed to fetch Debian's QEMU 7.2 source and build
# qemu-system-x86_64 with the Wren device, plus the firmware (SeaBIOS, iPXE
# option ROMs) that the blob-stripped Debian source does not carry.
set -eu

pkgs="dpkg-dev patch meson ninja-build pkg-config python3 python3-venv gcc make
flex bison libglib2.0-dev libpixman-1-dev zlib1g-dev libfdt-dev libslirp-dev
libcap-ng-dev libattr1-dev seabios ipxe-qemu qemu-system-data"

missing=
for p in $pkgs; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

# shellcheck disable=SC2086 # word splitting of the package list is intended
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
