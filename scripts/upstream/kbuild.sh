#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Build the series' three drivers in a Linux 7.3 tree the series was
# applied to (upstream/check.sh makes TREE), in the trixie build root
# (kernel/root.sh: 7.3's kbuild wants gcc-14), and run coccicheck on
# them.  Prints TAP lines without a plan; upstream/check.sh numbers them.
#
# The objects live in OBJ (make O=), kept between runs: a config from
# x86_64's defconfig with upstream/linux.config's symbols (the modules'
# dependencies, INFINIBAND, INFINIBAND_USER_ACCESS, DCB, ..., and WREN,
# INFINIBAND_WREN_PEER_MEM and INFINIBAND_WREN =m), and `make
# modules_prepare` (about 60 s cold);
# a warm run only recompiles the drivers (through ccache), every one of
# their objects from clean so that every warning is printed.  The three
# directories build as kbuild's directory targets with W=1 and C=1; their
# modules are linked by modpost only in a full kernel build, which this
# check does not do (the out-of-tree build links them against 7.3's
# Module.symvers: make check-modules).
#
# What kbuild, objtool and coccicheck need beyond the root's own packages
# (flex, bison, bc, libelf-dev, libssl-dev, coccinelle with the libpython3.13
# its Python scripting loads, python3, and ocaml-nox: spatch compiles the
# OCaml rules of some of 7.3's scripts, check_bq27xxx_data.cocci's, with
# ocamlfind ocamlopt) is installed in the root at run time, once.
#
# usage: upstream/kbuild.sh TREE OBJ
. "$(dirname "$0")/../lib/common.sh"

tree=${1:?usage: upstream/kbuild.sh TREE OBJ}
obj=${2:?usage: upstream/kbuild.sh TREE OBJ}
if [ -z "${WREN_ROOT:-}" ]; then
	# The sparse that parses 7.3's headers (kernel/sparse-build.sh).
	WREN_SPARSE=$("$SCRIPTS/kernel/sparse-build.sh")
	export WREN_SPARSE
	exec "$SCRIPTS/kernel/root.sh" run trixie "$0" "$@"
fi

dirs="drivers/net/ethernet/wren drivers/infiniband/peer_mem drivers/infiniband/hw/wren"
logdir=$obj/logs
mkdir -p "$logdir"
n=0
result() { # RC DESC LOG
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok - $2"
	elif [ "$1" = 77 ]; then
		echo "ok - $2 # SKIP $(tail -n 1 "$3")"
	else
		echo "not ok - $2"
		tail -n 30 "$3" | sed 's/^/# /'
	fi
}

need=
for p in flex bison bc libelf-dev libssl-dev coccinelle libpython3.13 python3 perl ocaml-nox; do
	dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
if [ -n "$need" ]; then
	# shellcheck disable=SC2086 # package names
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $need \
		>"$logdir/apt.log" 2>&1 || { cat "$logdir/apt.log" >&2; die "installing$need in the root failed"; }
fi

cc="gcc-14"
kc_dir=$("$SCRIPTS/lib/ccache-dir.sh")
if [ -n "$kc_dir" ]; then
	export CCACHE_DIR="$kc_dir"
	cc="ccache gcc-14"
fi
jobs=${JOBS:-2}
[ "$jobs" -le 2 ] 2>/dev/null || jobs=2
k() { make -C "$tree" O="$obj" CC="$cc" HOSTCC=gcc-14 "$@"; }

# The config: made once per OBJ, completed after each apply (the Kconfig
# symbols of the drivers exist only in the patched tree).
if [ ! -f "$obj/.config" ]; then
	k defconfig >"$logdir/config.log" 2>&1 || { cat "$logdir/config.log" >&2; die "defconfig failed"; }
fi
# shellcheck disable=SC2046 # scripts/config's arguments, a word each
"$tree/scripts/config" --file "$obj/.config" $(sed '/^#/d' "$SCRIPTS/upstream/linux.config")
log=$logdir/prepare.log
rc=0
{ k olddefconfig && k -j"$jobs" modules_prepare; } >"$log" 2>&1 || rc=$?
for s in WREN INFINIBAND_WREN_PEER_MEM INFINIBAND_WREN; do
	grep -qx "CONFIG_$s=m" "$obj/.config" || { echo "CONFIG_$s is not m after olddefconfig" >>"$log"; rc=1; }
done
result $rc "7.3: config with the three modules =m and modules_prepare" "$log"
[ "$rc" = 0 ] || exit 0

# Every object of the drivers from clean: a warning printed by an
# earlier run would not be printed again.
for d in $dirs; do
	rm -rf "${obj:?}/$d"
done
log=$logdir/build.log
rc=0
# shellcheck disable=SC2046,SC2086 # one directory target a word
k -j"$jobs" W=1 C=1 CHECK="${WREN_SPARSE:-sparse}" $(printf '%s/ ' $dirs) >"$log" 2>&1 || rc=$?
nochecker='is not available or not up to date'
if [ "$rc" = 0 ] && grep -iE 'warning|error:' "$log" | grep -v "$nochecker" >/dev/null; then
	rc=1
fi
result $rc "7.3: W=1 build of $(echo "$dirs" | wc -w) driver directories is warning-free" "$log"
sparse=$logdir/sparse.log
if grep -q "$nochecker" "$log"; then
	echo "kbuild does not take $("${WREN_SPARSE:-sparse}" --version 2>&1 | head -n 1) as its checker on 7.3 (scripts/checker-valid.sh: it cannot parse the headers' __typeof_unqual__)" >"$sparse"
	result 77 "7.3: sparse (C=1) is clean" "$sparse"
else
	grep -E '^[^ ]+\.[ch]:[0-9]+:[0-9]+: (warning|error)' "$log" >"$sparse" || true
	[ -s "$sparse" ] && rc=1 || rc=0
	result $rc "7.3: sparse (C=1) is clean" "$sparse"
fi
# What each module is made of, for upstream/check.sh to compare with the
# out-of-tree build.
for d in $dirs; do
	for m in "$obj/$d"/*.mod; do
		[ -f "$m" ] || continue
		b=$(basename "$m")
		tr ' ' '\n' <"$m" | sed -n "s|^$d/||p" | sed '/^$/d' | sort >"$logdir/$b.in-tree"
	done
done

# coccicheck: every script of the tree's scripts/coccinelle over each
# directory (3.4 minutes for the three on two cores beside other
# builds), its report cached by what decides it: spatch, the tree's
# version (its scripts), the arguments and the directory's files.  Any
# report line is a finding; coccicheck stopping on an error is a
# failure, not an empty report.
spatch=$(spatch --version 2>/dev/null | head -n 1)
ccache_dir=${WREN_CACHE:-/var/cache/wren}/upstream/coccicheck
mkdir -p "$ccache_dir"
for d in $dirs; do
	set -- coccicheck MODE=report M="$d" J="$jobs"
	key=$( { echo "$spatch"; basename "$(dirname "$tree")"; echo "$@"
		(cd "$tree" && find "$d" -type f | LC_ALL=C sort | xargs sha256sum); } |
		sha256sum | cut -c1-16)
	log=$logdir/coccicheck-$(echo "$d" | tr / -).log
	rc=0
	if [ -f "$ccache_dir/$key" ]; then
		cp "$ccache_dir/$key" "$log"
	elif make -C "$tree" "$@" >"$log.raw" 2>&1; then
		# The report: the lines that name a file, relative to M
		# ("./wren_aeq.c:60:9-37: ..."), given the directory.
		sed -n "s|^\./\([^ ]*:[0-9][0-9]*[:-]\)|$d/\1|p" "$log.raw" >"$log"
		cp "$log" "$ccache_dir/$key"
	else
		tail -n 5 "$log.raw" >"$log"
		echo "coccicheck stopped on an error (see $log.raw)" >>"$log"
		rc=1
	fi
	[ -s "$log" ] && rc=1
	result $rc "7.3: coccicheck MODE=report on $d finds nothing ($(grep -c "^$d/" "$log") findings)" "$log"
done
