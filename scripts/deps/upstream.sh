#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Packages for make upstream and make check-upstream on this machine:
#   - unifdef, which resolves the feature probes for the series
#     (upstream/linux.sh)
#   - git, which writes the series (format-patch)
# rdma-core's own build dependencies come with deps/rdma-core.sh; what
# the 7.3 tree's build needs is installed in the trixie build root at run
# time (upstream/kbuild.sh).
. "$(dirname "$0")/../lib/common.sh"

exec "$SCRIPTS/lib/apt-install.sh" unifdef git
