#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Dependencies of libwrenhw's fuzz harnesses (hw/fuzz, make fuzz and
# check-fuzz): clang and its runtimes - libFuzzer, ASan, UBSan - which
# Debian ships apart from the compiler in libclang-rt-14-dev.
. "$(dirname "$0")/../lib/common.sh"
exec "$SCRIPTS/lib/apt-install.sh" clang-14 libclang-rt-14-dev
