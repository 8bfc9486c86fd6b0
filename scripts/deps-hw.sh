#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Build/test dependencies of libwrenhw (hw/): a C compiler with the ASan and
# UBSan runtimes (gcc ships them), make, binutils (ar, nm) and the kernel's
# uapi headers for <linux/types.h>; linux-source-6.1 (and xz to unpack it)
# for the kernel's kselftest.h, which the TAP of every C test sits on.
set -eu
need=""
for pkg in gcc make libc6-dev binutils linux-libc-dev linux-source-6.1 xz-utils; do
	dpkg -s "$pkg" >/dev/null 2>&1 || need="$need $pkg"
done
[ -z "$need" ] && exit 0
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # word splitting of the package list is wanted
apt-get install -y $need || { apt-get update && apt-get install -y $need; }
