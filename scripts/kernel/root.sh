#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# A Debian root for what this machine's Debian 12 cannot do itself, in
# three variants of one suite, ROOT naming both:
#
#   SUITE        the build root of the kernel series whose headers Debian
#                12 cannot build against (scripts/kernel/series: 7.3's
#                headers name gcc-14-for-host, which only trixie has):
#                what kbuild and the checks need (make, gcc-14,
#                libc6-dev, ccache, sparse)
#   SUITE-deb    the build root of the suite's own rdma-core packages
#                (deb/rdma-core.sh): the Build-Depends of Debian's
#                rdma-core source and build-essential
#   SUITE-guest  the root filesystem of the bench's guests of that suite
#                (tools/testbench ROOTFS=, shared read-only over 9p in
#                place of the host's /): what the package boot's tests
#                run - kmod, iproute2, python3, sshd, Debian's perftest,
#                UCX, Open MPI (with mpicc) and libfabric with the
#                suite's own rdma-core libraries under them, dkms and
#                gcc-14 for the compile in the guest; the guest kernel's
#                headers are installed by kernel/env.sh, run inside it,
#                as for a build root
#
# `debootstrap --variant=minbase` of the suite, then apt inside it installs
# the variant's packages.  Its apt entries - SUITE, SUITE-updates and
# SUITE-backports, main and non-free - are derived from the machine's own
# Debian entry, as lib/apt-sources.sh derives bookworm's, so that no
# registry host is written into the repo.  The headers themselves are
# installed into the root by kernel/env.sh, run inside it, which resolves
# the series' ABI from the root's apt lists as it does on the host.
#
# The root is cached as ${WREN_CACHE:-/var/cache/wren}/roots/ROOT-KEY,
# KEY a hash of this script, the package list and the mirror, and made
# from nothing when missing (a cold run).  Its apt lists are refreshed
# when a week old, so that a point release of the headers is picked up.
#
# `run` runs a command in the root, in a private mount namespace that
# binds the tree (TOP), BUILD and WREN_CACHE at the same paths, with
# /dev and /proc, and starts in the same folder when it is there: kbuild writes the objects into the tree's build folder
# as on the host, and the caches (ccache, sparse, kernel-config) are
# shared.  The bind mounts end with the command.  Root only.
#
# usage: kernel/root.sh path ROOT        make the root if needed, print it
#        kernel/root.sh run ROOT CMD...  run CMD inside it
. "$(dirname "$0")/../lib/common.sh"

cmd=${1:?usage: kernel/root.sh path|run ROOT [CMD...]}
name=${2:?usage: kernel/root.sh path|run ROOT [CMD...]}
shift 2
suite=${name%%-*}
variant=${name#"$suite"}

case $variant in
# What kbuild needs for an external module against Debian's headers,
# sparse for the C=2 checks, ccache for lib/kbuild.sh's compiler cache.
"") pkgs="make gcc-14 libc6-dev ccache sparse xz-utils" ;;
# rdma-core's Build-Depends (debian/control; dpkg-checkbuilddeps checks
# them before each build), ccache for the compiles.
-deb)
	pkgs="build-essential ccache xz-utils cmake cython3 debhelper dh-python
		dpkg-dev libnl-3-dev libnl-route-3-dev libsystemd-dev libudev-dev
		ninja-build pandoc pkgconf python3-dev python3-docutils valgrind"
	;;
# What the package boot's guests run from their root (the bookworm
# guests take the same from the host's /, scripts/deps/apps.sh):
# the test scripts' tools, sshd for mpirun, the applications, and
# dkms, kbuild's compiler and ccache for a postinst that compiles.
-guest)
	pkgs="kmod iproute2 procps pciutils python3 openssh-server openssh-client
		perftest ucx-utils libfabric-bin openmpi-bin libopenmpi-dev
		netpipe-openmpi dkms make gcc-14 libc6-dev ccache xz-utils"
	;;
*) die "unknown root $name (SUITE, SUITE-deb or SUITE-guest)" ;;
esac
# shellcheck disable=SC2086,SC2116 # one blank between the names, for the key
pkgs=$(echo $pkgs)
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
max_age_days=7

[ "$(id -u)" = 0 ] || die "a build root needs root (debootstrap, chroot, mounts)"

mirror() {
	s=/etc/apt/sources.list.d/debian.sources
	uri=$(awk '/^URIs:/ && /debian\/?$/ && !/security/ {print $2; exit}' "$s" 2>/dev/null || true)
	if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
		uri=$(awk '$1=="deb" && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list)
	fi
	[ -n "$uri" ] || die "no Debian mirror found in $s"
	echo "$uri"
}

# in_root DIR CMD...: CMD in DIR with the tree, the build folder and the
# caches bound at their own paths.
in_root() {
	r=$1
	shift
	binds=
	# Made here first: one made inside the root would go with the root.
	mkdir -p "$BUILD" "$WREN_CACHE"
	for d in "$TOP" "$BUILD" "$WREN_CACHE"; do
		[ -d "$d" ] || continue
		case "$binds " in *" $d "*) continue ;; esac
		binds="$binds $d"
	done
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private -- /bin/sh -eu -c '
		r=$1
		shift
		binds=$1
		shift
		mount --rbind /dev "$r/dev"
		mount -t proc proc "$r/proc"
		for d in $binds; do
			mkdir -p "$r$d"
			mount --bind "$d" "$r$d"
		done
		cwd=/
		[ ! -d "$r$PWD" ] || cwd=$PWD
		exec chroot "$r" /usr/bin/env -u TMPDIR --chdir="$cwd" \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LC_ALL=C.UTF-8 WREN_ROOT=1 "$@"
	' in_root "$r" "$binds" "$@"
}

make_root() {
	dir=$1
	uri=$2
	tmp=$(mktemp -d "$WREN_CACHE/roots/.make-$name.XXXXXX")
	chmod 755 "$tmp" # apt downloads as _apt when it can
	# A failed make leaves nothing behind.
	trap 'rm -rf "$tmp"' EXIT INT TERM
	log "debootstrap $suite into $tmp for $name (a few minutes)"
	debootstrap --variant=minbase --keyring="$keyring" "$suite" "$tmp" "$uri" >"$tmp.log" 2>&1 ||
		{ cat "$tmp.log" >&2; rm -f "$tmp.log"; die "debootstrap $suite failed"; }
	rm -f "$tmp.log" "$tmp/etc/apt/sources.list"
	cat >"$tmp/etc/apt/sources.list.d/debian.sources" <<SRC
Types: deb
URIs: $uri
Suites: $suite $suite-updates $suite-backports
Components: main non-free
Signed-By: $keyring
SRC
	cp "$keyring" "$tmp$keyring"
	# No daemons start in the root.
	printf '#!/bin/sh\nexit 101\n' >"$tmp/usr/sbin/policy-rc.d"
	chmod 755 "$tmp/usr/sbin/policy-rc.d"
	# shellcheck disable=SC2086 # a list of package names
	{ in_root "$tmp" apt-get update -q &&
		in_root "$tmp" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends $pkgs &&
		in_root "$tmp" apt-get clean; } >"$tmp.log" 2>&1 ||
		{ cat "$tmp.log" >&2; rm -f "$tmp.log"; die "installing $pkgs in the $name root failed"; }
	rm -f "$tmp.log"
	touch "$tmp/.wren-lists"
	mv "$tmp" "$dir"
	trap - EXIT INT TERM
}

uri=$(mirror)
key=$({ cat "$0"; echo "$suite $pkgs $uri"; } | sha256sum | cut -c1-12)
mkdir -p "$WREN_CACHE/roots" || die "cannot create $WREN_CACHE/roots"
dir=$WREN_CACHE/roots/$name-$key
exec 8>"$WREN_CACHE/roots/.$name.lock"
flock 8
if [ ! -f "$dir/.wren-lists" ]; then
	make_root "$dir" "$uri"
	# Roots made by an older script or for another mirror go (the
	# key's twelve characters: not another variant's roots).
	for old in "$WREN_CACHE/roots/$name"-????????????; do
		[ "$old" = "$dir" ] || rm -rf "$old"
	done
elif [ -n "$(find "$dir/.wren-lists" -mtime +"$max_age_days")" ]; then
	if in_root "$dir" apt-get update -q >&2; then
		touch "$dir/.wren-lists"
	else
		log "apt-get update in $dir failed; its lists stay as they were"
	fi
fi
flock -u 8

case "$cmd" in
path) echo "$dir" ;;
run)
	[ $# -gt 0 ] || die "usage: kernel/root.sh run ROOT CMD..."
	in_root "$dir" "$@"
	;;
*) die "usage: kernel/root.sh path|run ROOT [CMD...]" ;;
esac
