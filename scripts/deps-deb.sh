#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Packages for `make deb` and its host check (scripts/deb-check.sh):
#   dpkg             dpkg-deb builds the package (essential, always there)
#   dkms             common.postinst the postinst calls; building the
#                    packaged source in the check
#   lintian          Debian's package checker
#   and shellcheck   linting the maintainer scripts
set -eu

pkgs="dkms lintian shellcheck"
missing=
for p in $pkgs; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # a list of package names
apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=600 $missing
