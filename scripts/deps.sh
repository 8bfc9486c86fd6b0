#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Install what every layer needs on a fresh Debian 12 machine.  Each area
# lists its own packages in scripts/deps-<area>.sh; all are idempotent.
. "$(dirname "$0")/lib/common.sh"
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: run as root (apt-get)" >&2
	exit 1
fi
"$SCRIPTS/lib/apt-sources.sh"
for s in "$SCRIPTS"/deps/*.sh; do
	[ -e "$s" ] || continue
	echo "deps: $(basename "$s")"
	"$s"
done
