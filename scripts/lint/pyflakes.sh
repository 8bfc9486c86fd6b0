#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# pyflakes (Debian's pyflakes3) on every Python file of the tree
# (lint/files.sh py): unused imports and names, undefined names, ...;
# prints its findings and exits non-zero on any.
#
# usage: lint/pyflakes.sh
. "$(dirname "$0")/../lib/common.sh"

command -v pyflakes3 >/dev/null || die "pyflakes3 is not installed (scripts/deps/lint.sh)"
cd "$TOP" || exit
files=$("$SCRIPTS/lint/files.sh" py)
echo "pyflakes3: $(echo "$files" | wc -l) files"
# shellcheck disable=SC2086 # one word per file; paths have no blanks
pyflakes3 $files
