#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Host packages the test bench needs: busybox-static for the guest initramfs,
# kmod (depmod -b on extracted kernels), cpio to pack the initramfs, QEMU
# firmware (our QEMU is built with --disable-install-blobs), iperf3 for
# `make bench-eth` (guests run the host's binaries over 9p), rsync for the
# kernel's selftests lib.mk (make kselftest-install), perl for its runner.
set -eu
pkgs="busybox-static kmod cpio gzip util-linux seabios ipxe-qemu qemu-system-data iperf3 rsync perl"
missing=
for p in $pkgs; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086 # word splitting of the package list is wanted
apt-get install -y -q --no-install-recommends $missing
