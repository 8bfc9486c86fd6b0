# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash disable=SC2034 # the PKG_* variables are what callers read
#
# The packages a package boot (PKG=1) installs, and the helpers of its
# tests (selftests/rdma/wren-pkg-install.sh and the application tests
# after it).  Paths are the host's build tree, seen through the 9p root.
# A guest on a root filesystem of another Debian release (vmrun.sh
# ROOTFS=trixie, WREN_ROOTFS) installs that release's rdma-core build
# (build/deb/trixie/rdma-core); wren-dkms is one package for both.
#
#   PKG_DKMS_DEB       build/deb/wren-dkms_<ver>-<rev>_all.deb (make deb)
#   PKG_NAME PKG_VERSION   its dkms module name and version
#   PKG_DKMS_BIN       the host's dkms build of it for this kernel
#                      (scripts/deb/dkms-binaries.sh)
#   PKG_DKMS_TARBALL_ROOT  where its postinst looks for such a build
#   PKG_DKMS_PRIME     the host's ccache of that build (ccache/) and its
#                      probe answers (wren-cache/), for a compile here
#   PKG_RDMA_DIR       build/deb/rdma-core (make deb-rdma-core)
#   PKG_RDMA_VERSION   the version of those packages
#   PKG_RDMA_SET       what an operator installs of them (trixie's
#                      librdmacm is librdmacm1t64, bookworm's librdmacm1)
#   pkg_debs_present   all of them are there; PKG_ERR says what is missing
#   pkg_rdma_core_debs the .debs to install: the operator's set plus every
#                      package of the build that is installed already
#   pkg_system_libs    no variable points programs at another libibverbs

PKG_DEB_DIR=$WREN_TOP/build/deb
PKG_DKMS_DEB=$(find "$PKG_DEB_DIR" -maxdepth 1 -name 'wren-dkms_*_all.deb' 2>/dev/null | sort | tail -n 1)
PKG_NAME=wren
PKG_VERSION=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$WREN_TOP/dkms.conf")
PKG_DKMS_BIN=$PKG_DEB_DIR/$PKG_NAME-$PKG_VERSION-${WREN_KABI:-$(uname -r)}-binaries.tar.gz
PKG_DKMS_TARBALL_ROOT=/usr/share/wren-dkms
PKG_DKMS_PRIME=$PKG_DEB_DIR/$PKG_NAME-$PKG_VERSION-${WREN_KABI:-$(uname -r)}-prime
PKG_RDMA_DIR=$PKG_DEB_DIR${WREN_ROOTFS:+/$WREN_ROOTFS}/rdma-core
PKG_RDMA_VERSION=
PKG_ERR=
# What an operator installs: the libraries, the provider, the tools and
# the rdma-core service files.  python3-pyverbs and the -dev packages
# only where something already depends on them.
PKG_RDMA_SET="libibverbs1 ibverbs-providers librdmacm1 ibverbs-utils rdmacm-utils rdma-core"
[ ! -e "$(find "$PKG_RDMA_DIR" -maxdepth 1 -name 'librdmacm1t64_*.deb' 2>/dev/null | head -n 1)" ] ||
	PKG_RDMA_SET=${PKG_RDMA_SET/librdmacm1 /librdmacm1t64 }

pkg_debs_present() {
	local f
	[ -n "$PKG_DKMS_DEB" ] || { PKG_ERR="no wren-dkms .deb in $PKG_DEB_DIR (make deb)"; return 1; }
	f=$(find "$PKG_RDMA_DIR" -maxdepth 1 -name 'libibverbs1_*.deb' 2>/dev/null | head -n 1)
	[ -n "$f" ] || { PKG_ERR="no rdma-core .debs in $PKG_RDMA_DIR (make deb-rdma-core)"; return 1; }
	PKG_RDMA_VERSION=$(dpkg-deb -f "$f" Version)
}

pkg_rdma_core_debs() {
	local f p
	for f in "$PKG_RDMA_DIR"/*.deb; do
		p=${f##*/}
		p=${p%%_*}
		case $p in *-dbgsym) continue ;; esac
		if [[ " $PKG_RDMA_SET " == *" $p "* ]] ||
			[ "$(dpkg-query -W -f '${db:Status-Abbrev}' "$p" 2>/dev/null)" = "ii " ]; then
			echo "$f"
		fi
	done
}

pkg_system_libs() {
	unset LD_LIBRARY_PATH PYTHONPATH RDMAV_DRIVERS IBV_CONFIG_DIR
}
