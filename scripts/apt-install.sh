#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Install the named Debian packages that are not installed yet; the shared
# step of every scripts/deps-<area>.sh.  Runs apt-get update only when
# something is missing, so a warm machine costs one dpkg -s a package.
# usage: apt-install.sh PKG...
set -eu
missing=
for p in "$@"; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086 # word splitting of the package list is wanted
apt-get install -y -q --no-install-recommends $missing
