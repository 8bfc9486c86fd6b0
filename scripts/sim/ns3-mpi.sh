#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# ns-3 3.37 with its MPI module, for the distributed simulation
# ($BUILD/sim-mpi, mk/sim.mk): Debian's libns3-dev is built without MPI,
# so this builds Debian's own source of the same release (apt-get source
# ns3=3.37-*, its patches applied) with NS3_MPI=ON, only the modules the
# simulation uses (core, network, mpi), release profile, no examples or
# tests, and installs it into
#
#   $WREN_CACHE/ns3-mpi-<key>/   include/ns3/..., lib/libns3-*.so
#
# One change to the source: ns-3 receives a message between ranks into a
# buffer of 2000 bytes (both synchronisers' MAX_MPI_MSG_SIZE), less than a
# RoCE frame of path MTU 4096 or a jumbo frame; it is 16384 bytes here.
#
# <key> hashes the source version, this script, the compiler, CMake and
# Open MPI versions.  A warm run prints the prefix and builds nothing;
# a cold one takes minutes (2 cores).  Where $WREN_CACHE is unwritable
# the entry goes under $BUILD/ns3-mpi-cache: a missing cache costs time,
# never a failure.
#
# usage: sim/ns3-mpi.sh      prints the prefix on stdout
. "$(dirname "$0")/../lib/common.sh"

JOBS=${JOBS:-2}
MODULES="core;network;mpi"

cache_root() {
	if mkdir -p "$WREN_CACHE" 2>/dev/null && [ -w "$WREN_CACHE" ]; then
		echo "$WREN_CACHE"
		return
	fi
	mkdir -p "$BUILD/ns3-mpi-cache"
	echo "$BUILD/ns3-mpi-cache"
}

# The newest ns3 3.37 source apt knows about (bookworm's; trixie's is 3.43).
ns3_version() {
	best=
	for v in $(apt-cache showsrc ns3 2>/dev/null | awk '/^Version: 3\.37-/ {print $2}'); do
		if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then
			best=$v
		fi
	done
	[ -n "$best" ] || die "no ns3 3.37 source known to apt (run scripts/lib/apt-sources.sh)"
	echo "$best"
}

"$SCRIPTS/lib/apt-sources.sh"
ver=$(ns3_version)
tools=$(dpkg-query -W -f '${Package}=${Version}\n' g++-12 cmake ninja-build \
	libopenmpi-dev openmpi-bin libc6-dev 2>/dev/null || true)
key=$( (echo "$ver"; echo "$MODULES"; echo "$tools"; cat "$0") | sha256sum | cut -c1-16)
root=$(cache_root)
prefix=$root/ns3-mpi-$key

# One builder at a time (make check and a make sim-mpi may race).
exec 9>"$root/ns3-mpi.lock"
flock 9
if [ -f "$prefix/.done" ]; then
	touch "$prefix"
	echo "$prefix"
	exit 0
fi

log "building ns-3 $ver with MPI into $prefix (cold: several minutes)"
start=$(date +%s)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get source -q "ns3=$ver" >fetch.log 2>&1) || {
	tail -20 "$work/fetch.log" >&2
	die "apt-get source ns3=$ver failed"
}
src=$(ls -d "$work"/ns3-*/ns-3.*)
sed -i 's/MAX_MPI_MSG_SIZE = 2000;/MAX_MPI_MSG_SIZE = 16384;/' \
	"$src/src/mpi/model/null-message-mpi-interface.cc" \
	"$src/src/mpi/model/granted-time-window-mpi-interface.h"
[ "$(grep -c 'MAX_MPI_MSG_SIZE = 16384;' "$src/src/mpi/model/null-message-mpi-interface.cc" \
	"$src/src/mpi/model/granted-time-window-mpi-interface.h" | awk -F: '{s += $2} END {print s}')" = 2 ] ||
	die "ns-3's MAX_MPI_MSG_SIZE not found where expected"
rm -rf "$prefix"
cmake -S "$src" -B "$work/build" -G Ninja \
	-DCMAKE_BUILD_TYPE=release -DCMAKE_INSTALL_PREFIX="$prefix" \
	-DCMAKE_INSTALL_LIBDIR=lib \
	-DNS3_MPI=ON -DNS3_ENABLED_MODULES="$MODULES" \
	-DNS3_EXAMPLES=OFF -DNS3_TESTS=OFF -DNS3_PYTHON_BINDINGS=OFF \
	-DNS3_GSL=OFF -DNS3_GTK3=OFF -DNS3_SQLITE=OFF -DNS3_EMU=OFF -DNS3_TAP=OFF \
	-DNS3_VISUALIZER=OFF -DNS3_NETANIM=OFF -DNS3_WARNINGS_AS_ERRORS=OFF \
	>"$work/configure.log" 2>&1 || {
	tail -30 "$work/configure.log" >&2
	die "cmake configure failed"
}
ninja -C "$work/build" -j"$JOBS" install >"$work/build.log" 2>&1 || {
	grep -E -A5 'error|FAILED' "$work/build.log" | head -60 >&2
	die "ninja failed"
}
ls "$prefix"/lib/libns3*-mpi*.so >/dev/null 2>&1 || die "no libns3-mpi in $prefix/lib"
date >"$prefix/.done"
log "built ns-3 $ver with MPI in $(($(date +%s) - start)) s"
# Keep the two newest entries.
# shellcheck disable=SC2012 # names are ours: ns3-mpi-<hex>
ls -1dt "$root"/ns3-mpi-*/ 2>/dev/null | tail -n +3 | while read -r d; do
	log "pruning old cache entry $d"
	rm -rf "$d"
done
echo "$prefix"
