#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Install the named Debian packages that are not installed yet; the shared
# step of every scripts/deps/<area>.sh.  A warm machine costs one dpkg -s
# a package.  PKG=VERSION asks for that version when PKG is missing.
# apt-get waits up to 10 minutes for another apt's lock (helpers and make
# check may install at once), and runs apt-get update only when the
# install fails (a fresh machine has no package lists yet).
#
# usage: lib/apt-install.sh PKG[=VERSION]...
. "$(dirname "$0")/../lib/common.sh"

missing=
for p in "$@"; do
	dpkg -s "${p%%=*}" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # a list of package names
apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=600 $missing ||
	{ apt-get update -q && apt-get install -y -q --no-install-recommends \
		-o DPkg::Lock::Timeout=600 $missing; }
