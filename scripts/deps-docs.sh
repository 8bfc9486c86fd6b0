#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Dependencies of Documentation/ (check-docs.sh): Debian's docutils and
# Sphinx for /usr/bin/python3, and a C compiler with the kernel's UAPI
# headers for check-contract.py (it compiles the contract headers to hold
# the structure tables against them).  Idempotent: installs only what is
# missing.
set -eu
need=""
for pkg in python3-docutils python3-sphinx gcc libc6-dev linux-libc-dev; do
	dpkg -s "$pkg" >/dev/null 2>&1 || need="$need $pkg"
done
[ -z "$need" ] && exit 0
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # word splitting of the package list is wanted
apt-get install -y --no-install-recommends $need ||
	{ apt-get update && apt-get install -y --no-install-recommends $need; }
