#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test of a package boot (PKG=1: /usr and the module directory are
# writable overlays), run by both guests at once: install Wren as an
# operator does on a Debian 12 server (on a Debian 13 one where the
# guests boot a trixie root, ROOTFS=trixie: trixie's rdma-core build over
# trixie's 56.1-1, with librdmacm1t64 for librdmacm1; PKG_RDMA_SET), then
# check that the system's own libraries and tools find the NIC with no
# environment variable.
#
# - rdma-core 56.1-1+wren1 (make deb-rdma-core) over Debian 12's 44.0-2,
#   which the host has installed under its application packages (UCX,
#   Open MPI, libfabric, perftest): libibverbs1, ibverbs-providers,
#   librdmacm1, ibverbs-utils, rdmacm-utils, rdma-core, plus every other
#   package of the set that is installed already (libibverbs-dev), so
#   that nothing is left depending on 44; dpkg --audit clean afterwards.
# - wren-dkms (make deb): the modules dkms built on the host for this
#   kernel (scripts/deb/dkms-binaries.sh, dkms mktarball --binaries-only)
#   go where the package's postinst looks for a prebuilt archive
#   (/usr/share/wren-dkms/wren-<ver>.dkms.tar.gz, dh_dkms's
#   common.postinst loads it instead of adding the source), as a fleet
#   that builds once per kernel does.  On the guests that
#   WREN_PKG_DKMS_BUILD lists (guest indices, or "all") the archive
#   stays out and the postinst compiles here, against the host's
#   linux-headers for this ABI, through Debian's ccache hook of those
#   headers (DEBIAN_KERNEL_USE_CCACHE) and the host's prime of it:
#   dkms, kbuild, objtool, modpost and the link run here, every compile
#   must be found in the prime (a real compile under TCG takes over a
#   quarter of an hour; the ccache'd one about three minutes on two
#   vCPUs).  selftests/plan sets it for p612d13's guest 0, which then takes
#   its other CPUs offline, and modprobe finds the modules under
#   updates/dkms.
# - With the modules loaded: ibv_devinfo and rdma link against /usr's
#   libibverbs (wren-perftest.sh runs Debian's perftest on it later).
#
# One dpkg -i installs both sets, since each dpkg run reads its database
# of the host's 180000 files, about 40 s under TCG.  The tests after it
# in the boot (wren-ucx.sh, wren-libfabric.sh, wren-mpi.sh,
# wren-perftest.sh) use what this installs; wren-pkg-remove.sh ends it.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"
. "$WREN_TOP/selftests/lib/pkg.sh"

pair_init pkgi "package install"
plan 10

if [ "${WREN_PKG:-0}" != 1 ] || ! touch /usr/.wren-pkg 2>/dev/null; then
	bail "package boot: /usr is writable" "not a PKG=1 boot"
fi
rm -f /usr/.wren-pkg
pkg_debs_present || bail "the packages are built" "$PKG_ERR"
ok "package boot: /usr writable, $(basename "$PKG_DKMS_DEB") and $(find "$PKG_RDMA_DIR" -name '*.deb' | wc -l) rdma-core packages"

# A trigger the test does not need: man-db's index rebuild after each
# dpkg run took 120 s under TCG.  Its debconf answer "false" is what
# removes the flag file the trigger looks for (man-db's postinst).
echo 'man-db man-db/auto-update boolean false' | debconf-set-selections
rm -f /var/lib/man-db/auto-update

# --- one dpkg -i: rdma-core over Debian's, and wren-dkms ---------------
compile=0
case " ${WREN_PKG_DKMS_BUILD:-} " in
*" all "* | *" $me "*) compile=1 ;;
esac
ccache_log=/run/wren-pkgi-ccache.log
if [ "$compile" = 1 ] && [ -d "$PKG_DKMS_PRIME/ccache" ]; then
	# Read-only: the prime is the host's; the inode cache (hashes of
	# the headers, kept between compiles) needs a writable place.
	mkdir -p /run/wren-ccache
	export DEBIAN_KERNEL_USE_CCACHE=1 CCACHE_DIR="$PKG_DKMS_PRIME/ccache" \
		CCACHE_READONLY=1 CCACHE_TEMPDIR=/run/wren-ccache \
		CCACHE_LOGFILE=$ccache_log WREN_CACHE="$PKG_DKMS_PRIME/wren-cache"
	ok "no dkms build in $PKG_DKMS_TARBALL_ROOT: the postinst compiles, through the host's ccache prime"
else
	# Without a prime the install still goes on, from the host's build.
	mkdir -p "$PKG_DKMS_TARBALL_ROOT" &&
		cp "$PKG_DKMS_BIN" "$PKG_DKMS_TARBALL_ROOT/$PKG_NAME-$PKG_VERSION.dkms.tar.gz"
	cprc=$?
	if [ "$compile" = 1 ]; then
		compile=0
		not_ok "the host's ccache prime for a compile here"
		diag "no $PKG_DKMS_PRIME/ccache: deb/dkms-binaries.sh needs ccache and unshare -m"
	else
		check "the host's dkms build for $WREN_KABI in $PKG_DKMS_TARBALL_ROOT" test "$cprc" = 0
	fi
fi
old=$(dpkg-query -W -f '${Version}' libibverbs1 2>/dev/null)
mapfile -t debs < <(pkg_rdma_core_debs)
start=$SECONDS
if DEBIAN_FRONTEND=noninteractive dpkg -i "${debs[@]}" "$PKG_DKMS_DEB" >"$res/pkgi-dpkg.log" 2>&1; then
	ok "dpkg -i ${#debs[@]} rdma-core packages over libibverbs1 ${old:-none} and wren-dkms ($((SECONDS - start)) s)"
else
	not_ok "dpkg -i ${#debs[@]} rdma-core packages and wren-dkms"
	diag "$(tail -n 20 "$res/pkgi-dpkg.log")"
fi
bad=
for p in $PKG_RDMA_SET; do
	v=$(dpkg-query -W -f '${Version} ${db:Status-Abbrev}' "$p" 2>/dev/null)
	[ "$v" = "$PKG_RDMA_VERSION ii " ] || bad="$bad $p=${v:-missing}"
done
# dpkg -i refuses to configure what would leave a dependency broken
# (libibverbs-dev 44 on libibverbs1 56.1), so its exit status and a
# clean audit say the set is whole; apt-get check would rebuild apt's
# cache from every package list, minutes under TCG.
cp /var/log/dpkg.log "$res/pkgi-dpkg-timeline.log" 2>/dev/null
if [ -z "$bad" ] && [ -z "$(dpkg --audit 2>&1)" ]; then
	ok "rdma-core $PKG_RDMA_VERSION installed, dpkg --audit clean"
else
	not_ok "rdma-core $PKG_RDMA_VERSION installed, dpkg --audit clean"
	diag "wrong:$bad" "$(dpkg --audit 2>&1 | head -n 10)"
fi
prov=$(dpkg -L ibverbs-providers | grep -E '/libwren-rdmav[0-9]+\.so$|/wren\.driver$' | sort | tr '\n' ' ')
case $prov in
*/etc/libibverbs.d/wren.driver*libwren-rdmav*) ok "ibverbs-providers owns ${prov% }" ;;
*) not_ok "ibverbs-providers holds libwren and wren.driver" && diag "found: ${prov:-nothing}" ;;
esac
st=$(dkms status -m "$PKG_NAME" -v "$PKG_VERSION" -k "$WREN_KABI" 2>&1)
mods=
for m in wren wren_peer_mem wren_ib; do
	f=$(modinfo -n "$m" 2>/dev/null)
	case $f in
	/lib/modules/$WREN_KABI/updates/dkms/$m.ko*) ;;
	*) mods="$mods $m=${f:-none}" ;;
	esac
done
if [ "$compile" = 0 ] && grep -q 'Building initial module' "$res/pkgi-dpkg.log"; then
	mods="$mods (the postinst compiled instead of loading the host's build)"
elif [ "$compile" = 1 ] && ! grep -q 'Building initial module' "$res/pkgi-dpkg.log"; then
	mods="$mods (the postinst did not compile)"
fi
if [[ $st == *": installed"* ]] && [ -z "$mods" ]; then
	ok "dkms status: installed for $WREN_KABI; modinfo finds the modules under updates/dkms"
else
	not_ok "dkms status: installed for $WREN_KABI; modinfo finds the modules under updates/dkms"
	diag "$st" "wrong:$mods"
fi
if [ "$compile" = 1 ]; then
	# ccache's log: "cache_miss" is a compile that ran (a failed probe
	# or the kernel's flag tests are neither hit nor miss).
	hits=$(grep -c 'Result: direct_cache_hit$' "$ccache_log" 2>/dev/null)
	miss=$(grep -c 'Result: cache_miss$' "$ccache_log" 2>/dev/null)
	cp "$ccache_log" "$res/pkgi-ccache.log" 2>/dev/null
	check "the compile here on $(nproc) CPUs: ${hits:-0} compiles found in the host's prime, ${miss:-?} compiled for real" \
		test "${hits:-0}" -gt 0 -a "${miss:-1}" = 0
	# The boot's other tests run on one vCPU, as on every other guest.
	# Two of three boots that kept the second one lost UCX's UD wire-up
	# to its timeout, likely from three busy vCPU threads on the host's
	# two cores (Documentation/networking/device_drivers/wren/apps.rst).
	for c in /sys/devices/system/cpu/cpu[1-9]*/online; do
		[ -e "$c" ] || continue
		echo 0 >"$c" 2>/dev/null || diag "cannot take ${c%/online} offline"
	done
else
	skip "the compile here found in the host's prime" "this guest loads the host's dkms build"
fi
if modprobe wren && modprobe wren_ib; then
	ok "modprobe wren, wren_ib (wren_peer_mem through its dependency)"
else
	bail "modprobe wren, wren_ib" "$(dmesg | tail -n 20)"
fi

# --- the stack, from /usr alone ------------------------------------------
pkg_system_libs
rdma_wren_up || bail "$RDMA_SETUP_ERR" "$(dmesg | tail -n 20)"
lib=$(ldd /usr/bin/ibv_devinfo | awk '$1 == "libibverbs.so.1" { print $3 }')
if ibv_devinfo -d "$RDMA_WREN_DEV" 2>&1 | grep -q 'state:.*PORT_ACTIVE' &&
	grep -qx "$(readlink -f "$lib")" /var/lib/dpkg/info/libibverbs1:*.list; then
	ok "ibv_devinfo: $RDMA_WREN_DEV port active, through $(readlink -f "$lib") of libibverbs1"
else
	not_ok "ibv_devinfo through the packaged libibverbs"
	diag "$(ibv_devinfo 2>&1 | head -n 5)" "libibverbs: ${lib:-not found}"
fi
check "rdma link: $RDMA_WREN_DEV/1 ACTIVE on $RDMA_WREN_IF" \
	bash -c "rdma link show $RDMA_WREN_DEV/1 | grep -q 'state ACTIVE.*netdev $RDMA_WREN_IF'"
barrier installed 900
tap_done
