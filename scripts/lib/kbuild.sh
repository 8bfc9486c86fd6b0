# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=sh
#
# The shared start of the host scripts that run kbuild on the modules
# (kernel/build.sh, kernel/gpu-build.sh, kernel/dkms.sh), sourced after
# lib/common.sh:
#
#   kbuild_setup KVER [OUT]
#
# sets KABI and KDIR for the kernel series (kernel/env.sh), jobs (JOBS,
# at most 2: the machines running make check have two cores and guests
# beside the builds) and the compiler cache; with OUT, creates it and
# holds its lock on fd 9 for the rest of the script, so one kbuild at a
# time works in a tree (`make -j check-modules check-lint` is fine).
#
# make check compiles the modules about eight times (W=1 and dkms for two
# kernels, the guests' build, the GPU test modules), each from clean so
# that every warning is printed; the compiler cache of lib/ccache-dir.sh
# turns the repeats into lookups.  Debian's kernel headers call ccache
# themselves when DEBIAN_KERNEL_USE_CCACHE is set (.kernelvariables).
# Without a cache the builds run as before.

kbuild_setup() {
	jobs=${JOBS:-2}
	[ "$jobs" -le 2 ] 2>/dev/null || jobs=2
	eval "$("$SCRIPTS/kernel/env.sh" "$1")"
	kc_dir=$("$SCRIPTS/lib/ccache-dir.sh")
	if [ -n "$kc_dir" ]; then
		export DEBIAN_KERNEL_USE_CCACHE=1 CCACHE_DIR="$kc_dir"
	fi
	if [ -n "${2:-}" ]; then
		mkdir -p "$2"
		exec 9>"$2/.lock"
		flock 9
	fi
}

# kbuild_root KVER "$0" "$@": a series built in a Debian build root
# (kernel/series, kernel/root.sh) runs the calling script again inside
# that root, where the tree, BUILD and the caches are at the same paths;
# a host series, or a script already in its root, goes on here.
kbuild_root() {
	kr_kver=$1
	shift
	[ -z "${WREN_ROOT:-}" ] || return 0
	kr_root=$("$SCRIPTS/kernel/series.sh" root "$kr_kver")
	[ "$kr_root" = host ] || exec "$SCRIPTS/kernel/root.sh" run "$kr_root" "$@"
}
