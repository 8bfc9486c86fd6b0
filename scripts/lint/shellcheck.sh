#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Runs shellcheck on every shell file of the tree (lint/files.sh sh), at its
# default severity (style notes too); prints the findings as gcc-style
# lines and exits non-zero on any.  SC1091 (a sourced file not followed)
# is off: sources are named through variables ($SCRIPTS, $WREN_TOP) that
# the checker cannot resolve, and every sourced file is checked on its own.
#
# All files go to one shellcheck: files named on its command line are
# the ones it can follow where another sources them, which tells it the
# variables a library sets (about 90 s for the tree on two busy cores).
# A clean run is kept in $WREN_CACHE/shellcheck, keyed by shellcheck's
# version and every file's name and bytes, so a warm run of the same
# tree costs a hash.
#
# usage: lint/shellcheck.sh
. "$(dirname "$0")/../lib/common.sh"

command -v shellcheck >/dev/null || die "shellcheck is not installed (scripts/deps/lint.sh)"
cache=
for base in "$WREN_CACHE" "$BUILD/cache"; do
	if mkdir -p "$base/shellcheck" 2>/dev/null && [ -w "$base/shellcheck" ]; then
		cache=$base/shellcheck
		break
	fi
done
ver=$(shellcheck --version | sed -n 's/^version: //p')

cd "$TOP" || exit
files=$("$SCRIPTS/lint/files.sh" sh)
# shellcheck disable=SC2086 # one word per file; paths have no blanks
key=$( (echo "$ver"; echo "$files"; cat $files) | sha256sum | cut -c1-32)
echo "shellcheck $ver: $(echo "$files" | wc -l) files"
if [ -n "$cache" ] && [ -f "$cache/clean-$key" ]; then
	echo "shellcheck: clean (cached, $cache/clean-$key)"
	exit 0
fi
# shellcheck disable=SC2086 # one word per file
shellcheck -e SC1091 -f gcc $files
[ -z "$cache" ] || touch "$cache/clean-$key"
