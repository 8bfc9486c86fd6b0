#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Read scripts/kernel/series, the one list of the kernel series Wren
# builds for.
#
# usage: kernel/series.sh list            every series, in order
#        kernel/series.sh host            the series built on this machine
#        kernel/series.sh version|suite|root KVER
#                                          that series' field; exits 1 for
#                                          a series not in the list
. "$(dirname "$0")/../lib/common.sh"

table() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$SCRIPTS/kernel/series"; }

case "${1:-}" in
list) table | awk '{ print $1 }' ;;
host) table | awk '$4 == "host" { print $1 }' ;;
version | suite | root)
	kver=${2:?usage: kernel/series.sh $1 KVER}
	v=$(table | awk -v k="$kver" -v f="$1" '
		$1 == k { print (f == "version" ? $2 : f == "suite" ? $3 : $4) }')
	[ -n "$v" ] || die "unsupported KVER=$kver ($(table | awk '{ print $1 }' | paste -sd' '))"
	echo "$v"
	;;
*) die "usage: kernel/series.sh list|host|version KVER|suite KVER|root KVER" ;;
esac
