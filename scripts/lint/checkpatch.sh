#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# checkpatch.pl --strict on every kernel source and header of the project.
#
# checkpatch comes from Debian's linux-source-6.1 (the tarball it installs
# under /usr/src), extracted once into a cache keyed by the package version.
# It runs with --no-tree --file, as it would on an out-of-tree driver.  The
# only rule switched off is one that cannot apply to files outside a tree:
#   FILE_PATH_CHANGES  "added, moved or deleted file(s), does MAINTAINERS
#                      need updating?" (there is no MAINTAINERS file here)
#
# usage: lint/checkpatch.sh   (prints checkpatch's report, exits non-zero on
#                              any error, warning or check)
. "$(dirname "$0")/../lib/common.sh"


pkg=linux-source-6.1
ver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)
[ -n "$ver" ] || { echo "lint-checkpatch: $pkg is not installed (scripts/deps/kernel.sh)" >&2; exit 1; }
tarball=$(dpkg -L "$pkg" | grep -E '/linux-source-6\.1\.tar\.xz$' | head -n 1)

dir=
for base in "${WREN_CACHE:-/var/cache/wren}" "$BUILD/cache"; do
	if mkdir -p "$base/checkpatch" 2>/dev/null && [ -w "$base/checkpatch" ]; then
		dir=$base/checkpatch/$ver
		break
	fi
done
[ -n "$dir" ] || { echo "lint-checkpatch: no writable cache directory" >&2; exit 1; }

if [ ! -f "$dir/.complete" ]; then
	tmp=$(mktemp -d "$dir.XXXXXX")
	tar -xJf "$tarball" -C "$tmp" --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
	touch "$tmp/.complete"
	rm -rf "$dir"
	mv "$tmp" "$dir" 2>/dev/null || rm -rf "$tmp" # another run won the race
fi

cd "$TOP" || exit
files=$(find drivers include/linux/wren include/rdma include/uapi/rdma -type f -name '*.[ch]' 2>/dev/null | sort)
[ -n "$files" ] || { echo "lint-checkpatch: no kernel sources found" >&2; exit 1; }

# The test GPU's kernel module (selftests/rdma/gpu) is kernel code too:
# its .c files, but not the user-space ones (wren_gpu_test.c and the GPU
# checks), and its private header wtgpu.h.  wren_test_gpu.h is its uapi,
# shared with user space, and stays out as before.  So is the peer-memory
# registry's test client (selftests/driver/peer_mem).
for f in selftests/rdma/gpu/*.c; do
	case ${f##*/} in
	wren_gpu_test.c | wren_nccl_check.c | gpu_mem_check.c) ;;
	*) files="$files $f" ;;
	esac
done
files="$files selftests/rdma/gpu/wtgpu.h"
files="$files selftests/driver/peer_mem/wren_peer_test.c"
# shellcheck disable=SC2086 # one word per file
perl "$dir/scripts/checkpatch.pl" --no-tree --strict --file --terse \
	--show-types --ignore FILE_PATH_CHANGES $files
