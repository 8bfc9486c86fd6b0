#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test of a package boot (PKG=1: /usr and the module directory are
# writable overlays), run by both guests at once: install Wren as an
# operator does on a Debian 12 server, then check that the system's own
# libraries and tools find the NIC with no environment variable.
#
# - rdma-core 56.1-1+wren1 (make deb-rdma-core) over Debian 12's 44.0-2,
#   which the host has installed under its application packages (UCX,
#   Open MPI, libfabric, perftest): libibverbs1, ibverbs-providers,
#   librdmacm1, ibverbs-utils, rdmacm-utils, rdma-core, plus every other
#   package of the set that is installed already (libibverbs-dev), so
#   that nothing is left depending on 44; dpkg --audit and apt-get check
#   clean afterwards.
# - wren-dkms (make deb): the modules dkms built on the host for this
#   kernel are loaded first (dkms ldtarball of the archive
#   scripts/deb-dkms-binaries.sh makes), as a fleet that builds once per
#   kernel does, so the postinst installs instead of compiling: a compile
#   under TCG takes a quarter of an hour.  WREN_PKG_DKMS=build skips the
#   archive and lets the postinst build in the guest against the host's
#   linux-headers for this ABI.  Then modprobe finds the modules under
#   updates/dkms.
# - With the modules loaded: ibv_devinfo, rdma link and Debian's
#   ib_write_bw between the guests, all against /usr's libibverbs.
#
# The tests after it in the boot (wren-ucx.sh, wren-libfabric.sh,
# wren-mpi.sh) use what this installs; wren-pkg-remove.sh ends the boot.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"
. "$WREN_TOP/selftests/lib/pkg.sh"
. "$WREN_TOP/selftests/lib/apps.sh"

pair_init pkgi "package install"
plan 11

if [ "${WREN_PKG:-0}" != 1 ] || ! touch /usr/.wren-pkg 2>/dev/null; then
	bail "package boot: /usr is writable" "not a PKG=1 boot"
fi
rm -f /usr/.wren-pkg
pkg_debs_present || bail "the packages are built" "$PKG_ERR"
ok "package boot: /usr writable, $(basename "$PKG_DKMS_DEB") and $(find "$PKG_RDMA_DIR" -name '*.deb' | wc -l) rdma-core packages"

# Triggers the test does not need: man-db's index rebuild alone takes
# most of a minute under TCG.
echo 'man-db man-db/auto-update boolean false' | debconf-set-selections

# --- rdma-core over Debian's -------------------------------------------
old=$(dpkg-query -W -f '${Version}' libibverbs1 2>/dev/null)
mapfile -t debs < <(pkg_rdma_core_debs)
start=$SECONDS
if dpkg -i "${debs[@]}" >"$res/pkgi-rdma-core.log" 2>&1; then
	ok "dpkg -i ${#debs[@]} rdma-core packages over libibverbs1 ${old:-none} ($((SECONDS - start)) s)"
else
	not_ok "dpkg -i rdma-core packages"
	diag "$(tail -n 20 "$res/pkgi-rdma-core.log")"
fi
bad=
for p in libibverbs1 ibverbs-providers librdmacm1 ibverbs-utils rdmacm-utils rdma-core; do
	v=$(dpkg-query -W -f '${Version} ${db:Status-Abbrev}' "$p" 2>/dev/null)
	[ "$v" = "$PKG_RDMA_VERSION ii " ] || bad="$bad $p=${v:-missing}"
done
if [ -z "$bad" ] && [ -z "$(dpkg --audit 2>&1)" ] && apt-get check >"$res/pkgi-check.log" 2>&1; then
	ok "rdma-core $PKG_RDMA_VERSION installed, dpkg --audit and apt-get check clean"
else
	not_ok "rdma-core $PKG_RDMA_VERSION installed, dpkg --audit and apt-get check clean"
	diag "wrong:$bad" "$(dpkg --audit 2>&1 | head -n 10)" "$(tail -n 5 "$res/pkgi-check.log")"
fi
prov=$(dpkg -L ibverbs-providers | grep -E '/libwren-rdmav[0-9]+\.so$|/wren\.driver$' | sort | tr '\n' ' ')
case $prov in
*/etc/libibverbs.d/wren.driver*libwren-rdmav*) ok "ibverbs-providers owns ${prov% }" ;;
*) not_ok "ibverbs-providers holds libwren and wren.driver" && diag "found: ${prov:-nothing}" ;;
esac

# --- wren-dkms -----------------------------------------------------------
start=$SECONDS
if [ "${WREN_PKG_DKMS:-prebuilt}" != build ]; then
	if [ -s "$PKG_DKMS_BIN" ] && dkms ldtarball "$PKG_DKMS_BIN" >"$res/pkgi-ldtarball.log" 2>&1; then
		ok "dkms ldtarball of the host's build for $WREN_KABI"
	else
		not_ok "dkms ldtarball of the host's build for $WREN_KABI"
		diag "$(tail -n 10 "$res/pkgi-ldtarball.log" 2>/dev/null || echo "no $PKG_DKMS_BIN")"
	fi
else
	skip "dkms ldtarball" "WREN_PKG_DKMS=build: the postinst compiles"
fi
if dpkg -i "$PKG_DKMS_DEB" >"$res/pkgi-dkms.log" 2>&1; then
	ok "dpkg -i $(basename "$PKG_DKMS_DEB") ($((SECONDS - start)) s)"
else
	not_ok "dpkg -i $(basename "$PKG_DKMS_DEB")"
	diag "$(tail -n 20 "$res/pkgi-dkms.log")"
fi
st=$(dkms status -m "$PKG_NAME" -v "$PKG_VERSION" -k "$WREN_KABI" 2>&1)
mods=
for m in wren wren_peer_mem wren_ib; do
	f=$(modinfo -n "$m" 2>/dev/null)
	case $f in
	/lib/modules/$WREN_KABI/updates/dkms/$m.ko*) ;;
	*) mods="$mods $m=${f:-none}" ;;
	esac
done
if [[ $st == *": installed"* ]] && [ -z "$mods" ]; then
	ok "dkms status: installed for $WREN_KABI; modinfo finds the modules under updates/dkms"
else
	not_ok "dkms status: installed for $WREN_KABI; modinfo finds the modules under updates/dkms"
	diag "$st" "wrong:$mods"
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
	[ "$(dpkg -S "$(readlink -f "$lib")" 2>/dev/null | cut -d: -f1)" = libibverbs1 ]; then
	ok "ibv_devinfo: $RDMA_WREN_DEV port active, through $(readlink -f "$lib") of libibverbs1"
else
	not_ok "ibv_devinfo through the packaged libibverbs"
	diag "$(ibv_devinfo 2>&1 | head -n 5)" "libibverbs: ${lib:-not found}"
fi
check "rdma link: $RDMA_WREN_DEV/1 ACTIVE on $RDMA_WREN_IF" \
	bash -c "rdma link show $RDMA_WREN_DEV/1 | grep -q 'state ACTIVE.*netdev $RDMA_WREN_IF'"
barrier installed 900

# Debian's perftest against the packaged libibverbs: guest 1 serves.
out=$res/pkgi-write-bw.out
app_pair 18990 "$out" "" "" ib_write_bw -d "$RDMA_WREN_DEV" -x "$RDMA_WREN_GID" \
	-p 18990 -s 65536 -n 200
rc=$?
bw=$(awk '$1 == 65536 && NF >= 4 { print $4 }' "$out")
if [ "$rc" = 0 ] && [ -n "$bw" ]; then
	ok "ib_write_bw 64 KiB x 200 between the guests: $bw MB/s"
else
	not_ok "ib_write_bw 64 KiB x 200 between the guests"
	diag "$(tail -n 10 "$out")"
fi
barrier finished 300
tap_done
