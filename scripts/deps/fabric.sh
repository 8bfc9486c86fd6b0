#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Build/test dependencies of wren-fabric (tools/fabric): a C compiler with
# the ASan/UBSan runtimes (gcc ships them) and make.
. "$(dirname "$0")/../lib/common.sh"
exec "$SCRIPTS/lib/apt-install.sh" gcc make libc6-dev
