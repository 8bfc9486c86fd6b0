#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Build/test dependencies of wren-fabric (tools/fabric): a C compiler with
# the ASan/UBSan runtimes (gcc ships them) and make.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/apt-install.sh" gcc make libc6-dev
