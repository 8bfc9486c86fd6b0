# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=sh
#
# Sourced (". kbuild-ccache.sh") by the host scripts that run kbuild on
# the modules: kernel-build.sh, kernel-dkms.sh and gpu-build.sh.  make
# check compiles the modules about eight times (W=1 and dkms for two
# kernels, the guests' build, the GPU test modules), each from clean so
# that every warning is printed; the compiler cache of ccache-dir.sh
# turns the repeats into lookups.  Debian's kernel headers call ccache
# themselves when DEBIAN_KERNEL_USE_CCACHE is set (.kernelvariables).
# Without a cache the builds run as before.  Needs $here: the scripts
# directory.

kc_dir=$("$here/ccache-dir.sh")
if [ -n "$kc_dir" ]; then
	export DEBIAN_KERNEL_USE_CCACHE=1 CCACHE_DIR="$kc_dir"
fi
