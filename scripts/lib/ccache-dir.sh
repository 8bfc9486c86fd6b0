#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Print the directory of the build's compiler cache, creating it and its
# ccache.conf, or nothing when there is none to use: ccache missing, the
# cache not writable, or WREN_CCACHE=0.  The Makefile gives it to the
# host's C builds (hw, fuzz) and lib/kbuild.sh to kbuild.
#
# make check compiles the same sources again on every run (a clean
# clone) and the modules several times in one run, each from clean so
# that every warning is printed.  ccache hashes the compiler, its command
# line and the (preprocessed, or in direct mode every included) source -
# keyed by the inputs - and replays a hit's stderr, so -Werror and the W=1
# checks still see every warning.  The cache is never required.
#
# usage: lib/ccache-dir.sh
[ "${WREN_CCACHE:-1}" = 1 ] || exit 0
command -v ccache >/dev/null 2>&1 || exit 0
dir=${WREN_CACHE:-/var/cache/wren}/ccache
{ mkdir -p "$dir" && [ -w "$dir" ]; } 2>/dev/null || exit 0
# kernel/sync.sh and kernel-config.sh write sources and wren_config.h just
# before each kbuild; their fresh mtimes would make direct mode give up
# on every compile.  The contents are still what is hashed.
if [ ! -f "$dir/ccache.conf" ]; then
	printf '%s\n' "max_size = 2G" \
		"sloppiness = include_file_mtime,include_file_ctime" \
		>"$dir/ccache.conf.$$" && mv "$dir/ccache.conf.$$" "$dir/ccache.conf"
fi
echo "$dir"
