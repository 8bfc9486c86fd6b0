#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# tshark (Wireshark's dissectors, Debian's package) for the packet
# correctness check of the fabric's RoCEv2 captures
# (selftests/host/roce-pcap-check.sh).  Only ever reads pcap files: the
# question wireshark-common asks about letting non-root users capture is
# answered "no" beforehand, so the install never stops to ask.
set -eu
pkgs="tshark"
missing=
for p in $pkgs; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "wireshark-common wireshark-common/install-setuid boolean false" |
	debconf-set-selections
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086 # word splitting of the package list is wanted
apt-get install -y -q --no-install-recommends $missing
