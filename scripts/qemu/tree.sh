#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Prepare a configured QEMU build tree in DIR for Debian source version VER:
# fetch the source with apt (Debian's patches applied by dpkg-source -x),
# apply our fixes to QEMU itself (hw/qemu/patches/, in name order), hook
# hw/net/wren/ into the build (meson subdir + Kconfig symbol), and run
# configure.  The caller (qemu/build.sh) keys DIR by a hash of VER, of this
# file and of the patches, so everything that shapes the configured tree -
# the flags, the fixes, the hook - lives here and nowhere else.
#
# usage: qemu/tree.sh DIR VER DEVICE
#   DEVICE: our files as qemu/build.sh stages them (src/, hw-include/,
#   include/); copied in before configure so that the first build already
#   has them and later syncs only touch what changed.
. "$(dirname "$0")/../lib/common.sh"

dir=$1
ver=$2
device=$3

# Debian strips the firmware blobs from its source; the packaged seabios,
# ipxe-qemu and qemu-system-data provide them at these paths at run time.
configure_flags="--target-list=x86_64-softmmu --without-default-features
--enable-kvm --enable-slirp --enable-fdt=system --disable-docs --disable-werror
--enable-virtfs --enable-attr --enable-cap-ng --disable-install-blobs
--firmwarepath=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu"

# configure records absolute paths, so the tree is built where it will live;
# a missing stamp (interrupted run) means start again from nothing.
rm -rf "$dir"
mkdir -p "$dir/fetch"
cd "$dir/fetch" || exit
# apt-get source runs as root here; "W: Download is performed unsandboxed" is
# expected and harmless.
apt-get source --download-only "qemu=$ver" >download.log 2>&1 || {
	cat download.log >&2
	echo "qemu-tree: could not fetch qemu $ver source (deb-src enabled?)" >&2
	exit 1
}
dsc=$(ls ./*.dsc)
dpkg-source --no-check -x "$dsc" "$dir/src" >unpack.log 2>&1 || {
	cat unpack.log >&2
	exit 1
}
# dpkg-source also links the orig tarball next to the tree; neither copy is
# needed once unpacked.
rm -f ./*.tar.* ./*.dsc "$dir"/*.tar.*

cd "$dir/src" || exit
patches=$TOP/hw/qemu/patches
for p in "$patches"/*.patch; do
	[ -f "$p" ] || continue
	patch -p1 --forward --no-backup-if-mismatch <"$p" >patch.log 2>&1 || {
		cat patch.log >&2
		echo "qemu-tree: $(basename "$p") does not apply to qemu $ver" >&2
		exit 1
	}
done
rm -f patch.log
# Hook the device in.  The include directories are declared here, once, and
# never change: sourceset dependencies apply to every file of libcommon, so
# adding them later would recompile hundreds of QEMU files.  src/meson.build
# (the list of our C files) is rewritten by qemu/build.sh.
printf "subdir('wren')\n" >>hw/net/meson.build
cat >>hw/net/Kconfig <<'KCONFIG'

config WREN
    bool
    default y if PCI_DEVICES
    depends on PCI && MSI_NONBROKEN
KCONFIG
mkdir -p hw/net/wren
cat >hw/net/wren/meson.build <<'MESON'
# Wren RoCEv2 NIC, added by the Wren repository's scripts/qemu/tree.sh.
softmmu_ss.add(when: 'CONFIG_WREN', if_true: declare_dependency(
  include_directories: include_directories('hw-include', 'include')))
subdir('src')
MESON
cp -R "$device"/. hw/net/wren/

mkdir build
cd build || exit
# shellcheck disable=SC2086 # the flag list is split on purpose
../configure $configure_flags >configure.log 2>&1 || {
	tail -40 configure.log >&2
	echo "qemu-tree: configure failed (scripts/deps/qemu.sh run?)" >&2
	exit 1
}
touch "$dir/.configured"
