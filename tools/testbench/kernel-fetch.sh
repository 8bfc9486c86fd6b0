#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Fetch the Debian kernel a bench guest boots and the headers the driver
# builds against.  KVER is a series of scripts/kernel/series (6.1 =
# bookworm, 6.12 = bookworm-backports, 7.3 = trixie-backports, ...); the
# concrete ABI (6.1.0-57-amd64, 7.3.4+deb13-amd64, ...) is resolved from
# apt metadata so that a point release needs no change here.
#
# A series whose root column names a Debian build root (kernel/root.sh)
# is resolved and downloaded with that root's apt, and its headers are
# installed there, not on this machine: its KDIR is a path inside the
# root, where kbuild runs for it.  The image is extracted here all the
# same, so that QEMU boots it like any other.
#
# usage: kernel-fetch.sh KVER ENVFILE
# KVER 6.1-debug: kernel-debug-build.sh's debug kernel, built from source.
# Writes ENVFILE with KABI, KDIR (headers build dir), VMLINUZ, KMODDIR and
# VMLINUX (the decompressed kernel for PVH boot; empty if not available).
# The image is extracted (not installed) under $WREN_CACHE/kernels/<abi>/.
set -eu

kver=${1:?usage: kernel-fetch.sh KVER ENVFILE}
envfile=${2:?usage: kernel-fetch.sh KVER ENVFILE}
here=$(cd "$(dirname "$0")" && pwd)
top=${TOP:-$(cd "$here/../.." && pwd)}
# An unusable cache only costs time: fall back to the build directory.
cache=${WREN_CACHE:-/var/cache/wren}/kernels
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	cache=${BUILD:-$top/build}/cache/kernels
fi

case "$kver" in
# The debug kernel is built here rather than fetched.
*-debug) exec "$here/kernel-debug-build.sh" "${kver%-debug}" "$envfile" ;;
esac
series=$top/scripts/kernel/series.sh
version=$("$series" version "$kver") || exit 1
suite=$("$series" suite "$kver")
root=$("$series" root "$kver")

# in_root CMD...: CMD where this series' apt and headers live.
rootdir=
if [ "$root" = host ]; then
	in_root() { "$@"; }
else
	rootdir=$("$top/scripts/kernel/root.sh" path "$root")
	in_root() { "$top/scripts/kernel/root.sh" run "$root" "$@"; }
	# The root's cache must be this script's, bound at the same path.
	case "$cache" in "${WREN_CACHE:-/var/cache/wren}"/*) ;;
	*) echo "kernel-fetch: $kver is fetched in its $root root, which needs a writable WREN_CACHE" >&2; exit 1 ;;
	esac
fi

# Fast path: apt-cache takes seconds here, and make asks on every run.  If
# neither the package lists nor the installed packages changed since the
# last full check (the stamp), and what the env file names is still there,
# it is current.  The stamp is separate so that the env file's own
# timestamp only moves when its content does.
stamp=$envfile.checked
# A root's headers are checked by their package's file list: KDIR's
# build link is absolute, a path inside the root.
if [ -f "$envfile" ] && [ "$stamp" -nt "$rootdir/var/lib/apt/lists" ] &&
	[ "$stamp" -nt "$rootdir/var/lib/dpkg/status" ] &&
	(
		# shellcheck disable=SC1090,SC2153 # our own output sets these
		. "$envfile" && [ -f "$VMLINUZ" ] && [ -f "$KMODDIR/modules.dep" ] &&
			{ [ -z "$VMLINUX" ] || [ -f "$VMLINUX" ]; } &&
			if [ -n "$rootdir" ]; then
				[ -f "$rootdir/var/lib/dpkg/info/linux-headers-$KABI.list" ]
			else
				[ -e "$KDIR/Makefile" ]
			fi
	); then
	exit 0
fi

[ -n "$rootdir" ] || "$top/scripts/lib/apt-sources.sh"

# Newest linux-image-amd64 of this series, then the ABI package it depends on.
# "Version: 6.1." must not match 6.12, hence the trailing dot.
resolve_abi() {
	in_root apt-cache show linux-image-amd64 | awk -v pre="$version." '
		/^Version:/ { v = $2 }
		/^Depends:/ && index(v, pre) == 1 {
			if (match($0, /linux-image-[^ ,]+-amd64/))
				print v, substr($0, RSTART + 12, RLENGTH - 12)
		}' | sort -k1,1 -V | tail -n 1 | cut -d' ' -f2
}

abi=$(resolve_abi)
if [ -z "$abi" ]; then
	in_root apt-get update -qq
	abi=$(resolve_abi)
fi
[ -n "$abi" ] || { echo "kernel-fetch: no linux-image-amd64 $version.* in $suite's apt metadata" >&2; exit 1; }

# Installed before the image is extracted: a root's headers package
# holds the module lists that 7.x's modules package lacks (below).
if ! in_root dpkg -s "linux-headers-$abi" >/dev/null 2>&1; then
	# No "-t bookworm-backports": it would pull udev/systemd and more from
	# backports.  Packages that exist only there (the 6.12 headers, kbuild,
	# image) are still chosen because they have no other candidate.  The
	# headers package depends on the image, so that lands in /boot too.
	in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "linux-headers-$abi"
fi

kroot=$cache/$abi
mkdir -p "$cache"
# Two make runs may fetch the same kernel at once; serialise per ABI.
exec 9>"$cache/.$abi.lock"
flock 9

if [ ! -f "$kroot/.complete" ]; then
	tmp=$(mktemp -d "$cache/.fetch-$abi.XXXXXX")
	chmod 755 "$tmp" # apt downloads as _apt when it can
	# From 7.x on, linux-image-ABI is a small package that depends on
	# linux-binary-ABI (the image) and linux-modules-ABI (the modules);
	# before, it held both.  Whatever of the three exist are fetched.
	pkgs=$(in_root apt-cache show "linux-image-$abi" | awk -v abi="$abi" '
		/^Depends:/ {
			n = split($0, d, /[ ,]+/)
			for (i = 1; i <= n; i++)
				if (d[i] == "linux-binary-" abi || d[i] == "linux-modules-" abi)
					print d[i]
			exit
		}')
	# shellcheck disable=SC2086,SC2016 # package names; the inner shell's $1
	in_root sh -c 'cd "$1" && shift && apt-get download -q "$@"' sh "$tmp" "linux-image-$abi" $pkgs
	for deb in "$tmp"/*.deb; do
		dpkg -x "$deb" "$tmp/root"
	done
	# 7.x's packages put the modules and the image in /usr/lib/modules
	# only, and leave the lists of built-in modules (which modprobe
	# needs to succeed on them) and the config to the headers package.
	usr=
	[ -d "$tmp/root/lib/modules/$abi" ] || usr=/usr
	mdir=$tmp/root$usr/lib/modules/$abi
	for f in modules.builtin modules.builtin.modinfo modules.order config System.map; do
		[ -e "$mdir/$f" ] || [ ! -f "$rootdir/usr/lib/modules/$abi/$f" ] ||
			cp "$rootdir/usr/lib/modules/$abi/$f" "$mdir/$f"
	done
	# The extracted tree has no modules.dep; the guest's modprobe needs it.
	depmod -b "$tmp/root$usr" "$abi"
	rm -rf "$kroot"
	mv "$tmp/root" "$kroot"
	rm -rf "$tmp"
	touch "$kroot/.complete"
fi

# Under TCG, decompressing the xz/zstd bzImage takes the guest ~10 s of
# wall time at every boot.  Decompress it once here: QEMU boots the plain
# ELF vmlinux through its PVH entry point (CONFIG_PVH=y in Debian's configs).
extract_vmlinux() {
	in=$1
	out=$2
	for spec in 'xz:\xfd7zXZ\x00' 'zstd:\x28\xb5\x2f\xfd' 'gzip:\x1f\x8b\x08'; do
		tool=${spec%%:*}
		magic=${spec#*:}
		for off in $(LC_ALL=C grep -obUaP "$magic" "$in" | head -n 3 | cut -d: -f1); do
			# Trailing data after the stream makes the tool complain;
			# the ELF header check below decides.
			tail -c +$((off + 1)) "$in" | "$tool" -dc >"$out.tmp" 2>/dev/null
			if [ "$(head -c 4 "$out.tmp" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then
				mv "$out.tmp" "$out"
				return 0
			fi
		done
	done
	rm -f "$out.tmp"
	return 1
}
kmoddir=$kroot/lib/modules/$abi
[ -d "$kmoddir" ] || kmoddir=$kroot/usr/lib/modules/$abi
vmlinuz=$kroot/boot/vmlinuz-$abi
config=$kroot/boot/config-$abi
[ -f "$vmlinuz" ] || vmlinuz=$kmoddir/vmlinuz
[ -f "$config" ] || config=$kmoddir/config

vmlinux=
if grep -qx CONFIG_PVH=y "$config" 2>/dev/null; then
	vmlinux=$kroot/vmlinux
	[ -f "$vmlinux" ] || extract_vmlinux "$vmlinuz" "$vmlinux" || vmlinux=
fi


kdir=/lib/modules/$abi/build
for f in "$vmlinuz" "$kmoddir/modules.dep"; do
	[ -e "$f" ] || { echo "kernel-fetch: missing $f" >&2; exit 1; }
done
in_root test -e "$kdir/Makefile" || { echo "kernel-fetch: missing $kdir/Makefile${rootdir:+ in $rootdir}" >&2; exit 1; }

mkdir -p "$(dirname "$envfile")"
cat >"$envfile.tmp" <<ENV
KABI=$abi
KDIR=$kdir
VMLINUZ=$vmlinuz
VMLINUX=$vmlinux
KMODDIR=$kmoddir
ENV
# Keep the timestamp when nothing changed, so make rules that depend on the
# env file do not rebuild on every run.
if cmp -s "$envfile.tmp" "$envfile"; then
	rm -f "$envfile.tmp"
else
	mv "$envfile.tmp" "$envfile"
fi
touch "$stamp"
