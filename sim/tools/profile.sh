#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Where an experiment's time goes: runs it under callgrind and sums the
# instructions executed by part - the NIC (libwrenhw), the host stub,
# the simulation's own device, link, switch and experiment, ns-3's core,
# libc's copies and allocator, the C++ library.
#
# usage: sim/tools/profile.sh PROGRAM [ARGS...]
#   e.g. sim/tools/profile.sh build/sim/e1-convergence --senders=2 \
#          --join-ms=2 --settle-ms=3 --measure-ms=3
set -eu
[ $# -ge 1 ] || { echo "usage: $0 PROGRAM [ARGS...]" >&2; exit 2; }
command -v valgrind >/dev/null ||
	{ echo "profile: valgrind is not installed (scripts/deps/sim.sh)" >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>&1
callgrind_annotate --auto=no --inclusive=no --threshold=100 "$out" |
	grep -v "PROGRAM TOTALS" |
	awk '/^ *[0-9,]+ +\(/ {
		ir = $1; gsub(",", "", ir); part = "other (loader, libgcc)"
		if ($0 ~ /hw\/src\/|whw_|wrenhw_/) part = "the NIC (libwrenhw, hw/src)"
		else if ($0 ~ /hw\/host\/|:th_|:td_|:ro_/) part = "the host stub (hw/host)"
		else if ($0 ~ /sim\/|tools\/fabric|Wren/) part = "device, link, switch, experiment (sim/)"
		else if ($0 ~ /memmove|memcpy|memset/) part = "memcpy and memset (libc)"
		else if ($0 ~ /malloc|free|_int_/) part = "malloc and free (libc)"
		else if ($0 ~ /libns3/) part = "ns-3 core"
		else if ($0 ~ /libstdc\+\+|bits\/|c\+\+\//) part = "the C++ library"
		sum[part] += ir; total += ir
	}
	END {
		printf "# %.0f M instructions\n", total / 1e6
		for (p in sum) printf "%5.1f%% %s\n", 100 * sum[p] / total, p
	}' | sort -rn
