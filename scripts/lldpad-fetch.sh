#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Debian's lldpad (openlldp) for the DCBX exchange test between the bench
# guests (selftests/driver/wren-lldp.sh), unpacked into a directory the
# guests see through their 9p root.
# usage: lldpad-fetch.sh DEST   -> DEST/usr/sbin/lldpad, lldptool, libs
#
# The package is downloaded, not installed: installing it would start
# lldpad on the host (its systemd socket), which then speaks LLDP on the
# host's own ports.  The .debs are cached under $WREN_CACHE/debs by their
# file names (name_version_arch), so a new Debian upload is a new file.
set -eu

dest=${1:?usage: lldpad-fetch.sh DEST}
pkgs="lldpad libconfig9"
cache=${WREN_CACHE:-/var/cache/wren}/debs
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	cache=$(dirname "$dest")/cache/debs
	mkdir -p "$cache"
fi

debs=
for p in $pkgs; do
	# The candidate apt would install: its file name says name and version.
	v=$(apt-cache policy "$p" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	if [ -z "$v" ] || [ "$v" = "(none)" ]; then
		apt-get update -qq
		v=$(apt-cache policy "$p" | sed -n 's/^ *Candidate: //p')
	fi
	if [ -z "$v" ] || [ "$v" = "(none)" ]; then
		echo "lldpad-fetch: no candidate for $p" >&2
		exit 1
	fi
	# Debian encodes ':' (an epoch) as %3a in file names.
	f=$cache/${p}_$(echo "$v" | sed 's/:/%3a/')_$(dpkg --print-architecture).deb
	if [ ! -s "$f" ]; then
		(cd "$cache" && apt-get download -q "$p=$v" >/dev/null 2>&1) ||
			{ apt-get update -qq && (cd "$cache" && apt-get download -q "$p=$v"); }
	fi
	[ -s "$f" ] || { echo "lldpad-fetch: $f missing after apt-get download" >&2; exit 1; }
	debs="$debs $f"
done

stamp=$dest/.debs
if [ -x "$dest/usr/sbin/lldpad" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$debs" ]; then
	exit 0
fi
rm -rf "$dest"
mkdir -p "$dest"
for f in $debs; do
	dpkg-deb -x "$f" "$dest"
done
echo "$debs" >"$stamp"
echo "lldpad-fetch: unpacked$debs into $dest"
