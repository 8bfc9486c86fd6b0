#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Dependencies of libwrenhw's fuzz harnesses (hw/fuzz, make fuzz and
# check-fuzz): clang and its runtimes - libFuzzer, ASan, UBSan - which
# Debian ships apart from the compiler in libclang-rt-14-dev.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/apt-install.sh" clang-14 libclang-rt-14-dev
