#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The tree's files of one language, one path a line relative to TOP, for
# make lint: the tracked files named so, and the tracked files of no such
# name whose first line is that language's #! (guest scripts, fakes,
# packaging's maintainer scripts, .ci/run).
#
# usage: lint/files.sh sh|py
. "$(dirname "$0")/../lib/common.sh"

case ${1:?usage: lint/files.sh sh|py} in
sh) ext=sh re='^#!.*(/|env )(ba|da)?sh( |$)' ;;
py) ext=py re='^#!.*python' ;;
*) die "no such language: $1" ;;
esac

cd "$TOP" || exit
{
	git ls-files -- "*.$ext"
	# shellcheck disable=SC2016 # the program is awk's, not the shell's
	git ls-files -z | xargs -0 awk -v re="$re" -v ext=".$ext" '
		FNR == 1 { if ($0 ~ re && substr(FILENAME, length(FILENAME) - length(ext) + 1) != ext) print FILENAME; nextfile }'
} | sort -u
