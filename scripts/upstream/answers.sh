#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Write the feature probes' answers for Linux 7.3 (scripts/kernel-config.sh
# against Debian's 7.3 headers, in the trixie build root) to OUT, which
# must lie under BUILD or WREN_CACHE (bound into the root).  The series
# is 7.3 code with every HAVE_* resolved from this file by unifdef.
#
# usage: upstream/answers.sh OUT
. "$(dirname "$0")/../lib/common.sh"
. "$SCRIPTS/lib/kbuild.sh"

out=${1:?usage: upstream/answers.sh OUT}
kbuild_root 7.3 "$0" "$@"
kbuild_setup 7.3
# shellcheck disable=SC2154 # KDIR: kbuild_setup
"$SCRIPTS/kernel-config.sh" "$KDIR" "$out"
