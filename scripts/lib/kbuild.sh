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

# What kbuild prints when it turns C= off.
KBUILD_NOCHECKER='is not available or not up to date'

# kbuild_sparse_host: on this machine, before kbuild_root, the sparse of
# the C=2 checks (kernel/sparse-build.sh: Debian's, able to parse
# __typeof_unqual__), exported as WREN_SPARSE for the root too.
kbuild_sparse_host() {
	[ -z "${WREN_ROOT:-}" ] || return 0
	WREN_SPARSE=$("$SCRIPTS/kernel/sparse-build.sh")
	export WREN_SPARSE
}

# kbuild_checker TAG DIR MAKEWORDS...: does kbuild run sparse (C=) over
# the external module in DIR?  Returns 77 with a line on stderr where it
# cannot, else 0 with KBUILD_CHECK_WORDS set to the make words it needs.
# From 6.14 on kbuild asks scripts/checker-valid.sh whether sparse parses
# __typeof_unqual__, and turns C= off when not; Debian's headers packages
# lack the script, so its answer is no whatever the sparse.  Here the
# script's question is asked of the sparse itself, and one that answers
# it gets C= back through KBUILD_CHECKSRC on make's command line (which
# wins over the Makefile's).
kbuild_checker() {
	kc_tag=$1 kc_dir=$2
	shift 2
	kc_sparse=${WREN_SPARSE:-sparse}
	KBUILD_CHECK_WORDS=
	if ! command -v "$kc_sparse" >/dev/null; then
		echo "$kc_tag: $KABI: no sparse where this series builds (${WREN_ROOT:+its Debian root, }kernel/series)" >&2
		return 77
	fi
	make -n -C "$KDIR" M="$kc_dir" "$@" modules 2>&1 | grep -q "$KBUILD_NOCHECKER" || return 0
	kc_t=$(mktemp --suffix=.c)
	printf 'static inline int u(const int *q)\n{\n\t__typeof_unqual__(*q) v = *q;\n\treturn v;\n}\n' >"$kc_t"
	kc_out=$("$kc_sparse" "$kc_t" 2>&1)
	rm -f "$kc_t"
	case $kc_out in
	*error*)
		echo "$kc_tag: $KABI: kbuild does not take $("$kc_sparse" --version 2>&1 | head -n 1) as its checker: sparse cannot check this kernel" >&2
		return 77
		;;
	esac
	KBUILD_CHECK_WORDS=KBUILD_CHECKSRC=2
}

# kbuild_judge LOG: a W=1 or C=2 build's log is warning-free: no
# compiler, sparse or modpost warning, and sparse ran where C= was asked
# for (kbuild's note that it turned C= off is no finding when
# kbuild_checker took C= back).
kbuild_judge() {
	kj_log=$1
	if [ -n "${KBUILD_CHECK_WORDS:-}" ]; then
		grep -v "$KBUILD_NOCHECKER" "$kj_log" | grep -iE "warning|error:" >&2 && return 1
		grep -q '^ *CHECK ' "$kj_log" || { echo "no CHECK line: sparse did not run" >&2; return 1; }
		return 0
	fi
	! grep -iE "warning|error:|$KBUILD_NOCHECKER" "$kj_log" >&2
}
