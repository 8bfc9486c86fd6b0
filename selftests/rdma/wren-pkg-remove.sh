#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test that ends a package boot (PKG=1), both guests: remove what
# wren-pkg-install.sh installed, as an operator does.  wren-dkms is
# purged once its modules are unloaded: its prerm has dkms remove the
# build for every kernel, so neither dkms nor modprobe knows the modules
# afterwards and /usr/src holds no source.  The rdma-core tools it added
# (ibverbs-utils, rdmacm-utils) are purged with it; the libraries stay,
# as Debian's UCX, Open MPI and libfabric depend on them.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/pkg.sh"

pair_init pkgr "package removal"
plan 3
pkg_system_libs

if [ "$(dpkg-query -W -f '${db:Status-Abbrev}' wren-dkms 2>/dev/null)" != "ii " ]; then
	bail "wren-dkms is installed" "wren-pkg-install.sh did not install it"
fi
for m in rdma_ucm wren_ib wren wren_peer_mem; do
	grep -q "^$m " /proc/modules && modprobe -r "$m"
done
if grep -Eq '^wren(_ib|_peer_mem)? ' /proc/modules; then
	bail "modprobe -r wren_ib wren wren_peer_mem" "$(grep '^wren' /proc/modules)"
fi
ok "modules unloaded"

# One dpkg run: each reads the database of the host's 180000 files.
if dpkg -P wren-dkms ibverbs-utils rdmacm-utils >"$res/pkgr-dpkg.log" 2>&1; then
	ok "dpkg -P wren-dkms ibverbs-utils rdmacm-utils"
else
	not_ok "dpkg -P wren-dkms ibverbs-utils rdmacm-utils"
	diag "$(tail -n 20 "$res/pkgr-dpkg.log")"
fi
cp /var/log/dpkg.log "$res/pkgr-dpkg-timeline.log" 2>/dev/null
left=$(dkms status -m "$PKG_NAME" 2>&1)
for m in wren wren_peer_mem wren_ib; do
	f=$(modinfo -n "$m" 2>/dev/null) && left="$left $f"
done
[ -e "/usr/src/$PKG_NAME-$PKG_VERSION" ] && left="$left /usr/src/$PKG_NAME-$PKG_VERSION"
[ -e /usr/bin/ibv_devinfo ] && left="$left /usr/bin/ibv_devinfo"
[ -e /usr/bin/rping ] && left="$left /usr/bin/rping"
# The prebuilt archive is the operator's file, not the package's.
rm -f "$PKG_DKMS_TARBALL_ROOT/$PKG_NAME-$PKG_VERSION.dkms.tar.gz"
rmdir "$PKG_DKMS_TARBALL_ROOT" 2>/dev/null
if [ -z "${left// /}" ] && [ -z "$(dpkg --audit 2>&1)" ]; then
	ok "nothing left: no dkms entry, module, source or tool of theirs; dpkg --audit clean"
else
	not_ok "nothing left of the removed packages; dpkg --audit clean"
	diag "left: $left" "$(dpkg --audit 2>&1 | head -n 5)"
fi
tap_done
