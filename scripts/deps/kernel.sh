#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Packages for building and linting the kernel modules and for the guest
# driver tests.  The kernel headers themselves come with the kernel the
# bench fetches (scripts/kernel/env.sh asks tools/testbench/kernel-fetch.sh).
#   make, gcc-12     kbuild (the Debian headers name gcc-12)
#   linux-source-6.1 checkpatch.pl, spelling.txt, const_structs.checkpatch
#   dpkg-dev, patch  the C=2 checker, Debian's sparse source patched and
#                    built (kernel/sparse-build.sh)
#   xz-utils         unpacking checkpatch from the tarball
#   dkms             verifying dkms.conf builds both modules
#   ccache           the host kbuilds' compiler cache (lib/kbuild.sh)
#   pciutils, iproute2, python3  lspci/setpci, devlink, BAR reader in tests
#   ethtool, socat   the Ethernet guest tests (ethtool -S/-G/-L, TCP streams)
#   jq               JSON from devlink in the guest tests
. "$(dirname "$0")/../lib/common.sh"

pkgs="make gcc-12 libc6-dev linux-source-6.1 dpkg-dev patch xz-utils perl dkms ccache pciutils iproute2 python3 ethtool socat jq"
# shellcheck disable=SC2086 # a list of package names
exec "$SCRIPTS/lib/apt-install.sh" $pkgs
