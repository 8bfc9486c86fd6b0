#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Build/test dependencies of wren-fabric (tools/fabric): a C compiler with
# the ASan/UBSan runtimes (gcc ships them) and make.
set -eu
need=""
for pkg in gcc make libc6-dev; do
	dpkg -s "$pkg" >/dev/null 2>&1 || need="$need $pkg"
done
[ -z "$need" ] && exit 0
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # word splitting of the package list is wanted
apt-get install -y $need || { apt-get update && apt-get install -y $need; }
