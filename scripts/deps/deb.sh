#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Packages for `make deb` and its host check (scripts/check/deb.sh):
#   dpkg             dpkg-deb builds the package (essential, always there)
#   dkms             common.postinst the postinst calls; building the
#                    packaged source in the check
#   lintian          Debian's package checker
#   ccache           the prime deb/dkms-binaries.sh leaves for a guest
#                    whose postinst compiles (WREN_PKG_DKMS_BUILD)
#   and shellcheck   linting the maintainer scripts
# With --rdma-core also the build dependencies of Debian's rdma-core 56.1
# source (debian/control's Build-Depends) that the bench's in-tree build
# (deps/rdma-core.sh) does not need: debhelper, dh-python, pandoc (man
# pages), libsystemd-dev, pkgconf.
#
# usage: deps/deb.sh [--rdma-core]
. "$(dirname "$0")/../lib/common.sh"

pkgs="dkms lintian shellcheck ccache"
if [ "${1:-}" = --rdma-core ]; then
	"$SCRIPTS/deps/rdma-core.sh"
	pkgs="$pkgs debhelper dh-python pandoc libsystemd-dev pkgconf python3-docutils valgrind"
fi
# shellcheck disable=SC2086 # a list of package names
exec "$SCRIPTS/lib/apt-install.sh" $pkgs
