#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Debian's lldpad (openlldp) for the DCBX exchange test between the bench
# guests (selftests/driver/wren-lldp.sh), unpacked into a directory the
# guests see through their 9p root.
# usage: deb/lldpad-fetch.sh DEST   -> DEST/usr/sbin/lldpad, lldptool, libs
#
# The package is downloaded, not installed: installing it would start
# lldpad on the host (its systemd socket), which then speaks LLDP on the
# host's own ports.  scripts/deb/unpack.sh caches and unpacks the .debs.
. "$(dirname "$0")/../lib/common.sh"

dest=${1:?usage: deb/lldpad-fetch.sh DEST}
exec "$SCRIPTS/deb/unpack.sh" "$dest" lldpad libconfig9
