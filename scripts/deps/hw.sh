#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Build/test dependencies of libwrenhw (hw/): a C compiler with the ASan and
# UBSan runtimes (gcc ships them), make, binutils (ar, nm) and the kernel's
# uapi headers for <linux/types.h>; linux-source-6.1 (and xz to unpack it)
# for the kernel's kselftest.h, which the TAP of every C test sits on;
# zlib, whose crc32() the engine benchmark (hw/bench) is measured against.
. "$(dirname "$0")/../lib/common.sh"
exec "$SCRIPTS/lib/apt-install.sh" gcc make libc6-dev binutils linux-libc-dev \
	linux-source-6.1 xz-utils zlib1g-dev
