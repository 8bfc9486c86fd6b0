#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Build the debug guest kernel: Debian's linux-source-6.1 with
# Debian's own configuration for that release, trimmed by localmodconfig
# to the modules the guests load (debug-kernel.modules) and with the
# checkers of debug-kernel.config on (KASAN, UBSAN, lockdep, kmemleak,
# DMA API debugging, fault injection), and the fixes to Linux itself in
# debug-kernel-patches/ (bugs outside Wren that the checkers report, each
# patch saying why).  The result is cached outside the clone under
# $WREN_CACHE/kernels/debug-<KVER>, keyed by every input: the source
# package's version, Debian's config, both files here, the patches, this
# script, and gcc's version.  The build tree stays there as KDIR: the
# drivers must be built against it (KASAN and lockdep change the ABI).
#
# usage: kernel-debug-build.sh KVER ENVFILE
# KVER is the series (6.1); ENVFILE gets the lines kernel-fetch.sh writes
# (KABI, KDIR, VMLINUZ, VMLINUX, KMODDIR).  JOBS= parallel jobs (nproc).
set -eu

kver=${1:?usage: kernel-debug-build.sh KVER ENVFILE}
envfile=${2:?usage: kernel-debug-build.sh KVER ENVFILE}
here=$(cd "$(dirname "$0")" && pwd)
top=${TOP:-$(cd "$here/../.." && pwd)}
build=${BUILD:-$top/build}
jobs=${JOBS:-$(nproc)}

[ "$kver" = 6.1 ] || { echo "kernel-debug-build: only 6.1 has a source package in bookworm" >&2; exit 1; }

cache=${WREN_CACHE:-/var/cache/wren}/kernels
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	cache=$build/cache/kernels
	mkdir -p "$cache"
fi

# Debian's kernel of the series: its config is the starting point, its
# module tree tells which modules the wanted ones depend on.
"$here/kernel-fetch.sh" "$kver" "$build/kernel-$kver.env"
# shellcheck disable=SC1090 # written by kernel-fetch.sh
. "$build/kernel-$kver.env"
deb_abi=$KABI
deb_root=${KMODDIR%/lib/modules/*}
deb_config=$deb_root/boot/config-$deb_abi

src_pkg=linux-source-$kver
"$top/scripts/lib/apt-install.sh" "$src_pkg" bc bison flex libelf-dev libssl-dev
src_ver=$(dpkg-query -W -f '${Version}' "$src_pkg")
tarball=/usr/src/$src_pkg.tar.xz
# Debian's config names the upstream release it was made for; the source
# package must be that release, or the two would not fit.
cfg_rel=$(sed -n 's/^# Linux\/x86 \([0-9.]*\) Kernel Configuration$/\1/p' "$deb_config")
case "$src_ver" in
"$cfg_rel"-*) ;;
*) echo "kernel-debug-build: $src_pkg $src_ver does not match Debian's kernel config ($cfg_rel, $deb_abi)" >&2
	exit 1 ;;
esac

key=$({
	echo "$src_ver"
	sha256sum <"$deb_config"
	sha256sum <"$here/debug-kernel.config"
	sha256sum <"$here/debug-kernel.modules"
	cat "$here"/debug-kernel-patches/*.patch | sha256sum
	sha256sum <"$0"
	gcc-12 --version | head -n 1
} | sha256sum | cut -c1-16)
# One tree per series at a fixed path: kbuild's own bookkeeping holds
# absolute paths, so a tree that moves is rebuilt whole (31 minutes
# here), while one that stays is rebuilt only where new inputs reach.
# "complete" holds the key of the inputs it was last built from.
kroot=$cache/debug-$kver

exec 9>"$cache/.debug-$kver.lock"
flock 9

if [ "$(cat "$kroot/complete" 2>/dev/null)" != "$key" ]; then
	echo "kernel-debug-build: building $src_pkg $src_ver with debug checkers ($kroot, inputs $key)" >&2
	start=$(date +%s)
	rm -f "$kroot/complete"
	rm -rf "$kroot/root"
	if [ "$(cat "$kroot/src_ver" 2>/dev/null)" != "$src_ver" ]; then
		rm -rf "$kroot"
		mkdir -p "$kroot"
		tar -xJf "$tarball" -C "$kroot"
		mv "$kroot/$src_pkg" "$kroot/build"
		echo "$src_ver" >"$kroot/src_ver"
	fi
	kb=$kroot/build
	# The tree keeps the patches an earlier build applied (in "patched"):
	# take them out, newest first, then apply today's.
	if [ -d "$kroot/patched" ]; then
		for p in $(find "$kroot/patched" -name '*.patch' | sort -r); do
			patch -d "$kb" -p1 -R -s <"$p"
		done
		rm -rf "$kroot/patched"
	fi
	mkdir -p "$kroot/patched"
	for p in "$here"/debug-kernel-patches/*.patch; do
		patch -d "$kb" -p1 -N -s <"$p"
		cp "$p" "$kroot/patched/"
	done

	# lsmod's format is what localmodconfig reads: the wanted modules and
	# everything they depend on in Debian's tree.
	mods=$(grep -v '^#' "$here/debug-kernel.modules")
	# shellcheck disable=SC2086 # one word per module
	modprobe -d "$deb_root" -S "$deb_abi" --show-depends -a $mods |
		awk '$1 == "insmod" { n = $2; sub(/.*\//, "", n); sub(/\.ko.*/, "", n);
			gsub(/-/, "_", n); print n, 0, 0 }' | sort -u >"$kroot/lsmod"
	{ echo "Module Size Used"; cat "$kroot/lsmod"; } >"$kroot/lsmod.txt"

	cp "$deb_config" "$kb/.config"
	make -C "$kb" -s LSMOD="$kroot/lsmod.txt" localmodconfig </dev/null >"$kroot/localmodconfig.log" 2>&1
	"$kb/scripts/kconfig/merge_config.sh" -m -O "$kb" "$kb/.config" "$here/debug-kernel.config" \
		>"$kroot/merge.log"
	make -C "$kb" -s olddefconfig
	# Every checker asked for must have survived olddefconfig.
	missing=$(grep -E '^CONFIG_[A-Z0-9_]+=y$' "$here/debug-kernel.config" |
		grep -vxF -f "$kb/.config" || true)
	if [ -n "$missing" ]; then
		echo "kernel-debug-build: the configuration lost: $missing" >&2
		exit 1
	fi
	make -C "$kb" -s -j"$jobs" bzImage modules >"$kroot/build.log" 2>&1 ||
		{ tail -n 40 "$kroot/build.log" >&2; exit 1; }
	abi=$(make -C "$kb" -s kernelrelease)
	mkdir -p "$kroot/root/boot"
	make -C "$kb" -s INSTALL_MOD_PATH="$kroot/root" INSTALL_MOD_STRIP=1 modules_install
	cp "$kb/arch/x86/boot/bzImage" "$kroot/root/boot/vmlinuz-$abi"
	cp "$kb/.config" "$kroot/root/boot/config-$abi"
	cp "$kb/System.map" "$kroot/root/boot/System.map-$abi"
	# The modules' source links point into the build tree, which stays.
	echo "$abi" >"$kroot/abi"
	echo "kernel-debug-build: $abi built in $(($(date +%s) - start)) s" >&2
	echo "$key" >"$kroot/complete"
fi

abi=$(cat "$kroot/abi")
# No PVH boot of the plain ELF (kernel-fetch.sh's shortcut): QEMU starts
# this 190 MB KASAN vmlinux and the guest dies before its first line;
# the bzImage boots (20 s).
vmlinux=
cat >"$envfile.tmp" <<ENV
KABI=$abi
KDIR=$kroot/build
VMLINUZ=$kroot/root/boot/vmlinuz-$abi
VMLINUX=$vmlinux
KMODDIR=$kroot/root/lib/modules/$abi
ENV
if cmp -s "$envfile.tmp" "$envfile"; then
	rm -f "$envfile.tmp"
else
	mv "$envfile.tmp" "$envfile"
fi
