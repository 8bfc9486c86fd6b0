#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Build the DKMS package of the kernel modules with dpkg-deb:
#   $BUILD/deb/wren-dkms_<version>-<rev>_all.deb
# It installs the module source, dkms.conf and the probe script dkms runs
# (the same files `make dkms-tree` stages: scripts/kernel/sync.sh --dkms)
# under /usr/src/wren-<version>/, and maintainer scripts that are dh_dkms's
# (packaging/wren-dkms/): dkms add/build/install on configure, dkms remove
# --all on remove.  <version> is dkms.conf's PACKAGE_VERSION, because dkms
# finds the source by it; <rev> is WREN_DEB_REVISION (default 1).
#
# dpkg-deb rather than dh: the package holds no compiled file, so a debian/
# source tree and debhelper would add a build dependency and nothing else.
# The output is reproducible: owners root/root, modes normalised, every
# mtime and the changelog date SOURCE_DATE_EPOCH (default: the commit date
# of HEAD), so two builds of one tree give byte-identical packages.
#
# usage: deb/build.sh          prints the path of the .deb
. "$(dirname "$0")/../lib/common.sh"

tmpl=$TOP/packaging/wren-dkms

name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' "$TOP/dkms.conf")
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$TOP/dkms.conf")
if [ -z "$name" ] || [ -z "$ver" ]; then
	log "no PACKAGE_NAME/PACKAGE_VERSION in dkms.conf"
	exit 1
fi
pkg=$name-dkms
debver=$ver-${WREN_DEB_REVISION:-1}
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git -C "$TOP" log -1 --format=%ct 2>/dev/null ||
		stat -c %Y "$TOP/dkms.conf")
fi
export SOURCE_DATE_EPOCH

out=$BUILD/deb
stage=$out/stage/$pkg
deb=$out/${pkg}_${debver}_all.deb
rm -rf "$stage"
mkdir -p "$stage/DEBIAN" "$stage/usr/share/doc/$pkg"

"$SCRIPTS/kernel/sync.sh" "$stage/usr/src/$name-$ver" --dkms >/dev/null

subst() {
	sed -e "s|@NAME@|$name|g" -e "s|@VERSION@|$ver|g" \
		-e "s|@PACKAGE@|$pkg|g" -e "s|@DEBVERSION@|$debver|g" \
		-e "s|@SIZE@|${size:-0}|g" "$1"
}

cp "$tmpl/copyright" "$stage/usr/share/doc/$pkg/copyright"
mkdir -p "$stage/usr/share/lintian/overrides"
cp "$tmpl/lintian-overrides" "$stage/usr/share/lintian/overrides/$pkg"
# Debian policy 12.7: every binary package carries a changelog.
date=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
rev=$(git -C "$TOP" describe --always --dirty 2>/dev/null || echo unknown)
printf '%s (%s) unstable; urgency=medium\n\n  * Built by make deb from the Wren tree at %s.\n\n -- %s  %s\n' \
	"$pkg" "$debver" "$rev" \
	"$(sed -n 's/^Maintainer: //p' "$tmpl/control.in")" "$date" |
	gzip -9n >"$stage/usr/share/doc/$pkg/changelog.Debian.gz"

find "$stage" -type d -exec chmod 0755 {} +
find "$stage" -type f -exec chmod 0644 {} +
# dkms runs its PRE_BUILD script only if it is executable.
chmod 0755 "$stage/usr/src/$name-$ver/scripts/kernel-config.sh"
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
subst "$tmpl/control.in" >"$stage/DEBIAN/control"
for s in postinst prerm; do
	subst "$tmpl/$s.in" >"$stage/DEBIAN/$s"
	chmod 0755 "$stage/DEBIAN/$s"
done
(cd "$stage" && find usr -type f | LC_ALL=C sort | xargs md5sum) >"$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

rm -f "$deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
log "built $deb"
echo "$deb"
