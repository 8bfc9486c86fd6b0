#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Host packages the test bench needs: busybox-static for the guest initramfs,
# kmod (depmod -b on extracted kernels), cpio to pack the initramfs, QEMU
# firmware (our QEMU is built with --disable-install-blobs), iperf3 for
# `make bench-eth` (guests run the host's binaries over 9p), rsync for the
# kernel's selftests lib.mk (make kselftest-install), perl for its runner,
# gdb for the backtraces of a QEMU that crashed or hung (vmrun.sh).
. "$(dirname "$0")/../lib/common.sh"
exec "$SCRIPTS/lib/apt-install.sh" busybox-static kmod cpio gzip util-linux seabios ipxe-qemu \
	qemu-system-data iperf3 rsync perl gdb
