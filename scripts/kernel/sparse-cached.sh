#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# sparse for kbuild's CHECK=, through a cache of its findings: what ccache
# is to the compiler.  make check runs sparse over every kernel source
# twice (6.1 and 6.12), about 70 s of the lint layer, although most runs
# change few of the files; a file whose source, headers, sparse
# arguments and sparse version are those of an earlier run gets that
# run's output and exit status back without sparse.
#
# The key: sparse's version, its arguments, the kernel headers' package
# (WREN_SPARSE_HEADERS: name and version, whose files do not change
# under them), and the bytes of the source and of every header of the
# tree the compiler read for it, as listed in kbuild's .cmd file of the
# object (the W=1 build that runs first wrote it; an object compiled in
# the same make run has its list from the previous compile, which still
# names the changed source).  The tree's own root (WREN_SPARSE_ROOT, the
# M= directory kernel/build.sh mirrors the sources into) is replaced by a
# placeholder in the arguments and the stored output, so clones at other
# paths share entries; kbuild's -Wp,-MMD dependency file is left out.
# Without WREN_SPARSE_CACHE or a .cmd file this is plain sparse.
#
# usage (kernel/build.sh): make C=2 CHECK=kernel/sparse-cached.sh ... with
#   WREN_SPARSE_CACHE (a writable directory) and WREN_SPARSE_ROOT set
. "$(dirname "$0")/../lib/common.sh"
set +e # failures are handled here, one by one
set -o pipefail

cache=${WREN_SPARSE_CACHE:-}
root=${WREN_SPARSE_ROOT:-}
src=${*: -1}
cmd=$(dirname "$src")/.$(basename "$src" .c).o.cmd
if [ -z "$cache" ] || [ -z "$root" ] || [ ! -d "$cache" ] || [ ! -r "$cmd" ]; then
	exec "${WREN_SPARSE:-sparse}" "$@"
fi

args=()
for a in "$@"; do
	case $a in
	-Wp,-MMD,* | -Wp,-MD,*) ;;
	*) args+=("$a") ;;
	esac
done
set -- "${args[@]}"

# The tree's own headers in the deps_ list of the .cmd file.
mapfile -t deps < <(sed -n '/^deps_/,/^$/p' "$cmd" |
	sed '1d; /wildcard/d; s/[[:space:]\\]//g' | grep "^$root/")
if ! sum=$(cat "$src" "${deps[@]}" | sha256sum); then
	exec "${WREN_SPARSE:-sparse}" "$@"
fi
key=$({
	"${WREN_SPARSE:-sparse}" --version
	echo "${WREN_SPARSE_HEADERS:-}"
	printf '%s\n' "$@" | sed "s|$root|@ROOT@|g"
	echo "$sum"
} | sha256sum | cut -c1-40)
entry=$cache/${key:0:2}/$key

if [ -r "$entry.out" ] && [ -r "$entry.rc" ]; then
	touch "$entry.rc"
	sed "s|@ROOT@|$root|g" "$entry.out" >&2
	exit "$(cat "$entry.rc")"
fi

out=$("${WREN_SPARSE:-sparse}" "$@" 2>&1)
rc=$?
[ -z "$out" ] || printf '%s\n' "$out" >&2
mkdir -p "${entry%/*}" &&
	printf '%s' "${out:+$out$'\n'}" | sed "s|$root|@ROOT@|g" >"$entry.out.$$" &&
	echo "$rc" >"$entry.rc.$$" &&
	mv "$entry.out.$$" "$entry.out" && mv "$entry.rc.$$" "$entry.rc"
rm -f "$entry.out.$$" "$entry.rc.$$"
exit "$rc"
