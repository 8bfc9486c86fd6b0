#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# make check-upstream: write both series (make upstream), apply them to
# pristine trees and build them there.  TAP on stdout (and in TAPFILE
# when given), then "check-upstream: N passed, N failed, N skipped".
#
#   Linux 7.3   the series applies (git apply, no fuzz) to a hard-linked
#               copy of the pristine linux-source-7.3 tree; checkpatch.pl
#               --strict of that tree is clean on every patch; the three
#               drivers build =m with W=1 and C=1 and coccicheck reports
#               nothing (upstream/kbuild.sh, in the trixie root); each
#               driver's in-tree Makefile is its Kbuild file and every
#               module is made of the same objects in tree as out of
#               tree (kbuild's .mod files of both builds)
#   rdma-core   the series applies to a hard-linked copy of the pristine
#               56.1 tree (rdma-core/fetch.sh) and builds with its own
#               CMake (ninja, ENABLE_WERROR=1); libwren is built
#
# Work trees and objects are kept under $WREN_CACHE/upstream: linux-obj-*
# keyed by the tree's version and upstream/linux.config, rdma-core-build-*
# by rdma-core's version and its CMake arguments, coccicheck's reports by
# the directory's files (upstream/kbuild.sh); a warm run recompiles only
# the drivers and libwren.  Logs in $BUILD/check/upstream.
#
# usage: upstream/check.sh [TAPFILE]
. "$(dirname "$0")/../lib/common.sh"
set +e

tap=${1:-}
logdir=$BUILD/check/upstream
rm -rf "$logdir"
mkdir -p "$logdir"
start=$(date +%s)
base=$WREN_CACHE/upstream
mkdir -p "$base"
exec 7>"$base/.check.lock"
flock 7

# summary LOG: checkpatch --terse's totals, or "clean" for no output.
summary() {
	if [ -s "$1" ]; then
		tail -n 1 "$1" | sed 's/^total: //; s/, [0-9]* lines checked$//'
	else
		echo clean
	fi
}

result() { # RC DESC [LOG]
	if [ "$1" = 0 ]; then
		echo "ok - $2"
	else
		echo "not ok - $2"
		[ -z "${3:-}" ] || tail -n 30 "$3" | sed 's/^/# /'
	fi
}

run() {
	"$SCRIPTS/deps/upstream.sh" >"$logdir/deps.log" 2>&1 ||
		echo "# deps/upstream.sh failed, see $logdir/deps.log"
	lin=$BUILD/upstream/linux
	rc=0
	"$SCRIPTS/upstream/linux.sh" "$lin" >"$logdir/series.log" 2>&1 || rc=$?
	"$SCRIPTS/upstream/rdma-core.sh" "$BUILD/upstream/rdma-core" >>"$logdir/series.log" 2>&1 || rc=$?
	result $rc "make upstream writes $(find "$lin" -name '0*.patch' ! -name '0000-*' 2>/dev/null | wc -l) Linux and $(find "$BUILD/upstream/rdma-core" -name '0*.patch' ! -name '0000-*' 2>/dev/null | wc -l) rdma-core patches" "$logdir/series.log"
	[ "$rc" = 0 ] || return 0

	# Linux: a hard-linked copy of the pristine tree (git apply writes
	# new files, never through the links), made afresh every run.
	ksrc=$("$SCRIPTS/upstream/linux-source.sh")
	kver=$(basename "$(dirname "$ksrc")")
	tree=$base/linux-tree
	rm -rf "$tree"
	cp -al "$ksrc" "$tree"
	rc=0
	for p in "$lin"/0*.patch; do
		case $p in */0000-*) continue ;; esac
		(cd "$tree" && git apply --whitespace=error-all "$p") >>"$logdir/apply-linux.log" 2>&1 || rc=1
	done
	result $rc "the Linux series applies to pristine $kver" "$logdir/apply-linux.log"
	[ "$rc" = 0 ] || return 0

	for p in "$lin"/0*.patch; do
		case $p in */0000-*) continue ;; esac
		l=$logdir/checkpatch-$(basename "$p" .patch).log
		(cd "$ksrc" && perl scripts/checkpatch.pl --strict --terse --show-types "$p") >"$l" 2>&1
		result $? "checkpatch.pl --strict: $(basename "$p") ($(summary "$l"))" "$l"
	done

	# Objects keyed by what makes them: the tree's version and the
	# config (upstream/linux.config); kbuild itself rebuilds what the
	# series' files or the root's compiler change.
	key=$( { echo "$kver"; cat "$SCRIPTS/upstream/linux.config"; } | sha256sum | cut -c1-12)
	obj=$base/linux-obj-$key
	for old in "$base"/linux-obj-*; do
		[ "$old" = "$obj" ] || rm -rf "$old"
	done
	"$SCRIPTS/upstream/kbuild.sh" "$tree" "$obj" 2>"$logdir/kbuild.log"
	cp -r "$obj/logs" "$logdir/linux-logs" 2>/dev/null

	# One list of objects: the in-tree Makefiles are the Kbuild files,
	# and kbuild's .mod files of both builds name the same objects.
	rc=0
	for d in drivers/net/ethernet/wren drivers/infiniband/peer_mem drivers/infiniband/hw/wren; do
		cmp "$TOP/$d/Kbuild" "$tree/$d/Makefile" >>"$logdir/same-files.log" 2>&1 || rc=1
	done
	"$SCRIPTS/kernel/build.sh" 7.3 modules >>"$logdir/same-files.log" 2>&1 || rc=1
	oot=$BUILD/modules/7.3/src
	for d in drivers/net/ethernet/wren drivers/infiniband/peer_mem drivers/infiniband/hw/wren; do
		for m in "$oot/$d"/*.mod; do
			[ -f "$m" ] || continue
			b=$(basename "$m")
			tr ' ' '\n' <"$m" | sed -n "s|^.*$d/||p" | sed '/^$/d' | sort >"$logdir/$b.out-of-tree"
			if ! diff "$logdir/$b.out-of-tree" "$obj/logs/$b.in-tree" >>"$logdir/same-files.log" 2>&1 ||
				[ ! -s "$logdir/$b.out-of-tree" ]; then
				echo "$b: the builds differ" >>"$logdir/same-files.log"
				rc=1
			fi
			echo "$b: $(wc -l <"$logdir/$b.out-of-tree") objects" >>"$logdir/same-files.log"
		done
	done
	[ "$(cat "$logdir"/*.mod.out-of-tree 2>/dev/null | wc -l)" -gt 0 ] || rc=1
	result $rc "in tree and out of tree compile the same files ($(cat "$logdir"/*.mod.out-of-tree 2>/dev/null | wc -l) objects in 3 modules)" "$logdir/same-files.log"

	# rdma-core: the series on a hard-linked copy of the pristine tree,
	# built by its own CMake into a kept build folder.  A file the series
	# writes with the content it had last time gets its old time back, so
	# ninja rebuilds only what changed.
	rsrc=$("$SCRIPTS/rdma-core/fetch.sh")
	rtree=$base/rdma-core-tree
	stamp=$base/rdma-core-tree.times
	rm -rf "$rtree"
	cp -al "$rsrc" "$rtree"
	rm -f "$rtree/.pristine"
	rc=0
	for p in "$BUILD/upstream/rdma-core"/0*.patch; do
		case $p in */0000-*) continue ;; esac
		(cd "$rtree" && git apply --whitespace=error-all "$p") >>"$logdir/apply-rdma-core.log" 2>&1 || rc=1
	done
	result $rc "the rdma-core series applies to pristine rdma-core $(basename "$rsrc")" "$logdir/apply-rdma-core.log"
	[ "$rc" = 0 ] || return 0

	# checkpatch as rdma-core's CI runs it on a pull request
	# (buildlib/azp-checkpatch): the kernel's checkpatch.pl (7.3's here)
	# beside rdma-core's const_structs.checkpatch, --no-tree, with its
	# --ignore list.  Its CI fails on an error and shows warnings as
	# advice; so does this check, naming them.  The kernel-headers patch,
	# the uapi header the kernel series adds, also passes --strict clean.
	ckp=$base/checkpatch-rdma-core
	rm -rf "$ckp"
	mkdir -p "$ckp"
	cp "$ksrc/scripts/checkpatch.pl" "$ksrc/scripts/spelling.txt" "$rsrc/buildlib/const_structs.checkpatch" "$ckp/"
	for p in "$BUILD/upstream/rdma-core"/0*.patch; do
		case $p in */0000-*) continue ;; esac
		l=$logdir/checkpatch-rdma-core-$(basename "$p" .patch).log
		strict=
		case $p in *-kernel-headers-*) strict=--strict ;; esac
		perl "$ckp/checkpatch.pl" --no-tree --show-types --terse $strict \
			--ignore PREFER_KERNEL_TYPES,FILE_PATH_CHANGES,EXECUTE_PERMISSIONS,USE_NEGATIVE_ERRNO,CONST_STRUCT \
			"$p" >"$l" 2>&1
		rc=0
		grep -q ': ERROR:' "$l" && rc=1
		[ -n "$strict" ] && grep -q ': \(WARNING\|CHECK\):' "$l" && rc=1
		types=$(sed -n 's/^[^ ]*: WARNING:\([A-Z_]*\):.*/\1/p' "$l" | sort | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? ", " : "; "), $2, $1 }')
		result $rc "checkpatch.pl as rdma-core's CI${strict:+, $strict}: $(basename "$p") ($(summary "$l")$types)" "$l"
	done
	changed=$(cd "$rtree" && grep -h '^+++ b/' "$BUILD/upstream/rdma-core"/0*.patch | sed 's|^+++ b/||' | sort -u)
	if [ -f "$stamp" ]; then
		while read -r sum t f; do
			[ -f "$rtree/$f" ] || continue
			[ "$(sha256sum <"$rtree/$f" | cut -d' ' -f1)" = "$sum" ] && touch -d "@$t" "$rtree/$f"
		done <"$stamp"
	fi
	: >"$stamp.new"
	for f in $changed; do
		echo "$(sha256sum <"$rtree/$f" | cut -d' ' -f1) $(stat -c %Y "$rtree/$f") $f" >>"$stamp.new"
	done
	mv "$stamp.new" "$stamp"
	# The build folder keyed by the pristine tree and CMake's arguments;
	# ninja rebuilds what the series' files change.
	set -- -GNinja -DENABLE_WERROR=1 -DNO_MAN_PAGES=1 -DNO_PYVERBS=1
	command -v ccache >/dev/null && set -- "$@" -DCMAKE_C_COMPILER_LAUNCHER=ccache
	rkey=$( { basename "$rsrc"; echo "$@"; } | sha256sum | cut -c1-12)
	rbuild=$base/rdma-core-build-$rkey
	for old in "$base"/rdma-core-build-*; do
		[ "$old" = "$rbuild" ] || rm -rf "$old"
	done
	mkdir -p "$rbuild"
	log=$logdir/rdma-core-build.log
	rc=0
	if [ ! -f "$rbuild/build.ninja" ]; then
		(cd "$rbuild" && cmake "$@" "$rtree") >"$log" 2>&1 || rc=$?
	fi
	if [ "$rc" = 0 ]; then
		ninja -C "$rbuild" -j"${JOBS:-2}" >>"$log" 2>&1 || rc=$?
	fi
	if [ "$rc" = 0 ] && [ -z "$(find "$rbuild/lib" -maxdepth 1 -name 'libwren-rdmav*.so' 2>/dev/null)" ]; then
		echo "no libwren-rdmav*.so in $rbuild/lib" >>"$log"
		rc=1
	fi
	result $rc "rdma-core with the series builds with its CMake, ENABLE_WERROR=1 ($(find "$rbuild/lib" -maxdepth 1 -name 'libwren-rdmav*.so' -printf '%f\n' 2>/dev/null))" "$log"
}

out=$logdir/upstream.tap
run >"$out.body"
{
	echo "1..$(grep -c '^\(not \)\?ok' "$out.body")"
	awk '/^(not )?ok/ { n++; sub(/^ok/, "ok " n); sub(/^not ok/, "not ok " n) } { print }' "$out.body"
} >"$out"
rm -f "$out.body"
cat "$out"
[ -z "$tap" ] || { mkdir -p "$(dirname "$tap")"; cp "$out" "$tap"; }
pass=$(grep -c '^ok' "$out" | tr -d ' ')
skip=$(grep -c '^ok.*# SKIP' "$out")
fail=$(grep -c '^not ok' "$out")
echo "check-upstream: $((pass - skip)) passed, $fail failed, $skip skipped ($(($(date +%s) - start)) s)"
[ "$fail" = 0 ]
