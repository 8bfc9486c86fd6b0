#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The author and date of both patch series (upstream/linux.sh,
# upstream/rdma-core.sh), as shell assignments for eval: aname, amail
# and date.  The author is WREN_UPSTREAM_AUTHOR ("Name <mail>"), else
# the tree's git user, else the project's; the date is the last
# commit's, so that the series of one tree is the same every time.
#
# usage: eval "$(upstream/author.sh)"
. "$(dirname "$0")/../lib/common.sh"

author=${WREN_UPSTREAM_AUTHOR:-}
if [ -z "$author" ]; then
	n=$(git -C "$TOP" config user.name || true)
	m=$(git -C "$TOP" config user.email || true)
	if [ -n "$n" ] && [ -n "$m" ]; then
		author="$n <$m>"
	else
		author="Wren maintainers <maintainers@wren.invalid>"
	fi
fi
amail=${author##*<}
printf 'aname=%q\namail=%q\ndate=%q\n' "${author% <*}" "${amail%>}" \
	"$(git -C "$TOP" log -1 --format=%cD 2>/dev/null || date -R)"
