# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=sh
#
# Sourced (". kbuild-ccache.sh") by the host scripts that run kbuild on
# the modules: kernel-build.sh, kernel-dkms.sh, gpu-build.sh and
# deb-check.sh.  make check compiles the same sources about
# eight times (W=1 and dkms for two kernels, the guests' build, the
# package's dkms build, the GPU test modules), each from clean so that
# every warning is printed; a compiler cache turns the repeats into
# lookups.  Debian's kernel headers call ccache themselves when
# DEBIAN_KERNEL_USE_CCACHE is set (.kernelvariables).
#
# ccache hashes the compiler, its command line and the preprocessed (or,
# in direct mode, every included) source, and replays a hit's stderr, so
# the W=1 checks still see every warning.  The cache lives in
# $WREN_CACHE/ccache-kbuild and is never required: without ccache or a
# writable cache the builds run as before.  WREN_KBUILD_CCACHE=0 turns it
# off.

kbuild_ccache() {
	[ "${WREN_KBUILD_CCACHE:-1}" = 1 ] || return 0
	command -v ccache >/dev/null 2>&1 || return 0
	kc_dir=${WREN_CACHE:-/var/cache/wren}/ccache-kbuild
	{ mkdir -p "$kc_dir" && [ -w "$kc_dir" ]; } 2>/dev/null || return 0
	# kernel-sync.sh and kernel-config.sh write sources and wren_config.h
	# just before each build; their mtimes would make direct mode give
	# up on every compile.  The content is still what is hashed.
	[ -f "$kc_dir/ccache.conf" ] ||
		printf '%s\n' "max_size = 1G" \
			"sloppiness = include_file_mtime,include_file_ctime" \
			>"$kc_dir/ccache.conf"
	export DEBIAN_KERNEL_USE_CCACHE=1 CCACHE_DIR="$kc_dir"
}

kbuild_ccache
