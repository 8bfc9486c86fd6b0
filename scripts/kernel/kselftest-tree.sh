#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The kernel's kselftest framework, from Debian's linux-source-6.1 (the
# tarball the lint already unpacks checkpatch from): lib.mk, kselftest.h,
# kselftest_harness.h, kselftest/runner.sh and prefix.pl, run_kselftest.sh.
# Extracted once into a cache keyed by the package version (about 10 s:
# xz has to read the whole tarball), then linked as DEST.
#
# usage: kernel/kselftest-tree.sh DEST   (DEST becomes a symlink to the cached
#                                  tools/testing/selftests; cheap when current)
. "$(dirname "$0")/../lib/common.sh"

dest=${1:?usage: kernel/kselftest-tree.sh DEST}

pkg=linux-source-6.1
ver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)
[ -n "$ver" ] || { echo "kselftest-tree: $pkg is not installed (scripts/deps/kernel.sh)" >&2; exit 1; }

dir=
for base in "${WREN_CACHE:-/var/cache/wren}" "$BUILD/cache"; do
	if mkdir -p "$base/kselftest" 2>/dev/null && [ -w "$base/kselftest" ]; then
		dir=$base/kselftest/$ver
		break
	fi
done
[ -n "$dir" ] || { echo "kselftest-tree: no writable cache directory" >&2; exit 1; }

if [ ! -f "$dir/.complete" ]; then
	tarball=$(dpkg -L "$pkg" | grep -E '/linux-source-6\.1\.tar\.xz$' | head -n 1)
	tmp=$(mktemp -d "$dir.XXXXXX")
	chmod 755 "$tmp"
	s=linux-source-6.1/tools/testing/selftests
	tar -xJf "$tarball" -C "$tmp" --strip-components=4 \
		$s/lib.mk $s/kselftest.h $s/kselftest_harness.h \
		$s/kselftest/runner.sh $s/kselftest/prefix.pl $s/run_kselftest.sh
	touch "$tmp/.complete"
	rm -rf "$dir"
	mv "$tmp" "$dir" 2>/dev/null || rm -rf "$tmp" # another run won the race
fi

if [ "$(readlink "$dest" 2>/dev/null || true)" != "$dir" ]; then
	mkdir -p "$(dirname "$dest")"
	ln -sfn "$dir" "$dest"
fi
