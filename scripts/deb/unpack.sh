#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Debian packages unpacked, not installed, into a directory the bench
# guests see through their 9p root: for daemons whose package would start
# them on the host (lldpad's systemd socket speaking LLDP on the host's
# ports, an sshd listening on the CI host).
# usage: deb/unpack.sh DEST PKG...   -> DEST/usr/..., DEST/lib/... as in the .debs
#
# The .debs are cached under $WREN_CACHE/debs by their file names
# (name_version_arch), so a new Debian upload is a new file; DEST is
# unpacked again only when the list of files changes (DEST/.debs).
. "$(dirname "$0")/../lib/common.sh"

dest=${1:?usage: deb/unpack.sh DEST PKG...}
shift
[ $# -gt 0 ] || { echo "usage: deb/unpack.sh DEST PKG..." >&2; exit 2; }
cache=${WREN_CACHE:-/var/cache/wren}/debs
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	cache=$(dirname "$dest")/cache/debs
	mkdir -p "$cache"
fi

# cached BASE: BASE_<arch>.deb or BASE_all.deb, if downloaded.
cached() {
	for a in "$(dpkg --print-architecture)" all; do
		if [ -s "$1_$a.deb" ]; then
			echo "$1_$a.deb"
			return
		fi
	done
}

debs=
for p in "$@"; do
	# The candidate apt would install: its file name says name and version.
	v=$(apt-cache policy "$p" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	if [ -z "$v" ] || [ "$v" = "(none)" ]; then
		apt-get update -qq
		v=$(apt-cache policy "$p" | sed -n 's/^ *Candidate: //p')
	fi
	if [ -z "$v" ] || [ "$v" = "(none)" ]; then
		echo "deb-unpack: no candidate for $p" >&2
		exit 1
	fi
	# Debian encodes ':' (an epoch) as %3a in file names; arch: all
	# packages end in _all.
	base=$cache/${p}_$(echo "$v" | sed 's/:/%3a/')
	f=$(cached "$base")
	if [ -z "$f" ]; then
		(cd "$cache" && apt-get download -q "$p=$v" >/dev/null 2>&1) ||
			{ apt-get update -qq && (cd "$cache" && apt-get download -q "$p=$v"); }
		f=$(cached "$base")
	fi
	[ -n "$f" ] || { echo "deb-unpack: ${base}_*.deb missing after apt-get download" >&2; exit 1; }
	debs="$debs $f"
done

stamp=$dest/.debs
if [ "$(cat "$stamp" 2>/dev/null)" = "$debs" ]; then
	exit 0
fi
rm -rf "$dest"
mkdir -p "$dest"
for f in $debs; do
	dpkg-deb -x "$f" "$dest"
done
echo "$debs" >"$stamp"
echo "deb-unpack: unpacked$debs into $dest"
