#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Print the path of a pristine Linux 7.3 source tree: Debian's
# linux-source-7.3 from trixie-backports, downloaded with `apt-get
# download` inside the trixie build root (kernel/root.sh, whose apt has
# trixie-backports) and unpacked once into
#   ${WREN_CACHE:-/var/cache/wren}/upstream/linux-<VERSION>/src
# keyed by the package's version.  Nobody writes into it: the series'
# check applies its patches to a hard-linked copy (upstream/check.sh).
#
# usage: upstream/linux-source.sh
. "$(dirname "$0")/../lib/common.sh"

pkg=linux-source-7.3
base=$WREN_CACHE/upstream
mkdir -p "$base/dl" || die "cannot create $base"

ver=$("$SCRIPTS/kernel/root.sh" run trixie apt-cache show --no-all-versions "$pkg" |
	sed -n 's/^Version: //p' | head -n 1)
[ -n "$ver" ] || die "$pkg is not known to the trixie root's apt (trixie-backports)"
dir=$base/linux-$ver
if [ -f "$dir/.pristine" ]; then
	echo "$dir/src"
	exit 0
fi

exec 9>"$base/.linux-source.lock"
flock 9
if [ ! -f "$dir/.pristine" ]; then
	deb=$(find "$base/dl" -maxdepth 1 -name "${pkg}_*.deb" | grep -F "_$(echo "$ver" | sed 's/^[0-9]*://')_" | head -n 1 || true)
	if [ -z "$deb" ]; then
		log "downloading $pkg $ver"
		# shellcheck disable=SC2016 # expanded by the inner shell
		"$SCRIPTS/kernel/root.sh" run trixie sh -c \
			'cd "$1" && apt-get download -q "$2=$3" 2>&1' sh "$base/dl" "$pkg" "$ver" >&2 ||
			die "apt-get download $pkg=$ver failed"
		deb=$(find "$base/dl" -maxdepth 1 -name "${pkg}_*.deb" | head -n 1)
	fi
	tmp=$(mktemp -d "$base/.linux-$ver.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT INT TERM
	log "unpacking $pkg $ver into $dir (about 15 s)"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
		tar -xJ -C "$tmp"
	mv "$tmp"/linux-source-* "$tmp/src"
	touch "$tmp/.pristine"
	rm -rf "$dir"
	mv "$tmp" "$dir"
	trap - EXIT INT TERM
	# Older versions go: each is 1.8 GB.
	for old in "$base"/linux-*; do
		[ "$old" = "$dir" ] || rm -rf "$old"
	done
	find "$base/dl" -maxdepth 1 -name "${pkg}_*.deb" ! -name "$(basename "$deb")" -delete
fi
echo "$dir/src"
