#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# tshark (Wireshark's dissectors, Debian's package) for the packet
# correctness check of the fabric's RoCEv2 captures
# (selftests/host/roce-pcap-check.sh).  Only ever reads pcap files: the
# question wireshark-common asks about letting non-root users capture is
# answered "no" beforehand, so the install never stops to ask.
. "$(dirname "$0")/../lib/common.sh"
# Answered only when tshark is about to be installed.
dpkg -s tshark >/dev/null 2>&1 ||
	echo "wireshark-common wireshark-common/install-setuid boolean false" |
	debconf-set-selections
exec "$SCRIPTS/lib/apt-install.sh" tshark
