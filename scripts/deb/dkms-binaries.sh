#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The modules of the wren-dkms package, built by dkms on the host for one
# kernel and archived as dkms ships builds between machines (dkms
# mktarball --binaries-only).  A fleet builds once per kernel and loads
# the archive on every server (dkms ldtarball) before installing the
# package, whose postinst then installs instead of compiling; the package
# boot's guests do the same (selftests/rdma/wren-pkg-install.sh), because
# compiling the modules under TCG takes longer than all their other tests.
# Nothing is installed on the host: private source and dkms trees.
#
# Where it may (root, or user namespaces: unshare -m), the build runs in
# a private mount namespace with a tmpfs on /var/lib/dkms, i.e. in the
# paths a server's dkms uses, through Debian's ccache hook of its kernel
# headers (DEBIAN_KERNEL_USE_CCACHE).  That cache is the "prime" beside
# the archive: a guest whose postinst compiles (wren-pkg-install.sh,
# WREN_PKG_DKMS_BUILD) runs the same compiles and finds every object in
# it, so dkms, kbuild, modpost and the link run there in minutes rather
# than a quarter of an hour.
#
# usage: deb/dkms-binaries.sh DEB KVER   -> prints the archive's path,
#        $BUILD/deb/<name>-<ver>-<KABI>-binaries.tar.gz, with the prime in
#        $BUILD/deb/<name>-<ver>-<KABI>-prime/ (ccache/, and wren-cache/
#        with kernel-config.sh's answers) where it could be made (built
#        only when DEB or the kernel's headers changed: cached under
#        $WREN_CACHE/dkms-binaries)
. "$(dirname "$0")/../lib/common.sh"

deb=${1:?usage: deb/dkms-binaries.sh DEB KVER}
kver=${2:?usage: deb/dkms-binaries.sh DEB KVER}
# A series whose headers live in a Debian root (kernel/series: Debian
# 13's 6.12 in the trixie guests' root) is built there, with that
# release's dkms and compiler, as its servers would.
root=$("$SCRIPTS/kernel/series.sh" root "$kver")
if [ "$root" != host ] && [ -z "${WREN_ROOT:-}" ]; then
	exec "$SCRIPTS/kernel/root.sh" run "$root" "$0" "$@"
fi
eval "$("$SCRIPTS/kernel/env.sh" "$kver")"

name=$(dpkg-deb -f "$deb" Package | sed 's/-dkms$//')
ver=$(dpkg-deb -f "$deb" Version | sed 's/-[^-]*$//')
out=$BUILD/deb/$name-$ver-$KABI-binaries.tar.gz
# Cached outside the clone by what dkms builds from, the packaged source
# tree (names, modes and bytes: the package's own bytes change with every
# commit through its changelog), and the headers' and dkms's package
# versions.  A build
# that is not cached also checks what the package's prerm relies on:
# dkms remove --all leaves nothing, and the packaged source stays
# pristine.  make check-deb's dkms check is this build.
hver=$(dpkg-query -W -f '${Version}' "linux-headers-$KABI" 2>/dev/null || readlink -f "$KDIR")
dver=$(dpkg-query -W -f '${Version}' dkms 2>/dev/null)
# The prime is good for this compiler and this ccache only.
cver=$(dpkg-query -W -f '${Version} ' gcc-12 gcc-14 ccache 2>/dev/null || true)
srcsum=$(dpkg-deb --fsys-tarfile "$deb" | tar -t -v --numeric-owner --wildcards './usr/src/*' |
	awk '{ print $1, $3, $NF }' | sort -k3)
srcsum=$(printf '%s\n' "$srcsum" "$(dpkg-deb --fsys-tarfile "$deb" |
	tar -x -O --wildcards './usr/src/*' | sha256sum)" | sha256sum | cut -d' ' -f1)
key=$(printf '%s %s %s %s %s\n' "$srcsum" "$KABI" "$hver" "$dver" "$cver" |
	sha256sum | cut -c1-16)
cache=${WREN_CACHE:-/var/cache/wren}/dkms-binaries
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	cache=$BUILD/cache/dkms-binaries
	mkdir -p "$cache"
fi
prime=$BUILD/deb/$name-$ver-$KABI-prime
if [ -s "$cache/$key.tar.gz" ]; then
	cp "$cache/$key.tar.gz" "$out"
	rm -rf "$prime"
	[ ! -d "$cache/$key.prime" ] || cp -a "$cache/$key.prime" "$prime"
	echo "$out"
	exit 0
fi

# In a root (kernel/root.sh run: already a private mount namespace) the
# root's / is no mount point, whose propagation unshare could set.
prop=
[ -z "${WREN_ROOT:-}" ] || prop="--propagation unchanged"
# shellcheck disable=SC2086 # prop: no word or two
if [ "${DKMS_BINARIES_NS:-}" != 1 ] && command -v ccache >/dev/null &&
	unshare -m $prop true 2>/dev/null; then
	DKMS_BINARIES_NS=1 exec unshare -m $prop "$0" "$@"
fi

work=$BUILD/deb/binaries-$KABI
rm -rf "$work" "$out" "$prime"
mkdir -p "$work/tree"
dpkg-deb -x "$deb" "$work/root"
src=$work/root/usr/src
tree=$work/tree
if [ "${DKMS_BINARIES_NS:-}" = 1 ]; then
	mkdir -p /var/lib/dkms
	mount -t tmpfs -o mode=0755 wren-dkms /var/lib/dkms
	tree=/var/lib/dkms
	mkdir -p "$work/prime/ccache" "$work/prime/wren-cache"
	# Timestamps: dkms copies the source and kernel-config.sh writes
	# wren_config.h just before the compiles, which would otherwise send
	# ccache to the preprocessor (minutes under TCG).  The directory is
	# left out of the hash: it is the headers' in both places.
	printf '%s\n' "sloppiness = include_file_mtime,include_file_ctime" \
		"hash_dir = false" "inode_cache = true" "max_size = 1G" \
		>"$work/prime/ccache/ccache.conf"
	# A private probe cache, so that the probes run and are primed too.
	export DEBIAN_KERNEL_USE_CCACHE=1 CCACHE_DIR="$work/prime/ccache" \
		WREN_CACHE="$work/prime/wren-cache"
fi
# (set -e does not reach into a list that is tested: each step is
# chained.)  remove --all is what the package's prerm runs: it must
# leave nothing, and the build must have run in dkms's copy of the
# source.
{
	dkms add -m "$name" -v "$ver" --sourcetree "$src" --dkmstree "$tree" &&
	dkms build -m "$name" -v "$ver" -k "$KABI" --sourcetree "$src" --dkmstree "$tree" &&
	dkms mktarball -m "$name" -v "$ver" -k "$KABI" --binaries-only \
		--archive "$out" --sourcetree "$src" --dkmstree "$tree" &&
	dkms remove -m "$name" -v "$ver" --all --sourcetree "$src" --dkmstree "$tree" &&
	{ [ ! -e "$tree/$name/$ver" ] ||
		{ echo "dkms remove --all left $tree/$name/$ver"; false; }; } &&
	{ [ ! -e "$src/$name-$ver/wren_config.h" ] ||
		{ echo "the build wrote into the packaged source"; false; }; }
} >"$work/dkms.log" 2>&1 || { cat "$work/dkms.log" >&2; rm -f "$out"; exit 1; }
tar -tzf "$out" >"$work/archive.list"
sed -n 's/^BUILT_MODULE_NAME\[[0-9]*\]="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' \
	"$src/$name-$ver/dkms.conf" | while read -r m; do
	grep -q "/$KABI/.*/$m\.ko" "$work/archive.list" ||
		{ echo "deb-dkms-binaries: no $m.ko for $KABI in $out" >&2; exit 1; }
done || { rm -f "$out"; exit 1; }
if [ -d "$work/prime" ]; then
	rm -rf "$cache/$key.prime" "$cache/$key.prime.tmp"
	cp -a "$work/prime" "$cache/$key.prime.tmp" && mv "$cache/$key.prime.tmp" "$cache/$key.prime"
	mv "$work/prime" "$prime"
fi
cp "$out" "$cache/$key.tar.gz.tmp" && mv "$cache/$key.tar.gz.tmp" "$cache/$key.tar.gz"
# A few kernels and package versions at once (other checkouts may use
# theirs); the rest go.  The names are ours: hex keys.
# shellcheck disable=SC2012
ls -t "$cache"/*.tar.gz | tail -n +7 | while read -r old; do rm -rf "$old" "${old%.tar.gz}.prime"; done
rm -rf "$work"
echo "$out"
