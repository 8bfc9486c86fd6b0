#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The feature probes' answers side by side, one column a kernel series:
# which tests a series needs to run follows from this table (DEVELOPERS.md,
# "One kernel").  Each series' answers are the wren_config.h its last
# `make modules KVER=` wrote (kernel-config.sh); a series not built yet
# is built first.  Only the probes whose answers differ are printed, and
# a series that answers a probe unlike every other is marked with '*'
# there: those are the probes only that series' tests exercise.
#
# usage: kernel/probes.sh
. "$(dirname "$0")/../lib/common.sh"

series=$("$SCRIPTS/kernel/series.sh" list) || exit 1
files=
for k in $series; do
	f=$BUILD/modules/$k/src/wren_config.h
	[ -f "$f" ] || "$SCRIPTS/kernel/build.sh" "$k" modules >&2 || die "building $k failed"
	files="$files $f"
done

# shellcheck disable=SC2086 # the series and their files
awk -v names="$series" '
	BEGIN { n = split(names, name, /[ \n]+/) }
	FNR == 1 { col++ }
	/^#define HAVE_[A-Z0-9_]+/ { ans[$2, col] = 1; probe[$2] = 1 }
	/^\/\* #undef HAVE_[A-Z0-9_]+/ { ans[$3, col] = 0; probe[$3] = 1 }
	END {
		line = sprintf("%-36s", "probe")
		for (c = 1; c <= n; c++)
			line = line sprintf(" %6s", name[c])
		print line
		for (p in probe) {
			differ = 0
			for (c = 2; c <= n; c++)
				if (ans[p, c] != ans[p, 1])
					differ = 1
			if (!differ)
				continue
			line = sprintf("%-36s", p)
			for (c = 1; c <= n; c++) {
				same = 0
				for (d = 1; d <= n; d++)
					if (d != c && ans[p, d] == ans[p, c])
						same = 1
				line = line sprintf(" %5d%s", ans[p, c], same ? " " : "*")
			}
			print line | "sort"
		}
		close("sort")
		print total() " probes, " differing() " differ"
	}
	function total(  p, t) { for (p in probe) t++; return t }
	function differing(  p, c, t, d) {
		for (p in probe) {
			d = 0
			for (c = 2; c <= n; c++)
				if (ans[p, c] != ans[p, 1])
					d = 1
			t += d
		}
		return t
	}' $files
